"""The games the companion knows: canonical data (generator.canon) + rules (companion.games) + web part.

`Game` holds a game's rules, bound to its data once, and puts the web layer's safety net around them:
an engine that raises while checking a strange move has not accepted it (422 with a reason), it has
not crashed the server; a display hint that fails is left out. Views call only `Game`.
"""
from __future__ import annotations

import dataclasses
import json
import logging
from typing import Any

from generator import canon

from . import games as registry
from .games.contract import HOST, NOBODY, Actors, Ctx, Legal, Rules

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Game:
    id: str
    name: str
    players: tuple[int, int]
    rules: Rules | None = None  # bound to the data; None while the game has no rules
    data: Any = None            # generator.canon.load(id), None when its data does not load
    problem: str = ""           # why data or rules are missing (shown on the home page)
    web: Any = None             # companion.web.game.GameWeb of the game's web.py, or None

    @property
    def playable(self) -> bool:
        return self.rules is not None

    @property
    def move_types(self):
        return self.rules.move_types if self.rules else ()

    @property
    def chance_modes(self) -> dict[str, dict]:
        return dict(self.rules.chance_modes) if self.rules else {}

    def setup(self, players: list[str], options: dict, seed: int) -> dict:
        return self.rules.setup(players, options, seed)

    def validate_options(self, players: list[str], options: dict) -> list[str]:
        return _reasons(lambda: self.rules.validate_options(players, options), "options")

    def validate(self, state: dict, move: dict, ctx: Ctx) -> list[str]:
        return _reasons(lambda: self.rules.validate(state, move, ctx), "move")

    def sender_reasons(self, state: dict, move: Any, ctx: Ctx) -> list[str]:
        """Why the sender may not send this move (Rules.sender_reasons): another seat's move, or
        one that changes a player's holdings sent by neither that player nor the host."""
        return _reasons_of(self.rules, "sender_reasons", "sender", state, move, ctx)

    def shape_reasons(self, move: Any) -> list[str]:
        """Why a move holds more than its type defines (Rules.shape_reasons)."""
        return _reasons_of(self.rules, "shape_reasons", "move", move)

    def apply(self, state: dict, move: dict, ctx: Ctx) -> dict:
        return self.rules.apply(state, move, ctx)

    def on_expire(self, state: dict, name: str, ctx: Ctx) -> dict:
        return self.rules.on_expire(state, name, ctx)

    def describe_expiry(self, before: dict, name: str, after: dict) -> str:
        """The sentence phones show when the game's timer ran out (Rules.describe_expiry)."""
        call = getattr(self.rules, "describe_expiry", None)
        text = _hint(lambda: call(before, name, after), "") if call else ""
        return text if isinstance(text, str) and text else f"Time is up: {name}."

    def phase(self, state: dict):
        """The simultaneous phase's key (Rules.phase), or None."""
        call = getattr(self.rules, "phase", None)
        return _hint(lambda: call(state), None) if call else None

    def legal(self, state: dict, player: int | None = None) -> Legal:
        return self.rules.legal_moves(state, player)

    def result(self, state: dict) -> dict | None:
        return _hint_of(self.rules, "result", None, state)

    def timers(self, state: dict) -> dict[str, dict]:
        return self.rules.timers(state) or {}

    def actors(self, state: dict) -> Actors:
        return _hint_of(self.rules, "actors", NOBODY, state)

    def turn(self, state: dict) -> int | None:
        """The one seat whose turn it is, if the game waits for exactly one."""
        actors = self.actors(state)
        return actors.seats[0] if actors.mode == "one" and actors.seats else None

    def describe(self, state: dict, move: dict) -> str:
        text = _hint_of(self.rules, "describe", "", state, move)
        return text if isinstance(text, str) and text else _compact(move)

    def public_view(self, state: dict, viewer) -> dict:
        """Hidden information removed (other players' hands, the deck order)."""
        return self.rules.public_view(state, viewer)

    def public_move(self, move: dict, viewer) -> dict:
        """A logged move without what `viewer` may not see (cards drawn into another hand)."""
        return self.rules.public_move(move, viewer)

    def needs(self, state: dict) -> dict | None:
        return _hint(lambda: self.rules.needs(state), None)

    def table_facts(self, state: dict) -> dict:
        """Turn cues every phone may see (Rules.table_facts): {"last_round"?, "counts"?}."""
        call = getattr(self.rules, "table_facts", None)
        return (_hint(lambda: call(state), {}) or {}) if call else {}

    def sealed(self, state: dict) -> dict | None:
        """Sealed choices as the table sees them (Rules.sealed), or None."""
        call = getattr(self.rules, "sealed", None)
        return _hint(lambda: call(state), None) if call else None

    def setup_steps(self, state: dict) -> list[dict]:
        """The set-up walk while the game is being set up (Rules.setup_steps), else []."""
        call = getattr(self.rules, "setup_steps", None)
        return (_hint(lambda: call(state), []) or []) if call else []

    def can_undo(self, state: dict, move: dict) -> list[str]:
        return _reasons(lambda: self.rules.can_undo(state, move), "undo")

    def reveals(self, state: dict, move: dict) -> list[str]:
        """Why the move revealed what was hidden (Rules.reveals); [] when it did not."""
        call = getattr(self.rules, "reveals", None)
        return _reasons(lambda: call(state, move), "reveal") if call else []

    def mover(self, move: dict) -> int | None:
        return _hint_of(self.rules, "mover", None, move)


