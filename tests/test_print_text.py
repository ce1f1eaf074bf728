"""Text people can read: no text span of any PDF of any kit, on either paper, is under 6 pt.

Measured in the written PDFs (pymupdf's span sizes), so a size chosen anywhere (a layout's minimum, a
drawing's own multiplier, a sheet label shrunk to fit) is caught. Both ink modes print the same words
at the same sizes; the default one is measured.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.kits import games_with_kits

pymupdf = pytest.importorskip("pymupdf")

MIN_PT = 6.0


def spans(path: Path):
    """(page number, size in pt, text) of every non-blank text span of the PDF."""
    with pymupdf.open(str(path)) as doc:
        for number, page in enumerate(doc, 1):
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", ()):
                    for span in line["spans"]:
                        if span["text"].strip():
                            yield number, span["size"], span["text"]


@pytest.fixture(scope="module", params=games_with_kits())
def kit_pdfs(request, kit_builds):
    """The game's PDFs on both papers, with the calibration sheets the build prints beside them."""
    out = kit_builds(papers=("letter", "a4"))
    pdfs = sorted([*out.glob(f"*/{request.param}/*.pdf"), *out.glob("*/back-offset-calibration-*.pdf")])
    assert pdfs, f"{request.param}: no PDF written"
    return request.param, pdfs


def test_no_text_under_6_pt_in_any_pdf_of_the_kit(kit_pdfs):
    game, pdfs = kit_pdfs
    small = [f"{pdf.name} p{page}: {size:.2f} pt {text!r}" for pdf in pdfs
             for page, size, text in spans(pdf) if size < MIN_PT - 0.01]
    assert not small, f"{game}: {len(small)} spans under {MIN_PT} pt, e.g.\n" + "\n".join(small[:15])


def test_the_measure_sees_the_kit_text(kit_pdfs):
    """The span reader finds the words (a PDF drawn as outlines would pass the size test vacuously)."""
    game, pdfs = kit_pdfs
    for pdf in pdfs:
        sizes = [size for _, size, _ in spans(pdf)]
        assert len(sizes) > 5, f"{pdf.name}: only {len(sizes)} text spans found"


def cover_pages(doc) -> int:
    """1, or 2 when the cover has a verso (the kit's contents on the back of the cover)."""
    return 2 if len(doc) > 1 and "the back of the cover" in doc[1].get_text() else 1


def test_every_cover_says_where_the_rules_are_and_the_summary_is_in_the_kit(kit_pdfs):
    """Rules in the kit: each cover names the file holding the kit's own rules reference (which
    does hold it) and where the full rules are."""
    import re

    game, pdfs = kit_pdfs
    covers = 0
    for pdf in pdfs:
        with pymupdf.open(str(pdf)) as doc:
            cover = " ".join(" ".join(page.get_text() for page in list(doc)[:cover_pages(doc)]).split())
        if "What the kit contains" not in cover:
            continue          # a calibration sheet, not a part of the kit: it has no cover
        covers += 1
        assert "Full rules:" in cover, pdf.name
        named = re.search(r"Rules: the (rules reference cards?|reference cards|rules summary)[^(]*\(([^)]*?)"
                          r"(?:, )?in ([\w-]+)\)", cover)
        assert named, f"{pdf.name}: the cover names no rules reference in the kit"
        paper = pdf.parent.parent.name            # output/<paper>/<game>/…
        holder = pdf.parent / f"{named.group(3)}-{paper}.pdf"
        assert holder.exists(), f"{pdf.name} points at {holder.name}"
        with pymupdf.open(str(holder)) as doc:     # past its cover (and the cover's verso)
            text = " ".join(" ".join(page.get_text() for page in list(doc)[cover_pages(doc):]).split()).lower()
        what = named.group(1).lower().replace(" cards", "").replace(" card", "")   # "rules reference", …
        assert what in text, f"{holder.name} holds no {what}"
    assert covers >= 2, f"{game}: {covers} covers"
