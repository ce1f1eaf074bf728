"""The facade tiles packed on sheets: every copy of every tile, in its exact shape, tiles of one
colour butted together so one cut serves two tiles, on as few sheets as the printable area allows.

Packing works on a grid of squares (`layout.square` each). Without a gutter the whole sheet is one
grid: it fills the first empty square (reading order) with the largest tile left that can cover it
in any orientation (rotations and flips), and leaves the square empty only when nothing fits. Tiles
are tried largest first, so the small ones fill the gaps.

With a `gutter` (mm) tiles of different colours never share a cut: each colour fills strips of
whole columns (the fewest columns that take all its tiles, the same greedy fill inside), and
strips stand a gutter apart, so a sheet holds as many columns as fit its width with the gutters
between them. A colour that does not fit what is left of a sheet fills those columns and carries
on on the next; where a colour ends part way down a strip, the next colour may start below it
after a gutter (a "break": that strip is a row shorter, so it still fits the paper's height).
Several plans are tried (colours in the data's order or white after any of them; a colour that
would be split starting a fresh sheet instead; with or without breaks) and the one with the
fewest sheets is kept, the earlier on a tie. The result is deterministic.
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
    #: the left edge of each column, in squares from the sheet's left edge (a gutter adds
    #: gutter / square); empty: columns butt together (column c at c)
    lefts: tuple[float, ...] = ()
    #: the first column of each strip (columns of one colour; a gutter before each but the first)
    strips: tuple[int, ...] = (0,)
    #: (strip, row): a strip's tiles from this row down are another colour's, a gutter below the
    #: tiles above (a strip holding a colour's last few tiles and the next colour's first)
    breaks: tuple[tuple[int, int], ...] = ()
    #: rows of each strip (a strip with a break is a row shorter, for the gutter); empty: all `rows`
    depths: tuple[int, ...] = ()
    gutter: float = 0.0          # in squares

    def top(self, column: int, row: int) -> float:
        """Row `row`'s top edge in column `column`, in squares from the sheet's top edge."""
        k = self.strip_of(column)
        return row + self.gutter * sum(1 for b in self.breaks if b[0] == k and b[1] <= row)

    def segment_of(self, column: int, row: int) -> tuple[int, int]:
        """(strip, part of the strip) of a square: squares of one segment are one colour."""
        k = self.strip_of(column)
        return k, sum(1 for b in self.breaks if b[0] == k and b[1] <= row)

    def exists(self, column: int, row: int) -> bool:
        """Whether the square is on the sheet (a strip with a break has a row fewer)."""
        if not (0 <= column < self.columns and 0 <= row < self.rows):
            return False
        return not self.depths or row < self.depths[self.strip_of(column)]

    def free(self) -> list[tuple[int, int]]:
        """The squares no tile covers, in reading order."""
        taken = {cell for p in self.placed for cell, _ in p.cells}
        return [(c, r) for r in range(self.rows) for c in range(self.columns)
                if self.exists(c, r) and (c, r) not in taken]

    def left(self, column: int) -> float:
        """Column `column`'s left edge, in squares from the sheet's left edge."""
        return self.lefts[column] if self.lefts else float(column)

    @property
    def width(self) -> float:
        """The sheet's width in squares, gutters included."""
        return self.left(self.columns - 1) + 1 if self.columns else 0.0

    def strip_of(self, column: int) -> int:
        return max(k for k, first in enumerate(self.strips) if first <= column)

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


def _todo(data) -> list[list]:
    todo: list[list] = []        # [tile, colour, orientations, copies left, squares]
    for tid, colour, cells, copies in tile_list(data):
        shapes = [dict(o) for o in orientations(cells, data.building.rotate, data.building.flip)]
        todo.append([tid, colour, shapes, copies, len(cells)])
    todo.sort(key=lambda t: (-t[4], t[0]))
    return todo


def pack(data, columns: int, rows: int, gutter: float = 0.0, spare: int = 0,
         width: float | None = None, height: float | None = None) -> list[Sheet]:
    """The sheets of `columns` x `rows` squares. With a `gutter` (in squares: mm / square) tiles of
    different colours stand in strips that far apart, and a sheet holds as many columns as fit
    `width` squares (default `columns`) with its gutters; `spare`: the free squares the last sheet
    keeps (the score markers), a plan without them is not taken."""
    if gutter <= 0:
        return _pack_grid(data, columns, rows)
    budget = max(float(columns), width or 0.0)
    tall = max(float(rows), height or 0.0)
    colours = list(dict.fromkeys(colour for _, colour, _, _ in tile_list(data)))
    others = [c for c in colours if c != WHITE]
    orders = [colours] + [others[:i] + [WHITE] + others[i:] for i in range(len(others))]
    plans = []
    for stack in (False, True):
        for order in orders:
            for keep_whole in (True, False):
                plan = _pack_strips(data, budget, rows, gutter, order, keep_whole, tall if stack else 0.0)
                if plan and len(plan[-1].free()) >= spare:
                    plans.append(plan)
    if not plans:
        raise ValueError(f"the facade tiles do not fit sheets of {columns} x {rows} squares "
                         f"with {spare} squares to spare")
    return min(plans, key=len)


