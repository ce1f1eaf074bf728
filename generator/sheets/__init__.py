"""Sheets: a Kit laid out on paper as documents of pages (imposition), knowing nothing of any game.

`impose(kit, paper)` groups the kit's sections by their `file`, lays each one out (cards with crop
marks and duplex backs, boards tiled or whole, full pages), adds one document per tiled board with
the whole board on a large copy-shop sheet, and puts a cover page first in every document. Runs of
single-sided piece sections (tokens, stores, track) of one file and stock share sheets (pack.py).

Documents are named so a downloaded file still says what it is: `<game>-<file>-<paper>` (e.g.
shinjuku-cards-letter) and, for the copy-shop board, `<game>-<file>-<sheet>` (shinjuku-board-a1).
"""
from __future__ import annotations

import dataclasses

from ..draw.record import FaceCache
from ..kits.base import BoardSection, CardSection, Kit, PageSection
from ..tiling import TilePlan, plan_tiles
from .boards import large_paper, tile_pages
from .cards import card_pages
from .cover import CoverFacts, cover_page
from .diagram import assembly_page
from .grid import LayoutError
from ..layouts import Layout, Paper, load_layout
from .model import ChecklistRow, Document, Page, Placement
from .options import SheetOptions
from .pack import pack_pages, packable
from .pages import section_pages

__all__ = ["impose", "Document", "Page", "Placement", "SheetOptions", "LayoutError"]


class _Doc:
    """A document being filled: its pages and what the cover should say about it."""

    def __init__(self, name: str):
        self.name = name
        self.pages: list[Page] = []
        self.titles: list[str] = []
        self.stocks: list[str] = []
        self.duplex = self.tiled = self.cards = self.tokens = False
        self.large = ""
        self.sheet: Paper | None = None


class _Run:
    """Single-sided sections waiting to be packed together, and their checklist rows."""

    def __init__(self, stock: str):
        self.stock = stock
        self.sections: list[CardSection] = []
        self.rows: list[int] = []


def impose(kit: Kit, paper_id: str, options: SheetOptions = SheetOptions(),
           layout: Layout | None = None, faces: FaceCache | None = None) -> list[Document]:
    """The kit's documents on one paper. Pass the same `faces` for every paper of one kit, so each
    face is drawn (recorded) once; never share it between kits or ink modes."""
    layout = layout or load_layout()
    faces = faces or FaceCache()
    paper = layout.papers[paper_id]
    size = paper.size
    docs: dict[str, _Doc] = {}
    rows: list[ChecklistRow] = []

    runs: dict[str, _Run] = {}
    packed = [0]                # runs packed so far

    def doc(file: str, name: str = "") -> _Doc:
        return docs.setdefault(file, _Doc(name or f"{kit.game}-{file}-{paper_id}"))

    def flush(file: str) -> None:
        """Pack the file's waiting run of single-sided sections onto shared sheets."""
        run = runs.pop(file, None)
        if run is None:
            return
        pages, where = pack_pages(run.sections, size, layout, kit.name, faces)
        docs[file].pages += pages
        packed[0] += 1
        for index, sheets in zip(run.rows, where):
            shared = any(other is not sheets and set(other) & set(sheets) for other in where)
            rows[index] = dataclasses.replace(rows[index], sheets=len(sheets), shared=shared,
                                              run=packed[0], run_sheets=len(pages))

    for section in kit.sections:
        target = doc(section.file)
        target.titles.append(section.title)
        if section.stock not in target.stocks:
            target.stocks.append(section.stock)
        run = runs.get(section.file)
        if run is not None and not (packable(section) and section.stock == run.stock):
            flush(section.file)
        if packable(section):
            assert isinstance(section, CardSection)
            target.tokens |= section.shape == "circle"
            target.cards |= section.shape == "rect"
            run = runs.setdefault(section.file, _Run(section.stock))
            run.sections.append(section)
            run.rows.append(len(rows))
            copies = sum(item.copies for item in section.items)
            rows.append(ChecklistRow(section.title, copies, 0, section.stock, f"{target.name}.pdf"))
            continue
        if isinstance(section, CardSection):
            pages = card_pages(section, size, layout, options, kit.name, faces)
            target.pages += pages
            target.duplex |= section.draw_back is not None and options.duplex != "fold"
            target.cards |= section.shape == "rect"
            target.tokens |= section.shape == "circle"
            copies = sum(item.copies for item in section.items)
            sheets = sum(1 for p in pages if p.role == "front")
        elif isinstance(section, BoardSection):
            plan = plan_tiles(section.size, size, layout)
            large = _large_doc(section, kit, paper, layout, doc, faces) if plan.count > 1 else ""
            if plan.count > 1:
                target.tiled = True
                target.large = large
                target.pages.append(assembly_page(section, plan, size, layout, large,
                                                  options.ink_saver))
            target.pages += tile_pages(section, size, layout, plan, kit.name, faces, options.ink_saver)
            copies, sheets = 1, plan.count
        elif isinstance(section, PageSection):
            target.pages += section_pages(section, size, layout, faces)
            copies = sheets = section.copies
        else:  # pragma: no cover - the Section union is closed
            raise TypeError(f"unknown section {section!r}")
        rows.append(ChecklistRow(section.title, copies, sheets, section.stock, f"{target.name}.pdf"))
    for file in list(runs):
        flush(file)

    documents = []
    for d in docs.values():
        facts = CoverFacts(kit_name=kit.name, file=f"{d.name}.pdf", title=", ".join(d.titles),
                           paper=paper, duplex=d.duplex, tiled=d.tiled, cards=d.cards,
                           tokens=d.tokens, stocks=tuple(d.stocks),
                           large=d.large, sheet=d.sheet)
        cover = cover_page(facts, rows, kit.notes, layout, options)
        documents.append(Document(d.name, facts.title, [cover] + d.pages))
    return documents


def _large_doc(section: BoardSection, kit: Kit, paper: Paper, layout: Layout, doc,
               faces: FaceCache) -> str:
    """Add the whole board on one copy-shop sheet, if one is big enough; say where it went."""
    found = large_paper(section.size, paper, layout)
    if found is None:
        return ""
    sheet_id, sheet = found
    target = doc(f"{section.file}-large", f"{kit.game}-{section.file}-{sheet_id}")
    target.titles.append(f"{section.title} on one sheet")
    if section.stock not in target.stocks:
        target.stocks.append(section.stock)
    target.sheet = sheet
    plan: TilePlan = plan_tiles(section.size, sheet.size, layout)
    target.pages += tile_pages(section, sheet.size, layout, plan, kit.name, faces)
    return f"{target.name}.pdf (one {sheet.name} sheet)"
