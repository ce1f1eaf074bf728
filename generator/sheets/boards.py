"""Boards at real size: on one page when they fit, else tiled with overlap, and on one large sheet.

Tiles are named by row letter and column number (A1 is top-left). Every tile is cut on its left and
top edges (and on the right / bottom when it is the last column / row); its other edges keep a strip
of `overlap` mm that the next tile covers: a dashed guide line on that strip shows where the next
tile's cut edge goes. So assembly is: cut, lay out as the diagram shows, glue each tile over its
left and upper neighbours' strips with its edge on their guide lines. Nothing of the guides shows on
the finished board. The board is drawn once (`Canvas.reuse`) and shown through a clip on each tile.
"""
from __future__ import annotations


from ..draw import Canvas, Style
from ..draw.record import FaceCache
from ..draw import text_width
from ..draw.base import PT, Box
from ..kits.base import BoardSection
from ..layouts import Layout, Paper
from ..tiling import TilePlan, content_area, plan_tiles
from .marks import crop_marks
from .model import Page, Placement
from .labels import LABEL_MIN_PT
from ..draw.lines import ellipsize, fit_size

LABEL_GREY = "#444444"


def large_paper(board: tuple[float, float], paper: Paper, layout: Layout) -> tuple[str, Paper] | None:
    """The first of the paper's copy-shop sizes that takes the board whole at 100 %."""
    for pid in paper.large:
        large = layout.papers[pid]
        if plan_tiles(board, large.size, layout).count == 1:
            return pid, large
    return None


def tile_pages(section: BoardSection, paper: tuple[float, float], layout: Layout,
               plan: TilePlan, game_name: str, faces: FaceCache, ink_saver: bool = False) -> list[Page]:
    return [_tile_page(section, paper, layout, plan, row, col, game_name, faces, ink_saver)
            for row in range(plan.rows) for col in range(plan.cols)]


def _tile_page(section: BoardSection, paper: tuple[float, float], layout: Layout, plan: TilePlan,
               row: int, col: int, game_name: str, faces: FaceCache, ink_saver: bool) -> Page:
    ax, ay, aw, ah = content_area(paper, layout)
    tw, th = plan.tile
    pw, ph = (th, tw) if plan.turned else (tw, th)          # the tile's size on the page
    ox, oy = ax + (aw - pw) / 2, ay + (ah - ph) / 2
    bx, by, _, _ = plan.region(row, col)
    single = plan.count == 1
    last_col, last_row = col == plan.cols - 1, row == plan.rows - 1
    name = plan.name(row, col)

    # Cut edges in tile terms, then where they fall on the page.
    cut = {"left": True, "top": True, "right": last_col, "bottom": last_row}
    on_page = ({"top": cut["left"], "right": cut["top"], "bottom": cut["right"], "left": cut["bottom"]}
               if plan.turned else cut)
    xs = [x for side, x in (("left", ox), ("right", ox + pw)) if on_page[side]]
    ys = [y for side, y in (("top", oy), ("bottom", oy + ph)) if on_page[side]]

    if single:
        label = f"{game_name} · {section.title} · cut on the marks"
    else:
        label = (f"{game_name} · {section.title} · tile {name} (row {row + 1} of {plan.rows}, "
                 f"column {col + 1} of {plan.cols}) · cut on the marks, glue the next tiles on the dashed lines")

    def paint(canvas: Canvas) -> None:
        with canvas.frame(ox + pw, oy, rotate=90) if plan.turned else canvas.frame(ox, oy):
            with canvas.group(f"{section.kind}-{section.id}-{name}", kind=section.kind,
                              id=section.id, tile=name):
                with canvas.frame():
                    canvas.clip(0, 0, tw, th)
                    with canvas.frame(-bx, -by):
                        key = f"board/{section.kind}/{section.id}"
                        canvas.reuse(key, (0, 0) + section.size, faces.draw(key, section.draw))
            if not single:
                _guides(canvas, plan, row, col, layout, ink_saver)
                _registration(canvas, plan, row, col)
        crop_marks(canvas, xs, ys, (ox, oy, pw, ph), paper, layout.margin, layout.sheets.crop_marks)
        _band_label(canvas, label, paper, layout, (ox, oy, pw, ph))

    role = "board" if single else "tile"
    return Page(paper, paint, role=role, section=section.kind,
                placements=(Placement(section.kind, section.id, (ox, oy, pw, ph)),))


