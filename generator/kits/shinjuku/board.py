"""Drawing the Shinjuku map board: ward areas, borders, track slots, stations, labels, customer queue."""
from __future__ import annotations


from ... import icons
from ...canon.shinjuku import Shinjuku
from ...draw import Canvas, Style
from ...draw.base import PT, text_width
from ...draw.fit import CENTRE_EMS, LINE_EMS, fit_text
from ..base import KitContext
from .layout import Layout
from .map import COUNT_CARD, LINE_GAP, SEAM_CLEAR, Label, LabelError, MapModel
from .style import Palette


def circled(n: int) -> str:
    """①..⑳ for a queue space number (the rules print the queue as ④③②①)."""
    if not 1 <= n <= 20:
        raise ValueError(f"no circled numeral for {n}")
    return chr(0x2460 + n - 1)


def draw_board(canvas: Canvas, data: Shinjuku, layout: Layout, model: MapModel, ctx: KitContext) -> None:
    pal = Palette(layout.colours, ctx.ink_saver)
    w, h = layout.board.size
    canvas.rect(0, 0, w, h, Style(fill=pal.paper, stroke=None))
    draw_ward_areas(canvas, data, model, pal)
    draw_ward_borders(canvas, model, layout, pal)
    draw_track_slots(canvas, model, layout, pal)
    for s in data.stations:
        draw_station(canvas, model, layout, pal, s.id)
    for label in model.station_labels.values():
        draw_label(canvas, label, pal.ink)
    for w_id, label in model.ward_labels.items():
        draw_ward_label(canvas, label, data.ward[w_id].cards, pal)
    draw_title(canvas, data, layout, pal)
    draw_legend(canvas, data, layout, pal)
    draw_queue(canvas, data, layout, pal, queue_spaces(data, layout, model))


def draw_ward_areas(canvas: Canvas, data: Shinjuku, model: MapModel, pal: Palette) -> None:
    for ward in data.wards:
        tint = pal.ward_tint(ward.colour)
        for cell in model.ward_cells(ward.id):
            # Stroked in its own colour so neighbouring cells of one ward show no hairline seam.
            canvas.polygon(cell.points, Style(fill=tint, stroke=tint, width=0.3))
    x, y, bw, bh = model.bounds_mm
    canvas.rect(x, y, bw, bh, Style(fill=None, stroke=pal.border, width=1.2))


def draw_ward_borders(canvas: Canvas, model: MapModel, layout: Layout, pal: Palette) -> None:
    style = Style(stroke=pal.border, width=layout.board.border_width)
    for p, q, _, _ in model.borders:
        canvas.line(p[0], p[1], q[0], q[1], style)


def draw_track_slots(canvas: Canvas, model: MapModel, layout: Layout, pal: Palette) -> None:
    """Every connection: a thin rail line; a dashed rectangle where a track piece goes; the prebuilt
    connection drawn solid and heavy, as built track owned by nobody."""
    rail = Style(stroke=pal.track, width=layout.board.track_width)
    slot_style = Style(fill=pal.slot, stroke=pal.track, width=0.5, dash=(1.6, 1.0))
    for slot in model.slots:
        if slot.connection.prebuilt:
            canvas.line(*slot.a, *slot.b, Style(stroke=pal.ink, width=3.0))
            canvas.line(*slot.a, *slot.b, Style(stroke=pal.paper, width=1.0))
            continue
        canvas.line(*slot.a, *slot.b, rail)
        canvas.polygon(slot.corners(), slot_style)


def draw_station(canvas: Canvas, model: MapModel, layout: Layout, pal: Palette, station_id: str) -> None:
    s = model.data.station[station_id]
    cx, cy = model.station_mm(s)
    r = layout.board.station_radius
    ink = icons.Ink(line=pal.ink, fill=pal.paper, paper=pal.paper, width=0.5)
    if s.sakura:
        icons.sakura_station(canvas, cx, cy, r * 2.3, ink, petal=pal.sakura)
    else:
        canvas.circle(cx, cy, r, Style(fill=pal.paper, stroke=pal.ink, width=0.9))


