"""Single-sided pieces (tokens, stores, track) packed together on shared sheets.

A game's small piece sections would waste card stock on a sheet each, so they flow down the page one
after another, in kit order. Each section starts a new band of rows under a one-line caption naming
it; its rows are centred across the page like a sheet of its own (as many columns as fit) and filled
left to right. A new sheet starts only when the next band does not fit. A section that does not fit
under the bands above starts the next sheet whole if that costs no extra sheet; otherwise (and when
it is larger than a sheet) the rows that fit stay and the rest carry on at the top of the next sheet,
with captions that say so.

Between bands there is room for what each needs: rectangular pieces butt together and get crop
marks round the block of trims actually printed (so the room above and below them takes full-length
marks), round tokens stand apart with a cut guide on each trim. Nothing here is double-sided: cards
with backs keep their own front / back pages (cards.py) so duplex alignment stays exact.
"""
from __future__ import annotations

import dataclasses
import math

from ..draw import Canvas, text_width
from ..draw.base import PT, Box
from ..draw.record import FaceCache
from ..kits.base import CardSection
from .cards import Slot, bounds, card_grid, gutter_bleed, paint_slots
from .grid import Grid, LayoutError, mark_room
from .labels import ASCENT, DESCENT, LABEL_MIN_PT, lane_label
from ..layouts import Layout
from .marks import Line, draw_marks, grow, token_guide, trim_mark_lines
from .model import Page, Placement
from ..draw.lines import ellipsize, fit_size


def packable(section: object) -> bool:
    """Sections that share sheets: cards or tokens printed on one side only."""
    return isinstance(section, CardSection) and section.draw_back is None


@dataclasses.dataclass(frozen=True)
class Band:
    """Rows of one section on one sheet: `grid.origin` is its first trim's top-left corner."""

    section: CardSection
    grid: Grid
    slots: tuple[Slot, ...]
    caption: str
    caption_at: tuple[float, float] | None     # left end of the caption's baseline (None: no caption)
    caption_size: float

    @property
    def trims(self) -> list[Box]:
        return [self.grid.box(r, c) for _, r, c in self.slots]

    @property
    def caption_box(self) -> Box | None:
        if self.caption_at is None:
            return None
        x, y = self.caption_at
        em = self.caption_size * PT
        return (x, y - ASCENT * em, text_width(self.caption, self.caption_size), em)


def _room(section: CardSection, layout: Layout) -> tuple[float, float]:
    """(room a band keeps above and below its trims for its marks when it has neighbours, the least
    room it needs up to the page margin)."""
    s = layout.sheets
    if section.shape == "rect":
        bleed = gutter_bleed(section)
        return bleed + s.crop_marks.offset + s.crop_marks.length, mark_room(s.crop_marks, bleed)
    return s.tokens.gap / 2, s.tokens.guide_width


def plan_bands(sections: list[CardSection], paper: tuple[float, float],
               layout: Layout) -> list[list[Band]]:
    """The sheets, each a list of bands, top to bottom: the fewest sheets of three plans (kit order
    with sections kept whole where that costs no sheet; kit order flowing row by row; sections
    tallest first, each into the first sheet with room for it whole), the earlier one on a tie."""
    plans = []
    for grouped in (True, False):
        grids = {id(s): _grid(s, paper, layout, grouped) for s in sections}
        plans += [_flow(sections, paper, layout, keep_whole=True, grids=grids),
                  _flow(sections, paper, layout, keep_whole=False, grids=grids),
                  _first_fit(sections, paper, layout, grids=grids)]
    return min((plan for plan in plans if plan), key=len)


