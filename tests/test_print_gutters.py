"""Pieces of different colours that share a cut get a gutter (issue 22 point 2), measured on the PDF.

"Shin Bikkuri Man's façade tiles are packed edge to edge in different colours, so a cut a little
off shows a sliver of the neighbour's colour." Built: tiles of different colours stand at least
`tiles.gutter` (4 mm) apart, each tile's colour runs half the gutter past its cut, so 1 mm outside
every side that faces another tile the sheet shows the tile's own colour (not the neighbour's, not
white), and the cut line stays a dark line on colour, easy to find. The sheets are rasterized
(pymupdf, RGB) on Letter and A4; where each tile lies is found from its cut lines on the raster.
"""
from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from generator.build import BuildOptions, build
from generator.canon import load
from generator.kits.base import CardSection
from generator.kits.shin_bikkuri_man import tile_sheets
from generator.kits.shin_bikkuri_man.facade import Palette
from generator.kits.shin_bikkuri_man.layout import load_layout
from generator.layouts import load_layout as sheet_layout

GAME = "shin-bikkuri-man"
MM = 72 / 25.4
ZOOM = 6.0                       # pixels per point: about 17 pixels per mm
URL = "http://kit.test:5000"


def _build(root: Path) -> Path:
    build(BuildOptions(games=(GAME,), formats=("pdf",), out=root, companion_url=URL))
    return root


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("gutters"))


