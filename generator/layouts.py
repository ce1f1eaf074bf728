"""The layout files under layouts/, read into typed, checked objects: the one layout loader.

`load_layout()` reads the sheet machinery's paper.toml and sheets.toml; `load_game_layout(game,
Schema)` reads a game's `<game>.toml` into the dataclass its kit describes (the kit keeps only its
dataclasses). Both honour TOKYO_KIT_LAYOUTS. Same mechanism as the canonical data: dataclasses
described once, `build()` checks every value and a mistake is a DataError naming the file, the key
and the problem.

Imports only the data loader's file and schema helpers, never the sheets or the kits, so anything
(QR drawing, kits, sheets) can read layouts without an import cycle.
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Callable, Literal, TypeVar

from .bundle import bundled
from .canon.files import read_toml
from .canon.schema import Ctx, Table, build

T = TypeVar("T")

#: The building blocks of every game's layout file (layouts/<game>.toml).
Box = tuple[float, float, float, float]        # x, y, width, height in mm
Size = tuple[float, float]                     # width, height in mm


class TextStyle(Table):
    """A text's size in pt and the smallest it may shrink to where it must fit a box."""

    size: float
    min: float
    font: Literal["regular", "bold"] = "regular"

    def check(self):
        if not 0 < self.min <= self.size:
            return f"min ({self.min}) must be between 0 and size ({self.size})"


def layouts_root() -> Path:
    """layouts/ of the checkout (or the installed package); TOKYO_KIT_LAYOUTS points elsewhere (tests
    use changed or broken copies)."""
    return Path(os.environ.get("TOKYO_KIT_LAYOUTS") or bundled("layouts"))


def read_layout(path: Path, schema: type[T]) -> T:
    """One layout file typed as `schema`, or a DataError naming the file, the key and the problem."""
    return build(schema, read_toml(path), Ctx(str(path)))


def _positive(**values: float) -> str | None:
    for name, value in values.items():
        if value <= 0:
            return f"{name}: must be more than 0, got {value}"
    return None


class Paper(Table):
    name: str
    detail: str
    size: tuple[float, float]
    home: bool = False
    large: tuple[str, ...] = ()

    def check(self):
        return _positive(width=self.size[0], height=self.size[1])


class PaperFile(Table):
    margin: float
    paper: dict[str, Paper]

    def check(self):
        if self.margin < 0:
            return f"margin: must not be negative, got {self.margin}"
        for pid, paper in self.paper.items():
            for large in paper.large:
                if large not in self.paper:
                    return f"paper.{pid}.large: unknown paper {large!r}"


class Cards(Table):
    gap: float


class CropMarks(Table):
    offset: float
    length: float
    short_offset: float
    short_length: float
    clearance: float
    width: float
    colour: str

    def check(self):
        return _positive(length=self.length, short_length=self.short_length, width=self.width)


class Tokens(Table):
    gap: float
    guide_width: float
    guide_colour: str


class Packing(Table):
    caption: float          # mm: the strip over each band of pieces that holds its caption
    caption_size: float     # pt
    caption_colour: str

    def check(self):
        return _positive(caption=self.caption, caption_size=self.caption_size)


class Board(Table):
    overlap: float
    mark_room: float
    label_band: float
    guide_colour: str
    guide_width: float
    guide_dash: tuple[float, ...]

    def check(self):
        return _positive(overlap=self.overlap, mark_room=self.mark_room)


class Qr(Table):
    module_min: float
    quiet_modules: int
    error_correction: Literal["L", "M", "Q", "H"]

    def check(self):
        if self.quiet_modules < 4:
            return f"quiet_modules: the QR standard asks for at least 4, got {self.quiet_modules}"
        return _positive(module_min=self.module_min)


class Cover(Table):
    square: float
    ruler_inches: int


class SheetsFile(Table):
    cards: Cards
    crop_marks: CropMarks
    tokens: Tokens
    packing: Packing
    board: Board
    qr: Qr
    cover: Cover


class Layout(Table):
    margin: float
    papers: dict[str, Paper]
    sheets: SheetsFile

    @property
    def home_papers(self) -> tuple[str, ...]:
        return tuple(pid for pid, paper in self.papers.items() if paper.home)


def load_layout(root: Path | None = None) -> Layout:
    """The paper sizes and the sheet machinery's settings (paper.toml, sheets.toml)."""
    return _load(Path(root) if root else layouts_root())


@lru_cache(maxsize=None)
def _load(root: Path) -> Layout:
    papers = read_layout(root / "paper.toml", PaperFile)
    sheets = read_layout(root / "sheets.toml", SheetsFile)
    return Layout(margin=papers.margin, papers=papers.paper, sheets=sheets)


def load_game_layout(game: str, schema: type[T], root: Path | None = None) -> T:
    """A game's `layouts/<game>.toml` typed as its kit's `schema` (read once per root)."""
    return _load_game(Path(root) if root else layouts_root(), game, schema)


@lru_cache(maxsize=None)
def _load_game(root: Path, game: str, schema: type[T]) -> T:
    return read_layout(root / f"{game}.toml", schema)


def game_layout_loader(game: str, schema: type[T]) -> Callable[[], T]:
    """A kit's `load_layout()`: its `layouts/<game>.toml` typed as its `schema`, through
    `load_game_layout` (read once per root)."""
    def load_layout() -> T:
        return load_game_layout(game, schema)
    load_layout.__doc__ = f"layouts/{game}.toml (or TOKYO_KIT_LAYOUTS' copy), read once."
    return load_layout
