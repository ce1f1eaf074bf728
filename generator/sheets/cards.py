"""Cards and tokens ganged on sheets: fronts, then their backs on the next page, mirrored for duplex.

Long-edge flip puts the back of the card at (row, col) at (row, cols - 1 - col); short-edge flip at
(rows - 1 - row, col), turned 180°. Each distinct face is drawn once (`Canvas.reuse`) and placed for
every copy. Rectangular cards butt together with crop marks outside the block of cards on the sheet
(a part-filled last sheet gets them round its cards only); round tokens stand apart with a cut guide
on each trim. Single-sided pieces do not come here: they share sheets (pack.py).
"""
from __future__ import annotations

from typing import Callable

from ..draw import Canvas
from ..draw.base import Box
from ..draw.record import FaceCache
from ..kits.base import CardSection, Item
from .grid import Grid, fit_grid, mark_room
from .labels import side_label
from ..layouts import Layout
from .marks import draw_marks, token_guide, trim_mark_lines
from .model import Page, Placement
from .options import SheetOptions

Slot = tuple[Item, int, int]   # item, row, col


def card_grid(section: CardSection, paper: tuple[float, float], layout: Layout) -> Grid:
    s = layout.sheets
    what = f"{section.kind} ({section.title})"
    if section.shape == "circle":
        return fit_grid(paper, layout.margin, section.size, s.tokens.gap, s.tokens.guide_width, what)
    return fit_grid(paper, layout.margin, section.size, s.cards.gap, mark_room(s.crop_marks), what)


def card_pages(section: CardSection, paper: tuple[float, float], layout: Layout,
               options: SheetOptions, game_name: str, faces: FaceCache) -> list[Page]:
    grid = card_grid(section, paper, layout)
    prints = [item for item in section.items for _ in range(item.copies)]
    chunks = [prints[i:i + grid.per_page] for i in range(0, len(prints), grid.per_page)]
    pages: list[Page] = []
    for n, chunk in enumerate(chunks, 1):
        slots = [(item, i // grid.cols, i % grid.cols) for i, item in enumerate(chunk)]
        where = f"sheet {n} of {len(chunks)}"
        pages.append(_page(section, grid, paper, layout, slots, "front", section.draw_front, faces,
                           f"{game_name} · {section.title} · fronts, {where}", turned=False))
        if section.draw_back is not None:
            backs = [_mirror(slot, grid, options.duplex) for slot in slots]
            flip = "long" if options.duplex == "long" else "short"
            pages.append(_page(section, grid, paper, layout, backs, "back", section.draw_back, faces,
                               f"{game_name} · {section.title} · backs, {where} "
                               f"(print double-sided, flip on {flip} edge)",
                               turned=options.duplex == "short"))
    return pages


def _mirror(slot: Slot, grid: Grid, duplex: str) -> Slot:
    item, row, col = slot
    if duplex == "short":
        return item, grid.rows - 1 - row, col
    return item, row, grid.cols - 1 - col


def _page(section: CardSection, grid: Grid, paper: tuple[float, float], layout: Layout,
          slots: list[Slot], side: str, draw: Callable[[Canvas, Item], None], faces: FaceCache,
          label: str, *, turned: bool) -> Page:
    trims = [grid.box(r, c) for _, r, c in slots]
    placements = tuple(Placement(section.kind, item.id, box, side)
                       for (item, _, _), box in zip(slots, trims))
    s = layout.sheets
    # Marks for the cards on this sheet only: a part-filled last sheet has none down its empty rows.
    lines = (trim_mark_lines(trims, paper, layout.margin, s.crop_marks)
             if section.shape == "rect" else [])

    def paint(canvas: Canvas) -> None:
        paint_slots(canvas, section, grid, slots, side, draw, faces, turned=turned)
        if section.shape == "circle":
            for box in trims:
                token_guide(canvas, box, s.tokens.guide_colour, s.tokens.guide_width)
        else:
            draw_marks(canvas, lines, s.crop_marks)
        side_label(canvas, label, grid, paper, layout)

    trim = bounds(trims) if section.shape == "rect" else None
    return Page(paper, paint, role=side, section=section.kind, trim=trim, placements=placements)


def paint_slots(canvas: Canvas, section: CardSection, grid: Grid, slots: list[Slot], side: str,
                draw: Callable[[Canvas, Item], None], faces: FaceCache, *, turned: bool = False) -> None:
    """Each slot's face at its cell of `grid`; each distinct face is drawn once and reused."""
    w, h = grid.cell
    for item, row, col in slots:
        x, y, _, _ = grid.box(row, col)
        # Short-edge backs are turned half a turn about the card's centre.
        with canvas.frame(x + w, y + h, rotate=180) if turned else canvas.frame(x, y):
            with canvas.group(f"{section.kind}-{item.id}", kind=section.kind, id=item.id, side=side):
                key = f"{section.kind}/{item.id}/{side}"
                canvas.reuse(key, (0, 0, w, h), faces.draw(key, lambda c, item=item: draw(c, item)))


def bounds(boxes: list[Box]) -> Box:
    """The smallest box holding all of `boxes`."""
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)
    return (x0, y0, x1 - x0, y1 - y0)
