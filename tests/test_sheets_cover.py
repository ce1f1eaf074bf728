"""The first sheet of every PDF: on the cover the printing instructions (each print job's pages), the
companion's address and the scale check; on its verso the checklist, what else the table needs and
the notes; and the ink-saver option honoured by the sheets' own drawing."""
from __future__ import annotations

from pathlib import Path

import pypdf
import pytest

from generator.build import BuildOptions, build
from generator.kits.base import KitContext
from pdf_measure import open_pdf, shapes
from synthetic_kit import CARD_IDS, GAME, TOKEN_IDS, build_kit

TOL = 0.05


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("cover")
    build(BuildOptions(out=root / "normal", formats=("pdf",), papers=("a4",)), kits={GAME: build_kit()})
    build(BuildOptions(out=root / "saver", formats=("pdf",), papers=("a4",), ink_saver=True),
          kits={GAME: build_kit(KitContext(ink_saver=True))})
    return root


def pdfs(out: Path, mode: str = "normal") -> list[Path]:
    return sorted((out / mode / "a4" / GAME).glob("*.pdf"))


def test_every_pdf_opens_with_how_to_print_and_the_checklist_on_the_back(out):
    files = pdfs(out)
    assert [p.name for p in files] == [f"{GAME}-board-a2.pdf", f"{GAME}-board-a4.pdf",
                                       f"{GAME}-cards-a4.pdf", f"{GAME}-sheets-a4.pdf"]
    for path in files:
        cover, verso = (p.extract_text() for p in pypdf.PdfReader(path).pages[:2])
        assert "Actual size" in cover and "100 %" in cover and "Fit to page" in cover
        assert "What the kit contains" not in cover and "Scale check" not in verso
        text = verso
        assert "What the kit contains" in text and "You will also need" in text
        for title in ("Test cards", "Test tokens", "Test board", "Score sheet"):
            assert title in text, f"{path.name}: {title}"
        assert str(sum(CARD_IDS.values())) in text and str(sum(TOKEN_IDS.values())) in text
        assert "A note for the cover." in text


def test_cover_says_duplex_only_where_there_are_backs(out):
    """(Each job's pages: test_print_duplex_order.py.)"""
    cards = pypdf.PdfReader(pdfs(out)[2]).pages[0].extract_text()
    sheets = pypdf.PdfReader(pdfs(out)[3]).pages[0].extract_text()
    assert "flip on the long edge" in cards and "Single-sided" not in cards
    assert "Single-sided" in sheets and "flip on" not in sheets


def test_a_50_mm_square_and_a_2_inch_ruler(out):
    with open_pdf(pdfs(out)[2]) as pdf:
        cover = pdf.pages[0]
        squares = [s for s in shapes(cover, "rects")
                   if abs(s.w - s.width_line - 50) < 0.5 and abs(s.h - s.width_line - 50) < 0.5]
        assert len(squares) == 1
        square = squares[0]   # inside edges of its outline: path less half the line each side
        assert square.width_line > 0.1
        assert square.w - square.width_line == pytest.approx(50.0, abs=TOL)
        assert square.h - square.width_line == pytest.approx(50.0, abs=TOL)
        text = pypdf.PdfReader(pdfs(out)[2]).pages[0].extract_text()
        assert "inside its line" in text      # the cover says which edge is 50 mm
        lines = shapes(cover, "lines")
        (base,) = [s for s in lines if s.h < 0.01 and 45 < s.w < 56]   # the ruler's base line
        assert base.w == pytest.approx(50.8, abs=TOL)
        ticks = [s for s in lines if s.w < 0.01 and base.x0 - 0.01 <= s.x0 <= base.x1 + 0.01
                 and abs(s.bottom - base.top) < 0.01]
        assert len(ticks) == 17   # every 1/8 inch, both ends included
        assert max(t.x0 for t in ticks) - min(t.x0 for t in ticks) == pytest.approx(50.8, abs=TOL)


def _dark_fills(page) -> list:
    """Filled shapes darker than mid-grey and larger than 2 cm²."""
    dark = []
    for s in shapes(page, "rects") + shapes(page, "curves"):
        if s.fill and len(s.fill) == 3 and sum(s.fill) / 3 < 0.5 and s.w * s.h > 200:
            dark.append(s)
    return dark


