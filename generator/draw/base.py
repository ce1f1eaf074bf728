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
from pathlib import Path
from typing import Iterable, Iterator, Literal, Sequence

FONT_DIR = Path(__file__).resolve().parents[2] / "assets" / "fonts"
FONT_FILES = {
    "regular": FONT_DIR / "NotoSansJP-Kit-Regular.ttf",
    "bold": FONT_DIR / "NotoSansJP-Kit-Bold.ttf",
}
PT = 25.4 / 72  # millimetres per point

Anchor = Literal["start", "middle", "end"]
Font = Literal["regular", "bold"]
Point = tuple[float, float]


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
    from reportlab.pdfbase import pdfmetrics

    return pdfmetrics.stringWidth(text, font_name(font), size_pt) * PT


class Canvas:
    """Abstract drawing surface. Backends implement the primitives below; helpers build on them."""

    # -- frames ---------------------------------------------------------------------------------
    def push(self) -> None: raise NotImplementedError
    def pop(self) -> None: raise NotImplementedError
    def translate(self, dx: float, dy: float) -> None: raise NotImplementedError
    def rotate(self, degrees: float) -> None:
        """Rotate the frame clockwise (y grows downwards) about its origin."""
        raise NotImplementedError

    @contextlib.contextmanager
    def frame(self, dx: float = 0.0, dy: float = 0.0, rotate: float = 0.0) -> Iterator["Canvas"]:
        self.push()
        try:
            if dx or dy:
                self.translate(dx, dy)
            if rotate:
                self.rotate(rotate)
            yield self
        finally:
            self.pop()

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

    def text(self, x: float, y: float, text: str, size_pt: float, *, font: Font = "regular",
             anchor: Anchor = "start", fill: str = "#000000") -> None:
        """Text whose baseline starts (or is centred / ends, by `anchor`) at (x, y)."""
        raise NotImplementedError
