"""Drawing the façade: one square of a tile (colour, its symbol, a window or a brick), a whole tile
with its cut outline, and the player board's 5 x 9 grid with its coats of arms.

Colour is never the only cue: every coloured square carries its colour's symbol (cards.toml
`symbol`: circle, triangle, square, diamond, star) in its top-left corner, and a brick square is
drawn as brickwork, a window square as a window.
"""
from __future__ import annotations

import math

from ...colours import mix
from ...draw import Canvas, Style
from .layout import Layout

WHITE = "white"


class Palette:
    """Colours as drawn; ink saver keeps every cue and turns large fills into light tints."""

    def __init__(self, data, layout: Layout, ink_saver: bool = False):
        c = layout.colours
        self.c = c
        self.ink_saver = ink_saver
        self.ink, self.paper = c.ink, c.paper
        self.grid = c.grid
        self.coat = c.coat if not ink_saver else mix(c.coat, c.paper, 0.5)
        self.window = c.window if not ink_saver else mix(c.window, c.paper, 0.5)
        self.frame = c.frame
        self.brick = c.brick
        self.card_back = c.card_back if not ink_saver else mix(c.card_back, c.paper, 0.85)
        self.colour_hex = {col.id: col.hex for col in data.colours}
        self.symbol = {col.id: col.symbol for col in data.colours}

    def fill(self, colour: str) -> str:
        if colour == WHITE:
            return self.paper
        hexa = self.colour_hex[colour]
        return mix(hexa, self.paper, 0.65) if self.ink_saver else hexa


# ------------------------------------------------------------------------------------------ symbols
def symbol_points(kind: str, cx: float, cy: float, r: float) -> list[tuple[float, float]] | None:
    """The polygon of a colour's symbol (None for a circle)."""
    if kind == "triangle":
        return [(cx + r * math.sin(a), cy - r * math.cos(a)) for a in (0, 2 * math.pi / 3, 4 * math.pi / 3)]
    if kind == "square":
        s = r * 0.8
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if kind == "diamond":
        return [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    if kind == "star":
        pts = []
        for k in range(10):
            rr = r if k % 2 == 0 else r * 0.45
            a = k * math.pi / 5
            pts.append((cx + rr * math.sin(a), cy - rr * math.cos(a)))
        return pts
    return None


def draw_symbol(canvas: Canvas, kind: str, cx: float, cy: float, r: float, fill: str, stroke: str) -> None:
    style = Style(fill=fill, stroke=stroke, width=0.25)
    pts = symbol_points(kind, cx, cy, r)
    if pts is None:
        canvas.circle(cx, cy, r * 0.85, style)
    else:
        canvas.polygon(pts, style)


# ------------------------------------------------------------------------------------------- squares
def draw_square(canvas: Canvas, pal: Palette, layout: Layout, colour: str, brick: bool,
                x: float, y: float) -> None:
    """One square of a tile at (x, y), `layout.square` wide, without its outline."""
    s = layout.square
    canvas.rect(x, y, s, s, Style(fill=pal.fill(colour), stroke=None))
    if brick:
        draw_brickwork(canvas, pal, x, y, s)
    else:
        draw_window(canvas, pal, x, y, s)
    if colour != WHITE:
        r = layout.tiles.symbol / 2
        draw_symbol(canvas, pal.symbol[colour], x + r + 1.2, y + r + 1.2, r, pal.paper, pal.ink)


def draw_window(canvas: Canvas, pal: Palette, x: float, y: float, s: float) -> None:
    m = s * 0.24
    w, h = s - 2 * m, s - 1.8 * m
    wx, wy = x + m, y + m * 0.9
    canvas.rect(wx, wy, w, h, Style(fill=pal.window, stroke=pal.ink, width=0.3), radius=0.6)
    canvas.line(wx + w / 2, wy, wx + w / 2, wy + h, Style(stroke=pal.ink, width=0.3))
    canvas.line(wx, wy + h * 0.45, wx + w, wy + h * 0.45, Style(stroke=pal.ink, width=0.3))
    canvas.line(wx - 0.8, wy + h + 0.4, wx + w + 0.8, wy + h + 0.4, Style(stroke=pal.ink, width=0.5))


def draw_brickwork(canvas: Canvas, pal: Palette, x: float, y: float, s: float) -> None:
    rows = 5
    rh = s / rows
    st = Style(stroke=pal.brick, width=0.35)
    for k in range(1, rows):
        canvas.line(x, y + k * rh, x + s, y + k * rh, st)
    for k in range(rows):
        off = 0 if k % 2 == 0 else s / 6
        for j in range(3):
            bx = x + off + j * s / 3
            if x < bx < x + s:
                canvas.line(bx, y + k * rh, bx, y + (k + 1) * rh, st)


# --------------------------------------------------------------------------------------------- tiles
def draw_tile(canvas: Canvas, pal: Palette, layout: Layout, colour: str,
              cells: dict[tuple[int, int], str], x: float, y: float) -> None:
    """A tile whose `cells` are (column, row from the top) -> "B"/"W", top-left at (x, y): its
    squares, faint lines between them, and its outline (the cut line)."""
    s = layout.square
    for (cx, cy), ch in cells.items():
        draw_square(canvas, pal, layout, colour, ch == "B", x + cx * s, y + cy * s)
    inner = Style(stroke=mix(pal.ink, pal.paper, 0.6), width=layout.tiles.inner, dash=(1.0, 1.0))
    cut = Style(stroke=pal.ink, width=layout.tiles.line)
    for (cx, cy) in cells:
        for dx, dy, x1, y1, x2, y2 in ((1, 0, 1, 0, 1, 1), (-1, 0, 0, 0, 0, 1),
                                       (0, 1, 0, 1, 1, 1), (0, -1, 0, 0, 1, 0)):
            other = (cx + dx, cy + dy)
            if other in cells and (dx < 0 or dy < 0):
                continue
            style = inner if other in cells else cut
            canvas.line(x + (cx + x1) * s, y + (cy + y1) * s, x + (cx + x2) * s, y + (cy + y2) * s, style)


# ------------------------------------------------------------------------------------- board grid
def draw_coat(canvas: Canvas, pal: Palette, cx: float, cy: float, r: float) -> None:
    """A coat of arms: a shield with a crown line."""
    pts = [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r * 0.1),
           (cx, cy + r * 1.15), (cx - r, cy + r * 0.1)]
    canvas.polygon(pts, Style(fill=pal.coat, stroke=pal.ink, width=0.35))
    canvas.polyline([(cx - r * 0.55, cy - r * 0.25), (cx - r * 0.3, cy - r * 0.6), (cx, cy - r * 0.3),
                     (cx + r * 0.3, cy - r * 0.6), (cx + r * 0.55, cy - r * 0.25)],
                    Style(stroke=pal.ink, width=0.35))


