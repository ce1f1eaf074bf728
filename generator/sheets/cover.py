"""The first sheet of every PDF. Page 1, the cover: how to print this file (which pages are one print
job, on what, on how many sides), where the companion is and what the short codes are for, and a
scale check. Page 2, its verso: what the kit contains, what you also need, and notes."""
from __future__ import annotations

import dataclasses

from ..draw import Canvas, Style
from ..draw.base import PT
from .calibration import ruler, square
from ..layouts import Layout, Paper
from ..draw.record import Recording
from .grid import LayoutError
from .model import ChecklistRow, Page, PrintJob
from .options import SheetOptions
from ..draw.lines import ellipsize, fit_size, wrap

INK = "#1d2a44"        # the cover's dark blue
RULE = "#9aa3b5"


@dataclasses.dataclass(frozen=True)
class CoverFacts:
    """What the cover says about its own file."""

    kit_name: str
    file: str                      # e.g. "cards.pdf"
    title: str                     # what the file holds
    paper: Paper                   # the home paper this kit was built for
    duplex: bool                   # the file has backs pages
    tiled: bool                    # the file holds tiled boards
    stocks: tuple[str, ...]        # stocks of this file's components
    cards: bool = False            # the file holds rectangular cards (crop marks)
    tokens: bool = False           # the file holds round tokens (cut guides)
    large: str = ""                # e.g. "board-large.pdf on one A1 sheet", when there is one
    sheet: Paper | None = None     # the large sheet, when this file is the copy-shop version
    jobs: tuple[PrintJob, ...] = ()  # the file's pages, in runs printed the same way
    companion_url: str = ""        # where the QR codes point
    assembly: int = 0              # the page that shows how to assemble a tiled board

def cover_page(facts: CoverFacts, rows: list[ChecklistRow], notes: tuple[str, ...],
               layout: Layout, options: SheetOptions) -> Page:
    size = facts.paper.size

    def paint(canvas: Canvas) -> None:
        # The words must stay above the scale check: a file of many print jobs gets smaller type.
        limit = size[1] - layout.margin - 4.0 - layout.sheets.cover.square - 9
        words = _fitted(lambda c, scale: _words(c, facts, rows, layout, options, scale), limit,
                        f"cover of {facts.file}: the print jobs do not fit one page")
        with canvas.group("cover", role="cover"):
            words.replay(canvas)
            m = layout.margin + 4.0
            _scale_check(canvas, layout, m, size[1] - m, size[0] - 2 * m, options.ink_saver)

    return Page(size, paint, role="cover")


def verso_page(facts: CoverFacts, rows: list[ChecklistRow], notes: tuple[str, ...],
               needs: tuple[str, ...], layout: Layout, options: SheetOptions) -> Page:
    """The cover's back: what the kit contains, what else the table needs (`needs`), the notes."""
    size = facts.paper.size

    def paint(canvas: Canvas) -> None:
        limit = size[1] - layout.margin - 2.0
        words = _fitted(lambda c, scale: _verso_words(c, facts, rows, notes, needs, layout, options, scale),
                        limit, f"verso of {facts.file}: the checklist and notes do not fit one page")
        with canvas.group("verso", role="verso"):
            words.replay(canvas)

    return Page(size, paint, role="verso")


def _fitted(draw, limit: float, error: str) -> Recording:
    for scale in (1.0, 0.88, 0.78, 0.7):
        words = Recording()
        if draw(words, scale) <= limit:
            return words
    raise LayoutError(error)


def _words(canvas: Canvas, facts: CoverFacts, rows: list[ChecklistRow], layout: Layout,
           options: SheetOptions, scale: float) -> float:
    """Title, how to print and the companion, type scaled by `scale`; returns where they end."""
    page_w, _ = facts.paper.size
    m = layout.margin + 4.0
    width = page_w - 2 * m
    y = _header(canvas, facts, m, width, options.ink_saver)

    y = _heading(canvas, "How to print this file", m, y + 9 * scale, width)
    for line in _instructions(facts, options, rows):
        y = _bullet(canvas, line, m, y, width, 9.0 * scale)
    if facts.companion_url:
        y = _heading(canvas, "At the table: the companion", m, y + 7 * scale, width)
        for line in companion_lines(facts.companion_url):
            y = _bullet(canvas, line, m, y, width, 9.0 * scale)
    return y


