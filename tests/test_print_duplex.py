"""Backs in register, for every game's kit on Letter and A4, measured on the PDFs: copies of one back
render identically (pixel-aligned), `--back-offset X,Y` moves the back pages by exactly that, the
calibration sheet is written with its scales, and `--duplex fold` puts each back beside its front,
mirrored about a dashed fold line, on single-sided sheets (tests/test_print_fold.py; the ink saver's
backs: tests/test_print_ink_saver.py; each its own file, so that the two pytest-xdist workers measure
their builds side by side)."""
from __future__ import annotations

import json
import pymupdf
import pytest

from generator.layouts import load_layout
from generator.sheets import SheetOptions
from print_kits import GAMES, MM, PAPERS, black_lines, imposed

OFFSET = (1.5, -1.0)


@pytest.fixture(scope="module")
def plain_out(kit_builds):
    return kit_builds()


@pytest.fixture(scope="module")
def offset_out(kit_builds):
    return kit_builds(back_offset=OFFSET)


def _pixels(page: pymupdf.Page, box, zoom: float = 2.0) -> bytes:
    """The box rendered with its top-left corner on a pixel corner."""
    x, y, w, h = (v * MM for v in box)
    matrix = pymupdf.Matrix(zoom, 0, 0, zoom, -x * zoom, -y * zoom)
    return page.get_pixmap(matrix=matrix, clip=pymupdf.Rect(x, y, x + w, y + h), alpha=False).samples


def _same(a: bytes, b: bytes) -> bool:
    """The same pixels, but for the rasterizer's rounding where an edge falls between samples (a few
    samples a few levels apart; a different or shifted face differs in thousands)."""
    if len(a) != len(b):
        return False
    off = [abs(p - q) for p, q in zip(a, b) if p != q]
    return len(off) <= len(a) // 1000 and max(off, default=0) <= 32


def _double_sided_docs(game, paper, options=SheetOptions()):
    return [d for d in imposed(game, paper, options) if any(p.role == "back" for p in d.pages)]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_copies_of_a_back_render_identically(plain_out, game, paper):
    compared = 0
    for doc in _double_sided_docs(game, paper):
        renders: dict = {}
        with pymupdf.open(plain_out / paper / game / f"{doc.name}.pdf") as pdf:
            for number, page in enumerate(doc.pages):
                if page.role != "back":
                    continue
                for p in page.placements:
                    # inset 0.5 mm: the butted neighbours' edges may tint the outermost pixels
                    x, y, w, h = p.box
                    inner = (x + 0.5, y + 0.5, w - 1, h - 1)
                    image = _pixels(pdf[number], inner)
                    first = renders.setdefault((p.kind, p.id, round(w, 2)), image)
                    assert _same(first, image), \
                        f"{doc.name} page {number + 1}: copies of the back of {p.kind} {p.id} differ"
                    compared += 1
    assert compared, f"{game} has no double-sided cards"


def _vertical_xs(marks):
    return sorted({round(m.x0, 2) for m in marks if m.vertical and not m.dashed})


def _horizontal_ys(marks):
    return sorted({round(m.y0, 2) for m in marks if m.horizontal and not m.dashed})


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_back_offset_moves_the_back_pages_by_exactly_that(plain_out, offset_out, game, paper):
    pen = load_layout().sheets.crop_marks.width
    dx, dy = OFFSET
    docs = _double_sided_docs(game, paper)
    rect = {s.kind for s in _rect_kinds(game)}
    for doc in docs:
        with pymupdf.open(plain_out / paper / game / f"{doc.name}.pdf") as unmoved, \
                pymupdf.open(offset_out / paper / game / f"{doc.name}.pdf") as moved:
            for number, page in enumerate(doc.pages):
                if page.section != doc.pages[number].section or page.role not in ("front", "back"):
                    continue
                before, after = black_lines(unmoved[number], pen), black_lines(moved[number], pen)
                if page.role == "front":        # fronts stay put
                    assert _vertical_xs(after) == _vertical_xs(before)
                    assert _horizontal_ys(after) == _horizontal_ys(before)
                    continue
                if page.section in rect:      # round tokens have cut guides, not marks
                    assert _vertical_xs(before), f"{doc.name} page {number + 1}: no marks"
                    assert _vertical_xs(after) == [round(x + dx, 2) for x in _vertical_xs(before)]
                    assert _horizontal_ys(after) == [round(y + dy, 2) for y in _horizontal_ys(before)]
                # the faces move with their marks: the same pixels, one offset further on
                x, y, w, h = page.placements[0].box
                x, y, w, h = x + 0.5, y + 0.5, w - 1, h - 1
                assert _same(_pixels(moved[number], (x + dx, y + dy, w, h)),
                             _pixels(unmoved[number], (x, y, w, h)))


def test_the_calibration_sheet_has_the_cross_and_the_scales_and_its_back_moves(plain_out, offset_out):
    manifest = json.loads((offset_out / "manifest.json").read_text())
    sheets = {c["paper"]: c for c in manifest["calibration"]}
    assert set(sheets) == set(PAPERS)
    for paper in PAPERS:
        paths = [root / sheets[paper]["path"] for root in (plain_out, offset_out)]
        (plain, moved) = (pymupdf.open(p) for p in paths)
        with plain, moved:
            assert len(plain) == len(moved) == 2
            w, h = plain[0].rect.width / MM, plain[0].rect.height / MM
            cross = [m for m in black_lines(plain[0], 0.4) if m.length > 100]
            assert {(m.vertical, round(m.x0, 2) if m.vertical else round(m.y0, 2)) for m in cross} == \
                {(True, round(w / 2, 2)), (False, round(h / 2, 2))}
            zero = [m for m in black_lines(plain[1], 0.12) if abs(m.length - 4.0) < 0.01]
            zero_at = {(round(m.x0, 2), round(m.y0, 2)) for m in zero if m.vertical}
            assert zero_at == {(round(w / 2, 2), round(h / 2 - 30, 2))}
            moved_zero = [m for m in black_lines(moved[1], 0.12) if abs(m.length - 4.0) < 0.01 and m.vertical]
            assert [round(m.x0, 2) for m in moved_zero] == [round(w / 2 + OFFSET[0], 2)]
            text = moved[1].get_text()
            assert "--back-offset 1.5,-1" in text and "X" in text


def _rect_kinds(game, kit=None):
    """The kit's double-sided rectangular card sections."""
    from generator.kits import make_kit
    from generator.kits.base import CardSection, KitContext
    kit = kit or make_kit(game, KitContext())
    return [s for s in kit.sections
            if isinstance(s, CardSection) and s.shape == "rect" and s.draw_back is not None]
