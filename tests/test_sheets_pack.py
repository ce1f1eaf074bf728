"""Single-sided pieces share sheets: sections flow down the page under captions, nothing leaves the
printable area or lands on another piece, and crop marks go round the pieces actually printed."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pypdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.build import BuildOptions, build
from generator.kits.base import CardSection, Item, Kit
from generator.layouts import load_layout
from generator.sheets import impose
from generator.sheets.marks import trim_mark_lines
from generator.sheets.pack import plan_bands, sheet_marks
from pdf_measure import MARGIN, ink_in_margin, open_pdf, shapes, svg_components, svg_tree
from synthetic_kit import (CARD_IDS, GAME, PIECE_STOCK, PIECES, STICKERS, build_kit, build_pieces_kit,
                           piece_front, pieces_section)

LAYOUT = load_layout()
MARKS = LAYOUT.sheets.crop_marks
REACH = MARKS.offset + MARKS.length        # how far a crop mark may reach from its trim
PAPER_MM = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}
TOL = 0.05


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("pack")
    build(BuildOptions(out=root), kits={GAME: build_pieces_kit()})
    return root


def pdf_path(out: Path, paper: str) -> Path:
    return out / paper / GAME / f"{GAME}-cards-{paper}.pdf"


def documents(paper: str):
    (doc,) = impose(build_pieces_kit(), paper)
    return doc


def piece_pages(doc) -> list[int]:
    """0-based indexes of the shared piece sheets (everything but the cover and card pages)."""
    return [i for i, p in enumerate(doc.pages)
            if p.role == "front" and all(pl.kind != "test-card" for pl in p.placements)]


def overlaps(a, b, tol: float = 1e-6) -> bool:
    return (min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]) > tol and
            min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]) > tol)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_small_piece_sections_share_sheets(out, paper):
    doc = documents(paper)
    sheets = piece_pages(doc)
    sections = len(PIECES) + 1
    # coins + badges (before the cards), houses + rails + flags (after them), stickers (other stock)
    assert len(sheets) == 3 < sections
    kinds = [[k for k in dict.fromkeys(pl.kind for pl in doc.pages[i].placements)] for i in sheets]
    assert kinds == [["coin", "badge"], ["house", "rail", "flag"], ["sticker"]]
    # the cards keep their own front / back pairs, in kit order between the two runs of pieces;
    # after the cover and its verso, each single-sided sheet is followed by a blank page (the file
    # has backs: sent whole to a duplex printer nothing is printed behind a sheet of pieces)
    roles = [(p.role, {pl.kind for pl in p.placements}) for p in doc.pages[2:]]
    assert roles[2:6] == [("front", {"test-card"}), ("back", {"test-card"})] * 2
    assert [r for r, _ in roles[:2]] == ["front", "blank"] and [r for r, _ in roles[6:]] == ["front", "blank"] * 2
    assert len(pypdf.PdfReader(pdf_path(out, paper)).pages) == len(doc.pages) == 2 + 4 + 3 * 2
    # every piece printed once per copy
    printed = Counter((pl.kind, pl.id) for i in sheets for pl in doc.pages[i].placements)
    expected = Counter()
    for kind, (_, _, _, copies) in list(PIECES.items()) + [(STICKERS[0], STICKERS[1:])]:
        expected[(kind, f"{kind}-a")] += copies - copies // 2
        expected[(kind, f"{kind}-b")] += copies // 2
    assert printed == expected


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_piece_stays_inside_the_margin_and_apart(out, paper):
    doc = documents(paper)
    w, h = PAPER_MM[paper]
    for index in piece_pages(doc):
        boxes = [pl.box for pl in doc.pages[index].placements]
        for x, y, bw, bh in boxes:
            assert x >= MARGIN and y >= MARGIN and x + bw <= w - MARGIN and y + bh <= h - MARGIN
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert not overlaps(a, b), f"page {index + 1}: {a} and {b} overlap"
    # ... and measured in the PDF: the pieces' outlines, and no ink at all in the margin
    sizes = {spec[1] for spec in PIECES.values()} | {STICKERS[2]}
    with open_pdf(pdf_path(out, paper)) as pdf:
        for index in piece_pages(doc):
            page = pdf.pages[index]
            found = [s for s in shapes(page, "rects") + shapes(page, "curves")
                     if s.fill and any(abs(s.w - sw) < TOL and abs(s.h - sh) < TOL for sw, sh in sizes)]
            assert len(found) == len(doc.pages[index].placements)
            for s in found:
                assert s.x0 >= MARGIN and s.top >= MARGIN
                assert s.x1 <= w - MARGIN and s.bottom <= h - MARGIN
    for page in range(1, len(doc.pages) + 1):
        assert ink_in_margin(pdf_path(out, paper), page) == [], f"page {page}"


def _marks(page):
    return [s for s in shapes(page, "lines") if s.stroke in ((0,), (0.0, 0.0, 0.0)) and
            (s.w < 0.01 or s.h < 0.01)]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_crop_marks_go_round_the_printed_pieces_only(out, paper):
    doc = documents(paper)
    w, h = PAPER_MM[paper]
    with open_pdf(pdf_path(out, paper)) as pdf:
        for index in piece_pages(doc):
            boxes = [pl.box for pl in doc.pages[index].placements]
            rect = [pl.box for pl in doc.pages[index].placements if pl.kind in ("house", "rail", "sticker")]
            marks = _marks(pdf.pages[index])
            assert bool(marks) == bool(rect)
            if not rect:
                continue
            for m in marks:
                box = (m.x0, m.top, m.w, m.h)
                assert not any(overlaps(box, b, -0.15) for b in boxes), "a mark touches a piece"
                assert m.x0 >= MARGIN and m.top >= MARGIN and m.x1 <= w - MARGIN and m.bottom <= h - MARGIN
                # never below the last row of pieces (nor beside empty rows): within reach of a trim
                assert m.bottom <= max(b[1] + b[3] for b in rect) + REACH + TOL
                assert any(b[1] - REACH - TOL <= m.top and m.bottom <= b[1] + b[3] + REACH + TOL and
                           b[0] - REACH - TOL <= m.x0 and m.x1 <= b[0] + b[2] + REACH + TOL
                           for b in rect), "a mark far from every piece"
            # every vertical cut line of the pieces has a tick beyond both of its ends
            vertical = [m for m in marks if m.w < 0.01]
            for x in {round(v, 2) for b in rect for v in (b[0], b[0] + b[2])}:
                ends = [b for b in rect if abs(b[0] - x) < TOL or abs(b[0] + b[2] - x) < TOL]
                top, bottom = min(b[1] for b in ends), max(b[1] + b[3] for b in ends)
                at = [m for m in vertical if abs(m.x0 - x) < TOL]
                assert any(m.bottom <= top for m in at) and any(m.top >= bottom for m in at), x


def test_no_crop_marks_below_the_last_row_of_a_part_filled_card_sheet(tmp_path):
    """The test cards' second sheet is part filled: marks round its rows, none lower."""
    build(BuildOptions(out=tmp_path, formats=("pdf",), papers=("letter",)), kits={GAME: build_kit()})
    path = tmp_path / "letter" / GAME / f"{GAME}-cards-letter.pdf"
    doc = next(d for d in impose(build_kit(), "letter") if d.name == f"{GAME}-cards-letter")
    last_front = max(i for i, p in enumerate(doc.pages) if p.role == "front" and
                     {pl.kind for pl in p.placements} == {"test-card"})
    with open_pdf(path) as pdf:
        for index in (last_front, last_front + 1):           # the fronts and their backs
            trims = [pl.box for pl in doc.pages[index].placements]
            per_sheet = len(doc.pages[last_front - 2].placements)     # a full sheet's cards
            assert len(trims) == sum(CARD_IDS.values()) - per_sheet
            bottom = max(t[1] + t[3] for t in trims)
            marks = _marks(pdf.pages[index])
            assert marks and max(m.bottom for m in marks) <= bottom + REACH + TOL
            rows = len({round(t[1], 2) for t in trims})
            assert len({round(m.top, 2) for m in marks if m.h < 0.01}) == rows + 1   # the rows' cuts


