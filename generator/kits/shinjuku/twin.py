"""The board twin: the Shinjuku map as one SVG for the companion's board page, drawn from the printed
board's own geometry (MapModel) and drawing functions: the same ward areas, borders, track slots,
station markers, sakura hexagons and labels as the paper board, in board millimetres (the SVG's user
units are the board's mm). The companion gets it through `generator.render.component_svg("shinjuku",
"board-twin", "map")`; its page script (static board_map.js) draws the live state on top.

What the page script relies on (ids and data attributes, one element per id):

    <svg id="board-map" role="img" aria-label="…">   no width or height: it fills the page's box
    <g id="map-wards">        <g data-ward="minato" data-spot="x y w h">   ward area (Voronoi cells)
    <g id="map-borders">      the borders between wards
    <g id="map-outlines">     <g data-outline="minato"><path>   the ward's outline (shown on demand)
    <g id="map-connections">  <g data-connection="nakano--shinjuku" data-ends="x1 y1 x2 y2" data-centre
                                 data-angle data-prebuilt="1"?>   rail, slot and an invisible wide tap band
    <g id="live-customers">, <g id="live-tracks">, <g id="live-marks">   empty: the customers waiting,
                                 track pieces and what the move being built has chosen go here (under
                                 the stations; a track piece lies on customers it crosses, as on paper)
    <g id="map-stations">     <g data-station="shinjuku" data-x data-y data-sakura="1"?>  marker +
                                 an invisible hit circle (class "hit" is added by the page script)
    <g id="map-labels">       station and ward labels (no pointer events: taps reach what is below)
    <g id="live-pieces">      empty: stores and department stores go here (on the stations)
    <g id="map-pieces">       hidden: one <g data-piece="store-red-food" data-face="face-…" data-w data-h>
                                 per piece face (stores, department stores, track, customers, Matsuri),
                                 the printed piece drawings; the page places <use href="#face-…">
    data-text="…"             on every text run: the words drawn as glyph outlines

`data-spot` is a free box inside the ward (clear of stations, labels and, where it can be, rails)
where the page shows the customers waiting there and the Matsuri lantern. It is searched for with the
printed ward labels' own placement (MapModel.place_in_ward and obstacle_cost), so it keeps clear of
whatever the printed board keeps its labels clear of; tests/games/shinjuku/test_board_twin.py checks it.
"""
from __future__ import annotations

import math

from ...canon.shinjuku import Shinjuku
from ...draw import Style
from ...draw.svg import SvgCanvas, face_id, num
from ...geometry import Box, Point, boxes_overlap
from .board import draw_label, draw_station, draw_ward_label
from .layout import Layout, load_layout
from .map import Label, MapModel, map_model
from .pieces import draw_customer, draw_department_store, draw_store, draw_token, draw_track
from .style import Palette

MARGIN = 2.0          # mm of paper around the map's bounds
HIT_RADIUS = 12.0     # mm: the invisible tap circle of a station (the page enlarges it when zoomed out)
HIT_WIDTH = 9.0       # mm: the invisible tap band along a connection
#: The boxes tried, in order, for a ward's waiting customers: (width, height, how much crossing rails
#: may cost; see MapModel.obstacle_cost): a row of four clear of rails, ..., crossing a rail, smaller.
SPOT_TRIES = [(56.0, 15.0, 1.0), (42.0, 15.0, 1.0), (28.0, 28.0, 1.0),
              (56.0, 15.0, 70.0), (42.0, 15.0, 70.0), (28.0, 28.0, 70.0),
              (28.0, 15.0, 1.0), (28.0, 15.0, 70.0),
              (28.0, 28.0, 1e6), (42.0, 15.0, 1e6), (28.0, 15.0, 1e6)]
#: A ward too small for any of those gets a box this big as near its label as can be, across its
#: border if it must (_spot_nearby).
SPOT_SMALL = (28.0, 15.0)


