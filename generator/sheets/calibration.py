"""Scale checks for the cover page: a square of known size and an inch ruler.

A printer set to "fit to page" shrinks everything by 3-6 %, which is enough to make cards miss
their backs; a player who measures these two before cutting catches it.
"""
from __future__ import annotations

from ..draw import Canvas, Style

INCH = 25.4


def square(canvas: Canvas, x: float, y: float, side: float, ink_saver: bool) -> None:
    """A `side` mm square (outer edges of its outline exactly `side` apart) with its size inside."""
    line = 0.3
    fill = None if ink_saver else "#eef2f7"
    with canvas.group("calibration-square", size=f"{side:g}mm"):
        # The stroke is centred on the path: inset by half its width so the outside measures `side`.
        canvas.rect(x + line / 2, y + line / 2, side - line, side - line,
                    Style(fill=fill, stroke="#000000", width=line))
        canvas.text(x + side / 2, y + side / 2 - 1, f"{side:g} mm", 14, font="bold", anchor="middle")
        canvas.text(x + side / 2, y + side / 2 + 5, "measure me", 8, anchor="middle", fill="#444444")


def ruler(canvas: Canvas, x: float, y: float, inches: int) -> float:
    """An `inches` long ruler with 1/8 in ticks; its base line starts at x. Returns its height."""
    length = inches * INCH
    base = Style(stroke="#000000", width=0.3)
    tick = Style(stroke="#000000", width=0.2)
    with canvas.group("calibration-ruler", length=f"{inches}in"):
        canvas.line(x, y, x + length, y, base)
        for i in range(inches * 8 + 1):
            tx = x + i * INCH / 8
            h = 6.0 if i % 8 == 0 else 4.0 if i % 4 == 0 else 2.8 if i % 2 == 0 else 1.8
            canvas.line(tx, y, tx, y - h, tick)
            if i % 8 == 0:
                canvas.text(tx, y + 3.6, f"{i // 8}", 8, anchor="middle")
        canvas.text(x + length + 2.5, y + 3.6, "in", 8)
    return 10.0