def _guides(canvas: Canvas, plan: TilePlan, row: int, col: int, layout: Layout, ink_saver: bool) -> None:
    """Dashed lines where the next tiles' cut edges go, with a note in each covered strip (tinted,
    except in ink-saver mode)."""
    b = layout.sheets.board
    tw, th = plan.tile
    ov = plan.overlap
    line = Style(stroke=b.guide_colour, width=b.guide_width, dash=b.guide_dash)
    tint = Style(fill=None if ink_saver else b.guide_colour, stroke=None, opacity=0.12)
    note_box = Style(fill="#ffffff", stroke=b.guide_colour, width=0.2)
    with canvas.group(None, role="alignment"):
        if col < plan.cols - 1:
            right = plan.name(row, col + 1)
            canvas.rect(tw - ov, 0, ov, th, tint)
            canvas.line(tw - ov, 0, tw - ov, th, line)
            with canvas.frame(tw - ov / 2, th / 2, rotate=90):
                _note(canvas, f"glue {right} here: its left edge on the dashed line", th, ov, note_box)
        if row < plan.rows - 1:
            below = plan.name(row + 1, col)
            end = tw - ov if col < plan.cols - 1 else tw
            canvas.rect(0, th - ov, end, ov, tint)
            canvas.line(0, th - ov, tw, th - ov, line)
            with canvas.frame(end / 2, th - ov / 2):
                _note(canvas, f"glue {below} here: its top edge on the dashed line", end, ov, note_box)


REG_AT = (0.15, 0.85)   # where the registration ticks cross a seam, as fractions of the tile's side
REG_REACH = 4.0         # mm each tick reaches either side of the seam
REG_STYLE = Style(stroke="#222222", width=0.25)


def _registration(canvas: Canvas, plan: TilePlan, row: int, col: int) -> None:
    """Registration ticks across each seam, drawn on both tiles at the same board positions: on a
    tile with a glue strip they cross its guide line; on the tile glued over it they start at its
    cut edge. Laid right, each tick runs on straight across the seam."""
    tw, th = plan.tile
    ov = plan.overlap
    with canvas.group(None, role="registration"):
        for f in REG_AT:
            if col < plan.cols - 1:
                canvas.line(tw - ov - REG_REACH, th * f, tw - ov + REG_REACH, th * f, REG_STYLE)
                canvas.circle(tw - ov, th * f, 0.8, REG_STYLE)
            if col > 0:
                canvas.line(0, th * f, REG_REACH, th * f, REG_STYLE)
            if row < plan.rows - 1:
                canvas.line(tw * f, th - ov - REG_REACH, tw * f, th - ov + REG_REACH, REG_STYLE)
                canvas.circle(tw * f, th - ov, 0.8, REG_STYLE)
            if row > 0:
                canvas.line(tw * f, 0, tw * f, REG_REACH, REG_STYLE)


def _note(canvas: Canvas, text: str, length: float, strip: float, box: Style) -> None:
    size = fit_size(text, length * 0.8, 7.0, LABEL_MIN_PT)
    text = ellipsize(text, length * 0.9, size)
    w = text_width(text, size) + 3
    h = min(strip * 0.7, size * PT * 1.6)
    canvas.rect(-w / 2, -h / 2, w, h, box, radius=1)
    canvas.text(0, size * PT * 0.35, text, size, anchor="middle", fill="#000000")


def _band_label(canvas: Canvas, text: str, paper: tuple[float, float], layout: Layout,
                tile: Box) -> None:
    """The tile's name in the band under it, clear of the crop marks at its corners."""
    b = layout.sheets.board
    x, y, w, h = tile
    width = w - 2 * (layout.sheets.crop_marks.width + 4)
    if text_width(text, LABEL_MIN_PT) > width and " (row " in text:
        # too long whole: the tile's name and what to do, without its row and column in words
        head, rest = text.split(" (row ", 1)
        text = head + rest[rest.index(")") + 1:].replace("glue the next tiles on the dashed lines",
                                                          "glue on the dashed lines")
    size = fit_size(text, width, 8.0, LABEL_MIN_PT)
    text = ellipsize(text, width, size)
    band_top = paper[1] - layout.margin - b.label_band
    baseline = band_top + b.label_band / 2 + size * PT * 0.35
    with canvas.group(None, role="label"):
        canvas.text(x + w / 2, baseline, text, size, anchor="middle", fill=LABEL_GREY)