def draw_label(canvas: Canvas, label: Label, colour: str) -> None:
    x, y, w, _ = label.box
    ax = {"start": x, "middle": x + w / 2, "end": x + w}[label.anchor]
    top = y
    for text, size, font in label.lines:
        line_h = size * PT * LINE_EMS
        canvas.text(ax, top + line_h / 2 + size * PT * CENTRE_EMS, text, size, font=font, anchor=label.anchor,
                    fill=colour)
        top += line_h + LINE_GAP


def draw_ward_label(canvas: Canvas, label: Label, cards: int, pal: Palette) -> None:
    """Ward name over its kanji, then a small card showing how many of its cards the deck holds."""
    x, y, _, _ = label.box
    (name, name_pt, name_font), (kanji, kanji_pt, kanji_font) = label.lines
    name_h = name_pt * PT * LINE_EMS
    canvas.text(x, y + name_h / 2 + name_pt * PT * CENTRE_EMS, name, name_pt, font=name_font, fill=pal.ink)
    row_y = y + name_h + LINE_GAP
    row_h = max(kanji_pt * PT * LINE_EMS, COUNT_CARD[1])
    canvas.text(x, row_y + row_h / 2 + kanji_pt * PT * CENTRE_EMS, kanji, kanji_pt, font=kanji_font, fill=pal.ink)
    cw, ch = COUNT_CARD
    card_x = x + text_width(kanji, kanji_pt, kanji_font) + 1.5
    card_y = row_y + (row_h - ch) / 2
    canvas.rect(card_x, card_y, cw, ch, Style(fill=pal.ink if not pal.ink_saver else pal.paper, stroke=pal.ink,
                                              width=0.4), radius=0.8)
    fit_text(canvas, (card_x, card_y, cw, ch), str(cards), 12, 7, font="bold", anchor="middle",
             fill=pal.paper if not pal.ink_saver else pal.ink, where="board: ward card count")


def draw_title(canvas: Canvas, data: Shinjuku, layout: Layout, pal: Palette) -> None:
    b = layout.board
    fit_text(canvas, b.title_box, f"{data.name.upper()}  新宿", 40, 20, font="bold", fill=pal.ink,
             where="board: title")
    lo, hi = data.players
    fit_text(canvas, b.subtitle_box, f"Rail lines and department stores in Tokyo's {len(data.wards)} wards · "
             f"{lo}–{hi} players", 14, 8, fill=pal.ink, where="board: subtitle")


def draw_legend(canvas: Canvas, data: Shinjuku, layout: Layout, pal: Palette) -> None:
    x, y, w, h = layout.board.legend_box
    rows = 5
    row_h = h / rows
    icon_w = 16
    ink = icons.Ink(line=pal.ink, fill=pal.paper, paper=pal.paper, width=0.5)
    r = layout.board.station_radius
    entries = [
        ("station", "Station: a store or department store goes here"),
        ("sakura", "Sakura station: a store here may be upgraded to a department store"),
        ("slot", "Track slot: one track piece covers it"),
        ("prebuilt", "Built from the start: usable by everyone, owned by nobody"),
        ("count", "Cards of this ward in the deck"),
    ]
    for i, (kind, text) in enumerate(entries):
        cy = y + row_h * i + row_h / 2
        cx = x + icon_w / 2
        if kind == "station":
            canvas.circle(cx, cy, r * 0.8, Style(fill=pal.paper, stroke=pal.ink, width=0.9))
        elif kind == "sakura":
            icons.sakura_station(canvas, cx, cy, r * 2.3 * 0.8, ink, petal=pal.sakura)
        elif kind == "slot":
            canvas.line(cx - 8, cy, cx + 8, cy, Style(stroke=pal.track, width=layout.board.track_width))
            canvas.rect(cx - 6, cy - 2.2, 12, 4.4, Style(fill=pal.slot, stroke=pal.track, width=0.5, dash=(1.6, 1.0)))
        elif kind == "prebuilt":
            canvas.line(cx - 7, cy, cx + 7, cy, Style(stroke=pal.ink, width=3.0))
            canvas.line(cx - 7, cy, cx + 7, cy, Style(stroke=pal.paper, width=1.0))
        elif kind == "count":
            cw, ch = COUNT_CARD
            canvas.rect(cx - cw / 2, cy - ch / 2, cw, ch, Style(fill=pal.ink if not pal.ink_saver else pal.paper,
                                                               stroke=pal.ink, width=0.4), radius=0.8)
            fit_text(canvas, (cx - cw / 2, cy - ch / 2, cw, ch), str(data.ward[data.wards[0].id].cards), 12, 7,
                     font="bold", anchor="middle", fill=pal.paper if not pal.ink_saver else pal.ink,
                     where="board: legend count")
        fit_text(canvas, (x + icon_w + 2, cy - row_h / 2, w - icon_w - 2, row_h), text, 11, 7, fill=pal.ink,
                 where=f"board: legend {kind}")


