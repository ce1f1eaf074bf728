"""Pages and documents: what imposition produces and the backends write.

A Page knows its size and how to draw itself; nothing is drawn until a backend asks, so one imposed
kit is written as PDF, SVG and PNG without laying it out again.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Literal

from ..draw.base import Box, Canvas

Role = Literal["cover", "verso", "blank", "front", "back", "tile", "assembly", "board", "page"]


@dataclasses.dataclass(frozen=True)
class Placement:
    """One component printed on a page (its trim box, in page millimetres)."""

    kind: str
    id: str
    box: Box
    side: Literal["front", "back"] = "front"


@dataclasses.dataclass(frozen=True)
class Page:
    size: tuple[float, float]
    paint: Callable[[Canvas], None]
    role: Role
    section: str = ""                       # kind of the section the page belongs to
    trim: Box | None = None                 # recorded as the PDF TrimBox
    bleed: Box | None = None                # recorded as the PDF BleedBox (the trim and its bleed)
    placements: tuple[Placement, ...] = ()

    def draw(self, canvas: Canvas) -> None:
        self.paint(canvas)


@dataclasses.dataclass
class Document:
    """One output file (PDF) or set of page files (SVG, PNG): `name` is the file stem."""

    name: str
    title: str
    pages: list[Page]
    #: 1-based page numbers, as a duplex printer pairs them: (front, back) sheets printed on both
    #: sides (the cover and its verso, each page of fronts and its backs) ...
    duplex: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    #: ... pages printed on one side only (in a file with backs each is followed by a blank page) ...
    single: list[int] = dataclasses.field(default_factory=list)
    #: ... and those blank pages
    blank: list[int] = dataclasses.field(default_factory=list)


@dataclasses.dataclass(frozen=True)
class ChecklistRow:
    """One line of the cover's checklist: a kit section and what it takes to print it."""

    title: str
    copies: int
    sheets: int
    stock: str
    file: str
    shared: bool = False     # its sheets also hold other sections' pieces ...
    run: int = 0             # ... of this run of sections packed together (1, 2, ...)
    run_sheets: int = 0      # the run's sheets in all


@dataclasses.dataclass(frozen=True)
class PrintJob:
    """Consecutive pages of a file printed the same way: pages `first`-`last` (1-based) on `stock`,
    `sides` "double" (each back the page after its front), "single" in a file of single-sided
    pages, or "blank-backed" (single-sided pages each followed by a blank page)."""

    first: int
    last: int
    stock: str
    sides: Literal["double", "single", "blank-backed"]
    what: str = ""           # the components, e.g. "Ward cards"
