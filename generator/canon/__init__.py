"""Canonical component data: one loader for the generator and the companion.

`load(game_id)` reads `assets/<game_id>/*.toml` into frozen dataclasses and checks them (types,
unknown keys, cross-references, totals the rules state). Any problem raises `DataError` whose
message names the file, the key path and what is wrong.

Every game's data object offers the same small surface used by generic tools:
`id`, `name`, `players` (min, max) and `components()` -> list of `Component` rows.
"""
from __future__ import annotations

import dataclasses
import importlib
from functools import lru_cache
from pathlib import Path

from .files import assets_root
from .schema import DataError, Source

__all__ = ["DataError", "Component", "GAMES", "load", "UnknownGame"]

#: Game id -> module (in generator.canon) that knows how to read and check its files.
GAMES: dict[str, str] = {
    "shinjuku": "shinjuku",
    "shin-bikkuri-man": "shin_bikkuri_man",
    "capsule-hotel": "capsule_hotel",
    "sapporo-1876": "sapporo_1876",
    "jutaku": "jutaku",
}


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r} (known: {', '.join(GAMES)})"


@dataclasses.dataclass(frozen=True)
class Component:
    """One kind of physical component and how many the game has."""

    kind: str
    id: str
    count: int
    source: Source
    label: str = ""


def load(game_id: str, root: Path | None = None):
    if game_id not in GAMES:
        raise UnknownGame(game_id)
    return _load(game_id, Path(root) if root else assets_root())


@lru_cache(maxsize=None)
def _load(game_id: str, root: Path):
    module = importlib.import_module(f"{__name__}.{GAMES[game_id]}")
    return module.load(root / game_id)

