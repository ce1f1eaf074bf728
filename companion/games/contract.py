"""The rules contract: what every game's rules offer the companion (DESIGN.md, "The rules contract").

A game's rules are a subclass of `Rules`, bound to the game's canonical data once
(`RulesClass(generator.canon.load(game_id))`), pure (no Flask, no I/O, no clock of their own) and
working on plain-JSON states (dicts, lists, str, int, bool, None) so that events replay exactly and
states compare with ==. The companion knows nothing of a game's insides; it calls only these:

    setup(players, options, seed) -> state            validate_options(players, options) -> [reason]
    legal_moves(state, player=None) -> Legal           moves `validate` accepts now (+ complete?)
    validate(state, move, ctx) -> [reason]             empty = legal; never raises, whatever `move` is
    apply(state, move, ctx) -> state                   a new state; raises IllegalMove if illegal
    actors(state) -> Actors                            who may act now: one seat, several, everyone
    timers(state) -> {name: clock record}              the game's own running phases (clock.py)
    on_expire(state, name, ctx) -> state               a timer's deadline passed (server-delivered)
    describe_expiry(before, name, after) -> str        what a phone says when it ran out, and what now
    phase(state) -> key | None                         which simultaneous phase the state is in: seats'
                                                       moves within one phase commute (API.md)
    result(state) -> None | result                     winners, unit, scores with breakdowns
    public_view(state, viewer) / public_move(move, viewer)      hidden information removed
    secret_paths(state, seat) -> [path]                where `seat`'s secrets sit in the state (the
                                                       contract test checks public_view hides them)
    describe(state, move) -> str                       a history line a person reads
    can_undo(state, move) -> [reason]                  why an applied move may not be taken back
    reveals(state, move) -> [reason]                   why a move revealed what was hidden (sealed
                                                       choices, the companion's draws and rolls):
                                                       only the host may take it back
    mover(move) -> seat | None                         whose move it is (None: the table's)
    needs(state) -> dict | None                        what the table must do next (page hints)
    table_facts(state) -> dict                         turn cues every phone may see: a last-round
                                                       flag and counts left (deck, bag); optional
    sealed(state) -> dict | None                       sealed choices as the table sees them: who has
                                                       sealed, and the last reveal (public only)
    setup_steps(state) -> [step]                       the physical set-up walked step by step while
                                                       the game is being set up ([] once it runs)

`ctx` (Ctx) carries `now_ms`, the server's clock when the move was appended (replay passes the same
value again), and `seat`, who sent it (HOST: the host token, which may act for anyone). Viewers are a
seat index, None (anyone at the table, a spectator) or HOST (the phone passed around: every hand).

Chance is explicit and chosen per table: `chance_modes` maps each mode to the options that select it,
"table" (players enter the card drawn, the dice rolled) and/or "companion" (drawn from the seed kept
in the state, hidden by public_view until drawn).

Moves are a table of named move types (`move_types`) with their fields: the OpenAPI document, the
pages' labels and the "unknown move type" errors come from it, and a move holding a field its type
does not define (or free text over 200 characters) is refused before the rules see it
(`shape_reasons`).
"""
from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Literal

#: The viewer / sender that is the table's host (one phone acting for every seat).
HOST = "host"

Viewer = int | None | Literal["host"]


#: Free text in a move (a note, a promise) is at most this long; numbers stay within MAX_NUMBER.
MAX_TEXT = 200
MAX_NUMBER = 10**9


def _leaves(value: Any, path: str = "move", depth: int = 0):
    """(path, value) of every scalar in a move, nested lists and objects included."""
    if depth > 8:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, f"{path}.{k}", depth + 1)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, f"{path}[{i}]", depth + 1)
    else:
        yield path, value


def _fits(container: Any, depth: int = 0) -> bool:
    """Whether every scalar `_leaves` would give of `container` (a dict or list at `depth`) is
    within MAX_TEXT and MAX_NUMBER: the same walk, without the paths (shape_reasons' usual answer
    is "nothing": the paths are spelt out only for a move that has something to say)."""
    if depth >= 8:
        return True                     # (its items are past _leaves' depth)
    for v in (container.values() if isinstance(container, dict) else container):
        if isinstance(v, str):
            if len(v) > MAX_TEXT:
                return False
        elif isinstance(v, (dict, list)):
            if not _fits(v, depth + 1):
                return False
        elif isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_NUMBER:
            return False
    return True


