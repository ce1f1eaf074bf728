"""Cards and tokens ganged on sheets: fronts, then their backs on the next page, mirrored for duplex.

Long-edge flip puts the back of the card at (row, col) at (row, cols - 1 - col); short-edge flip at
(rows - 1 - row, col), turned 180°. Cards lie a quarter turn on the sheet when that fits more of
them with crop marks at least `short-length` long all round (poker cards on Letter: 2 × 4 turned,
not 3 × 3 with 1 mm ticks); their backs then turn the other way for long-edge flip (the flip brings
the card's top edge to the other side). Each distinct face is drawn once (`Canvas.reuse`) and
placed for every copy. Rectangular cards butt together with crop marks outside the block of cards
on the sheet (a part-filled last sheet gets them round its cards only); round tokens stand apart with
a cut guide on each trim. Single-sided pieces do not come here: they share sheets (pack.py).

Options (SheetOptions): a `bleed` spaces the cards by twice the bleed, runs each face's art that far
past its trim (mirrored about the edge, `Canvas.bleed_face`) and moves the marks out past it; a
`back_offset` moves everything on the back pages by (x, y) mm to cancel the printer's shift;
duplex "fold" puts each front beside its back on one single-sided sheet, to be folded along the line
between them (long-edge geometry about the fold), with dashed fold marks beside the cut marks.
"""
from __future__ import annotations

import contextlib
import dataclasses
from typing import Callable

from ..draw import Canvas
from ..draw.base import SIDES, Box
from ..draw.record import FaceCache, Recording
from ..kits.base import CardSection, Item
from .grid import Grid, LayoutError, fit_grid, mark_room
from .labels import side_label
from ..layouts import Layout
from .marks import Line, draw_marks, fold_mark_lines, grow, token_guide, trim_mark_lines
from .model import Page, Placement
from .options import SheetOptions

Slot = tuple[Item, int, int]   # item, row, col
FOLD_DASH = (1.5, 1.0)


#: mm each piece's art runs into the gutter between single-sided pieces of different background
#: colours (the gutter is twice this): a cut a little off shows the piece's own colour
GUTTER_BLEED = 2.0
_BACKGROUNDS: dict[int, tuple[CardSection, float]] = {}


def _background(item: Item, section: CardSection) -> str | None:
    """The fill of a rectangle covering the whole face, when the face starts with one."""
    rec = Recording.of(lambda c: section.draw_front(c, item))
    w, h = section.size
    for op in rec.ops:
        if op[0] in ("group", "push", "pop"):
            continue
        if op[0] == "rect" and len(op[1]) >= 4:
            x, y, rw, rh = op[1][:4]
            style = op[1][4] if len(op[1]) > 4 else op[2].get("style")
            if (style is not None and abs(x) < 1e-6 and abs(y) < 1e-6 and abs(rw - w) < 1e-6 and abs(rh - h) < 1e-6
                    and style.fill and not op[2].get("radius")):
                return style.fill.lower()
        return None
    return None


def gutter_bleed(section: CardSection) -> float:
    """GUTTER_BLEED for single-sided rectangular pieces whose faces fill their trims in different
    colours (stores, capsules, banknotes), which butting would make share a cut; else 0."""
    if section.shape != "rect" or section.draw_back is not None:
        return 0.0
    known = _BACKGROUNDS.get(id(section))
    if known is not None and known[0] is section:
        return known[1]
    colours = {_background(item, section) for item in section.items}
    bleed = GUTTER_BLEED if len(colours - {None}) > 1 else 0.0
    _BACKGROUNDS[id(section)] = (section, bleed)
    return bleed


def card_grid(section: CardSection, paper: tuple[float, float], layout: Layout) -> Grid:
    """The upright grid of a section's pieces (what single-sided pieces are packed with): pieces
    of different colours (`gutter_bleed`) stand twice their bleed apart."""
    s = layout.sheets
    what = f"{section.kind} ({section.title})"
    if section.shape == "circle":
        return fit_grid(paper, layout.margin, section.size, s.tokens.gap, s.tokens.guide_width, what)
    bleed = gutter_bleed(section)
    return fit_grid(paper, layout.margin, section.size, s.cards.gap + 2 * bleed,
                    mark_room(s.crop_marks, bleed), what)


