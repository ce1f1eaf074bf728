"""Cards and tokens on sheets, measured in the PDF: page sizes, trims, crop marks, duplex backs,
margins and the PDF settings that keep a home printer at 100 %."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pypdf
import pytest

from generator.build import BuildOptions, build
from generator.layouts import load_layout
from generator.sheets.grid import fit_grid, mark_room, mark_span
from pdf_measure import MARGIN, ink_in_margin, open_pdf, page_texts, shapes, words
from synthetic_kit import CARD_IDS, GAME, MARKER, TOKEN_IDS, build_kit

PAGE_PT = {"letter": (612.0, 792.0), "a4": (595.28, 841.89)}
PAPER_MM = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}
CARD = (63.0, 88.0)
TOL = 0.05


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("cards")
    build(BuildOptions(out=root / "long", formats=("pdf",)), kits={GAME: build_kit()})
    build(BuildOptions(out=root / "short", formats=("pdf",), papers=("a4",), duplex="short"),
          kits={GAME: build_kit()})
    return root


def cards_pdf(out: Path, paper: str, duplex: str = "long") -> Path:
    return out / duplex / paper / GAME / f"{GAME}-cards-{paper}.pdf"


def q(value: float) -> float:
    """A position on a quarter-millimetre grid: equal positions compare equal despite float noise."""
    return round(value * 4) / 4


def card_rects(page) -> list:
    """The card frames on a page, upright (63 × 88) or turned (88 × 63)."""
    return [s for s in shapes(page, "rects")
            if sorted((round(s.w), round(s.h))) == sorted((round(CARD[0]), round(CARD[1])))]


def in_block(shape, cells) -> bool:
    """`shape` lies inside the block of card trims `cells` (the block is centred on the page, so a
    back page's block is the front's). The backs' art runs past the block's outer cut lines, mirrored
    (back bleed): those mirrored copies lie outside it."""
    return (min(c.x0 for c in cells) - TOL <= shape.x0 and shape.x1 <= max(c.x1 for c in cells) + TOL
            and min(c.top for c in cells) - TOL <= shape.top and shape.bottom <= max(c.bottom for c in cells) + TOL)


def front_pages(pdf) -> list[int]:
    """0-based indexes of the card front pages (those with the kit's card frames)."""
    return [i for i, p in enumerate(pdf.pages) if card_rects(p)]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_page_sizes_are_exact(out, paper):
    reader = pypdf.PdfReader(cards_pdf(out, paper))
    for page in reader.pages:
        w, h = float(page.mediabox.width), float(page.mediabox.height)
        assert (round(w, 2), round(h, 2)) == PAGE_PT[paper]


@pytest.mark.parametrize("paper,cols,rows,cell", [("a4", 3, 3, CARD), ("letter", 2, 4, CARD[::-1])])
def test_cards_per_sheet_butted_at_63_by_88(out, paper, cols, rows, cell):
    """A4 takes 3 × 3 upright poker cards with full marks; on Letter 3 × 3 would leave 1.35 mm for
    the marks above and below, so the cards lie turned, 2 × 4, with room for full marks."""
    with open_pdf(cards_pdf(out, paper)) as pdf:
        first = pdf.pages[front_pages(pdf)[0]]
        rects = card_rects(first)
        assert len(rects) == cols * rows
        for r in rects:
            assert abs(r.w - cell[0]) <= TOL and abs(r.h - cell[1]) <= TOL
        xs = sorted({round(r.x0, 2) for r in rects})
        ys = sorted({round(r.top, 2) for r in rects})
        assert [round(b - a, 2) for a, b in zip(xs, xs[1:])] == [cell[0]] * (cols - 1)
        assert [round(b - a, 2) for a, b in zip(ys, ys[1:])] == [cell[1]] * (rows - 1)


def _cut_lines(page):
    """x of vertical and y of horizontal crop marks: they continue the cut lines."""
    marks = [s for s in shapes(page, "lines") if s.stroke is not None]
    xs = sorted({round(m.x0, 3) for m in marks if m.w < 0.01})
    ys = sorted({round(m.top, 3) for m in marks if m.h < 0.01})
    return marks, xs, ys


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_crop_marks_continue_the_cut_lines_outside_every_trim(out, paper):
    with open_pdf(cards_pdf(out, paper)) as pdf:
        for index in front_pages(pdf):
            page = pdf.pages[index]
            trims = card_rects(page)
            marks, xs, ys = _cut_lines(page)
            # ticks for the cut lines of the cards on this sheet only: 3 x 3 cards, or on the
            # part-filled last sheet one row of 3 (no ticks down its empty rows)
            assert xs == sorted({round(v, 3) for t in trims for v in (t.x0, t.x1)})
            assert ys == sorted({round(v, 3) for t in trims for v in (t.top, t.bottom)})
            assert len(xs) == len({round(t.x0, 1) for t in trims}) + 1
            assert len(ys) == len({round(t.top, 1) for t in trims}) + 1
            # the marks measure the cards: a card's width and height between neighbouring cut lines
            cell = (trims[0].w, trims[0].h)
            for a, b in zip(xs, xs[1:]):
                assert abs(b - a - cell[0]) <= TOL
            for a, b in zip(ys, ys[1:]):
                assert abs(b - a - cell[1]) <= TOL
            assert all(m.w + m.h >= 3.0 - TOL for m in marks), "every mark at least 3 mm long"
            for m in marks:
                for t in trims:
                    overlap_w = min(m.x1, t.x1) - max(m.x0, t.x0)
                    overlap_h = min(m.bottom, t.bottom) - max(m.top, t.top)
                    assert not (overlap_w > -0.2 and overlap_h > -0.2), "a crop mark touches a card"
                # nothing of a mark reaches the unprintable margin: butt ends, so the stroke
                # widens a mark sideways only
                side_x = m.width_line / 2 if m.w < 0.01 else 0.0
                side_y = m.width_line / 2 if m.h < 0.01 else 0.0
                assert m.x0 - side_x >= MARGIN and m.top - side_y >= MARGIN
                assert m.x1 + side_x <= PAPER_MM[paper][0] - MARGIN
                assert m.bottom + side_y <= PAPER_MM[paper][1] - MARGIN


def test_letter_marks_above_and_below_are_full_length(out):
    """Turned, the cards leave room for 5 mm marks on every side of the block on Letter too."""
    with open_pdf(cards_pdf(out, "letter")) as pdf:
        page = pdf.pages[front_pages(pdf)[0]]
        trims = card_rects(page)
        top = min(t.top for t in trims)
        marks, _, _ = _cut_lines(page)
        above = [m for m in marks if m.w < 0.01 and m.bottom <= top]
        assert len(above) == 3
        for m in above:
            assert m.top >= MARGIN + 0.05 and m.bottom <= top - 1.9
        assert all(m.w + m.h >= 4.9 for m in marks)


@pytest.mark.parametrize("paper", ["a4"])
def test_backs_follow_their_fronts_mirrored_for_long_edge(out, paper):
    order = list(CARD_IDS)
    with open_pdf(cards_pdf(out, paper)) as pdf:
        fronts = front_pages(pdf)
        assert len(fronts) == 2
        page_w = PAPER_MM[paper][0]
        for index in fronts:
            front, back = pdf.pages[index], pdf.pages[index + 1]
            cells = {(round(r.x0, 1), round(r.top, 1)): r for r in card_rects(front)}
            placed = Counter()
            for text, cx, cy in words(front):
                if text in CARD_IDS:
                    cell = next(r for r in cells.values() if r.x0 < cx < r.x1 and r.top < cy < r.bottom)
                    placed[(text, q(cell.x0), q(cell.top))] += 1
            markers = Counter()
            for s in shapes(back, "rects"):
                if s.fill == (0.0, 0.0, 0.0) and abs(s.h - MARKER[2]) < 0.01 and in_block(s, cells.values()):
                    card = order[round(s.w - 1)]
                    # long edge: the card's left edge sits where the front's right edge mirrors to
                    left = s.x0 - MARKER[0]
                    markers[(card, q(page_w - (left + CARD[0])), q(s.top - MARKER[1]))] += 1
            assert markers == placed


def test_turned_backs_on_letter_turn_the_other_way_for_long_edge(out):
    """A card turned a quarter clockwise has its top edge at the page's right; flipped on the long
    edge that edge comes to the left, so its back is turned a quarter the other way, in the
    mirrored column."""
    order = list(CARD_IDS)
    page_w = PAPER_MM["letter"][0]
    with open_pdf(cards_pdf(out, "letter")) as pdf:
        fronts = front_pages(pdf)
        assert len(fronts) == 2
        for index in fronts:
            front, back = pdf.pages[index], pdf.pages[index + 1]
            placed = Counter()
            cells = card_rects(front)
            for text, cx, cy in words(front):
                if text in CARD_IDS:
                    cell = next(r for r in cells if r.x0 < cx < r.x1 and r.top < cy < r.bottom)
                    placed[(text, q(cell.x0), q(cell.top))] += 1
            markers = Counter()
            mx, my, mh = MARKER
            for s in shapes(back, "rects"):
                if s.fill == (0.0, 0.0, 0.0) and abs(s.w - mh) < 0.01 and in_block(s, cells):
                    card = order[round(s.h - 1)]
                    # turned -90: the card's top-left corner at the cell's bottom-left
                    left, bottom = s.x0 - my, s.bottom + mx
                    markers[(card, q(page_w - (left + CARD[1])), q(bottom - CARD[0]))] += 1
            assert markers == placed


def test_short_edge_backs_turn_half_round_with_rows_mirrored(out):
    order = list(CARD_IDS)
    page_h = PAPER_MM["a4"][1]
    with open_pdf(cards_pdf(out, "a4", "short")) as pdf:
        index = front_pages(pdf)[0]
        front, back = pdf.pages[index], pdf.pages[index + 1]
        placed = Counter()
        cells = card_rects(front)
        for text, cx, cy in words(front):
            if text in CARD_IDS:
                cell = next(r for r in cells if r.x0 < cx < r.x1 and r.top < cy < r.bottom)
                placed[(text, q(cell.x0), q(cell.top))] += 1
        markers = Counter()
        for s in shapes(back, "rects"):
            if s.fill == (0.0, 0.0, 0.0) and abs(s.h - MARKER[2]) < 0.01 and in_block(s, cells):
                card = order[round(s.w - 1)]
                # turned 180°: the marker sits at the card's bottom-right, measured from there
                right, bottom = s.x1 + MARKER[0], s.bottom + MARKER[1]
                markers[(card, q(right - CARD[0]), q(page_h - bottom))] += 1
        assert markers == placed


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_no_ink_in_the_unprintable_margin(out, paper):
    path = cards_pdf(out, paper)
    pages = len(pypdf.PdfReader(path).pages)
    for page in range(1, pages + 1):
        assert ink_in_margin(path, page) == [], f"page {page}"


def test_print_scaling_none_trim_boxes_and_embedded_fonts(out):
    reader = pypdf.PdfReader(cards_pdf(out, "letter"))
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None"
    with open_pdf(cards_pdf(out, "letter")) as pdf:
        fronts = front_pages(pdf)
        for index in fronts:
            trims = card_rects(pdf.pages[index])
            box = reader.pages[index].trimbox
            x0 = min(t.x0 for t in trims) * 72 / 25.4
            x1 = max(t.x1 for t in trims) * 72 / 25.4
            assert abs(float(box.left) - x0) < 0.2 and abs(float(box.right) - x1) < 0.2
    fonts = {}
    for page in reader.pages:
        resources = page["/Resources"]
        for name, ref in resources.get("/Font", {}).items():
            fonts[name] = ref.get_object()
    assert fonts
    for font in fonts.values():
        descriptor = font["/FontDescriptor"]
        assert "/FontFile2" in descriptor, f"{font['/BaseFont']} is not embedded"


def test_pdf_text_holds_every_card_and_the_page_labels(out):
    text = "\n".join(page_texts(cards_pdf(out, "letter")))
    for card in CARD_IDS:
        assert card.title() in text
    assert "fronts, sheet 1 of 2" in text and "backs, sheet 2 of 2" in text


def test_round_tokens_have_a_cut_guide_on_each_trim(out):
    layout = load_layout()
    grey = layout.sheets.tokens.guide_colour
    rgb = tuple(round(int(grey[i:i + 2], 16) / 255, 3) for i in (1, 3, 5))
    with open_pdf(cards_pdf(out, "letter")) as pdf:
        guides = [s for p in pdf.pages for s in shapes(p, "curves")
                  if s.stroke and tuple(round(v, 3) for v in s.stroke) == rgb]
    assert len(guides) == sum(TOKEN_IDS.values())
    for g in guides:
        assert abs(g.w - 25.0) <= TOL and abs(g.h - 25.0) <= TOL
    # tokens stand apart: no two guides overlap
    for a in guides:
        for b in guides:
            if a is not b:
                assert (a.x1 <= b.x0 + TOL or b.x1 <= a.x0 + TOL or
                        a.bottom <= b.top + TOL or b.bottom <= a.top + TOL)


def test_mark_spans_never_cross_the_margin():
    marks = load_layout().sheets.crop_marks
    assert mark_span(20.0, marks) == (marks.offset, marks.offset + marks.length)
    assert marks.short_length >= 3.0, "a person finds a cut by a mark at least 3 mm long"
    start, end = mark_span(3.5, marks)
    assert start == marks.short_offset and end == pytest.approx(3.5 - marks.clearance)
    assert end - start >= 3.0
    assert mark_span(1.35, marks) is None      # no 1 mm ticks: the grid turns or loses a row
    # with a bleed the marks start past it
    start, end = mark_span(20.0, marks, bleed=3.0)
    assert start == pytest.approx(3.0 + marks.offset) and end - start == pytest.approx(marks.length)


def test_a_card_too_big_for_the_paper_is_a_clear_error():
    from generator.sheets import LayoutError

    with pytest.raises(LayoutError, match="does not fit"):
        fit_grid((215.9, 279.4), 6.35, (250.0, 88.0), 0.0, mark_room(load_layout().sheets.crop_marks),
                 "poster-card")
