"""The project's own vector icons, drawn through `Canvas` so every backend gets the same shapes.

Each icon is drawn centred on (cx, cy) inside a square of `size` mm, from shapes written in a unit
square (-0.5 .. 0.5, y down). Colours come from the caller (`Ink`); the shapes alone tell the icons
apart, so a print in black and white (or a colour-blind player) loses nothing.

Goods have a distinct outline each (rice ball, T-shirt, open book, lightning bolt) and callers add the
goods' initial letter as a second cue (`goods_letter`).
"""
from __future__ import annotations

import dataclasses
import math
from typing import Callable, Sequence

from . import symbols
from .draw import Canvas, Style

Unit = Sequence[tuple[float, float]]


@dataclasses.dataclass(frozen=True)
class Ink:
    line: str = "#222222"    # outlines and dark details
    fill: str = "#ffffff"    # the body of the icon
    paper: str = "#ffffff"   # cut-outs (windows, notches) in the background colour
    width: float = 0.12      # outline width in mm for a 10 mm icon (scales with the icon)


def _place(cx: float, cy: float, size: float, pts: Unit) -> list[tuple[float, float]]:
    return [(cx + u * size, cy + v * size) for u, v in pts]


def _style(ink: Ink, size: float, fill: str | None = None, stroke: bool = True) -> Style:
    return Style(fill=fill, stroke=ink.line if stroke else None, width=max(0.15, ink.width * size / 10))


def _circle_pts(cu: float, cv: float, r: float, start: float = 0, end: float = 360, steps: int = 24) -> Unit:
    return [(cu + r * math.cos(math.radians(start + (end - start) * i / steps)),
             cv + r * math.sin(math.radians(start + (end - start) * i / steps))) for i in range(steps + 1)]


