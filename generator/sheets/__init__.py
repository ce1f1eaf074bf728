"""Sheets: a Kit laid out on paper as documents of pages (imposition), knowing nothing of any game.

`impose(kit, paper)` groups the kit's sections by their `file`, lays each one out (cards with crop
marks and duplex backs, boards tiled or whole, full pages), adds one document per tiled board with
the whole board on a large copy-shop sheet, and puts a cover page first in every document. Runs of
single-sided piece sections (tokens, stores, track) of one file and stock share sheets (pack.py).

Documents are named so a downloaded file still says what it is: `<game>-<file>-<paper>` (e.g.
<game>-cards-letter) and, for the copy-shop board, `<game>-<file>-<sheet>` (<game>-board-a1).
"""
from __future__ import annotations

import dataclasses

from ..draw.record import FaceCache
from ..kits.base import BoardSection, CardSection, Kit, PageSection
from ..tiling import TilePlan, plan_tiles
from .boards import large_paper, tile_pages
from .cards import card_pages
from .cover import CoverFacts, cover_page, verso_page
from .diagram import assembly_page
from .grid import LayoutError
from ..layouts import Layout, Paper, load_layout
from .model import ChecklistRow, Document, Page, Placement, PrintJob
from .options import SheetOptions
from .pack import pack_pages, packable
from .pages import section_pages

__all__ = ["impose", "Document", "Page", "Placement", "SheetOptions", "LayoutError"]


class _Doc:
    """A document being filled: its pages and what the cover should say about it."""

    def __init__(self, name: str):
        self.name = name
        self.pages: list[Page] = []
        self.stocks_of: list[tuple[str, str]] = []   # each page's (stock, section title)
        self.titles: list[str] = []
        self.stocks: list[str] = []
        self.duplex = self.tiled = self.cards = self.tokens = False
        self.large = ""
        self.sheet: Paper | None = None

    def add(self, pages: list[Page], stock: str, title: str) -> None:
        self.pages += pages
        self.stocks_of += [(stock, title)] * len(pages)


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
        titles = ", ".join(dict.fromkeys(section.title for section in run.sections))
        docs[file].add(pages, run.stock, titles)
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
            target.add(pages, section.stock, section.title)
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
                target.add([assembly_page(section, plan, size, layout, large, options.ink_saver)],
                           "paper", f"{section.title}: how to assemble")
            target.add(tile_pages(section, size, layout, plan, kit.name, faces, options.ink_saver),
                       section.stock, section.title)
            copies, sheets = 1, plan.count
        elif isinstance(section, PageSection):
            target.add(section_pages(section, size, layout, faces), section.stock, section.title)
            copies = sheets = section.copies
        else:  # pragma: no cover - the Section union is closed
            raise TypeError(f"unknown section {section!r}")
        rows.append(ChecklistRow(section.title, copies, sheets, section.stock, f"{target.name}.pdf"))
    for file in list(runs):
        flush(file)

    needs = kit_needs(kit)
    documents = []
    for d in docs.values():
        pages, jobs, document = _duplex_order(d, size)
        facts = CoverFacts(kit_name=kit.name, file=f"{d.name}.pdf", title=", ".join(d.titles),
                           paper=paper, duplex=d.duplex, tiled=d.tiled, cards=d.cards,
                           tokens=d.tokens, stocks=tuple(d.stocks),
                           large=d.large, sheet=d.sheet, jobs=tuple(jobs),
                           companion_url=options.companion_url,
                           assembly=next((n for n, p in enumerate(pages, 3) if p.role == "assembly"), 0))
        cover = cover_page(facts, rows, kit.notes, layout, options)
        verso = verso_page(facts, rows, kit.notes, needs, layout, options)
        document.title = facts.title
        document.pages = [cover, verso] + pages
        documents.append(document)
    return documents


def kit_needs(kit: Kit) -> tuple[str, ...]:
    """What a table needs besides the printed kit: the kit's `not_printed` with their reasons, then
    the tools to make it (cutting always; glue and card for boards glued on card)."""
    lines = []
    for n in kit.not_printed:
        name = n.label or n.id.replace("-", " ").capitalize()
        lines.append(f"{name}{f' ({n.count})' if n.count > 1 else ''}: {n.reason}.".replace("..", "."))
    lines.append("Scissors, or a craft knife with a metal ruler and a cutting mat, for the cut lines.")
    glued = [s for s in kit.sections if isinstance(s, BoardSection) or "glue" in s.stock]
    if glued:
        lines.append("A glue stick and thin card (a cereal box will do) to mount the boards and pieces "
                     "printed on paper.")
    if any(getattr(item, "qr", None) for s in kit.sections for item in getattr(s, "items", ())):
        lines.append("For the companion: a computer running it (“make run”) and phones on the same Wi-Fi.")
    return tuple(lines)


def _duplex_order(d: _Doc, size: tuple[float, float]) -> tuple[list[Page], list[PrintJob], Document]:
    """The file's pages after its cover and verso (pages 1-2) in the order a duplex printer pairs
    them: each page of fronts on an odd page with its backs on the next; in a file with backs every
    single-sided page is followed by a blank page (so nothing is printed on its back). Returns the
    pages, the print jobs (runs of pages printed the same way, for the cover) and the Document
    with its page pairs (its pages and title are filled in by the caller)."""
    has_backs = any(p.role == "back" for p in d.pages)
    blank = Page(size, lambda canvas: None, role="blank")
    pages: list[Page] = []
    runs: list[tuple[str, str, str]] = []       # (stock, sides, title) of each page after the verso
    document = Document(d.name, "", [], duplex=[(1, 2)])
    i = 0
    while i < len(d.pages):
        page, (stock, title) = d.pages[i], d.stocks_of[i]
        first = len(pages) + 3
        if page.role == "front" and i + 1 < len(d.pages) and d.pages[i + 1].role == "back":
            pages += [page, d.pages[i + 1]]
            runs += [(stock, "double", title)] * 2
            document.duplex.append((first, first + 1))
            i += 2
            continue
        pages.append(page)
        document.single.append(first)
        if has_backs:
            pages.append(blank)
            document.blank.append(first + 1)
            runs += [(stock, "blank-backed", title)] * 2
        else:
            runs.append((stock, "single", title))
        i += 1
    groups: list[tuple[int, int, str, str, list[str]]] = []     # first, last, stock, sides, titles
    for n, (stock, sides, title) in enumerate(runs, 3):
        if groups and groups[-1][2:4] == (stock, sides):
            first, _, _, _, titles = groups[-1]
            groups[-1] = (first, n, stock, sides, titles if title in titles else titles + [title])
        else:
            groups.append((n, n, stock, sides, [title]))
    jobs = [PrintJob(1, 2, "paper", "double", "this cover and its verso")]
    jobs += [PrintJob(first, last, stock, sides, "; ".join(titles))  # type: ignore[arg-type]
             for first, last, stock, sides, titles in groups]
    return pages, jobs, document


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
    target.add(tile_pages(section, sheet.size, layout, plan, kit.name, faces), section.stock, section.title)
    return f"{target.name}.pdf (one {sheet.name} sheet)"