def test_captions_and_page_labels_name_the_sections(out):
    doc = documents("letter")
    reader = pypdf.PdfReader(pdf_path(out, "letter"))
    sheets = piece_pages(doc)
    titles = {kind: spec[0] for kind, spec in PIECES.items()} | {STICKERS[0]: STICKERS[1]}
    for index in sheets:
        text = reader.pages[index].extract_text()
        on_page = dict.fromkeys(pl.kind for pl in doc.pages[index].placements)
        for kind in on_page:
            assert f"{titles[kind]} · " in text, (index, kind)      # its caption
        assert "single-sided sheet · " in text and "sheet 1 of 1" not in text   # the only one
        for kind, title in titles.items():
            if kind not in on_page:
                assert title not in text


def test_cover_marks_the_pieces_that_share_sheets(out):
    text = pypdf.PdfReader(pdf_path(out, "letter")).pages[1].extract_text()     # the cover's verso
    assert "1*" in text and "pieces that share sheets (2 sheets in all)" in text


def test_svg_pages_mirror_the_pdf_pages(out):
    manifest = json.loads((out / "manifest.json").read_text())
    for paper in ("letter", "a4"):
        doc = documents(paper)
        (entry,) = [f for f in manifest["files"] if f["paper"] == paper and f["format"] == "pdf"]
        assert entry["pages"] == len(doc.pages)
        svgs = sorted((out / paper / GAME).glob(f"{GAME}-cards-{paper}-[0-9][0-9].svg"))
        assert len(svgs) == len(doc.pages)
        for page, path in zip(doc.pages, svgs):
            seen = Counter(svg_components(svg_tree(path)))
            assert seen == Counter((pl.kind, pl.id, pl.side) for pl in page.placements), path.name


