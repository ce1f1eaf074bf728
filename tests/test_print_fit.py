"""Every label inside its box at its size (issue 22 item 3), in every kit, on both papers.

Measured in written PDFs (tests/pdf_text_boxes.py): each text span's glyph box against the shapes
drawn round and beside it. Three faults, each a label a player could not read as printed:

- *cut short*: a span ending in "…" (a shrink-to-fit that gave up and cut the words);
- *overflows*: the span leaves the box it was written in (the smallest band, disc, badge or cell drawn
  under its centre, less half the box's pen), or leaves the component;
- *collides*: the span runs into a mark drawn in its box that does not hold it (an icon, a door, a
  QR code's white square painted over it) or into another span.

Every face of every kit is drawn on a page of its own size (cards and tokens front and back, boards,
and page components in the printable area of Letter and A4): the kit's own drawing, whatever the
sheets around it do. The whole built PDFs of both papers are then read for cut-short words.
"""
from __future__ import annotations

import pytest

from generator.draw import Style
from generator.draw.pdf import write_pdf
from generator.kits import games_with_kits, make_kit
from generator.kits.base import KitContext

from pdf_text_boxes import FacePage, cut_short, face_findings, findings

pymupdf = pytest.importorskip("pymupdf")


@pytest.mark.parametrize("game", games_with_kits())
def test_every_label_of_every_face_stays_in_its_box(game, tmp_path):
    found = face_findings(make_kit(game, KitContext()), tmp_path)
    assert not found, f"{game}: {len(found)} labels out of place, e.g.\n" + "\n".join(
        f"{face}: {f}" for face, f in found[:20])


@pytest.mark.parametrize("game", games_with_kits())
def test_every_label_fits_with_the_address_make_run_prints(game, tmp_path):
    """The QR codes of `make run`'s kits encode a longer address: the faces that make room for a
    code (Jutaku's site cards, Sapporo's tiles) still fit every word."""
    found = face_findings(make_kit(game, KitContext(companion_url="http://tokyo-kit.local:5000")), tmp_path)
    assert not found, f"{game}: " + "\n".join(f"{face}: {f}" for face, f in found[:20])


def _faults(tmp_path, draw) -> list:
    page = FacePage("probe", (40.0, 40.0), draw)
    path = tmp_path / "probe.pdf"
    write_pdf(path, [page])
    with pymupdf.open(str(path)) as doc:
        return findings(doc[0], 1, face=True)


def test_the_measure_finds_each_fault(tmp_path):
    """Each fault the issue listed, drawn on purpose, is found; the same words placed well are not."""
    ring = Style(fill="#ffffff", stroke="#000000", width=0.6)
    pen = Style(fill=None, stroke="#000000", width=0.3)

    def overflowing_disc(c):          # "Plum blossom" on a seal: wider than the disc at its line
        c.circle(20, 20, 8, ring)
        c.text(20, 26, "Plum blossom", 7, anchor="middle")

    def word_into_door(c):            # "ENTR" with the door's top under its baseline
        c.rect(0, 0, 8, 8, Style(fill="#eef3fa", stroke="#000000", width=0.3))
        c.text(4, 2.3, "ENTR", 6.7, font="bold", anchor="middle")
        c.rect(2.4, 2.2, 3.2, 5.8, pen)

    def covered_by_a_code(c):         # a QR code's white square painted over the yen's bottom
        c.text(5, 10, "¥9,000", 10, font="bold")
        c.rect(8, 9.5, 20, 22, Style(fill="#ffffff", stroke=None))

    def cut_short(c):
        c.text(2, 10, "print double-sided,…", 6)

    def off_the_face(c):
        c.text(30, 10, "Settlement", 8)

    def well_placed(c):
        c.circle(20, 20, 12, ring)
        c.text(20, 21, "Plum", 7, anchor="middle")
        c.rect(14, 24, 12, 4, pen)

    kinds = {name: {f.kind for f in _faults(tmp_path, draw)} for name, draw in (
        ("disc", overflowing_disc), ("door", word_into_door), ("code", covered_by_a_code),
        ("cut", cut_short), ("edge", off_the_face), ("fine", well_placed))}
    assert "overflows" in kinds["disc"]
    assert "collides" in kinds["door"]
    assert "collides" in kinds["code"]
    assert "cut short" in kinds["cut"]
    assert "leaves the face" in kinds["edge"]
    assert kinds["fine"] == set()


@pytest.fixture(scope="module")
def built(kit_builds):
    return kit_builds(papers=("letter", "a4"))


def test_no_word_is_cut_short_anywhere_in_the_pdfs(built):
    found = [f"{pdf.parent.parent.name}/{pdf.name} {f}" for pdf in sorted(built.glob("*/*/*.pdf"))
             for f in cut_short(pdf)]
    assert not found, f"{len(found)} spans cut short, e.g.\n" + "\n".join(found[:20])
