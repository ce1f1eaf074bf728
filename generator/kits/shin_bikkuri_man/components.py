"""Shin Bikkuri Man's printed components other than the tiles: the player board, the cards and their
back, the ability tiles (unused face front, used face back), the rules reference card and the
harbour strip. Every number printed (points, coats of arms, hand limit, costs) comes from `data`."""
from __future__ import annotations

from ...draw import Canvas, Style
from ...draw.fit import fit_text
from ...qr import draw_qr
from ...draw import text_width
from ...draw.base import PT
from .facade import Palette, draw_coat, draw_grid, draw_symbol, mix
from .layout import Layout, TextStyle


def wrap(text: str, width: float, size_pt: float, font: str = "regular") -> list[str]:
    """`text` broken at spaces into lines no wider than `width` mm (a longer word stays whole)."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, size_pt, font) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    lines.append(line)
    return lines


def paragraphs(canvas: Canvas, box, texts: list[str], style: TextStyle, fill: str, *,
               where: str, gap: float = 1.0, bold_first: bool = False) -> None:
    """Wrapped paragraphs in `box`, at the largest size (down to style.min) at which they fit."""
    x, y, w, h = box
    size = style.size
    while True:
        lines = [(i, line) for i, t in enumerate(texts) for line in wrap(t, w, size, style.font)]
        lead = size * PT * 1.22
        height = len(lines) * lead + gap * (len(texts) - 1)
        if height <= h or size <= style.min:
            break
        size = max(style.min, size - 0.25)
    if height > h + 0.01:
        raise ValueError(f"{where}: the text does not fit {w:.1f} x {h:.1f} mm even at {style.min} pt")
    cy = y + size * PT * 0.9
    last = 0
    for i, line in lines:
        if i != last:
            cy += gap
            last = i
        font = "bold" if bold_first and line == lines[0][1] and i == 0 else style.font
        canvas.text(x, cy, line, size, font=font, fill=fill)
        cy += lead


# ------------------------------------------------------------------------------------ player board
def draw_board(canvas: Canvas, data, layout: Layout, pal: Palette, number: int, payload: str) -> None:
    b = layout.board
    s = layout.square
    w, h = b.size
    canvas.rect(0, 0, w, h, Style(fill=pal.paper, stroke=None))
    gx, gy = b.grid
    fit_text(canvas, (gx, 3, 130, 10), f"{data.name} · player board {number}", b.title.size, b.title.min,
             font="bold", fill=pal.ink, where="player board: title")
    draw_grid(canvas, data, layout, pal, gx, gy)
    # right-hand panel: the starting ability's space, the QR code, the scoring reminders
    px = gx + data.board.columns * s + 2 * b.coat + 8
    pw = w - px - 4
    aw, ah = layout.ability.size
    start = next(a for a in data.abilities if a.starting)
    ax = px + (pw - aw) / 2
    canvas.rect(ax, gy, aw, ah, Style(fill=mix(pal.ink, pal.paper, 0.92), stroke=pal.ink, width=0.4,
                                      dash=(1.5, 1.0)), radius=1.5)
    fit_text(canvas, (ax + 2, gy + ah / 2 - 9, aw - 4, 6), "Abilities", b.label.size, b.label.min,
             font="bold", anchor="middle", fill=pal.ink, where="player board: ability space")
    paragraphs(canvas, (ax + 3, gy + ah / 2 - 2, aw - 6, 20),
               [f"Start with “{start.name}” here; put new ability tiles beside it."],
               b.small, pal.ink, where="player board: ability space")
    qy = gy + ah + 6
    draw_qr(canvas, payload, px + (pw - b.qr) / 2, qy, b.qr)
    fit_text(canvas, (px, qy + b.qr + 0.5, pw, 5), "Scan: façade and score", b.small.size, b.small.min,
             anchor="middle", fill=pal.ink, where="player board: qr caption")
    sc = data.scoring
    notes = [
        f"Row complete: {sc.row} point, {sc.row_all_windows} if all windows.",
        f"Column complete: {sc.column} points, {sc.column_all_windows} if all windows.",
        "Coat of arms covered or marked row completed: one action each: a white tile, a new "
        "ability, or turn used abilities face up.",
        f"Build from the bottom row; a tile needs a square on row 1 or on a tile. "
        f"{data.end.points} points ends the game.",
    ]
    ny = qy + b.qr + 7
    paragraphs(canvas, (px, ny, pw, gy + data.board.rows * s - ny), notes, b.small, pal.ink,
               where="player board: notes", gap=1.6)
    # the score track 0..end.points under the grid
    n = data.end.points + 1
    tb = min(b.track_box, (w - 8) / n)
    tx = (w - n * tb) / 2
    ty = gy + data.board.rows * s + 9
    for k in range(n):
        last = k == n - 1
        canvas.rect(tx + k * tb, ty, tb, tb, Style(fill=pal.coat if last else pal.paper, stroke=pal.ink,
                                                   width=0.35))
        fit_text(canvas, (tx + k * tb, ty, tb, tb), str(k), b.label.size, b.label.min, font="bold",
                 anchor="middle", fill=pal.ink, where="player board: score track")
    fit_text(canvas, (tx, ty + tb + 1, n * tb, 5), f"Score track: score marker {number} starts on 0; "
             f"{data.end.points} ends the game at once.", b.small.size, b.small.min, anchor="middle",
             fill=pal.ink, where="player board: score caption")


def draw_score_marker(canvas: Canvas, layout: Layout, pal: Palette, number: int) -> None:
    """A score marker: a disc with its player board's number, to sit in one box of the score track."""
    d = layout.marker.size
    r = d / 2
    canvas.circle(r, r, r, Style(fill=pal.coat, stroke=pal.ink, width=0.35))
    canvas.circle(r, r, r * 0.78, Style(fill=pal.paper, stroke=pal.ink, width=0.25))
    st = layout.marker.number
    fit_text(canvas, (r - r * 0.7, r - r * 0.62, r * 1.4, r * 1.24), str(number), st.size, st.min,
             font=st.font, anchor="middle", fill=pal.ink, where=f"score marker {number}")


