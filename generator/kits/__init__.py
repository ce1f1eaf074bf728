"""What a game's kit is made of, as data the sheet machinery lays out (see base.py).

A game's kit is the package `generator/kits/<pkg>/`, `<pkg>` being the game's package name in the one
game registry (`generator.canon.GAMES`); it offers `build_kit(data, ctx) -> Kit` and, optionally,
`render_component(data, kind, item_id) -> str | None` for components it draws on their own (see
generator.render). Nothing else needs to know a game has a kit.
"""
from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from .. import canon
from .base import Kit, KitContext


def kit_package(game: str) -> str:
    """The Python package of a game's kit: generator.kits.<pkg>."""
    return f"{__name__}.{canon.GAMES[game]}"


def games_with_kits() -> list[str]:
    """Games (in registry order) whose kit package generator/kits/<pkg>/ exists."""
    return [g for g in canon.GAMES if importlib.util.find_spec(kit_package(g)) is not None]


def kit_module(game: str) -> ModuleType:
    return importlib.import_module(kit_package(game))


def make_kit(game: str, ctx: KitContext, data=None) -> Kit:
    """The game's kit from its canonical data (loaded unless given)."""
    return kit_module(game).build_kit(canon.load(game) if data is None else data, ctx)
