"""Where components go on a sheet: a grid of trims centred on the page, and room for marks.

The grid is centred so that a back page, mirrored about the page's centre line, puts every back
exactly behind its front whichever edge the printer flips on.
"""
from __future__ import annotations

import dataclasses
import math

from ..draw.base import Box
from ..layouts import CropMarks


class LayoutError(ValueError):
    """A component does not fit the paper (one line naming both)."""


@dataclasses.dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    cell: tuple[float, float]    # trim width, height
    gap: float
    origin: tuple[float, float]  # top-left corner of the first trim

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def box(self, row: int, col: int) -> Box:
        w, h = self.cell
        return (self.origin[0] + col * (w + self.gap), self.origin[1] + row * (h + self.gap), w, h)

    @property
    def bounds(self) -> Box:
        w, h = self.cell
        return (self.origin[0], self.origin[1], self.cols * w + (self.cols - 1) * self.gap,
                self.rows * h + (self.rows - 1) * self.gap)


def fit_grid(page: tuple[float, float], margin: float, cell: tuple[float, float], gap: float,
             room: float, what: str) -> Grid:
    """The largest centred grid of `cell`s that leaves `room` between it and the margin."""
    avail_w = page[0] - 2 * margin - 2 * room
    avail_h = page[1] - 2 * margin - 2 * room
    cols = math.floor((avail_w + gap) / (cell[0] + gap) + 1e-9)
    rows = math.floor((avail_h + gap) / (cell[1] + gap) + 1e-9)
    if cols < 1 or rows < 1:
        raise LayoutError(f"{what}: {cell[0]:g} × {cell[1]:g} mm does not fit inside the "
                          f"{avail_w:.1f} × {avail_h:.1f} mm printable area")
    width = cols * cell[0] + (cols - 1) * gap
    height = rows * cell[1] + (rows - 1) * gap
    return Grid(cols, rows, cell, gap, ((page[0] - width) / 2, (page[1] - height) / 2))


def mark_room(marks: CropMarks, bleed: float = 0.0) -> float:
    """The least room outside a trim that still takes a (short) crop mark, outside a `bleed`."""
    return bleed + marks.short_offset + marks.short_length + marks.clearance


def mark_span(room: float, marks: CropMarks, bleed: float = 0.0) -> tuple[float, float] | None:
    """Where a crop mark lies, as distances from the trim, given `room` up to the margin.

    The full mark when it fits; else it ends short of the margin, starting at the normal offset
    if that still leaves a short mark (`short_length`, the least a person finds: 3 mm), or closer
    to the trim if not; None when nothing fits. With a `bleed` every mark starts that much further
    out, so none is printed over the art that runs past the trim."""
    offset, short_offset = bleed + marks.offset, bleed + marks.short_offset
    end = min(offset + marks.length, room - marks.clearance)
    start = offset if end - offset >= marks.short_length else short_offset
    if end - start < marks.short_length - 1e-9:
        return None
    return start, end
