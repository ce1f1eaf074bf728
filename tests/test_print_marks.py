"""Cuts you can find: on every sheet of every game's kit, on Letter and A4, every cut line of a
rectangular card or piece is continued by a crop mark at least 3 mm long that lies inside the
printable area (where a home printer prints) and crosses no component; round pieces carry their
own cut guide. Measured on the PDFs (pymupdf drawings) against where imposition placed each piece."""
from __future__ import annotations

import pymupdf
import pytest

from generator.layouts import load_layout
from print_kits import GAMES, PAPERS, black_lines, imposed, shapes_of

LEAST = 3.0
TOL = 0.01


@pytest.fixture(scope="module")
def out(kit_builds):
    return kit_builds()


def _outside(mark, boxes) -> bool:
    x0, x1 = sorted((mark.x0, mark.x1))
    y0, y1 = sorted((mark.y0, mark.y1))
    return all(x1 <= bx + 0.05 or x0 >= bx + bw - 0.05 or y1 <= by + 0.05 or y0 >= by + bh - 0.05
               for bx, by, bw, bh in boxes)


def _found(edge: str, value: float, box, marks) -> bool:
    """A mark on the line of the box's `edge` (x for vertical edges, y for horizontal ones)."""
    x, y, w, h = box
    if edge in ("left", "right"):
        return any(m.vertical and abs(m.x0 - value) < TOL for m in marks)
    return any(m.horizontal and abs(m.y0 - value) < TOL for m in marks)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_every_cut_has_a_mark_at_least_3_mm_long_inside_the_printable_area(out, game, paper):
    layout = load_layout()
    margin, pen = layout.margin, layout.sheets.crop_marks.width
    shapes = shapes_of(game)
    checked = 0
    for doc in imposed(game, paper):
        with pymupdf.open(out / paper / game / f"{doc.name}.pdf") as pdf:
            assert len(pdf) == len(doc.pages)
            for number, (page, drawn) in enumerate(zip(doc.pages, pdf), 1):
                if page.role not in ("front", "back", "tile", "board"):
                    continue
                where = f"{doc.name} page {number}"
                boxes = [p.box for p in page.placements]
                marks = [m for m in black_lines(drawn, pen) if _outside(m, boxes)]
                W, H = page.size
                for m in marks:
                    assert m.length >= LEAST - 1e-3, f"{where}: a {m.length:.2f} mm mark at {m}"
                    assert min(m.x0, m.x1) >= margin - 1e-3 and max(m.x0, m.x1) <= W - margin + 1e-3, where
                    assert min(m.y0, m.y1) >= margin - 1e-3 and max(m.y0, m.y1) <= H - margin + 1e-3, where
                if page.role not in ("front", "back"):
                    assert marks, f"{where}: a board page without crop marks"
                    continue
                for p in page.placements:
                    if shapes.get(p.kind) != "rect":
                        continue
                    x, y, w, h = p.box
                    for edge, value in (("left", x), ("right", x + w), ("top", y), ("bottom", y + h)):
                        assert _found(edge, value, p.box, marks), \
                            f"{where}: no mark of {LEAST} mm on the {edge} cut of {p.kind} {p.id}"
                        checked += 1
    assert checked, "no cut line was checked"


def test_letter_poker_cards_lie_turned_eight_a_sheet_with_full_marks(out):
    """3 × 3 poker cards leave 1.35 mm above and below on Letter: they go 2 × 4, turned, instead."""
    (doc,) = [d for d in imposed("shinjuku", "letter") if d.name == "shinjuku-cards-letter"]
    front = next(p for p in doc.pages if p.role == "front" and p.section == "ward-card")
    boxes = [p.box for p in front.placements]
    assert len(boxes) == 8
    assert {(round(b[2], 2), round(b[3], 2)) for b in boxes} == {(88.0, 63.0)}
    pen = load_layout().sheets.crop_marks.width
    with pymupdf.open(out / "letter" / "shinjuku" / "shinjuku-cards-letter.pdf") as pdf:
        marks = [m for m in black_lines(pdf[doc.pages.index(front)], pen) if _outside(m, boxes)]
    assert marks and min(m.length for m in marks) >= 4.9