# ----------------------------------------------------------------------------------------- cards
def draw_card(canvas: Canvas, data, layout: Layout, pal: Palette, colour_id: str) -> None:
    c = layout.card
    w, h = c.size
    col = data.colour[colour_id]
    canvas.rect(0, 0, w, h, Style(fill=pal.paper, stroke=None))
    inset = 3.5
    canvas.rect(inset, inset, w - 2 * inset, h - 2 * inset, Style(fill=pal.fill(colour_id), stroke=pal.ink,
                                                                  width=0.4), radius=2.5)
    draw_symbol(canvas, col.symbol, w / 2, h / 2 - 4, 14, pal.paper, pal.ink)
    for cx, cy in ((inset + 6, inset + 6), (w - inset - 6, h - inset - 6)):
        draw_symbol(canvas, col.symbol, cx, cy, 3.5, pal.paper, pal.ink)
    canvas.rect(inset + 6, h - 26, w - 2 * inset - 12, 10, Style(fill=pal.paper, stroke=pal.ink, width=0.3),
                radius=1.5)
    fit_text(canvas, (inset + 6, h - 26, w - 2 * inset - 12, 10), col.name, c.title.size, c.title.min,
             font="bold", anchor="middle", fill=pal.ink, where=f"card {colour_id}")


def draw_end_card(canvas: Canvas, data, layout: Layout, pal: Palette) -> None:
    c = layout.card
    w, h = c.size
    canvas.rect(0, 0, w, h, Style(fill=pal.paper, stroke=None))
    canvas.rect(3.5, 3.5, w - 7, h - 7, Style(fill=mix(pal.coat, pal.paper, 0.6), stroke=pal.ink, width=0.6),
                radius=2.5)
    fit_text(canvas, (6, 10, w - 12, 14), "END", 30, 14, font="bold", anchor="middle", fill=pal.ink,
             where="end card")
    draw_coat(canvas, pal, w / 2, 38, 9)
    paragraphs(canvas, (8, 54, w - 16, 28),
               ["The mermaid surfaces: when this card is revealed, the game ends.",
                "Most points wins; tie: fewest empty squares."],
               c.text, pal.ink, where="end card text", gap=1.5)


def draw_card_back(canvas: Canvas, data, layout: Layout, pal: Palette) -> None:
    c = layout.card
    w, h = c.size
    canvas.rect(0, 0, w, h, Style(fill=pal.card_back, stroke=None))
    ink = pal.paper if not pal.ink_saver else pal.ink
    canvas.rect(4, 4, w - 8, h - 8, Style(stroke=ink, width=0.5), radius=2.5)
    for k, col in enumerate(data.colours):
        draw_symbol(canvas, col.symbol, 12 + k * (w - 24) / (len(data.colours) - 1), h - 14, 3.2,
                    pal.fill(col.id), ink)
    fit_text(canvas, (6, h / 2 - 14, w - 12, 12), "Shin", 18, 10, font="bold", anchor="middle", fill=ink,
             where="card back")
    fit_text(canvas, (6, h / 2 - 2, w - 12, 12), "Bikkuri Man", 18, 10, font="bold", anchor="middle",
             fill=ink, where="card back")