def _fill(todo: list[list], columns: int, rows: int, first: int = 0, row0: int = 0) -> list[Placed]:
    """Greedy fill of `columns` x `rows` squares (absolute columns from `first`, rows from `row0`),
    taking copies off `todo`."""
    free = {(c, r) for c in range(first, first + columns) for r in range(row0, row0 + rows)}
    placed: list[Placed] = []
    for r in range(row0, row0 + rows):
        for c in range(first, first + columns):
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
    return placed


def _pack_strips(data, columns: float, rows: int, gutter: float, order: list[str],
                 keep_whole: bool, height: float = 0.0) -> list[Sheet]:
    """One plan. With a `height` (squares) a strip whose colour ends part way down takes the next
    colour's first tiles below a gutter, in the rows that fit `height`."""
    todo = _todo(data)
    sheets: list[Sheet] = []
    strips: list[list] = []      # the open sheet's strips: [columns, placed, break row or None, depth]

    def width(strips) -> float:
        return sum(st[0] for st in strips) + gutter * max(0, len(strips) - 1)

    def close() -> None:
        if not strips:
            return
        lefts, firsts, breaks, depths, x, col = [], [], [], [], 0.0, 0
        for n, (k, _, brk, depth) in enumerate(strips):
            firsts.append(col)
            lefts += [x + i for i in range(k)]
            if brk is not None:
                breaks.append((n, brk))
            depths.append(depth)
            x += k + gutter
            col += k
        placed = tuple(p for st in strips for p in st[1])
        sheets.append(Sheet(col, rows, placed, tuple(lefts), tuple(firsts), tuple(breaks),
                            tuple(depths), gutter))
        strips.clear()

    for colour in order:
        mine = [t for t in todo if t[1] == colour]
        while any(t[3] for t in mine):
            last = strips[-1] if strips else None
            if height and last is not None and last[2] is None:
                used = 1 + max(r for p in last[1] for (_, r), _ in p.cells)
                below = int(height - used - gutter + 1e-9)
                if used < rows and below >= 1:
                    first = sum(st[0] for st in strips) - last[0]
                    placed = _fill(mine, last[0], below, first, used)
                    if placed:
                        last[1] = last[1] + placed
                        last[2], last[3] = used, used + below
                        continue
            room = columns - width(strips) - (gutter if strips else 0.0)
            most = int(room + 1e-9)
            if most < 1:
                close()
                continue
            first = sum(st[0] for st in strips)
            need = next((k for k in range(1, int(columns + 1e-9) + 1) if _fits(mine, k, rows)), None)
            if need is None:         # more than a sheet of this colour: fill what is left
                need = int(columns + 1e-9) + 1
            if need > most and keep_whole and strips and need <= columns:
                close()
                continue
            k = min(need, most)
            placed = _fill(mine, k, rows, first)
            if not placed:
                if not strips:
                    raise ValueError(f"no facade tile fits a sheet of {columns} x {rows} squares")
                close()
                continue
            strips.append([k, placed, None, rows])
    close()
    return sheets


def _fits(todo: list[list], columns: int, rows: int) -> bool:
    trial = [t[:3] + [t[3]] + t[4:] for t in todo]
    _fill(trial, columns, rows)
    return not any(t[3] for t in trial)


def _pack_grid(data, columns: int, rows: int) -> list[Sheet]:
    todo = _todo(data)
    sheets: list[Sheet] = []
    while any(t[3] for t in todo):
        placed = _fill(todo, columns, rows)
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


def bleed_boxes(sheet: Sheet, gutter: float) -> list[tuple[str, tuple[float, float, float, float]]]:
    """(colour, box in squares from the sheet's top-left corner) of the art each tile runs past its
    cut: half the `gutter` (in squares) into the gutter beside or below its segment of a strip and
    into an empty square of it, never where it shares a cut with another tile or at the sheet's outer edge. Drawn
    under the tiles, so a corner that reaches a neighbour of its colour is covered by it."""
    half = gutter / 2
    owner = {cell: p for p in sheet.placed for cell, _ in p.cells}
    out = []
    for p in sheet.placed:
        mine = {cell for cell, _ in p.cells}
        for (c, r) in sorted(mine):
            x, y = sheet.left(c), sheet.top(c, r)
            sides = set()
            for side, (dx, dy) in (("left", (-1, 0)), ("right", (1, 0)), ("top", (0, -1)), ("bottom", (0, 1))):
                n = (c + dx, r + dy)
                if n in mine or not sheet.exists(*n):
                    continue
                if n in owner and sheet.segment_of(*n) == sheet.segment_of(c, r):
                    continue                   # a shared cut with a tile of its own colour
                sides.add(side)
            boxes = {"left": (x - half, y, half, 1.0), "right": (x + 1, y, half, 1.0),
                     "top": (x, y - half, 1.0, half), "bottom": (x, y + 1, 1.0, half)}
            for side in ("left", "right", "top", "bottom"):
                if side in sides:
                    out.append((p.colour, boxes[side]))
            for a, b in (("left", "top"), ("right", "top"), ("left", "bottom"), ("right", "bottom")):
                if a in sides and b in sides:
                    cx = x - half if a == "left" else x + 1
                    cy = y - half if b == "top" else y + 1
                    out.append((p.colour, (cx, cy, half, half)))
    return out
