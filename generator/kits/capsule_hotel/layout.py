"""layouts/capsule-hotel.toml as typed data: the dataclasses only; generator.layouts reads and checks it."""
from __future__ import annotations

from ...layouts import game_layout_loader, Size, Table, TextStyle


class Pads(Table):
    ledger: Size
    row: float
    qr: float


class Boards(Table):
    size: Size
    qr: float


class Tokens(Table):
    seal: float
    marker: float
    coupon: Size
    card: Size
    qr: float
    die_face: float
    die_tab: float


class Text(Table):
    title: TextStyle
    head: TextStyle
    body: TextStyle
    small: TextStyle
    token: TextStyle


class Colours(Table):
    ink: str
    paper: str
    rule: str
    tint: str
    accent: str
    coupon: str
    money: str


class Layout(Table):
    pads: Pads
    boards: Boards
    tokens: Tokens
    text: Text
    colours: Colours


load_layout = game_layout_loader("capsule-hotel", Layout)
