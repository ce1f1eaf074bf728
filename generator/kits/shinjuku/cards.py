"""Shinjuku's ward cards: the front (ward name, deck count, where it is on the map, its stations and
the QR code of its companion page) and the one back shared by every ward card."""
from __future__ import annotations

from ... import icons
from ...canon.shinjuku import Shinjuku, Ward
from ...draw import Canvas, Style, text_width
from ...draw.fit import fit_size, fit_text
from ...qr import draw_qr
from .layout import Layout
from .map import MapModel
from .style import Palette, mix


def draw_ward_card(canvas: Canvas, data: Shinjuku, layout: Layout, model: MapModel, pal: Palette,
                   ward: Ward, qr_payload: str) -> None:
    c = layout.card
    where = f"ward card {ward.id}"
    w, h = c.size
    canvas.rect(0, 0, w, h, Style(fill=pal.paper, stroke=None))
    fill, text = pal.ward_header(ward.colour)
    canvas.rect(*c.header, Style(fill=fill, stroke=None if not pal.ink_saver else pal.ward_full(ward.colour),
                                 width=0.6))
    fit_text(canvas, c.name.box, ward.name, c.name.size, c.name.min, font=c.name.font, fill=text,
             where=f"{where}: name")
    fit_text(canvas, c.kanji.box, ward.kanji, c.kanji.size, c.kanji.min, font=c.kanji.font, fill=text,
             where=f"{where}: kanji")
    # Copies in the deck: the same number the board prints beside the ward's name.
    bx, by, bw, bh = c.count.box
    canvas.rect(bx, by, bw, bh, Style(fill=pal.paper, stroke=pal.ink, width=0.4), radius=1.2)
    fit_text(canvas, c.count.box, str(ward.cards), c.count.size, c.count.min, font=c.count.font,
             anchor="middle", fill=pal.ink, where=f"{where}: count")
    # on a paper chip like the count's: 6 pt white on the lighter ward colours read at 4:1
    caption = f"of {data.deck.cards} cards"
    cx, cy, cw, ch = c.count_caption.box
    size = fit_size(caption, cw, ch, c.count_caption.size, c.count_caption.min, font=c.count_caption.font)
    chip = min(cw, text_width(caption, size, c.count_caption.font) + 1.6)
    canvas.rect(cx + (cw - chip) / 2, cy, chip, ch, Style(fill=pal.paper, stroke=None), radius=1.0)
    fit_text(canvas, c.count_caption.box, caption, c.count_caption.size,
             c.count_caption.min, font=c.count_caption.font, anchor="middle", fill=pal.ink,
             where=f"{where}: count caption")
    draw_locator(canvas, data, model, pal, ward, c.locator)
    draw_station_list(canvas, data, layout, pal, ward, where)
    draw_qr(canvas, qr_payload, *c.qr[:2], c.qr[2])


def draw_locator(canvas: Canvas, data: Shinjuku, model: MapModel, pal: Palette, ward: Ward,
                 box: tuple[float, float, float, float]) -> None:
    """The whole map small, every ward grey but this one: where to look on the board."""
    bx, by, bw, bh = box
    mx, my, mw, mh = model.bounds_mm
    scale = min(bw / mw, bh / mh)
    ox, oy = bx + (bw - mw * scale) / 2, by + (bh - mh * scale) / 2

    def at(p):
        return (ox + (p[0] - mx) * scale, oy + (p[1] - my) * scale)

    grey = mix(pal.ink, pal.paper, 0.86)
    highlight = pal.ward_full(ward.colour) if not pal.ink_saver else pal.ward_tint(ward.colour)
    for key, cell in model.cells.items():
        if not cell.points:
            continue
        mine = model.seed_ward[key] == ward.id
        colour = highlight if mine else grey
        canvas.polygon([at(p) for p in cell.points], Style(fill=colour, stroke=colour, width=0.15))
    for p, q, w1, w2 in model.borders:
        canvas.line(*at(p), *at(q), Style(stroke=pal.paper, width=0.3))
    for p, q, w1, w2 in model.borders:
        if ward.id in (w1, w2):
            canvas.line(*at(p), *at(q), Style(stroke=pal.ink, width=0.5))
    canvas.rect(ox, oy, mw * scale, mh * scale, Style(stroke=pal.muted, width=0.25))
    for s in data.stations_in[ward.id]:
        cx, cy = at(model.station_mm(s))
        canvas.circle(cx, cy, 0.9, Style(fill=pal.paper, stroke=pal.ink, width=0.35))


