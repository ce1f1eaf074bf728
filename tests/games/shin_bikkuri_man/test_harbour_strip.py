"""Shin Bikkuri Man's harbour strip: one numbered card space per harbour card of the data (7), each
big enough for a card, side by side in one row."""
from __future__ import annotations

from generator.canon import load
from generator.draw import Canvas
from generator.kits.shin_bikkuri_man.components import draw_harbour, harbour_size
from generator.kits.shin_bikkuri_man.facade import Palette
from generator.kits.shin_bikkuri_man.layout import load_layout


class Spaces(Canvas):
    """Records the dashed rectangles (the card spaces) and the texts drawn."""

    def __init__(self):
        self.spaces, self.texts = [], []

    def push(self): pass
    def pop(self): pass
    def translate(self, dx, dy): pass
    def rotate(self, degrees): pass
    def rects(self, boxes, fill): pass
    def polyline(self, points, style): pass
    def polygon(self, points, style): pass
    def circle(self, cx, cy, r, style): pass

    def rect(self, x, y, w, h, style, radius=0.0):
        if style.dash:
            self.spaces.append((x, y, w, h))

    def text(self, x, y, text, size_pt, *, font="regular", anchor="start", fill="#000000"):
        self.texts.append(text)


def test_the_strip_has_a_card_space_per_harbour_card():
    data, layout = load("shin-bikkuri-man"), load_layout()
    rec = Spaces()
    draw_harbour(rec, data, layout, Palette(data, layout))
    assert len(rec.spaces) == data.turn.harbour == 7
    cw, ch = layout.card.size
    assert all(w >= cw and h >= ch for _, _, w, h in rec.spaces)            # a card fits each space
    xs = [x for x, *_ in rec.spaces]
    assert xs == sorted(xs) and len({y for _, y, _, _ in rec.spaces}) == 1  # one row, left to right
    assert all(b[0] >= a[0] + a[2] for a, b in zip(rec.spaces, rec.spaces[1:]))   # no overlap
    w, h = harbour_size(data, layout)
    assert all(x + sw <= w and y + sh <= h for x, y, sw, sh in rec.spaces)
    assert [t for t in rec.texts if t.isdigit()] == [str(k) for k in range(1, 8)]
    assert any("not next to each other" in t for t in rec.texts)            # no wrap-around, printed
