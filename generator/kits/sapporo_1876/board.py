"""Sapporo 1876's main board and personal boards, drawn from the canonical data."""
from __future__ import annotations

from ...canon.sapporo_1876 import Sapporo
from ...draw import Canvas, Style
from ...qr import draw_qr
from .common import (Palette, event_icon, fame_icon, label, paragraph, resource_icon, shape,
                     worker_shape, yen_icon)
from .layout import Layout

ACTION_VERB = {"educate": "EDUCATE", "pioneer": "PIONEER", "invest": "INVEST", "appoint": "APPOINT"}


def score_cells(layout: Layout) -> list[tuple[float, float, float, float]]:
    """The score track's cells around the edge, 0 at the top-left corner, clockwise."""
    b = layout.main_board
    w, h = b.size
    c = b.score_cell
    n_long, n_side = b.score_sides
    cw, ch = w / n_long, (h - 2 * c) / n_side
    cells = [(i * cw, 0, cw, c) for i in range(n_long)]
    cells += [(w - c, c + i * ch, c, ch) for i in range(n_side)]
    cells += [(w - (i + 1) * cw, h - c, cw, c) for i in range(n_long)]
    cells += [(0, h - c - (i + 1) * ch, c, ch) for i in range(n_side)]
    return cells


def draw_main_board(canvas: Canvas, data: Sapporo, layout: Layout, pal: Palette) -> None:
    b, col = layout.main_board, layout.colours
    w, h = b.size
    canvas.rect(0, 0, w, h, Style(fill=pal.fill(col.board) if not pal.ink_saver else pal.paper,
                                  stroke=pal.ink, width=0.6))
    # the score track around the edge
    cells = score_cells(layout)
    for i, (x, y, cw, ch) in enumerate(cells[:data.score_track.spaces]):
        fill = pal.tint(col.icon, 0.4) if i % 5 == 0 else pal.paper
        canvas.rect(x, y, cw, ch, Style(fill=fill, stroke=pal.ink, width=0.25))
        label(canvas, (x + 0.5, y + 0.5, cw - 1, ch - 1), str(i), b.small if i % 5 else b.head,
              fill=pal.ink, where=f"score track {i}")
    label(canvas, b.title_box, data.name.upper() + " · MAIN BOARD", b.title, anchor="start", fill=pal.ink)
    _draw_track(canvas, data, layout, pal, "harvest")
    _draw_track(canvas, data, layout, pal, "settlement")
    _draw_spots(canvas, data, layout, pal)
    _draw_council(canvas, data, layout, pal)
    _draw_tile_spaces(canvas, data, layout, pal)


def _draw_track(canvas: Canvas, data: Sapporo, layout: Layout, pal: Palette, which: str) -> None:
    b = layout.main_board
    track = data.harvest_track if which == "harvest" else data.settlement_track
    x, y, w, h = b.harvest_box if which == "harvest" else b.settlement_box
    colour = layout.colours.orange if track.advanced_by == "orange" else layout.colours.blue
    canvas.rect(x, y - 8, w, h + 16, Style(fill=pal.tint(colour, 0.7), stroke=pal.ink, width=0.4))
    label(canvas, (x, y - 7.5, w, 6), which.upper(), b.small, fill=pal.ink, where=f"{which} title")
    n = track.spaces
    sh = h / n
    for i in range(n):
        row = i if track.start == "top" else n - 1 - i          # drawing row from the top
        cy = y + row * sh
        icon = i in track.icons
        canvas.rect(x + 1.5, cy + 0.4, w - 3, sh - 0.8,
                    Style(fill=pal.tint(layout.colours.icon, 0.2) if icon else pal.paper, stroke=pal.ink, width=0.25))
        if icon:
            event_icon(canvas, which, x + w / 2, cy + sh / 2, min(w, sh) * 0.38, pal)
        elif i == 0:
            label(canvas, (x + 2, cy + 1, w - 4, sh - 2), "START", b.small, fill=pal.ink, where=f"{which} start")
    arrow = f"up: {track.advanced_by}" if track.start == "bottom" else f"down: {track.advanced_by}"
    label(canvas, (x - 2, y + h + 1, w + 4, 6), arrow, b.small,
          fill=pal.ink, where=f"{which} arrow")


