"""Rules engines the companion knows, by game id.

Each engine is a module `companion/games/<game>/` (or `<game>.py`) exposing a `RULES` object with:

    id: str
    setup(data, players: list[str], options: dict, seed: int) -> state      (pure; state is JSON-able)
    validate_options(data, players, options) -> list[str]                  (reasons; empty = fine)
    validate(data, state, move: dict) -> list[str]                         (reasons; empty = legal)
    apply(data, state, move: dict) -> state                                (pure: never mutates `state`)
    score(data, state) -> dict                                             (final / current scores)

`data` is the game's canonical data from `generator.canon.load(game_id)`. State is plain JSON
(dicts, lists, str, int, bool) so that events replay exactly and states compare with ==. Randomness
comes from a seed kept in the state. No Flask, no I/O in an engine.
"""
from __future__ import annotations

import importlib

#: game id -> module path of its rules engine
ENGINES: dict[str, str] = {
    "shinjuku": "companion.games.shinjuku",
}


def engine(game_id: str):
    return importlib.import_module(ENGINES[game_id]).RULES
