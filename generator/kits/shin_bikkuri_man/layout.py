"""layouts/shin-bikkuri-man.toml as typed data: the dataclasses only; generator.layouts reads and checks it."""
from __future__ import annotations

from ...layouts import game_layout_loader, Size, Table, TextStyle


class Board(Table):
    size: Size
    grid: tuple[float, float]
    title: TextStyle
    label: TextStyle
    small: TextStyle
    coat: float
    track_box: float
    qr: float


class Tiles(Table):
    line: float
    inner: float
    symbol: float
    gutter: float            # between tiles of different colours, each colour bled into its half


class Card(Table):
    size: Size
    title: TextStyle
    text: TextStyle


class AbilityTile(Card):
    qr: float


class Marker(Table):
    size: float              # diameter of a score marker
    number: TextStyle


class Harbour(Table):
    space: Size
    margin: float
    label: TextStyle


class Colours(Table):
    ink: str
    paper: str
    window: str
    frame: str
    brick: str
    coat: str
    grid: str
    card_back: str


class Layout(Table):
    square: float
    board: Board
    tiles: Tiles
    card: Card
    ability: AbilityTile
    marker: Marker
    harbour: Harbour
    colours: Colours

    def check(self):
        if self.square <= 0:
            return "square: must be more than 0 mm"
        if not 0 < self.marker.size <= self.board.track_box:
            return "marker.size: a score marker must fit one box of the score track (board.track_box)"


load_layout = game_layout_loader("shin-bikkuri-man", Layout)