def draw_grid(canvas: Canvas, data, layout: Layout, pal: Palette, x: float, y: float,
              numbers: bool = True) -> None:
    """The 5 x 9 façade grid with its top-left corner at (x, y): empty squares, the coats of arms
    printed on squares and at the right end of the marked rows, row and column numbers."""
    s = layout.square
    cols, rows = data.board.columns, data.board.rows
    faint = mix(pal.ink, pal.paper, 0.93)
    canvas.rect(x, y, cols * s, rows * s, Style(fill=faint if not pal.ink_saver else pal.paper,
                                                stroke=None))
    line = Style(stroke=pal.grid, width=0.3)
    for c in range(cols + 1):
        canvas.line(x + c * s, y, x + c * s, y + rows * s, line)
    for r in range(rows + 1):
        canvas.line(x, y + r * s, x + cols * s, y + r * s, line)
    canvas.rect(x, y, cols * s, rows * s, Style(stroke=pal.ink, width=0.6))
    coat_r = layout.board.coat
    for c, r in data.coat_squares:
        cx, cy = x + (c - 0.5) * s, y + (rows - r + 0.5) * s
        draw_coat(canvas, pal, cx, cy, coat_r * 0.75)
    for r in data.coat_rows:
        cy = y + (rows - r + 0.5) * s
        cx = x + cols * s + coat_r + 2
        canvas.line(x + cols * s, cy, cx - coat_r, cy, Style(stroke=pal.ink, width=0.3, dash=(1, 1)))
        draw_coat(canvas, pal, cx, cy, coat_r * 0.85)
    if numbers:
        lab = layout.board.label
        for r in range(1, rows + 1):
            canvas.text(x - 2.5, y + (rows - r + 0.5) * s + 1.2, str(r), lab.size, font="bold",
                        anchor="end", fill=pal.ink)
        for c in range(1, cols + 1):
            canvas.text(x + (c - 0.5) * s, y + rows * s + 4.5, str(c), lab.size, font="bold",
                        anchor="middle", fill=pal.ink)
