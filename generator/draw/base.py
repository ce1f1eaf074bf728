"""The drawing interface every component is drawn through, once, in millimetres.

Coordinates: millimetres, origin at the top-left of the current frame, y growing downwards (the
way layouts are written). Backends convert (the PDF backend flips y). `translate`/`rotate` change the
frame and are undone by leaving a `frame()` block; sheets use that to place each component.

Fonts: "regular" and "bold" are the project's embedded Noto Sans JP subsets in assets/fonts/ (Latin
and Japanese in one face). Sizes of text are in points; `text_width` measures with the same metrics
in every backend, so layout decisions (shrink-to-fit) do not depend on the backend.
"""
from __future__ import annotations

import contextlib
import dataclasses
from functools import lru_cache
from typing import Callable, Iterable, Iterator, Literal, Sequence

from ..bundle import bundled

#: The fonts shipped with the code (never TOKYO_KIT_ASSETS: a copy of a game's data has no fonts).
FONT_DIR = bundled("assets") / "fonts"
FONT_FILES = {
    "regular": FONT_DIR / "NotoSansJP-Kit-Regular.ttf",
    "bold": FONT_DIR / "NotoSansJP-Kit-Bold.ttf",
}
PT = 25.4 / 72  # millimetres per point

Anchor = Literal["start", "middle", "end"]
Font = Literal["regular", "bold"]
Point = tuple[float, float]
#: One step of a `path`: ("M", x, y) move, ("L", x, y) line, ("Q", x1, y1, x, y) quadratic and
#: ("C", x1, y1, x2, y2, x, y) cubic Bézier curves, ("Z",) close the current subpath.
PathOp = tuple
Box = tuple[float, float, float, float]   # x, y, width, height in mm


@dataclasses.dataclass(frozen=True)
class Style:
    """How a shape is painted. Colours are '#rrggbb' or None (no fill / no stroke)."""

    fill: str | None = None
    stroke: str | None = "#000000"
    width: float = 0.25           # stroke width, mm
    dash: tuple[float, ...] = ()  # dash pattern, mm
    opacity: float = 1.0          # fill opacity


@lru_cache(maxsize=None)
def _registered(font: str) -> str:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    name = f"NotoSansJP-Kit-{font}"
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(FONT_FILES[font])))
    return name


def font_name(font: Font) -> str:
    """The reportlab font name of an embedded face (registering it on first use)."""
    return _registered(font)


def text_width(text: str, size_pt: float, font: Font = "regular") -> float:
    """Width of `text` in mm at `size_pt`."""
    return _unit_width(text, font) * size_pt


@lru_cache(maxsize=65536)
def _unit_width(text: str, font: Font) -> float:
    # Cached: shrink-to-fit measures the same labels at many sizes, for every paper and format.
    from reportlab.pdfbase import pdfmetrics

    return pdfmetrics.stringWidth(text, font_name(font), 1.0) * PT


@lru_cache(maxsize=None)
def font_chars(font: Font) -> frozenset[int]:
    """Code points the embedded face has glyphs for."""
    from reportlab.pdfbase import pdfmetrics

    return frozenset(pdfmetrics.getFont(font_name(font)).face.charToGlyph)


class MissingGlyph(ValueError):
    """Text asks for a character the embedded font lacks (it would print as a box)."""


def check_glyphs(text: str, font: Font = "regular") -> None:
    """Raise MissingGlyph naming the first character of `text` the font cannot draw."""
    chars = font_chars(font)
    for ch in text:
        if ord(ch) not in chars and not ch.isspace():
            raise MissingGlyph(f"no glyph for {ch!r} (U+{ord(ch):04X}) in the kit font, in {text!r}; "
                               "add it with tools/subset_fonts.py")


def flatten_path(ops: Sequence[PathOp], steps: int = 12) -> list[tuple[list[Point], bool]]:
    """A path as polylines: [(points, closed)], curves cut into `steps` straight pieces."""
    parts: list[tuple[list[Point], bool]] = []
    points: list[Point] = []
    here: Point = (0.0, 0.0)
    for op in ops:
        code, args = op[0], op[1:]
        if code == "M":
            if len(points) > 1:
                parts.append((points, False))
            here = (args[0], args[1])
            points = [here]
        elif code == "L":
            here = (args[0], args[1])
            points.append(here)
        elif code in ("Q", "C"):
            ctrl = [here] + [(args[i], args[i + 1]) for i in range(0, len(args), 2)]
            for i in range(1, steps + 1):
                points.append(_bezier(ctrl, i / steps))
            here = ctrl[-1]
        elif code == "Z":
            if len(points) > 1:
                parts.append((points, True))
            points = [points[0]] if points else []
        else:
            raise ValueError(f"unknown path step {code!r}")
    if len(points) > 1:
        parts.append((points, False))
    return parts


def _bezier(ctrl: list[Point], t: float) -> Point:
    while len(ctrl) > 1:
        ctrl = [(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t) for a, b in zip(ctrl, ctrl[1:])]
    return ctrl[0]


SIDES = frozenset({"left", "right", "top", "bottom"})


def bleed_strips(w: float, h: float, bleed: float, sides: frozenset[str] = SIDES):
    """The bleed round a w × h face: (strip box, (sx, tx), (sy, ty)) for each strip outside the
    trim, with the mirror that maps the face onto it (x' = sx·x + tx, y' = sy·y + ty)."""
    if bleed <= 0:
        return []
    across = {None: ((0.0, w), (1.0, 0.0)), "left": ((-bleed, 0.0), (-1.0, 0.0)),
              "right": ((w, w + bleed), (-1.0, 2 * w))}
    down = {None: ((0.0, h), (1.0, 0.0)), "top": ((-bleed, 0.0), (-1.0, 0.0)),
            "bottom": ((h, h + bleed), (-1.0, 2 * h))}
    strips = []
    for xs in (None, "left", "right"):
        for ys in (None, "top", "bottom"):
            if (xs is None and ys is None) or (xs and xs not in sides) or (ys and ys not in sides):
                continue
            (x0, x1), mx = across[xs]
            (y0, y1), my = down[ys]
            strips.append(((x0, y0, x1 - x0, y1 - y0), mx, my))
    return strips


