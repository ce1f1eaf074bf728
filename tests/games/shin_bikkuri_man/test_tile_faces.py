"""Shin Bikkuri Man's printed façade tiles: colour is never the only cue (each square of a coloured
tile carries its colour's symbol, five different shapes), and the cut line runs along every edge of
the tile's outline and nowhere inside it."""
from __future__ import annotations

from generator.canon import load
from generator.draw import Canvas
from generator.kits.shin_bikkuri_man.facade import Palette, draw_tile
from generator.kits.shin_bikkuri_man.layout import load_layout
from generator.kits.shin_bikkuri_man.tiles import tile_list


class Face(Canvas):
    def __init__(self):
        self.symbols, self.lines = [], []

    def push(self): pass
    def pop(self): pass
    def translate(self, dx, dy): pass
    def rotate(self, degrees): pass
    def rects(self, boxes, fill): pass
    def rect(self, x, y, w, h, style, radius=0.0): pass
    def text(self, *a, **k): pass

    def polyline(self, points, style):
        pts = list(points)
        if len(pts) == 2:
            self.lines.append((pts, style))

    def line(self, x1, y1, x2, y2, style):
        self.lines.append(([(x1, y1), (x2, y2)], style))

    def polygon(self, points, style):
        if style.width == 0.25:                     # the symbol's outline (draw_symbol)
            self.symbols.append(len(list(points)))

    def circle(self, cx, cy, r, style):
        if style.width == 0.25:
            self.symbols.append(0)


def test_every_square_carries_its_colours_symbol_and_the_outline_is_cut():
    data, layout = load("shin-bikkuri-man"), load_layout()
    pal = Palette(data, layout)
    shape_of = {}
    for tid, colour, cells, _ in tile_list(data):
        rec = Face()
        draw_tile(rec, pal, layout, colour, cells, 0, 0)
        if colour == "white":
            assert rec.symbols == [], tid
        else:
            assert len(rec.symbols) == len(cells), tid             # one symbol per square
            assert len(set(rec.symbols)) == 1
            shape_of.setdefault(colour, set()).update(rec.symbols)
        cut = [pts for pts, st in rec.lines if st.width == layout.tiles.line and st.stroke == pal.ink]
        inner = [pts for pts, st in rec.lines if st.width == layout.tiles.inner]
        edges = sum(1 for (c, r) in cells for d in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if (c + d[0], r + d[1]) not in cells)
        shared = sum(1 for (c, r) in cells for d in ((1, 0), (0, 1)) if (c + d[0], r + d[1]) in cells)
        assert len(cut) == edges and len(inner) == shared, tid
    assert len(shape_of) == len(data.colours) == 5
    assert all(len(v) == 1 for v in shape_of.values())
    # five different shapes (circle, triangle, square, diamond, star): told apart without colour
    assert sorted(next(iter(v)) for v in shape_of.values()) == [0, 3, 4, 4, 10]
    assert {c.symbol for c in data.colours} == {"circle", "triangle", "square", "diamond", "star"}
