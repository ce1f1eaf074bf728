"""The Shinjuku map as geometry, before any drawing: ward areas, borders, track slots and labels.

The data gives stations (points) and wards (lists of stations), no outlines. A ward's area is the
union of the Voronoi cells of its stations (plus the layout's anchor points), clipped to the map's
bounds; a border is drawn only where the cells on the two sides belong to different wards. Labels are
placed by trying a few positions around each station and keeping the one that hits nothing, so the
tests can check that no two labels overlap.
"""
from __future__ import annotations

import dataclasses
import math
from typing import NamedTuple
from functools import cached_property

from ...canon.shinjuku import Connection, Shinjuku, Station, Ward
from ...draw.base import PT, text_width
from ...draw.fit import LINE_EMS
from ...geometry import (Box, Cell, Point, area, box_circle_overlap, box_segment_overlap, boxes_overlap,
                         inside, segment_distance, voronoi)
from ...layouts import load_layout as load_sheet_layout
from ...tiling import seams as tile_seams
from .layout import Board, Layout

#: Ward labels: the kanji line is followed by a small card with the ward's card count.
COUNT_CARD = (5.6, 7.8)   # w, h in mm
LINE_GAP = 0.5            # between the two lines of a label, mm
SAKURA_REACH = 1.15       # a sakura station's hexagon (board.py: 2.3 radii across) over a plain marker
SEAM_CLEAR = 2.0          # mm kept between a label and a seam of the tiled board (cutting error)
#: Ward label sizes tried, largest first (scale of the layout's size, search step in mm); a finer
#: search only when the coarse one finds no room at any size (it costs six times as much).
WARD_SIZES = ((1.0, 2.5), (0.85, 2.5), (0.7, 2.5), (0.6, 2.5), (0.5, 2.5), (0.4, 2.5),
              (0.6, 1.0), (0.5, 1.0), (0.4, 1.0))


@dataclasses.dataclass(frozen=True)
class Slot:
    """Where one track piece goes: a rectangle centred on `centre`, turned by `angle` degrees."""

    connection: Connection
    a: Point            # the connection's ends, on the rims of the two station markers (mm)
    b: Point
    centre: Point
    angle: float
    length: float
    width: float

    @cached_property
    def ends(self) -> tuple[Point, Point]:
        """The middle line of the slot's rectangle, end to end."""
        t = math.radians(self.angle)
        hx, hy = math.cos(t) * self.length / 2, math.sin(t) * self.length / 2
        cx, cy = self.centre
        return (cx - hx, cy - hy), (cx + hx, cy + hy)

    def corners(self) -> list[Point]:
        t = math.radians(self.angle)
        ux, uy = math.cos(t), math.sin(t)
        hx, hy = ux * self.length / 2, uy * self.length / 2
        wx, wy = -uy * self.width / 2, ux * self.width / 2
        cx, cy = self.centre
        return [(cx - hx - wx, cy - hy - wy), (cx + hx - wx, cy + hy - wy),
                (cx + hx + wx, cy + hy + wy), (cx - hx + wx, cy - hy + wy)]


@dataclasses.dataclass(frozen=True)
class Label:
    """A two-line label: `lines` are (text, size_pt, font); the box is where the text goes (mm)."""

    owner: str
    box: Box
    anchor: str                       # "start", "middle" or "end": how lines align in the box
    lines: tuple[tuple[str, float, str], ...]


class LabelError(ValueError):
    pass


def _line_h(size_pt: float) -> float:
    return size_pt * PT * LINE_EMS


