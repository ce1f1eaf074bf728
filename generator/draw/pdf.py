"""PDF backend of `Canvas` (reportlab), and `write_pdf`, which turns a list of pages into one file.

Each page is drawn in millimetres with y downwards: the page stream starts with one matrix that maps
millimetres to points and flips y, so every primitive passes its numbers straight through; text flips
back locally with its text matrix. `reuse` draws a component face once as a form XObject and places
it for every copy, which keeps a 72-card PDF small and quick to write.

Shapes are written as PDF path operators directly (`addLiteral`), with numbers rounded to 0.001 mm:
reportlab's own path objects format every number through a slow pure-Python routine, which made
path drawing most of the build time. Text, fonts, transparency and forms stay with reportlab.

Output is byte-identical for the same input: reportlab's invariant mode fixes dates and document ids,
and form names come from a counter in drawing order.
"""
from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Protocol, Sequence

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfgen import canvas as rl_canvas

from .base import PT, Anchor, Box, Canvas, Font, PathOp, Point, Style, check_glyphs, font_name

MM = 72 / 25.4  # points per millimetre
KAPPA = 4 * (math.sqrt(2) - 1) / 3   # Bézier control distance for a quarter circle of radius 1


class Page(Protocol):
    """What `write_pdf` needs of a page (the sheets' Page has it)."""

    size: tuple[float, float]
    trim: Box | None

    def draw(self, canvas: Canvas) -> None: ...


