"""layouts/jutaku.toml as typed data: the dataclasses only; generator.layouts reads and checks it."""
from __future__ import annotations

from ...layouts import game_layout_loader, Size, Table, TextStyle


class SiteCard(Table):
    qr_corner_free: float
    border_width: float
    grid_width: float
    district: TextStyle
    kanji: TextStyle
    requirement: TextStyle
    yen: TextStyle
    small: TextStyle


class Pieces(Table):
    grid: tuple[int, int]
    title_height: float
    cut_width: float
    number: TextStyle

    def check(self):
        if min(self.grid) < 1:
            return f"grid: {list(self.grid)} is not a block of squares"


class Tokens(Table):
    architect: float
    drink: float
    pyramid: float
    disc: float
    coin: tuple[float, float]
    label: TextStyle
    big: TextStyle


class Cards(Table):
    stock: Size
    reference: Size
    track: Size
    title: TextStyle
    body: TextStyle
    qr: tuple[float, float, float]


class Sheet(Table):
    rows: int
    title: TextStyle
    head: TextStyle
    cell: TextStyle


class Colours(Table):
    ink: str
    paper: str
    blue_side: str
    white_side: str
    border: str
    grid: str
    cut: str
    piece: str
    coin: str


class Layout(Table):
    site_card: SiteCard
    pieces: Pieces
    tokens: Tokens
    cards: Cards
    sheet: Sheet
    colours: Colours


load_layout = game_layout_loader("jutaku", Layout)
