"""Tables: create them, derive their state from the event log, append moves, undos and timer actions.

State is never stored as the truth: the view of a table after event `seq` is the game's setup
replayed through every event up to `seq` (moves through the engine's pure `apply`, undos back to
the state before the undone move, timer actions through companion.timers). Two shortcuts keep that
fast as logs grow, both checked against the database's seq so they can never serve a stale state:
the last few views per table in memory, and a snapshot in the database every N events.

Every write runs in one BEGIN IMMEDIATE transaction: idempotency replay, expected_seq check,
rules check, append, remembered response, commit. Nothing is written unless all of it passes.
"""
from __future__ import annotations

import collections
import dataclasses
import hashlib
import json
import secrets
import sqlite3
import threading
import unicodedata
from typing import Any, Callable

from . import codes, timers
from .catalog import Game
from .errors import ApiError
from .store import EventRow, Store, TableRow, Tx, dumps

MAX_CACHED_TABLES = 256


@dataclasses.dataclass(frozen=True)
class View:
    """What a table looks like after event `seq`."""

    seq: int
    state: Any
    timers: dict                      # name -> timer record (companion.timers)
    undo: tuple[int, ...]             # seqs of the moves an undo would revert, latest last

    def to_json(self) -> dict:
        return {"state": self.state, "timers": self.timers, "undo": list(self.undo)}

    @classmethod
    def from_json(cls, seq: int, raw: dict) -> "View":
        return cls(seq, raw["state"], raw["timers"], tuple(raw["undo"]))


