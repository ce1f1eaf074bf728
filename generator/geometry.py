"""Plane geometry for drawing maps: Voronoi cells by half-plane clipping, point/box tests.

No scipy: a Voronoi cell of a seed is its bounding polygon clipped by the bisector half-plane of every
other seed (n² clips, trivial for a few dozen stations). Every edge of a cell remembers what made it:
the id of the neighbouring seed across it, or None for the outer boundary, so a map can draw borders
only where the areas on both sides differ.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Hashable, Iterable, Mapping, Sequence

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x, y, w, h

_EPS = 1e-9


@dataclasses.dataclass(frozen=True)
class Cell:
    """A convex polygon; `tags[i]` names what lies across the edge points[i] -> points[i + 1]."""

    seed: Hashable
    points: tuple[Point, ...]
    tags: tuple[Hashable | None, ...]

    def edges(self) -> Iterable[tuple[Point, Point, Hashable | None]]:
        n = len(self.points)
        for i in range(n):
            yield self.points[i], self.points[(i + 1) % n], self.tags[i]


def clip(points: Sequence[Point], tags: Sequence, a: float, b: float, c: float, tag) -> tuple[list, list]:
    """Keep the part of a convex polygon where a*x + b*y <= c; the new edge is tagged `tag`."""
    out_p: list[Point] = []
    out_t: list = []
    n = len(points)
    for i in range(n):
        p, q, t = points[i], points[(i + 1) % n], tags[i]
        dp = a * p[0] + b * p[1] - c
        dq = a * q[0] + b * q[1] - c
        if dp <= _EPS:
            out_p.append(p)
            # The edge leaving p keeps its tag unless it is cut (then the cut part also keeps it).
            out_t.append(t)
            if dq > _EPS and dp < -_EPS:
                s = dp / (dp - dq)
                out_p.append((p[0] + (q[0] - p[0]) * s, p[1] + (q[1] - p[1]) * s))
                out_t.append(tag)  # from the exit point the boundary follows the clip line
            elif dq > _EPS:
                out_t[-1] = tag    # p lies on the line and q outside: leave along the line
        elif dq < -_EPS:
            s = dp / (dp - dq)
            out_p.append((p[0] + (q[0] - p[0]) * s, p[1] + (q[1] - p[1]) * s))
            out_t.append(t)
    return out_p, out_t


def voronoi(seeds: Mapping[Hashable, Point], bounds: Sequence[Point]) -> dict[Hashable, Cell]:
    """The Voronoi cell of every seed inside the convex polygon `bounds` (edges tagged None)."""
    cells = {}
    for key, (px, py) in seeds.items():
        pts, tags = list(bounds), [None] * len(bounds)
        for other, (qx, qy) in seeds.items():
            if other == key:
                continue
            # Points closer to p than to q:  2 (q - p) . x <= |q|² - |p|²
            a, b = 2 * (qx - px), 2 * (qy - py)
            c = qx * qx + qy * qy - px * px - py * py
            pts, tags = clip(pts, tags, a, b, c, other)
            if not pts:
                break
        cells[key] = Cell(key, tuple(pts), tuple(tags))
    return cells


def area(points: Sequence[Point]) -> float:
    s = 0.0
    n = len(points)
    for i in range(n):
        x1, y1 = points[i]
        x2, y2 = points[(i + 1) % n]
        s += x1 * y2 - x2 * y1
    return abs(s) / 2


def inside(point: Point, polygon: Sequence[Point]) -> bool:
    """Even-odd test: is the point inside the (possibly concave) polygon?"""
    x, y = point
    result = False
    n = len(polygon)
    for i in range(n):
        x1, y1 = polygon[i]
        x2, y2 = polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            result = not result
    return result


def segment_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from point p to segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def boxes_overlap(a: Box, b: Box, gap: float = 0.0) -> bool:
    return (a[0] < b[0] + b[2] + gap and b[0] < a[0] + a[2] + gap and
            a[1] < b[1] + b[3] + gap and b[1] < a[1] + a[3] + gap)


def box_circle_overlap(box: Box, cx: float, cy: float, r: float) -> bool:
    nx = min(max(cx, box[0]), box[0] + box[2])
    ny = min(max(cy, box[1]), box[1] + box[3])
    return math.hypot(cx - nx, cy - ny) < r


def box_segment_overlap(box: Box, a: Point, b: Point, pad: float = 0.0) -> bool:
    """Does segment a-b pass through the box grown by `pad`? (Liang-Barsky clipping.)"""
    x0, y0 = box[0] - pad, box[1] - pad
    x1, y1 = box[0] + box[2] + pad, box[1] + box[3] + pad
    ax, ay, bx, by = a[0], a[1], b[0], b[1]
    # Bounding boxes apart: the common case when searching label places, decided cheaply.
    if (ax < x0 and bx < x0) or (ax > x1 and bx > x1) or (ay < y0 and by < y0) or (ay > y1 and by > y1):
        return False
    dx, dy = bx - ax, by - ay
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True