def test_marks_of_a_ragged_block_end_at_each_cut_line():
    """Five 10 mm squares in rows of three: the short second row has its own ticks, and ticks
    continue the first row's cut lines down into the empty cells, never across a square."""
    trims = [(50.0 + c * 10, 50.0 + r * 10, 10.0, 10.0) for r, c in ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1))]
    lines = trim_mark_lines(trims, (200.0, 200.0), MARGIN, MARKS)
    below = sorted((round(a[0], 2), round(min(a[1], b[1]), 2)) for a, b in lines
                   if a[0] == b[0] and min(a[1], b[1]) > 60)
    assert below == [(50.0, 72.0), (60.0, 72.0), (70.0, 72.0), (80.0, 62.0)]
    right = sorted((round(a[1], 2), round(min(a[0], b[0]), 2)) for a, b in lines
                   if a[1] == b[1] and min(a[0], b[0]) > 60)
    assert right == [(50.0, 82.0), (60.0, 82.0), (70.0, 72.0)]
    for a, b in lines:
        box = (min(a[0], b[0]), min(a[1], b[1]), abs(a[0] - b[0]), abs(a[1] - b[1]))
        assert not any(overlaps(box, t, -0.05) for t in trims)


_section = st.tuples(st.sampled_from(["rect", "circle"]), st.floats(6, 70), st.floats(6, 90),
                     st.integers(1, 80))


@given(st.lists(_section, min_size=1, max_size=6), st.sampled_from(["letter", "a4"]))
@settings(max_examples=120, deadline=None)
def test_any_pieces_pack_inside_the_margin_apart_and_clear_of_marks(specs, paper):
    sections = []
    for n, (shape, w, h, copies) in enumerate(specs):
        size = (w, w) if shape == "circle" else (w, h)
        items = (Item(f"p{n}", copies, data=(size, shape)),)
        sections.append(CardSection(f"piece-{n}", f"Pieces number {n}", size, items, piece_front,
                                    shape=shape))
    page_w, page_h = LAYOUT.papers[paper].size
    sheets = plan_bands(sections, (page_w, page_h), LAYOUT)
    printed = Counter()
    order = []
    for sheet in sheets:
        trims = [(band.section.kind, box) for band in sheet for box in band.trims]
        captions = [band.caption_box for band in sheet if band.caption_box]
        for kind, (x, y, w, h) in trims:
            printed[kind] += 1
            assert x >= MARGIN - 1e-6 and y >= MARGIN - 1e-6
            assert x + w <= page_w - MARGIN + 1e-6 and y + h <= page_h - MARGIN + 1e-6
        boxes = [box for _, box in trims]
        for i, a in enumerate(boxes):
            assert not any(overlaps(a, b) for b in boxes[i + 1:])
            assert not any(overlaps(a, c) for c in captions)
        for x, y, w, h in captions:
            assert x >= MARGIN and y >= MARGIN and x + w <= page_w - MARGIN + 1e-6
        for a, b in sheet_marks(sheet, (page_w, page_h), LAYOUT):
            box = (min(a[0], b[0]), min(a[1], b[1]), abs(a[0] - b[0]), abs(a[1] - b[1]))
            assert box[0] >= MARGIN and box[1] >= MARGIN
            assert box[0] + box[2] <= page_w - MARGIN and box[1] + box[3] <= page_h - MARGIN
            assert not any(overlaps(box, t, -0.05) for t in boxes + captions)
        order += [band.section.kind for band in sheet]
    assert printed == Counter({s.kind: s.items[0].copies for s in sections})
    if order != sorted(order, key=lambda k: int(k.split("-")[1])):
        # Out of kit order only when that saves a sheet.
        from generator.sheets.pack import _flow
        assert len(sheets) < min(len(_flow(sections, (page_w, page_h), LAYOUT, keep_whole=w))
                                 for w in (True, False))