@dataclasses.dataclass(frozen=True)
class CardPlan:
    """How a section's cards lie on its sheets."""

    grid: Grid            # cells as they lie on the page; in fold mode a cell holds a front and its back
    turned: bool          # faces a quarter turn clockwise on the page
    fold: bool
    bleed: float

    @property
    def face(self) -> tuple[float, float]:
        """A face's size on the page."""
        w, h = self.grid.cell
        return (w / 2, h) if self.fold else (w, h)


def plan_cards(section: CardSection, paper: tuple[float, float], layout: Layout,
               options: SheetOptions) -> CardPlan:
    """Upright or turned, whichever fits more per sheet (upright when equal)."""
    s = layout.sheets
    fold = options.duplex == "fold" and section.draw_back is not None
    w, h = section.size
    what = f"{section.kind} ({section.title})"
    if section.shape == "circle":
        gap, room, bleed, turns = s.tokens.gap, s.tokens.guide_width, 0.0, (False,)
    else:
        bleed = options.bleed
        gap, room = s.cards.gap + 2 * bleed, mark_room(s.crop_marks, bleed)
        turns = (False, True) if w != h else (False,)
    plans, error = [], None
    for turned in turns:
        cw, ch = (h, w) if turned else (w, h)
        try:
            grid = fit_grid(paper, layout.margin, (2 * cw if fold else cw, ch), gap, room, what)
        except LayoutError as exc:
            error = error or exc
            continue
        plans.append(CardPlan(grid, turned, fold, bleed))
    if not plans:
        assert error is not None
        raise error
    return max(plans, key=lambda p: p.grid.per_page)