def _grid(section: CardSection, paper: tuple[float, float], layout: Layout, grouped: bool) -> Grid:
    """The section's grid; with `grouped`, as many columns as hold whole runs of its `row_group`
    (or whole rows within one run), centred, so each run (a player colour's pieces) starts a row."""
    grid = card_grid(section, paper, layout)
    n = section.row_group
    if not grouped or n <= 1 or grid.cols % n == 0 or n % grid.cols == 0:
        return grid
    cols = (grid.cols // n) * n or max(c for c in range(1, grid.cols + 1) if n % c == 0)
    w, gap = grid.cell[0], grid.gap
    x = (paper[0] - cols * w - (cols - 1) * gap) / 2
    return Grid(cols, grid.rows, grid.cell, gap, (x, grid.origin[1]))


def _first_fit(sections: list[CardSection], paper: tuple[float, float], layout: Layout,
               grids: dict[int, Grid] | None = None) -> list[list[Band]]:
    """First fit decreasing: each section whole, tallest band first, under the bands of the first
    sheet with room for it (a new sheet when none has). A section too large for one sheet fills
    fresh sheets row by row, its last rows open to the sections after it."""
    m = layout.margin
    p = layout.sheets.packing
    limit = paper[1] - m
    sheets: list[list[Band]] = []
    ends: list[float] = []                     # where the next band's caption strip may start

    def rows_from(y: float, section: CardSection, h: float, gap: float) -> int:
        around, edge = _room(section, layout)
        return math.floor((limit - edge - (y + p.caption + around) + gap) / (h + gap) + 1e-9)

    def place(n: int, section: CardSection, grid: Grid, chunk: list, rows: int, first: bool,
              last: bool, total: int) -> None:
        around, _ = _room(section, layout)
        cols, (w, h), gap = grid.cols, grid.cell, grid.gap
        top = ends[n] + p.caption + around
        slots = tuple((item, i // cols, i % cols) for i, item in enumerate(chunk))
        caption, size = _caption(section, len(chunk), total, first, last,
                                 paper[0] - m - 0.3 - grid.origin[0], p.caption_size)
        em = size * PT
        at = (grid.origin[0], top - around - p.caption / 2 + (ASCENT - DESCENT) / 2 * em)
        sheets[n].append(Band(section, Grid(cols, rows, (w, h), gap, (grid.origin[0], top)), slots,
                              caption, at, size))
        ends[n] = top + rows * h + (rows - 1) * gap + around

    def new_sheet() -> int:
        sheets.append([])
        ends.append(m)
        return len(sheets) - 1

    grids = grids or {id(s): card_grid(s, paper, layout) for s in sections}

    def height(section: CardSection) -> float:
        g = grids[id(section)]
        rows = math.ceil(sum(i.copies for i in section.items) / g.cols)
        return rows * (g.cell[1] + g.gap)

    for section in sorted(sections, key=height, reverse=True):
        grid = grids[id(section)]
        cols, (_, h), gap = grid.cols, grid.cell, grid.gap
        prints = [item for item in section.items for _ in range(item.copies)]
        needed = math.ceil(len(prints) / cols)
        target = next((n for n in range(len(sheets)) if rows_from(ends[n], section, h, gap) >= needed), None)
        if target is None and rows_from(m, section, h, gap) >= needed:
            target = new_sheet()
        if target is not None:
            place(target, section, grid, prints, needed, True, True, len(prints))
            continue
        done = 0
        while done < len(prints):          # larger than a sheet: row by row over fresh sheets
            n = new_sheet()
            rows = min(rows_from(m, section, h, gap), math.ceil((len(prints) - done) / cols))
            if rows < 1:
                return []                  # no room for a caption and a row: the flows handle it
            chunk = prints[done:done + rows * cols]
            place(n, section, grid, chunk, rows, done == 0, done + len(chunk) == len(prints), len(prints))
            done += len(chunk)
    return sheets


def _flow(sections: list[CardSection], paper: tuple[float, float], layout: Layout,
          keep_whole: bool, grids: dict[int, Grid] | None = None) -> list[list[Band]]:
    """Bands down the sheets. A section that does not fit under the last band starts the next sheet
    when `keep_whole` and it fits whole on a fresh sheet; otherwise the rows that fit stay here."""
    m = layout.margin
    p = layout.sheets.packing
    limit = paper[1] - m
    sheets: list[list[Band]] = [[]]
    y = m                       # where the next band's caption strip may start
    for section in sections:
        grid = grids[id(section)] if grids else card_grid(section, paper, layout)   # centred columns
        cols, (w, h), gap = grid.cols, grid.cell, grid.gap
        around, edge = _room(section, layout)
        prints = [item for item in section.items for _ in range(item.copies)]
        done = 0
        while done < len(prints):
            sheet = sheets[-1]
            captioned = True
            top = y + p.caption + around
            rows = math.floor((limit - edge - top + gap) / (h + gap) + 1e-9)
            needed = math.ceil((len(prints) - done) / cols)
            fresh = math.floor((limit - edge - m - p.caption - around + gap) / (h + gap) + 1e-9)
            if keep_whole and sheet and done == 0 and rows < needed <= fresh:
                rows = 0
            if rows < 1 and not sheet:
                # Too tall for a caption on a sheet of its own: the piece goes without one.
                captioned, top = False, m + edge
                rows = math.floor((limit - edge - top + gap) / (h + gap) + 1e-9)
                if rows < 1:   # pragma: no cover - card_grid has already refused it
                    raise LayoutError(f"{section.kind} ({section.title}): {w:g} × {h:g} mm "
                                      "does not fit the printable area")
            if rows < 1:
                sheets.append([])
                y = m
                continue
            rows = min(rows, needed)
            chunk = prints[done:done + rows * cols]
            slots = tuple((item, i // cols, i % cols) for i, item in enumerate(chunk))
            band_grid = Grid(cols, rows, (w, h), gap, (grid.origin[0], top))
            first, last = done == 0, done + len(chunk) == len(prints)
            caption, at, size = "", None, p.caption_size
            if captioned:
                caption, size = _caption(section, len(chunk), len(prints), first, last,
                                         paper[0] - m - 0.3 - grid.origin[0], p.caption_size)
                em = size * PT
                at = (grid.origin[0], top - around - p.caption / 2 + (ASCENT - DESCENT) / 2 * em)
            sheet.append(Band(section, band_grid, slots, caption, at, size))
            done += len(chunk)
            y = top + rows * h + (rows - 1) * gap + around
            if not last:
                sheets.append([])
                y = m
    return [sheet for sheet in sheets if sheet]


def _caption(section: CardSection, count: int, total: int, first: bool, last: bool, width: float,
             size_pt: float) -> tuple[str, float]:
    pieces = f"{total} piece{'s' if total != 1 else ''}"
    if first and last:
        text = f"{section.title} · {pieces}"
    elif first:
        text = f"{section.title} · {count} of {pieces}, the rest on the next sheet"
    else:
        text = f"{section.title}, continued · {count} of {pieces}"
        if not last:
            text += ", more on the next sheet"
    size = fit_size(text, width, size_pt, min(size_pt, 5.0))
    return ellipsize(text, width, size), size


def pack_pages(sections: list[CardSection], paper: tuple[float, float], layout: Layout,
               game_name: str, faces: FaceCache) -> tuple[list[Page], list[list[int]]]:
    """The shared sheets of `sections`, and for each section the indexes of the sheets it is on."""
    sheets = plan_bands(sections, paper, layout)
    where: list[list[int]] = [[] for _ in sections]
    for n, sheet in enumerate(sheets):
        for band in sheet:
            index = next(i for i, s in enumerate(sections) if s is band.section)
            if n not in where[index]:
                where[index].append(n)
    pages = []
    for n, sheet in enumerate(sheets, 1):
        titles = list(dict.fromkeys(band.section.title.split(" (")[0] for band in sheet))
        which = f" {n} of {len(sheets)}" if len(sheets) > 1 else ""
        label = f"{game_name} · single-sided sheet{which} · {', '.join(titles)}"
        pages.append(_page(sheet, paper, layout, faces, label))
    return pages, where


def sheet_marks(sheet: list[Band], paper: tuple[float, float], layout: Layout) -> list[Line]:
    """The crop marks of a shared sheet: round each band of rectangular pieces, clear of every
    piece and caption on the sheet."""
    trims = _art(sheet)
    captions = [band.caption_box for band in sheet if band.caption_box is not None]
    lines: list[Line] = []
    for band in sheet:
        if band.section.shape == "rect":
            lines += trim_mark_lines(band.trims, paper, layout.margin, layout.sheets.crop_marks,
                                     obstacles=trims + captions, bleed=gutter_bleed(band.section))
    return lines


def _art(sheet: list[Band]) -> list[Box]:
    """Every piece's trim and the art bled past it."""
    return [grow(box, gutter_bleed(band.section)) for band in sheet for box in band.trims]


def _page(sheet: list[Band], paper: tuple[float, float], layout: Layout, faces: FaceCache,
          label: str) -> Page:
    s = layout.sheets
    trims = [box for band in sheet for box in band.trims]
    art = _art(sheet)
    captions = [band.caption_box for band in sheet if band.caption_box is not None]
    lines = sheet_marks(sheet, paper, layout)
    half = s.crop_marks.width / 2
    ticks = [(min(a[0], b[0]) - half, min(a[1], b[1]) - half, abs(a[0] - b[0]) + 2 * half,
              abs(a[1] - b[1]) + 2 * half) for a, b in lines]
    placements = tuple(Placement(band.section.kind, item.id, band.grid.box(r, c))
                       for band in sheet for item, r, c in band.slots)

    def paint(canvas: Canvas) -> None:
        for band in sheet:
            section = band.section
            paint_slots(canvas, section, band.grid, list(band.slots), "front", section.draw_front, faces,
                        bleed=gutter_bleed(section))
            if section.shape == "circle":
                for box in band.trims:
                    token_guide(canvas, box, s.tokens.guide_colour, s.tokens.guide_width)
        if lines:
            draw_marks(canvas, lines, s.crop_marks)
        with canvas.group(None, role="label"):
            for band in sheet:
                if band.caption_at is not None:
                    canvas.text(*band.caption_at, band.caption, band.caption_size,
                                fill=s.packing.caption_colour)
        if lane_label(canvas, label, art + ticks + captions, paper, layout) is None:
            _caption_label(canvas, label, sheet[0], paper, layout)

    kinds = ",".join(dict.fromkeys(band.section.kind for band in sheet))
    return Page(paper, paint, role="front", section=kinds, trim=bounds(trims), placements=placements)


def _caption_label(canvas: Canvas, text: str, band: Band, paper: tuple[float, float],
                   layout: Layout) -> None:
    """When marks fill the side lane all the way down (a sheet full of small rectangles), the page
    label goes at the right end of the first caption's line instead."""
    box = band.caption_box
    if box is None or band.caption_at is None:
        return
    right = paper[0] - layout.margin - 0.3
    width = right - (box[0] + box[2] + 4.0)
    size = fit_size(text, width, band.caption_size, LABEL_MIN_PT)
    if width < 20.0:
        return
    with canvas.group(None, role="label"):
        canvas.text(right, band.caption_at[1], ellipsize(text, width, size), size, anchor="end",
                    fill=layout.sheets.packing.caption_colour)