def fingerprint(method: str, path: str, body: Any) -> str:
    """What an Idempotency-Key is bound to: the same key with another fingerprint is a 422."""
    canonical = json.dumps([method, path, body], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def public_event(event: EventRow, game: Game | None = None, viewer: int | None = None) -> dict:
    """An event as `viewer` may see it: a move goes through the engine's public_move."""
    body = event.body
    if game is not None and event.kind == "move" and "move" in body:
        body = {**body, "move": game.public_move(body["move"], viewer)}
    return {"seq": event.seq, "kind": event.kind, "at_ms": event.at_ms, **body}


class Tables:
    def __init__(self, store: Store, games: dict[str, Game], clock: Callable[[], int],
                 notify: Callable[[str], None], snapshot_every: int = 50, cache_depth: int = 16):
        self.store = store
        self.games = games
        self.clock = clock
        self.notify = notify
        self.snapshot_every = max(1, snapshot_every)
        self.cache_depth = max(2, cache_depth)
        self._cache: collections.OrderedDict[str, collections.deque[View]] = collections.OrderedDict()
        self._lock = threading.Lock()
        store.on_lost = self._forget_all

    # -- reading ------------------------------------------------------------------------------------
    def get(self, code: str, viewer: int | None = None) -> dict:
        """The table as GET /api/tables/<code> shows it to player `viewer` (None: anyone)."""
        with self.store.read() as tx:
            table = self._table(tx, code)
            view = self._view(tx, table, tx.seq(code))
        return self._public(table, view, viewer)

    def state(self, code: str) -> tuple[TableRow, Any]:
        """The table and its whole state, hidden information included (for server-side views)."""
        with self.store.read() as tx:
            table = self._table(tx, code)
            return table, self._view(tx, table, tx.seq(code)).state

    def events(self, code: str, after: int, viewer: int | None = None) -> tuple[list[dict], int]:
        """The events after `after`, in order, as `viewer` may see them, and the table's current seq."""
        with self.store.read() as tx:
            table = self._table(tx, code)
            rows = tx.events(code, after)
            seq = rows[-1].seq if rows else tx.seq(code)
        game = self.games.get(table.game)
        return [public_event(e, game, viewer) for e in rows], seq

    def exists(self, code: str) -> TableRow | None:
        with self.store.read() as tx:
            return tx.table(code)

    # -- creating -----------------------------------------------------------------------------------
    def create(self, game_id: str, players: list[str], options: dict, seed: int | None,
               url_for: Callable[[str], str], idem_key: str | None, request_fp: str) -> tuple[int, dict]:
        game = self.games.get(game_id)
        if game is None:
            raise ApiError(404, f"There is no game {game_id!r}; choose one of: {', '.join(self.games)}.")
        if not game.playable:
            raise ApiError(404, f"{game.name} cannot be played in the companion yet ({game.problem}).")
        low, high = game.players
        reasons = []
        if not low <= len(players) <= high:
            reasons.append(f"{game.name} is played by {low} to {high} players, not {len(players)}")
        if len({unicodedata.normalize("NFKC", p).casefold() for p in players}) != len(players):
            reasons.append("two players have the same name; give each a different one")
        reasons += [] if reasons else game.validate_options(players, options)
        if reasons:
            raise ApiError(422, "These players or options cannot start a game.", reasons)
        seed = secrets.randbits(31) if seed is None else seed
        try:
            state = game.setup(players, options, seed)
        except Exception as exc:  # noqa: BLE001 - options the engine's check let through
            raise ApiError(422, "The game could not be set up with these options.",
                           [f"{type(exc).__name__}: {exc}"]) from None
        for _ in range(20):
            code = codes.new_code()
            try:
                with self.store.write() as tx:
                    if idem_key:
                        hit = tx.remembered("", idem_key)
                        if hit:
                            return self._replay(hit, request_fp)
                    row = TableRow(code, game_id, players, options, seed, self.clock())
                    tx.insert_table(row)
                    response = {"code": code, "game": game_id, "players": players, "seq": 0,
                                "url": url_for(code), "state": game.public_view(state, None),
                                "timers": [], "turn": game.current_player(state)}
                    if idem_key:
                        tx.remember("", idem_key, request_fp, 201, response)
            except sqlite3.IntegrityError:
                continue  # that code was taken (40 random bits: practically never)
            self._remember_view(code, View(0, state, {}, ()))
            return 201, response
        raise ApiError(503, "No free table code was found; try again.")

    # -- writing ------------------------------------------------------------------------------------
    def move(self, code, expected_seq, move, idem_key, request_fp, viewer=None):
        def decide(game: Game, view: View, now: int):
            reasons = game.validate(view.state, move)
            if reasons:
                raise ApiError(422, "That move is not allowed.", reasons)
            try:
                state = game.apply(view.state, move)
            except Exception as exc:  # noqa: BLE001 - validate passed a move apply cannot handle
                raise ApiError(422, "That move could not be played.",
                               [f"{type(exc).__name__}: {exc}"]) from None
            body = {"move": move, "summary": game.describe(view.state, move)}
            new = View(view.seq + 1, state, view.timers, view.undo + (view.seq + 1,))
            return "move", body, new, {"seq": new.seq, "state": game.public_view(state, viewer)}
        return self._write(code, expected_seq, idem_key, request_fp, decide, viewer)

    def undo(self, code, expected_seq, idem_key, request_fp, viewer=None):
        def decide(game: Game, view: View, now: int, tx: Tx, table: TableRow):
            if not view.undo:
                raise ApiError(422, "There is nothing to undo.", ["no move since the table started "
                                                                   "(or every move is undone already)"])
            target = view.undo[-1]
            (event,) = tx.events(table.code, target - 1, target)
            before = self._view(tx, table, target - 1)
            reasons = game.can_undo(before.state, event.body["move"])
            if reasons:
                raise ApiError(422, f"Move #{target} cannot be undone.", reasons)
            body = {"undoes": target, "summary": f"Undo #{target}: {event.body.get('summary', '')}"}
            new = View(view.seq + 1, before.state, view.timers, view.undo[:-1])
            return "undo", body, new, {"seq": new.seq, "state": game.public_view(new.state, viewer)}
        return self._write(code, expected_seq, idem_key, request_fp, decide, viewer, needs_tx=True)

    def timer(self, code, expected_seq, name, action, seconds, idem_key, request_fp, viewer=None):
        def decide(game: Game, view: View, now: int):
            try:
                new_timers = timers.apply(view.timers, name, action, seconds, now)
            except timers.TimerRefused as exc:
                raise ApiError(422, "The timer cannot do that now.", exc.reasons) from None
            body = {"timer": name, "action": action, "summary": timers.describe(name, action, seconds)}
            if action == "start":
                body["seconds"] = seconds
            new = View(view.seq + 1, view.state, new_timers, view.undo)
            return "timer", body, new, {"seq": new.seq, "timers": timers.public(new_timers, now)}
        return self._write(code, expected_seq, idem_key, request_fp, decide, viewer)

    def _write(self, code, expected_seq, idem_key, request_fp, decide, viewer, needs_tx=False):
        """Decide outside the write lock (engine and JSON work on the committed view), then append
        under it if the table is still at that seq; otherwise a 409, exactly as if checked first."""
        with self.store.read() as tx:
            table = self._table(tx, code)
            if idem_key:
                hit = tx.remembered(code, idem_key)
                if hit:
                    return self._replay(hit, request_fp)
            seq = tx.seq(code)
            view = self._view(tx, table, seq)
            game = self.games[table.game]
            now = self.clock()
            if expected_seq != seq:
                raise self._conflict(game, view, expected_seq, viewer, now)
            kind, body, new, response = decide(*((game, view, now, tx, table) if needs_tx
                                                 else (game, view, now)))
        body_json, response_json = dumps(body), dumps(response)
        snapshot = dumps(new.to_json()) if new.seq % self.snapshot_every == 0 else None
        with self.store.write() as tx:
            if idem_key:
                hit = tx.remembered(code, idem_key)   # the same request, racing itself
                if hit:
                    return self._replay(hit, request_fp)
            current = tx.seq(code)
            if current != seq:
                raise self._conflict(game, self._view(tx, table, current), expected_seq, viewer, now)
            tx.append(code, new.seq, kind, body_json, now)
            if idem_key:
                tx.remember(code, idem_key, request_fp, 200, response_json)
            if snapshot:
                tx.save_snapshot(code, new.seq, snapshot)
        self._remember_view(code, new)
        self.notify(code)
        return 200, response

    def _conflict(self, game: Game, view: View, expected_seq: int, viewer, now: int) -> ApiError:
        return ApiError(409, f"The table has moved on: it is at {view.seq}, not {expected_seq}. "
                             "Here is the current state; try again from it.",
                        seq=view.seq, state=game.public_view(view.state, viewer),
                        timers=timers.public(view.timers, now))

    @staticmethod
    def _replay(hit, request_fp: str) -> tuple[int, dict]:
        if hit.request != request_fp:
            raise ApiError(422, "This Idempotency-Key was already used for a different request.",
                           ["send a fresh Idempotency-Key for each new action; reuse one only to "
                            "retry exactly the same request"])
        return hit.status, hit.response

    # -- deriving -----------------------------------------------------------------------------------
    def _table(self, tx: Tx, code: str) -> TableRow:
        table = tx.table(code) if code else None
        if table is None:
            raise ApiError(404, f"There is no table with the code {codes.display(code)}; check the "
                                "code and try again.")
        if table.game not in self.games or not self.games[table.game].playable:
            raise ApiError(404, f"Table {code} is a game of {table.game!r}, which this companion "
                                "cannot run.")
        return table

    def _public(self, table: TableRow, view: View, viewer: int | None) -> dict:
        game = self.games[table.game]
        return {"code": table.code, "game": table.game, "players": table.players, "seq": view.seq,
                "state": game.public_view(view.state, viewer),
                "timers": timers.public(view.timers, self.clock()),
                "turn": game.current_player(view.state), "needs": game.needs(view.state),
                "options": table.options}

    def _view(self, tx: Tx, table: TableRow, seq: int) -> View:
        """The table after event `seq`: from the memory cache, else the nearest snapshot, then replay."""
        start = None
        with self._lock:
            for view in reversed(self._cache.get(table.code, ())):
                if view.seq == seq:
                    return view
                if view.seq < seq:
                    start = view
                    break
        snap = tx.snapshot(table.code, seq)
        if snap and (start is None or snap[0] > start.seq):
            start = View.from_json(*snap)
        if start is None:
            start = View(0, self.games[table.game].setup(table.players, table.options, table.seed), {}, ())
        view = self._replay_events(tx, table, start, tx.events(table.code, start.seq, seq))
        self._remember_view(table.code, view)
        return view

    def _replay_events(self, tx: Tx, table: TableRow, view: View, events: list[EventRow]) -> View:
        game = self.games[table.game]
        seen = {view.seq: view}
        for e in events:
            b = e.body
            if e.kind == "move":
                view = View(e.seq, game.apply(view.state, b["move"]), view.timers, view.undo + (e.seq,))
            elif e.kind == "undo":
                target = b["undoes"]
                before = seen.get(target - 1) or self._view(tx, table, target - 1)
                view = View(e.seq, before.state, view.timers, view.undo[:-1])
            elif e.kind == "timer":
                try:
                    new_timers = timers.apply(view.timers, b["timer"], b["action"], b.get("seconds"),
                                              e.at_ms)
                except timers.TimerRefused:
                    new_timers = view.timers
                view = View(e.seq, view.state, new_timers, view.undo)
            seen[e.seq] = view
        return view

    def _forget_all(self) -> None:
        """A group commit failed: views of its uncommitted events may be cached; drop them all."""
        with self._lock:
            self._cache.clear()

    def _remember_view(self, code: str, view: View) -> None:
        with self._lock:
            views = self._cache.get(code)
            if views is None:
                views = self._cache[code] = collections.deque(maxlen=self.cache_depth)
                while len(self._cache) > MAX_CACHED_TABLES:
                    self._cache.popitem(last=False)
            self._cache.move_to_end(code)
            if not views or views[-1].seq < view.seq:
                views.append(view)
