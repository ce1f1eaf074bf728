"""Cut marks: edge ticks outside the trims (cards, boards) and cut guides round tokens.

Ticks continue each cut line beyond the block of trims and stop short of the printable margin, so
they never cross a card and never reach where a home printer cannot print.
"""
from __future__ import annotations

from ..draw import Canvas, Style
from ..draw.base import Box
from .grid import mark_span
from .layout import CropMarks


def crop_marks(canvas: Canvas, xs: list[float], ys: list[float], bounds: Box,
               page: tuple[float, float], margin: float, marks: CropMarks) -> None:
    """Ticks for vertical cuts at `xs` (above and below `bounds`) and horizontal cuts at `ys`
    (left and right of it), each as long as the room up to the margin allows."""
    x, y, w, h = bounds
    style = Style(stroke=marks.colour, width=marks.width)
    rooms = {"top": y - margin, "bottom": page[1] - margin - (y + h),
             "left": x - margin, "right": page[0] - margin - (x + w)}
    spans = {side: mark_span(room, marks) for side, room in rooms.items()}
    lines = []
    for cx in xs:
        if spans["top"]:
            a, b = spans["top"]
            lines.append(((cx, y - a), (cx, y - b)))
        if spans["bottom"]:
            a, b = spans["bottom"]
            lines.append(((cx, y + h + a), (cx, y + h + b)))
    for cy in ys:
        if spans["left"]:
            a, b = spans["left"]
            lines.append(((x - a, cy), (x - b, cy)))
        if spans["right"]:
            a, b = spans["right"]
            lines.append(((x + w + a, cy), (x + w + b, cy)))
    with canvas.group("crop-marks", role="marks"):
        for (x1, y1), (x2, y2) in lines:
            canvas.line(x1, y1, x2, y2, style)


def token_guide(canvas: Canvas, box: Box, colour: str, width: float) -> None:
    """A thin circle on the trim of a round token: the line to cut along."""
    x, y, w, h = box
    canvas.circle(x + w / 2, y + h / 2, min(w, h) / 2, Style(stroke=colour, width=width))