def _draw_spots(canvas: Canvas, data: Sapporo, layout: Layout, pal: Palette) -> None:
    b = layout.main_board
    x, y, w, h = b.spots_box
    g = b.spot_gap
    sw, sh = (w - g) / 2, (h - g) / 2
    for s in data.action_spots:
        r, c = s.position
        sx, sy = x + c * (sw + g), y + r * (sh + g)
        colour = layout.colours.orange if s.background == "orange" else layout.colours.blue
        canvas.rect(sx, sy, sw, sh, Style(fill=pal.fill(pal.tint(colour, 0.35)), stroke=pal.ink, width=0.6), radius=3)
        # the background also named (colour is not the only cue): which track it advances
        adv = "harvest up" if data.track(s.background) is data.harvest_track else "settlement down"
        label(canvas, (sx + 3, sy + 3, sw - 6, 8), s.name.upper(), b.head, fill=pal.ink, where=f"spot {s.id}")
        label(canvas, (sx + 3, sy + 11, sw - 6, 6), f"{ACTION_VERB[s.action]} · {s.background} · {adv}", b.small,
              fill=pal.ink, where=f"spot {s.id} action")
        for k, (res, ap) in enumerate(sorted(s.ap.items(), key=lambda kv: -kv[1])):
            ry = sy + 22 + k * 14
            resource_icon(canvas, data.resource[res], sx + 12, ry + 5, 5, pal)
            label(canvas, (sx + 20, ry, sw - 24, 10), f"{data.resource[res].name}: {ap} AP", b.body, anchor="start",
                  fill=pal.ink, where=f"spot {s.id} {res}")
        ny = sy + 22 + 2 * 14
        yen_icon(canvas, sx + 12, ny + 5, 4.5, pal)
        label(canvas, (sx + 20, ny, sw - 24, 10), "Banknotes: face value", b.body, anchor="start", fill=pal.ink,
              where=f"spot {s.id} yen")
        canvas.rect(sx + 6, sy + sh - 18, sw - 12, 13, Style(stroke=pal.ink, width=0.3, dash=(1.2, 0.8)))
        label(canvas, (sx + 7, sy + sh - 17, sw - 14, 11), "banknotes here", b.small, fill=pal.ink,
              where=f"spot {s.id} notes")
    # the action pawn's start in the centre
    cx, cy = x + w / 2, y + h / 2
    canvas.circle(cx, cy, 9, Style(fill=pal.paper, stroke=pal.ink, width=0.5))
    label(canvas, (cx - 8, cy - 3, 16, 6), "PAWN", b.small, fill=pal.ink, where="pawn start")


def _draw_council(canvas: Canvas, data: Sapporo, layout: Layout, pal: Palette) -> None:
    b = layout.main_board
    x, y, w, h = b.council_box
    canvas.rect(x, y, w, h, Style(fill=pal.fill(layout.colours.council), stroke=pal.ink, width=0.5), radius=2)
    label(canvas, (x + 2, y + 2, w - 4, 8), "CITY COUNCIL (SHIGIKAI)", b.head, fill=pal.ink, where="council")
    n = len(data.council)
    cw = (w - 8) / n
    for i, c in enumerate(data.council):
        cx = x + 4 + i * cw
        spaces = len(c.spaces)
        sh = 24
        for k in range(spaces):
            sy = y + 14 + (spaces - 1 - k) * (sh + 3)
            canvas.rect(cx + 2, sy, cw - 4, sh, Style(fill=pal.paper, stroke=pal.ink, width=0.3), radius=2)
            label(canvas, (cx + 3, sy + 2, cw - 6, sh - 4), f"{c.spaces[k]} AP", b.head, fill=pal.ink,
                  where=f"council {c.id} {k}")
        fy = y + 14 + spaces * (sh + 3) + 2
        label(canvas, (cx + 1, fy, cw - 2, 7), c.name.replace(" column", "").upper(), b.small, fill=pal.ink,
              where=f"council {c.id} name")
        fame_icon(canvas, cx + 6, fy + 13, 3.2, pal)
        label(canvas, (cx + 10, fy + 9, cw - 12, 8), f"{c.higher} / {c.lower}", b.head, anchor="start",
              fill=pal.ink, where=f"council {c.id} fame")
        label(canvas, (cx + 1, fy + 18, cw - 2, 7), f"end: {c.final_per_worker} each", b.small, fill=pal.ink,
              where=f"council {c.id} final")
    paragraph(canvas, (x + 3, y + h - 22, w - 6, 20),
              "Settlement: more workers in a column take the higher fame, fewer the lower; "
              "a 1-1 tie goes to the higher space; none: nothing.", b.small, fill=pal.ink, where="council rule")


