"""Tokyo Jutaku's printed faces, each drawn by one function (millimetres, y down, from the top-left
trim corner). Game facts come from the canonical data (assets/jutaku/), sizes and colours from
layouts/jutaku.toml. Colour is never the only cue: drinks, discs and pyramids carry their colour's
name, architects their number, site sides their name, Metro pyramids and discs their player
colour's symbol (assets/jutaku/izakaya.toml `symbol`).
"""
from __future__ import annotations

import math

from ... import icons
from ...colours import mix, readable_on
from ...canon.jutaku import Jutaku, Site, SiteSide
from ...draw import Canvas, Style, text_width
from ...draw.base import PT
from ...draw.fit import fit_text
from ...qr import draw_qr, footprint, qr_size, short_code
from .layout import Layout, TextStyle
from .pack import Block


# ------------------------------------------------------------------------------------- colours
class Palette:
    """The layout's colours; with ink saver, large fills become light tints (cues kept)."""

    def __init__(self, layout: Layout, ink_saver: bool):
        c = layout.colours
        self.c, self.ink_saver = c, ink_saver
        self.ink, self.paper, self.border, self.grid, self.cut = c.ink, c.paper, c.border, c.grid, c.cut
        self.blue_side = c.blue_side if not ink_saver else mix(c.blue_side, c.paper, 0.5)
        self.white_side = c.white_side if not ink_saver else c.paper
        self.piece = c.piece if not ink_saver else mix(c.piece, c.paper, 0.7)
        self.coin = c.coin if not ink_saver else mix(c.coin, c.paper, 0.7)

    def fill(self, colour: str) -> str:
        return colour if not self.ink_saver else mix(colour, self.paper, 0.75)

    def text_on(self, colour: str) -> str:
        return readable_on(self.fill(colour))


def _text(canvas: Canvas, box, text: str, style: TextStyle, where: str, *, anchor="start", fill="#000000"):
    return fit_text(canvas, box, text, style.size, style.min, font=style.font, anchor=anchor, fill=fill,
                    where=where)


def wrap(text: str, width: float, size: float, font="regular") -> list[str]:
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and text_width(trial, size, font) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def paragraph(canvas: Canvas, x: float, y: float, width: float, text: str, size: float, *,
              font="regular", fill="#000000", lead: float = 1.25) -> float:
    """Wrapped text from (x, y) down; returns the y below it."""
    for line in wrap(text, width, size, font):
        y += size * PT * lead
        canvas.text(x, y, line, size, font=font, fill=fill)
    return y + size * PT * 0.4