class MapModel:
    """Everything about the board's map that is geometry: computed once, used by drawing and tests."""

    def __init__(self, data: Shinjuku, board: Board, track_piece: tuple[float, float], anchors=None,
                 seams: tuple[Box, ...] = ()):
        self.data = data
        self.board = board
        self.seams = tuple(seams)        # where the tiled board's tiles meet (board mm): labels keep off
        self.track_piece = track_piece   # (length, width) of a track piece: a slot is this plus a margin
        if anchors is None:
            anchors = [(a.ward, a.map) for a in board.anchor]
        self.anchors = list(anchors)

    # -- coordinates ----------------------------------------------------------------------------
    def mm(self, p: Point) -> Point:
        ox, oy = self.board.map_origin
        return (ox + p[0] * self.board.map_scale, oy + p[1] * self.board.map_scale)

    def station_mm(self, station: Station | str) -> Point:
        s = self.data.station[station] if isinstance(station, str) else station
        return self.mm(s.map)

    @cached_property
    def bounds_mm(self) -> Box:
        x, y, w, h = self.board.map_bounds
        (x0, y0), (x1, y1) = self.mm((x, y)), self.mm((x + w, y + h))
        return (x0, y0, x1 - x0, y1 - y0)

    # -- ward areas -----------------------------------------------------------------------------
    @cached_property
    def seed_ward(self) -> dict[str, str]:
        owners = {s.id: s.ward for s in self.data.stations}
        owners.update({f"anchor:{i}": ward for i, (ward, _) in enumerate(self.anchors)})
        return owners

    @cached_property
    def cells(self) -> dict[str, Cell]:
        """Voronoi cells in mm, one per station and anchor."""
        seeds = {s.id: self.mm(s.map) for s in self.data.stations}
        seeds.update({f"anchor:{i}": self.mm(p) for i, (_, p) in enumerate(self.anchors)})
        x, y, w, h = self.bounds_mm
        return voronoi(seeds, [(x, y), (x + w, y), (x + w, y + h), (x, y + h)])

    def ward_cells(self, ward_id: str) -> list[Cell]:
        return [c for key, c in self.cells.items() if self.seed_ward[key] == ward_id and c.points]

    def ward_of_point(self, p: Point) -> str | None:
        for key, cell in self.cells.items():
            if cell.points and inside(p, cell.points):
                return self.seed_ward[key]
        return None

    @cached_property
    def borders(self) -> list[tuple[Point, Point, str, str]]:
        """Segments between cells of different wards, each once: (a, b, ward, other ward)."""
        out = []
        for key, cell in self.cells.items():
            for p, q, other in cell.edges():
                if other is None or str(other) < key:
                    continue
                w1, w2 = self.seed_ward[key], self.seed_ward[other]
                if w1 != w2 and math.dist(p, q) > 0.05:
                    out.append((p, q, w1, w2))
        return out

    def ward_adjacency(self) -> set[tuple[str, str]]:
        """Pairs of wards whose areas share a border of at least a few mm."""
        return {tuple(sorted((w1, w2))) for p, q, w1, w2 in self.borders if math.dist(p, q) >= 3.0}

    def disconnected_wards(self) -> int:
        """How many wards' areas fall apart into more than one piece."""
        links: dict[str, set[str]] = {k: set() for k in self.cells}
        for key, cell in self.cells.items():
            for p, q, other in cell.edges():
                if other is not None and self.seed_ward[key] == self.seed_ward[other] and math.dist(p, q) > 0.05:
                    links[key].add(other)
                    links[other].add(key)
        broken = 0
        for ward in self.data.wards:
            keys = [k for k, w in self.seed_ward.items() if w == ward.id and self.cells[k].points]
            seen, todo = {keys[0]}, [keys[0]]
            while todo:
                for nxt in links[todo.pop()]:
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
            broken += len(seen) != len(keys)
        return broken

    def squeezed_stations(self) -> int:
        """Stations whose marker (with some room) reaches out of their own ward's area."""
        room = self.board.station_radius + 2.0
        count = 0
        for s in self.data.stations:
            c = self.station_mm(s)
            if any(segment_distance(c, p, q) < room for p, q, w1, w2 in self.borders if s.ward in (w1, w2)):
                count += 1
        return count

    @cached_property
    def station_discs(self) -> list[tuple[float, float, float]]:
        """(x, y, radius) of every station marker as drawn: a sakura station's hexagon reaches out to
        SAKURA_REACH times the radius of a plain one."""
        r = self.board.station_radius
        return [(*self.station_mm(s), r * (SAKURA_REACH if s.sakura else 1.0)) for s in self.data.stations]

    # -- track ----------------------------------------------------------------------------------
    @cached_property
    def slots(self) -> list[Slot]:
        piece_l, piece_w = self.track_piece
        margin = self.board.slot_margin
        r = self.board.station_radius
        out = []
        for c in self.data.connections:
            p, q = self.station_mm(c.stations[0]), self.station_mm(c.stations[1])
            d = math.dist(p, q)
            ux, uy = (q[0] - p[0]) / d, (q[1] - p[1]) / d
            a = (p[0] + ux * r, p[1] + uy * r)
            b = (q[0] - ux * r, q[1] - uy * r)
            out.append(Slot(c, a, b, ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2), math.degrees(math.atan2(uy, ux)),
                            piece_l + 2 * margin, piece_w + 2 * margin))
        return out

    # -- labels ---------------------------------------------------------------------------------
    def _station_label_lines(self, s: Station) -> tuple[tuple[str, float, str], ...]:
        b = self.board
        return ((s.name, b.station_name.size, b.station_name.font),
                (s.kanji, b.station_kanji.size, b.station_kanji.font))

    @staticmethod
    def _block_size(lines) -> tuple[float, float]:
        w = max(text_width(t, size, font) for t, size, font in lines)
        h = sum(_line_h(size) for _, size, _ in lines) + LINE_GAP * (len(lines) - 1)
        return w, h

    def obstacle_cost(self, box: Box, placed: list[Label], *, ward: str | None = None,
                      near: "Obstacles | None" = None) -> float:
        """0 when the box hits nothing; large when it hits something a label must never cover.
        `near` limits the search to the obstacles of one region (same answer, far fewer tests)."""
        stations, slots, borders = near if near is not None else (self.station_discs, self.slots, self.borders)
        bx, by, bw, bh = self.bounds_mm
        if box[0] < bx + 1 or box[1] < by + 1 or box[0] + box[2] > bx + bw - 1 or box[1] + box[3] > by + bh - 1:
            return 1e6
        cost = 0.0
        for other in placed:
            if boxes_overlap(box, other.box, gap=0.8):
                return 1e6
        for strip in self.seams:
            if boxes_overlap(box, strip, gap=SEAM_CLEAR):
                return 1e6
        for cx, cy, r in stations:
            if box_circle_overlap(box, cx, cy, r + 0.6):
                return 1e6
        for slot in slots:
            if slot.connection.prebuilt:
                if box_segment_overlap(box, slot.a, slot.b, pad=1.5 + 0.3):
                    return 1e6   # the built track
            elif box_segment_overlap(box, *slot.ends, pad=slot.width / 2 + 0.3):
                return 1e6   # a track piece would hide it
            elif box_segment_overlap(box, slot.a, slot.b, pad=0.6):
                cost += 30   # across the thin rail line between the slot and a station: avoided
        for p, q, w1, w2 in borders:
            if box_segment_overlap(box, p, q, pad=0.3):
                if ward is not None:
                    return 1e6   # a ward's own label stays inside the ward
                cost += 25
        return cost

    @cached_property
    def station_labels(self) -> dict[str, Label]:
        """Each station's name and kanji beside its marker, chosen so that no two labels overlap."""
        return self._labels[0]

    @cached_property
    def ward_labels(self) -> dict[str, Label]:
        """Each ward's name, kanji and card count inside its own area, clear of stations and tracks."""
        return self._labels[1]

    @cached_property
    def _labels(self) -> tuple[dict[str, Label], dict[str, Label]]:
        """Station labels first (crowded stations first: they have the fewest good places), then ward
        labels (smallest ward first). A ward with no room left lifts its own stations' labels, takes
        its place, and puts them back around it. No label touches a track slot, a station, another
        label or a seam of the tiled board."""
        stations: dict[str, Label] = {}

        def crowding(s: Station) -> float:
            c = self.station_mm(s)
            return -sum(1 for t in self.data.stations if t.id != s.id and math.dist(c, self.station_mm(t)) < 45)
        for s in sorted(self.data.stations, key=crowding):
            stations[s.id] = self._place_station(s, list(stations.values()))
        wards: dict[str, Label] = {}
        for w in sorted(self.data.wards, key=lambda w: sum(c.points and area(c.points) for c in self.ward_cells(w.id))):
            label = self._place_ward(w, list(stations.values()) + list(wards.values()))
            if label is None:
                label = self._make_room(w, stations, wards, crowding)
            wards[w.id] = label
        order = {s.id: i for i, s in enumerate(self.data.stations)}
        return dict(sorted(stations.items(), key=lambda kv: order[kv[0]])), wards

    def _make_room(self, w: Ward, stations: dict[str, Label], wards: dict[str, Label], crowding) -> Label:
        """Place ward `w`'s label where station labels stand: lift those in its area (its own and
        any reaching in), try its places best first until the lifted labels all find room again."""
        polys = [c.points for c in self.ward_cells(w.id)]
        xs = [p[0] for poly in polys for p in poly]
        ys = [p[1] for poly in polys for p in poly]
        region = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        lifted = sorted((self.data.station[sid] for sid, lb in stations.items()
                         if self.data.station[sid].ward == w.id or boxes_overlap(region, lb.box)), key=crowding)
        kept = [lb for sid, lb in stations.items() if sid not in {s.id for s in lifted}]
        for scale, step in WARD_SIZES:
            lines = self._ward_label_lines(w, scale)
            bw, bh = self.ward_label_block(w, scale)
            for label in self.ward_places(w, lines, bw, bh, kept + list(wards.values()), 1e6, step)[:400]:
                again: dict[str, Label] = {}
                try:
                    for s in lifted:
                        again[s.id] = self._place_station(s, kept + list(again.values()) + list(wards.values())
                                                          + [label])
                except LabelError:
                    continue
                for s in lifted:
                    stations[s.id] = again[s.id]
                return label
        raise LabelError(f"board: no room for the label of ward {w.id!r}")

    def _place_station(self, s: Station, placed: list[Label]) -> Label:
        """Beside the station at the layout's size, else further round it, else at the smallest size."""
        try:
            return self._place_station_at(s, placed, self._station_label_lines(s))
        except LabelError:
            b = self.board
            small = ((s.name, b.station_name.min, b.station_name.font),
                     (s.kanji, b.station_kanji.min, b.station_kanji.font))
            return self._place_station_at(s, placed, small)

    def _place_station_at(self, s: Station, placed: list[Label], lines) -> Label:
        gap = self.board.station_radius + self.board.label_gap
        w, h = self._block_size(lines)
        cx, cy = self.station_mm(s)
        d = gap * 0.72  # diagonal offsets sit closer so labels still read as belonging to the station
        candidates = [
            ((cx + gap, cy - h / 2, w, h), "start", 0),
            ((cx - gap - w, cy - h / 2, w, h), "end", 1),
            ((cx - w / 2, cy + gap, w, h), "middle", 2),
            ((cx - w / 2, cy - gap - h, w, h), "middle", 3),
            ((cx + d, cy + d - 1, w, h), "start", 4),
            ((cx + d, cy - d - h + 1, w, h), "start", 4),
            ((cx - d - w, cy + d - 1, w, h), "end", 4),
            ((cx - d - w, cy - d - h + 1, w, h), "end", 4),
        ]
        # Also slide each side position along, for tight spots.
        for shift in (-3.0, 3.0, -6.0, 6.0):
            candidates.append(((cx + gap, cy - h / 2 + shift, w, h), "start", 6 + abs(shift)))
            candidates.append(((cx - gap - w, cy - h / 2 + shift, w, h), "end", 6 + abs(shift)))
            candidates.append(((cx - w / 2 + shift * 2, cy + gap, w, h), "middle", 6 + abs(shift)))
            candidates.append(((cx - w / 2 + shift * 2, cy - gap - h, w, h), "middle", 6 + abs(shift)))
        best = min(candidates, key=lambda c: self.obstacle_cost(c[0], placed) + c[2])
        if self.obstacle_cost(best[0], placed) >= 1e6:
            # Crowded by track or a glue strip: further out, all round the station.
            best = min(self._ring(cx, cy, w, h, gap), key=lambda c: self.obstacle_cost(c[0], placed) + c[2])
        if self.obstacle_cost(best[0], placed) >= 1e6:
            raise LabelError(f"board: no free place for the label of station {s.id!r}")
        return Label(s.id, best[0], best[1], lines)

    def _place_ward(self, w: Ward, placed: list[Label]) -> Label | None:
        """As large as there is room for (a finer search for the smallest sizes)."""
        for scale, step in WARD_SIZES:
            lines = self._ward_label_lines(w, scale)
            bw, bh = self.ward_label_block(w, scale)
            label = self.place_in_ward(w, lines, bw, bh, placed, 1e6, step)
            if label:
                return label
        return None

    @staticmethod
    def _ring(cx: float, cy: float, w: float, h: float, gap: float):
        """Label boxes all round a station, 15° apart, from `gap` out to 16 mm further (cost: the
        distance, so the nearest free one wins)."""
        for extra in range(0, 17, 2):
            d = gap + extra
            for k in range(24):
                t = math.radians(k * 15)
                ux, uy = math.cos(t), math.sin(t)
                anchor = "start" if ux > 0.35 else "end" if ux < -0.35 else "middle"
                x = cx + ux * d if anchor == "start" else cx + ux * d - w if anchor == "end" else cx + ux * d - w / 2
                y = cy + uy * d - h / 2 + uy * h / 2
                yield (x, y, w, h), anchor, 20 + extra * 3

    def _ward_label_lines(self, w: Ward, scale: float) -> tuple[tuple[str, float, str], ...]:
        b = self.board
        return ((w.name.upper(), max(b.ward_name.min, b.ward_name.size * scale), b.ward_name.font),
                (w.kanji, max(b.ward_kanji.min, b.ward_kanji.size * scale), b.ward_kanji.font))

    def ward_label_block(self, w: Ward, scale: float) -> tuple[float, float]:
        lines = self._ward_label_lines(w, scale)
        name_w = text_width(*lines[0])
        kanji_w = text_width(*lines[1]) + 1.5 + COUNT_CARD[0]
        h = _line_h(lines[0][1]) + LINE_GAP + max(_line_h(lines[1][1]), COUNT_CARD[1])
        return max(name_w, kanji_w), h

    def place_in_ward(self, w: Ward, lines, bw: float, bh: float, placed: list[Label],
                      limit: float, step: float = 2.5) -> Label | None:
        """The best box of bw x bh wholly inside the ward, clear of `placed` and costing less than
        `limit` (obstacle_cost), near the ward's stations; None when there is none."""
        found = self.ward_places(w, lines, bw, bh, placed, limit, step)
        return found[0] if found else None

    def ward_places(self, w: Ward, lines, bw: float, bh: float, placed: list[Label],
                    limit: float, step: float = 2.5) -> list[Label]:
        """Every such box, best first."""
        polys = [c.points for c in self.ward_cells(w.id)]
        xs = [p[0] for poly in polys for p in poly]
        ys = [p[1] for poly in polys for p in poly]
        stations = [self.station_mm(s) for s in self.data.stations_in[w.id]]
        region = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        obstacles = self.obstacles_near(region)
        placed = [p for p in placed if boxes_overlap(region, p.box, gap=1.0)]
        rows: dict[float, list[tuple[float, float]]] = {}

        def row(y: float) -> list[tuple[float, float]]:
            """Where the line at height y runs inside the ward (its cells' crossings, merged)."""
            if y not in rows:
                merged: list[list[float]] = []
                for a, b in sorted(iv for iv in (_crossing(poly, y) for poly in polys) if iv is not None):
                    if merged and a <= merged[-1][1] + 1e-6:
                        merged[-1][1] = max(merged[-1][1], b)
                    else:
                        merged.append([a, b])
                rows[y] = [(a + 1e-6, b - 1e-6) for a, b in merged]
            return rows[y]

        def in_ward(box: Box) -> bool:
            """The box's top, middle and bottom lines run wholly inside the ward."""
            x, y, bw_, bh_ = box
            for py in (y, y + bh_, y + bh_ / 2):
                if not any(a < x and x + bw_ < b for a, b in row(py)):
                    return False
            return True

        found: list[tuple[float, Box]] = []
        y = min(ys)
        while y + bh <= max(ys):
            x = min(xs)
            while x + bw <= max(xs):
                box = (x, y, bw, bh)
                if in_ward(box):
                    cost = self.obstacle_cost(box, placed, ward=w.id, near=obstacles)
                    if cost < min(limit, 1e6):
                        # Prefer open space near the ward's stations (the label names their ward).
                        centre = (x + bw / 2, y + bh / 2)
                        near = min(math.dist(centre, s) for s in stations)
                        found.append((cost + near * 0.15, box))
                x += step
            y += step
        found.sort(key=lambda f: f[0])
        return [Label(w.id, box, "start", lines) for _, box in found]

    def obstacles_near(self, region: Box) -> "Obstacles":
        """Stations, track slots and ward borders that can touch a box inside `region`."""
        pad = self.board.station_radius + 8.0
        def hits(a: Point, b: Point) -> bool:
            box = (min(a[0], b[0]) - pad, min(a[1], b[1]) - pad, abs(a[0] - b[0]) + 2 * pad,
                   abs(a[1] - b[1]) + 2 * pad)
            return boxes_overlap(region, box)
        stations = [d for d in self.station_discs if hits(d[:2], d[:2])]
        slots = [s for s in self.slots if hits(s.a, s.b)]
        borders = [b for b in self.borders if hits(b[0], b[1])]
        return Obstacles(stations, slots, borders)