def _rounded(poly: Unit, r: float, steps: int = 6) -> Unit:
    """Round every corner of a convex polygon by radius r (unit coordinates)."""
    out = []
    n = len(poly)
    for i in range(n):
        p0, p1, p2 = poly[i - 1], poly[i], poly[(i + 1) % n]
        v1 = (p0[0] - p1[0], p0[1] - p1[1])
        v2 = (p2[0] - p1[0], p2[1] - p1[1])
        l1, l2 = math.hypot(*v1), math.hypot(*v2)
        u1, u2 = (v1[0] / l1, v1[1] / l1), (v2[0] / l2, v2[1] / l2)
        half = math.acos(max(-1.0, min(1.0, u1[0] * u2[0] + u1[1] * u2[1]))) / 2
        d = r / math.tan(half)
        a = (p1[0] + u1[0] * d, p1[1] + u1[1] * d)
        b = (p1[0] + u2[0] * d, p1[1] + u2[1] * d)
        for k in range(steps + 1):  # quadratic Bézier from a to b with p1 as control point
            t = k / steps
            out.append(((1 - t) ** 2 * a[0] + 2 * (1 - t) * t * p1[0] + t * t * b[0],
                        (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * p1[1] + t * t * b[1]))
    return out


# -- goods ----------------------------------------------------------------------------------------

def food(canvas: Canvas, cx: float, cy: float, size: float, ink: Ink) -> None:
    """Onigiri: a rounded triangle of rice with a band of nori."""
    rice = _rounded([(0.0, -0.46), (0.48, 0.40), (-0.48, 0.40)], 0.14)
    canvas.polygon(_place(cx, cy, size, rice), _style(ink, size, ink.fill))
    nori = [(-0.17, 0.10), (0.17, 0.10), (0.17, 0.42), (-0.17, 0.42)]
    canvas.polygon(_place(cx, cy, size, nori), _style(ink, size, ink.line))


def clothing(canvas: Canvas, cx: float, cy: float, size: float, ink: Ink) -> None:
    """A T-shirt."""
    shirt = [(-0.15, -0.42), (-0.50, -0.24), (-0.38, 0.02), (-0.27, -0.04), (-0.27, 0.44), (0.27, 0.44),
             (0.27, -0.04), (0.38, 0.02), (0.50, -0.24), (0.15, -0.42), (0.08, -0.34), (0.0, -0.32),
             (-0.08, -0.34)]
    canvas.polygon(_place(cx, cy, size, shirt), _style(ink, size, ink.fill))


def books(canvas: Canvas, cx: float, cy: float, size: float, ink: Ink) -> None:
    """An open book: two pages with lines of text."""
    left = [(-0.50, -0.30), (-0.02, -0.22), (-0.02, 0.40), (-0.50, 0.32)]
    right = [(0.50, -0.30), (0.02, -0.22), (0.02, 0.40), (0.50, 0.32)]
    for page in (left, right):
        canvas.polygon(_place(cx, cy, size, page), _style(ink, size, ink.fill))
    thin = Style(stroke=ink.line, width=max(0.12, ink.width * size / 16))
    for k in range(3):
        dv = -0.10 + 0.15 * k
        for sign in (-1, 1):
            canvas.polyline(_place(cx, cy, size, [(sign * 0.40, dv - 0.05), (sign * 0.12, dv)]), thin)


def electronics(canvas: Canvas, cx: float, cy: float, size: float, ink: Ink) -> None:
    """A lightning bolt."""
    bolt = [(0.12, -0.50), (-0.32, 0.06), (-0.03, 0.06), (-0.14, 0.50), (0.32, -0.08), (0.03, -0.08)]
    canvas.polygon(_place(cx, cy, size, bolt), _style(ink, size, ink.fill))


GOODS: dict[str, Callable[[Canvas, float, float, float, Ink], None]] = {
    "food": food, "clothing": clothing, "books": books, "electronics": electronics,
}


def goods(canvas: Canvas, goods_id: str, cx: float, cy: float, size: float, ink: Ink) -> None:
    try:
        draw = GOODS[goods_id]
    except KeyError:
        raise KeyError(f"no icon for goods {goods_id!r} (icons exist for: {', '.join(GOODS)})") from None
    draw(canvas, cx, cy, size, ink)


def goods_letter(name: str) -> str:
    """The letter printed beside a goods icon: the first letter of the goods' name in the data."""
    return name[:1].upper()


# -- buildings and tokens -------------------------------------------------------------------------

def department_store(canvas: Canvas, cx: float, cy: float, size: float, ink: Ink) -> None:
    """A tall store building with an awning, windows and a flag: reads as 'bigger than a store'."""
    body = [(-0.36, -0.24), (0.36, -0.24), (0.36, 0.48), (-0.36, 0.48)]
    canvas.polygon(_place(cx, cy, size, body), _style(ink, size, ink.fill))
    roof = [(-0.44, -0.24), (-0.30, -0.34), (0.30, -0.34), (0.44, -0.24)]
    canvas.polygon(_place(cx, cy, size, roof), _style(ink, size, ink.line))
    canvas.line(*_place(cx, cy, size, [(0.0, -0.34)])[0], *_place(cx, cy, size, [(0.0, -0.52)])[0],
                _style(ink, size))
    canvas.polygon(_place(cx, cy, size, [(0.0, -0.52), (0.20, -0.46), (0.0, -0.40)]), _style(ink, size, ink.line))
    windows = []
    for row in range(3):
        for col in range(3):
            u, v = -0.27 + col * 0.20, -0.15 + row * 0.17
            windows.append(_place(cx, cy, size, [(u, v)])[0] + (0.14 * size, 0.10 * size))
    canvas.rects(windows, ink.line)
    door = [(-0.09, 0.34), (0.09, 0.34), (0.09, 0.48), (-0.09, 0.48)]
    canvas.polygon(_place(cx, cy, size, door), _style(ink, size, ink.line))


def store(canvas: Canvas, cx: float, cy: float, size: float, ink: Ink) -> None:
    """A small shop with a striped awning (used in legends; store tokens show their goods instead)."""
    body = [(-0.38, -0.05), (0.38, -0.05), (0.38, 0.40), (-0.38, 0.40)]
    canvas.polygon(_place(cx, cy, size, body), _style(ink, size, ink.fill))
    awning = [(-0.46, -0.05), (-0.38, -0.30), (0.38, -0.30), (0.46, -0.05)]
    canvas.polygon(_place(cx, cy, size, awning), _style(ink, size, ink.line))


def hexagon_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """A hexagon with a point at the top (the published map's upgrade-station shape)."""
    return [(cx + r * math.sin(math.radians(60 * k)), cy - r * math.cos(math.radians(60 * k)))
            for k in range(6)]


# One petal along +u: narrow at the centre, round at the tip, with the cherry petal's notch.
_PETAL = [(0.05, 0.0), (0.12, -0.09), (0.21, -0.145), (0.31, -0.15), (0.39, -0.11), (0.45, -0.05),
          (0.39, 0.0), (0.45, 0.05), (0.39, 0.11), (0.31, 0.15), (0.21, 0.145), (0.12, 0.09)]


def sakura(canvas: Canvas, cx: float, cy: float, size: float, ink: Ink, petal: str = "#f4a6c0") -> None:
    """A five-petal cherry blossom with notched petals and a dark centre."""
    style = Style(fill=petal, stroke=ink.line, width=max(0.12, ink.width * size / 12))
    for k in range(5):
        a = math.radians(-90 + 72 * k)
        cos, sin = math.cos(a), math.sin(a)
        canvas.polygon([(cx + (u * cos - v * sin) * size, cy + (u * sin + v * cos) * size) for u, v in _PETAL],
                       style)
    canvas.circle(cx, cy, 0.08 * size, style)
    canvas.circle(cx, cy, 0.035 * size, Style(fill=ink.line, stroke=None))


def sakura_station(canvas: Canvas, cx: float, cy: float, size: float, ink: Ink, petal: str = "#f4a6c0") -> None:
    """An upgrade station: a hexagon (as on the published map) holding a sakura blossom."""
    canvas.polygon(hexagon_points(cx, cy, size / 2), _style(ink, size, ink.fill))
    sakura(canvas, cx, cy + 0.02 * size, size * 0.72, Ink(ink.line, ink.fill, ink.fill, ink.width), petal)


def matsuri(canvas: Canvas, cx: float, cy: float, size: float, ink: Ink, body: str = "#e8402a") -> None:
    """A chōchin paper lantern with ribs, dark caps and a hanging loop."""
    lantern = [(0.34 * math.cos(math.radians(a)), 0.38 * math.sin(math.radians(a)) + 0.03)
               for a in range(0, 360, 10)]
    canvas.polygon(_place(cx, cy, size, lantern), _style(ink, size, body))
    thin = Style(stroke=ink.line, width=max(0.1, ink.width * size / 20))
    for v in (-0.20, -0.06, 0.08, 0.20):
        half = 0.34 * math.sqrt(max(0.0, 1 - ((v - 0.03) / 0.38) ** 2))
        canvas.line(*_place(cx, cy, size, [(-half, v)])[0], *_place(cx, cy, size, [(half, v)])[0], thin)
    for top in (-0.40, 0.36):
        cap = [(-0.18, top), (0.18, top), (0.18, top + 0.08), (-0.18, top + 0.08)]
        canvas.polygon(_place(cx, cy, size, cap), _style(ink, size, ink.line))
    canvas.polyline(_place(cx, cy, size, _circle_pts(0.0, -0.43, 0.07, 180, 360, 8)), _style(ink, size))


def start_player(canvas: Canvas, cx: float, cy: float, size: float, ink: Ink) -> None:
    """A pennant on a pole: 'you go first'."""
    canvas.line(*_place(cx, cy, size, [(-0.28, -0.46)])[0], *_place(cx, cy, size, [(-0.28, 0.48)])[0],
                Style(stroke=ink.line, width=0.07 * size))
    flag = [(-0.26, -0.46), (0.46, -0.22), (-0.26, 0.04)]
    canvas.polygon(_place(cx, cy, size, flag), _style(ink, size, ink.fill))
    base = [(-0.46, 0.40), (-0.10, 0.40), (-0.10, 0.48), (-0.46, 0.48)]
    canvas.polygon(_place(cx, cy, size, base), _style(ink, size, ink.line))


def wild(canvas: Canvas, cx: float, cy: float, size: float, ink: Ink) -> None:
    """Any goods: the four goods shapes small, in a 2 x 2 grid."""
    step = size * 0.25
    for (du, dv), draw in zip(((-1, -1), (1, -1), (-1, 1), (1, 1)), GOODS.values()):
        draw(canvas, cx + du * step, cy + dv * step, size * 0.44, ink)


def arrow(canvas: Canvas, x1: float, y1: float, x2: float, y2: float, width: float, colour: str) -> None:
    """A straight arrow from (x1, y1) to (x2, y2) with a filled head."""
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head = width * 3.2
    bx, by = x2 - ux * head, y2 - uy * head
    canvas.line(x1, y1, bx, by, Style(stroke=colour, width=width))
    canvas.polygon([(x2, y2), (bx - uy * head * 0.6, by + ux * head * 0.6),
                    (bx + uy * head * 0.6, by - ux * head * 0.6)], Style(fill=colour, stroke=None))


# ------------------------------------------------------------------------------------ player symbols
def player_symbol(canvas: Canvas, kind: str, cx: float, cy: float, size: float, fill: str, line: str,
                  width: float = 0.3) -> None:
    """A colour's symbol filling a `size` mm square about (cx, cy): a light shape with a dark outline
    reads on any piece colour. Tagged in SVG as data-symbol, so tests and the companion can find it."""
    r = size / 2
    style = Style(fill=fill, stroke=line, width=width)
    with canvas.group(None, role="symbol", symbol=kind):
        unit = symbols.unit(kind)
        if unit is None:
            canvas.circle(cx, cy, r * 0.85, style)
        else:
            canvas.polygon([(cx + u * r, cy + v * r) for u, v in unit], style)
