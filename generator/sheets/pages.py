"""Whole-page components (score sheets, player aids): drawn inside the printable area."""
from __future__ import annotations

from ..draw import Canvas
from ..draw.record import FaceCache
from ..kits.base import PageSection
from ..layouts import Layout
from .model import Page, Placement


def section_pages(section: PageSection, paper: tuple[float, float], layout: Layout,
                  faces: FaceCache) -> list[Page]:
    m = layout.margin
    w, h = paper[0] - 2 * m, paper[1] - 2 * m
    key = f"page/{section.kind}/{section.id}/{w:.2f}x{h:.2f}"
    draw = faces.draw(key, lambda c: section.draw(c, w, h))

    def paint(canvas: Canvas) -> None:
        with canvas.frame(m, m):
            canvas.clip(0, 0, w, h)   # a page component cannot reach the unprintable edge
            with canvas.group(f"{section.kind}-{section.id}", kind=section.kind, id=section.id):
                canvas.reuse(key, (0, 0, w, h), draw)

    page = Page(paper, paint, role="page", section=section.kind,
                placements=(Placement(section.kind, section.id, (m, m, w, h)),))
    return [page] * section.copies
