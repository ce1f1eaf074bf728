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


def _cut_x(r: Raster, x: float, y: float, reach: float = 1.5) -> float | None:
    """The x (mm) of the dark vertical cut line nearest to `x` on the row at `y`, within `reach`."""
    step = 1 / r.scale
    hits = [x + k * step for k in range(-int(reach * r.scale), int(reach * r.scale) + 1)
            if r.dark(x + k * step, y)]
    if not hits:
        return None
    return min(hits, key=lambda h: abs(h - x))


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
            for p in sheet.placed:
                mine = {cell for cell, _ in p.cells}
                own = _rgb(pal.fill(p.colour))
                for (c, row) in sorted(mine):
                    x0, y0 = ox + sheet.left(c) * s, m + row * s
                    mid = y0 + s / 2
                    for dx in (-1, 1):
                        edge = x0 if dx < 0 else x0 + s
                        # the cut line is on the raster where the tile's trim is
                        found = _cut_x(r, edge, mid)
                        if (c + dx, row) in mine:
                            continue
                        assert found is not None and abs(found - edge) < 0.4, (paper, p.tile, c, row, dx, found)
                        other = owner.get((c + dx, row))
                        if other is None or other.colour == p.colour:
                            continue
                        facing += 1
                        # 1 mm outside the cut: the tile's own colour, not the neighbour's, not white
                        seen = r.at(edge + dx * 1.0, mid)
                        assert _near(seen, own), (paper, p.tile, c, row, dx, seen, own)
                        assert not _near(seen, _rgb(pal.fill(other.colour))), (paper, p.tile, other.tile)
                        if p.colour != "white":
                            assert not _near(seen, (255, 255, 255)), (paper, p.tile, c, row, dx)
                        # the neighbour's cut line (found on the raster) is at least the gutter away
                        theirs = _cut_x(r, edge + dx * gutter, mid, reach=1.0)
                        assert theirs is not None, (paper, p.tile, other.tile, c, row, dx)
                        assert abs(theirs - edge) >= gutter - 0.1, (paper, p.tile, other.tile, theirs, edge)
                        checked += 1
            # and no tile meets a tile of another colour edge to edge
            for (c, row), p in owner.items():
                for n in ((c + 1, row), (c, row + 1)):
                    q = owner.get(n)
                    if q is not None and q is not p and q.colour != p.colour:
                        gap = (sheet.left(n[0]) - sheet.left(c) - 1) * s if n[0] != c else 0.0
                        assert gap >= gutter - 1e-6, (paper, p.tile, q.tile, gap)
        assert facing and checked == facing


def test_the_tile_sheets_are_the_same_bytes_for_the_same_input(out, tmp_path):
    again = _build(tmp_path)
    for paper in ("letter", "a4"):
        name = f"{paper}/{GAME}/{GAME}-tiles-{paper}.pdf"
        assert (out / name).read_bytes() == (again / name).read_bytes(), name
