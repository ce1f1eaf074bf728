"""Cut marks: edge ticks outside the trims (cards, boards) and cut guides round tokens.

Ticks continue each cut line beyond the block of trims and stop short of the printable margin, so
they never cross a card and never reach where a home printer cannot print. On a sheet of cards or
pieces only the cut lines of the trims actually printed get ticks, at both ends of each line: a
partly filled sheet has none down the empty rows, and a short last row gets its own.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from ..draw import Canvas, Style
from ..draw.base import Box
from .grid import mark_span
from ..layouts import CropMarks

Line = tuple[tuple[float, float], tuple[float, float]]


def crop_marks(canvas: Canvas, xs: list[float], ys: list[float], bounds: Box,
               page: tuple[float, float], margin: float, marks: CropMarks) -> None:
    """Ticks for vertical cuts at `xs` (above and below `bounds`) and horizontal cuts at `ys`
    (left and right of it), each as long as the room up to the margin allows."""
    x, y, w, h = bounds
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
    draw_marks(canvas, lines, marks)


def trim_mark_lines(trims: Sequence[Box], page: tuple[float, float], margin: float,
                    marks: CropMarks, obstacles: Iterable[Box] = (), bleed: float = 0.0) -> list[Line]:
    """Ticks for the cut lines of `trims` (butted cards or pieces, in rows).

    Every left / right trim edge is a vertical cut line running from the highest to the lowest trim
    that has an edge on it: it gets a tick above its top end and one below its bottom end. Likewise
    each top / bottom edge gets a tick left and right of its ends. A tick is as long as the room up
    to the margin or to the nearest trim or obstacle in its way allows (`mark_span`), so it never
    crosses a component of this or any other section on the page. With a `bleed` the ticks start
    outside the art that runs past each trim (`mark_span`) and keep clear of the neighbours' bleed."""
    blocks = [grow(t, bleed) for t in trims] + list(obstacles)
    pad = marks.width / 2 + marks.clearance
    vertical: dict[float, list[Box]] = {}
    horizontal: dict[float, list[Box]] = {}
    for t in trims:
        x, y, w, h = t
        for cx in (x, x + w):
            vertical.setdefault(round(cx, 6), []).append(t)
        for cy in (y, y + h):
            horizontal.setdefault(round(cy, 6), []).append(t)
    return (_cut_ticks(vertical, 0, blocks, pad, page, margin, marks, bleed)
            + _cut_ticks(horizontal, 1, blocks, pad, page, margin, marks, bleed))


def _cut_ticks(cuts: dict[float, list[Box]], across: int, blocks: list[Box], pad: float,
               page: tuple[float, float], margin: float, marks: CropMarks, bleed: float) -> list[Line]:
    """The ticks at both ends of each cut line in `cuts` (its position -> the trims with an edge
    on it): vertical lines for `across` = 0 (x), horizontal ones for 1 (y). Each tick is as long as
    the room before the margin or the nearest block beyond the line's end allows."""
    along = 1 - across

    def point(at: float, cut: float) -> tuple[float, float]:
        return (cut, at) if across == 0 else (at, cut)

    lines: list[Line] = []
    for cut in sorted(cuts):
        start = min(t[along] for t in cuts[cut])
        end = max(t[along] + t[along + 2] for t in cuts[cut])
        near = [b for b in blocks if b[across] - pad < cut < b[across] + b[across + 2] + pad]
        before = start - max([margin] + [b[along] + b[along + 2] for b in near
                                         if b[along] + b[along + 2] <= start + 1e-6])
        after = min([page[along] - margin] + [b[along] for b in near if b[along] >= end - 1e-6]) - end
        span = mark_span(before, marks, bleed)
        if span:
            lines.append((point(start - span[0], cut), point(start - span[1], cut)))
        span = mark_span(after, marks, bleed)
        if span:
            lines.append((point(end + span[0], cut), point(end + span[1], cut)))
    return lines


def grow(box: Box, by: float) -> Box:
    """`box` grown by `by` on every side (a trim and its bleed)."""
    x, y, w, h = box
    return (x - by, y - by, w + 2 * by, h + 2 * by)


def fold_mark_lines(xs: Iterable[float], block: Box, page: tuple[float, float], margin: float,
                    marks: CropMarks) -> list[Line]:
    """Ticks above and below `block` continuing the fold lines at `xs` (drawn dashed)."""
    x, y, w, h = block
    lines: list[Line] = []
    for cx in xs:
        for room, sign, edge in ((y - margin, -1, y), (page[1] - margin - (y + h), 1, y + h)):
            span = mark_span(room, marks)
            if span:
                lines.append(((cx, edge + sign * span[0]), (cx, edge + sign * span[1])))
    return lines


def draw_marks(canvas: Canvas, lines: Iterable[Line], marks: CropMarks, role: str = "marks",
               dash: tuple[float, ...] = ()) -> None:
    style = Style(stroke=marks.colour, width=marks.width, dash=dash)
    with canvas.group(f"{'crop' if role == 'marks' else role}-marks", role=role):
        for (x1, y1), (x2, y2) in lines:
            canvas.line(x1, y1, x2, y2, style)


def token_guide(canvas: Canvas, box: Box, colour: str, width: float) -> None:
    """A thin circle on the trim of a round token: the line to cut along."""
    x, y, w, h = box
    canvas.circle(x + w / 2, y + h / 2, min(w, h) / 2, Style(stroke=colour, width=width))