QUEUE_EXIT = 14.0     # mm after the last queue space for the arrow "to the map"
QUEUE_GAP = 3.3       # mm at least between two queue spaces (an arrow between them)


def queue_spaces(data: Shinjuku, layout: Layout, model: MapModel) -> list[float]:
    """The left edge of each queue space: left to right in the queue box, each clear of the tiled
    board's seams (a card space split by a seam does not lie flat)."""
    b = layout.board
    qx, qy, qw, qh = b.queue_box
    sw = b.queue_space[0]
    cuts = [x for x, y, w, h in model.seams if w == 0 and y < qy + qh and y + h > qy]
    xs, x = [], qx
    for _ in data.rules.queue_slots:
        for cut in sorted(cuts):
            if x - SEAM_CLEAR < cut < x + sw + SEAM_CLEAR:
                x = cut + SEAM_CLEAR
        xs.append(x)
        x += sw + QUEUE_GAP
    if xs[-1] + sw + QUEUE_EXIT > qx + qw + 1e-6:
        raise LabelError(f"board: queue_box {b.queue_box} holds no {len(xs)} spaces clear of the tile seams")
    return xs


def draw_queue(canvas: Canvas, data: Shinjuku, layout: Layout, pal: Palette, xs: list[float]) -> None:
    """The customer queue: one card space per queue slot, in the data's order (④③②①), at `xs`."""
    b = layout.board
    qx, qy, qw, qh = b.queue_box
    sw, sh = b.queue_space
    slots = data.rules.queue_slots
    label_h = qh - sh
    for i, n in enumerate(slots):
        x = xs[i]
        gap = xs[i + 1] - x - sw if i + 1 < len(xs) else 0.0
        fit_text(canvas, (x, qy, sw, label_h), circled(n), b.queue_label.size, b.queue_label.min,
                 font=b.queue_label.font, anchor="middle", fill=pal.ink, where="board: queue label")
        canvas.rect(x, qy + label_h, sw, sh, Style(fill=pal.queue_fill, stroke=pal.ink, width=0.7, dash=(3, 1.5)),
                    radius=3)
        fit_text(canvas, (x + 3, qy + label_h + sh / 2 - 6, sw - 6, 5), "ward card", 9, 6, anchor="middle",
                 fill=pal.muted, where="board: queue space")
        fit_text(canvas, (x + 3, qy + label_h + sh / 2 + 1, sw - 6, 5), "+ customers", 9, 6, anchor="middle",
                 fill=pal.muted, where="board: queue space")
        if i < len(slots) - 1:
            ay = qy + label_h + sh / 2
            icons.arrow(canvas, x + sw + 0.8, ay, x + sw + gap - 0.8, ay, 0.8, pal.ink)
    with canvas.frame(qx - 2, qy + qh, rotate=-90):
        fit_text(canvas, (0, -6, sh, 6), "CUSTOMER QUEUE", b.queue_caption.size, b.queue_caption.min,
                 font=b.queue_caption.font, anchor="middle", fill=pal.ink, where="board: queue caption")
    # After the last slot: customers go onto the map.
    last_x = xs[-1] + sw
    ay = qy + label_h + sh / 2
    icons.arrow(canvas, last_x + 3, ay + sh / 2, last_x + 3, qy - 4, 1.2, pal.ink)
    with canvas.frame(last_x + 11, qy + qh, rotate=-90):
        fit_text(canvas, (0, -6, sh, 6), "to the map", 12, 8, font="bold", anchor="middle", fill=pal.ink,
                 where="board: queue arrow")
