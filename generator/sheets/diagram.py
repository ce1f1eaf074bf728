"""The assembly page of a tiled board: a plan of the tiles and the steps to glue them together."""
from __future__ import annotations

from ..draw import Canvas, Style
from ..draw.base import PT
from ..kits.base import BoardSection
from ..tiling import TilePlan
from .cover import INK
from ..layouts import Layout
from .model import Page
from ..draw.lines import wrap

GLUE = "#d43c3c"


def assembly_page(section: BoardSection, plan: TilePlan, paper: tuple[float, float], layout: Layout,
                  large: str, ink_saver: bool) -> Page:
    def paint(canvas: Canvas) -> None:
        with canvas.group(f"assembly-{section.id}", role="assembly", kind=section.kind, id=section.id):
            _draw(canvas, section, plan, paper, layout, large, ink_saver)

    return Page(paper, paint, role="assembly", section=section.kind)


def _draw(canvas: Canvas, section: BoardSection, plan: TilePlan, paper: tuple[float, float],
          layout: Layout, large: str, ink_saver: bool) -> None:
    m = layout.margin + 4.0
    width = paper[0] - 2 * m
    bw, bh = section.size
    canvas.text(m, m + 6, f"How to assemble: {section.title}", 16, font="bold", fill=INK)
    canvas.text(m, m + 12.5, f"{plan.count} tiles, {plan.rows} row{'s' if plan.rows != 1 else ''} × {plan.cols} "
                f"column{'s' if plan.cols != 1 else ''}; finished "
                f"size {bw:.0f} × {bh:.0f} mm ({bw / 25.4:.1f} × {bh / 25.4:.1f} in).", 9.5)

    # The plan: each tile's visible part, its glue strips tinted, at a scale that fits.
    top = m + 20
    room_h = paper[1] * 0.45
    scale = min(width / bw, room_h / bh)
    ox = m + (width - bw * scale) / 2
    tw, th = plan.tile
    ov = plan.overlap
    strip = Style(fill=GLUE, stroke=None, opacity=0.25) if not ink_saver else \
        Style(fill=None, stroke=GLUE, width=0.2, dash=(0.8, 0.6))
    edge = Style(stroke="#000000", width=0.3)
    for row in range(plan.rows):
        for col in range(plan.cols):
            bx, by, _, _ = plan.region(row, col)
            vis_w = tw if col == plan.cols - 1 else tw - ov
            vis_h = th if row == plan.rows - 1 else th - ov
            x, y = ox + bx * scale, top + by * scale
            canvas.rect(x, y, vis_w * scale, vis_h * scale, edge)
            if col < plan.cols - 1:
                canvas.rect(x + vis_w * scale, y, ov * scale, vis_h * scale, strip)
            if row < plan.rows - 1:
                canvas.rect(x, y + vis_h * scale, vis_w * scale, ov * scale, strip)
            size = min(22.0, vis_h * scale / PT * 0.35)
            canvas.text(x + vis_w * scale / 2, y + vis_h * scale / 2 + size * PT * 0.35,
                        plan.name(row, col), size, font="bold", anchor="middle", fill=INK)
    canvas.rect(ox, top, bw * scale, bh * scale, Style(stroke=INK, width=0.6))
    y = top + bh * scale + 6
    canvas.rect(m, y - 2.6, 4, 3, strip)
    canvas.text(m + 6, y, "glue strip: stays under the next tile, right or below", 8.5)

    steps = [
        "Print the tile pages at 100 % (actual size), single-sided, on plain paper.",
        "Cut every tile on its crop marks: each tile on its left and top edges, the last column also "
        "on its right edge and the last row on its bottom edge. Keep the glue strips beyond the dashed "
        "lines: they go under the next tile.",
        "Lay the tiles out as above, A1 at the top left. Each tile's label says where it goes.",
        "Work row by row (A1, A2, … then B1, B2, …): put glue on the strips, lay the next tile over "
        "them with its cut edges on the dashed lines: the short registration ticks and the drawing "
        "then run on straight across each join.",
        f"Glue the finished board onto card (cereal-box card is fine): {section.stock}.",
    ]
    if large:
        steps.append(f"No glue: {large} has the whole board on one sheet for a copy shop.")
    y += 9
    canvas.text(m, y, "Steps", 12, font="bold", fill=INK)
    y += 2
    for n, step in enumerate(steps, 1):
        lines = wrap(step, width - 7, 9.5)
        for i, line in enumerate(lines):
            y += 9.5 * PT * 1.4
            if i == 0:
                canvas.text(m, y, f"{n}.", 9.5, font="bold")
            canvas.text(m + 7, y, line, 9.5)
        y += 1.5
