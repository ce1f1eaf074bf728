"""Cards and tokens ganged on sheets: fronts, then their backs on the next page, mirrored for duplex.

Long-edge flip puts the back of the card at (row, col) at (row, cols - 1 - col); short-edge flip at
(rows - 1 - row, col), turned 180°. Each distinct face is drawn once (`Canvas.reuse`) and placed for
every copy. Rectangular cards butt together with crop marks outside the block; round tokens stand
apart with a cut guide on each trim.
"""
from __future__ import annotations

from typing import Callable

from ..draw import Canvas
from ..draw.record import FaceCache
from ..kits.base import CardSection, Item
from .grid import Grid, fit_grid, mark_room
from .labels import side_label
from .layout import Layout
from .marks import crop_marks, token_guide
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
    w, h = grid.cell
    placements = tuple(Placement(section.kind, item.id, grid.box(r, c), side) for item, r, c in slots)

    def paint(canvas: Canvas) -> None:
        for item, row, col in slots:
            x, y, _, _ = grid.box(row, col)
            # Short-edge backs are turned half a turn about the card's centre.
            with canvas.frame(x + w, y + h, rotate=180) if turned else canvas.frame(x, y):
                with canvas.group(f"{section.kind}-{item.id}", kind=section.kind, id=item.id,
                                  side=side):
                    key = f"{section.kind}/{item.id}/{side}"
                    canvas.reuse(key, (0, 0, w, h), faces.draw(key, lambda c, item=item: draw(c, item)))
        s = layout.sheets
        if section.shape == "circle":
            for _, row, col in slots:
                token_guide(canvas, grid.box(row, col), s.tokens.guide_colour, s.tokens.guide_width)
        else:
            xs, ys = grid.cuts()
            crop_marks(canvas, xs, ys, grid.bounds, paper, layout.margin, s.crop_marks)
        side_label(canvas, label, grid, paper, layout)

    trim = grid.bounds if section.shape == "rect" else None
    return Page(paper, paint, role=side, section=section.kind, trim=trim, placements=placements)
