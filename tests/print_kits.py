"""Every game's kit built and imposed once per set of sheet options, for the print tests
(tests/test_print_*.py and the games' kit tests): the PDFs measured with pymupdf, beside the imposed
pages that say where each component was placed.

A build of every game's kit takes a while: the test session builds each distinct set of build options
once (conftest's `kit_builds` fixture, a `Builds`) and every test that measures that build reads the
same folder; none of them writes into it."""
from __future__ import annotations

import dataclasses
import fcntl
import hashlib
from functools import lru_cache
from pathlib import Path

import pymupdf

from generator.build import BuildOptions, build
from generator.kits import games_with_kits, make_kit
from generator.kits.base import CardSection, KitContext
from generator.layouts import load_layout
from generator.sheets import SheetOptions, impose

MM = 72 / 25.4
PAPERS = ("letter", "a4")
GAMES = tuple(games_with_kits())


@dataclasses.dataclass(frozen=True)
class Mark:
    """A straight stroke on a page, in mm (y down)."""

    x0: float
    y0: float
    x1: float
    y1: float
    width: float
    dashed: bool

    @property
    def vertical(self) -> bool:
        return abs(self.x0 - self.x1) < 0.01

    @property
    def horizontal(self) -> bool:
        return abs(self.y0 - self.y1) < 0.01

    @property
    def length(self) -> float:
        return abs(self.x1 - self.x0) + abs(self.y1 - self.y0)


class Builds:
    """`builds(**options)`: the folder of a build with these BuildOptions (formats default to PDF),
    built the first time a test asks for it and shared with every later test asking the same.

    `root` may be shared by several processes (pytest-xdist's workers): each build is made by one of
    them, under a lock, and the others wait for it and read it. The folder is the build's own
    (`<paper>/<game>/…`, manifest.json, written last): read it, never write into it."""

    def __init__(self, root: Path):
        self.root = root

    def __call__(self, **options) -> Path:
        options = {k: tuple(v) if isinstance(v, list) else v for k, v in options.items()}
        # the defaults spelt out, so that asking for every game or both papers by name is the same build
        options["formats"] = options.get("formats") or ("pdf",)
        options["games"] = options.get("games") or GAMES
        options["papers"] = options.get("papers") or load_layout().home_papers
        key = BuildOptions(**options)
        name = hashlib.sha256(repr(key).encode()).hexdigest()[:16]
        out = self.root / f"build-{name}"
        with open(self.root / f"build-{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (out / "manifest.json").is_file():
                build(dataclasses.replace(key, out=out))
        return out


def imposed(game: str, paper: str, options: SheetOptions = SheetOptions()):
    return impose(make_kit(game, KitContext()), paper, options)


@lru_cache(maxsize=None)
def shapes_of(game: str) -> dict[str, str]:
    """kind -> "rect" / "circle" of the kit's card sections."""
    kit = make_kit(game, KitContext())
    return {s.kind: s.shape for s in kit.sections if isinstance(s, CardSection)}


def black_lines(page: pymupdf.Page, width_mm: float) -> list[Mark]:
    """Black straight strokes of `width_mm` on a page (the crop and fold marks' pen)."""
    marks = []
    # (get_cdrawings: the raw paths, plain tuples, each stroke its own "s" entry; get_drawings wraps
    # every point in an object first, which takes seconds on a page of the Tokyo map)
    for d in page.get_cdrawings():
        if d.get("type") not in ("s", "fs") or d.get("color") != (0.0, 0.0, 0.0):
            continue
        if abs((d.get("width") or 0) / MM - width_mm) > 0.01:
            continue
        dashed = bool(d.get("dashes")) and d["dashes"].strip() not in ("[] 0", "[] 0.0", "")
        for item in d["items"]:
            if item[0] != "l":
                continue
            (ax, ay), (bx, by) = item[1], item[2]
            marks.append(Mark(ax / MM, ay / MM, bx / MM, by / MM, width_mm, dashed))
    return marks
