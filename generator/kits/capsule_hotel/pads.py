"""The pads players write on with a pen: the player ledger (loan choices with the coupon mark,
interest per round, debt by round, the round track, the yen column), the game ledger (the round
track and every purchase of the round) and the map sheet (the grid lots are drawn on)."""
from __future__ import annotations

from ...canon.capsule_hotel import CapsuleHotel
from ...draw import Canvas, Style
from .common import Palette, coupon_mark, label, paragraph, qr_block, ruled_table, yen
from .layout import Layout


def _round_track(canvas: Canvas, data: CapsuleHotel, x: float, y: float, w: float, pal: Palette,
                 layout: Layout) -> float:
    n = data.rounds.count
    step = w / n
    r = min(step * 0.3, 4.2)
    t = layout.text
    for i in range(n):
        cx = x + step * (i + 0.5)
        canvas.circle(cx, y + r, r, Style(fill=pal.paper, stroke=pal.ink, width=0.35))
        label(canvas, (cx - r, y, 2 * r, 2 * r), str(i + 1), t.head, fill=pal.ink, where="round track")
        if i + 1 in data.rounds.coupon_rounds:
            coupon_mark(canvas, cx + r + 0.5, y, 5, pal)
    return y + 2 * r + 1.5


def draw_player_ledger(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette, number: int,
                       payload: str) -> None:
    w, h = layout.pads.ledger
    t = layout.text
    m = 6.0
    qr = layout.pads.qr
    label(canvas, (m, m, w - 2 * m - qr - 22, 9), f"Player ledger {number}", t.title, anchor="start",
          fill=pal.ink, where="player ledger title")
    label(canvas, (m, m + 9, w - 2 * m - qr - 22, 5), data.name, t.body, anchor="start", fill=pal.ink,
          where="player ledger subtitle")
    # the seal's circle: players copy their seal here
    canvas.circle(w - m - qr - 12, m + 10, 9, Style(fill=None, stroke=pal.ink, width=0.4, dash=(1.2, 0.8)))
    label(canvas, (w - m - qr - 22, m + 20, 20, 3), "your seal", t.small, fill=pal.ink, where="seal")
    qr_block(canvas, payload, w - m - qr, m, qr, "live ledger", t.small, pal)
    y = m + 33
    # loan choices
    label(canvas, (m, y, 120, 6), "Starting loan (round 1, in secret): mark one", t.head, anchor="start",
          fill=pal.ink, where="loan head")
    y += 7
    opts = data.loan.option
    cw = (w - 2 * m) / len(opts)
    for i, o in enumerate(opts):
        x = m + i * cw
        interest = o.amount * data.loan.interest_percent // 100
        canvas.rect(x + 1, y, cw - 2, 16, Style(fill=pal.tint, stroke=pal.ink, width=0.35), radius=1.5)
        canvas.rect(x + 3, y + 3, 5, 5, Style(fill=pal.paper, stroke=pal.ink, width=0.35))
        label(canvas, (x + 9, y + 1.5, cw - 11, 7), yen(o.amount), t.head, anchor="start", fill=pal.ink,
              where="loan amount")
        label(canvas, (x + 3, y + 9, cw - 12, 5.5), f"interest {yen(interest)} a round", t.small,
              anchor="start", fill=pal.ink, where="loan interest")
        if o.coupons:
            coupon_mark(canvas, x + cw - 9, y + 9.5, 6, pal)
    y += 19
    label(canvas, (m, y, w - 2 * m, 4.5), "Debt = loan + interest × current round. Repay only in full, "
          "with yen (never coupons).", t.small, anchor="start", fill=pal.ink, where="debt rule")
    y += 6
    label(canvas, (m, y, 60, 6), "Round track", t.head, anchor="start", fill=pal.ink, where="track head")
    label(canvas, (m + 30, y, w - 2 * m - 30, 6), "tick each round as it starts; a coupon mark gives "
          "everyone a coupon", t.small, anchor="start", fill=pal.ink, where="track hint")
    y = _round_track(canvas, data, m, y + 7, w - 2 * m, pal, layout) + 2
    # debt by round, to fill in once the loan is known
    label(canvas, (m, y, 100, 5), "Total debt by round (fill in after the reveal)", t.head, anchor="start",
          fill=pal.ink, where="debt head")
    y += 6
    n = data.rounds.count
    cw = (w - 2 * m) / n
    for i in range(n):
        canvas.rect(m + i * cw, y, cw, 10, Style(fill=None, stroke=pal.ink, width=0.3))
        label(canvas, (m + i * cw + 0.8, y + 0.5, cw - 1.6, 3.5), f"round {i + 1}", t.small, anchor="start",
              fill=pal.ink, where="debt cell")
    y += 13
    # the yen column
    label(canvas, (m, y, 100, 6), "Yen (coupons apart: they are not yen)", t.head, anchor="start",
          fill=pal.ink, where="yen head")
    y += 7
    row = layout.pads.row
    rows = int((h - m - y - row) // row)
    widths = [12, 78, 26, 26, w - 2 * m - 142]
    ruled_table(canvas, m, y, widths, ["Round", "What (purchase, income, barter)", "− yen", "+ yen",
                                       "Yen now"], rows, row, t.small, pal)


def draw_game_ledger(canvas: Canvas, width: float, height: float, data: CapsuleHotel, layout: Layout,
                     pal: Palette) -> None:
    t = layout.text
    m = 2.0
    label(canvas, (m, m, width - 2 * m, 9), "Game ledger", t.title, anchor="start", fill=pal.ink,
          where="game ledger title")
    y = m + 11
    y = paragraph(canvas, m, y, width - 2 * m, "Round track: tick each round as it starts. In the "
                  "purchase/barter phase note every purchase and move the round expenses marker by its "
                  "price (never backwards: a cemetery does not move it). Limit by players: " + ", ".join(
                      f"{k} → {yen(v)}" for k, v in sorted(data.purchase_limit.by_players.items())) + ".",
                  t.body, pal.ink) + 2
    y = _round_track(canvas, data, m, y, width - 2 * m, pal, layout) + 3
    row = layout.pads.row
    rows = int((height - m - y - row) // row)
    widths = [14, 30, 70, 24, 20, width - 2 * m - 158]
    ruled_table(canvas, m, y, widths, ["Round", "Player", "Purchase", "Yen", "Coupons", "Round expenses"],
                rows, row, t.small, pal)


def draw_map_sheet(canvas: Canvas, width: float, height: float, data: CapsuleHotel, layout: Layout,
                   pal: Palette) -> None:
    """The blue map sheet at its data size, a 5 mm grid and the four starting lots."""
    sw, sh = data.map_sheet.size
    x0, y0 = (width - sw) / 2, (height - sh) / 2
    canvas.rect(x0, y0, sw, sh, Style(fill=pal.fill(data.map_sheet.colour), stroke=pal.ink, width=0.4))
    grid = Style(stroke="#b7cbe3" if not pal.ink_saver else "#d0d0d0", width=0.15)
    step = 5.0
    k = step
    while k < sw - 1e-6:
        canvas.line(x0 + k, y0, x0 + k, y0 + sh, grid)
        k += step
    k = step
    while k < sh - 1e-6:
        canvas.line(x0, y0 + k, x0 + sw, y0 + k, grid)
        k += step
    sl = data.starting_lots
    for i, (x, y) in enumerate(sl.corners):
        canvas.rect(x0 + x, y0 + y, sl.side, sl.side, Style(fill=None, stroke=pal.ink, width=0.5, dash=(2, 1.2)))
        label(canvas, (x0 + x + 1, y0 + y + 1, sl.side - 2, 5), f"Starting lot S{i + 1}", layout.text.small,
              anchor="start", fill=pal.ink, where="starting lot")
    label(canvas, (x0 + 3, y0 + sh - 8, sw - 6, 5), f"Map sheet — {data.name}: outline your land in your "
          "own pen; the companion records lots S1–S4, L1, L2, … and subdivisions D1, D2, … by name", layout.text.small,
          anchor="start", fill=pal.ink, where="map sheet caption")