def twin_svg(data: Shinjuku) -> str:
    """The board twin's map as SVG text (the same data and layout give the same bytes)."""
    layout = load_layout()
    model = map_model(data, layout)
    pal = Palette(layout.colours)
    board = layout.board
    x, y, w, h = model.bounds_mm
    canvas = SvgCanvas(w + 2 * MARGIN, h + 2 * MARGIN, title=f"{data.name}: the map")
    canvas.set_root({"id": "board-map", "role": "img",
                     "aria-label": (f"Map of {len(data.wards)} wards, {len(data.stations)} stations and "
                                    f"{len(data.connections)} connections")},
                    view_box=(x - MARGIN, y - MARGIN, w + 2 * MARGIN, h + 2 * MARGIN), fluid=True)
    canvas.rect(x - MARGIN, y - MARGIN, w + 2 * MARGIN, h + 2 * MARGIN, Style(fill=pal.paper, stroke=None))

    spots = customer_spots(data, model)
    with canvas.group("map-wards"):
        for ward in data.wards:
            tint = pal.ward_tint(ward.colour)
            sx, sy, sw, sh = spots[ward.id]
            with canvas.group(f"ward-{ward.id}", ward=ward.id, spot=f"{num(sx)} {num(sy)} {num(sw)} {num(sh)}"):
                for cell in model.ward_cells(ward.id):
                    canvas.polygon(cell.points, Style(fill=tint, stroke=tint, width=0.3))
        canvas.rect(x, y, w, h, Style(fill=None, stroke=pal.border, width=1.2))
    with canvas.group("map-borders"):
        for p, q, _, _ in model.borders:
            canvas.line(p[0], p[1], q[0], q[1], Style(stroke=pal.border, width=board.border_width))
    with canvas.group("map-outlines"):
        for ward in data.wards:
            ops = []
            for a, b in ward_outline(model, ward.id):
                ops += [("M", *a), ("L", *b)]
            with canvas.group(f"outline-{ward.id}", outline=ward.id):
                canvas.path(ops, Style(stroke=pal.matsuri, width=2.4))

    rail = Style(stroke=pal.track, width=board.track_width)
    slot_style = Style(fill=pal.slot, stroke=pal.track, width=0.5, dash=(1.6, 1.0))
    invisible = Style(fill="#000000", stroke=None, opacity=0.0)
    with canvas.group("map-connections"):
        for slot in model.slots:
            c = slot.connection
            p, q = model.station_mm(c.stations[0]), model.station_mm(c.stations[1])
            attrs = {"connection": c.id, "ends": " ".join(num(v) for v in (*p, *q)),
                     "centre": f"{num(slot.centre[0])} {num(slot.centre[1])}", "angle": num(slot.angle)}
            if c.prebuilt:
                attrs["prebuilt"] = "1"
            with canvas.group(f"conn-{c.id}", **attrs):
                # As printed (board.draw_track_slots): a rail and a dashed slot; the prebuilt link
                # solid and heavy, built track owned by nobody.
                if c.prebuilt:
                    canvas.line(*slot.a, *slot.b, Style(stroke=pal.ink, width=3.0))
                    canvas.line(*slot.a, *slot.b, Style(stroke=pal.paper, width=1.0))
                else:
                    canvas.line(*slot.a, *slot.b, rail)
                    canvas.polygon(slot.corners(), slot_style)
                canvas.polygon(_band(slot.a, slot.b, HIT_WIDTH), invisible)
    for layer in ("live-customers", "live-tracks", "live-marks"):     # under the stations and labels
        with canvas.group(layer):
            pass
    with canvas.group("map-stations"):
        for s in data.stations:
            cx, cy = model.station_mm(s)
            attrs = {"station": s.id, "x": num(cx), "y": num(cy)}
            if s.sakura:
                attrs["sakura"] = "1"
            with canvas.group(f"st-{s.id}", **attrs):
                draw_station(canvas, model, layout, pal, s.id)
                canvas.circle(cx, cy, HIT_RADIUS, invisible)
    with canvas.group("map-labels"):
        for label in model.station_labels.values():
            draw_label(canvas, label, pal.ink)
        for w_id, label in model.ward_labels.items():
            draw_ward_label(canvas, label, data.ward[w_id].cards, pal)
    with canvas.group("live-pieces"):
        pass
    with canvas.group("map-pieces"):
        draw_piece_faces(canvas, data, layout, pal)
    return canvas.tostring()


