"""Small text people can read (issue 22 item 3): every span up to 9 pt that a kit's face prints has
at least 4.5:1 contrast (WCAG 2, AA for normal text) against the colour it is printed on, in both ink
modes.

Measured in PDFs of each face (tests/pdf_text_boxes.py): the span's colour against the fill of the
last opaque shape drawn under its centre (white paper if none). Grey on white, white on a light ward
colour or black on a dark band each fail here.
"""
from __future__ import annotations

import pytest

from generator.draw import Style
from generator.draw.pdf import write_pdf
from generator.kits import games_with_kits, make_kit
from generator.kits.base import KitContext

from pdf_text_boxes import MIN_CONTRAST, FacePage, contrast, face_contrast, low_contrast

pymupdf = pytest.importorskip("pymupdf")


@pytest.mark.parametrize("ink_saver", (False, True), ids=("full-colour", "ink-saver"))
@pytest.mark.parametrize("game", games_with_kits())
def test_small_text_contrasts_with_what_is_under_it(game, ink_saver, tmp_path):
    found = face_contrast(make_kit(game, KitContext(ink_saver=ink_saver)), tmp_path)
    assert not found, f"{game}: {len(found)} small spans under {MIN_CONTRAST}:1, e.g.\n" + "\n".join(
        f"{face}: {f}" for face, f in found[:20])


def test_the_ratio_is_wcags():
    assert contrast((0, 0, 0), (1, 1, 1)) == pytest.approx(21.0)
    grey = (0x83 / 255, 0x83 / 255, 0x84 / 255)
    assert contrast(grey, (1, 1, 1)) == pytest.approx(3.79, abs=0.01)   # Shinjuku's old station kanji


def test_the_measure_finds_pale_text_on_its_band(tmp_path):
    def draw(c):
        c.rect(0, 0, 40, 10, Style(fill="#2f8f4e", stroke=None))
        c.text(2, 6, "of 72 cards", 6, font="bold", fill="#ffffff")    # 4.07:1: too pale
        c.text(2, 20, "新宿", 6.3, fill="#838384")                       # 3.78:1 on paper
        c.text(2, 30, "readable", 6, fill="#000000")
        c.text(2, 38, "BIG WORDS", 14, fill="#838384")                  # large text: not measured
    path = tmp_path / "probe.pdf"
    write_pdf(path, [FacePage("probe", (40.0, 40.0), draw)])
    with pymupdf.open(str(path)) as doc:
        found = {f.text for f in low_contrast(doc[0], 1)}
    assert found == {"of 72 cards", "新宿"}