def card_pages(section: CardSection, paper: tuple[float, float], layout: Layout,
               options: SheetOptions, game_name: str, faces: FaceCache) -> list[Page]:
    plan = plan_cards(section, paper, layout, options)
    grid = plan.grid
    prints = [item for item in section.items for _ in range(item.copies)]
    chunks = [prints[i:i + grid.per_page] for i in range(0, len(prints), grid.per_page)]
    pages: list[Page] = []
    for n, chunk in enumerate(chunks, 1):
        slots = [(item, i // grid.cols, i % grid.cols) for i, item in enumerate(chunk)]
        where = f", sheet {n} of {len(chunks)}" if len(chunks) > 1 else ""
        if plan.fold:
            pages.append(_fold_page(section, plan, paper, layout, slots, faces,
                                    f"{game_name} · {section.title} · fronts and backs{where} "
                                    "(one side: cut on the solid marks, fold on the dashed)"))
            continue
        short = section.title.split(" (")[0]      # the label without the title's parenthesis
        pages.append(_page(section, plan, paper, layout, slots, "front", section.draw_front, faces,
                           (f"{game_name} · {section.title} · fronts{where}",
                            f"{game_name} · {short} · fronts{where}", f"{short} · fronts{where}"),
                           rotate=90 if plan.turned else 0))
        if section.draw_back is not None:
            backs = [_mirror(slot, grid, options.duplex) for slot in slots]
            if options.duplex == "short":
                rotate = 90 if plan.turned else 180
            else:
                rotate = -90 if plan.turned else 0
            pages.append(_page(section, plan, paper, layout, backs, "back", section.draw_back, faces,
                               (f"{game_name} · {section.title} · backs{where}",
                                f"{game_name} · {short} · backs{where}", f"{short} · backs{where}"),
                               rotate=rotate, offset=options.back_offset, outer_bleed=options.back_bleed))
    return pages


def _mirror(slot: Slot, grid: Grid, duplex: str) -> Slot:
    item, row, col = slot
    if duplex == "short":
        return item, grid.rows - 1 - row, col
    return item, row, grid.cols - 1 - col


#: The face's own side that lies on each side of the page, for a face turned by `rotate` degrees.
FACE_SIDE = {0: {"left": "left", "right": "right", "top": "top", "bottom": "bottom"},
             90: {"right": "top", "top": "left", "bottom": "right", "left": "bottom"},
             -90: {"left": "top", "bottom": "left", "top": "right", "right": "bottom"},
             180: {"bottom": "top", "top": "bottom", "left": "right", "right": "left"}}


def outer_sides(trims: list[Box]) -> list[frozenset[str]]:
    """For each trim, the sides (of the page) on the outer cut lines of the block: no other trim
    shares that cut there."""
    def touches(a: float, b: float) -> bool:
        return abs(a - b) < 1e-6

    def overlap(a0: float, a1: float, b0: float, b1: float) -> bool:
        return min(a1, b1) - max(a0, b0) > 1e-6

    out = []
    for x, y, w, h in trims:
        sides = set()
        others = [t for t in trims if t != (x, y, w, h)]
        if not any(touches(o[0] + o[2], x) and overlap(y, y + h, o[1], o[1] + o[3]) for o in others):
            sides.add("left")
        if not any(touches(o[0], x + w) and overlap(y, y + h, o[1], o[1] + o[3]) for o in others):
            sides.add("right")
        if not any(touches(o[1] + o[3], y) and overlap(x, x + w, o[0], o[0] + o[2]) for o in others):
            sides.add("top")
        if not any(touches(o[1], y + h) and overlap(x, x + w, o[0], o[0] + o[2]) for o in others):
            sides.add("bottom")
        out.append(frozenset(sides))
    return out


def _outer_bleed(wanted: float, moved: list[Box], paper: tuple[float, float], layout: Layout) -> float:
    """`wanted` mm of bleed past the block's outer cuts, less where the printable margin is nearer
    (with a back offset the block moves towards one edge)."""
    if wanted <= 0 or not moved:
        return 0.0
    x0, y0, w, h = bounds(moved)
    m = layout.margin + layout.sheets.crop_marks.clearance
    room = min(x0 - m, y0 - m, paper[0] - m - (x0 + w), paper[1] - m - (y0 + h))
    return max(0.0, min(wanted, room))


def _page(section: CardSection, plan: CardPlan, paper: tuple[float, float], layout: Layout,
          slots: list[Slot], side: str, draw: Callable[[Canvas, Item], None], faces: FaceCache,
          label: str | tuple[str, ...], *, rotate: int, offset: tuple[float, float] = (0.0, 0.0),
          outer_bleed: float = 0.0) -> Page:
    """One page of fronts or backs. `outer_bleed` (backs): mm each face's art runs past the outer
    cut lines of the block of cards, where no neighbour shares the cut, so a back printed a little
    off still covers its card to the edge (with `plan.bleed` every side bleeds that much instead)."""
    grid = plan.grid
    dx, dy = offset
    trims = [grid.box(r, c) for _, r, c in slots]
    moved = [(x + dx, y + dy, w, h) for x, y, w, h in trims]
    outer = 0.0
    if section.shape == "rect" and plan.bleed == 0:
        outer = _outer_bleed(outer_bleed, moved, paper, layout)
    face_sides = [frozenset(FACE_SIDE[rotate][s] for s in sides) for sides in outer_sides(trims)]
    placements = tuple(Placement(section.kind, item.id, box, side)  # type: ignore[arg-type]
                       for (item, _, _), box in zip(slots, moved))
    s = layout.sheets
    # Marks for the cards on this sheet only: a part-filled last sheet has none down its empty rows.
    lines = (trim_mark_lines(trims, paper, layout.margin, s.crop_marks, bleed=plan.bleed)
             if section.shape == "rect" else [])

    def paint(canvas: Canvas) -> None:
        with canvas.frame(dx, dy) if dx or dy else contextlib.nullcontext():
            for (item, _, _), box, sides in zip(slots, trims, face_sides):
                if outer > 0 and sides:
                    paint_face(canvas, section, item, box, side, draw, faces, rotate=rotate,
                               bleed=outer, sides=sides)
                else:
                    paint_face(canvas, section, item, box, side, draw, faces, rotate=rotate,
                               bleed=plan.bleed)
            if section.shape == "circle":
                for box in trims:
                    token_guide(canvas, box, s.tokens.guide_colour, s.tokens.guide_width)
            else:
                if outer > 0:     # marks over the bled art: a white edge keeps them findable
                    halo = dataclasses.replace(s.crop_marks, colour="#ffffff", width=s.crop_marks.width + 0.5)
                    draw_marks(canvas, lines, halo, role="mark-halo")
                draw_marks(canvas, lines, s.crop_marks)
            side_label(canvas, label, grid, paper, layout, marks=section.shape == "rect")

    trim = bounds(moved) if section.shape == "rect" else None
    bleed = grow(trim, plan.bleed or outer) if trim is not None and (plan.bleed or outer) > 0 else None
    return Page(paper, paint, role=side, section=section.kind, trim=trim,  # type: ignore[arg-type]
                bleed=bleed, placements=placements)


def _fold_page(section: CardSection, plan: CardPlan, paper: tuple[float, float], layout: Layout,
               slots: list[Slot], faces: FaceCache, label: str) -> Page:
    """Fronts on the left of each cell, their backs on the right: folded along the line between
    them, the back lands behind its front as a long-edge flip would put it."""
    grid, (fw, fh) = plan.grid, plan.face
    assert section.draw_back is not None
    cells = [grid.box(r, c) for _, r, c in slots]
    front_turn, back_turn = (90, -90) if plan.turned else (0, 0)
    # The side of each face that lies on the fold takes no bleed (it is not cut).
    front_sides = SIDES - {"top" if plan.turned else "right"}
    back_sides = SIDES - {"top" if plan.turned else "left"}
    placements = []
    for (item, _, _), (x, y, _, _) in zip(slots, cells):
        placements.append(Placement(section.kind, item.id, (x, y, fw, fh), "front"))
        placements.append(Placement(section.kind, item.id, (x + fw, y, fw, fh), "back"))
    s = layout.sheets
    lines: list[Line] = []
    folds: list[Line] = []
    if section.shape == "rect":
        lines = trim_mark_lines(cells, paper, layout.margin, s.crop_marks, bleed=plan.bleed)
        block = grow(bounds(cells), plan.bleed)
        xs = sorted({round(x + fw, 6) for x, _, _, _ in cells})
        folds = fold_mark_lines(xs, block, paper, layout.margin, s.crop_marks)
    draw_front, draw_back = section.draw_front, section.draw_back

    def paint(canvas: Canvas) -> None:
        for (item, _, _), (x, y, _, _) in zip(slots, cells):
            paint_face(canvas, section, item, (x, y, fw, fh), "front", draw_front, faces,
                       rotate=front_turn, bleed=plan.bleed, sides=front_sides)
            paint_face(canvas, section, item, (x + fw, y, fw, fh), "back", draw_back, faces,
                       rotate=back_turn, bleed=plan.bleed, sides=back_sides)
        if section.shape == "circle":
            for p in placements:
                token_guide(canvas, p.box, s.tokens.guide_colour, s.tokens.guide_width)
        draw_marks(canvas, lines, s.crop_marks)
        draw_marks(canvas, folds, s.crop_marks, role="fold", dash=FOLD_DASH)
        side_label(canvas, label, grid, paper, layout)

    trim = bounds(cells) if section.shape == "rect" else None
    bleed = grow(trim, plan.bleed) if trim is not None and plan.bleed > 0 else None
    return Page(paper, paint, role="front", section=section.kind, trim=trim, bleed=bleed,
                placements=tuple(placements))


def paint_face(canvas: Canvas, section: CardSection, item: Item, box: Box, side: str,
               draw: Callable[[Canvas, Item], None], faces: FaceCache, *, rotate: int = 0,
               bleed: float = 0.0, sides: frozenset[str] = SIDES) -> None:
    """One face in its trim `box` on the page, turned by `rotate` (0, ±90, 180) degrees about the
    box, its art run `bleed` mm past the trim on `sides` (the face's own sides)."""
    x, y, w, h = box
    origin = {0: (x, y), 90: (x + w, y), -90: (x, y + h), 180: (x + w, y + h)}[rotate]
    size = section.size
    with canvas.frame(*origin, rotate=rotate):
        with canvas.group(f"{section.kind}-{item.id}", kind=section.kind, id=item.id, side=side):
            key = f"{section.kind}/{item.id}/{side}"
            replay = faces.draw(key, lambda c, item=item: draw(c, item))
            if bleed > 0:
                canvas.bleed_face(key, size, replay, bleed, sides)
            else:
                canvas.reuse(key, (0, 0) + size, replay)


def paint_slots(canvas: Canvas, section: CardSection, grid: Grid, slots: list[Slot], side: str,
                draw: Callable[[Canvas, Item], None], faces: FaceCache, *, turned: bool = False,
                bleed: float = 0.0) -> None:
    """Each slot's face at its cell of `grid` (turned half a turn when `turned`), its art run
    `bleed` mm past its trim; each distinct face is drawn once and reused."""
    for item, row, col in slots:
        paint_face(canvas, section, item, grid.box(row, col), side, draw, faces,
                   rotate=180 if turned else 0, bleed=bleed)


def bounds(boxes: list[Box]) -> Box:
    """The smallest box holding all of `boxes`."""
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)
    return (x0, y0, x1 - x0, y1 - y0)
