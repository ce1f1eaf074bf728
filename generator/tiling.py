"""How a board larger than the paper is tiled: the fewest pages of equal tiles, overlapping by a
glue strip, and where the tiles meet once glued. Pure geometry over the layout (the sheets draw the
tiles; a kit may keep its words off the seams)."""
from __future__ import annotations

import dataclasses
import math
import string

from .draw.base import Box
from .layouts import Layout


@dataclasses.dataclass(frozen=True)
class TilePlan:
    rows: int
    cols: int
    tile: tuple[float, float]    # board millimetres shown on each tile
    overlap: float
    turned: bool                 # tiles drawn a quarter turn clockwise on the (portrait) page

    @property
    def count(self) -> int:
        return self.rows * self.cols

    def region(self, row: int, col: int) -> Box:
        """The part of the board (board coordinates) that tile (row, col) shows."""
        tw, th = self.tile
        return (col * (tw - self.overlap), row * (th - self.overlap), tw, th)

    @staticmethod
    def name(row: int, col: int) -> str:
        return f"{string.ascii_uppercase[row]}{col + 1}"


def content_area(paper: tuple[float, float], layout: Layout) -> Box:
    """Where a tile may go on a page: inside the margin, with room for marks and the label band."""
    b = layout.sheets.board
    inset = layout.margin + b.mark_room
    return (inset, inset, paper[0] - 2 * inset, paper[1] - 2 * inset - b.label_band)


def plan_tiles(board: tuple[float, float], paper: tuple[float, float], layout: Layout) -> TilePlan:
    """The tiling with fewest pages (upright before turned when equal); tiles equal in size."""
    _, _, aw, ah = content_area(paper, layout)
    overlap = layout.sheets.board.overlap
    best = None
    for turned in (False, True):
        limit_w, limit_h = (ah, aw) if turned else (aw, ah)
        cols = _count(board[0], limit_w, overlap)
        rows = _count(board[1], limit_h, overlap)
        if rows > len(string.ascii_uppercase):
            continue
        tile = ((board[0] + (cols - 1) * overlap) / cols, (board[1] + (rows - 1) * overlap) / rows)
        plan = TilePlan(rows, cols, tile, overlap, turned)
        if best is None or plan.count < best.count:
            best = plan
    if best is None:
        raise ValueError(f"board {board[0]:g} × {board[1]:g} mm needs too many tiles")
    return best


def _count(length: float, limit: float, overlap: float) -> int:
    if length <= limit + 1e-9:
        return 1
    return math.ceil((length - overlap) / (limit - overlap) - 1e-9)


def seams(board: tuple[float, float], layout: Layout, papers: tuple[str, ...] | None = None) -> list[Box]:
    """Where a tiled board's tiles meet once glued, in board coordinates, on every home paper (or
    `papers`): each next tile's cut edge, laid on its neighbour's guide line, as a box of no width
    (or no height) across the board. The glue strip beyond it is covered by that next tile, which
    shows the same part of the board, so a word inside the strip still reads whole; a word across
    the seam is split by it (and by any error in cutting or laying the tile)."""
    lines: list[Box] = []
    for pid in papers if papers is not None else layout.home_papers:
        plan = plan_tiles(board, layout.papers[pid].size, layout)
        tw, th = plan.tile
        ov = plan.overlap
        lines += [((c + 1) * (tw - ov), 0.0, 0.0, board[1]) for c in range(plan.cols - 1)]
        lines += [(0.0, (r + 1) * (th - ov), board[0], 0.0) for r in range(plan.rows - 1)]
    return lines