# ------------------------------------------------------------------------------------- site cards
def qr_spot(data: Jutaku, face: SiteSide, layout: Layout, payload: str) -> tuple[float, float, float] | None:
    """Where a face has room for its QR code: (x, y, size) over 2 x 2 squares outside every site
    border (a top corner first, the title strip included), or None."""
    cell = data.card.cell_mm
    cols, rows = data.card.grid
    size = qr_size(payload)               # the code, its quiet zone and its short code
    if size > 3 * cell:
        return None
    size = max(size, 2 * cell)
    slack = layout.site_card.qr_corner_free
    inside = {c for b in face.borders for c in b}

    def free(c, r):
        return all((x, y) not in inside for x in (c, c + 1) for y in (r, r + 1))

    def clear(x, y):
        """What the code at (x, y) paints reaches no square of a site border by more than `slack`
        (it may reach past its 2 x 2 squares of free ground, e.g. for its short code, over free
        ground)."""
        fx, fy, fw, fh = footprint(x, y, size)
        c0, r0 = int((fx + slack) // cell), int((fy + slack) // cell)
        c1 = math.ceil((fx + fw - slack) / cell - 1e-6)
        r1 = math.ceil((fy + fh - slack) / cell - 1e-6)
        return all((c, r) not in inside for c in range(c0, c1) for r in range(r0, r1))
    w = cols * cell
    fx, _, fw, _ = footprint(0.0, 0.0, size)     # the painted part, narrower than the square
    if free(cols - 2, 0) and clear(w - fx - fw, 0.0):
        return (w - fx - fw, 0.0, size)
    if free(0, 0) and clear(-fx, 0.0):
        return (-fx, 0.0, size)
    over = size - 2 * cell                 # how far the square reaches past its 2 x 2 squares
    top = data.card.header_rows * cell     # inside the card, the code stays under the title strip:
                                           # it covered the bottom of the yen ("¥9,000" read "¥9.000")
    for r in range(1, rows - 1):
        for c in range(cols - 1):
            if not free(c, r):
                continue
            for dx, dy in ((over / 2, over / 2), (0, 0), (over, 0), (0, over), (over, over)):
                x = max(-fx, min(c * cell - dx, w - fx - fw))
                y = max(top, min(r * cell - dy, rows * cell - size))
                if clear(x, y):
                    return (x, y, size)
    return None


def draw_site_face(canvas: Canvas, data: Jutaku, layout: Layout, pal: Palette, site: Site, side: str,
                   payload: str) -> None:
    sc = layout.site_card
    cell = data.card.cell_mm
    cols, rows = data.card.grid
    w, h = cols * cell, rows * cell
    face = site.side(side)
    district = data.district[site.district]
    where = f"site card {site.id} ({side})"
    canvas.rect(0, 0, w, h, Style(fill=pal.blue_side if side == "blue" else pal.white_side, stroke=None))
    # the card's squares, faintly (Countdown builds on all of them; the grid helps placing pieces)
    grid = Style(stroke=pal.grid, width=sc.grid_width)
    top = data.card.header_rows * cell
    for i in range(1, cols):
        canvas.line(i * cell, top, i * cell, h, grid)
    for j in range(data.card.header_rows, rows):
        canvas.line(0, j * cell, w, j * cell, grid)
    # the site borders: ground tinted, outline thick and black
    for n, border in enumerate(face.borders, 1):
        canvas.rects(((x * cell, y * cell, cell, cell) for x, y in sorted(border)),
                     mix(pal.grid, pal.paper, 0.65))
        line = Style(stroke=pal.border, width=sc.border_width)
        for x, y in border:
            for dx, dy, x1, y1, x2, y2 in ((0, -1, 0, 0, 1, 0), (0, 1, 0, 1, 1, 1),
                                          (-1, 0, 0, 0, 0, 1), (1, 0, 1, 0, 1, 1)):
                if (x + dx, y + dy) not in border:
                    canvas.line((x + x1) * cell, (y + y1) * cell, (x + x2) * cell, (y + y2) * cell, line)
        if len(face.borders) == 2:
            fx, fy = min(border, key=lambda c: (c[1], c[0]))
            _text(canvas, (fx * cell + 1, fy * cell + 1, 6, 4), f"site {n}", sc.small, f"{where}: border {n}",
                  fill=pal.ink)
    # the title strip: district, requirement, yen; the QR code
    spot = qr_spot(data, face, layout, payload)
    left, right = 0.0, w
    if spot and spot[1] < cell / 2:
        if spot[0] > w / 2:
            right = spot[0] - 0.5
        else:
            left = spot[0] + spot[2] + 0.5
    elif not spot:
        # no 2 x 2 squares of free ground for a code: the short code the companion takes typed
        # (its /q page by the code printed under every QR code) at the strip's right end instead
        right = w - 13.0
        _text(canvas, (right + 0.5, 0.6, 12.0, 4.6), "companion", sc.small, f"{where}: short code caption",
              fill=pal.ink)
        _text(canvas, (right + 0.5, 5.2, 12.0, 4.2), short_code(payload), sc.yen, f"{where}: short code",
              fill=pal.ink)
    strip = Style(fill=pal.fill(district.hex), stroke=None)
    canvas.rect(left, 0, 3.0, cell, strip)
    x = left + 4.0
    room = right - x - 1
    number = site.id.rsplit("-", 1)[-1]
    _text(canvas, (x, 0.6, room * 0.42, 5.0), face.requirement, sc.requirement, f"{where}: requirement",
          fill=pal.ink)
    col, row = site.position
    _text(canvas, (x, 5.6, room * 0.42, 3.8), f"{side.upper()} · {number} · map {row + 1}-{col + 1}", sc.small,
          f"{where}: side and map square (row-column)", fill=pal.ink)
    nx = x + room * 0.45
    _text(canvas, (nx, 0.6, room * 0.55, 4.6), f"{district.name} {district.kanji}", sc.district,
          f"{where}: district", fill=pal.ink)
    _text(canvas, (nx, 5.2, room * 0.55, 4.2), f"¥{face.yen:,}", sc.yen, f"{where}: yen", fill=pal.ink)
    if spot:
        draw_qr(canvas, payload, *spot)
    canvas.rect(0, 0, w, h, Style(stroke=pal.grid, width=0.2))


# ------------------------------------------------------------------------------------------ pieces
def draw_piece_block(canvas: Canvas, width: float, height: float, data: Jutaku, layout: Layout,
                     pal: Palette, block: Block, index: int, count: int) -> None:
    p = layout.pieces
    cell = data.card.cell_mm
    bw = block.cols * cell
    x0 = max(0.0, (width - bw) / 2)
    title = (f"Tokyo Jutaku — the {len(data.pieces)} building pieces"
             + (f" ({index} of {count})" if count > 1 else "")
             + ": print on thick card stock (or glue on card), cut on the red lines; "
               "1 square = 1 square of a site card.")
    fit_text(canvas, (x0, 0, bw, p.title_height - 2), title, 10, 6, font="bold", fill=pal.ink,
             where="piece sheet: title")
    y0 = p.title_height
    for placed in block.placed:
        canvas.rects(((x0 + x * cell, y0 + y * cell, cell, cell) for x, y in sorted(placed.cells)), pal.piece)
    cut = Style(stroke=pal.cut, width=p.cut_width)
    edges = set()
    for placed in block.placed:
        for x, y in placed.cells:
            for dx, dy, seg in ((0, -1, (x, y, x + 1, y)), (0, 1, (x, y + 1, x + 1, y + 1)),
                                (-1, 0, (x, y, x, y + 1)), (1, 0, (x + 1, y, x + 1, y + 1))):
                if (x + dx, y + dy) not in placed.cells:
                    edges.add(seg)
    for x1, y1, x2, y2 in sorted(edges):
        canvas.line(x0 + x1 * cell, y0 + y1 * cell, x0 + x2 * cell, y0 + y2 * cell, cut)
    for placed in block.placed:
        fx, fy = min(placed.cells, key=lambda c: (c[1], c[0]))
        _text(canvas, (x0 + fx * cell + 0.8, y0 + fy * cell + 0.8, cell - 1.6, 3.4), str(placed.number),
              p.number, f"piece {placed.piece}: number", fill=pal.ink)


# ------------------------------------------------------------------------------------------ tokens
def draw_architect(canvas: Canvas, layout: Layout, pal: Palette, a) -> None:
    d = layout.tokens.architect
    r = d / 2
    canvas.circle(r, r, r, Style(fill=pal.fill(a.hex), stroke=pal.ink, width=0.5))
    canvas.circle(r, r, r * 0.62, Style(fill=pal.paper, stroke=pal.ink, width=0.4))
    fit_text(canvas, (r - r * 0.5, r - r * 0.55, r, r * 0.6), str(a.number), layout.tokens.big.size * 1.3,
             layout.tokens.big.min, font="bold", anchor="middle", fill=pal.ink, where=f"architect {a.id}: number")
    # the name on the inner circle's chord at the name's lowest line, clear of the circle's pen
    # (YELLOW, PURPLE and ORANGE ran over it)
    top, height = r + r * 0.1, r * 0.26
    half = math.sqrt((r * 0.62 - 0.2 - 0.3) ** 2 - (top + height - r) ** 2)
    _text(canvas, (r - half, top, 2 * half, height), a.name.upper(), layout.tokens.label,
          f"architect {a.id}: name", anchor="middle", fill=pal.ink)


def draw_drink(canvas: Canvas, layout: Layout, pal: Palette, drink) -> None:
    d = layout.tokens.drink
    r = d / 2
    fill = pal.fill(drink.hex)
    canvas.circle(r, r, r, Style(fill=fill, stroke=pal.ink, width=0.4))
    ink = pal.text_on(drink.hex)
    # a small bottle: body and neck
    canvas.rect(r - d * 0.11, r - d * 0.36, d * 0.22, d * 0.34, Style(fill=None, stroke=ink, width=0.35),
                radius=d * 0.05)
    canvas.rect(r - d * 0.05, r - d * 0.44, d * 0.10, d * 0.08, Style(fill=None, stroke=ink, width=0.35))
    _text(canvas, (r - r * 0.8, r + d * 0.04, r * 1.6, d * 0.24), drink.name.upper(), layout.tokens.label,
          f"drink {drink.id}: name", anchor="middle", fill=ink)


def draw_disc(canvas: Canvas, layout: Layout, pal: Palette, colour) -> None:
    d = layout.tokens.disc
    r = d / 2
    canvas.circle(r, r, r, Style(fill=pal.fill(colour.hex), stroke=pal.ink, width=0.4))
    icons.player_symbol(canvas, colour.symbol, r, r - d * 0.17, d * 0.36, pal.paper, pal.ink, width=0.35)
    _text(canvas, (r - d * 0.4, r + d * 0.06, d * 0.8, d * 0.22), colour.name.upper(), layout.tokens.label,
          f"disc {colour.id}: name", anchor="middle", fill=pal.text_on(colour.hex))


def draw_pyramid(canvas: Canvas, layout: Layout, pal: Palette, colour) -> None:
    s = layout.tokens.pyramid
    canvas.polygon([(s / 2, s * 0.08), (s * 0.94, s * 0.78), (s * 0.06, s * 0.78)],
                   Style(fill=pal.fill(colour.hex), stroke=pal.ink, width=0.4))
    icons.player_symbol(canvas, colour.symbol, s / 2, s * 0.56, s * 0.3, pal.paper, pal.ink, width=0.35)
    _text(canvas, (s * 0.05, s * 0.8, s * 0.9, s * 0.18), colour.name.upper(), layout.tokens.label,
          f"pyramid {colour.id}: name", anchor="middle", fill=pal.ink)


def draw_coin(canvas: Canvas, layout: Layout, pal: Palette, value: int, d: float) -> None:
    r = d / 2
    canvas.circle(r, r, r, Style(fill=pal.coin, stroke=pal.ink, width=0.4))
    canvas.circle(r, r, r * 0.82, Style(fill=None, stroke=pal.ink, width=0.25))
    fit_text(canvas, (r - r * 0.7, r - r * 0.45, r * 1.4, r * 0.9), f"¥{value}", layout.tokens.big.size,
             layout.tokens.big.min * 0.7, font="bold", anchor="middle", fill=pal.ink, where=f"coin {value}")


# ------------------------------------------------------------------------------------------- cards
def _card_frame(canvas: Canvas, w: float, h: float, pal: Palette, band: str | None, title: str,
                layout: Layout, where: str, sub: str = "") -> float:
    canvas.rect(0, 0, w, h, Style(fill=pal.paper, stroke=pal.grid, width=0.3), radius=3)
    if band:
        canvas.rect(0, 0, w, 16, Style(fill=pal.fill(band), stroke=None), radius=3)
    ink = pal.text_on(band) if band else pal.ink
    _text(canvas, (4, 2, w - 8, 7.5), title, layout.cards.title, f"{where}: title", fill=ink)
    if sub:
        _text(canvas, (4, 9.5, w - 8, 5), sub, layout.cards.body, f"{where}: subtitle", fill=ink)
    return 20.0


def draw_stock_card(canvas: Canvas, data: Jutaku, layout: Layout, pal: Palette, colour: str | None) -> None:
    w, h = layout.cards.stock
    iz = data.izakaya
    body = layout.cards.body
    if colour is None:
        y = _card_frame(canvas, w, h, pal, None, "Price adjustment", layout, "shape stock card",
                        "Lay this card face down (from Tokyo Jidohanbaiki)")
        text = next(a.text for a in iz.action if a.id == "price")
        paragraph(canvas, 4, y, w - 8, text + " One disc per action phase.", body.size, fill=pal.ink)
        return
    drink = data.drink[colour]
    y = _card_frame(canvas, w, h, pal, drink.hex, f"{drink.name} stock", layout, f"stock card {colour}",
                    "Colour stock card (from Tokyo Jidohanbaiki)")
    price = iz.start_price[colour]
    y = paragraph(canvas, 4, y, w - 8, f"Starting price: ¥{price} ({price // iz.coin} coin"
                  f"{'s' if price // iz.coin != 1 else ''} of ¥{iz.coin}). Coins on this card are the "
                  f"market price of a {drink.name.lower()} drink.", body.size, fill=pal.ink)
    y = paragraph(canvas, 4, y, w - 8, "Action: put a disc here (one per action phase), take a drink "
                  "of this colour and place it on a corner shared by 4 cards (by 2 once those are full).",
                  body.size, fill=pal.ink)
    for i in range(price // iz.coin):
        canvas.circle(12 + i * 14, h - 14, 6, Style(fill=None, stroke=pal.ink, width=0.3, dash=(1, 1)))


def draw_track(canvas: Canvas, data: Jutaku, layout: Layout, pal: Palette) -> None:
    w, h = layout.cards.track
    n = data.izakaya.players[1]
    canvas.rect(0, 0, w, h, Style(fill=pal.paper, stroke=pal.grid, width=0.3), radius=3)
    _text(canvas, (4, 1.5, w - 8, 6), "Izakaya turn order — highest bid first; tied players swap places",
          layout.cards.body, "turn-order track: title", fill=pal.ink)
    slot = (w - 8) / n
    for i in range(n):
        canvas.rect(4 + i * slot + 1, 9, slot - 2, h - 12, Style(fill=None, stroke=pal.ink, width=0.4), radius=2)
        fit_text(canvas, (4 + i * slot + 2, 10, 8, 7), str(i + 1), 14, 8, font="bold", fill=pal.ink,
                 where="turn-order track: number")


REFERENCE_TITLES = {"jutaku": "Tokyo Jutaku", "countdown": "Countdown", "bottle-bonus": "Bottle Bonus",
                    "izakaya": "Izakaya"}


def _height(lines: list[str], width: float, size: float) -> float:
    return sum(len(wrap(x, width, size)) * size * PT * 1.25 + size * PT * 0.4 for x in lines)


def reference_text(data: Jutaku, ref: str) -> list[str]:
    r, iz, c = data.rules, data.izakaya, data.countdown
    if ref == "countdown":
        secs = list(c.floor_seconds) + [c.further_floor_seconds]
        return [f"{c.players[0]}–{c.players[1]} players, {c.minutes[0]} min. Build on the whole card.",
                "Floors: " + " / ".join(f"{s} s" for s in secs[:-1]) + f", then {secs[-1]} s each.",
                "Add no piece on a floor: you are out. Score: pieces used."]
    if ref == "bottle-bonus":
        return [f"After each round the builder draws {data.bottle_bonus.drinks_per_other_player} drink per "
                "other player; each other player grabs at most 1."] + \
               [f"{d.name}: {d.text}" for d in data.drinks]
    if ref == "izakaya":
        ends = ", ".join(f"{n}p ¥{y:,}" for n, y in iz.end_yen.items())
        return [f"Bid secretly; highest first, ties swap. {iz.action_discs} discs each per action phase: "
                "bottle, price, claim, build.",
                f"End: one more action phase once the yen bid reaches {ends}.",
                "Score: floors × drinks on the card's corners, plus yen kept. Tie: most yen kept."]
    return ["Everyone builds at once. Say stop! when the building has exactly the storeys and pieces "
            "(3.V/// = 3 storeys, 8 pieces).",
            f"Completed: keep the card. Move up to {r.move} spaces, no diagonals; gaps do not count.",
            f"The game ends at a player's {r.end_sites}th card. Most yen wins; ties share."]


def draw_reference(canvas: Canvas, data: Jutaku, layout: Layout, pal: Palette, ref: str, payload: str) -> None:
    w, h = layout.cards.reference
    y = _card_frame(canvas, w, h, pal, "#333333", REFERENCE_TITLES[ref], layout, f"reference {ref}",
                    "Reference · scan for the table's clock")
    qx, qy, qs = layout.cards.qr
    lines = reference_text(data, ref)
    body = layout.cards.body
    size = body.size
    while size > body.min and _height(lines, w - 8, size) > qy - 1 - y:
        size -= 0.25
    if _height(lines, w - 8, size) > qy - 1 - y:
        raise ValueError(f"reference card {ref}: its text does not fit even at {body.min} pt")
    for line in lines:
        y = paragraph(canvas, 4, y, w - 8, line, size, fill=pal.ink)
    draw_qr(canvas, payload, qx, qy, qs)
    fit_text(canvas, (4, qy + 2, qx - 6, 5), "Clock, stop!", 7, 5, font="bold", fill=pal.ink, where="reference: qr")


# ------------------------------------------------------------------------------------ score pad
def draw_countdown_pad(canvas: Canvas, width: float, height: float, data: Jutaku, layout: Layout,
                       pal: Palette) -> None:
    sh = layout.sheet
    c = data.countdown
    secs = list(c.floor_seconds) + [c.further_floor_seconds]
    fit_text(canvas, (0, 2, width, 10), "TOKYO JUTAKU — Countdown score pad", sh.title.size, sh.title.min,
             font="bold", fill=pal.ink, where="score pad: title")
    rule = ("Floors are timed " + " / ".join(f"{s} s" for s in secs[:-1]) + f", then {secs[-1]} s each. "
            "Write the pieces each player adds on each floor; a player who adds none is out. "
            "Score = all pieces used; most wins, ties share.")
    y = paragraph(canvas, 0, 13, width, rule, sh.cell.size, fill=pal.ink)
    players = c.players[1]
    label = 30.0
    col = (width - label) / players
    row = min(11.0, (height - y - 30) / (sh.rows + 2))
    line = Style(stroke=pal.ink, width=0.3)
    top = y + 2
    fit_text(canvas, (1, top, label - 2, row), "Player", sh.head.size, sh.head.min, font="bold", fill=pal.ink,
             where="score pad: head")
    for i in range(sh.rows + 2):
        yy = top + (i + 1) * row
        canvas.line(0, yy, width, yy, line)
        if i < sh.rows:
            t = secs[min(i, len(secs) - 1)]
            fit_text(canvas, (1, yy, label - 2, row), f"Floor {i + 1} ({t} s)", sh.cell.size, sh.cell.min,
                     fill=pal.ink, where="score pad: floor")
        elif i == sh.rows:
            fit_text(canvas, (1, yy, label - 2, row), "Total pieces", sh.head.size, sh.head.min, font="bold",
                     fill=pal.ink, where="score pad: total")
    bottom = top + (sh.rows + 2) * row
    canvas.line(0, top, width, top, line)
    for j in range(players + 1):
        x = label + j * col
        canvas.line(x, top, x, bottom, line)
    canvas.line(0, top, 0, bottom, line)