def _verso_words(canvas: Canvas, facts: CoverFacts, rows: list[ChecklistRow], notes: tuple[str, ...],
                 needs: tuple[str, ...], layout: Layout, options: SheetOptions, scale: float) -> float:
    page_w, _ = facts.paper.size
    m = layout.margin + 4.0
    width = page_w - 2 * m
    y = m - 2.0
    canvas.text(m, y + 5, f"{facts.kit_name} · {facts.file} · page 2: the back of the cover", 9.5,
                fill=INK)
    y = _heading(canvas, "What the kit contains", m, y + 14 * scale, width)
    y = _checklist(canvas, rows, facts.file, m, y + 1.5, width, options.ink_saver, scale)
    y = _heading(canvas, "You will also need (not in the kit)", m, y + 7 * scale, width)
    for line in needs:
        y = _bullet(canvas, line, m, y, width, 9.0 * scale)
    if notes:
        y = _heading(canvas, "Good to know", m, y + 7 * scale, width)
        for note in notes:
            y = _bullet(canvas, note, m, y, width, 9.0 * scale)
    return y


def companion_lines(url: str) -> list[str]:
    """What the cover says about the companion at `url`."""
    base = url.rstrip("/")
    host = base.split("//", 1)[-1].split("/", 1)[0].split(":")[0]
    lines = [f"Open {base} on a phone on the same Wi-Fi as the computer running the companion "
             "(“make run”), or scan any QR code of the kit: it opens that card's or board's page "
             "(rules, scores, the table's clock)."]
    if host in ("localhost", "127.0.0.1", "::1", "[::1]"):
        lines.append(f"This kit was built for {base}, which only the computer running the companion "
                     "opens: phones cannot. Rebuild with “make run” (without LOCAL=1) for the QR codes to "
                     "work on phones.")
    lines.append(f"The five characters under each QR code are its short code: if a phone cannot scan "
                 f"the code, open {base}/q and type them (letters or digits, no I, L, O or U).")
    return lines


SUB_PT = 9.5          # the header's second line: file, paper and what the file holds
SUB_LINES = 3         # at most; a longer list of contents wraps rather than running off the page


def _header(canvas: Canvas, facts: CoverFacts, x: float, width: float, ink_saver: bool) -> float:
    paper = facts.sheet or facts.paper
    sub = wrap(f"{facts.file} · {paper.name} ({paper.detail}) · {facts.title}", width - 10, SUB_PT)
    if len(sub) > SUB_LINES:
        sub = sub[:SUB_LINES - 1] + [ellipsize(" ".join(sub[SUB_LINES - 1:]), width - 10, SUB_PT)]
    step = SUB_PT * PT * 1.3
    top, height = x - 2.0, 20.0 + (len(sub) - 1) * step
    if ink_saver:
        canvas.rect(x, top, width, height, Style(stroke=INK, width=0.5), radius=2)
        colour, soft = INK, "#333333"
    else:
        canvas.rect(x, top, width, height, Style(fill=INK, stroke=None), radius=2)
        colour, soft = "#ffffff", "#d5dcea"
    canvas.text(x + 5, top + 9.5, facts.kit_name, 20, font="bold", fill=colour)
    canvas.text(x + width - 5, top + 9.5, "print-and-play kit", 11, anchor="end", fill=soft)
    for i, line in enumerate(sub):
        canvas.text(x + 5, top + 16 + i * step, line, SUB_PT, fill=soft)
    return top + height


