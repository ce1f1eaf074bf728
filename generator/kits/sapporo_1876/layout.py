"""layouts/sapporo-1876.toml as typed data: the dataclasses only; generator.layouts reads and checks it."""
from __future__ import annotations

from ...layouts import Box, game_layout_loader, Size, Table, TextStyle


class MainBoard(Table):
    size: Size
    score_cell: float
    score_sides: tuple[int, int]
    title_box: Box
    harvest_box: Box
    settlement_box: Box
    spots_box: Box
    spot_gap: float
    council_box: Box
    persons_box: Box
    buildings_box: Box
    beside_box: Box
    tile_space: float
    title: TextStyle
    head: TextStyle
    body: TextStyle
    small: TextStyle
    reference: TextStyle


class PersonalBoard(Table):
    size: Size
    title_box: Box
    columns_box: Box
    academy_box: Box
    area_box: Box
    notes_box: Box
    resources_box: Box
    qr: Box
    qr_caption: Box


class Tile(Table):
    size: Size
    cost: Box
    name: Box
    text: Box
    qr: Box
    back_label: Box
    name_style: TextStyle
    text_style: TextStyle
    cost_style: TextStyle


class Tokens(Table):
    resource: float
    banknote: Size
    worker: float
    score_marker: float
    pawn: float
    marker: float
    label: TextStyle
    big: TextStyle


class Colours(Table):
    ink: str
    paper: str
    board: str
    orange: str
    blue: str
    council: str
    track: str
    icon: str
    note: str


class Layout(Table):
    main_board: MainBoard
    personal_board: PersonalBoard
    tile: Tile
    tokens: Tokens
    colours: Colours


load_layout = game_layout_loader("sapporo-1876", Layout)
