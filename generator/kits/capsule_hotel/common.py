"""What every Capsule Hotel drawing shares: the palette (ink saver), wrapped paragraphs, yen amounts,
the coupon symbol, capsule colour patterns (colour is never the only cue) and a QR code with its
caption."""
from __future__ import annotations

import dataclasses

from ...draw import Canvas, Style
from ...draw.base import PT, text_width
from ...draw.fit import fit_text
from ...qr import draw_qr
from .layout import Layout, TextStyle


def yen(n: int) -> str:
    return ("−" if n < 0 else "") + f"{abs(n):,}円"


@dataclasses.dataclass(frozen=True)
class Palette:
    layout: Layout
    ink_saver: bool

    #: The layout's colours drawn as they are, with the ink saver too (lines, text, small cues).
    AS_IS = ("ink", "paper", "rule", "accent", "coupon")

    def __getattr__(self, name: str):
        if name in Palette.AS_IS:
            return getattr(self.layout.colours, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def tint(self):
        return self.layout.colours.paper if self.ink_saver else self.layout.colours.tint

    def fill(self, colour: str) -> str:
        """A large fill: itself, or the paper with the ink saver (outlines carry the shape)."""
        return self.paper if self.ink_saver else colour


def wrap(text: str, width: float, size: float, font: str = "regular") -> list[str]:
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = (line + " " + word).strip()
            if text_width(trial, size, font) <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def paragraph(canvas: Canvas, x: float, y: float, width: float, text: str, style: TextStyle,
              fill: str = "#000000", *, size: float | None = None, leading: float = 1.25) -> float:
    """Draw `text` wrapped to `width` from top `y`; returns the y under it."""
    size = size or style.size
    step = size * PT * leading
    for line in wrap(text, width, size, style.font):
        y += step
        canvas.text(x, y - step * 0.22, line, size, font=style.font, fill=fill)
    return y


def paragraphs_height(width: float, texts: list[str], style: TextStyle, size: float, leading: float = 1.25) -> float:
    return sum(len(wrap(t, width, size, style.font)) * size * PT * leading for t in texts)


MIN_PT = 6.0     # the smallest type printed anywhere in the kit


def label(canvas: Canvas, box, text: str, style: TextStyle, *, anchor="middle", fill="#000000",
          where: str = "capsule-hotel") -> float:
    return fit_text(canvas, box, text, style.size, style.min, font=style.font, anchor=anchor, fill=fill,
                    where=where)


def coupon_mark(canvas: Canvas, x: float, y: float, w: float, pal: Palette) -> None:
    """The coupon symbol: a pink bar with a notch and "C" (the rules' "la barra rosa")."""
    h = w * 0.45
    canvas.rect(x, y, w, h, Style(fill=pal.fill(pal.coupon), stroke=pal.coupon, width=0.3), radius=h * 0.2)
    size = max(MIN_PT, h / PT * 0.8)          # never under 6 pt, however small the mark
    canvas.text(x + w / 2, y + h / 2 + size * PT * 0.36, "C", size, font="bold", anchor="middle",
                fill="#000000")   # white on the pink (and pink on the ink saver's tint) read at 3.8:1


def pattern(canvas: Canvas, kind: str, x: float, y: float, w: float, h: float, ink: str) -> None:
    """The capsule colour's pattern inside (x, y, w, h): the second cue beside colour and letter."""
    s = Style(fill=None, stroke=ink, width=0.25)
    dot = Style(fill=ink, stroke=None)
    step = min(w, h) / 3
    if kind == "dots":
        for i in range(1, 3):
            for j in range(1, int(h / step)):
                canvas.circle(x + w * i / 3, y + j * step, step * 0.15, dot)
    elif kind == "stripes":
        k = 0.0
        while k < w + h:
            canvas.line(x + max(0, k - h), y + min(h, k), x + min(w, k), y + max(0, k - w), s)
            k += step
    elif kind == "waves":
        for j in range(1, int(h / step)):
            yy = y + j * step
            canvas.path([("M", x, yy), ("Q", x + w / 4, yy - step / 3, x + w / 2, yy),
                         ("Q", x + 3 * w / 4, yy + step / 3, x + w, yy)], s)
    elif kind == "checks":
        for i in range(1, 3):
            canvas.line(x + w * i / 3, y, x + w * i / 3, y + h, s)
        for j in range(1, int(h / step)):
            canvas.line(x, y + j * step, x + w, y + j * step, s)
    elif kind == "diamonds":
        for j in range(1, int(h / step)):
            cx, cy, r = x + w / 2, y + j * step, step * 0.35
            canvas.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], s)
    elif kind == "crosses":
        for j in range(1, int(h / step)):
            cx, cy, r = x + w / 2, y + j * step, step * 0.3
            canvas.line(cx - r, cy - r, cx + r, cy + r, s)
            canvas.line(cx - r, cy + r, cx + r, cy - r, s)
    elif kind == "blossoms":
        for j in range(1, int(h / step)):
            cx, cy, r = x + w / 2, y + j * step, step * 0.14
            for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
                canvas.circle(cx + dx * r * 1.4, cy + dy * r * 1.4, r, dot)


def qr_block(canvas: Canvas, payload: str, x: float, y: float, size: float, caption: str,
             style: TextStyle, pal: Palette) -> None:
    draw_qr(canvas, payload, x, y, size)
    label(canvas, (x - 4, y + size + 0.5, size + 8, style.size * PT * 1.2), caption, style, fill=pal.ink,
          where="qr caption")


def ruled_table(canvas: Canvas, x: float, y: float, widths: list[float], heads: list[str], rows: int,
                row_h: float, style: TextStyle, pal: Palette, *, head_h: float | None = None) -> float:
    """A table to write in: a header row, then `rows` empty ruled rows; returns the y under it."""
    head_h = head_h or row_h
    total = sum(widths)
    canvas.rect(x, y, total, head_h, Style(fill=pal.tint, stroke=pal.ink, width=0.3))
    cx = x
    for w, h in zip(widths, heads):
        label(canvas, (cx + 0.8, y, w - 1.6, head_h), h, style, fill=pal.ink, where=f"table head {h}")
        cx += w
    yy = y + head_h
    line = Style(stroke=pal.rule, width=0.2)
    for _ in range(rows):
        yy += row_h
        canvas.line(x, yy, x + total, yy, line)
    cx = x
    for w in widths[:-1]:
        cx += w
        canvas.line(cx, y, cx, yy, line)
    canvas.rect(x, y, total, yy - y, Style(stroke=pal.ink, width=0.3))
    return yy
