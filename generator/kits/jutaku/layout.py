"""layouts/jutaku.toml as typed data: the dataclasses only; generator.layouts reads and checks it."""
from __future__ import annotations

import dataclasses

from ...layouts import load_game_layout, Size, TextStyle


@dataclasses.dataclass(frozen=True)
class SiteCard:
    qr_corner_free: float
    border_width: float
    grid_width: float
    district: TextStyle
    kanji: TextStyle
    requirement: TextStyle
    yen: TextStyle
    small: TextStyle


@dataclasses.dataclass(frozen=True)
class Pieces:
    grid: tuple[int, int]
    title_height: float
    cut_width: float
    number: TextStyle

    def check(self):
        if min(self.grid) < 1:
            return f"grid: {list(self.grid)} is not a block of squares"


@dataclasses.dataclass(frozen=True)
class Tokens:
    architect: float
    drink: float
    pyramid: float
    disc: float
    coin: tuple[float, float]
    label: TextStyle
    big: TextStyle


@dataclasses.dataclass(frozen=True)
class Cards:
    stock: Size
    reference: Size
    track: Size
    title: TextStyle
    body: TextStyle
    qr: tuple[float, float, float]


@dataclasses.dataclass(frozen=True)
class Sheet:
    rows: int
    title: TextStyle
    head: TextStyle
    cell: TextStyle


@dataclasses.dataclass(frozen=True)
class Colours:
    ink: str
    paper: str
    blue_side: str
    white_side: str
    border: str
    grid: str
    cut: str
    piece: str
    coin: str


@dataclasses.dataclass(frozen=True)
class Layout:
    site_card: SiteCard
    pieces: Pieces
    tokens: Tokens
    cards: Cards
    sheet: Sheet
    colours: Colours


def load_layout() -> Layout:
    """layouts/jutaku.toml (or TOKYO_KIT_LAYOUTS' copy), read once."""
    return load_game_layout("jutaku", Layout)