def _rgb(hexa: str) -> tuple[int, int, int]:
    return tuple(int(hexa[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


class Raster:
    def __init__(self, page: pymupdf.Page):
        self.pix = page.get_pixmap(matrix=pymupdf.Matrix(ZOOM, ZOOM), colorspace=pymupdf.csRGB, alpha=False)
        self.scale = ZOOM * MM          # pixels per mm
        self.samples, self.stride = self.pix.samples, self.pix.stride   # (samples is a fresh copy)

    def at(self, x: float, y: float) -> tuple[int, int, int]:
        px, py = int(round(x * self.scale)), int(round(y * self.scale))
        i = py * self.stride + px * 3
        return tuple(self.samples[i:i + 3])  # type: ignore[return-value]

    def dark(self, x: float, y: float) -> bool:
        return max(self.at(x, y)) < 90


def _near(a, b, tol: int = 12) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a, b))


def _tiles_pages(pdf: pymupdf.Document) -> list[int]:
    return [n for n in range(len(pdf)) if "façade tiles, sheet" in pdf[n].get_text()]


def _cut(r: Raster, x: float, y: float, dx: int, dy: int, reach: float = 1.5) -> float | None:
    """Where the dark cut line nearest to (x, y) lies along the axis of (dx, dy), within `reach`
    mm: its x for a vertical line (dx != 0), its y for a horizontal one."""
    step = 1 / r.scale
    ks = range(-int(reach * r.scale), int(reach * r.scale) + 1)
    if dx:
        hits = [x + k * step for k in ks if r.dark(x + k * step, y)]
        return min(hits, key=lambda h: abs(h - x)) if hits else None
    hits = [y + k * step for k in ks if r.dark(x, y + k * step)]
    return min(hits, key=lambda h: abs(h - y)) if hits else None


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_tiles_of_different_colours_stand_a_gutter_apart_with_their_own_colour_bled_into_it(out, paper):
    data, layout = load(GAME), load_layout()
    pal = Palette(data, layout)
    s, gutter = layout.square, layout.tiles.gutter
    m = sheet_layout().margin
    sheets = tile_sheets(data, layout)
    path = out / paper / GAME / f"{GAME}-tiles-{paper}.pdf"
    with pymupdf.open(path) as pdf:
        pages = _tiles_pages(pdf)
        assert len(pages) == len(sheets), f"{paper}: {len(pages)} tile pages for {len(sheets)} sheets"
        facing = checked = 0
        for sheet, number in zip(sheets, pages):
            page = pdf[number]
            w = page.rect.width / MM - 2 * m
            r = Raster(page)
            ox = m + (w - sheet.width * s) / 2
            owner = {cell: p for p in sheet.placed for cell, _ in p.cells}
            lowest = max(sheet.top(c, row) + 1 for p in sheet.placed for (c, row), _ in p.cells)
            assert m + lowest * s <= page.rect.height / MM - m + 1e-6          # inside the margin
            for p in sheet.placed:
                mine = {cell for cell, _ in p.cells}
                own = _rgb(pal.fill(p.colour))
                for (c, row) in sorted(mine):
                    x0, y0 = ox + sheet.left(c) * s, m + sheet.top(c, row) * s
                    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                        if (c + dx, row + dy) in mine:
                            continue
                        # the middle of this side of the square, on the trim
                        ex = x0 + (s if dx > 0 else 0 if dx < 0 else s / 2)
                        ey = y0 + (s if dy > 0 else 0 if dy < 0 else s / 2)
                        # the cut line is on the raster where the tile's trim is
                        found = _cut(r, ex, ey, dx, dy)
                        edge = ex if dx else ey
                        assert found is not None and abs(found - edge) < 0.4, (paper, p.tile, c, row, dx, dy, found)
                        other = owner.get((c + dx, row + dy))
                        if other is None or other.colour == p.colour:
                            continue
                        facing += 1
                        # 1 mm outside the cut: the tile's own colour, not the neighbour's, not white
                        seen = r.at(ex + dx * 1.0, ey + dy * 1.0)
                        assert _near(seen, own), (paper, p.tile, c, row, dx, dy, seen, own)
                        assert not _near(seen, _rgb(pal.fill(other.colour))), (paper, p.tile, other.tile)
                        if p.colour != "white":
                            assert not _near(seen, (255, 255, 255)), (paper, p.tile, c, row, dx, dy)
                        # the neighbour's cut line (found on the raster) is at least the gutter away
                        theirs = _cut(r, ex + dx * gutter, ey + dy * gutter, dx, dy, reach=1.0)
                        assert theirs is not None, (paper, p.tile, other.tile, c, row, dx, dy)
                        assert abs(theirs - edge) >= gutter - 0.1, (paper, p.tile, other.tile, theirs, edge)
                        checked += 1
            # and no tile meets a tile of another colour edge to edge
            for (c, row), p in owner.items():
                for n in ((c + 1, row), (c, row + 1)):
                    q = owner.get(n)
                    if q is not None and q is not p and q.colour != p.colour:
                        if n[0] != c:
                            gap = (sheet.left(n[0]) - sheet.left(c) - 1) * s
                        else:
                            gap = (sheet.top(c, n[1]) - sheet.top(c, row) - 1) * s
                        assert gap >= gutter - 1e-6, (paper, p.tile, q.tile, gap)
        assert facing and checked == facing


def test_the_tile_sheets_are_the_same_bytes_for_the_same_input(out, tmp_path):
    again = _build(tmp_path)
    for paper in ("letter", "a4"):
        name = f"{paper}/{GAME}/{GAME}-tiles-{paper}.pdf"
        assert (out / name).read_bytes() == (again / name).read_bytes(), name


# -- single-sided pieces packed on shared sheets (stores, capsules, banknotes) -----------------------

@pytest.fixture(scope="module")
def kits(kit_builds) -> Path:
    return kit_builds()


def _packed_pages(game: str, paper: str):
    """(file, page number, page, {kind: whether its faces differ}) of the shared sheets holding
    pieces whose faces fill their trims in different colours (measured on the faces' drawing)."""
    from print_kits import make_kit, imposed
    from generator.kits.base import KitContext
    from generator.sheets.cards import _background
    from generator.sheets.pack import packable
    kit = make_kit(game, KitContext())
    # pieces whose faces start with a rectangle filling the trim, in more than one colour
    bleeds = {s.kind: len({_background(i, s) for i in s.items} - {None}) > 1
              for s in kit.sections if isinstance(s, CardSection) and packable(s) and s.shape == "rect"}
    for doc in imposed(game, paper):
        for n, page in enumerate(doc.pages):
            kinds = set(page.section.split(","))
            if page.role == "front" and any(bleeds.get(k) for k in kinds):
                yield doc.name, n, page, bleeds


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_packed_pieces_of_different_colours_stand_a_gutter_apart_in_their_own_colour(kits, paper):
    from print_kits import GAMES
    from generator.sheets.cards import GUTTER_BLEED, _background
    from print_kits import make_kit
    from generator.kits.base import KitContext
    measured = set()
    pairs = 0
    for game in GAMES:
        kit = make_kit(game, KitContext())
        sections = {s.kind: s for s in kit.sections if isinstance(s, CardSection)}
        for name, n, page, bleeds in _packed_pages(game, paper):
            with pymupdf.open(kits / paper / game / f"{name}.pdf") as pdf:
                r = Raster(pdf[n])
            boxes = [(p.box, p.kind, p.id) for p in page.placements if bleeds.get(p.kind)]
            colour = {}
            for _, kind, item_id in boxes:
                if (kind, item_id) not in colour:
                    item = next(i for i in sections[kind].items if i.id == item_id)
                    colour[kind, item_id] = _background(item, sections[kind])
            for i, (a, ka, ia) in enumerate(boxes):
                for b, kb, ib in boxes[i + 1:]:
                    if ka != kb or colour[ka, ia] == colour[kb, ib]:
                        continue
                    ax, ay, aw, ah = a
                    bx, by, bw, bh = b
                    rows_overlap = min(ay + ah, by + bh) - max(ay, by) > 1
                    cols_overlap = min(ax + aw, bx + bw) - max(ax, bx) > 1
                    fractions = [k / 8 for k in range(1, 8)]
                    if rows_overlap and 0 <= bx - (ax + aw) < 10:      # b right of a
                        gap, y0, y1 = bx - (ax + aw), max(ay, by), min(ay + ah, by + bh)
                        ys = [y0 + f * (y1 - y0) for f in fractions]
                        sides = [[((ax + aw + 1.0, y), (ax + aw - 1.0, y)) for y in ys],
                                 [((bx - 1.0, y), (bx + 1.0, y)) for y in ys]]
                    elif cols_overlap and 0 <= by - (ay + ah) < 10:    # b below a
                        gap, x0, x1 = by - (ay + ah), max(ax, bx), min(ax + aw, bx + bw)
                        xs = [x0 + f * (x1 - x0) for f in fractions]
                        sides = [[((x, ay + ah + 1.0), (x, ay + ah - 1.0)) for x in xs],
                                 [((x, by - 1.0), (x, by + 1.0)) for x in xs]]
                    else:
                        continue
                    where = (paper, game, name, n + 1, ia, ib)
                    assert gap >= 2 * GUTTER_BLEED - 1e-6, where
                    for points, own, other in ((sides[0], colour[ka, ia], colour[kb, ib]),
                                               (sides[1], colour[kb, ib], colour[ka, ia])):
                        # 1 mm outside the trim, along the whole shared edge: the piece's own art
                        # (its background, or a border it draws near its edge, mirrored), never the
                        # neighbour's background, never bare paper
                        seen = [r.at(*out) for out, _ in points]
                        assert not any(_near(c, _rgb(other), 20) for c in seen), (where, seen, other)
                        if own != "#ffffff":
                            assert not all(_near(c, (255, 255, 255), 8) for c in seen), (where, seen)
                    pairs += 1
                    measured.add((game, ka))
    assert {("shinjuku", "store"), ("capsule-hotel", "capsule"), ("sapporo-1876", "banknote")} <= measured
    assert pairs