def _listing(titles: list[str]) -> str:
    """“A”, “A and B”, “A, B and C”."""
    names = titles
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _pages(first: int, last: int) -> str:
    return f"Page {first}" if first == last else f"Pages {first}–{last}"


def _job_line(job: PrintJob, edge: str) -> str:
    where = _pages(job.first, job.last)
    if job.first == 1:
        return f"{where}: this cover and its verso (what the kit contains and what else you need), on paper."
    if job.sides == "double":
        return (f"{where}: {job.what} on {job.stock}, double-sided, flip on the {edge} edge: each "
                "page of backs is the page after its fronts.")
    if job.sides == "blank-backed":
        odd = ", ".join(str(n) for n in range(job.first, job.last + 1, 2))
        return (f"{where}: {job.what} on {job.stock}, printed on one side: each is followed by a blank "
                f"page, so they go through a duplex printer with the rest, or print pages {odd} one-sided.")
    return f"{where}: {job.what} on {job.stock}, one side."


def _instructions(facts: CoverFacts, options: SheetOptions, rows: list[ChecklistRow]) -> list[str]:
    paper = facts.sheet or facts.paper
    last = facts.jobs[-1].last if facts.jobs else 2
    lines = ["Print at 100 % / Actual size, never “Fit to page” or “Shrink”. Measure the square at "
             "the bottom of this page inside its line (50 mm) and the ruler (2 inches) before you cut.",
             f"Paper: {paper.name} ({paper.detail})."
             + (f" Have {_pages(3, last).lower()} printed at a copy shop; print this cover sheet (pages 1–2) "
                "at home." if facts.sheet else "")]
    edge = "long" if options.duplex == "long" else "short"
    if facts.duplex:
        lines.append(f"Double-sided, flip on the {edge} edge: send the whole file to a duplex printer "
                     f"as it is (pages 1–{last}), every back is printed behind its own front. Hold a "
                     "printed sheet against a light to check the backs line up.")
    else:
        lines.append(f"Single-sided: {_pages(3, last).lower()} on one side only (turn double-sided printing "
                     "off after the cover sheet)." if last > 2 else "Single-sided.")
    lines += [_job_line(job, edge) for job in facts.jobs]
    if facts.tiled:
        lines.append(f"Boards larger than a page come as tiles: page {facts.assembly or 3} shows how to "
                     "cut them and glue them into one board.")
    if facts.large:
        lines.append(f"Or print {facts.large} at a copy shop instead of the tiles.")
    if facts.cards:
        lines.append("Cards: cut along the lines the crop marks continue (the marks sit outside the "
                     "cards); neighbouring cards share one cut. The backs' colour runs past the outer "
                     "cut lines, so a back printed a little off still reaches every edge.")
    if facts.tokens:
        lines.append("Round tokens: cut along the thin grey circle round each one.")
    if options.ink_saver:
        lines.append("This is the ink-saver version: outlines and light tints instead of solid colour.")
    return lines


def _heading(canvas: Canvas, text: str, x: float, y: float, width: float) -> float:
    canvas.text(x, y, text, 12, font="bold", fill=INK)
    canvas.line(x, y + 1.8, x + width, y + 1.8, Style(stroke=RULE, width=0.3))
    return y + 2.5


def _bullet(canvas: Canvas, text: str, x: float, y: float, width: float, size: float = 9.0) -> float:
    lead = size * PT * 1.35
    lines = wrap(text, width - 5, size)
    for i, line in enumerate(lines):
        y += lead
        if i == 0:
            canvas.circle(x + 1.3, y - size * PT * 0.33, 0.55, Style(fill=INK, stroke=None))
        canvas.text(x + 4, y, line, size)
    return y + 0.8