def test_ink_saver_cover_has_no_solid_dark_areas(out):
    with open_pdf(pdfs(out, "normal")[2]) as pdf:
        assert _dark_fills(pdf.pages[0]), "the normal cover has its dark title band"
    with open_pdf(pdfs(out, "saver")[2]) as pdf:
        assert _dark_fills(pdf.pages[0]) == []
    text = pypdf.PdfReader(pdfs(out, "saver")[2]).pages[0].extract_text()
    assert "ink-saver version" in text


def test_a_long_checklist_stays_clear_of_the_scale_check(tmp_path):
    from generator.kits.base import Kit, PageSection
    from synthetic_kit import sheet

    sections = tuple(PageSection("aid", f"aid-{n}", f"Player aid number {n}", sheet) for n in range(24))
    kit = Kit(GAME, "Long Game", sections, notes=("First note.", "Second note."))
    build(BuildOptions(out=tmp_path, formats=("pdf",), papers=("letter",)), kits={GAME: kit})
    with open_pdf(tmp_path / "letter" / GAME / f"{GAME}-sheets-letter.pdf") as pdf:
        cover = pdf.pages[0]
        found = cover.search("Scale check")
        assert len(found) == 1
        heading_top = found[0]["top"]
        # the cover lists the print jobs; 24 pages of aids are one job, above the scale check
        job = cover.search("Pages 3–26")
        assert len(job) == 1 and job[0]["bottom"] < heading_top
        verso = pdf.pages[1]
        last = verso.search("Player aid number 23")
        notes = verso.search("Second note.")
        assert len(last) == 1 and len(notes) == 1
        assert last[0]["bottom"] < verso.height and notes[0]["bottom"] < verso.height


def test_the_header_names_everything_the_file_holds_without_cutting_it_short(out):
    """A file of many sections lists them all in the header (wrapped), never ending in “…”."""
    for path in pdfs(out):
        text = pypdf.PdfReader(path).pages[0].extract_text()
        head = text.split("How to print this file")[0]
        assert "…" not in head, path.name
        assert "…" not in pypdf.PdfReader(path).pages[1].extract_text(), path.name   # nor the checklist
    cards = pypdf.PdfReader(pdfs(out)[2]).pages[0].extract_text().split("How to print")[0]
    assert "Test cards" in cards and "Test tokens" in cards


def test_a_file_on_two_stocks_says_which_stock_is_for_what(tmp_path):
    """Cards and tokens on different stocks in one file: each stock names its components."""
    import dataclasses

    kit = build_kit()
    sections = tuple(dataclasses.replace(s, stock="thick board") if getattr(s, "shape", "") == "circle" else s
                     for s in kit.sections)
    build(BuildOptions(out=tmp_path, formats=("pdf",), papers=("a4",)),
          kits={GAME: dataclasses.replace(kit, sections=sections)})
    path = tmp_path / "a4" / GAME / f"{GAME}-cards-a4.pdf"
    text = " ".join(pypdf.PdfReader(path).pages[0].extract_text().split())
    # each print job names its pages, its components and their stock
    jobs = [line for line in text.split("Page") if " on " in line and ("one side" in line or "double-sided" in line)]
    tokens = [j for j in jobs if "Test tokens" in j]
    cards = [j for j in jobs if "Test cards" in j]
    assert tokens and all("thick board" in j for j in tokens), jobs
    assert cards and all("thick board" not in j for j in cards), jobs


def test_the_cover_prints_the_companion_address_and_explains_the_short_codes(out, tmp_path):
    """Built for the address the companion advertises (what `make run` passes), the cover says where
    to open it and what the code under each QR is for; built for localhost (`make run LOCAL=1`, the
    generator's default) it warns that phones cannot open it."""
    url = "http://tokyo-kit.local:5000"
    build(BuildOptions(out=tmp_path / "lan", formats=("pdf",), papers=("a4",), companion_url=url),
          kits={GAME: build_kit(KitContext(companion_url=url))})
    lan = " ".join(pypdf.PdfReader(pdfs(tmp_path, "lan")[2]).pages[0].extract_text().split())
    assert f"Open {url} on a phone" in lan
    assert f"open {url}/q and type them" in lan and "short code" in lan
    assert "only the computer" not in lan
    local = " ".join(pypdf.PdfReader(pdfs(out)[2]).pages[0].extract_text().split())
    assert "Open http://localhost:5000 on a phone" in local
    assert "only the computer running the companion opens: phones cannot" in local
