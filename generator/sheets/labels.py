"""Page labels: a quiet line in the left margin saying which sheet this is, so printed sheets can be
sorted (and fronts matched with backs) without reading the cards."""
from __future__ import annotations

from ..draw import Canvas
from ..draw.base import PT
from .grid import Grid
from .layout import Layout
from .text import ellipsize, fit_size

LABEL_GREY = "#555555"
ASCENT, DESCENT = 0.88, 0.12   # the kit font's extent above / below the baseline, in em


def side_label(canvas: Canvas, text: str, grid: Grid, paper: tuple[float, float], layout: Layout,
               size_pt: float = 6.5, min_pt: float = 4.5) -> None:
    """Write `text` up the left margin beside the middle row, clear of cut marks and trims."""
    left, right = layout.margin + 0.3, grid.origin[0] - 0.6
    _, top, _, height = grid.box(grid.rows // 2, 0)
    length = height - 4.0              # keep clear of the crop marks at the row's cut lines
    size = fit_size(text, length, size_pt, min_pt)
    em = size * PT
    if right - left < em or length <= 0:
        return
    baseline = (left + right) / 2 + (ASCENT - DESCENT) / 2 * em
    with canvas.frame(baseline, top + height / 2, rotate=-90):
        with canvas.group(None, role="label"):
            canvas.text(0, 0, ellipsize(text, length, size), size, anchor="middle", fill=LABEL_GREY)
