"""The boards: the 5 lot boards (stencils at their data sizes, with their prices), the franchise
income board (its track and the 500 / 1,000 / 1,500 coupon thresholds), the capsule board (prices by
position, pink pricing, the entrances' half), the 2 attraction boards and the round expenses board
(the purchase queue spaces, the expenses track and the purchase limit by player count)."""
from __future__ import annotations

from ...canon import DataError
from ...canon.capsule_hotel import PINK, CapsuleHotel
from ...draw import Canvas, Style
from .common import Palette, coupon_mark, label, paragraph, qr_block, yen
from .layout import Layout


def draw_lot_board(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette, board) -> None:
    w, h = board.size
    t = layout.text
    canvas.rect(0, 0, w, h, Style(fill=pal.tint, stroke=pal.ink, width=0.6))
    canvas.rect(2, 2, w - 4, h - 4, Style(fill=None, stroke=pal.rule, width=0.2, dash=(1.5, 1.0)))
    label(canvas, (3, h / 2 - 8, w - 6, 8), yen(board.price), t.title, fill=pal.ink, where=f"{board.id} price")
    label(canvas, (3, h / 2 + 1, w - 6, 5), "Lot board: trace its outline", t.small, fill=pal.ink,
          where=f"{board.id} caption")
    label(canvas, (3, h / 2 + 6, w - 6, 4), f"{w:g} × {h:g} mm", t.small, fill=pal.ink, where=f"{board.id} size")


def _frame(canvas: Canvas, w: float, h: float, title: str, layout: Layout, pal: Palette) -> None:
    canvas.rect(0, 0, w, h, Style(fill=pal.paper, stroke=pal.ink, width=0.6), radius=2)
    label(canvas, (5, 3, w - 10 - layout.boards.qr, 9), title, layout.text.title, anchor="start", fill=pal.ink,
          where=f"board {title}")


