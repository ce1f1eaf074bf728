"""Boards: tiling that covers the board with overlap, tiles that line up when glued, the assembly
page, and the whole board on one copy-shop sheet."""
from __future__ import annotations

from pathlib import Path

import pypdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.build import BuildOptions, build
from generator.layouts import load_layout
from generator.sheets.boards import content_area, large_paper, plan_tiles
from pdf_measure import MARGIN, ink_box, ink_in_margin, open_pdf, raster, shapes
from synthetic_kit import BOARD, GAME, build_kit

TOL = 0.05
LAYOUT = load_layout()
OVERLAP = LAYOUT.sheets.board.overlap
BOARD_PDF = f"{GAME}-board-letter.pdf"
LARGE_PDF = f"{GAME}-board-{large_paper(BOARD, LAYOUT.papers['letter'], LAYOUT)[0]}.pdf"


@given(st.floats(min_value=50, max_value=900), st.floats(min_value=50, max_value=900),
       st.sampled_from(["letter", "a4"]))
@settings(max_examples=150, deadline=None)
def test_tiles_fit_the_page_and_cover_the_board_with_overlap(w, h, paper):
    size = LAYOUT.papers[paper].size
    plan = plan_tiles((w, h), size, LAYOUT)
    _, _, aw, ah = content_area(size, LAYOUT)
    tw, th = plan.tile
    on_page = (th, tw) if plan.turned else (tw, th)
    assert on_page[0] <= aw + 1e-6 and on_page[1] <= ah + 1e-6
    if plan.count == 1:
        assert plan.tile == pytest.approx((w, h))
        return
    first = plan.region(0, 0)
    last = plan.region(plan.rows - 1, plan.cols - 1)
    assert first[:2] == (0, 0)
    assert last[0] + last[2] == pytest.approx(w) and last[1] + last[3] == pytest.approx(h)
    if plan.cols > 1:   # neighbours share exactly the overlap
        a, b = plan.region(0, 0), plan.region(0, 1)
        assert a[0] + a[2] - b[0] == pytest.approx(OVERLAP)
    if plan.rows > 1:
        a, b = plan.region(0, 0), plan.region(1, 0)
        assert a[1] + a[3] - b[1] == pytest.approx(OVERLAP)


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("boards")
    build(BuildOptions(out=root, formats=("pdf",), papers=("letter",)), kits={GAME: build_kit()})
    return root / "letter" / GAME


def board_frame(page):
    """The synthetic board's outer frame (drawn at board 0,0): where the board's origin landed."""
    return next(s for s in shapes(page, "rects") if abs(s.w - BOARD[0]) < 0.1 and abs(s.h - BOARD[1]) < 0.1)


def guide_lines(page):
    colour = LAYOUT.sheets.board.guide_colour
    rgb = tuple(round(int(colour[i:i + 2], 16) / 255, 3) for i in (1, 3, 5))
    return [s for s in shapes(page, "lines") if s.stroke and tuple(round(v, 3) for v in s.stroke) == rgb]


def crop_lines(page):
    return [s for s in shapes(page, "lines") if s.stroke == (0,) or s.stroke == (0.0, 0.0, 0.0)]


def test_board_pdf_is_cover_assembly_then_tiles(out):
    plan = plan_tiles(BOARD, LAYOUT.papers["letter"].size, LAYOUT)
    assert plan.count == 4 and (plan.rows, plan.cols) == (2, 2)
    reader = pypdf.PdfReader(out / BOARD_PDF)
    assert len(reader.pages) == 3 + plan.count          # the cover, its verso, the assembly, the tiles
    assembly = reader.pages[2].extract_text()
    assert "How to assemble" in assembly
    for name in ("A1", "A2", "B1", "B2"):
        assert name in assembly
        assert f"tile {name}" in " ".join(p.extract_text() for p in reader.pages[3:])


def test_tiles_line_up_the_next_tiles_edge_on_the_guide_line(out):
    """On A1 the dashed guide sits where A2's cut edge shows the same point of the board."""
    with open_pdf(out / BOARD_PDF) as pdf:
        a1, a2, b1 = pdf.pages[3], pdf.pages[4], pdf.pages[5]
        o1, o2, o3 = board_frame(a1), board_frame(a2), board_frame(b1)
        vertical = [g for g in guide_lines(a1) if g.w < 0.01]
        horizontal = [g for g in guide_lines(a1) if g.h < 0.01]
        assert len(vertical) == 1 and len(horizontal) == 1
        # A2 is cut on its left edge: its crop marks above the tile give that edge's x
        a2_left = min(m.x0 for m in crop_lines(a2) if m.w < 0.01)
        b1_top = min(m.top for m in crop_lines(b1) if m.h < 0.01)
        assert vertical[0].x0 - o1.x0 == pytest.approx(a2_left - o2.x0, abs=TOL)
        assert horizontal[0].top - o1.top == pytest.approx(b1_top - o3.top, abs=TOL)
        # ... and that edge is the overlap away from the end of A1's part of the board
        plan = plan_tiles(BOARD, LAYOUT.papers["letter"].size, LAYOUT)
        assert a2_left - o2.x0 == pytest.approx(plan.region(0, 1)[0], abs=TOL)


