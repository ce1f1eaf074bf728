"""Drawing helpers shared by Sapporo 1876's components: the palette (ink saver), paragraphs that
shrink to fit, and the small icons (resources, yen, fame, harvest, settlement) with their shape cues."""
from __future__ import annotations

from ...colours import mix
from ...draw import Canvas, Style, text_width
from ...draw.fit import TextFitError, fit_text
from .layout import Colours, TextStyle

PT = 25.4 / 72
LINE = 1.2

#: Resource shape cues (colour is never the only cue): each resource has a letter and a shape.
RESOURCE_MARK = {"wheat": ("W", "triangle"), "rice-bale": ("R", "square"), "sheep": ("S", "circle"),
                 "cattle": ("C", "diamond")}


class Palette:
    def __init__(self, colours: Colours, ink_saver: bool):
        self.c, self.ink_saver = colours, ink_saver
        self.ink, self.paper = colours.ink, colours.paper

    def fill(self, colour: str) -> str:
        """A large area's fill: the colour, or a light tint of it in ink-saver mode."""
        return mix(colour, self.paper, 0.8) if self.ink_saver else colour

    def tint(self, colour: str, amount: float = 0.6) -> str:
        return mix(colour, self.paper, max(amount, 0.85) if self.ink_saver else amount)


def wrap(text: str, width: float, size_pt: float, font="regular") -> list[str]:
    lines, line = [], ""
    for word in text.split(" "):
        cand = f"{line} {word}" if line else word
        if text_width(cand, size_pt, font) <= width or not line:
            line = cand
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def paragraph(canvas: Canvas, box, text: str, style: TextStyle, *, fill: str = "#000000",
              anchor: str = "start", where: str = "text") -> float:
    """`text` wrapped in box (x, y, w, h) at the largest size (0.25 pt steps) that fits; returns it."""
    x, y, w, h = box
    size = style.size
    while size >= style.min - 1e-9:
        lines = wrap(text, w, size, style.font)
        if all(text_width(s, size, style.font) <= w + 1e-6 for s in lines) and \
                len(lines) * size * PT * LINE <= h + 1e-6:
            ax = {"start": x, "middle": x + w / 2, "end": x + w}[anchor]
            top = y + (h - len(lines) * size * PT * LINE) / 2
            for i, s in enumerate(lines):
                canvas.text(ax, top + (i + 0.8) * size * PT * LINE, s, size, font=style.font,
                            anchor=anchor, fill=fill)
            return size
        size -= 0.25
    raise TextFitError(where, text, w, style.min)


def label(canvas: Canvas, box, text: str, style: TextStyle, *, fill="#000000", anchor="middle",
          where="label") -> float:
    return fit_text(canvas, box, text, style.size, style.min, font=style.font, anchor=anchor, fill=fill,
                    where=where)


def shape(canvas: Canvas, kind: str, cx: float, cy: float, r: float, style: Style) -> None:
    if kind == "circle":
        canvas.circle(cx, cy, r, style)
    elif kind == "square":
        canvas.rect(cx - r * 0.85, cy - r * 0.85, r * 1.7, r * 1.7, style)
    elif kind == "triangle":
        canvas.polygon([(cx, cy - r), (cx + r * 0.95, cy + r * 0.75), (cx - r * 0.95, cy + r * 0.75)], style)
    else:  # diamond
        canvas.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], style)


def resource_icon(canvas: Canvas, resource, cx: float, cy: float, r: float, pal: Palette) -> None:
    """A resource: its shape filled with its colour and its letter (colour is not the only cue)."""
    letter, kind = RESOURCE_MARK.get(resource.id, (resource.name[:1], "circle"))
    shape(canvas, kind, cx, cy, r, Style(fill=pal.tint(resource.hex, 0.0 if not pal.ink_saver else 0.8),
                                         stroke=pal.ink, width=max(0.2, r * 0.08)))
    if kind == "triangle":      # smaller and lower, in the wide part of the triangle, inside its sides
        canvas.text(cx, cy + r * 0.6, letter, r * 0.8 / PT, font="bold", anchor="middle", fill=pal.ink)
    else:
        canvas.text(cx, cy + r * 0.38, letter, r * 2.2 / PT * 0.5, font="bold", anchor="middle", fill=pal.ink)


def yen_icon(canvas: Canvas, cx: float, cy: float, r: float, pal: Palette) -> None:
    canvas.rect(cx - r * 1.2, cy - r * 0.7, r * 2.4, r * 1.4, Style(fill=pal.tint(pal.c.note, 0.3),
                                                                    stroke=pal.ink, width=0.25))
    canvas.text(cx, cy + r * 0.38, "¥", r * 1.1 / PT, font="bold", anchor="middle", fill=pal.ink)


def fame_icon(canvas: Canvas, cx: float, cy: float, r: float, pal: Palette) -> None:
    import math
    pts = []
    for i in range(10):
        a = math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.45
        pts.append((cx + rr * math.cos(a), cy - rr * math.sin(a)))
    canvas.polygon(pts, Style(fill=pal.tint(pal.c.icon, 0.0), stroke=pal.ink, width=0.25))


def event_icon(canvas: Canvas, which: str, cx: float, cy: float, r: float, pal: Palette) -> None:
    """Harvest: a sheaf (three stalks); settlement: a hall (a roof on columns); each with its letter."""
    st = Style(fill=pal.tint(pal.c.icon, 0.0), stroke=pal.ink, width=0.3)
    canvas.circle(cx, cy, r, st)
    line = Style(stroke=pal.ink, width=max(0.3, r * 0.1))
    if which == "harvest":
        for dx in (-0.35, 0, 0.35):
            canvas.line(cx + dx * r * 0.6, cy + r * 0.6, cx + dx * r, cy - r * 0.55, line)
        canvas.line(cx - r * 0.45, cy + r * 0.1, cx + r * 0.45, cy + r * 0.1, line)
    else:
        canvas.polygon([(cx - r * 0.7, cy - r * 0.2), (cx, cy - r * 0.7), (cx + r * 0.7, cy - r * 0.2)],
                       Style(fill=pal.ink, stroke=None))
        for dx in (-0.45, 0, 0.45):
            canvas.line(cx + dx * r, cy - r * 0.15, cx + dx * r, cy + r * 0.5, line)
        canvas.line(cx - r * 0.65, cy + r * 0.55, cx + r * 0.65, cy + r * 0.55, line)


def worker_shape(colour_id: str) -> str:
    """Workers' shape cue: black round, white square (so colour is never the only cue)."""
    return "circle" if colour_id == "black" else "square"