class IllegalMove(ValueError):
    """`apply` was given a move `validate` refuses; `reasons` say why."""

    def __init__(self, reasons: list[str]):
        super().__init__(" ".join(reasons))
        self.reasons = list(reasons)


@dataclasses.dataclass(frozen=True)
class Ctx:
    """The circumstances of a move: when the server appended it and who sent it."""

    now_ms: int = 0
    seat: int | Literal["host"] | None = HOST

    def may_act_for(self, seat: int | None) -> bool:
        return self.seat == HOST or seat is None or self.seat == seat


@dataclasses.dataclass(frozen=True)
class Field:
    """One field of a move type: its JSON schema (OpenAPI) and what it means (labels, errors)."""

    name: str
    schema: dict
    doc: str = ""
    required: bool = True


@dataclasses.dataclass(frozen=True)
class MoveType:
    """A named move ("open-store"): its fields, a label for buttons and who may send it.

    who: "seat" = the seat named by the move's "player" field (or the host); "table" = any token of
    the table (set-up entries, bookkeeping that belongs to no seat)."""

    name: str
    label: str
    fields: tuple[Field, ...] = ()
    who: Literal["seat", "table"] = "seat"
    doc: str = ""

    def schema(self) -> dict:
        props = {"type": {"const": self.name}}
        props.update({f.name: {**f.schema, **({"description": f.doc} if f.doc else {})}
                      for f in self.fields})
        required = ["type"] + [f.name for f in self.fields if f.required]
        return {"type": "object", "title": self.label, "description": self.doc or self.label,
                "properties": props, "required": required, "x-who": self.who}


@dataclasses.dataclass(frozen=True)
class Actors:
    """Who may act now.

    mode "one": a single seat (a turn); "several": each listed seat answers, in any order (track
    bonus income); "all": every listed seat acts at once (secret bids, real-time building);
    "none": nobody (the game is over, or it waits for a timer)."""

    mode: Literal["one", "several", "all", "none"]
    seats: tuple[int, ...] = ()

    def to_json(self) -> dict:
        return {"mode": self.mode, "seats": list(self.seats)}


NOBODY = Actors("none")


@dataclasses.dataclass(frozen=True)
class Legal:
    """Moves legal now; `complete` is False where they are a sample of a larger set."""

    moves: list[dict]
    complete: bool = True


def seat_index(value: Any, players: int) -> int | None:
    """`value` as a seat index of a game of `players`, or None (bools are not indices)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players:
        return value
    return None


def result(winners: list[int], unit: str, scores: list[dict]) -> dict:
    """A result as API.md writes it; each score row is {"player", "name", "score", "breakdown":
    [{"label", "value"}, ...]} with the breakdown adding up to "score"."""
    return {"winners": list(winners), "unit": unit, "scores": scores}


def score_row(player: int, name: str, breakdown: list[tuple[str, int]], **extra) -> dict:
    """One player's score from its breakdown (the score is their sum, so they always agree)."""
    rows = [{"label": label, "value": value} for label, value in breakdown]
    return {"player": player, "name": name, "score": sum(v for _, v in breakdown),
            "breakdown": rows, **extra}


def leaders(scores: list[dict], *tiebreaks) -> list[int]:
    """The players with the best score, then the best of each tie-break key in turn (a function of
    a score row, more is better); several left = a shared victory."""
    if not scores:
        return []
    best = max(s["score"] for s in scores)
    left = [s for s in scores if s["score"] == best]
    for key in tiebreaks:
        if len(left) <= 1:
            break
        top = max(key(s) for s in left)
        left = [s for s in left if key(s) == top]
    return [s["player"] for s in left]