def test_tiles_show_the_board_only_inside_their_cut_area(out):
    """The board is clipped to each tile: beyond the tile edge the paper stays white."""
    dpi = 72
    with open_pdf(out / BOARD_PDF) as pdf:
        for index in range(3, 7):
            page = pdf.pages[index]
            marks = crop_lines(page)
            left = min(m.x0 for m in marks if m.w < 0.01)
            right = max(m.x0 for m in marks if m.w < 0.01)
            top = min(m.top for m in marks if m.h < 0.01)
            image = raster(out / BOARD_PDF, index + 1, dpi)
            px = lambda mm: int(round(mm / 25.4 * dpi))  # noqa: E731
            # a band 2-4 mm left of the tile's left cut edge, level with the middle of the tile
            assert ink_box(image, (px(left - 4), px(top + 40), px(left - 2), px(top + 120))) is None
            if right - left > 1:
                assert ink_box(image, (px(right + 2), px(top + 40), px(right + 4), px(top + 120))) is None


def test_no_ink_in_the_margin_of_any_board_page(out):
    for name in (BOARD_PDF, LARGE_PDF):
        pages = len(pypdf.PdfReader(out / name).pages)
        for page in range(1, pages + 1):
            assert ink_in_margin(out / name, page) == [], f"{name} page {page}"


def test_the_whole_board_at_real_size_on_one_large_sheet(out):
    found = large_paper(BOARD, LAYOUT.papers["letter"], LAYOUT)
    assert found is not None
    pid, sheet = found
    assert pid in LAYOUT.papers["letter"].large
    reader = pypdf.PdfReader(out / LARGE_PDF)
    assert len(reader.pages) == 3   # the cover, its verso and the board
    w, h = float(reader.pages[2].mediabox.width), float(reader.pages[2].mediabox.height)
    assert (w * 25.4 / 72, h * 25.4 / 72) == pytest.approx(sheet.size, abs=0.01)
    with open_pdf(out / LARGE_PDF) as pdf:
        frame = board_frame(pdf.pages[2])
        assert frame.w == pytest.approx(BOARD[0], abs=TOL) and frame.h == pytest.approx(BOARD[1], abs=TOL)
        assert not guide_lines(pdf.pages[2])
    # and the board PDF's cover says where it is
    assert LARGE_PDF in pypdf.PdfReader(out / BOARD_PDF).pages[0].extract_text()


def test_a_board_that_fits_is_one_page_without_assembly(tmp_path):
    from generator.kits.base import BoardSection, Kit
    from synthetic_kit import board

    small = Kit(GAME, "Small", (BoardSection("board", "small", "Small board", (150.0, 200.0), board),))
    build(BuildOptions(out=tmp_path, formats=("pdf",), papers=("a4",)), kits={GAME: small})
    folder = tmp_path / "a4" / GAME
    assert sorted(p.name for p in folder.iterdir()) == [f"{GAME}-board-a4.pdf"]
    reader = pypdf.PdfReader(folder / f"{GAME}-board-a4.pdf")
    assert len(reader.pages) == 3   # the cover, its verso and the board
    assert "How to assemble" not in reader.pages[2].extract_text()
    with open_pdf(folder / f"{GAME}-board-a4.pdf") as pdf:
        marks = crop_lines(pdf.pages[2])
        xs = sorted({round(m.x0, 2) for m in marks if m.w < 0.01})
        ys = sorted({round(m.top, 2) for m in marks if m.h < 0.01})
        assert len(xs) == 2 and len(ys) == 2     # cut on all four sides
        assert xs[1] - xs[0] == pytest.approx(150.0, abs=TOL)
        assert ys[1] - ys[0] == pytest.approx(200.0, abs=TOL)
        assert min(m.x0 for m in marks) >= MARGIN


def registration_ticks(page):
    """The short dark ticks (0.25 mm) drawn across the seams of a tiled board."""
    return [s for s in shapes(page, "lines") if s.stroke and abs(s.width_line - 0.25) < 0.01
            and all(abs(v - 0.133) < 0.01 for v in s.stroke)]


def test_registration_ticks_cross_each_seam_at_the_same_board_points_on_both_tiles(out):
    """A1 carries ticks across its guide line; A2 (glued over it) carries ticks from its cut edge at the
    same board heights, so laid right each tick runs on straight across the seam."""
    with open_pdf(out / BOARD_PDF) as pdf:
        a1, a2 = pdf.pages[3], pdf.pages[4]
        o1, o2 = board_frame(a1), board_frame(a2)
        guide = next(g for g in guide_lines(a1) if g.w < 0.01).x0
        across = [t for t in registration_ticks(a1) if t.h < 0.01 and t.x0 < guide - 1 < guide + 1 < t.x1]
        a2_left = min(m.x0 for m in crop_lines(a2) if m.w < 0.01)
        from_edge = [t for t in registration_ticks(a2) if t.h < 0.01 and abs(t.x0 - a2_left) < TOL]
        assert len(across) >= 2
        assert sorted(round(t.top - o1.top, 2) for t in across) == \
            sorted(round(t.top - o2.top, 2) for t in from_edge)