def num(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@lru_cache(maxsize=None)
def _rgb(colour: str) -> str:
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(ch * 2 for ch in colour)
    return " ".join(num(int(colour[i:i + 2], 16) / 255) for i in (0, 2, 4))


# The graphics state last written, so repeated settings are not written again.
_DEFAULT_STATE = {"fill": "0 0 0", "stroke": "0 0 0", "width": 1.0, "dash": (), "alpha": 1.0}


class PdfCanvas(Canvas):
    """Draws on a reportlab canvas; `begin_page`/`end_page` bracket each page."""

    def __init__(self, c: rl_canvas.Canvas):
        self.c = c
        self._out = c.addLiteral
        self._state = dict(_DEFAULT_STATE)
        self._stack: list[dict] = []
        self._forms: dict[str, str] = {}

    # -- pages ------------------------------------------------------------------------------------
    def begin_page(self, width: float, height: float, trim: Box | None = None,
                   bleed: Box | None = None) -> None:
        self.c.setPageSize((width * MM, height * MM))

        def points(box: Box | None):
            if box is None:
                return None
            x, y, w, h = box
            return (x * MM, (height - y - h) * MM, (x + w) * MM, (height - y) * MM)

        self.c.setTrimBox(points(trim))
        self.c.setBleedBox(points(bleed))
        self.c.saveState()
        self.c.transform(MM, 0, 0, -MM, 0, height * MM)
        self._state = dict(_DEFAULT_STATE)
        self._stack = []

    def end_page(self) -> None:
        self.c.restoreState()
        self.c.showPage()

    # -- frames -----------------------------------------------------------------------------------
    def push(self) -> None:
        self.c.saveState()
        self._stack.append(dict(self._state))

    def pop(self) -> None:
        self.c.restoreState()
        self._state = self._stack.pop()

    def translate(self, dx: float, dy: float) -> None:
        self._out(f"1 0 0 1 {num(dx)} {num(dy)} cm")

    def rotate(self, degrees: float) -> None:
        # y points down, so PDF's counter-clockwise turn shows clockwise on the page.
        t = math.radians(degrees)
        cos, sin = num(math.cos(t)), num(math.sin(t))
        self._out(f"{cos} {sin} {num(-math.sin(t))} {cos} 0 0 cm")

    def scale(self, sx: float, sy: float) -> None:
        self._out(f"{num(sx)} 0 0 {num(sy)} 0 0 cm")

    def clip(self, x: float, y: float, w: float, h: float) -> None:
        self._out(f"{num(x)} {num(y)} {num(w)} {num(h)} re W n")

    def reuse(self, key: str, box: Box, draw: Callable[[Canvas], None]) -> None:
        name = self._forms.get(key)
        if name is None:
            name = self._forms[key] = f"Face{len(self._forms)}"
            x, y, w, h = box
            saved, self._state = self._state, dict(_DEFAULT_STATE)
            saved_stack, self._stack = self._stack, []
            self.c.beginForm(name, x, y, x + w, y + h)
            try:
                draw(self)
            finally:
                self._state, self._stack = saved, saved_stack
            self.c.endForm(Resources=_form_resources(self.c))
        self.c.doForm(name)

    # -- paint state ------------------------------------------------------------------------------
    def _fill(self, colour: str, opacity: float = 1.0) -> None:
        rgb = _rgb(colour)
        if self._state["fill"] != rgb:
            self._out(f"{rgb} rg")
            self._state["fill"] = rgb
        if self._state["alpha"] != opacity:
            self.c.setFillAlpha(opacity)   # an ExtGState: reportlab keeps the resource list
            self._state["alpha"] = opacity

    def _stroke(self, style: Style) -> None:
        rgb = _rgb(style.stroke)  # type: ignore[arg-type]
        if self._state["stroke"] != rgb:
            self._out(f"{rgb} RG")
            self._state["stroke"] = rgb
        if self._state["width"] != style.width:
            self._out(f"{num(style.width)} w")
            self._state["width"] = style.width
        if self._state["dash"] != style.dash:
            self._out(f"[{' '.join(num(d) for d in style.dash)}] 0 d")
            self._state["dash"] = style.dash

    def _paint(self, style: Style) -> str | None:
        """Set colours for `style`; the operator that paints the current path, or None."""
        fill = style.fill is not None
        stroke = style.stroke is not None and style.width > 0
        if fill:
            self._fill(style.fill, style.opacity)  # type: ignore[arg-type]
        if stroke:
            self._stroke(style)
        return "B" if fill and stroke else "f" if fill else "S" if stroke else None

    # -- primitives -------------------------------------------------------------------------------
    def rect(self, x: float, y: float, w: float, h: float, style: Style, radius: float = 0.0) -> None:
        op = self._paint(style)
        if op is None:
            return
        r = min(radius, w / 2, h / 2)
        if r <= 0:
            self._out(f"{num(x)} {num(y)} {num(w)} {num(h)} re {op}")
            return
        k = r * (1 - KAPPA)
        x2, y2 = x + w, y + h
        self._out(" ".join((
            f"{num(x + r)} {num(y)} m {num(x2 - r)} {num(y)} l",
            f"{num(x2 - k)} {num(y)} {num(x2)} {num(y + k)} {num(x2)} {num(y + r)} c",
            f"{num(x2)} {num(y2 - r)} l",
            f"{num(x2)} {num(y2 - k)} {num(x2 - k)} {num(y2)} {num(x2 - r)} {num(y2)} c",
            f"{num(x + r)} {num(y2)} l",
            f"{num(x + k)} {num(y2)} {num(x)} {num(y2 - k)} {num(x)} {num(y2 - r)} c",
            f"{num(x)} {num(y + r)} l",
            f"{num(x)} {num(y + k)} {num(x + k)} {num(y)} {num(x + r)} {num(y)} c h {op}")))

    def rects(self, boxes: Iterable[tuple[float, float, float, float]], fill: str) -> None:
        ops = " ".join(f"{num(x)} {num(y)} {num(w)} {num(h)} re" for x, y, w, h in boxes)
        if ops:
            self._fill(fill)
            self._out(f"{ops} f")

    def polyline(self, points: Sequence[Point], style: Style) -> None:
        if len(points) < 2 or style.stroke is None or style.width <= 0:
            return
        self._stroke(style)
        self._out(_lines(points) + " S")

    def polygon(self, points: Sequence[Point], style: Style) -> None:
        op = self._paint(style)
        if len(points) < 2 or op is None:
            return
        self._out(_lines(points) + f" h {op}")

    def circle(self, cx: float, cy: float, r: float, style: Style) -> None:
        op = self._paint(style)
        if op is None:
            return
        k = r * KAPPA
        self._out(" ".join((
            f"{num(cx + r)} {num(cy)} m",
            f"{num(cx + r)} {num(cy + k)} {num(cx + k)} {num(cy + r)} {num(cx)} {num(cy + r)} c",
            f"{num(cx - k)} {num(cy + r)} {num(cx - r)} {num(cy + k)} {num(cx - r)} {num(cy)} c",
            f"{num(cx - r)} {num(cy - k)} {num(cx - k)} {num(cy - r)} {num(cx)} {num(cy - r)} c",
            f"{num(cx + k)} {num(cy - r)} {num(cx + r)} {num(cy - k)} {num(cx + r)} {num(cy)} c h {op}")))

    def path(self, ops: Sequence[PathOp], style: Style) -> None:
        op = self._paint(style)
        if op is None:
            return
        parts = []
        here = (0.0, 0.0)
        for step in ops:
            code = step[0]
            if code in ("M", "L"):
                parts.append(f"{num(step[1])} {num(step[2])} {'m' if code == 'M' else 'l'}")
                here = (step[1], step[2])
            elif code == "C":
                parts.append(" ".join(num(v) for v in step[1:7]) + " c")
                here = (step[5], step[6])
            elif code == "Q":  # a quadratic is a cubic with its controls two thirds of the way
                (x0, y0), (qx, qy), (x, y) = here, (step[1], step[2]), (step[3], step[4])
                parts.append(" ".join(num(v) for v in (
                    x0 + 2 / 3 * (qx - x0), y0 + 2 / 3 * (qy - y0),
                    x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), x, y)) + " c")
                here = (x, y)
            elif code == "Z":
                parts.append("h")
            else:
                raise ValueError(f"unknown path step {code!r}")
        if parts:
            self._out(" ".join(parts) + f" {op}")

    def text(self, x: float, y: float, text: str, size_pt: float, *, font: Font = "regular",
             anchor: Anchor = "start", fill: str = "#000000") -> None:
        if not text:
            return
        check_glyphs(text, font)
        name = font_name(font)
        size = size_pt * PT
        if anchor != "start":
            width = pdfmetrics.stringWidth(text, name, size)
            x -= width / 2 if anchor == "middle" else width
        self._fill(fill)
        # As reportlab's text object writes it (one font subset per 256 glyphs), minus its slow
        # number formatting: the text matrix flips y back so glyphs stand upright.
        doc = self.c._doc
        face = pdfmetrics.getFont(name)
        shown = " ".join(f"{face.getSubsetInternalName(subset, doc)} {num(size)} Tf ({self.c._escape(chunk)}) Tj"
                         for subset, chunk in face.splitString(text, doc))
        self._out(f"BT 1 0 0 -1 {num(x)} {num(y)} Tm {shown} ET")