def draw_piece_faces(canvas: SvgCanvas, data: Shinjuku, layout: Layout, pal: Palette) -> None:
    """The printed pieces, each drawn once as a face the page can <use> (pieces.py)."""
    t = layout.tokens
    goods = {g.id: g for g in data.customers.type}

    def face(key: str, size: tuple[float, float], draw) -> None:
        fkey = f"twin-{key}"
        with canvas.group(f"piece-{key}", piece=key, face=face_id(fkey), w=num(size[0]), h=num(size[1])):
            canvas.reuse(fkey, (0, 0, *size), draw)

    for colour in data.pieces.colour:
        for g in data.customers.type:
            face(f"store-{colour.id}-{g.id}", t.store,
                 lambda c, colour=colour, g=g: draw_store(c, layout, pal, colour, goods[g.id]))
        face(f"department-store-{colour.id}", t.department_store,
             lambda c, colour=colour: draw_department_store(c, layout, pal, colour))
        face(f"track-{colour.id}", t.track, lambda c, colour=colour: draw_track(c, layout, pal, colour))
    for g in data.customers.type:
        for double in (False, True):
            face(f"customer-{g.id}{'-2' if double else ''}", (t.customer, t.customer),
                 lambda c, g=g, double=double: draw_customer(c, layout, pal, g, double))
    face("matsuri", (t.token, t.token), lambda c: draw_token(c, layout, pal, "matsuri"))


def ward_outline(model: MapModel, ward_id: str) -> list[tuple[Point, Point]]:
    """The edges of a ward's cells that face another ward or the map's edge (its outline)."""
    out = []
    for key, cell in model.cells.items():
        if model.seed_ward[key] != ward_id or not cell.points:
            continue
        for p, q, other in cell.edges():
            if (other is None or model.seed_ward.get(other) != ward_id) and math.dist(p, q) > 0.05:
                out.append((p, q))
    return out


def customer_spots(data: Shinjuku, model: MapModel) -> dict[str, Box]:
    """A box inside each ward for its waiting customers, found like the printed ward labels' places:
    clear of stations, station and ward labels and other spots; clear of rails when it can be."""
    placed: list[Label] = list(model.station_labels.values()) + list(model.ward_labels.values())
    spots = {}
    wards = sorted(data.wards, key=lambda w: len(model.ward_cells(w.id)))
    for ward in wards:
        found = None
        for bw, bh, limit in SPOT_TRIES:
            found = model.place_in_ward(ward, (), bw, bh, placed, limit)
            if found:
                break
        if found is None:
            found = _spot_nearby(model, ward.id, *SPOT_SMALL, placed)
        placed.append(found)
        spots[ward.id] = found.box
    return spots


def _spot_nearby(model: MapModel, ward_id: str, bw: float, bh: float, placed: list[Label]) -> Label:
    """The free box of this size nearest the ward's label, preferring points inside the ward."""
    lx, ly, lw, lh = model.ward_labels[ward_id].box
    cx, cy = lx + lw / 2, ly + lh / 2
    best, best_score = None, None
    step, reach = 2.5, 20
    region = (cx - reach * step - bw, cy - reach * step - bh, 2 * (reach * step + bw), 2 * (reach * step + bh))
    near = model.obstacles_near(region)
    placed = [p for p in placed if boxes_overlap(region, p.box, gap=1.0)]
    for i in range(-reach, reach + 1):
        for j in range(-reach, reach + 1):
            box = (cx + i * step - bw / 2, cy + j * step - bh / 2, bw, bh)
            cost = model.obstacle_cost(box, placed, near=near)
            if cost >= 1e6:
                continue
            x, y, w, h = box
            points = [(x + w * u, y + h * v) for u in (0, .5, 1) for v in (0, .5, 1)]
            outside = sum(model.ward_of_point(p) != ward_id for p in points)
            score = cost + outside * 150 + math.hypot(i, j) * step * 0.3
            if best_score is None or score < best_score:
                best, best_score = box, score
    if best is None:   # not on the real map: just under the label
        best = (lx, ly + lh + 1, bw, bh)
    return Label(ward_id, best, "start", ())


def _band(a: Point, b: Point, width: float) -> list[Point]:
    d = math.dist(a, b) or 1.0
    nx, ny = -(b[1] - a[1]) / d * width / 2, (b[0] - a[0]) / d * width / 2
    return [(a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny), (b[0] - nx, b[1] - ny), (a[0] - nx, a[1] - ny)]