def test_a_sheet_full_of_small_rectangles_keeps_its_page_label(tmp_path):
    """Ticks fill the side lane all the way down: the label goes up beside the first caption."""
    kit = Kit(GAME, "Full", (pieces_section("tile", "Small tiles", (13.0, 13.0), "rect", 330, "card"),
                             pieces_section("chit", "Chits", (13.0, 13.0), "rect", 10, "card")))
    build(BuildOptions(out=tmp_path, formats=("pdf",), papers=("a4",)), kits={GAME: kit})
    path = tmp_path / "a4" / GAME / f"{GAME}-cards-a4.pdf"
    reader = pypdf.PdfReader(path)
    assert len(reader.pages) == 4         # the cover, its verso and two sheets (no backs: no blanks)
    first, second = (p.extract_text() for p in reader.pages[2:])
    assert "single-sided sheet 1 of 2 · Small tiles" in first
    assert "the rest on the next sheet" in first
    assert "single-sided sheet 2 of 2 · Small tiles, Chits" in second
    assert "Small tiles, continued" in second and "Chits · 10 pieces" in second
    for page in (3, 4):
        assert ink_in_margin(path, page) == [], page


def test_first_fit_packs_sections_whole_onto_fewer_sheets_than_kit_order():
    """Small sections of several kinds tuck under the bands of earlier sheets instead of starting new
    ones: here the kit's order needs a fifth sheet (kept whole or flowing), tallest-first needs four."""
    from generator.sheets.pack import _flow

    secs = [pieces_section("house", "Houses", (15.0, 15.0), "rect", 20, PIECE_STOCK),
            pieces_section("card", "Cards", (63.0, 88.0), "rect", 23, PIECE_STOCK),
            pieces_section("hut", "Huts", (15.0, 15.0), "rect", 9, PIECE_STOCK),
            pieces_section("coin", "Coins", (20.0, 20.0), "circle", 19, PIECE_STOCK)]
    paper = PAPER_MM["letter"]
    kit_order = min(len(_flow(secs, paper, LAYOUT, keep_whole=True)),
                    len(_flow(secs, paper, LAYOUT, keep_whole=False)))
    sheets = plan_bands(secs, paper, LAYOUT)
    assert len(sheets) < kit_order
    placed = Counter(band.section.kind for sheet in sheets for band in sheet for _ in band.slots)
    assert placed == {"house": 20, "card": 23, "hut": 9, "coin": 19}
    # Small sections stay whole (one band each); every band inside the margin, none overlapping.
    assert Counter(band.section.kind for sheet in sheets for band in sheet)["house"] == 1
    for sheet in sheets:
        boxes = [box for band in sheet for box in band.trims]
        for box in boxes:
            assert box[0] >= MARGIN - TOL and box[1] >= MARGIN - TOL
            assert box[0] + box[2] <= paper[0] - MARGIN + TOL and box[1] + box[3] <= paper[1] - MARGIN + TOL
        for i, a in enumerate(boxes):
            assert not any(overlaps(a, b) for b in boxes[i + 1:])


def test_runs_of_a_row_group_start_their_own_rows_when_that_costs_no_sheet():
    """Four colours of 8 pieces (a row holds 15): 8 to a row, one colour per row; never an extra sheet."""
    colours = ("red", "blue", "green", "yellow")
    items = tuple(Item(f"{c}-{n}", 2, data=((13.0, 13.0), "rect")) for c in colours for n in range(4))
    plain = CardSection("store", "Stores", (13.0, 13.0), items, piece_front, stock=PIECE_STOCK)
    grouped = CardSection("store", "Stores", (13.0, 13.0), items, piece_front, stock=PIECE_STOCK, row_group=8)
    for paper in PAPER_MM.values():
        loose = plan_bands([plain], paper, LAYOUT)
        sheets = plan_bands([grouped], paper, LAYOUT)
        assert len(sheets) == len(loose) == 1
        assert max(band.grid.cols for sheet in loose for band in sheet) > 8      # a row would mix colours
        rows: dict = {}
        for band in sheets[0]:
            for item, row, col in band.slots:
                rows.setdefault((id(band), row), set()).add(item.id.split("-")[0])
        assert all(len(c) == 1 for c in rows.values()), rows
        assert len(rows) == len(colours)
