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
from .layout import Board, Layout

#: Ward labels: the kanji line is followed by a small card with the ward's card count.
COUNT_CARD = (5.6, 7.8)   # w, h in mm
LINE_GAP = 0.5            # between the two lines of a label, mm


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

    def __init__(self, data: Shinjuku, board: Board, track_piece: tuple[float, float], anchors=None):
        self.data = data
        self.board = board
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
        stations, slots, borders = near if near is not None else (
            [self.station_mm(s) for s in self.data.stations], self.slots, self.borders)
        bx, by, bw, bh = self.bounds_mm
        if box[0] < bx + 1 or box[1] < by + 1 or box[0] + box[2] > bx + bw - 1 or box[1] + box[3] > by + bh - 1:
            return 1e6
        cost = 0.0
        for other in placed:
            if boxes_overlap(box, other.box, gap=0.8):
                return 1e6
        r = self.board.station_radius + 0.6
        for cx, cy in stations:
            if box_circle_overlap(box, cx, cy, r):
                return 1e6
        for slot in slots:
            if box_segment_overlap(box, slot.a, slot.b, pad=slot.width / 2 if not slot.connection.prebuilt else 1.5):
                # A label over a track slot would be hidden by the track piece: avoid hard.
                dist_to_centre = min(math.dist(slot.centre, pt) for pt in _box_points(box))
                cost += 400 if dist_to_centre < slot.length / 2 + 2 else 60
        for p, q, w1, w2 in borders:
            if box_segment_overlap(box, p, q, pad=0.3):
                if ward is not None:
                    return 1e6   # a ward's own label stays inside the ward
                cost += 25
        return cost

    @cached_property
    def station_labels(self) -> dict[str, Label]:
        """Each station's name and kanji beside its marker, chosen so that no two labels overlap."""
        gap = self.board.station_radius + self.board.label_gap
        placed: list[Label] = []
        result: dict[str, Label] = {}
        # Crowded stations first: they have the fewest good places.
        def crowding(s: Station) -> float:
            c = self.station_mm(s)
            return -sum(1 for t in self.data.stations if t.id != s.id and math.dist(c, self.station_mm(t)) < 45)
        for s in sorted(self.data.stations, key=crowding):
            lines = self._station_label_lines(s)
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
            cost = self.obstacle_cost(best[0], placed)
            if cost >= 1e6:
                raise LabelError(f"board: no free place for the label of station {s.id!r}")
            label = Label(s.id, best[0], best[1], lines)
            placed.append(label)
            result[s.id] = label
        return result

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

    @cached_property
    def ward_labels(self) -> dict[str, Label]:
        """Each ward's name, kanji and card count inside its own area, clear of stations and tracks."""
        placed = list(self.station_labels.values())
        result = {}
        for w in sorted(self.data.wards, key=lambda w: sum(c.points and area(c.points) for c in self.ward_cells(w.id))):
            label = None
            # First look for a place clear of every rail at any size, then accept crossing rails.
            for limit, scale in [(1.0, s) for s in (1.0, 0.85, 0.7)] + [(1e6, s) for s in (1.0, 0.85, 0.7)]:
                lines = self._ward_label_lines(w, scale)
                bw, bh = self.ward_label_block(w, scale)
                label = self.place_in_ward(w, lines, bw, bh, placed, limit)
                if label:
                    break
            if label is None:
                raise LabelError(f"board: no room for the label of ward {w.id!r}")
            placed.append(label)
            result[w.id] = label
        return result

    def place_in_ward(self, w: Ward, lines, bw: float, bh: float, placed: list[Label],
                      limit: float) -> Label | None:
        """The best box of bw x bh wholly inside the ward, clear of `placed` and costing less than
        `limit` (obstacle_cost), near the ward's stations; None when there is none."""
        polys = [c.points for c in self.ward_cells(w.id)]
        xs = [p[0] for poly in polys for p in poly]
        ys = [p[1] for poly in polys for p in poly]
        stations = [self.station_mm(s) for s in self.data.stations_in[w.id]]
        region = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        obstacles = self.obstacles_near(region)
        placed = [p for p in placed if boxes_overlap(region, p.box, gap=1.0)]
        cells = [(min(p[0] for p in poly), min(p[1] for p in poly), max(p[0] for p in poly),
                  max(p[1] for p in poly), poly) for poly in polys]

        def in_ward(pt: Point) -> bool:
            # A bounding-box test first: most candidate points lie outside most cells.
            return any(x0 <= pt[0] <= x1 and y0 <= pt[1] <= y1 and inside(pt, poly)
                       for x0, y0, x1, y1, poly in cells)

        best, best_score = None, None
        step = 2.5
        y = min(ys)
        while y + bh <= max(ys):
            x = min(xs)
            while x + bw <= max(xs):
                box = (x, y, bw, bh)
                if all(in_ward(pt) for pt in _box_points(box)):
                    cost = self.obstacle_cost(box, placed, ward=w.id, near=obstacles)
                    if cost < min(limit, 1e6):
                        # Prefer open space near the ward's stations (the label names their ward).
                        centre = (x + bw / 2, y + bh / 2)
                        near = min(math.dist(centre, s) for s in stations)
                        score = cost + near * 0.15
                        if best_score is None or score < best_score:
                            best, best_score = box, score
                x += step
            y += step
        return Label(w.id, best, "start", lines) if best else None

    def obstacles_near(self, region: Box) -> "Obstacles":
        """Stations, track slots and ward borders that can touch a box inside `region`."""
        pad = self.board.station_radius + 8.0
        def hits(a: Point, b: Point) -> bool:
            box = (min(a[0], b[0]) - pad, min(a[1], b[1]) - pad, abs(a[0] - b[0]) + 2 * pad,
                   abs(a[1] - b[1]) + 2 * pad)
            return boxes_overlap(region, box)
        stations = [c for c in (self.station_mm(s) for s in self.data.stations) if hits(c, c)]
        slots = [s for s in self.slots if hits(s.a, s.b)]
        borders = [b for b in self.borders if hits(b[0], b[1])]
        return Obstacles(stations, slots, borders)


class Obstacles(NamedTuple):
    stations: list[Point]
    slots: list["Slot"]
    borders: list[tuple[Point, Point, str, str]]


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
        _MODELS[key] = (data, layout, MapModel(data, layout.board, layout.tokens.track))
    return _MODELS[key][2]
