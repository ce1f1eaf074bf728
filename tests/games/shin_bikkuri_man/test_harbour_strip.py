"""Shin Bikkuri Man's harbour strip: one numbered card space per harbour card of the data (7), each
big enough for a card, side by side in one row."""
from __future__ import annotations

from canvas_recorder import Recorder
from generator.canon import load
from generator.kits.shin_bikkuri_man.components import draw_harbour, harbour_size
from generator.kits.shin_bikkuri_man.facade import Palette
from generator.kits.shin_bikkuri_man.layout import load_layout


def test_the_strip_has_a_card_space_per_harbour_card():
    data, layout = load("shin-bikkuri-man"), load_layout()
    rec = Recorder()
    draw_harbour(rec, data, layout, Palette(data, layout))
    spaces = [box for kind, box, style in (c[:3] for c in rec.calls) if kind == "rect" and style.dash]
    assert len(spaces) == data.turn.harbour == 7
    cw, ch = layout.card.size
    assert all(w >= cw and h >= ch for _, _, w, h in spaces)            # a card fits each space
    xs = [x for x, *_ in spaces]
    assert xs == sorted(xs) and len({y for _, y, _, _ in spaces}) == 1  # one row, left to right
    assert all(b[0] >= a[0] + a[2] for a, b in zip(spaces, spaces[1:]))   # no overlap
    w, h = harbour_size(data, layout)
    assert all(x + sw <= w and y + sh <= h for x, y, sw, sh in spaces)
    assert [t for t in rec.texts() if t.isdigit()] == [str(k) for k in range(1, 8)]
    assert any("not next to each other" in t for t in rec.texts())            # no wrap-around, printed
