"""The facade tiles packed on sheets: every copy of every tile, in its exact shape, butted together so
one cut serves two tiles, on as few sheets as the printable area allows.

Packing works on the grid of squares that fits the printable area (`layout.square` each): it fills
the first empty square (reading order) with the largest tile left that can cover it in any
orientation (rotations and flips), and leaves the square empty only when nothing fits. Tiles are
tried largest first, so the small ones fill the gaps. The result is deterministic.
"""
from __future__ import annotations

import dataclasses

from ...canon.polyomino import orientations
from .facade import WHITE

Cell = tuple[int, int]


@dataclasses.dataclass(frozen=True)
class Piece:
    tile: str                              # tile id ("red-4", "white-1")
    colour: str
    cells: dict[Cell, str]                 # (column, row from the top) -> "B"/"W", normalised


@dataclasses.dataclass(frozen=True)
class Placed:
    tile: str
    colour: str
    cells: tuple[tuple[Cell, str], ...]    # absolute grid cells on the sheet


@dataclasses.dataclass(frozen=True)
class Sheet:
    columns: int
    rows: int
    placed: tuple[Placed, ...]

    def count(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for p in self.placed:
            out[p.tile] = out.get(p.tile, 0) + 1
        return out


def tile_list(data) -> list[tuple[str, str, dict[Cell, str], int]]:
    """(tile id, colour, cells, copies) of every facade tile the kit prints (the 4-player counts)."""
    hi = data.players[1]
    out = [(t.id, t.colour, t.cells, data.tile_copies(t.id, hi)) for t in data.tiles]
    out.append(("white-1", WHITE, {(0, 0): "W"}, data.white.count))
    return out


def pack(data, columns: int, rows: int) -> list[Sheet]:
    todo: list[list] = []        # [tile, colour, orientations, copies left]
    for tid, colour, cells, copies in tile_list(data):
        shapes = [dict(o) for o in orientations(cells, data.building.rotate, data.building.flip)]
        todo.append([tid, colour, shapes, copies, len(cells)])
    todo.sort(key=lambda t: (-t[4], t[0]))
    sheets: list[Sheet] = []
    while any(t[3] for t in todo):
        free = {(c, r) for c in range(columns) for r in range(rows)}
        placed: list[Placed] = []
        for r in range(rows):
            for c in range(columns):
                if (c, r) not in free:
                    continue
                hit = _cover(todo, free, c, r)
                if hit is None:
                    free.discard((c, r))        # nothing fits here: it stays blank
                    continue
                t, cells = hit
                t[3] -= 1
                for cell in cells:
                    free.discard(cell[0])
                placed.append(Placed(t[0], t[1], tuple(sorted(cells))))
        if not placed:
            raise ValueError(f"no facade tile fits a sheet of {columns} x {rows} squares")
        sheets.append(Sheet(columns, rows, tuple(placed)))
    return sheets


def _cover(todo, free, c, r):
    """The first tile (largest first) with an orientation whose first cell in reading order lands
    on (c, r) and whose other cells are free."""
    for t in todo:
        if not t[3]:
            continue
        for shape in t[2]:
            first = min(shape, key=lambda xy: (xy[1], xy[0]))
            dx, dy = c - first[0], r - first[1]
            cells = [((x + dx, y + dy), ch) for (x, y), ch in shape.items()]
            if all(cell in free for cell, _ in cells):
                return t, cells
    return None