def draw_franchise_board(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette, payload: str) -> None:
    w, h = layout.boards.size
    t = layout.text
    _frame(canvas, w, h, "Franchise income", layout, pal)
    q = layout.boards.qr
    qr_block(canvas, payload, w - q - 4, 3, q, "franchise incomes", t.small, pal)
    paragraph(canvas, 5, 13, w - q - 14, f"Franchise income = {data.income.franchise_per_unit} × (hotels "
              "of that colour on the map + lots holding one). Subdivisions never count as lots. Keep one "
              "capsule of each colour on its income. Reaching or passing a coupon mark: every owner of a "
              "hotel of that franchise takes 1 coupon.", t.small, pal.ink)
    unit = data.income.franchise_per_unit
    cells = data.franchise.track_max // unit + 1
    per_row = 11
    rows = -(-cells // per_row)
    cw = (w - 10) / per_row
    ch = min(14.0, (h - 42) / rows)
    y0 = 40
    for i in range(cells):
        r, c = divmod(i, per_row)
        x, y = 5 + c * cw, y0 + r * ch
        value = i * unit
        hit = value in data.franchise.coupon_thresholds
        canvas.rect(x, y, cw, ch, Style(fill=pal.tint if hit else pal.paper, stroke=pal.ink, width=0.3))
        label(canvas, (x + 0.5, y + 0.5, cw - 1, ch * 0.45), f"{value:,}", t.head if hit else t.body,
              fill=pal.ink, where="franchise track")
        if hit:
            coupon_mark(canvas, x + cw / 2 - 3.5, y + ch * 0.55, 7, pal)


def draw_capsule_board(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette) -> None:
    w, h = layout.boards.size
    t = layout.text
    _frame(canvas, w, h, "Capsules", layout, pal)
    paragraph(canvas, 5, 13, w / 2 - 8, "Each colour (not pink) waits beside the position of its number "
              "of capsules. A purchase takes the whole colour at that price.", t.small, pal.ink)
    half = w / 2
    pos = data.capsule_board.position
    ch = (h - 52) / len(pos)
    colour_at = {c.for_sale: c for c in data.capsules if c.id != PINK}
    for i, p in enumerate(pos):
        y = 28 + i * ch
        canvas.rect(5, y, half - 10, ch - 1, Style(fill=pal.tint, stroke=pal.ink, width=0.3))
        c = colour_at.get(p.pieces)
        text = f"{p.pieces} capsules · {yen(p.price)}" + (f"  (setup: {c.name})" if c else "")
        label(canvas, (7, y, half - 14, ch - 1), text, t.body, anchor="start", fill=pal.ink, where="capsule position")
    y = 28 + len(pos) * ch + 2
    pf, pe = data.purchase.pink_first, data.purchase.pink_each_further
    paragraph(canvas, 5, y, half - 8, f"Pink: {yen(pf)} for the first + {yen(pe)} each further one in the "
              f"same purchase (4 for {yen(pf + 3 * pe)}). Take as many as you pay for.", t.small, pal.ink)
    canvas.rect(half + 3, 14, half - 8, h - 19, Style(fill=None, stroke=pal.ink, width=0.3, dash=(2, 1)))
    label(canvas, (half + 5, 16, half - 12, 8), "Entrances", t.head, fill=pal.ink, where="entrances")
    paragraph(canvas, half + 6, 26, half - 14, f"{yen(data.purchase.entrance)} each, bought with the hotel "
              "it opens: place it with 1 or more capsules of one colour from your area. Golden rule: a "
              "land area never holds more hotels than vending machines + cemeteries.", t.small, pal.ink)


def draw_attraction_board(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette, board) -> None:
    w, h = layout.boards.size
    t = layout.text
    _frame(canvas, w, h, board.name, layout, pal)
    n = len(board.buildings)
    cw = (w - 10) / n
    for i, bid in enumerate(board.buildings):
        b = data.building[bid]
        x = 5 + i * cw
        canvas.rect(x + 1, 14, cw - 2, h - 19, Style(fill=pal.tint, stroke=pal.ink, width=0.3), radius=1.5)
        label(canvas, (x + 2, 15, cw - 4, 7), b.name, t.head, fill=pal.ink, where=f"{bid} name")
        label(canvas, (x + 2, 22, cw - 4, 7), yen(b.cost), t.title, fill=pal.ink, where=f"{bid} cost")
        label(canvas, (x + 2, 30, cw - 4, 4), f"{b.count} in the game · bonus die:", t.small, fill=pal.ink,
              where=f"{bid} count")
        y = 36
        for f in b.faces:
            parts = []
            if f.yen:
                parts.append(yen(f.yen))
            if f.coupons:
                parts.append(f"{f.coupons} coupon" + ("s" if f.coupons > 1 else ""))
            if f.no_cemetery:
                parts.append("no cemetery")
            text = " + ".join(parts) + (f"  (×{f.times})" if f.times > 1 else "")
            label(canvas, (x + 3, y, cw - 6, 4.2), text, t.small, anchor="start", fill=pal.ink, where=f"{bid} face")
            y += 4.6
        paragraph(canvas, x + 3, y + 1, cw - 6, b.text, t.small, pal.ink, size=max(t.small.min, t.small.size * 0.9))


def draw_round_expenses_board(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette,
                              payload: str) -> None:
    w, h = layout.boards.size
    t = layout.text
    _frame(canvas, w, h, "Round expenses", layout, pal)
    q = layout.boards.qr
    qr_block(canvas, payload, w - q - 4, 3, q, "purchase queue", t.small, pal)
    reb = data.round_expenses_board
    # the queue: the head space ("Seal") first
    label(canvas, (5, 13, 60, 5), "Purchase queue (fewest yen first)", t.head, anchor="start", fill=pal.ink,
          where="queue head")
    d = 17.0
    for i in range(reb.queue_spaces):
        cx = 5 + d / 2 + i * (d + 4)
        canvas.circle(cx, 29, d / 2, Style(fill=pal.tint if i == 0 else pal.paper, stroke=pal.ink, width=0.4))
        label(canvas, (cx - d / 2, 29 - 3, d, 6), "Seal" if i == 0 else str(i + 1), t.head if i == 0 else t.body,
              fill=pal.ink, where="queue space")
    paragraph(canvas, 5, 39, w - q - 12, f"The head declares one purchase at once, or another player may count "
              f"{data.purchase.declare_seconds} seconds aloud and remove the seal. After a purchase the seal "
              "returns; rejoin at the back (not while bartering). The purchase reaching or passing the "
              "limit is completed, then the queue empties and no new barter starts. Pass is final.",
              t.small, pal.ink)
    step = data.purchase_limit.track_step
    cells = reb.track_max // step + 1
    per_row = 16
    rows = -(-cells // per_row)
    cw = (w - 10) / per_row
    ch = 10.0
    y0 = h - 5 - rows * ch
    limits = {v: k for k, v in data.purchase_limit.by_players.items()}
    label(canvas, (5, y0 - 6, w - 10, 5), "Expenses track (the marker never moves back; a cemetery does not "
          "move it) · limit by players", t.small, anchor="start", fill=pal.ink, where="track head")
    for i in range(cells):
        r, c = divmod(i, per_row)
        x, y = 5 + c * cw, y0 + r * ch
        v = i * step
        lim = limits.get(v)
        canvas.rect(x, y, cw, ch, Style(fill=pal.tint if lim else pal.paper, stroke=pal.ink, width=0.3))
        label(canvas, (x + 0.3, y + 0.4, cw - 0.6, ch * 0.45), f"{v:,}", t.small, fill=pal.ink, where="track")
        if lim:
            label(canvas, (x + 0.3, y + ch * 0.5, cw - 0.6, ch * 0.45), f"{lim} players", t.small, fill=pal.ink,
                  where="limit")


def shelf(sizes: list[tuple[str, float, float]], width: float, height: float, gap: float = 4.0,
          top: float = 12.0, file: str = "components.toml", key: str = "lot_board") -> dict[str, tuple[float, float]]:
    """Top-left corners placing each (id, w, h) on a page, tallest first in rows; a one-line data
    error naming the file and key (not a silent overlap) when the data's sizes do not fit."""
    order = sorted(sizes, key=lambda s: (-s[2], -s[1]))
    out, x, y, row_h = {}, gap, top, 0.0
    for sid, w, h in order:
        if x + w > width - gap + 1e-6:
            x, y, row_h = gap, y + row_h + gap, 0.0
        if x + w > width - gap + 1e-6 or y + h > height - 2 + 1e-6:
            raise DataError(f"assets/capsule-hotel/{file}", key,
                            f"{sid.split('#')[0]} ({w:g} × {h:g} mm) does not fit the page with the others")
        out[sid] = (x, y)
        x += w + gap
        row_h = max(row_h, h)
    return out


def draw_lot_boards_page(canvas: Canvas, width: float, height: float, data: CapsuleHotel, layout: Layout,
                         pal: Palette) -> None:
    """The five lot boards at their real sizes: cut exactly on the outline (they are stencils)."""
    label(canvas, (2, 1, width - 4, 8), "Lot boards — cut exactly on the outline; trace them on the map",
          layout.text.head, anchor="start", fill=pal.ink, where="lot boards title")
    at = shelf([(b.id, *b.size) for b in data.lot_boards], width, height)
    for b in data.lot_boards:
        x, y = at[b.id]
        with canvas.frame(x, y):
            draw_lot_board(canvas, data, layout, pal, b)
