"""Honest blind draws (issue 22 item 4): a component the rules shuffle and draw unseen has one back
for its whole kind, and whatever tells the copies apart, the QR code of its companion page included,
is on the face.

"Shuffle all the influential person tiles well ... Shuffle all the building tiles well" (Sapporo
1876's setup); Shinjuku's ward cards and Shin Bikkuri Man's cards are drawn from a shuffled deck
("Draw 4 cards into your hand", "take 1 card of the 7 available"). Each back is drawn on a page of
its own and rasterized: the backs of a kind must print the same pixels, and say nothing a face says.
"""
from __future__ import annotations

import pytest

from generator.draw.pdf import write_pdf
from generator.kits import make_kit
from generator.kits.base import CardSection, KitContext
from generator.qr import qr_path, short_code

from pdf_text_boxes import FacePage

pymupdf = pytest.importorskip("pymupdf")

#: (game, card section kind) of the components drawn blind from a shuffled stack.
BLIND = (("sapporo-1876", "influential-person"), ("sapporo-1876", "building-tile"),
         ("shinjuku", "ward-card"), ("shin-bikkuri-man", "card"))


def section(game: str, kind: str) -> CardSection:
    kit = make_kit(game, KitContext())
    return next(s for s in kit.sections if isinstance(s, CardSection) and s.kind == kind)


def sides(tmp_path, sec: CardSection, side: str):
    """(item, text, pixels) of each item's `side`, rasterized at 60 dpi."""
    draw = sec.draw_front if side == "front" else sec.draw_back
    pages = [FacePage(item.id, sec.size, lambda c, i=item: draw(c, i)) for item in sec.items]
    path = tmp_path / f"{sec.kind}-{side}.pdf"
    write_pdf(path, pages)
    with pymupdf.open(str(path)) as doc:
        return [(item, " ".join(page.get_text().split()), page.get_pixmap(dpi=60).samples)
                for item, page in zip(sec.items, doc)]


@pytest.mark.parametrize("game,kind", BLIND)
def test_every_back_of_a_blind_drawn_kind_is_the_same(game, kind, tmp_path):
    sec = section(game, kind)
    assert sec.draw_back is not None and len(sec.items) > 1
    backs = sides(tmp_path, sec, "back")
    first = backs[0]
    differ = [item.id for item, text, pixels in backs[1:] if (text, pixels) != first[1:]]
    assert not differ, f"{game} {kind}: these backs differ from {first[0].id}'s: {differ}"


@pytest.mark.parametrize("game,kind", BLIND)
def test_the_back_names_no_component_and_the_face_carries_the_code(game, kind, tmp_path):
    sec = section(game, kind)
    backs = sides(tmp_path, sec, "back")
    fronts = sides(tmp_path, sec, "front")
    for (item, back, _), (_, front, _) in zip(backs, fronts):
        if item.label:
            assert item.label.lower() not in back.lower(), f"{item.id}: the back names it"
        if item.qr:
            code = short_code(qr_path(item.qr[1]))
            assert code in front, f"{item.id}: no QR code (short code {code}) on the face"
            assert code not in back, f"{item.id}: its QR code is on the back"
