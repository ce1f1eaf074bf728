"""`--ink-saver`, for every game's A4 kit, measured on the PDFs: no card back draws a line on its trim
(it would show on the front's edge as soon as duplex shifts the back by a millimetre).

Its own file (it was in tests/test_print_duplex.py), so that under pytest-xdist's --dist loadfile the
ink saver's build and its measures can run on one worker while the other measures another build."""
from __future__ import annotations

import pymupdf
import pytest

from generator.sheets import SheetOptions
from print_kits import GAMES, MM
from test_print_duplex import _double_sided_docs, _rect_kinds


@pytest.fixture(scope="module")
def ink_saver(kit_builds):
    return kit_builds(ink_saver=True, papers=("a4",))


@pytest.mark.parametrize("game", GAMES)
def test_ink_saver_card_backs_draw_no_line_on_the_trim(ink_saver, game):
    """A line on a card back's trim shows on the front's edge as soon as duplex shifts the back by
    a millimetre: the strip just inside each trim edge must not be one dark line. (Card backs: the
    one back every card of a section shares; a second face, such as a site card's blue side, may
    draw the same border as its front.)"""
    backs = _common_backs(game)
    checked = 0
    for doc in _double_sided_docs(game, "a4", SheetOptions(ink_saver=True)):
        with pymupdf.open(ink_saver / "a4" / game / f"{doc.name}.pdf") as pdf:
            for number, page in enumerate(doc.pages):
                if page.role != "back" or page.section not in backs:
                    continue
                pix = pdf[number].get_pixmap(matrix=pymupdf.Matrix(4, 4), colorspace=pymupdf.csGRAY)
                grey = pix.samples_mv   # (a view: `pix.samples` copies the whole page on every read)
                scale = 4 * MM
                for p in page.placements:
                    x, y, w, h = p.box
                    strips = {"top": [(x + w * i / 200, y + 0.15) for i in range(5, 196)],
                              "bottom": [(x + w * i / 200, y + h - 0.15) for i in range(5, 196)],
                              "left": [(x + 0.15, y + h * i / 200) for i in range(5, 196)],
                              "right": [(x + w - 0.15, y + h * i / 200) for i in range(5, 196)]}
                    for edge, points in strips.items():
                        dark = sum(grey[int(py * scale) * pix.stride + int(px * scale)] < 160
                                   for px, py in points)
                        assert dark < len(points) / 2, f"{doc.name} page {number + 1}: {p.kind} {p.id} {edge}"
                    checked += 1
    if backs:
        assert checked


def _common_backs(game) -> set[str]:
    """Kinds of the rectangular double-sided sections whose cards all share one back drawing."""
    from generator.draw.record import Recording
    from generator.kits import make_kit
    from generator.kits.base import KitContext

    kinds = set()
    for section in _rect_kinds(game, make_kit(game, KitContext(ink_saver=True))):
        ops = [Recording.of(lambda c, item=item: section.draw_back(c, item)).ops for item in section.items]
        if len(ops) > 1 and all(o == ops[0] for o in ops):
            kinds.add(section.kind)
    return kinds