# ------------------------------------------------------------------------------------ ability tiles
def draw_ability(canvas: Canvas, data, layout: Layout, pal: Palette, ability, payload: str,
                 used: bool) -> None:
    a = layout.ability
    w, h = a.size
    fill = mix(pal.ink, pal.paper, 0.82) if used else mix(pal.coat, pal.paper, 0.55)
    canvas.rect(0, 0, w, h, Style(fill=pal.paper, stroke=None))
    canvas.rect(1.5, 1.5, w - 3, h - 3, Style(fill=fill, stroke=pal.ink, width=0.4), radius=2)
    fit_text(canvas, (3, 3, w - 6, 7), ability.name, a.title.size, a.title.min, font="bold",
             anchor="middle", fill=pal.ink, where=f"ability {ability.id}: name")
    if used:
        fit_text(canvas, (3, 12, w - 6, 9), "USED", 16, 9, font="bold", anchor="middle",
                 fill=mix(pal.ink, pal.paper, 0.35), where=f"ability {ability.id}: used")
        paragraphs(canvas, (4, 25, w - 8, h - 29),
                   ["Face down: used.", "A coat-of-arms action turns your used abilities face up again."],
                   a.text, pal.ink, where=f"ability {ability.id}: used text", gap=1.5)
        return
    paragraphs(canvas, (3.5, 11, w - 7, h - 13 - a.qr), [ability.text], a.text, pal.ink,
               where=f"ability {ability.id}: text")
    draw_qr(canvas, payload, (w - a.qr) / 2, h - a.qr - 2, a.qr)


# -------------------------------------------------------------------------------- reference card
def reference_texts(data) -> tuple[list[str], list[str]]:
    t, sc = data.turn, data.scoring
    front = [
        "YOUR TURN: do one of these.",
        f"Take cards: one card of the {t.harbour} in the harbour and one next to it (the ends are "
        f"not next to each other). Then keep at most {t.hand_limit}: discard the rest at once.",
        "Buy a tile: discard as many cards of its colour as it has squares, 1 less if it touches a "
        "tile of that colour. Place it on your façade: a square on the bottom row or right above a "
        "tile. Turn and flip it as you like. One tile a turn.",
        "After your turn the harbour slides together and is refilled from the deck.",
    ]
    back = [
        "COATS OF ARMS: covering one, or completing a row with one at its end, gives one action each:",
        "a white tile (it may earn another action), a new ability type, or turn your used abilities "
        "face up. Each ability works once until turned up again.",
        f"SCORE: a full row {sc.row} ({sc.row_all_windows} if all windows); a full column "
        f"{sc.column} ({sc.column_all_windows} if all windows).",
        f"END: {data.end.points} points ends the game at once (before that turn's coats of arms), "
        "or when the END card is revealed. Tie: fewest empty squares.",
    ]
    return front, back


def draw_reference(canvas: Canvas, data, layout: Layout, pal: Palette, side: int) -> None:
    c = layout.card
    w, h = c.size
    canvas.rect(0, 0, w, h, Style(fill=pal.paper, stroke=None))
    canvas.rect(2.5, 2.5, w - 5, h - 5, Style(stroke=pal.ink, width=0.4), radius=2)
    texts = reference_texts(data)[side]
    fit_text(canvas, (4, 4, w - 8, 7), "Shin Bikkuri Man · rules in short", 8.5, 6, font="bold",
             anchor="middle", fill=pal.ink, where="reference card: title")
    paragraphs(canvas, (5, 13, w - 10, h - 17), texts, c.text, pal.ink, where="reference card", gap=1.6)


# ------------------------------------------------------------------------------------ harbour strip
def harbour_size(data, layout: Layout) -> tuple[float, float]:
    hb = layout.harbour
    sw, sh = hb.space
    return (data.turn.harbour * sw + 2 * hb.margin, sh + 2 * hb.margin + 10)


def draw_harbour(canvas: Canvas, data, layout: Layout, pal: Palette) -> None:
    hb = layout.harbour
    w, h = harbour_size(data, layout)
    sw, sh = hb.space
    canvas.rect(0, 0, w, h, Style(fill=mix(pal.window, pal.paper, 0.4), stroke=pal.ink, width=0.5))
    fit_text(canvas, (hb.margin, 2, w - 2 * hb.margin, 8),
             f"Harbour: {data.turn.harbour} face-up cards. Take one and one next to it; "
             "the first and last spaces are not next to each other.", 10, 7, fill=pal.ink,
             where="harbour: caption")
    for k in range(data.turn.harbour):
        x = hb.margin + k * sw
        y = hb.margin + 10
        canvas.rect(x + 1.5, y + 1.5, sw - 3, sh - 3, Style(fill=pal.paper, stroke=pal.ink, width=0.4,
                                                             dash=(2, 1.2)), radius=2.5)
        fit_text(canvas, (x, y + sh / 2 - 10, sw, 20), str(k + 1), hb.label.size * 2, hb.label.min,
                 font="bold", anchor="middle", fill=mix(pal.ink, pal.paper, 0.75),
                 where="harbour: space number")
