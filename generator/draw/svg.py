"""SVG backend of `Canvas` (svgwrite): one page per file, in millimetres (viewBox units = mm).

Text is drawn as glyph outlines from the kit's embedded font: each glyph used on the page becomes one
<path> in <defs>, and every text run is a row of <use> references placed by the font's advance widths
(the same metrics reportlab uses, so layout matches the PDF). Why outlines and not an @font-face data
URI: librsvg, Inkscape and most non-browser viewers ignore web fonts and would substitute a font
without Japanese glyphs; outlines render identically everywhere and still cost only a few KB per page
because each glyph is stored once. The words stay machine-readable in `data-text` attributes.

`group` gives components an id and data attributes; `reuse` stores a face once in <defs> and places
copies with <use>. Given a shared `fragments` dict, a face is also serialized only once per build
and spliced into every page file that shows it (a tiled board repeats the whole board on each tile
page, clipped). Ids come from keys, never from counters across files or clocks: the same drawing
gives the same bytes.
"""
from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import re
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, Sequence
from xml.sax.saxutils import quoteattr

import svgwrite
import svgwrite.params
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTFont

from .base import FONT_FILES, PT, Anchor, Box, Canvas, Font, PathOp, Point, Style, check_glyphs


def num(value: float) -> str:
    """Numbers as short, stable text (0.001 mm is far below what a printer resolves)."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class _Face:
    """One embedded font: cmap, advances and outlines, read once per process."""

    def __init__(self, font: str):
        self.tt = TTFont(str(FONT_FILES[font]))
        self.key = font[0]
        self.cmap = self.tt.getBestCmap()
        self.hmtx = self.tt["hmtx"].metrics
        self.units = self.tt["head"].unitsPerEm
        self.glyphs = self.tt.getGlyphSet()
        self.names = self.tt.getGlyphOrder()
        self.order = {name: i for i, name in enumerate(self.names)}

    @lru_cache(maxsize=None)
    def outline(self, name: str) -> str:
        pen = SVGPathPen(self.glyphs, ntos=lambda v: num(round(v, 1)))
        self.glyphs[name].draw(TransformPen(pen, (1, 0, 0, -1, 0, 0)))  # font y is up, ours down
        return pen.getCommands()


@lru_cache(maxsize=None)
def _face(font: str) -> _Face:
    return _Face(font)


def _paint(style: Style) -> dict[str, str]:
    attrs = {"fill": style.fill or "none"}
    if style.fill and style.opacity < 1:
        attrs["fill-opacity"] = num(style.opacity)
    if style.stroke and style.width > 0:
        attrs["stroke"] = style.stroke
        attrs["stroke-width"] = num(style.width)
        if style.dash:
            attrs["stroke-dasharray"] = " ".join(num(d) for d in style.dash)
    return attrs


_PARAMETER = svgwrite.params.Parameter(debug=False, profile="full")


class _Element(svgwrite.base.BaseElement):
    """An svgwrite element made without per-element validator set-up (thousands per page)."""

    def __init__(self, tag: str, attrs: dict[str, str]):
        self.elementname = tag
        self._parameter = _PARAMETER
        self.attribs = attrs
        self.elements = []


_element = _Element
_SPLICE = re.compile(r'<tk-splice ref="([^"]+)" />')


def safe_id(text: str) -> str:
    """An XML id from arbitrary text (letters, digits, '-', '_', '.')."""
    text = re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")
    return text if text[:1].isalpha() else f"x{text}"


def face_id(key: str) -> str:
    """A stable id for a reused face: readable, and unique thanks to a digest of the whole key."""
    return f"face-{safe_id(key)[:48]}-{hashlib.sha1(key.encode()).hexdigest()[:6]}"


@dataclasses.dataclass(frozen=True)
class Fragment:
    """A face serialized once: its content, and the glyphs and nested faces it refers to."""

    content: str
    glyphs: frozenset[str]
    faces: tuple[str, ...]


@dataclasses.dataclass
class _Log:
    """What a face being drawn refers to: glyphs and nested faces (keys)."""

    fid: str
    glyphs: set[str] = dataclasses.field(default_factory=set)
    faces: list[str] = dataclasses.field(default_factory=list)


class SvgCanvas(Canvas):
    """One page, `width` x `height` mm. `tostring()` or `save(path)` when drawn."""

    def __init__(self, width: float, height: float, *, title: str = "",
                 fragments: dict[str, Fragment] | None = None):
        self.width, self.height = width, height
        self.dwg = svgwrite.Drawing(size=(f"{num(width)}mm", f"{num(height)}mm"), profile="full",
                                    debug=False, viewBox=f"0 0 {num(width)} {num(height)}")
        if title:
            self.dwg.set_desc(title=title)
        self._parent = self.dwg
        self._pending: list[str] = []
        self._stack: list[tuple[object, list[str]]] = []
        self._glyphs: set[str] = set()
        self._installed: set[str] = set()          # face ids defined in this file
        self._splices: dict[str, str] = {}         # splice ref -> serialized XML (faces, text)
        self._fragments = {} if fragments is None else fragments
        self._logs: list[_Log] = []                # faces being drawn, innermost last
        self._ids: set[str] = set()
        self._clips = 0

    def set_root(self, attrs: Mapping[str, str] | None = None, *, view_box: Box | None = None,
                 fluid: bool = False) -> None:
        """Attributes of the <svg> element itself (an id, a role, an aria-label). `view_box` shows
        that part of the drawing (mm) instead of the page; `fluid` drops the width and height, so the
        image scales to the box a web page gives it."""
        root = self.dwg.attribs
        if view_box is not None:
            root["viewBox"] = " ".join(num(v) for v in view_box)
        if fluid:
            root.pop("width", None)
            root.pop("height", None)
        root.update(attrs or {})

    # -- output -----------------------------------------------------------------------------------
    def tostring(self) -> str:
        # Glyphs go first in <defs>, in a fixed order: the file must not depend on which face
        # happened to be drawn here and which was spliced in from another page.
        glyphs = [self._glyph_path(ref) for ref in sorted(self._glyphs, key=lambda r: (r[1], int(r[2:])))]
        self.dwg.defs.elements[:0] = glyphs
        try:
            buffer = io.StringIO()
            self.dwg.write(buffer, pretty=False)
        finally:
            del self.dwg.defs.elements[:len(glyphs)]
        return self._resolve(buffer.getvalue())

    def _resolve(self, text: str) -> str:
        """Put the pre-serialized pieces in place of their splice points."""
        return _SPLICE.sub(lambda m: self._splices[m[1]], text)

    def _splice(self, xml: str) -> _Element:
        """An element standing for `xml`, written as is (text runs: hundreds of <use> per page)."""
        ref = f"r{len(self._splices)}"
        self._splices[ref] = xml
        return _Element("tk-splice", {"ref": ref})

    def save(self, path: Path) -> None:
        Path(path).write_text(self.tostring(), encoding="utf-8")

    # -- frames -----------------------------------------------------------------------------------
    def push(self) -> None:
        self._stack.append((self._parent, list(self._pending)))

    def pop(self) -> None:
        self._parent, self._pending = self._stack.pop()

    def translate(self, dx: float, dy: float) -> None:
        self._pending.append(f"translate({num(dx)} {num(dy)})")

    def rotate(self, degrees: float) -> None:
        self._pending.append(f"rotate({num(degrees)})")  # SVG turns clockwise when y points down

    def scale(self, sx: float, sy: float) -> None:
        self._pending.append(f"scale({num(sx)} {num(sy)})")

    def _target(self):
        """The element new shapes go into, opening a <g transform> for pending frame changes."""
        if self._pending:
            g = _element("g", {"transform": " ".join(self._pending)})
            self._parent.add(g)
            self._parent, self._pending = g, []
        return self._parent

    def _add(self, tag: str, attrs: dict[str, str]) -> None:
        self._target().add(_element(tag, attrs))

    def clip(self, x: float, y: float, w: float, h: float) -> None:
        # Defined in place (not in <defs>), so a face that clips stays self-contained.
        self._clips += 1
        prefix = f"{self._logs[-1].fid}-" if self._logs else ""
        clip_id = f"{prefix}clip{self._clips}"
        clip = _element("clipPath", {"id": clip_id})
        clip.add(_element("rect", {"x": num(x), "y": num(y), "width": num(w), "height": num(h)}))
        parent = self._target()
        parent.add(clip)
        g = _element("g", {"clip-path": f"url(#{clip_id})"})
        parent.add(g)
        self._parent = g

    @contextlib.contextmanager
    def group(self, element_id: str | None = None, /, **data: str) -> Iterator[Canvas]:
        attrs = {}
        if element_id:
            prefix = f"{self._logs[-1].fid}-" if self._logs else ""
            attrs["id"] = self._unique(prefix + safe_id(element_id))
        attrs.update({f"data-{k.replace('_', '-')}": str(v) for k, v in data.items()})
        g = _element("g", attrs)
        self._target().add(g)
        self.push()
        self._parent = g
        try:
            yield self
        finally:
            self.pop()

    def _unique(self, wanted: str) -> str:
        name, n = wanted, 1
        while name in self._ids:
            n += 1
            name = f"{wanted}-{n}"
        self._ids.add(name)
        return name

    def reuse(self, key: str, box: Box, draw: Callable[[Canvas], None]) -> None:
        fid = face_id(key)
        if fid not in self._installed:
            fragment = self._fragments.get(key)
            if fragment is None:
                fragment = self._fragments[key] = self._draw_fragment(fid, draw)
            self._install(key, fragment)
        for log in self._logs:
            log.faces.append(key)
        self._add("use", {"xlink:href": f"#{fid}"})

    def _draw_fragment(self, fid: str, draw: Callable[[Canvas], None]) -> Fragment:
        g = _element("g", {})
        saved = (self._parent, self._pending, self._stack, self._clips)
        self._parent, self._pending, self._stack, self._clips = g, [], [], 0
        self._logs.append(_Log(fid))
        try:
            draw(self)
        finally:
            log = self._logs.pop()
            self._parent, self._pending, self._stack, self._clips = saved
        whole = g.tostring()   # "<g>…</g>", or "<g />" when the face drew nothing
        content = self._resolve(whole[3:-4] if whole.startswith("<g>") else "")
        return Fragment(content, frozenset(log.glyphs), tuple(log.faces))

    def _install(self, key: str, fragment: Fragment) -> None:
        """Define a face in this file: its glyphs, the faces it uses, then a splice point."""
        fid = face_id(key)
        if fid in self._installed:
            return
        self._installed.add(fid)
        for ref in sorted(fragment.glyphs):
            self._define_glyph(ref)
        for inner in fragment.faces:
            self._install(inner, self._fragments[inner])
        self.dwg.defs.add(_element("tk-splice", {"ref": fid}))
        self._splices[fid] = f'<g id="{fid}">{fragment.content}</g>'

    def _define_glyph(self, ref: str) -> None:
        self._glyphs.add(ref)

    @staticmethod
    def _glyph_path(ref: str) -> _Element:
        face = _face("bold" if ref[1] == "b" else "regular")
        return _element("path", {"id": ref, "d": face.outline(face.names[int(ref[2:])])})

    # -- primitives -------------------------------------------------------------------------------
    def rect(self, x: float, y: float, w: float, h: float, style: Style, radius: float = 0.0) -> None:
        attrs = {"x": num(x), "y": num(y), "width": num(w), "height": num(h)}
        if radius > 0:
            attrs["rx"] = attrs["ry"] = num(min(radius, w / 2, h / 2))
        attrs.update(_paint(style))
        self._add("rect", attrs)

    def rects(self, boxes: Iterable[tuple[float, float, float, float]], fill: str) -> None:
        d = "".join(f"M{num(x)} {num(y)}h{num(w)}v{num(h)}h{num(-w)}z" for x, y, w, h in boxes)
        if d:
            self._add("path", {"d": d, "fill": fill})

    def polyline(self, points: Sequence[Point], style: Style) -> None:
        if len(points) < 2:
            return
        attrs = {"points": " ".join(f"{num(x)},{num(y)}" for x, y in points)}
        attrs.update(_paint(Style(fill=None, stroke=style.stroke, width=style.width, dash=style.dash)))
        self._add("polyline", attrs)

    def polygon(self, points: Sequence[Point], style: Style) -> None:
        attrs = {"points": " ".join(f"{num(x)},{num(y)}" for x, y in points)}
        attrs.update(_paint(style))
        self._add("polygon", attrs)

    def circle(self, cx: float, cy: float, r: float, style: Style) -> None:
        attrs = {"cx": num(cx), "cy": num(cy), "r": num(r)}
        attrs.update(_paint(style))
        self._add("circle", attrs)

    def path(self, ops: Sequence[PathOp], style: Style) -> None:
        d = "".join(op[0] + " ".join(num(v) for v in op[1:]) for op in ops)
        attrs = {"d": d}
        attrs.update(_paint(style))
        self._add("path", attrs)

    def text(self, x: float, y: float, text: str, size_pt: float, *, font: Font = "regular",
             anchor: Anchor = "start", fill: str = "#000000") -> None:
        if not text:
            return
        check_glyphs(text, font)
        face = _face(font)
        names = [face.cmap.get(ord(ch), ".notdef") for ch in text]
        advance = 0
        uses = []
        for name in names:
            if face.outline(name):
                ref = f"g{face.key}{face.order[name]}"
                self._define_glyph(ref)
                for log in self._logs:
                    log.glyphs.add(ref)
                uses.append(f'<use x="{advance}" xlink:href="#{ref}" />' if advance
                            else f'<use xlink:href="#{ref}" />')
            advance += face.hmtx[name][0]
        scale = size_pt * PT / face.units
        if anchor != "start":
            x -= advance * scale / (2 if anchor == "middle" else 1)
        head = (f'<g data-text={quoteattr(text)} fill={quoteattr(fill)} '
                f'transform="translate({num(x)} {num(y)}) scale({scale:.6g})">')
        self._target().add(self._splice(head + "".join(uses) + "</g>"))
