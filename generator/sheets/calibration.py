"""Scale checks for the cover page: a square of known size and an inch ruler.

A printer set to "fit to page" shrinks everything by 3-6 %, which is enough to make cards miss
their backs; a player who measures these two before cutting catches it.
"""
from __future__ import annotations

import contextlib

from ..draw import Canvas, Style

INCH = 25.4


SQUARE_LINE = 0.3   # mm, the square's outline


def square(canvas: Canvas, x: float, y: float, side: float, ink_saver: bool) -> None:
    """A square whose outline's inside edges are exactly `side` mm apart (the box x, y, side, side;
    the line lies outside it), with its size inside: a ruler is laid along the inside edge."""
    line = SQUARE_LINE
    fill = None if ink_saver else "#eef2f7"
    with canvas.group("calibration-square", size=f"{side:g}mm"):
        # The stroke is centred on the path: outset by half its width so the inside measures `side`.
        canvas.rect(x - line / 2, y - line / 2, side + line, side + line,
                    Style(fill=fill, stroke="#000000", width=line))
        canvas.text(x + side / 2, y + side / 2 - 1, f"{side:g} mm", 14, font="bold", anchor="middle")
        canvas.text(x + side / 2, y + side / 2 + 5, "inside the line", 8, anchor="middle", fill="#444444")


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


# -- Back-offset calibration: a sheet printed double-sided once, read against a light ----------------

R = "regular"
SCALE_HALF = 8.0    # mm either side of zero on the back's scales
SCALE_GAP = 30.0    # mm from the page centre to each scale


def back_offset_pages(paper: tuple[float, float], options, flip: str) -> list:
    """The two pages of the back-offset calibration sheet. The front has a cross through the page
    centre; the back (a back page, so `options.back_offset` moves it like every other back) has an
    X scale crossing the cross's vertical line and a Y scale crossing its horizontal line. Held up
    to a light, the front's lines show through at the values to add to the offset."""
    from .model import Page

    W, H = paper
    cx, cy = W / 2, H / 2
    dx, dy = options.back_offset
    built = f"{dx:g},{dy:g}"

    def front(canvas: Canvas) -> None:
        line = Style(stroke="#000000", width=0.4)   # thick enough to show through card stock
        with canvas.group("back-offset-front", role="calibration"):
            canvas.line(cx, cy - 2 * SCALE_GAP, cx, cy + 2 * SCALE_GAP, line)
            canvas.line(cx - 2 * SCALE_GAP, cy, cx + 2 * SCALE_GAP, cy, line)
            _lines(canvas, W, [("Back-offset calibration · front", 14, "bold"),
                               ("Print this file double-sided on the stock you will print the cards on,", 9, R),
                               (f"flipping on the {flip} edge, as you will print the cards.", 9, R),
                               ("Then hold the sheet up to a light, the back towards you.", 9, R)])

    def back(canvas: Canvas) -> None:
        with canvas.frame(dx, dy) if dx or dy else _nothing():
            with canvas.group("back-offset-back", role="calibration"):
                _scale(canvas, cx, cy - SCALE_GAP, across=True)
                _scale(canvas, cx + SCALE_GAP, cy, across=False)
                canvas.text(cx + SCALE_HALF + 2, cy - SCALE_GAP + 1, "X", 12, font="bold")
                canvas.text(cx + SCALE_GAP + 1, cy + SCALE_HALF + 6, "Y", 12, font="bold", anchor="middle")
                _lines(canvas, W, [
                    ("Back-offset calibration · back", 14, "bold"),
                    ("Against a light, read where the front's vertical line crosses the X scale and where", 9, R),
                    ("its horizontal line crosses the Y scale (mm; + is right / down on this side).", 9, R),
                    (f"This sheet was built with --back-offset {built}: add your readings to it, rebuild", 9, R),
                    ("with --back-offset X,Y, and print this sheet again: both lines then cross 0.", 9, R)])

    return [Page(paper, front, role="front", section="back-offset"),
            Page(paper, back, role="back", section="back-offset")]


def _nothing():
    return contextlib.nullcontext()


def _lines(canvas: Canvas, width: float, lines: list[tuple[str, float, str]]) -> None:
    y = 30.0
    for text, size, font in lines:
        canvas.text(width / 2, y, text, size, font=font, anchor="middle")  # type: ignore[arg-type]
        y += size * 0.55 + 2


def _scale(canvas: Canvas, x: float, y: float, *, across: bool) -> None:
    """A scale of ±SCALE_HALF mm in 0.5 mm steps centred on (x, y): along x when `across`."""
    tick = Style(stroke="#000000", width=0.12)
    steps = int(SCALE_HALF * 2)
    for i in range(-steps, steps + 1):
        at = i / 2
        length = 4.0 if i == 0 else 2.5 if i % 2 == 0 else 1.5
        if across:
            canvas.line(x + at, y, x + at, y - length, tick)
            if i % 4 == 0:   # every 2 mm, in two staggered rows so the numbers keep apart
                row = 3.0 if i % 8 == 0 else 5.8
                canvas.text(x + at, y + row, f"{at:+g}" if i else "0", 6, anchor="middle")
        else:
            canvas.line(x, y + at, x + length, y + at, tick)
            if i % 4 == 0:
                canvas.text(x + 5.5, y + at + 0.8, f"{at:+g}" if i else "0", 6)
    if across:
        canvas.line(x - SCALE_HALF, y, x + SCALE_HALF, y, tick)
    else:
        canvas.line(x, y - SCALE_HALF, x, y + SCALE_HALF, tick)
