"""Player-colour symbols: the shape printed with each player colour, so that colour is never the only
cue for whose piece it is (red and green look alike to many colour-blind players).

A game's data names the symbol beside each player colour (`symbol = "circle"` in the colour's table of
assets/<game>/); this module says what each name looks like. The kit draws them with
`generator.icons.player_symbol`; the companion imports `unit` (pure geometry, no drawing) to draw the
same shapes on screen, e.g. as an SVG polygon `points` scaled by the radius it wants.
"""
from __future__ import annotations

import math

SYMBOLS = ("circle", "triangle", "square", "diamond", "star", "cross")


def problem(kind: str) -> str | None:
    """Why `kind` is not a symbol a colour may name (None: it is one)."""
    if kind in SYMBOLS:
        return None
    return f"symbol: {kind!r} is not one of {', '.join(SYMBOLS)}"


def unit(kind: str) -> list[tuple[float, float]] | None:
    """The symbol's outline in a unit circle (radius 1 about (0, 0), y down); None for the circle
    (drawn as a circle of radius 0.85)."""
    if kind == "circle":
        return None
    if kind == "triangle":     # lowered a little so it sits optically centred
        return [(math.sin(a), 0.15 - math.cos(a)) for a in (0, 2 * math.pi / 3, 4 * math.pi / 3)]
    if kind == "square":
        s = 0.8
        return [(-s, -s), (s, -s), (s, s), (-s, s)]
    if kind == "diamond":
        return [(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)]
    if kind == "star":
        return [((1 if k % 2 == 0 else 0.45) * math.sin(k * math.pi / 5),
                 -(1 if k % 2 == 0 else 0.45) * math.cos(k * math.pi / 5)) for k in range(10)]
    if kind == "cross":
        a, b = 0.3, 0.9
        return [(-a, -b), (a, -b), (a, -a), (b, -a), (b, a), (a, a), (a, b), (-a, b), (-a, a), (-b, a),
                (-b, -a), (-a, -a)]
    raise ValueError(problem(kind))
