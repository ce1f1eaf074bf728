"""Shin Bikkuri Man: the façade as squares, and where a tile may go. Pure functions of the data.

A façade (API.md) is 9 strings of 5 characters, top row (row 9) first: "." empty, a colour letter
(r, y, g, b, p, w = white) lower case for a window, upper case for a brick. Squares are (column,
row), 1-based, row 1 at the bottom. Inside, a façade is a list of 45 characters indexed
(row - 1) * columns + (column - 1), and a set of squares is also a bit mask over those indices.

`Geometry(data)` precomputes, for every tile (coloured tile ids "red-3", and "white-1"), every
placement on the board in every orientation (rotations and flips as the data allows): its squares,
its brick square, its mask, the mask of the squares just below it and the mask of its neighbours.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from generator.canon.polyomino import canonical, is_connected, orientations

from . import facade

EMPTY = "."
WHITE = "white"
WHITE_TILE = "white-1"
WHITE_LETTER = "w"


@dataclasses.dataclass(frozen=True)
class Placement:
    tile: str                                # tile id
    squares: tuple[tuple[int, int], ...]     # sorted (column, row)
    brick: tuple[int, int] | None
    mask: int
    below: int       # squares directly below a square of the tile (not the tile's own)
    bottom: bool     # a square on row 1
    around: int      # squares sharing a side with the tile (not the tile's own)

    def key(self) -> tuple:
        return (self.squares, self.brick)


@dataclasses.dataclass
class Evaluation:
    """What a legal placement does: its cost inputs and what it earns."""

    placement: Placement
    touches_same_colour: bool
    coats: int                       # coats of arms covered + marked rows completed
    rows: list[tuple[int, int]]      # (row, points) completed by it
    columns: list[tuple[int, int]]   # (column, points) completed by it
    cells: list[str]                 # the façade after it

    @property
    def points(self) -> int:
        return sum(p for _, p in self.rows) + sum(p for _, p in self.columns)


class Geometry:
    def __init__(self, data: Any):
        self.data = data
        self.cols, self.rows = data.board.columns, data.board.rows
        self.n = self.cols * self.rows
        self.letter = {c.id: c.id[0] for c in data.colours}
        self.letter[WHITE] = WHITE_LETTER
        if len(set(self.letter.values())) != len(self.letter):
            raise ValueError("colour ids must start with different letters (the façade notation)")
        self.colour_of_letter = {v: k for k, v in self.letter.items()}
        self.tile_colour = {t.id: t.colour for t in data.tiles}
        self.tile_colour[WHITE_TILE] = WHITE
        self.tile_size = {t.id: t.size for t in data.tiles}
        self.tile_size[WHITE_TILE] = 1
        self.coat_mask = 0
        for c, r in data.coat_squares:
            self.coat_mask |= self.bit(c, r)
        self.coat_rows = set(data.coat_rows)
        self.row_mask = {r: sum(self.bit(c, r) for c in range(1, self.cols + 1))
                         for r in range(1, self.rows + 1)}
        self.col_mask = {c: sum(self.bit(c, r) for r in range(1, self.rows + 1))
                         for c in range(1, self.cols + 1)}
        rot, flip = data.building.rotate, data.building.flip
        self.placements: dict[str, list[Placement]] = {}
        self.by_key: dict[str, dict[tuple, Placement]] = {}
        shapes = {t.id: t.cells for t in data.tiles}
        shapes[WHITE_TILE] = {(0, 0): "W"}
        #: the façade letters a brick (upper case) can have: colours with a tile that has a brick
        self.brick_letters = {self.letter[self.tile_colour[t]] for t, cells in shapes.items()
                              if "B" in cells.values()}
        self.canon: dict[str, tuple] = {}
        self.canon_plain: dict[str, tuple] = {}
        for tid, cells in shapes.items():
            self.canon[tid] = canonical(cells, rot, flip)
            self.canon_plain[tid] = canonical({k: "#" for k in cells}, rot, flip)
            found: list[Placement] = []
            for shape in orientations(cells, rot, flip):
                h = max(y for (_, y), _ in shape) + 1
                w = max(x for (x, _), _ in shape) + 1
                up = [((x, h - 1 - y), ch) for (x, y), ch in shape]
                for ox in range(1, self.cols - w + 2):
                    for oy in range(1, self.rows - h + 2):
                        sq = {(ox + x, oy + y): ch for (x, y), ch in up}
                        found.append(self._placement(tid, sq))
            self.placements[tid] = found
            self.by_key[tid] = {p.key(): p for p in found}

    # ---- squares -------------------------------------------------------------------------------
    def bit(self, c: int, r: int) -> int:
        return 1 << ((r - 1) * self.cols + (c - 1))

    def on_board(self, c: Any, r: Any) -> bool:
        return (isinstance(c, int) and isinstance(r, int) and not isinstance(c, bool)
                and not isinstance(r, bool) and 1 <= c <= self.cols and 1 <= r <= self.rows)

    def _placement(self, tid: str, sq: dict[tuple[int, int], str]) -> Placement:
        mask = below = around = 0
        for c, r in sq:
            mask |= self.bit(c, r)
        for c, r in sq:
            if r > 1 and (c, r - 1) not in sq:
                below |= self.bit(c, r - 1)
            for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if self.on_board(c + dc, r + dr) and (c + dc, r + dr) not in sq:
                    around |= self.bit(c + dc, r + dr)
        brick = next((s for s, ch in sq.items() if ch == "B"), None)
        return Placement(tid, tuple(sorted(sq)), brick, mask, below,
                         any(r == 1 for _, r in sq), around)

    # ---- façades -------------------------------------------------------------------------------
    def empty(self) -> list[str]:
        return [EMPTY * self.cols for _ in range(self.rows)]

    def cells(self, facade_rows: list[str]) -> list[str]:
        """The 9 strings (top row first) as 45 characters indexed by square."""
        out = [EMPTY] * self.n
        for k, line in enumerate(facade_rows):
            r = self.rows - k
            for c, ch in enumerate(line, start=1):
                out[(r - 1) * self.cols + c - 1] = ch
        return out

    def rows_of(self, cells: list[str]) -> list[str]:
        return ["".join(cells[(r - 1) * self.cols:r * self.cols]) for r in range(self.rows, 0, -1)]

    def check_rows(self, value: Any) -> list[str]:
        """Why `value` is not a façade in the notation of API.md (empty: it is one)."""
        if not isinstance(value, list) or len(value) != self.rows:
            return [f"a board is a list of {self.rows} strings (top row first)"]
        allowed = set(EMPTY) | {ch for letter in self.letter.values() for ch in (letter, letter.upper())}
        for k, line in enumerate(value):
            if not isinstance(line, str) or len(line) != self.cols:
                return [f"row {self.rows - k} must be a string of {self.cols} characters"]
            bad = sorted(set(line) - allowed)
            if bad:
                return [f"row {self.rows - k} has {bad[0]!r}; use . for empty, "
                        f"{', '.join(sorted(self.letter.values()))} (window) or upper case (brick)"]
        return []

    def cannot_occur(self, cells: list[str]) -> list[str]:
        """Why a façade in the notation cannot occur in the game (empty: nothing found): a brick of
        a colour whose tiles have none (white tiles are all window), as /place refuses to lay one."""
        reasons = []
        for i, ch in enumerate(cells):
            if ch.isupper() and ch.lower() not in self.brick_letters:
                c, r = i % self.cols + 1, i // self.cols + 1
                name = self.colour_of_letter[ch.lower()]
                reasons.append(f"square ({c}, {r}) holds a {name} brick ({ch!r}): a brick where the tile "
                               f"has none ({name} tiles are all window)")
        return reasons

    def occupied(self, cells: list[str]) -> int:
        m = 0
        for i, ch in enumerate(cells):
            if ch != EMPTY:
                m |= 1 << i
        return m

    def colour_mask(self, cells: list[str], colour: str) -> int:
        letter = self.letter[colour]
        m = 0
        for i, ch in enumerate(cells):
            if ch.lower() == letter:
                m |= 1 << i
        return m

    def empty_squares(self, cells: list[str]) -> int:
        return sum(1 for ch in cells if ch == EMPTY)

    # ---- placing -------------------------------------------------------------------------------
    def why_not(self, occupied: int, p: Placement) -> list[str]:
        """Why `p` may not go on a façade with these squares taken (empty: it may)."""
        reasons = []
        if p.mask & occupied:
            taken = [f"({c}, {r})" for c, r in p.squares if self.bit(c, r) & occupied]
            reasons.append(f"square{'s' if len(taken) > 1 else ''} {', '.join(taken)} "
                           f"{'are' if len(taken) > 1 else 'is'} already covered")
        elif not (p.bottom or p.below & occupied):
            reasons.append("the tile is not supported: one of its squares must be on the bottom row "
                           "or directly above a tile")
        return reasons

    def fits(self, occupied: int, p: Placement) -> bool:
        return not (p.mask & occupied) and (p.bottom or bool(p.below & occupied))

    def evaluate(self, cells: list[str], p: Placement) -> Evaluation:
        """A placement known to fit: its discount, coats of arms, points and the façade after."""
        colour = self.tile_colour[p.tile]
        before = self.occupied(cells)
        touches = colour != WHITE and bool(p.around & self.colour_mask(cells, colour))
        new = list(cells)
        letter = self.letter[colour]
        for c, r in p.squares:
            new[(r - 1) * self.cols + c - 1] = letter.upper() if (c, r) == p.brick else letter
        after = before | p.mask
        coats = bin(p.mask & self.coat_mask).count("1")
        rows, cols = [], []
        for r, m in self.row_mask.items():
            if m & p.mask and after & m == m:
                rows.append((r, facade.row_points(self.data, self._all_windows(new, m))))
                if r in self.coat_rows:
                    coats += 1
        for c, m in self.col_mask.items():
            if m & p.mask and after & m == m:
                cols.append((c, facade.column_points(self.data, self._all_windows(new, m))))
        return Evaluation(p, touches, coats, rows, cols, new)

    def _all_windows(self, cells: list[str], mask: int) -> bool:
        return all(cells[i].islower() for i in range(self.n) if mask >> i & 1)

    def score(self, cells: list[str]) -> dict:
        """The completed rows and columns of a façade: points and the breakdown by kind."""
        occ = self.occupied(cells)
        rows, cols = [], []
        for r, m in self.row_mask.items():
            if occ & m == m:
                w = self._all_windows(cells, m)
                rows.append({"row": r, "points": facade.row_points(self.data, w), "windows": w})
        for c, m in self.col_mask.items():
            if occ & m == m:
                w = self._all_windows(cells, m)
                cols.append({"column": c, "points": facade.column_points(self.data, w), "windows": w})
        points = sum(x["points"] for x in rows) + sum(x["points"] for x in cols)
        return {"points": points, "rows": rows, "columns": cols}

    def legal_placements(self, cells: list[str], tile: str) -> list[Placement]:
        occ = self.occupied(cells)
        return [p for p in self.placements[tile] if self.fits(occ, p)]

    # ---- reading a placement from a move ---------------------------------------------------------
    def read_squares(self, squares: Any, brick: Any) -> tuple[list[str], tuple | None, tuple | None]:
        """(reasons, squares as a sorted tuple, brick square or None) from JSON [[col, row], ...]."""
        if not isinstance(squares, list) or not squares or len(squares) > 5:
            return ["squares must be a list of 1 to 5 [column, row] pairs"], None, None
        out = []
        for s in squares:
            if (not isinstance(s, list) or len(s) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in s)):
                return ["each square is [column, row] (two whole numbers)"], None, None
            out.append((s[0], s[1]))
        if len(set(out)) != len(out):
            return ["a square is listed twice"], None, None
        b = None
        if brick is not None:
            if (not isinstance(brick, list) or len(brick) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in brick)):
                return ["brick is [column, row] or null"], None, None
            b = (brick[0], brick[1])
            if b not in out:
                return [f"the brick ({b[0]}, {b[1]}) is not one of the tile's squares"], None, None
        off = [s for s in out if not self.on_board(*s)]
        if off:
            return [f"square ({off[0][0]}, {off[0][1]}) is off the board (columns 1-{self.cols}, "
                    f"rows 1-{self.rows})"], None, None
        return [], tuple(sorted(out)), b

    def find(self, tile: str, squares: tuple, brick: tuple | None) -> tuple[list[str], Placement | None]:
        """The placement of `tile` on exactly these squares with this brick, or why there is none."""
        p = self.by_key[tile].get((squares, brick))
        if p is not None:
            return [], p
        return self.shape_reasons([tile], squares, brick), None

    def shape_reasons(self, tiles: list[str], squares: tuple, brick: tuple | None) -> list[str]:
        if not is_connected(squares):
            return ["the squares are not all joined by their sides"]
        plain = canonical({s: "#" for s in squares}, self.data.building.rotate, self.data.building.flip)
        same = [t for t in tiles if self.canon_plain[t] == plain]
        if not same:
            return [f"no {self._tile_names(tiles)} has this shape"]
        if brick is not None and all(self.tile_colour[t] == WHITE for t in same):
            return ["a brick where the tile has none (white tiles are all window)"]
        if brick is None and any(self.tile_colour[t] != WHITE for t in same):
            return ["the tile has a brick square: give its position"]
        return ["the brick is not where the tile has it (the brick square of this tile is elsewhere)"]

    def _tile_names(self, tiles: list[str]) -> str:
        colours = sorted({self.tile_colour[t] for t in tiles})
        return " or ".join(f"{c} tile" for c in colours)

    def tiles_of_colour(self, colour: str) -> list[str]:
        return [t for t, c in self.tile_colour.items() if c == colour]

    def match(self, colour: str, squares: tuple, brick: tuple | None) -> tuple[list[str], Placement | None]:
        """The tile of `colour` that lies exactly on these squares with this brick (API.md /place)."""
        tiles = self.tiles_of_colour(colour)
        for t in tiles:
            p = self.by_key[t].get((squares, brick))
            if p is not None:
                return [], p
        return self.shape_reasons(tiles, squares, brick), None


_BUILT: dict[int, tuple[Any, Geometry]] = {}


def geometry_of(data: Any) -> Geometry:
    """The Geometry of `data`, built once per loaded data (canon.load keeps one per game): every app of a
    process shares its tables, which nothing changes once built. (Building them takes about 0.1 s,
    and the test suite makes hundreds of apps.) The data is kept with it, so its id is not reused."""
    hit = _BUILT.get(id(data))
    if hit is None or hit[0] is not data:
        hit = _BUILT[id(data)] = (data, Geometry(data))
    return hit[1]
