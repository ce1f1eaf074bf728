"""layouts/shin-bikkuri-man.toml as typed data: the dataclasses only; generator.layouts reads and checks it."""
from __future__ import annotations

import dataclasses

from ...layouts import load_game_layout, Size, TextStyle


@dataclasses.dataclass(frozen=True)
class Board:
    size: Size
    grid: tuple[float, float]
    title: TextStyle
    label: TextStyle
    small: TextStyle
    coat: float
    track_box: float
    qr: float


@dataclasses.dataclass(frozen=True)
class Tiles:
    line: float
    inner: float
    symbol: float
    gutter: float            # between tiles of different colours, each colour bled into its half


@dataclasses.dataclass(frozen=True)
class Card:
    size: Size
    title: TextStyle
    text: TextStyle


@dataclasses.dataclass(frozen=True)
class AbilityTile:
    size: Size
    title: TextStyle
    text: TextStyle
    qr: float


@dataclasses.dataclass(frozen=True)
class Marker:
    size: float              # diameter of a score marker
    number: TextStyle


@dataclasses.dataclass(frozen=True)
class Harbour:
    space: Size
    margin: float
    label: TextStyle


@dataclasses.dataclass(frozen=True)
class Colours:
    ink: str
    paper: str
    window: str
    frame: str
    brick: str
    coat: str
    grid: str
    card_back: str


@dataclasses.dataclass(frozen=True)
class Layout:
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


def load_layout() -> Layout:
    """layouts/shin-bikkuri-man.toml (or TOKYO_KIT_LAYOUTS' copy), read once."""
    return load_game_layout("shin-bikkuri-man", Layout)
