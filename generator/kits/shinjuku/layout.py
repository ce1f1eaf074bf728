"""layouts/shinjuku.toml as typed data: the dataclasses only; generator.layouts reads and checks it."""
from __future__ import annotations

import dataclasses

from ...layouts import Box, game_layout_loader, Size, Table, TextStyle


class TextBox(TextStyle, kw_only=True):
    """A text style and the box its text fits in."""

    box: Box

    @property
    def style(self) -> TextStyle:
        return TextStyle(self.size, self.min, self.font)


class Anchor(Table):
    """An extra Voronoi seed that belongs to a ward (house data shaping the derived ward areas)."""

    ward: str
    map: tuple[float, float]


class Board(Table):
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


class Card(Table):
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


class Tokens(Table):
    customer: float
    bonus: float
    token: float
    store: Size
    department_store: Size
    track: Size
    label: TextStyle
    big: TextStyle


class Example(Table):
    """The score sheet's worked example: one player's customers ("2" tokens listed in doubles)."""

    player: str
    customers: dict[str, int]
    bonus: int
    doubles: dict[str, int] = dataclasses.field(default_factory=dict)


class Sheet(Table):
    title: TextStyle
    head: TextStyle
    cell: TextStyle
    row: float
    label_col: float
    example: Example


class Reference(Table):
    """The rules reference card (card-sized): its title and its text, shrunk to fit each side."""

    title: TextStyle
    text: TextStyle


class WardColour(Table):
    full: str
    tint: str
    text: str


class Colours(Table):
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


class Layout(Table):
    board: Board
    card: Card
    tokens: Tokens
    sheet: Sheet
    reference: Reference
    colours: Colours


load_layout = game_layout_loader("shinjuku", Layout)
