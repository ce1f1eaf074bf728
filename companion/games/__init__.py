"""The games the companion runs, found from the one game registry (`generator.canon.GAMES`).

A game `<game>` (package name `<pkg>`: its id with `_` for `-`) is:

    companion/games/<pkg>/rules/     its rules, pure (contract.py): `RULES`, a `contract.Rules` subclass
    companion/games/<pkg>/web.py     optional: `WEB`, a `companion.web.game.GameWeb` (its Blueprint,
                                     board twin, calculators, /q handlers, OpenAPI part, warm-up)
    companion/games/<pkg>/templates/<game>/, static/<game>/     the web part's files

Nothing here imports Flask: `import companion.games.<pkg>.rules` loads the rules alone.
"""
from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from generator import canon

from .contract import Rules

__all__ = ["package", "rules_class", "web_module", "has_rules"]


def package(game_id: str) -> str:
    """The Python package of a game's companion part: companion.games.<pkg>."""
    return f"{__name__}.{canon.GAMES[game_id]}"


def has_rules(game_id: str) -> bool:
    return game_id in canon.GAMES and importlib.util.find_spec(package(game_id)) is not None \
        and importlib.util.find_spec(package(game_id) + ".rules") is not None


def rules_class(game_id: str) -> type[Rules] | None:
    """The game's Rules subclass, or None while the game has no rules yet (no rules package, or one
    without RULES)."""
    if not has_rules(game_id):
        return None
    rules = getattr(importlib.import_module(package(game_id) + ".rules"), "RULES", None)
    if rules is None:
        return None  # a rules package still being written (only its arithmetic so far)
    if not (isinstance(rules, type) and issubclass(rules, Rules)):
        raise TypeError(f"{package(game_id)}.rules.RULES must be a subclass of contract.Rules")
    return rules


def web_module(game_id: str) -> ModuleType | None:
    """The game's web module (companion.games.<pkg>.web), or None."""
    if not has_rules(game_id) or importlib.util.find_spec(package(game_id) + ".web") is None:
        return None
    return importlib.import_module(package(game_id) + ".web")
