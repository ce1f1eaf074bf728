"""Shapes drawn on a square grid, as the data files write them: a list of strings, one per row.

Used by the games' data whose pieces or plans are grids of squares (tiles, site plans, pieces).
Coordinates: a cell is (column, row), both from 0, column growing to the right and row growing
*downwards* from the first string (the way the rows read in the file and the way the drawing
interface measures). A shape's cells keep the letters of the file ("B"/"W", "#", "1"/"2", ...), so
the same helpers serve the generator (draw each cell) and the rules engines (place, rotate, flip).
"""
from __future__ import annotations

from typing import Iterable, Mapping

Cell = tuple[int, int]
#: A labelled shape: cell -> letter, normalised so that min column and min row are 0.
Shape = tuple[tuple[Cell, str], ...]

SIDES: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


def read_rows(rows: Iterable[str], empty: str = ".") -> dict[Cell, str]:
    """The non-empty cells of a grid written as rows of letters."""
    return {(x, y): ch for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != empty}


def bad_letters(rows: Iterable[str], allowed: str) -> str:
    """The letters in `rows` that are not in `allowed` (sorted, for an error message)."""
    return "".join(sorted({ch for row in rows for ch in row} - set(allowed)))


def normalise(cells: Mapping[Cell, str]) -> Shape:
    """Shift to the origin and sort, so equal shapes compare equal."""
    if not cells:
        return ()
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return tuple(sorted(((x - mx, y - my), ch) for (x, y), ch in cells.items()))


def orientations(cells: Mapping[Cell, str], rotate: bool = True, flip: bool = True) -> list[Shape]:
    """Every distinct way the shape can lie (rotated by quarter turns and/or mirrored)."""
    seen: set[Shape] = set()
    out: list[Shape] = []
    base = dict(cells)
    for mirrored in ((False, True) if flip else (False,)):
        cur = {(-x, y): ch for (x, y), ch in base.items()} if mirrored else base
        for _ in range(4 if rotate else 1):
            shape = normalise(cur)
            if shape not in seen:
                seen.add(shape)
                out.append(shape)
            cur = {(-y, x): ch for (x, y), ch in cur.items()}  # a quarter turn clockwise (y down)
    return out


def canonical(cells: Mapping[Cell, str], rotate: bool = True, flip: bool = True) -> Shape:
    """One representative of all orientations: two shapes are the same piece iff these are equal."""
    return min(orientations(cells, rotate, flip))


def is_connected(cells: Iterable[Cell]) -> bool:
    """True if every cell can be reached from every other through shared sides (empty: True)."""
    cells = set(cells)
    if not cells:
        return True
    start = min(cells)
    seen = {start}
    stack = [start]
    while stack:
        x, y = stack.pop()
        for dx, dy in SIDES:
            n = (x + dx, y + dy)
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(cells)


def size(rows: Iterable[str]) -> tuple[int, int]:
    """(width, height) of the written grid."""
    rows = list(rows)
    return (max((len(r) for r in rows), default=0), len(rows))
