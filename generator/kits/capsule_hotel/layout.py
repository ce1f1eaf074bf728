"""layouts/capsule-hotel.toml as typed data: the dataclasses only; generator.layouts reads and checks it."""
from __future__ import annotations

import dataclasses

from ...layouts import load_game_layout, Size, TextStyle


@dataclasses.dataclass(frozen=True)
class Pads:
    ledger: Size
    row: float
    qr: float


@dataclasses.dataclass(frozen=True)
class Boards:
    size: Size
    qr: float


@dataclasses.dataclass(frozen=True)
class Tokens:
    seal: float
    marker: float
    coupon: Size
    card: Size
    qr: float
    die_face: float
    die_tab: float


@dataclasses.dataclass(frozen=True)
class Text:
    title: TextStyle
    head: TextStyle
    body: TextStyle
    small: TextStyle
    token: TextStyle


@dataclasses.dataclass(frozen=True)
class Colours:
    ink: str
    paper: str
    rule: str
    tint: str
    accent: str
    coupon: str
    money: str


@dataclasses.dataclass(frozen=True)
class Layout:
    pads: Pads
    boards: Boards
    tokens: Tokens
    text: Text
    colours: Colours


def load_layout() -> Layout:
    """layouts/capsule-hotel.toml (or TOKYO_KIT_LAYOUTS' copy), read once."""
    return load_game_layout("capsule-hotel", Layout)
