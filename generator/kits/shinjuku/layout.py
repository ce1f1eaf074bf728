"""layouts/shinjuku.toml as typed data: the dataclasses only; generator.layouts reads and checks it."""
from __future__ import annotations

import dataclasses
from typing import Literal

from ...layouts import Box, load_game_layout, Size, TextStyle


@dataclasses.dataclass(frozen=True)
class TextBox:
    box: Box
    size: float
    min: float
    font: Literal["regular", "bold"] = "regular"

    @property
    def style(self) -> TextStyle:
        return TextStyle(self.size, self.min, self.font)


@dataclasses.dataclass(frozen=True)
class Anchor:
    """An extra Voronoi seed that belongs to a ward (house data shaping the derived ward areas)."""

    ward: str
    map: tuple[float, float]


@dataclasses.dataclass(frozen=True)
class Board:
    size: Size
    map_origin: tuple[float, float]
    map_scale: float
    map_bounds: Box
    station_radius: float
    slot_margin: float
    border_width: float
    track_width: float
    label_gap: float
    station_name: TextStyle
    station_kanji: TextStyle
    ward_name: TextStyle
    ward_kanji: TextStyle
    ward_count: TextStyle
    title_box: Box
    subtitle_box: Box
    legend_box: Box
    queue_box: Box
    queue_space: Size
    queue_label: TextStyle
    queue_caption: TextStyle
    anchor: tuple[Anchor, ...] = ()


@dataclasses.dataclass(frozen=True)
class Card:
    size: Size
    header: Box
    name: TextBox
    kanji: TextBox
    count: TextBox
    count_caption: TextBox
    locator: Box
    stations: Box
    station_name: TextStyle
    station_kanji: TextStyle
    qr: Box
    back_title: TextBox
    back_kanji: TextBox
    back_caption: TextBox


@dataclasses.dataclass(frozen=True)
class Tokens:
    customer: float
    bonus: float
    token: float
    store: Size
    department_store: Size
    track: Size
    label: TextStyle
    big: TextStyle


@dataclasses.dataclass(frozen=True)
class Example:
    """The score sheet's worked example: one player's customers ("2" tokens listed in doubles)."""

    player: str
    customers: dict[str, int]
    bonus: int
    doubles: dict[str, int] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Sheet:
    title: TextStyle
    head: TextStyle
    cell: TextStyle
    row: float
    label_col: float
    example: Example


@dataclasses.dataclass(frozen=True)
class Reference:
    """The rules reference card (card-sized): its title and its text, shrunk to fit each side."""

    title: TextStyle
    text: TextStyle


@dataclasses.dataclass(frozen=True)
class WardColour:
    full: str
    tint: str
    text: str


@dataclasses.dataclass(frozen=True)
class Colours:
    ink: str
    paper: str
    border: str
    track: str
    slot: str
    water: str
    card_back: str
    sakura: str
    matsuri: str
    ward: dict[str, WardColour]
    goods: dict[str, str]


@dataclasses.dataclass(frozen=True)
class Layout:
    board: Board
    card: Card
    tokens: Tokens
    sheet: Sheet
    reference: Reference
    colours: Colours


def load_layout() -> Layout:
    """layouts/shinjuku.toml (or TOKYO_KIT_LAYOUTS' copy), read once."""
    return load_game_layout("shinjuku", Layout)
