"""The games the companion knows: canonical data (generator.canon) + rules engine (companion.games).

`Game` wraps an engine's RULES with the few optional hooks the web layer uses, so views never test
for them. An engine may offer, beside the required setup/validate_options/validate/apply/score:

    current_player(data, state) -> int | None      whose turn it is (index into players)
    describe(data, state, move) -> str             one history line for a move
    can_undo(data, state, move) -> list[str]       reasons an applied move may not be undone
    public_view(data, state, viewer) -> state       the state without what `viewer` may not see
    needs(data, state) -> dict                      what the table must do next (for the pages)
"""
from __future__ import annotations

import dataclasses
import json
import logging
from typing import Any

from generator import canon

from . import games as engines

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Game:
    id: str
    name: str
    players: tuple[int, int]
    rules: Any = None          # the engine's RULES, None while the game has no engine
    data: Any = None           # generator.canon.load(id), None when its data does not load
    problem: str = ""          # why data or engine is missing (shown on the home page)

    @property
    def playable(self) -> bool:
        return self.rules is not None

    # The engine, with the web layer's safety net: an engine that raises on a strange move has
    # not accepted it (422 with a reason), it has not crashed the server.
    def setup(self, players: list[str], options: dict, seed: int) -> dict:
        return self.rules.setup(self.data, players, options, seed)

    def validate_options(self, players: list[str], options: dict) -> list[str]:
        return _reasons(lambda: self.rules.validate_options(self.data, players, options), "options")

    def validate(self, state: dict, move: dict) -> list[str]:
        return _reasons(lambda: self.rules.validate(self.data, state, move), "move")

    def apply(self, state: dict, move: dict) -> dict:
        return self.rules.apply(self.data, state, move)

    def score(self, state: dict) -> dict:
        return self.rules.score(self.data, state)

    def current_player(self, state: dict) -> int | None:
        hook = getattr(self.rules, "current_player", None)
        try:
            turn = hook(self.data, state) if hook else _guess_turn(state)
        except Exception:  # noqa: BLE001 - a display hint, never worth an error
            return None
        return turn if isinstance(turn, int) and not isinstance(turn, bool) else None

    def describe(self, state: dict, move: dict) -> str:
        hook = getattr(self.rules, "describe", None)
        if hook:
            try:
                text = hook(self.data, state, move)
                if isinstance(text, str) and text:
                    return text
            except Exception:  # noqa: BLE001
                pass
        return _compact(move)

    def public_view(self, state: dict, viewer: int | None) -> dict:
        """Hidden information removed (other players' hands, the deck order) when the engine knows how."""
        hook = getattr(self.rules, "public_view", None)
        return hook(self.data, state, viewer) if hook else state

    def public_move(self, move: dict, viewer: int | None) -> dict:
        """A logged move without what `viewer` may not see (cards drawn into another hand)."""
        hook = getattr(self.rules, "public_move", None)
        return hook(self.data, move, viewer) if hook else move

    def needs(self, state: dict) -> dict | None:
        hook = getattr(self.rules, "needs", None)
        try:
            return hook(self.data, state) if hook else None
        except Exception:  # noqa: BLE001 - a display hint
            return None

    def can_undo(self, state: dict, move: dict) -> list[str]:
        hook = getattr(self.rules, "can_undo", None)
        return _reasons(lambda: hook(self.data, state, move), "undo") if hook else []


def _reasons(call, what: str) -> list[str]:
    try:
        reasons = call()
    except Exception as exc:  # noqa: BLE001 - see Game
        log.info("engine raised while checking %s: %r", what, exc)
        return [f"the {what} could not be understood ({type(exc).__name__}: {exc})"]
    if reasons is None:
        return []
    if isinstance(reasons, str):
        return [reasons]
    return [str(r) for r in reasons]


def _guess_turn(state: Any) -> int | None:
    if isinstance(state, dict):
        for key in ("current_player", "current", "turn", "active"):
            if isinstance(state.get(key), int):
                return state[key]
    return None


def _compact(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "), sort_keys=True)
    return text if len(text) <= 120 else text[:117] + "…"


def discover(extra: dict[str, Game] | None = None) -> dict[str, Game]:
    """Every game of the kit (playable or not), then `extra` (tests register fake games here)."""
    found: dict[str, Game] = {}
    for game_id in canon.GAMES:
        data, rules, problems = None, None, []
        try:
            data = canon.load(game_id)
        except Exception as exc:  # noqa: BLE001 - a game whose data is not ready is listed, not fatal
            problems.append(f"data: {exc}")
        if game_id in engines.ENGINES and data is not None:
            try:
                rules = engines.engine(game_id)
            except Exception as exc:  # noqa: BLE001 - same for an engine still being written
                problems.append(f"rules engine: {exc}")
        elif data is not None:
            problems.append("no rules engine yet")
        name = getattr(data, "name", None) or game_id.replace("-", " ").title()
        players = tuple(getattr(data, "players", (1, 8)))
        if problems:
            log.info("game %s: %s", game_id, "; ".join(problems))
        found[game_id] = Game(game_id, name, players, rules, data, "; ".join(problems))
    found.update(extra or {})
    return found
