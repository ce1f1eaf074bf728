"""Building kits: load each game's data, let its kit say what to draw, impose it on each paper, write
each format, and record everything in `manifest.json`.

Output: OUT/<paper>/<game>/<file>.pdf, <file>-NN.svg and <file>-NN.png (one SVG / PNG per page).
The same input gives the same bytes, so a rebuild only changes files whose content changed.
"""
from __future__ import annotations

import dataclasses
import functools
import io
import json
from pathlib import Path
from typing import Iterable

from . import canon, jobs
from .draw.pdf import write_pdf
from .draw.svg import SvgCanvas
from .kits import games_with_kits, make_kit
from .kits.base import BoardSection, CardSection, Kit, KitContext, PageSection
from .draw.base import MissingGlyph
from .draw.fit import TextFitError
from .draw.record import FaceCache, Recording
from .qr import QrTooSmall
from .layouts import load_layout
from .sheets import Document, LayoutError, SheetOptions, impose

FORMATS = ("pdf", "svg", "png", "print-shop")
DEFAULT_FORMATS = ("pdf", "svg")


class BuildError(Exception):
    """Something the person running the build can fix; `str()` is one line."""


#: Failures the person running the build can act on from their one-line message alone: bad data or
#: layouts, an unknown game, an output folder that cannot be written, a component that does not fit.
USER_ERRORS = (BuildError, canon.DataError, canon.UnknownGame, LayoutError, QrTooSmall, MissingGlyph,
               TextFitError)


@dataclasses.dataclass(frozen=True)
class BuildOptions:
    games: tuple[str, ...] = ()        # empty: every game that has a kit
    papers: tuple[str, ...] = ()       # empty: every home paper (Letter and A4)
    formats: tuple[str, ...] = ()      # empty: PDF and SVG
    out: Path = Path("output")
    companion_url: str = "http://localhost:5000"
    ink_saver: bool = False
    duplex: str = "long"               # long, short or fold
    png_dpi: float = 100.0
    bleed: float = 0.0                 # mm of art past each card's trim on the sheets
    back_bleed: float = 3.0            # mm the backs' art runs past the outer cut lines
    back_offset: tuple[float, float] = (0.0, 0.0)   # mm the back pages move (right, down)


def resolve_games(wanted: Iterable[str]) -> list[str]:
    wanted = list(dict.fromkeys(wanted))
    available = games_with_kits()
    if not wanted:
        return available
    for game in wanted:
        if game not in canon.GAMES:
            raise BuildError(str(canon.UnknownGame(game)))
        if game not in available:
            raise BuildError(f"game {game!r} has no kit yet (kits: {', '.join(available) or 'none'})")
    return wanted