class Canvas:
    """Abstract drawing surface. Backends implement the primitives below; helpers build on them."""

    # -- frames ---------------------------------------------------------------------------------
    def push(self) -> None: raise NotImplementedError
    def pop(self) -> None: raise NotImplementedError
    def translate(self, dx: float, dy: float) -> None: raise NotImplementedError
    def rotate(self, degrees: float) -> None:
        """Rotate the frame clockwise (y grows downwards) about its origin."""
        raise NotImplementedError

    def scale(self, sx: float, sy: float) -> None:
        """Scale the frame about its origin (-1 mirrors an axis)."""
        raise NotImplementedError

    @contextlib.contextmanager
    def frame(self, dx: float = 0.0, dy: float = 0.0, rotate: float = 0.0) -> Iterator["Canvas"]:
        self.push()
        masks = self.__dict__.setdefault("_masks", [])
        depth = len(masks)
        try:
            if dx or dy:
                self.translate(dx, dy)
            if rotate:
                self.rotate(rotate)
            yield self
        finally:
            for box in masks[depth:]:
                self._paint_outside(box)
            del masks[depth:]
            self.pop()

    def clip(self, x: float, y: float, w: float, h: float) -> None:
        """Keep what is drawn from now on inside this rectangle, until the enclosing `frame()` ends.

        Backends with clipping (PDF, SVG) override this. The fallback paints white outside the
        rectangle when the frame ends, which is right for previews on white paper."""
        self.__dict__.setdefault("_masks", []).append((x, y, w, h))

    def _paint_outside(self, box: Box) -> None:
        x, y, w, h = box
        far = 5000.0
        white = Style(fill="#ffffff", stroke=None)
        for bx, by, bw, bh in ((-far, -far, 2 * far, far + y), (-far, y + h, 2 * far, far),
                               (-far, y, far + x, h), (x + w, y, far, h)):
            self.rect(bx, by, bw, bh, white)

    # -- structure (optional: backends that have no use for it inherit these) ---------------------
    @contextlib.contextmanager
    def group(self, element_id: str | None = None, /, **data: str) -> Iterator["Canvas"]:
        """Mark what is drawn inside as one component: an SVG <g id=… data-…=…>; ignored elsewhere."""
        yield self

    def reuse(self, key: str, box: Box, draw: Callable[["Canvas"], None]) -> None:
        """Draw `draw(self)` here. Backends may record it once under `key` and repeat the recording
        (a PDF form XObject, an SVG <use>), so the drawing must depend on `key` only and stay
        inside `box` (x, y, w, h in the current frame)."""
        draw(self)

    def bleed_face(self, key: str, size: tuple[float, float], draw: Callable[["Canvas"], None],
                   bleed: float, sides: frozenset[str] = SIDES) -> None:
        """Draw a face (as `reuse(key, (0, 0) + size, draw)`) with its art run `bleed` mm past the
        trim on `sides` ("left", "right", "top", "bottom"): each strip outside the trim shows the
        face mirrored about that edge, so whatever runs to the trim (a coloured header, a
        background) carries on past it, whatever the kit drew. Corners mirror both ways."""
        w, h = size
        self.reuse(key, (0, 0, w, h), draw)
        for strip, (sx, tx), (sy, ty) in bleed_strips(w, h, bleed, sides):
            with self.frame():
                self.clip(*strip)
                with self.frame(tx, ty):
                    self.scale(sx, sy)
                    self.reuse(key, (0, 0, w, h), draw)

    # -- primitives ----------------------------------------------------------------------------
    def rect(self, x: float, y: float, w: float, h: float, style: Style, radius: float = 0.0) -> None:
        raise NotImplementedError

    def rects(self, boxes: Iterable[tuple[float, float, float, float]], fill: str) -> None:
        """Many filled rectangles as one shape (QR codes, patterns): one path in PDF and SVG."""
        raise NotImplementedError

    def line(self, x1: float, y1: float, x2: float, y2: float, style: Style) -> None:
        self.polyline([(x1, y1), (x2, y2)], style)

    def polyline(self, points: Sequence[Point], style: Style) -> None:
        raise NotImplementedError

    def polygon(self, points: Sequence[Point], style: Style) -> None:
        raise NotImplementedError

    def circle(self, cx: float, cy: float, r: float, style: Style) -> None:
        raise NotImplementedError

    def path(self, ops: Sequence[PathOp], style: Style) -> None:
        """Lines and curves (see PathOp), filled with the nonzero rule and/or stroked. The fallback
        draws straight pieces through polygon/polyline; PDF and SVG draw true curves."""
        for points, closed in flatten_path(ops):
            if closed:
                self.polygon(points, style)
            elif style.fill:
                self.polygon(points, Style(fill=style.fill, stroke=None, opacity=style.opacity))
                self.polyline(points, style)
            else:
                self.polyline(points, style)

    def text(self, x: float, y: float, text: str, size_pt: float, *, font: Font = "regular",
             anchor: Anchor = "start", fill: str = "#000000") -> None:
        """Text whose baseline starts (or is centred / ends, by `anchor`) at (x, y)."""
        raise NotImplementedError