class Obstacles(NamedTuple):
    stations: list[tuple[float, float, float]]   # x, y, radius
    slots: list["Slot"]
    borders: list[tuple[Point, Point, str, str]]


def _crossing(poly: list[Point], y: float) -> tuple[float, float] | None:
    """The interval where the horizontal line at y crosses a convex polygon (None: it misses)."""
    xs = []
    n = len(poly)
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
        if (y0 <= y <= y1 or y1 <= y <= y0) and y0 != y1:
            xs.append(x0 + (x1 - x0) * (y - y0) / (y1 - y0))
    return (min(xs), max(xs)) if len(xs) >= 2 else None


def _box_points(box: Box) -> list[Point]:
    x, y, w, h = box
    return [(x, y), (x + w, y), (x, y + h), (x + w, y + h), (x + w / 2, y), (x + w / 2, y + h),
            (x, y + h / 2), (x + w, y + h / 2), (x + w / 2, y + h / 2)]



_MODELS: dict[tuple[int, int], tuple[Shinjuku, Layout, MapModel]] = {}


def map_model(data: Shinjuku, layout: Layout) -> MapModel:
    """The board geometry (areas, labels) is computed once per data and layout (the data holds dicts,
    so it cannot be a cache key itself) and shared by the board, the cards and the board twin."""
    key = (id(data), id(layout))
    if key not in _MODELS:   # the entry keeps data and layout alive, so their ids stay unique
        board = layout.board
        cuts = tile_seams(board.size, load_sheet_layout())
        _MODELS[key] = (data, layout, MapModel(data, board, layout.tokens.track, seams=tuple(cuts)))
    return _MODELS[key][2]