def _tile_grid(canvas, box, n, cols, size, pal, text, style, where):
    x, y, w, h = box
    rows = -(-n // cols)
    gx = (w - cols * size) / (cols + 1)
    gy = (h - rows * size) / (rows + 1)
    for i in range(n):
        r, c = divmod(i, cols)
        tx, ty = x + gx + c * (size + gx), y + gy + r * (size + gy)
        canvas.rect(tx, ty, size, size, Style(fill=pal.paper, stroke=pal.ink, width=0.3, dash=(2, 1)), radius=2)
        label(canvas, (tx + 3, ty + size / 2 - 4, size - 6, 8), text, style, fill=pal.ink, where=where)


def _draw_tile_spaces(canvas: Canvas, data: Sapporo, layout: Layout, pal: Palette) -> None:
    b = layout.main_board
    s = data.setup
    x, y, w, h = b.persons_box
    canvas.rect(x, y, w, h, Style(stroke=pal.ink, width=0.3), radius=2)
    _tile_grid(canvas, b.persons_box, s.persons_on_board, 3, b.tile_space, pal, "influential person",
               b.small, "person space")
    x, y, w, h = b.buildings_box
    canvas.rect(x, y, w, h, Style(stroke=pal.ink, width=0.3), radius=2)
    _tile_grid(canvas, b.buildings_box, s.buildings_on_board, 6, b.tile_space, pal, "building", b.small,
               "building space")
    x, y, w, h = b.beside_box
    canvas.rect(x, y, w, h, Style(fill=pal.paper, stroke=pal.ink, width=0.3), radius=2)
    label(canvas, (x + 2, y + 2, w - 4, 8), "TURN", b.head, fill=pal.ink, where="turn title")
    steps = ("1 Move the action pawn (never stay); take its banknotes.",
             "2 A 1-yen note on each of the 2 edge-adjacent spots.",
             "3 Orange: harvest marker up. Blue: settlement marker down.",
             "4 Active player's action.  5 The other player's action.",
             "6 Harvest or settlement if a marker reached its icon.",
             "7 End: use buildings. 5 harvests + settlements end the game.")
    for i, t in enumerate(steps):
        paragraph(canvas, (x + 3, y + 11 + i * 18, w - 6, 17), t, b.body, fill=pal.ink, where=f"turn {i}")


# --------------------------------------------------------------------------- personal boards

def draw_personal_board(canvas: Canvas, data: Sapporo, layout: Layout, pal: Palette, colour, payload: str) -> None:
    p, b = layout.personal_board, layout.main_board
    w, h = p.size
    canvas.rect(0, 0, w, h, Style(fill=pal.fill(layout.colours.board) if not pal.ink_saver else pal.paper,
                                  stroke=pal.ink, width=0.6))
    x, y, tw, th = p.title_box
    shape(canvas, worker_shape(colour.id), x + 5, y + th / 2, 4.5,
          Style(fill=colour.hex, stroke=pal.ink, width=0.5))
    label(canvas, (x + 12, y, tw - 12, th), f"{colour.name.upper()} · PERSONAL BOARD", b.title, anchor="start",
          fill=pal.ink, where="personal title")
    # pioneering columns
    x, y, cw_all, ch = p.columns_box
    n = len(data.pioneering.column)
    cw = cw_all / n
    for i, c in enumerate(data.pioneering.column):
        cx = x + i * cw
        canvas.rect(cx + 1, y, cw - 2, ch, Style(fill=pal.paper, stroke=pal.ink, width=0.4), radius=2)
        resource_icon(canvas, data.resource[c.resource], cx + 7, y + 5.5, 3.8, pal)
        label(canvas, (cx + 12, y + 1, cw - 14, 9), c.name.upper(), b.small, anchor="start", fill=pal.ink,
              where=f"column {c.id}")
        k = len(c.spaces)
        sh = (ch - 13) / k
        for j, space in enumerate(c.spaces):
            sy = y + 12 + (k - 1 - j) * sh
            canvas.rect(cx + 2.5, sy + 0.5, cw - 5, sh - 1, Style(stroke=pal.ink, width=0.25), radius=1.5)
            label(canvas, (cx + 3.5, sy + 1, 11, sh - 2), f"{space.cost} AP", b.body, fill=pal.ink,
                  where=f"column {c.id} cost {j}")
            gains = " + ".join(f"{v} {'yen' if g == 'yen' else data.resource[g].name.lower()}"
                               for g, v in space.gain.items())
            label(canvas, (cx + 15, sy + 1, cw - 18, (sh - 2) / 2), "+" + gains, b.small, anchor="start",
                  fill=pal.ink, where=f"column {c.id} gain {j}")
            fame = (data.pioneering.top_fame if j == k - 1 else
                    data.pioneering.second_from_top_fame if j == k - 2 else 0)
            if fame:
                fame_icon(canvas, cx + 18, sy + sh * 0.72, 2.2, pal)
                label(canvas, (cx + 21, sy + sh / 2, cw - 24, (sh - 2) / 2), f"{fame} at the end", b.small,
                      anchor="start", fill=pal.ink, where=f"column {c.id} fame {j}")
    # private academy
    x, y, aw, ah = p.academy_box
    canvas.rect(x, y, aw, ah, Style(fill=pal.paper, stroke=pal.ink, width=0.4), radius=2)
    label(canvas, (x + 2, y + 1, aw - 4, 8), "PRIVATE ACADEMY (SHIJUKU)", b.head, fill=pal.ink, where="academy")
    tiers = list(data.academy.tier)
    rh = (ah - 22) / len(tiers)
    for i, t in enumerate(reversed(tiers)):            # the top tier drawn first
        ty = y + 10 + i * rh
        canvas.rect(x + 2, ty, aw - 4, rh - 1.5, Style(stroke=pal.ink, width=0.25), radius=1.5)
        label(canvas, (x + 3, ty + 1, 13, rh - 3), f"{t.cost} AP", b.head, fill=pal.ink, where=f"tier {t.id} cost")
        for k in range(t.workers):
            shape(canvas, worker_shape(colour.id), x + 22 + k * 12, ty + rh / 2 - 0.8, 4,
                  Style(stroke=pal.ink, width=0.3, dash=(0.8, 0.6)))
        bonus = f"+{t.final_fame} fame at the end" if t.final_fame else ", ".join(
            f"+{s.amount} {'resource of your choice' if s.resource == 'any' else s.resource}" for s in t.bonus)
        paragraph(canvas, (x + 44, ty + 1, aw - 47, rh - 3), bonus or "—", b.small, fill=pal.ink,
                  where=f"tier {t.id} bonus")
    paragraph(canvas, (x + 3, y + ah - 12, aw - 6, 11),
              f"Educate from the lowest tier. Empty: {data.academy.when_empty_ap} AP = "
              f"{data.academy.when_empty_fame} fame.", b.small, fill=pal.ink, where="academy rule")
    for box, title in ((p.area_box, "WORKER AREA"), (p.notes_box, "BANKNOTES"), (p.resources_box, "RESOURCES")):
        bx, by, bw, bh = box
        canvas.rect(bx, by, bw, bh, Style(fill=pal.paper, stroke=pal.ink, width=0.4), radius=2)
        label(canvas, (bx + 2, by + 1, bw - 4, 7), title, b.head, fill=pal.ink, where=title)
    bx, by, bw, bh = p.notes_box
    yen_icon(canvas, bx + bw / 2, by + bh / 2 + 4, 5, pal)
    bx, by, bw, bh = p.resources_box
    for k, r in enumerate(data.resources):
        resource_icon(canvas, r, bx + bw / (len(data.resources) + 1) * (k + 1), by + bh / 2 + 4, 3.8, pal)
    qx, qy, qs, _ = p.qr
    draw_qr(canvas, payload, qx, qy, qs)
    label(canvas, p.qr_caption, "scan: score preview", b.small, fill=pal.ink, where="qr caption")
