"""Packing Jutaku's 69 polyomino pieces on whole pages, in their exact shapes.

The pieces are printed flat at the site cards' scale (one square = one card square) and cut out of
thick card; they butt together, so one cut serves two pieces. `pack` fills blocks of `cols` x
`rows` squares: it takes the first empty square (row by row) and puts there the largest piece left
that fits in some orientation with its first square on it; a square no piece fits stays empty.
Deterministic: the same pieces always give the same sheets.

`naive_sheets` is the baseline the benchmark compares with: every piece alone in a cell of the
largest bounding box, on the same block.
"""
from __future__ import annotations

import dataclasses

Cell = tuple[int, int]


@dataclasses.dataclass(frozen=True)
class Placed:
    piece: str                   # piece id
    number: int                  # printed on it
    cells: frozenset[Cell]       # (column, row) squares of the block


@dataclasses.dataclass(frozen=True)
class Block:
    cols: int
    rows: int
    placed: tuple[Placed, ...]

    @property
    def used(self) -> int:
        return sum(len(p.cells) for p in self.placed)


def _normal(cells) -> tuple[Cell, ...]:
    """The cells shifted so that the first in row order (row, then column) is (0, 0)."""
    first = min(cells, key=lambda c: (c[1], c[0]))
    return tuple(sorted((x - first[0], y - first[1]) for x, y in cells))


def pack(pieces, cols: int, rows: int) -> list[Block]:
    """Every piece of `pieces` (objects with .id, .number, .orientations()) on as few blocks as this
    greedy filling finds."""
    left = sorted(pieces, key=lambda p: (-p.size, p.number))
    shapes = {p.id: sorted({_normal(o) for o in p.orientations()}) for p in left}
    blocks = []
    while left:
        free = [[True] * cols for _ in range(rows)]
        placed: list[Placed] = []
        for y in range(rows):
            for x in range(cols):
                if not free[y][x]:
                    continue
                for p in left:
                    fit = next((o for o in shapes[p.id]
                                if all(0 <= x + dx < cols and 0 <= y + dy < rows and free[y + dy][x + dx]
                                       for dx, dy in o)), None)
                    if fit is not None:
                        cells = frozenset((x + dx, y + dy) for dx, dy in fit)
                        for cx, cy in cells:
                            free[cy][cx] = False
                        placed.append(Placed(p.id, p.number, cells))
                        left.remove(p)
                        break
        if not placed:
            raise ValueError(f"a piece does not fit a block of {cols} x {rows} squares")
        blocks.append(Block(cols, rows, tuple(sorted(placed, key=lambda q: q.number))))
    return blocks


def naive_sheets(pieces, cols: int, rows: int) -> int:
    """Blocks needed with one piece per cell of the largest bounding box (each piece turned its
    best way), the baseline for the benchmark."""
    def box(p):
        return min((max(x for x, _ in o) + 1, max(y for _, y in o) + 1) for o in p.orientations())
    w = max(box(p)[0] for p in pieces)
    h = max(box(p)[1] for p in pieces)
    per = max((cols // w) * (rows // h), (cols // h) * (rows // w))
    return -(-len(pieces) // per)