def _reasons(call, what: str) -> list[str]:
    return _reasons_of(call, "__call__", what)


def _reasons_of(rules, method: str, what: str, *args) -> list[str]:
    """rules.<method>(*args)'s reasons as a list of strings, as _reasons gives a call's (the
    checks of every move: no closure is made for them)."""
    try:
        reasons = getattr(rules, method)(*args)
    except Exception as exc:  # noqa: BLE001 - see Game
        log.info("rules raised while checking %s: %r", what, exc)
        return [f"the {what} could not be understood ({type(exc).__name__}: {exc})"]
    if reasons is None:
        return []
    if isinstance(reasons, str):
        return [reasons]
    return [str(r) for r in reasons]


def _hint(call, default):
    return _hint_of(call, "__call__", default)


def _hint_of(rules, method: str, default, *args):
    """rules.<method>(*args), as _hint gives a call's."""
    try:
        return getattr(rules, method)(*args)
    except Exception as exc:  # noqa: BLE001 - a display hint is never worth an error
        log.info("rules raised while giving a hint: %r", exc)
        return default


def _compact(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "), sort_keys=True)
    return text if len(text) <= 120 else text[:117] + "…"


def discover(extra: dict[str, Game] | None = None) -> dict[str, Game]:
    """Every game of the registry (playable or not), then `extra` (tests add their own games)."""
    found: dict[str, Game] = {}
    for game_id in canon.GAMES:
        data, rules, web, problems = None, None, None, []
        try:
            data = canon.load(game_id)
        except Exception as exc:  # noqa: BLE001 - a game whose data is not ready is listed, not fatal
            problems.append(f"data: {exc}")
        if data is not None:
            try:
                cls = registry.rules_class(game_id)
                rules = cls(data) if cls is not None else None
                if rules is None:
                    problems.append("no rules engine yet")
                else:
                    module = registry.web_module(game_id)
                    web = getattr(module, "WEB", None) if module else None
            except Exception as exc:  # noqa: BLE001 - same for rules still being written
                log.exception("game %s: its rules or web part did not load", game_id)
                problems.append(f"rules engine: {exc}")
                rules = web = None
        name = getattr(data, "name", None) or game_id.replace("-", " ").title()
        players = tuple(getattr(data, "players", (1, 8)))
        if problems:
            log.info("game %s: %s", game_id, "; ".join(problems))
        found[game_id] = Game(game_id, name, players, rules, data, "; ".join(problems), web)
    found.update(extra or {})
    return found


__all__ = ["Game", "discover", "HOST"]
