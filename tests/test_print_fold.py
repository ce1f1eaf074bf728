"""`--duplex fold`, for every game's kit on Letter and A4, measured on the PDFs: each back is printed
beside its front, mirrored about a dashed fold line, on single-sided sheets (no back pages).

Its own file (it was in tests/test_print_duplex.py), so that under pytest-xdist's --dist loadfile the
fold build and its measures can run on one worker while the other measures another build."""
from __future__ import annotations

import pymupdf
import pytest

from generator.layouts import load_layout
from generator.sheets import SheetOptions
from print_kits import GAMES, PAPERS, black_lines, imposed
from test_print_duplex import _pixels, _rect_kinds


@pytest.fixture(scope="module")
def fold_out(kit_builds):
    return kit_builds(duplex="fold")


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_fold_puts_each_back_beside_its_front_with_a_dashed_fold_line(fold_out, game, paper):
    options = SheetOptions(duplex="fold")
    pen = load_layout().sheets.crop_marks.width
    rect_kinds = {s.kind for s in _rect_kinds(game)}
    pairs = 0
    for doc in imposed(game, paper, options):
        assert all(p.role != "back" for p in doc.pages), "fold prints no back pages"
        with pymupdf.open(fold_out / paper / game / f"{doc.name}.pdf") as pdf:
            for number, page in enumerate(doc.pages):
                backs = {(p.kind, p.id, round(p.box[1], 2), round(p.box[0], 2)): p for p in page.placements
                         if p.side == "back"}
                if not backs:
                    continue
                folds = [m for m in black_lines(pdf[number], pen) if m.dashed and m.vertical]
                for p in page.placements:
                    if p.side != "front":
                        continue
                    x, y, w, h = p.box
                    fold = round(x + w, 2)
                    # the back touches its front at the fold, mirrored across it
                    assert (p.kind, p.id, round(y, 2), fold) in backs, f"{doc.name}: {p.kind} {p.id}"
                    if p.kind in rect_kinds:
                        ticks = [m for m in folds if abs(m.x0 - (x + w)) < 0.01]
                        assert len(ticks) >= 2 and all(m.length >= 3 - 1e-3 for m in ticks)
                        # something is drawn on both halves
                        assert set(_pixels(pdf[number], (x + w, y, w, h), 0.5)) != {255}
                    pairs += 1
    assert pairs, f"{game}: no folded pairs"
