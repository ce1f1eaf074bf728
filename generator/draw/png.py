"""PNG previews: the Pillow backend of `Canvas`.

Drawn at `dpi * supersample` and reduced when finished (each block averaged, then a Lanczos filter),
because Pillow draws without anti-aliasing; two to three times oversampling gives previews that read
like the PDF.
Frames are kept as an affine matrix (mm -> pixels); `translate`/`rotate`/`scale` (by ±1: mirrors) make
rotations, mirrors and shifts only, so circles stay circles and one scale factor converts every length.
"""
from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

from PIL import Image, ImageDraw, ImageFont

from .base import FONT_FILES, PT, SIDES, Anchor, Canvas, Font, Point, Style, bleed_strips

Matrix = tuple[float, float, float, float, float, float]  # x' = a x + c y + e ; y' = b x + d y + f

_ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}


@lru_cache(maxsize=256)
def _font(font: str, size_px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_FILES[font]), size_px)


def _rgba(colour: str, opacity: float = 1.0) -> tuple[int, int, int, int]:
    colour = colour.lstrip("#")
    if len(colour) == 3:  # '#abc' shorthand
        colour = "".join(ch * 2 for ch in colour)
    return (int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16), round(255 * opacity))


def dash_segments(points: Sequence[Point], dash: Sequence[float]) -> list[list[Point]]:
    """Split a polyline into the visible pieces of a dash pattern (lengths in the points' units)."""
    if not dash or sum(dash) <= 0:
        return [list(points)]
    pattern = list(dash) if len(dash) % 2 == 0 else list(dash) * 2
    pieces: list[list[Point]] = []
    index, left, on = 0, pattern[0], True
    current: list[Point] = [points[0]]
    for (x1, y1), (x2, y2) in zip(points, points[1:]):
        seg = math.hypot(x2 - x1, y2 - y1)
        pos = 0.0
        while seg - pos > left:
            pos += left
            t = pos / seg
            p = (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t)
            if on:
                current.append(p)
                pieces.append(current)
            current = [p]
            on = not on
            index = (index + 1) % len(pattern)
            left = pattern[index]
        left -= seg - pos
        if on:
            current.append((x2, y2))
        else:
            current = [(x2, y2)]
    if on and len(current) > 1:
        pieces.append(current)
    return pieces


def rounded_rect_points(x: float, y: float, w: float, h: float, r: float, steps: int = 6) -> list[Point]:
    """A rectangle with rounded corners as a polygon (shared by backends without native ones)."""
    r = max(0.0, min(r, w / 2, h / 2))
    if r == 0:
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    pts: list[Point] = []
    corners = [(x + w - r, y + r, -90), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90), (x + r, y + r, 180)]
    for cx, cy, start in corners:
        for i in range(steps + 1):
            a = math.radians(start + 90 * i / steps)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def _source(d0: int, d1: int, f0: int, f1: int) -> tuple[int, int, bool]:
    """Along one axis: the face pixels a bleed strip d0..d1 mirrors, and whether it flips."""
    if d1 <= f0:
        return f0, f0 + (f0 - d0), True
    if d0 >= f1:
        return f1 - (d1 - f1), f1, True
    return d0, d1, False


