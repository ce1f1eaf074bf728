"""Bleed and print-shop export, for every game's kit, measured on the output: with `--bleed 3` the
double-sided cards stand 6 mm apart, each face's art runs 3 mm past its trim (the strip outside
each edge mirrors the art inside it) and every crop mark lies outside the bleed. (`--format
print-shop`: tests/test_print_shop.py, its own file, so that pytest-xdist's two workers build and
measure the two side by side.)"""
from __future__ import annotations


import pymupdf
import pytest

from generator.layouts import load_layout
from generator.sheets import SheetOptions
from print_kits import GAMES, MM, PAPERS, black_lines, imposed
from test_print_duplex import _rect_kinds

BLEED = 3.0


@pytest.fixture(scope="module")
def bleed_out(kit_builds):
    return kit_builds(bleed=BLEED)


def _grey(page: pymupdf.Page, zoom: float = 4.0):
    pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csGRAY, alpha=False)
    return pix, zoom * MM   # pixels per mm


def _at(pix, scale: float, x: float, y: float) -> int:
    return pix.samples_mv[int(y * scale) * pix.stride + int(x * scale)]   # (`samples` copies the page)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_bleed_spaces_the_cards_runs_the_art_past_the_trim_and_moves_the_marks_out(bleed_out, game, paper):
    pen = load_layout().sheets.crop_marks.width
    kinds = {s.kind for s in _rect_kinds(game)}
    pages = 0
    for doc in imposed(game, paper, SheetOptions(bleed=BLEED)):
        with pymupdf.open(bleed_out / paper / game / f"{doc.name}.pdf") as pdf:
            for number, page in enumerate(doc.pages):
                if page.role not in ("front", "back") or page.section not in kinds:
                    continue
                pages += 1
                where = f"{doc.name} page {number + 1}"
                boxes = [p.box for p in page.placements]
                grown = [(x - BLEED, y - BLEED, w + 2 * BLEED, h + 2 * BLEED) for x, y, w, h in boxes]
                marks = [m for m in black_lines(pdf[number], pen) if not m.dashed and _clear(m, boxes)]
                # every mark lies outside every card's bleed
                assert marks and all(_clear(m, grown) for m in marks), where
                # the PDF records the bleed round the block of cards (BleedBox, beside the TrimBox)
                box = [v / MM for v in pdf[number].bleedbox]
                want = (min(g[0] for g in grown), min(g[1] for g in grown),
                        max(g[0] + g[2] for g in grown), max(g[1] + g[3] for g in grown))
                assert all(abs(a - b) < 0.05 for a, b in zip(box, want)), (where, box, want)
                # the cut lines come in pairs 2 × bleed apart between neighbouring cards
                xs = sorted({round(m.x0, 2) for m in marks if m.vertical})
                width = boxes[0][2]
                steps = [round(b - a, 2) for a, b in zip(xs, xs[1:])]
                assert set(steps) <= {round(width, 2), 2 * BLEED}, (where, steps)
                cols = len({round(b[0], 2) for b in boxes})
                assert steps.count(2 * BLEED) == cols - 1, (where, steps)
                # the art past each trim mirrors the art inside it
                pix, scale = _grey(pdf[number])
                for x, y, w, h in boxes:
                    for f in (0.2, 0.5, 0.8):
                        for out_pt, in_pt in (((x - 1.5, y + f * h), (x + 1.5, y + f * h)),
                                              ((x + w + 1.5, y + f * h), (x + w - 1.5, y + f * h)),
                                              ((x + f * w, y - 1.5), (x + f * w, y + 1.5)),
                                              ((x + f * w, y + h + 1.5), (x + f * w, y + h - 1.5))):
                            a, b = _at(pix, scale, *out_pt), _at(pix, scale, *in_pt)
                            assert abs(a - b) <= 40, f"{where}: bleed at {out_pt} is {a}, the art inside {b}"
    assert pages, f"{game}: no double-sided card pages"


def _clear(mark, boxes) -> bool:
    x0, x1 = sorted((mark.x0, mark.x1))
    y0, y1 = sorted((mark.y0, mark.y1))
    return all(x1 <= bx + 0.05 or x0 >= bx + bw - 0.05 or y1 <= by + 0.05 or y0 >= by + bh - 0.05
               for bx, by, bw, bh in boxes)
