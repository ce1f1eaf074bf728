"""Where printed words sit, read back from a written PDF: each text span's glyph box and the shapes
drawn under and beside it, in mm (origin top-left, y down). For the print-fit tests.

A span's *box* is the smallest closed shape (filled, or a closed outline) drawn before it whose
outline holds the span's centre: the band, disc, badge or card face it was written on. A label
*overflows* when its glyph box leaves that shape; it *collides* when it runs into a mark drawn in
the same box that does not hold it (an icon beside a word, the next badge), or into another span.
*Cut short* is a span ending in "…". Measured with pymupdf's text and drawing traces, which see
inside form XObjects (every face copy) but not clipping, so mirrored bleed copies are left out.

Glyph boxes are tight, not the font's line box: Noto Sans JP's capitals reach 0.73 em above the
baseline and its descenders 0.12 em below; a word's box is the advance widths across.
"""
from __future__ import annotations

import dataclasses
import math
from functools import lru_cache
from pathlib import Path

import pymupdf

MM = 72 / 25.4
CAP = 0.72            # em above the baseline that capitals and x-height letters reach
KANJI = 0.86          # em above the baseline kanji and kana reach
DESCENT = 0.12        # em below the baseline of g, j, p, q, y and commas
DESCENDERS = set("gjpqy,;()[]{}|/")
TOLERANCE = 0.05      # mm a glyph box may pass its box's outline or touch a mark (rounding)
MARK_MM = 20.0        # a mark a label can run into is at most this big across: an icon, a badge, a disc
AREA_MM = 35.0        # a closed shape wider and taller than this is an area (a map's ward, a card's
                      # ground) that words may cross, not a box they must stay in
ELLIPSIS = "…"


@dataclasses.dataclass(frozen=True)
class Span:
    text: str
    size: float                  # pt
    colour: tuple[float, float, float]
    box: tuple[float, float, float, float]   # glyph box x0, y0, x1, y1 in mm
    seqno: int
    font: str

    @property
    def centre(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return (x0 + x1) / 2, (y0 + y1) / 2

    @property
    def cut_short(self) -> bool:
        return self.text.rstrip().endswith(ELLIPSIS)


@dataclasses.dataclass(frozen=True)
class Shape:
    points: tuple[tuple[float, float], ...]   # the outline, curves flattened, in mm
    bbox: tuple[float, float, float, float]
    fill: tuple[float, float, float] | None
    stroke: tuple[float, float, float] | None
    closed: bool
    seqno: int
    opacity: float = 1.0
    width: float = 0.0                         # stroke width, mm (0: not stroked)
    clip: tuple[float, float, float, float] | None = None   # what of it shows (x0, y0, x1, y1), mm

    @property
    def area(self) -> float:
        x0, y0, x1, y1 = self.bbox
        return (x1 - x0) * (y1 - y0)

    def holds(self, x: float, y: float, tolerance: float = 0.0) -> bool:
        """Whether (x, y) is inside the outline (or within `tolerance` mm of it)."""
        x0, y0, x1, y1 = self.bbox
        if not (x0 - tolerance <= x <= x1 + tolerance and y0 - tolerance <= y <= y1 + tolerance):
            return False
        if self.clip is not None and not (self.clip[0] <= x <= self.clip[2] and self.clip[1] <= y <= self.clip[3]):
            return False
        if _inside(self.points, x, y):
            return True
        return tolerance > 0 and _distance(self.points, x, y) <= tolerance

    def holds_box(self, box, tolerance: float = TOLERANCE) -> bool:
        """Whether a box lies inside the outline, clear of its stroke (half the pen inside)."""
        x0, y0, x1, y1 = box
        corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        inset = self.width / 2 - tolerance
        for x, y in corners:
            if not self.holds(x, y, tolerance):
                return False
            if inset > 0 and _distance(self.points, x, y) < inset:
                return False
        return True


def _inside(points, x, y) -> bool:
    inside = False
    n = len(points)
    for i in range(n):
        (ax, ay), (bx, by) = points[i], points[(i + 1) % n]
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def _distance(points, x, y) -> float:
    best = math.inf
    n = len(points)
    for i in range(n):
        (ax, ay), (bx, by) = points[i], points[(i + 1) % n]
        dx, dy = bx - ax, by - ay
        t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(ax + t * dx - x, ay + t * dy - y))
    return best