def _checklist(canvas: Canvas, rows: list[ChecklistRow], this_file: str, x: float, y: float,
               width: float, ink_saver: bool, scale: float = 1.0) -> float:
    size, lead = 8.5 * scale, 5.2 * scale
    # Columns (x from the left, mm): box, component, copies and sheets (right-aligned), stock, file.
    cols = {"name": 6.0, "copies": width * 0.405, "sheets": width * 0.475, "stock": width * 0.50,
            "file": width * 0.745}
    header = Style(fill=None if ink_saver else "#e6e9f0", stroke=None)
    if not ink_saver:
        canvas.rect(x, y, width, lead, header)
    base = y + lead - 1.5
    canvas.text(x + cols["name"], base, "Component", size, font="bold")
    canvas.text(x + cols["copies"], base, "Copies", size, font="bold", anchor="end")
    canvas.text(x + cols["sheets"], base, "Sheets", size, font="bold", anchor="end")
    canvas.text(x + cols["stock"], base, "Stock", size, font="bold")
    canvas.text(x + cols["file"], base, "File", size, font="bold")
    y += lead
    small = size - 0.5
    for row in rows:
        font = "bold" if row.file == this_file else "regular"
        stock = wrap(row.stock, cols["file"] - cols["stock"] - 3, small)
        title = wrap(row.title, cols["copies"] - cols["name"] - 12, size, font)
        height = lead + (max(len(stock), len(title)) - 1) * small * PT * 1.25
        base = y + lead - 1.5
        canvas.rect(x + 0.6, base - 2.9 * scale, 3.2 * scale, 3.2 * scale, Style(stroke="#000000", width=0.25))
        for i, line in enumerate(title):
            canvas.text(x + cols["name"], base + i * small * PT * 1.25, line, size, font=font)
        canvas.text(x + cols["copies"], base, str(row.copies), size, anchor="end", font=font)
        sheets = f"{row.sheets}*" if row.shared else str(row.sheets)
        canvas.text(x + cols["sheets"], base, sheets, size, anchor="end", font=font)
        for i, line in enumerate(stock):
            canvas.text(x + cols["stock"], base + i * small * PT * 1.25, line, small)
        file_text = ("▶ " if row.file == this_file else "") + row.file
        file_size = fit_size(file_text, width - cols["file"], small, min(small, 6.0), font)
        canvas.text(x + cols["file"], base, ellipsize(file_text, width - cols["file"], file_size, font),
                    file_size, font=font)
        canvas.line(x, y + height, x + width, y + height, Style(stroke=RULE, width=0.2))
        y += height
    note = "Bold ▶: in this file. Sheets: pieces of paper to print; a double-sided sheet counts once."
    runs: dict[str, dict[int, int]] = {}
    for row in rows:
        if row.shared:
            runs.setdefault(row.file, {})[row.run] = row.run_sheets
    if runs:
        totals = [(file, sum(sheets.values())) for file, sheets in runs.items()]
        n = totals[0][1]
        where = (f"{n} sheet{'s' if n != 1 else ''} in all" if len(totals) == 1 else
                 ", ".join(f"{n} in {file}" for file, n in totals))
        note += f" *: pieces that share sheets ({where})."
    lines = wrap(note, width, 7)
    for i, line in enumerate(lines):
        canvas.text(x, y + 4 + i * 3.2, line, 7, fill="#555555")
    return y + 5 + (len(lines) - 1) * 3.2


def _scale_check(canvas: Canvas, layout: Layout, x: float, bottom: float, width: float,
                 ink_saver: bool) -> None:
    c = layout.sheets.cover
    side = c.square
    top = bottom - side
    canvas.text(x, top - 3, "Scale check", 12, font="bold", fill=INK)
    square(canvas, x, top, side, ink_saver)
    rx = x + side + 12
    ruler(canvas, rx, bottom - 24, c.ruler_inches)
    lines = wrap(f"Measure the square inside its line: {side:g} mm. If it is not, or the ruler is not "
                 f"{c.ruler_inches} inches, your printer scaled the page: choose “Actual size” / 100 % "
                 "and print again.", width - side - 12, 8.5)
    for i, line in enumerate(lines):
        canvas.text(rx, bottom - 14 + i * 4, line, 8.5)