class PngCanvas(Canvas):
    """Draw in mm onto a Pillow image of `width_mm` x `height_mm` at `dpi`; `image()` gives the result."""

    def __init__(self, width_mm: float, height_mm: float, dpi: float = 150, *,
                 background: str = "#ffffff", supersample: int = 3):
        self.dpi = dpi
        self.supersample = max(1, int(supersample))
        self.px_per_mm = dpi / 25.4 * self.supersample
        size = (max(1, math.ceil(width_mm * self.px_per_mm)), max(1, math.ceil(height_mm * self.px_per_mm)))
        self._out_size = (max(1, round(width_mm * dpi / 25.4)), max(1, round(height_mm * dpi / 25.4)))
        self._image = Image.new("RGBA", size, _rgba(background))
        self._draw = ImageDraw.Draw(self._image)
        s = self.px_per_mm
        self._m: Matrix = (s, 0.0, 0.0, s, 0.0, 0.0)
        self._stack: list[Matrix] = []

    # -- result ----------------------------------------------------------------------------------
    def image(self) -> Image.Image:
        """The finished preview (RGB, at the requested dpi)."""
        img = self._image
        if img.size != self._out_size:
            # each supersample x supersample block averaged first (Image.reduce), then Lanczos for the
            # last fraction of a pixel: within a few levels of Lanczos all the way, at a third of its time
            img = img.resize(self._out_size, Image.LANCZOS, reducing_gap=1.0)
        return img.convert("RGB")

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.image().save(path, dpi=(self.dpi, self.dpi), optimize=True)
        return path

    # -- frames ----------------------------------------------------------------------------------
    def push(self) -> None:
        self._stack.append(self._m)

    def pop(self) -> None:
        self._m = self._stack.pop()

    def translate(self, dx: float, dy: float) -> None:
        a, b, c, d, e, f = self._m
        self._m = (a, b, c, d, a * dx + c * dy + e, b * dx + d * dy + f)

    def rotate(self, degrees: float) -> None:
        # Clockwise on the page because y grows downwards.
        t = math.radians(degrees)
        cos, sin = math.cos(t), math.sin(t)
        a, b, c, d, e, f = self._m
        self._m = (a * cos + c * sin, b * cos + d * sin, -a * sin + c * cos, -b * sin + d * cos, e, f)

    def scale(self, sx: float, sy: float) -> None:
        a, b, c, d, e, f = self._m
        self._m = (a * sx, b * sx, c * sy, d * sy, e, f)

    def bleed_face(self, key: str, size: tuple[float, float], draw, bleed: float,
                   sides: frozenset[str] = SIDES) -> None:
        """The face, then its bleed strips as mirrored copies of the pixels inside each edge (the
        vector way clips, which this backend can only fake by painting white)."""
        w, h = size
        self.reuse(key, (0, 0, w, h), draw)
        face = self._pixel_box(0, 0, w, h)
        fx0, fy0, fx1, fy1 = face
        img = self._image
        for strip, _, _ in bleed_strips(w, h, bleed, sides):
            dx0, dy0, dx1, dy1 = self._pixel_box(*strip)
            if dx1 <= dx0 or dy1 <= dy0:
                continue
            sx0, sx1, flip_x = _source(dx0, dx1, fx0, fx1)
            sy0, sy1, flip_y = _source(dy0, dy1, fy0, fy1)
            part = img.crop((sx0, sy0, sx1, sy1))
            if flip_x:
                part = part.transpose(Image.FLIP_LEFT_RIGHT)
            if flip_y:
                part = part.transpose(Image.FLIP_TOP_BOTTOM)
            img.paste(part, (dx0, dy0))

    def _pixel_box(self, x: float, y: float, w: float, h: float) -> tuple[int, int, int, int]:
        """The pixel box (x0, y0, x1, y1) of a frame rectangle (frames turn by quarter turns only)."""
        corners = [self._pt(x, y), self._pt(x + w, y + h)]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        return (round(min(xs)), round(min(ys)), round(max(xs)), round(max(ys)))

    def _pt(self, x: float, y: float) -> tuple[float, float]:
        a, b, c, d, e, f = self._m
        return (a * x + c * y + e, b * x + d * y + f)

    def _len(self, mm: float) -> float:
        a, b = self._m[0], self._m[1]
        return mm * math.hypot(a, b)

    def _angle(self) -> float:
        """Rotation of the current frame in degrees, clockwise."""
        return math.degrees(math.atan2(self._m[1], self._m[0]))

    # -- painting helpers --------------------------------------------------------------------------
    def _fill_polygon(self, pts: list[tuple[float, float]], fill: str, opacity: float) -> None:
        if len(pts) < 3:
            return
        if opacity >= 1.0:
            self._draw.polygon(pts, fill=_rgba(fill))
            return
        # Translucent fills are composited on a layer the size of the shape's bounding box.
        x0 = max(0, int(min(p[0] for p in pts)) - 1)
        y0 = max(0, int(min(p[1] for p in pts)) - 1)
        x1 = min(self._image.width, int(max(p[0] for p in pts)) + 2)
        y1 = min(self._image.height, int(max(p[1] for p in pts)) + 2)
        if x1 <= x0 or y1 <= y0:
            return
        layer = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
        ImageDraw.Draw(layer).polygon([(px - x0, py - y0) for px, py in pts], fill=_rgba(fill, opacity))
        box = (x0, y0, x1, y1)
        self._image.paste(Image.alpha_composite(self._image.crop(box), layer), box)

    def _stroke(self, points: Sequence[Point], style: Style, closed: bool) -> None:
        if not style.stroke or style.width <= 0 or len(points) < 2:
            return
        pts = list(points) + ([points[0]] if closed else [])
        width = max(1, round(self._len(style.width)))
        colour = _rgba(style.stroke)
        for piece in dash_segments(pts, style.dash):
            px = [self._pt(*p) for p in piece]
            if closed and not style.dash:
                px.append(px[1])  # overlap one segment so the closing corner is joined too
            self._draw.line(px, fill=colour, width=width, joint="curve")
            if width > 2:  # round caps, so dashes and polyline ends look like the PDF's
                r = width / 2
                for cx, cy in (px[0], px[-1]):
                    self._draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)

    # -- primitives ------------------------------------------------------------------------------
    def rect(self, x: float, y: float, w: float, h: float, style: Style, radius: float = 0.0) -> None:
        self.polygon(rounded_rect_points(x, y, w, h, radius), style)

    def rects(self, boxes: Iterable[tuple[float, float, float, float]], fill: str) -> None:
        colour = _rgba(fill)
        for x, y, w, h in boxes:
            pts = [self._pt(px, py) for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h))]
            self._draw.polygon(pts, fill=colour)

    def polyline(self, points: Sequence[Point], style: Style) -> None:
        self._stroke(points, style, closed=False)

    def polygon(self, points: Sequence[Point], style: Style) -> None:
        if style.fill:
            self._fill_polygon([self._pt(*p) for p in points], style.fill, style.opacity)
        self._stroke(points, style, closed=True)

    def circle(self, cx: float, cy: float, r: float, style: Style) -> None:
        px, py = self._pt(cx, cy)
        rp = self._len(r)
        box = (px - rp, py - rp, px + rp, py + rp)
        if style.fill:
            if style.opacity >= 1.0:
                self._draw.ellipse(box, fill=_rgba(style.fill))
            else:
                steps = max(24, int(rp / 2))
                self._fill_polygon([(px + rp * math.cos(2 * math.pi * i / steps),
                                     py + rp * math.sin(2 * math.pi * i / steps)) for i in range(steps)],
                                   style.fill, style.opacity)
        if style.stroke and style.width > 0:
            if style.dash:
                steps = max(48, int(rp))
                ring = [(cx + r * math.cos(2 * math.pi * i / steps), cy + r * math.sin(2 * math.pi * i / steps))
                        for i in range(steps + 1)]
                self._stroke(ring, style, closed=False)
            else:
                w = max(1, round(self._len(style.width)))
                half = w / 2
                self._draw.ellipse((box[0] - half, box[1] - half, box[2] + half, box[3] + half),
                                   outline=_rgba(style.stroke), width=w)

    def text(self, x: float, y: float, text: str, size_pt: float, *, font: Font = "regular",
             anchor: Anchor = "start", fill: str = "#000000") -> None:
        if not text:
            return
        size_px = max(1, round(self._len(size_pt * PT)))
        face = _font(font, size_px)
        px, py = self._pt(x, y)
        angle = self._angle()
        if abs(angle) < 0.01:
            self._draw.text((px, py), text, font=face, fill=_rgba(fill), anchor=_ANCHORS[anchor])
            return
        # Rotated frames: draw the text upright on its own layer, turn it, composite it.
        left, top, right, bottom = face.getbbox(text, anchor=_ANCHORS[anchor])
        pad = 2
        layer = Image.new("RGBA", (right - left + 2 * pad, bottom - top + 2 * pad), (0, 0, 0, 0))
        ImageDraw.Draw(layer).text((pad - left, pad - top), text, font=face, fill=_rgba(fill),
                                   anchor=_ANCHORS[anchor])
        # Turn about the layer's centre; then find where the anchor point went.
        ox, oy = pad - left - layer.width / 2, pad - top - layer.height / 2
        turned = layer.rotate(-angle, resample=Image.BICUBIC, expand=True)
        t = math.radians(angle)
        ax = ox * math.cos(t) - oy * math.sin(t) + turned.width / 2
        ay = ox * math.sin(t) + oy * math.cos(t) + turned.height / 2
        dest = (round(px - ax), round(py - ay))
        src = (max(0, -dest[0]), max(0, -dest[1]))
        if src[0] >= turned.width or src[1] >= turned.height:
            return
        self._image.alpha_composite(turned, dest=(max(0, dest[0]), max(0, dest[1])), source=src)