def build(options: BuildOptions, kits: dict[str, Kit] | None = None) -> dict:
    """Build and write everything `options` asks for; returns the manifest (also written).

    `kits` replaces the games' own kits (tests build small synthetic kits this way)."""
    layout = load_layout()
    papers = list(dict.fromkeys(options.papers)) or list(layout.home_papers)
    for paper in papers:
        if paper not in layout.home_papers:
            raise BuildError(f"unknown paper {paper!r} (known: {', '.join(layout.home_papers)})")
    formats = list(dict.fromkeys(options.formats)) or list(DEFAULT_FORMATS)
    for fmt in formats:
        if fmt not in FORMATS:
            raise BuildError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    try:
        sheet_options = SheetOptions(ink_saver=options.ink_saver, duplex=options.duplex,  # type: ignore[arg-type]
                                     bleed=options.bleed, back_offset=tuple(options.back_offset),  # type: ignore[arg-type]
                                     companion_url=options.companion_url, back_bleed=options.back_bleed)
    except ValueError as exc:
        raise BuildError(str(exc)) from None
    if options.duplex == "fold" and any(options.back_offset):
        raise BuildError("--back-offset moves back pages, and --duplex fold prints none")
    games = resolve_games(options.games) if kits is None else list(kits)
    out = Path(options.out)
    _make_dir(out)
    ctx = KitContext(companion_url=options.companion_url, ink_saver=options.ink_saver)
    if kits is None:
        kits = {game: make_kit(game, ctx) for game in games}

    # One job per kit, paper and format. Each face is drawn once per kit (FaceCache) and replayed
    # everywhere; with several cores the faces are recorded here first, then jobs run in workers.
    faces = {game: FaceCache() for game in kits}
    tasks = []
    for game, kit in kits.items():
        for paper in papers:
            _make_dir(out / paper / game)
            for fmt in formats:
                tasks.append(functools.partial(_write_job, kit, game, paper, fmt, out, sheet_options,
                                               layout, faces[game], options.png_dpi))
    if jobs.workers_for(len(tasks)) > 1:
        for game, kit in kits.items():
            record_faces(kit, papers[0], sheet_options, layout, faces[game])
    try:
        files = [entry for result in jobs.run(tasks, USER_ERRORS) for entry in result]
    except jobs.JobFailed as failed:
        if failed.expected:
            raise BuildError(str(failed)) from None
        raise RuntimeError(f"{failed}\n{failed.detail}") from None
    for game in kits:
        for paper in papers:
            folder = out / paper / game
            written = [out / f["path"] for f in files if f["game"] == game and f["paper"] == paper]
            _remove_stale(folder, written, formats)
            if "print-shop" in formats:
                _remove_stale(folder / PRINT_SHOP, written, ["png"])
    calibration = []
    if "pdf" in formats and sheet_options.duplex != "fold" and any(_double_sided(kit) for kit in kits.values()):
        calibration = [_write_calibration(out, paper, layout, sheet_options) for paper in papers]
    manifest = {"files": sorted(files, key=lambda f: f["path"]),
                "components": [c for game, kit in kits.items() for c in components(game, kit)],
                "qr": [q for game, kit in kits.items() for q in qr_codes(game, kit)],
                "not_printed": [{"game": game, **dataclasses.asdict(n)} for game, kit in kits.items()
                                for n in kit.not_printed]}
    if calibration:
        manifest["calibration"] = calibration
    _write(out / "manifest.json", json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    return manifest


def _write_job(kit: Kit, game: str, paper: str, fmt: str, out: Path, sheet_options: SheetOptions,
               layout, faces: FaceCache, png_dpi: float) -> list[dict]:
    """Write one paper and format of a kit; the manifest entries of the files written."""
    folder = out / paper / game
    if fmt == "print-shop":
        return [{"path": path.relative_to(out).as_posix(), "game": game, "paper": paper, "format": fmt,
                 "pages": 1, "kind": kind, "id": item_id, "side": side}
                for path, kind, item_id, side in write_print_shop(kit, folder / PRINT_SHOP, layout, faces)]
    entries = []
    for document in impose(kit, paper, sheet_options, layout, faces):
        for path, pages in write_document(document, folder, fmt, kit.name, png_dpi, faces):
            entry = {"path": path.relative_to(out).as_posix(), "game": game, "paper": paper,
                     "format": fmt, "pages": pages}
            if fmt == "pdf":
                # how a duplex printer pairs the pages (1-based): each front with its back, the
                # pages printed on one side only, and the blank pages that follow those
                entry.update(duplex=[list(pair) for pair in document.duplex], single=document.single,
                             blank=document.blank)
            entries.append(entry)
    return entries


PRINT_SHOP = "print-shop"
PRINT_SHOP_DPI = 300
PRINT_SHOP_BLEED = 3.175    # mm: the 1/8 in print-on-demand shops ask for


def _double_sided(kit: Kit) -> list[CardSection]:
    """The kit's cards with backs (rectangular): what duplex printing and print shops are for."""
    return [s for s in kit.sections if isinstance(s, CardSection) and s.draw_back is not None
            and s.shape == "rect"]


def write_print_shop(kit: Kit, folder: Path, layout, faces: FaceCache) -> list[tuple[Path, str, str, str]]:
    """One PNG per card face, at PRINT_SHOP_DPI with PRINT_SHOP_BLEED of art mirrored past each
    trim, numbered in print order (0001-1-front.png, 0001-2-back.png, 0002-1-front.png, …: sorted
    by name, as a print-on-demand shop's upload takes them, each front comes just before its back).
    Returns (path, kind, id, side)."""
    from .draw.png import PngCanvas

    _make_dir(folder)
    b = PRINT_SHOP_BLEED
    rendered: dict[str, bytes] = {}
    written = []
    n = 0
    try:
        for section in _double_sided(kit):
            w, h = section.size
            for item in section.items:
                for _ in range(item.copies):
                    n += 1
                    for order, side, draw in ((1, "front", section.draw_front), (2, "back", section.draw_back)):
                        key = f"{section.kind}/{item.id}/{side}"
                        if key not in rendered:
                            canvas = PngCanvas(w + 2 * b, h + 2 * b, dpi=PRINT_SHOP_DPI)
                            replay = faces.draw(key, lambda c, item=item, draw=draw: draw(c, item))
                            with canvas.frame(b, b):
                                canvas.bleed_face(key, (w, h), replay, b)
                            buffer = io.BytesIO()
                            canvas.image().save(buffer, format="PNG", dpi=(PRINT_SHOP_DPI, PRINT_SHOP_DPI))
                            rendered[key] = buffer.getvalue()
                        path = folder / f"{n:04d}-{order}-{side}.png"
                        if not path.is_file() or path.read_bytes() != rendered[key]:
                            path.write_bytes(rendered[key])
                        written.append((path, section.kind, item.id, side))
    except OSError as exc:
        raise BuildError(f"cannot write in {folder}: {exc.strerror or exc}") from None
    return written


def _write_calibration(out: Path, paper: str, layout, sheet_options: SheetOptions) -> dict:
    """The back-offset calibration sheet for one paper: OUT/<paper>/back-offset-calibration-<paper>.pdf."""
    from .sheets.calibration import back_offset_pages

    path = out / paper / f"back-offset-calibration-{paper}.pdf"
    _make_dir(path.parent)
    pages = back_offset_pages(layout.papers[paper].size, sheet_options, sheet_options.duplex)
    try:
        count = write_pdf(path, pages, title="Back-offset calibration", subject="print-and-play kit")
    except OSError as exc:
        raise BuildError(f"cannot write {path}: {exc.strerror or exc}") from None
    return {"path": path.relative_to(out).as_posix(), "paper": paper, "format": "pdf", "pages": count}


def record_faces(kit: Kit, paper: str, sheet_options: SheetOptions, layout, faces: FaceCache) -> None:
    """Draw every face of the kit once into `faces` (by drawing one paper's pages into nowhere)."""
    for document in impose(kit, paper, sheet_options, layout, faces):
        for page in document.pages:
            page.draw(Recording())


def write_document(document: Document, folder: Path, fmt: str, kit_name: str,
                   png_dpi: float = 100.0, faces: FaceCache | None = None) -> list[tuple[Path, int]]:
    """Write one document in one format; returns (path, pages) for each file written."""
    title = f"{kit_name} — {document.title}"
    try:
        if fmt == "pdf":
            path = folder / f"{document.name}.pdf"
            return [(path, write_pdf(path, document.pages, title=title, subject="print-and-play kit"))]
        written = []
        for n, page in enumerate(document.pages, 1):
            path = folder / f"{document.name}-{n:02d}.{fmt}"
            if fmt == "svg":
                canvas = SvgCanvas(*page.size, title=f"{title} — page {n}",
                                   fragments=faces.svg if faces else None)
            else:
                from .draw.png import PngCanvas

                # A preview: copy-shop sheets (A1 and up) at a lower resolution, at most ~2400 px.
                dpi = min(png_dpi, 2400 / (max(page.size) / 25.4))
                canvas = PngCanvas(*page.size, dpi=dpi)
            page.draw(canvas)
            canvas.save(path)
            written.append((path, 1))
        return written
    except OSError as exc:
        raise BuildError(f"cannot write in {folder}: {exc.strerror or exc}") from None


def components(game: str, kit: Kit) -> list[dict]:
    """Every printed component (kind, id, copies) and, under "data", the game data's components it
    stands for (the data's own kind and id, with the copies printed), so the manifest can be checked
    against the data; a sheet of pieces (a PageSection's `holds`) lists what it holds under "holds"
    and each of them gets its own row, naming the sheet under "on"."""
    def named(counts_as, kind: str, cid: str, copies: int) -> list[dict]:
        if counts_as is None:
            return [{"kind": kind, "id": cid, "copies": copies}]
        return [{"kind": k, "id": i, "copies": n * copies} for k, i, n in counts_as]

    rows = []
    for section in kit.sections:
        if isinstance(section, CardSection):
            rows += [{"game": game, "kind": section.kind, "id": item.id, "copies": item.copies,
                      "data": named(item.counts_as, section.kind, item.id, item.copies)}
                     for item in section.items]
        elif isinstance(section, BoardSection):
            rows.append({"game": game, "kind": section.kind, "id": section.id, "copies": 1,
                         "data": named(section.counts_as, section.kind, section.id, 1)})
        elif isinstance(section, PageSection):
            row = {"game": game, "kind": section.kind, "id": section.id, "copies": section.copies}
            if section.holds:
                held = [{"kind": kind, "id": cid, "copies": copies * section.copies}
                        for kind, cid, copies in section.holds]
                row.update(data=named(section.counts_as, "", "", section.copies) if section.counts_as else [],
                           holds=held)
                rows.append(row)
                rows += [{"game": game, **h, "data": [dict(h)], "on": {"kind": section.kind, "id": section.id}}
                         for h in held]
            else:
                row["data"] = named(section.counts_as, section.kind, section.id, section.copies)
                rows.append(row)
    return rows


def qr_codes(game: str, kit: Kit) -> list[dict]:
    """Every distinct QR payload the kit prints, with the component it names (from the payload)."""
    seen: dict[str, dict] = {}
    for section in kit.sections:
        for item in getattr(section, "items", ()):
            if item.qr is None:
                continue
            kind, payload = item.qr
            seen.setdefault(payload, {"game": game, "kind": kind,
                                      "id": payload.rstrip("/").rsplit("/", 1)[-1] or item.id,
                                      "payload": payload})
    return list(seen.values())


def _make_dir(path: Path) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BuildError(f"cannot create the output folder {path}: {exc.strerror or exc}") from None


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BuildError(f"cannot write {path}: {exc.strerror or exc}") from None


def _remove_stale(folder: Path, written: list[Path], formats: list[str]) -> None:
    """Drop pages of the formats just built that an earlier build left (a kit with fewer sheets)."""
    keep = set(written)
    for path in folder.iterdir():
        if path.suffix[1:] in formats and path not in keep:
            try:
                path.unlink()
            except OSError:
                pass