def _lines(points: Sequence[Point]) -> str:
    (x0, y0), rest = points[0], points[1:]
    return f"{num(x0)} {num(y0)} m " + " ".join(f"{num(x)} {num(y)} l" for x, y in rest)


def _form_resources(c: rl_canvas.Canvas) -> pdfdoc.PDFResourceDictionary:
    """The resources of the form being closed. reportlab's forms list fonts and XObjects but drop
    the ExtGState (transparency) entries they use, which viewers then reject; so list them here."""
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    ext = c._extgstate.getState()
    if ext:
        resources.ExtGState = ext

    class Holder:
        XObjects = None
    c._setXObjects(Holder)
    if Holder.XObjects:
        resources.XObject = Holder.XObjects
    return resources


def write_pdf(path: Path, pages: Iterable[Page], *, title: str = "", subject: str = "") -> int:
    """Draw `pages` into one PDF at `path`; returns the number of pages."""
    regular = font_name("regular")
    font_name("bold")
    # Plain deflated streams: ASCII85 on top makes them a quarter larger and slow to write.
    saved_a85, rl_config.useA85 = rl_config.useA85, 0
    try:
        c = rl_canvas.Canvas(str(path), invariant=1, pageCompression=1, initialFontName=regular,
                             initialFontSize=10)
        c.setViewerPreference("PrintScaling", "None")  # print at 100 %, never "fit to page"
        c.setTitle(title)
        c.setSubject(subject)
        c.setAuthor("Tokyo table kit")
        c.setCreator("Tokyo table kit generator")
        canvas = PdfCanvas(c)
        count = 0
        for page in pages:
            canvas.begin_page(*page.size, trim=page.trim, bleed=getattr(page, "bleed", None))
            page.draw(canvas)
            canvas.end_page()
            count += 1
        c.save()
    finally:
        rl_config.useA85 = saved_a85
    return count