class Rules:
    """The base of every game's rules; see the module docstring for the contract."""

    id: ClassVar[str] = ""
    #: The named move types, in the order the pages offer them.
    move_types: ClassVar[tuple[MoveType, ...]] = ()
    #: chance mode -> the options that select it ("table": entered by players; "companion": drawn)
    chance_modes: ClassVar[dict[str, dict]] = {"table": {}}
    #: option name -> what it means (new-table form, OpenAPI); a timed phase's length is one.
    options_doc: ClassVar[dict[str, str]] = {}

    def __init__(self, data: Any):
        self.data = data

    # -- required --------------------------------------------------------------------------------
    def setup(self, players: list[str], options: dict, seed: int) -> dict:
        raise NotImplementedError

    def validate_options(self, players: list[str], options: dict) -> list[str]:
        raise NotImplementedError

    def legal_moves(self, state: dict, player: int | None = None) -> Legal:
        raise NotImplementedError

    def validate(self, state: dict, move: Any, ctx: Ctx = Ctx()) -> list[str]:
        raise NotImplementedError

    def apply(self, state: dict, move: dict, ctx: Ctx = Ctx()) -> dict:
        raise NotImplementedError

    def actors(self, state: dict) -> Actors:
        raise NotImplementedError

    def result(self, state: dict) -> dict | None:
        raise NotImplementedError

    # -- with defaults ----------------------------------------------------------------------------
    def timers(self, state: dict) -> dict[str, dict]:
        """The game's own timers (clock.py records) in this state; none by default."""
        return {}

    def on_expire(self, state: dict, name: str, ctx: Ctx) -> dict:
        """The state once timer `name` has run out (called once, at its deadline)."""
        raise IllegalMove([f"{self.id} has no timer {name!r}"])

    def describe_expiry(self, before: dict, name: str, after: dict) -> str:
        """The sentence every phone shows when the game's timer `name` runs out (`before` and `after`
        are the states around on_expire): what happened and what now, e.g. "Time! Nobody finished:
        start the round again." It is the expire event's history line."""
        return f"Time is up: {name}."

    def phase(self, state: dict) -> Any:
        """A key (plain JSON) naming the simultaneous phase `state` is in, or None.

        Where several seats act at once, the server appends a seat's move based on an older seq
        (validated on the current state) when only other seats' moves came since and the phase key
        was the same all along (API.md, "Simultaneous phases"); a key that changes (a reveal, a new
        round) makes the late move a 409. None (the default) leaves it to `actors`: the sender was
        one of several or all seats acting at once in every state since."""
        return None

    def public_view(self, state: dict, viewer: Viewer = None) -> dict:
        return state

    def public_move(self, move: dict, viewer: Viewer = None) -> dict:
        return move

    def secret_paths(self, state: dict, seat: int) -> list[tuple]:
        """The places (key/index paths) in `state` that only `seat` and the host may see, e.g.
        [("players", 2, "hand")]: public_view for anyone else must not show what is there."""
        return []

    def describe(self, state: dict, move: dict) -> str:
        mt = self.move_type(move.get("type")) if isinstance(move, dict) else None
        return mt.label if mt else "?"

    def can_undo(self, state: dict, move: dict) -> list[str]:
        return []

    def reveals(self, state: dict, move: dict) -> list[str]:
        """Why `move`, played in `state`, revealed hidden information or chance: the sealed choices
        it revealed, a card it drew or dice it rolled by the companion ([]: none). A seat cannot
        undo such a move (its player would choose again knowing what it showed; 422 with these
        reasons); the host can, and the history says that the host took back a reveal."""
        return []

    def mover(self, move: Any) -> int | None:
        """The seat a move belongs to (its "player"), None for a move of the whole table."""
        if not isinstance(move, dict):
            return None
        mt = self.move_type(move.get("type"))
        if mt is not None and mt.who == "table":
            return None
        player = move.get("player")
        return player if isinstance(player, int) and not isinstance(player, bool) else None

    def needs(self, state: dict) -> dict | None:
        return None

    def table_facts(self, state: dict) -> dict:
        """Turn cues every phone may see (public information only, whoever looks):
        {"last_round": bool (this round is the game's last), "counts": [{"label": "Cards left in
        the deck", "n": 12}, …] (what is left where the companion knows it)}. None known: {}."""
        return {}

    def sealed(self, state: dict) -> dict | None:
        """Sealed choices as a table sees them (public information only, whoever looks), or None
        where the game has none now: {"label": "bids" (what is sealed, in words), "seats": [{"seat":
        i, "sealed": bool}] (while choices are being sealed; [] once revealed), "reveal": None or
        {"id": a key that changes with each reveal, "text": "Aki ¥500 · Ben ¥300 → Aki first", "values":
        [{"seat": i, "value": n, "text": "¥500"}]} (the last reveal, until the next one)}. Every phone
        shows who has sealed and the reveal as a banner."""
        return None

    def setup_steps(self, state: dict) -> list[dict]:
        """The physical set-up, one step at a time, while the game is being set up (before its
        first turn; [] once it runs): [{"title": short, "text": what to do with the box, in the
        project's own words, for this number of players and these options, "input": None or the
        move type the step asks the table to enter (it leads to the page that enters it), "done":
        whether that entry is made}]."""
        return []

    def sender_reasons(self, state: dict, move: Any, ctx: Any) -> list[str]:
        """Why ctx.seat may not send `move`: [] for the host, for the seat the move belongs to and
        for the table's moves (which any seat may enter). The server checks it too (403). A game
        whose table move changes one player's holdings (a correction, a penalty, the dice of that
        player's building) extends it: that player's token or the host's only (API.md)."""
        if not isinstance(ctx, Ctx) or ctx.seat == HOST:
            return []
        seat = self.mover(move)
        if ctx.may_act_for(seat):
            return []
        who = self.seat_name(state, seat)
        return [f"Only {who} (or the host) may make {who}'s moves."]

    def seat_name(self, state: dict, seat: Any) -> str:
        """A seat's player name in a state (states keep them as players[i]["name"])."""
        try:
            return state["players"][seat]["name"]
        except (IndexError, KeyError, TypeError):
            return f"player {seat}"

    def over(self, state: dict) -> bool:
        return self.result(state) is not None

    # -- helpers for subclasses -------------------------------------------------------------------
    def move_type(self, name: Any) -> MoveType | None:
        entry = self._move_type_entry(name)
        return entry[0] if entry is not None else None

    def _move_type_entry(self, name: Any) -> tuple[MoveType, frozenset] | None:
        """(the move type named `name`, the fields a move of it may hold), from an index of
        move_types made once (made again should move_types change)."""
        types = self.move_types
        index = self.__dict__.get("_move_type_index")
        if index is None or index[0] is not types:
            by_name: dict = {}
            for mt in types:
                by_name.setdefault(mt.name, (mt, frozenset({"type"} | {f.name for f in mt.fields})))
            index = self.__dict__["_move_type_index"] = (types, by_name)
        try:
            return index[1].get(name)
        except TypeError:               # (a name that is not hashable names no move type)
            return None

    def shape_reasons(self, move: Any) -> list[str]:
        """Why `move` holds more than its type defines: a field its move type does not name, free
        text over MAX_TEXT characters, a number no game has (over MAX_NUMBER). The server refuses
        such a move (422) before the rules see it, in every game; a move whose type is unknown is
        left to `validate` (which names the move types)."""
        if not isinstance(move, dict):
            return []
        entry = self._move_type_entry(move.get("type"))
        reasons = []
        if entry is not None:
            mt, known = entry
            reasons += [f"{name!r} is not a field of {mt.name!r} (its fields: "
                        f"{', '.join(sorted(known - {'type'})) or 'none'})"
                        for name in move if name not in known]
        if _fits(move):
            return reasons
        for path, value in _leaves(move):
            if isinstance(value, str) and len(value) > MAX_TEXT:
                reasons.append(f"{path} is {len(value)} characters long; free text is at most "
                               f"{MAX_TEXT}")
            elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
                reasons.append(f"{path} is {value}: no number in a game goes past {MAX_NUMBER:,}")
        return reasons

    def unknown_type(self, move: Any) -> list[str]:
        """The reasons for a move whose type is not one of move_types (empty when it is one)."""
        if not isinstance(move, dict):
            return ["a move must be a JSON object with a \"type\""]
        if self.move_type(move.get("type")) is None:
            names = ", ".join(mt.name for mt in self.move_types)
            return [f"unknown move type {move.get('type')!r}; the moves of this game are: {names}"]
        return []