def draw_station_list(canvas: Canvas, data: Shinjuku, layout: Layout, pal: Palette, ward: Ward, where: str) -> None:
    """The ward's stations, a sakura hexagon marking those where a store may be upgraded."""
    c = layout.card
    x, y, w, h = c.stations
    stations = data.stations_in[ward.id]
    line_h = h / max(4, len(stations))
    icon = min(line_h * 0.8, 4.6)
    ink = icons.Ink(line=pal.ink, fill=pal.paper, paper=pal.paper, width=0.35)
    for i, s in enumerate(stations):
        top = y + i * line_h
        cy = top + line_h / 2
        if s.sakura:
            icons.sakura_station(canvas, x + icon / 2, cy, icon * 1.1, ink, petal=pal.sakura)
        else:
            canvas.circle(x + icon / 2, cy, icon * 0.4, Style(fill=pal.paper, stroke=pal.ink, width=0.4))
        tx = x + icon + 1.2
        fit_text(canvas, (tx, top, w - icon - 1.2, line_h * 0.56), s.name, c.station_name.size,
                 c.station_name.min, font=c.station_name.font, fill=pal.ink, where=f"{where}: station {s.id}")
        fit_text(canvas, (tx, top + line_h * 0.60, w - icon - 1.2, line_h * 0.38), s.kanji,
                 c.station_kanji.size, c.station_kanji.min, font=c.station_kanji.font, fill=pal.muted,
                 where=f"{where}: station {s.id} kanji")


def draw_ward_card_back(canvas: Canvas, data: Shinjuku, layout: Layout, pal: Palette) -> None:
    """One back for every ward card: the game's name over a pattern of rail lines and a blossom."""
    c = layout.card
    w, h = c.size
    bg, fg = pal.card_back, pal.card_back_ink
    # No line on the trim: a back printed a millimetre off would show it on the front's edge.
    canvas.rect(0, 0, w, h, Style(fill=bg, stroke=None))
    line = mix(bg, fg, 0.25)
    # Diagonal rails: a calm texture that shows no ward. Cut to the card here (no clipping needed).
    slope = 0.5
    for i in range(-6, 12):
        x0 = i * 9.0
        ya, yb = max(0.0, -x0 / slope), min(h, (w - x0) / slope)
        if yb > ya:
            canvas.line(x0 + ya * slope, ya, x0 + yb * slope, yb, Style(stroke=line, width=0.7))
    # Ink-saver: the frame is left blank inside, so the rails run round the name, not through it.
    canvas.rect(4, 4, w - 8, h - 8, Style(fill=bg if pal.ink_saver else None, stroke=fg, width=0.5), radius=2.5)
    fit_text(canvas, c.back_kanji.box, "新宿", c.back_kanji.size, c.back_kanji.min, font=c.back_kanji.font,
             anchor="middle", fill=fg, where="ward card back: kanji")
    fit_text(canvas, c.back_title.box, data.name.upper(), c.back_title.size, c.back_title.min,
             font=c.back_title.font, anchor="middle", fill=fg, where="ward card back: title")
    fit_text(canvas, c.back_caption.box, "ward card", c.back_caption.size, c.back_caption.min,
             font=c.back_caption.font, anchor="middle", fill=fg, where="ward card back: caption")
    icons.sakura(canvas, w / 2, 18, 14, icons.Ink(line=bg if not pal.ink_saver else fg, fill=fg, paper=bg),
                 petal=pal.sakura)