def _mm(p) -> tuple[float, float]:
    return (p.x / MM, p.y / MM)


def _outline(items) -> list[tuple[float, float]]:
    points: list[tuple[float, float]] = []
    for item in items:
        kind = item[0]
        if kind == "l":
            for p in item[1:3]:
                if not points or points[-1] != _mm(p):
                    points.append(_mm(p))
        elif kind == "c":
            p0, c1, c2, p3 = (_mm(p) for p in item[1:5])
            if not points or points[-1] != p0:
                points.append(p0)
            for i in range(1, 9):
                t = i / 8
                u = 1 - t
                points.append((u ** 3 * p0[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t ** 3 * p3[0],
                               u ** 3 * p0[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t ** 3 * p3[1]))
        elif kind == "re":
            r = item[1]
            points += [(r.x0 / MM, r.y0 / MM), (r.x1 / MM, r.y0 / MM), (r.x1 / MM, r.y1 / MM), (r.x0 / MM, r.y1 / MM)]
        elif kind == "qu":
            q = item[1]
            points += [_mm(q.ul), _mm(q.ur), _mm(q.lr), _mm(q.ll)]
    return points


def _intersect(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _traced(page: pymupdf.Page):
    """The page's paths with the clip each is drawn under (None: the page), and the clip in force
    after each sequence number, for the text drawn between paths. A clip opened at nesting level L
    holds until the next entry at level L or less."""
    stack: list[tuple[int, tuple | None]] = []
    paths, timeline = [], []
    for d in page.get_drawings(extended=True):
        level = d.get("level", 0)
        while stack and stack[-1][0] >= level:
            stack.pop()
        clip = None
        for _, rect in stack:
            clip = _intersect(clip, rect)
        if d["type"] in ("clip", "group"):
            rect = d.get("scissor") if d["type"] == "clip" else None
            mm = (rect.x0 / MM, rect.y0 / MM, rect.x1 / MM, rect.y1 / MM) if rect is not None else None
            stack.append((level, mm))
            inner = _intersect(clip, mm)
            timeline.append((d.get("seqno", -1), inner))
            continue
        timeline.append((d.get("seqno", -1), clip))
        paths.append((d, clip))
    return paths, timeline


def _clip_at(timeline, seqno: int):
    clip = None
    for s, c in timeline:
        if s >= seqno:
            break
        clip = c
    return clip


def _empty(box) -> bool:
    return box is not None and (box[0] >= box[2] or box[1] >= box[3])


def shapes(page: pymupdf.Page) -> list[Shape]:
    """Every path drawn on the page (inside forms too), outlines flattened, in mm, each with the
    clip it shows through (a path clipped away entirely is left out)."""
    out = []
    for d, clip in _traced(page)[0]:
        r = d["rect"]
        if clip is not None and _empty(_intersect(clip, (r.x0 / MM, r.y0 / MM, r.x1 / MM, r.y1 / MM))):
            continue
        if len(d["items"]) > 1 and all(item[0] == "re" for item in d["items"]):
            # many rectangles painted as one path (a piece's squares, a QR code): each its own shape
            for item in d["items"]:
                r = item[1]
                out.append(Shape(tuple(_outline([item])), (r.x0 / MM, r.y0 / MM, r.x1 / MM, r.y1 / MM),
                                 tuple(d["fill"]) if d.get("fill") is not None else None, None, True,
                                 d["seqno"], d.get("fill_opacity") or 1.0, clip=clip))
            continue
        points = _outline(d["items"])
        if len(points) < 2:
            continue
        r = d["rect"]
        kinds = {item[0] for item in d["items"]}
        closed = bool(d.get("closePath")) or d.get("fill") is not None or kinds <= {"re", "qu"} \
            or (len(points) > 2 and math.dist(points[0], points[-1]) < 0.05)
        out.append(Shape(tuple(points), (r.x0 / MM, r.y0 / MM, r.x1 / MM, r.y1 / MM),
                         tuple(d["fill"]) if d.get("fill") is not None else None,
                         tuple(d["color"]) if d.get("color") is not None else None,
                         closed, d["seqno"], d.get("fill_opacity") or 1.0,
                         (d.get("width") or 0) / MM if d.get("color") is not None else 0.0, clip))
    return out


def spans(page: pymupdf.Page) -> list[Span]:
    """Every non-blank span, with its tight glyph box (upright and quarter-turned text; a mirrored
    copy, which only a clipped bleed strip holds, is left out)."""
    out = []
    timeline = _traced(page)[1]
    for t in page.get_texttrace():
        text = "".join(chr(c[0]) for c in t["chars"])
        if not text.strip() or t.get("type", 0) == 3:
            continue
        dx, dy = (round(v, 3) for v in t["dir"])
        size = t["size"]
        em = size / MM
        xs0 = [c[3][0] for c in t["chars"] if chr(c[0]).strip()]
        xs1 = [c[3][2] for c in t["chars"] if chr(c[0]).strip()]
        ys0 = [c[3][1] for c in t["chars"] if chr(c[0]).strip()]
        ys1 = [c[3][3] for c in t["chars"] if chr(c[0]).strip()]
        origins = [c[2] for c in t["chars"]]
        up = KANJI if any(ord(ch) > 0x2E80 for ch in text) else CAP
        down = DESCENT if any(ch in DESCENDERS for ch in text) else 0.0
        if (dx, dy) == (1, 0):
            base = origins[0][1] / MM
            box = (min(xs0) / MM, base - up * em, max(xs1) / MM, base + down * em)
        elif (dx, dy) == (0, -1):       # written up the page: the glyphs' tops point left
            base = origins[0][0] / MM
            box = (base - up * em, min(ys0) / MM, base + down * em, max(ys1) / MM)
        elif (dx, dy) == (0, 1):        # written down the page: the glyphs' tops point right
            base = origins[0][0] / MM
            box = (base - down * em, min(ys0) / MM, base + up * em, max(ys1) / MM)
        elif (dx, dy) == (-1, 0) and origins[0][0] > origins[-1][0]:
            base = origins[0][1] / MM    # upside down
            box = (min(xs0) / MM, base - down * em, max(xs1) / MM, base + up * em)
        else:
            continue
        if _mirrored(t):
            continue
        clip = _clip_at(timeline, t["seqno"])
        if clip is not None and _empty(_intersect(clip, box)):
            continue                      # clipped away: a bleed strip's copy, a tile's overlap
        out.append(Span(text, size, tuple(t["color"]) if t.get("color") else (0, 0, 0), box, t["seqno"], t["font"]))
    return out


def _mirrored(t) -> bool:
    """A span drawn through a mirroring matrix (the bleed strips' reflected faces) runs its glyphs
    against its direction."""
    chars = [c for c in t["chars"] if chr(c[0]).strip()]
    if len(chars) < 2:
        return False
    (x0, y0), (x1, y1) = chars[0][2], chars[-1][2]
    dx, dy = t["dir"]
    return (x1 - x0) * dx + (y1 - y0) * dy < 0


@dataclasses.dataclass(frozen=True)
class Finding:
    page: int
    kind: str            # "cut short", "overflows", "collides"
    text: str
    detail: str

    def __str__(self) -> str:
        return f"p{self.page} {self.kind}: {self.text!r} {self.detail}"


def container(span: Span, drawn: list[Shape]) -> Shape | None:
    """The smallest closed shape drawn before the span that holds its centre."""
    cx, cy = span.centre
    best = None
    for s in drawn:
        x0, y0, x1, y1 = s.bbox
        if min(x1 - x0, y1 - y0) > AREA_MM:
            continue
        if s.seqno < span.seqno and s.closed and s.holds(cx, cy) and (best is None or s.area < best.area):
            best = s
    return best


def _overlap(a, b) -> float:
    """How far two boxes (x0, y0, x1, y1) overlap: the smaller of the overlap's sides, mm."""
    return min(min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1]))


def _hits(box, shape: Shape) -> bool:
    """Whether a shape's outline or inside reaches into the box by more than the tolerance."""
    x0, y0, x1, y1 = box
    grow = shape.width / 2 - TOLERANCE       # a stroked mark's pen reaches half its width out
    inner = (x0 - grow, y0 - grow, x1 + grow, y1 + grow)
    if shape.clip is not None:
        inner = _intersect(inner, shape.clip)
    if inner[0] >= inner[2] or inner[1] >= inner[3] or _overlap(inner, shape.bbox) <= 0:
        return False
    if any(inner[0] <= x <= inner[2] and inner[1] <= y <= inner[3] for x, y in shape.points):
        return True
    # an edge across the box without a vertex in it
    pts = shape.points if shape.closed else shape.points
    n = len(pts)
    for i in range(n if shape.closed else n - 1):
        (ax, ay), (bx, by) = pts[i], pts[(i + 1) % n]
        if _segment_hits(ax, ay, bx, by, inner):
            return True
    return shape.closed and shape.fill is not None and shape.holds((inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2)


def _segment_hits(ax, ay, bx, by, box) -> bool:
    x0, y0, x1, y1 = box
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
        if p == 0:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
    return t0 <= t1


def findings(page: pymupdf.Page, number: int, *, face: bool = False) -> list[Finding]:
    """Every label on the page cut short, out of its box, or run into a mark or another label; on a
    `face` (a page the size of one component), also every label that leaves the face."""
    drawn = shapes(page)
    pw, ph = page.rect.width / MM, page.rect.height / MM
    every = spans(page)
    written = [s for s in every if s.box[0] > -0.5 and s.box[1] > -0.5 and s.box[2] < pw + 0.5
               and s.box[3] < ph + 0.5]      # a copy outside the page is one a clip cut away
    out = []
    if face:
        out += [Finding(number, "leaves the face", s.text, f"{s.size:.1f} pt, glyphs {[round(v, 1) for v in s.box]}"
                                                           f" on a {pw:.1f} × {ph:.1f} mm face")
                for s in every if s.box[0] < -TOLERANCE or s.box[1] < -TOLERANCE
                or s.box[2] > pw + TOLERANCE or s.box[3] > ph + TOLERANCE]
    for span in written:
        where = f"{span.size:.1f} pt at ({span.centre[0]:.1f}, {span.centre[1]:.1f}) mm"
        if span.cut_short:
            out.append(Finding(number, "cut short", span.text, where))
        box = container(span, drawn)
        if box is not None and not box.holds_box(span.box):
            x0, y0, x1, y1 = box.bbox
            out.append(Finding(number, "overflows", span.text,
                               f"{where}: its box {x1 - x0:.1f} × {y1 - y0:.1f} mm at ({x0:.1f}, {y0:.1f})"))
        # what the label sits on (its box and the larger shapes under it) is not a mark it runs into;
        # anything else small drawn in its box, before or over it, is
        under = [s for s in drawn if s.seqno < span.seqno and s.closed and s.holds(*span.centre)
                 and (box is None or s.area >= box.area)]
        inside = [s for s in drawn if s is not box and s not in under
                  and (s.seqno > span.seqno and s.fill is not None       # painted over the words
                       or max(s.bbox[2] - s.bbox[0], s.bbox[3] - s.bbox[1]) <= MARK_MM)
                  and (box is None or _overlap(s.bbox, box.bbox) > 0)]
        for s in inside:
            if _hits(span.box, s):
                x0, y0, x1, y1 = s.bbox
                out.append(Finding(number, "collides", span.text,
                                   f"{where}: with a mark {x1 - x0:.1f} × {y1 - y0:.1f} mm at ({x0:.1f}, {y0:.1f})"))
                break
    for i, a in enumerate(written):
        for b in written[i + 1:]:
            if _overlap(a.box, b.box) > TOLERANCE:
                out.append(Finding(number, "collides", a.text, f"with the text {b.text!r}"))
    return out


@lru_cache(maxsize=None)
def pdf_findings(path: Path) -> tuple[Finding, ...]:
    with pymupdf.open(str(path)) as doc:
        return tuple(f for number, page in enumerate(doc, 1) for f in findings(page, number))


# -- every face of a kit, on its own page ----------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class FacePage:
    """One component face on a page of its own size (what `write_pdf` needs of a page)."""

    name: str
    size: tuple[float, float]
    paint: object
    trim: tuple | None = None

    def draw(self, canvas) -> None:
        self.paint(canvas)


def face_pages(kit, papers=("letter", "a4")) -> list[FacePage]:
    """Every face the kit draws: each card or token item's front and back at its trim size, each
    board at its size, each page component in the printable area of each paper."""
    from generator.kits.base import BoardSection, CardSection, PageSection
    from generator.layouts import load_layout

    sheets = load_layout()
    pages: list[FacePage] = []
    for section in kit.sections:
        if isinstance(section, CardSection):
            for item in section.items:
                for side, draw in (("front", section.draw_front), ("back", section.draw_back)):
                    if draw is not None:
                        pages.append(FacePage(f"{section.kind} {item.id} {side}", section.size,
                                              lambda c, d=draw, i=item: d(c, i)))
        elif isinstance(section, BoardSection):
            pages.append(FacePage(f"{section.kind} {section.id}", section.size, section.draw))
        elif isinstance(section, PageSection):
            for paper in papers:
                pw, ph = sheets.papers[paper].size
                w, h = pw - 2 * sheets.margin, ph - 2 * sheets.margin
                pages.append(FacePage(f"{section.kind} {section.id} ({paper})", (w, h),
                                      lambda c, s=section, w=w, h=h: s.draw(c, w, h)))
    return pages


def face_findings(kit, folder: Path, papers=("letter", "a4")) -> list[tuple[str, Finding]]:
    """(face name, finding) for every face of the kit, drawn into one PDF in `folder`."""
    from generator.draw.pdf import write_pdf

    pages = face_pages(kit, papers)
    path = folder / f"{kit.game}-faces.pdf"
    write_pdf(path, pages)
    out = []
    with pymupdf.open(str(path)) as doc:
        for page, face in zip(doc, pages):
            out += [(face.name, f) for f in findings(page, 0, face=True)]
    return out


# -- contrast --------------------------------------------------------------------------------------

SMALL_PT = 9.0        # "small text": up to this size a label needs 4.5:1 against what is under it
MIN_CONTRAST = 4.5    # WCAG 2's AA ratio for normal-size text


def luminance(rgb) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(float(c)) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ground(span: Span, drawn: list[Shape]):
    """The colour under a span: the fill of the last opaque shape drawn before it that holds its
    centre (the paper, white, if none)."""
    cx, cy = span.centre
    best = None
    for s in drawn:
        if s.fill is not None and s.opacity >= 0.99 and s.closed and s.seqno < span.seqno \
                and s.holds(cx, cy) and (best is None or s.seqno > best.seqno):
            best = s
    return best.fill if best is not None else (1.0, 1.0, 1.0)


def low_contrast(page: pymupdf.Page, number: int, small_pt: float = SMALL_PT) -> list[Finding]:
    """Small text whose colour is under MIN_CONTRAST against the colour it is printed on."""
    drawn = shapes(page)
    out = []
    for span in spans(page):
        if span.size > small_pt + 0.01:
            continue
        under = ground(span, drawn)
        ratio = contrast(span.colour, under)
        if ratio < MIN_CONTRAST - 0.005:
            hexes = ["#" + "".join(f"{round(c * 255):02x}" for c in col) for col in (span.colour, under)]
            out.append(Finding(number, "low contrast", span.text,
                               f"{span.size:.1f} pt {hexes[0]} on {hexes[1]}: {ratio:.2f}:1"))
    return out


def face_contrast(kit, folder: Path, papers=("letter", "a4")) -> list[tuple[str, Finding]]:
    from generator.draw.pdf import write_pdf

    pages = face_pages(kit, papers)
    path = folder / f"{kit.game}-faces-contrast.pdf"
    write_pdf(path, pages)
    out = []
    with pymupdf.open(str(path)) as doc:
        for page, face in zip(doc, pages):
            out += [(face.name, f) for f in low_contrast(page, 0)]
    return out


def cut_short(path: Path) -> list[Finding]:
    """Every span of a PDF that ends in "…"."""
    with pymupdf.open(str(path)) as doc:
        return [Finding(number, "cut short", s.text, f"{s.size:.1f} pt") for number, page in enumerate(doc, 1)
                for s in spans(page) if s.cut_short]
