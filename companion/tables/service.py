"""Tables: create them, derive their state from the event log, append moves, undos and timer actions.

State is never stored as the truth: the view of a table after event `seq` is the game's setup
replayed through every event up to `seq` (moves through the engine's pure `apply`, undos back to
the state before the undone move, timer actions through companion.tables.timers). Two shortcuts keep that
fast as logs grow, both checked against the database's seq so they can never serve a stale state:
the last few views per table in memory, and a snapshot in the database every N events.

Every write runs in one BEGIN IMMEDIATE transaction: idempotency replay, expected_seq check,
rules check, append, remembered response, commit. Nothing is written unless all of it passes.

Who may write: a table has a host token (given to the phone that created it; it acts for every seat)
and a token per claimed seat (acting for that seat and for moves that belong to no seat). Tokens are
kept as SHA-256 hashes only. `Who` is what a request's token proves: HOST, a seat index, or None.

Time: moves, undos and timer actions are appended at the server's clock (`at_ms`), and replay hands
the same time to the rules again (Ctx.now_ms). Timers, the table's own and the game's, run out at a
deadline the server keeps (the `deadlines` table and companion/tables/expiry.py): at that moment an `expire`
event is appended once, whether or not a phone is asking, and every phone sees it live.
"""
from __future__ import annotations

import collections
import dataclasses
import hashlib
import logging
import secrets
import sqlite3
import threading
import unicodedata
from typing import Any, Callable

from . import chess_clock, codes, names, timers
from ..catalog import Game
from ..errors import ApiError
from ..games import clock as tclock
from ..games.contract import HOST, Ctx, IllegalMove
from ..store.sqlite import EventRow, PlayRow, Store, TableRow, Tx, dumps, encoder

MAX_CACHED_TABLES = 256
#: How far behind a simultaneous move's expected_seq may be (other seats' moves since), and how many
#: changes a 409 lists.
MAX_COMMUTE = 64
MAX_SINCE = 20
#: Tries of a write that another worker's insert of the same seq refused (PostgreSQL). Each refusal
#: is another writer's success, so simultaneous moves of N phones need at most N tries; a write that
#: does not commute is answered (409) at its second.
WRITE_ATTEMPTS = 10
SEED_BITS = 128
log = logging.getLogger(__name__)

#: What a request's token proves: HOST, a seat index, or None (no token, or not this table's).
Who = int | str | None


class Claimed(int):
    """A seat as this process remembers its token (several workers: another may have handed the
    seat over since). Given to a move only (who(..., write=True)): the move's own statement checks
    the token against the seat (append_after's `seat`), and anything but that move appended raises
    StaleSeat before a word is answered, so the move is asked again with the token read afresh."""

    digest: str

    def __new__(cls, seat: int, digest: str) -> "Claimed":
        claimed = super().__new__(cls, seat)
        claimed.digest = digest
        return claimed


class StaleSeat(Exception):
    """A move sent with a Claimed seat was not appended as it stood: nothing was written; ask again
    with the token read afresh (Tables.who without `write`)."""


def new_token() -> str:
    """A seat or host token: 256 random bits, URL-safe text (sent only in headers and bodies)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclasses.dataclass(frozen=True)
class View:
    """What a table looks like after event `seq`."""

    seq: int
    state: Any
    timers: dict                      # name -> timer record (companion.tables.timers)
    undo: tuple[int, ...]             # seqs of the moves an undo would revert, latest last
    #: what the rules derived from this (immutable) state once: its result, for every later read
    memo: dict = dataclasses.field(default_factory=dict, compare=False, repr=False)

    def result(self, game: Game) -> dict | None:
        if "result" not in self.memo:
            self.memo["result"] = game.result(self.state)
        return self.memo["result"]

    def to_json(self) -> dict:
        return {"state": self.state, "timers": self.timers, "undo": list(self.undo)}

    @classmethod
    def from_json(cls, seq: int, raw: dict) -> "View":
        return cls(seq, raw["state"], raw["timers"], tuple(raw["undo"]))


#: json.dumps(value, sort_keys=True, separators=(",", ":")), its encoder made once
_CANONICAL = encoder(sort_keys=True, separators=(",", ":"))


def fingerprint(method: str, path: str, body: Any) -> str:
    """What an Idempotency-Key is bound to: the same key with another fingerprint is a 422."""
    return hashlib.sha256(_CANONICAL([method, path, body]).encode()).hexdigest()


class Encoded(dict):
    """A response and its JSON text, serialised once (the text is stored for Idempotency-Key
    replays and sent as it is)."""

    __slots__ = ("text",)

    def __init__(self, value: dict, text: str):
        super().__init__(value)
        self.text = text


class _Needs(Exception):
    """Replay found an undo whose earlier view is not at hand; derive the view after `seq` first."""

    def __init__(self, seq: int):
        super().__init__(seq)
        self.seq = seq


def public_event(event: EventRow, game: Game | None = None, viewer: Who = None) -> dict:
    """An event as `viewer` may see it: a move goes through the rules' public_move."""
    body = event.body
    if game is not None and event.kind == "move" and "move" in body:
        body = {**body, "move": game.public_move(body["move"], viewer)}
    return {"seq": event.seq, "kind": event.kind, "at_ms": event.at_ms, **body}


class Reading:
    """What one read of a table shows each viewer (Tables.reading)."""

    def __init__(self, tables: "Tables", table: TableRow, rows: list[EventRow], view: View,
                 seats: dict[int, str]):
        self._tables, self._table, self._rows, self._view, self._seats = tables, table, rows, view, seats
        self._game = tables.games.get(table.game)
        self.seq = view.seq

    def events(self, after: int, viewer: Who = None) -> list[dict]:
        """The events after `after` (at least the reading's own `after`), as `viewer` may see them."""
        return [public_event(e, self._game, viewer) for e in self._rows if e.seq > after]

    def table(self, viewer: Who = None) -> dict:
        """The table as GET /api/tables/<code> shows it to `viewer`."""
        return self._tables._public(self._table, self._view, viewer, self._seats)


class _Writing:
    """Tables._writing's `with` block (a class: it is entered on every write)."""

    __slots__ = ("tables", "code")

    def __init__(self, tables: "Tables", code: str):
        self.tables, self.code = tables, code

    def __enter__(self) -> None:
        t = self.tables
        with t._lock:
            t._in_flight[self.code] = t._in_flight.get(self.code, 0) + 1

    def __exit__(self, *exc) -> None:
        t = self.tables
        with t._lock:
            left = t._in_flight[self.code] - 1
            if left:
                t._in_flight[self.code] = left
            else:
                del t._in_flight[self.code]


class Tables:
    def __init__(self, store: Store, games: dict[str, Game], clock: Callable[[], int],
                 notify: Callable[[str], None], snapshot_every: int = 50, cache_depth: int = 16,
                 on_due: Callable[[str, int | None], None] | None = None):
        self.store = store
        self.games = games
        self.clock = clock
        self.notify = notify
        self.on_due = on_due or (lambda code, due: None)
        self.snapshot_every = max(1, snapshot_every)
        self.cache_depth = max(2, cache_depth)
        self._cache: collections.OrderedDict[str, collections.deque[View]] = collections.OrderedDict()
        self._lock = threading.Lock()
        self._due: dict[str, int] = {}
        self._tokens: dict[str, dict[str, Who]] = {}     # code -> {token hash: HOST | seat}
        self._seat_changes = 0                            # seats handed over so far (_keep_tokens)
        self._in_flight: collections.Counter[str] = collections.Counter()   # writes on their way (_writing)
        self._rows: dict[str, TableRow] = {}              # tables never change once created
        self._heads: dict[str, int] = {}                  # code -> latest seq this process has seen
        # JSON texts of reads (get_text, legal_text) by what they depend on: never stale, only evicted
        self._texts: collections.OrderedDict[tuple, str] = collections.OrderedDict()
        # Whether this process is the database's only writer (SQLite's data folder lock). With
        # several workers (PostgreSQL) what a process remembers of a table's latest seq, its seats
        # and its deadline may be stale: those fast paths are off and the database decides.
        self._single = getattr(store, "single_writer", True)
        store.on_lost = self._forget_all

    # -- who is asking ------------------------------------------------------------------------------
    def who(self, code: str, token: str | None, write: bool = False) -> Who:
        """HOST, the seat index the token holds at table `code`, or None. The table's tokens are
        read once and kept (seat changes forget them), so a write does not read them again. With
        several workers the kept tokens are trusted only by a move that checks them itself
        (`write`: a Claimed seat, see move); everything else reads the seats as they are now."""
        if not token:
            return None
        digest = token_hash(token)
        table = self._rows.get(code)
        if table is not None:
            self._table(None, code)          # (the same 404 as a read for a game it cannot run)
            if digest == table.host_hash:
                return HOST                  # (the host's hash is in the table's row, which never changes)
        if write and not self._single:
            seat = self._tokens.get(code, {}).get(digest)
            if isinstance(seat, int):
                return Claimed(seat, digest)
        known = self._tokens.get(code) if self._single else None
        if known is None:
            generation = self._seat_changes
            latest = getattr(self.store, "latest", None)
            if table is not None and latest is not None:
                # several workers: the seats as they are now, one statement (no transaction)
                known = self._keep_tokens(code, table, latest(code)[1], generation)
            else:
                with self.store.read() as tx:
                    table = self._table(tx, code)
                    known = self._keep_tokens(code, table, tx.seats(code), generation)
        # (a dict lookup by the hash: the hash, not the token, is what an attacker would time)
        return known.get(digest)

    # -- reading ------------------------------------------------------------------------------------
    def get(self, code: str, viewer: Who = None) -> dict:
        """The table as GET /api/tables/<code> shows it to `viewer` (a seat, HOST or None)."""
        with self.store.read() as tx:
            table = self._table(tx, code)
            view = self._view(tx, table, tx.seq(code))
            seats = tx.seats(code)
        self._see_head(code, view.seq)
        return self._public(table, view, viewer, seats)

    def get_text(self, code: str, viewer: Who = None) -> str:
        """GET /api/tables/<code>'s JSON text for `viewer`, as get() gives it. What only changes with
        the table (its seq, its claimed seats) is encoded once per viewer and kept; the timers, which
        count down, are encoded afresh. With SQLite this process knows the latest seq and the seats
        (the only writer): a read of a table it holds needs no query at all."""
        known = self._known(code) or self._latest(code)
        if known is None:
            generation = self._seat_changes
            with self.store.read() as tx:
                table = self._table(tx, code)
                view = self._view(tx, table, tx.seq(code))
                seats = tx.seats(code)
            claimed = tuple(sorted(seats))
            self._keep_tokens(code, table, seats, generation)
            self._see_head(code, view.seq)
        else:
            table, view, claimed = known
        key = ("table", code, view.seq, viewer, claimed)
        part = self._texts.get(key)
        if part is None:
            value = self._public(table, view, viewer, dict.fromkeys(claimed))
            del value["timers"]
            part = dumps(value)[:-1]
            self._keep_text(key, part)
        timers_now = self._timers(self.games[table.game], view, self.clock())
        return f'{part},"timers":{dumps(timers_now)}}}'

    def legal_text(self, code: str, viewer: Who, player: int | None) -> str:
        """GET …/legal's JSON text (legal()), kept per seq, viewer and player: the moves legal at a
        seq never change."""
        known = self._known(code) or self._latest(code)
        if known is not None:
            key = ("legal", code, known[1].seq, viewer, player)
            text = self._texts.get(key)
            if text is not None:
                return text
        answer = self.legal(code, viewer, player)
        text = dumps(answer)
        self._keep_text(("legal", code, answer["seq"], viewer, player), text)
        return text

    def _keep_tokens(self, code: str, table: TableRow, seats: dict[int, str], generation: int) -> dict:
        """The table's tokens (hash -> HOST or seat) from `seats` as read; kept unless a seat changed
        hands here since the read began (`generation`: _seat_changes then)."""
        known = {held: player for player, held in seats.items()}
        if table.host_hash is not None:
            known[table.host_hash] = HOST
        with self._lock:           # (several workers: kept for moves, which check them: who)
            if self._seat_changes == generation:
                self._tokens[code] = known
        return known

    def _writing(self, code: str) -> "_Writing":
        """A write of table `code` is on its way (from before its transaction until this process's
        memory of the table has caught up with its commit): _known answers None meanwhile, so a
        read that could follow the commit (a retried request's replay, another thread that saw it)
        never gets the table from before it."""
        return _Writing(self, code)

    def _known(self, code: str) -> tuple[TableRow, View, tuple[int, ...]] | None:
        """The table, its latest view and its claimed seats, when this process knows them all without
        reading (SQLite: the only writer; see _head) and none of its writes is on its way."""
        if self._in_flight.get(code):
            return None
        head = self._head(code)
        if head is None:
            return None
        with self._lock:
            tokens = self._tokens.get(code)
        if tokens is None:
            return None
        return head[0], head[1], tuple(sorted(v for v in tokens.values() if v != HOST))

    def _latest(self, code: str) -> tuple[TableRow, View, tuple[int, ...]] | None:
        """With several workers: the table's latest seq and seats in one statement (no transaction),
        and the view at that seq if this process holds it; else None (a full read is needed)."""
        if self._single:
            return None
        table = self._rows.get(code)
        latest = getattr(self.store, "latest", None)
        if table is None or latest is None:
            return None
        seq, seats = latest(code)
        view = self._cached(code, seq)
        if view is None:
            return None
        self._see_head(code, seq)
        return table, view, tuple(sorted(seats))

    def _keep_text(self, key: tuple, text: str) -> None:
        with self._lock:
            self._texts[key] = text
            while len(self._texts) > 4 * MAX_CACHED_TABLES:
                self._texts.popitem(last=False)

    def state(self, code: str) -> tuple[TableRow, Any]:
        """The table and its whole state, hidden information included (for server-side views)."""
        with self.store.read() as tx:
            table = self._table(tx, code)
            return table, self._view(tx, table, tx.seq(code)).state

    def events(self, code: str, after: int, viewer: Who = None) -> tuple[list[dict], int]:
        """The events after `after`, in order, as `viewer` may see them, and the table's current seq."""
        with self.store.read() as tx:
            table = self._table(tx, code)
            rows = tx.events(code, after)
            seq = rows[-1].seq if rows else tx.seq(code)
        game = self.games.get(table.game)
        return [public_event(e, game, viewer) for e in rows], seq

    def reading(self, code: str, after: int) -> "Reading":
        """One read of table `code` for several viewers at once (the live streams of a table): its
        events after `after` and the table now, in one transaction; Reading filters them for each
        viewer (public_move, public_view) as events() and get() do."""
        with self.store.read() as tx:
            table = self._table(tx, code)
            rows = tx.events(code, after)
            view = self._view(tx, table, rows[-1].seq if rows else tx.seq(code))
            seats = tx.seats(code)
        self._see_head(code, view.seq)
        return Reading(self, table, rows, view, seats)

    def legal(self, code: str, viewer: Who, player: int | None) -> dict:
        """GET …/legal: the moves legal now that `viewer` may send (a seat: its own and the table's;
        HOST: everyone's), narrowed to `player`'s when given. Without a token: every seat's moves
        while no seat holds a secret (the game's secret_paths); else a token is needed (401),
        since the moves would show what is hidden (the cards of a hand)."""
        with self.store.read() as tx:
            table = self._table(tx, code)
            seq = tx.seq(code)
            view = self._view(tx, table, seq)
        game = self.games[table.game]
        if player is not None and player >= len(table.players):
            raise ApiError(404, f"There is no player {player} at this table (players 0 to "
                                f"{len(table.players) - 1}).")
        secrets_held = any(_hint_secret(game, view.state, s) for s in range(len(table.players)))
        if viewer is None and secrets_held:
            raise ApiError(401, "Send this table's host or seat token: the legal moves now would show "
                                "what only a player may see (the cards in a hand).")
        if player is not None and viewer is not None and viewer != HOST and viewer != player \
                and secrets_held:
            raise ApiError(403, "Only that player's own phone (or the host) may see its legal moves: "
                                "they can show the cards in its hand.")
        try:
            legal = game.legal(view.state, player)
            moves, complete = list(legal.moves), bool(legal.complete)
            if player is not None:
                # seat i's list holds the table's moves too (API.md: "?player=i narrows the host's
                # list to seat i and the table's moves"), whether or not the game lists them there
                table_moves = game.legal(view.state, None)
                extra = [m for m in table_moves.moves if game.mover(m) is None and m not in moves]
                moves += extra
                complete = complete and (bool(table_moves.complete) or not extra)
        except Exception as exc:  # noqa: BLE001 - a listing must never take the table down
            raise ApiError(422, "The legal moves could not be listed.",
                           [f"{type(exc).__name__}: {exc}"]) from None
        everyone = viewer == HOST or (viewer is None and not secrets_held)
        moves = [m for m in moves if everyone or game.mover(m) in (None, viewer)]
        if not moves and view.result(game) is not None:
            complete = True              # the empty list of a finished game is complete
        return {"seq": seq, "moves": moves, "complete": complete}

    def seq(self, code: str) -> int:
        """The table's current sequence number (404 for an unknown table)."""
        with self.store.read() as tx:
            self._table(tx, code)
            return tx.seq(code)

    def exists(self, code: str) -> TableRow | None:
        with self.store.read() as tx:
            return tx.table(code)

    def plays(self, game: str | None = None, limit: int = 1000) -> list[dict]:
        """The records of finished games, newest first."""
        with self.store.read() as tx:
            rows = tx.plays(limit, game)
        return [play_record(row, self.games.get(row.game)) for row in rows]

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
            span = f"{low}" if low == high else f"{low} to {high}"
            reasons.append(f"{game.name} is played by {span} players, not {len(players)}")
        if len({unicodedata.normalize("NFKC", p).casefold() for p in players}) != len(players):
            reasons.append("two players have the same name; give each a different one")
        else:
            seen: dict[str, str] = {}
            for p in players:
                other = seen.setdefault(names.skeleton(p), p)
                if other != p:
                    reasons.append(f"{p!r} looks like {other!r} on a phone; give each player a name "
                                   "that reads differently")
        reasons += [] if reasons else game.validate_options(players, options)
        if reasons:
            raise ApiError(422, "These players or options cannot start a game.", reasons)
        # 128 random bits: nothing a phone sees (the first cards, the first customers) can pin the
        # shuffle down. A chosen seed replays a known shuffle, and the table says so.
        replay = seed is not None
        seed = secrets.randbits(SEED_BITS) if seed is None else seed
        try:
            state = game.setup(players, options, seed)
        except Exception as exc:  # noqa: BLE001 - options the rules' check let through
            raise ApiError(422, "The game could not be set up with these options.",
                           [f"{type(exc).__name__}: {exc}"]) from None
        view = View(0, state, {}, ())
        due = self._next_due(game, view)
        for _ in range(20):
            code = codes.new_code()
            host_token = new_token()
            try:
                with self.store.write() as tx:
                    if idem_key:
                        hit = tx.remembered("", idem_key)
                        if hit:
                            return self._replay(hit, request_fp)
                    row = TableRow(code, game_id, players, options, seed, self.clock(),
                                   token_hash(host_token), replay)
                    tx.insert_table(row)
                    response = {"code": code, "game": game_id, "players": players, "seq": 0,
                                "url": url_for(code), "host_token": host_token,
                                "state": game.public_view(state, HOST),
                                "timers": self._timers(game, view, self.clock()),
                                "turn": game.turn(state), "replay": replay}
                    if idem_key:
                        tx.remember("", idem_key, request_fp, 201, response)
                    if due is not None:
                        tx.set_deadline(code, due)
            except sqlite3.IntegrityError:
                continue  # that code was taken (40 random bits: practically never)
            self._remember_view(code, view)
            self._see_head(code, 0)
            self._set_due(code, due)
            return 201, response
        raise ApiError(503, "No free table code was found; try again.")

    # -- seats --------------------------------------------------------------------------------------
    def claim_seat(self, code: str, player: int, who: Who) -> tuple[int, dict]:
        """POST …/seats: a free seat to whoever asks; a claimed one only to the host (the old token
        is void from then on)."""
        token = new_token()
        with self._writing(code):
            with self.store.write() as tx:
                tx.lock_table(code)
                table = self._table(tx, code)
                if player >= len(table.players):
                    raise ApiError(404, f"There is no seat {player} at this table (seats 0 to "
                                        f"{len(table.players) - 1}).")
                if player in tx.seats(code) and who != HOST:
                    raise ApiError(409, f"{table.players[player]}'s seat is taken by another phone. The "
                                        "host (the phone that started the table) can hand it to you, or "
                                        "that phone can give it up.", seq=tx.seq(code))
                tx.claim_seat(code, player, token_hash(token), self.clock())
            self._forget_tokens(code)
        self.notify(code)
        return 201, {"player": player, "name": table.players[player], "token": token}

    def release_seat(self, code: str, player: int, who: Who) -> dict:
        """DELETE …/seats/<player>: the seat's own phone or the host frees it for another phone."""
        with self._writing(code):
            with self.store.write() as tx:
                tx.lock_table(code)
                table = self._table(tx, code)
                if player >= len(table.players):
                    raise ApiError(404, f"There is no seat {player} at this table.")
                if who != HOST and who != player:
                    raise ApiError(403, "Only the phone in that seat, or the host, can give it up.")
                tx.free_seat(code, player)
            self._forget_tokens(code)
        self.notify(code)
        return {"player": player, "claimed": False}

    # -- writing ------------------------------------------------------------------------------------
    def move(self, code, expected_seq, move, idem_key, request_fp, who: Who = HOST, minimal=False):
        """Append `move` after `expected_seq`: (200, {"seq", "state"}), the state as `who` sees it;
        `minimal` (the request's `Prefer: return=minimal`): (200, {"seq"}), the state neither
        derived for the answer nor encoded (a phone reads the whole table after its move anyway)."""
        def decide(game: Game, view: View, now: int, tx: Tx, table: TableRow):
            self._authorize_move(game, table, move, who)
            shape = game.shape_reasons(move)
            if shape:
                raise ApiError(422, "That move holds more than its type defines.", shape)
            ctx = Ctx(now, who)
            barred = game.sender_reasons(view.state, move, ctx)
            if barred:
                # (a move changing one player's holdings takes that player's token or the host's)
                raise ApiError(403, "This phone may not make that move.", barred)
            # The contract makes apply refuse (IllegalMove) every move validate refuses, with the
            # same reasons: one pass of the rules, not two. Junk apply trips over gets validate's
            # plain reasons.
            try:
                state = game.apply(view.state, move, ctx)
            except IllegalMove as exc:
                raise ApiError(422, "That move is not allowed.", exc.reasons) from None
            except Exception as exc:  # noqa: BLE001 - a move the rules cannot handle
                reasons = game.validate(view.state, move, ctx)
                if reasons:
                    raise ApiError(422, "That move is not allowed.", reasons) from None
                raise ApiError(422, "That move could not be played.",
                               [f"{type(exc).__name__}: {exc}"]) from None
            body = {"move": move, "by": who, "summary": game.describe(view.state, move)}
            new_timers, follows = _clock_follows_turn(game, view.timers, state, now)
            if follows:
                body["clock_follows"] = follows
            new = View(view.seq + 1, state, new_timers, view.undo + (view.seq + 1,))
            return "move", body, new, {"seq": new.seq} if minimal else \
                {"seq": new.seq, "state": game.public_view(state, who)}
        status, response = self._write(code, expected_seq, idem_key, request_fp, decide, who, commutes=move)
        if minimal and "state" in response:      # a replay, rebuilt whole from the log
            response = {"seq": response["seq"]}
            return status, Encoded(response, dumps(response))
        return status, response

    def undo(self, code, expected_seq, idem_key, request_fp, who: Who = HOST):
        def decide(game: Game, view: View, now: int, tx: Tx, table: TableRow):
            if not view.undo:
                raise ApiError(422, "There is nothing to undo.", ["no move since the table started "
                                                                   "(or every move is undone already)"])
            target = view.undo[-1]
            (event,) = tx.events(table.code, target - 1, target)
            mover = game.mover(event.body["move"])
            if who is None:
                raise ApiError(401, "Send this table's host or seat token to undo.")
            if who != HOST and mover is not None and mover != who:
                raise ApiError(403, f"Move #{target} is {table.players[mover]}'s: only their phone "
                                    "or the host can undo it.")
            before = self._view(tx, table, target - 1)
            reasons = game.can_undo(before.state, event.body["move"])
            if reasons:
                raise ApiError(422, f"Move #{target} cannot be undone.", reasons)
            revealed = game.reveals(before.state, event.body["move"])
            if revealed and who != HOST:
                raise ApiError(422, f"Move #{target} revealed what was hidden: only the host can take "
                                    "it back.", revealed)
            summary = f"Undo #{target}: {event.body.get('summary', '')}"
            body = {"undoes": target, "by": who,
                    "summary": f"The host took back a reveal. {summary}" if revealed else summary}
            if revealed:
                body["reveal"] = revealed
            new_timers, follows = _clock_follows_turn(game, view.timers, before.state, now)
            if follows:
                body["clock_follows"] = follows
            new = View(view.seq + 1, before.state, new_timers, view.undo[:-1])
            return "undo", body, new, {"seq": new.seq, "state": game.public_view(new.state, who)}
        return self._write(code, expected_seq, idem_key, request_fp, decide, who, reads_log=True)

    def timer(self, code, expected_seq, name, action, seconds, idem_key, request_fp, who: Who = HOST,
              extra: dict | None = None):
        """`extra`: a chess clock's request fields ("clock", "seat"; companion.tables.timers.extra_of)."""
        def decide(game: Game, view: View, now: int, tx: Tx, table: TableRow):
            more = timers.extra_of(extra or {}, action, len(table.players))
            if who is None:
                raise ApiError(401, "Send this table's host or seat token to use its timers.")
            if name in game.timers(view.state):
                raise ApiError(422, "The game keeps that timer itself.",
                               [f"{name!r} is one of {game.name}'s own timers: its moves start "
                                "and end it"])
            try:
                new_timers = timers.apply(view.timers, name, action, seconds, now, more)
            except timers.TimerRefused as exc:
                raise ApiError(422, "The timer cannot do that now.", exc.reasons) from None
            body = {"timer": name, "action": action, "by": who,
                    "summary": timers.describe(name, action, seconds, more, table.players,
                                               new_timers)}
            if action == "start":
                body["seconds"] = seconds
            body.update(more)
            new = View(view.seq + 1, view.state, new_timers, view.undo)
            return "timer", body, new, {"seq": new.seq, "timers": self._timers(game, new, now)}
        return self._write(code, expected_seq, idem_key, request_fp, decide, who)

    def expire_due(self, code: str) -> int | None:
        """Append an `expire` event for every timer of the table whose deadline has passed, one
        event each, earliest first; returns the next deadline still ahead (or None)."""
        for _ in range(1000):
            now = self.clock()
            with self.store.read() as tx:
                table = tx.table(code)
                if table is None or table.game not in self.games or not self.games[table.game].playable:
                    self._set_due(code, None)
                    return None
                seq = tx.seq(code)
                view = self._view(tx, table, seq)
            game = self.games[table.game]
            due = self._due_timers(game, view)
            if not due or due[0][0] > now:
                self._set_due(code, due[0][0] if due else None)
                return due[0][0] if due else None
            deadline, owner, name = due[0]

            def decide(game: Game, view: View, now: int, tx: Tx, table: TableRow):
                ctx = Ctx(deadline, None)
                if owner == "game":
                    try:
                        state = game.on_expire(view.state, name, ctx)
                    except Exception:  # noqa: BLE001 - a broken expiry must not loop forever
                        log.exception("%s: on_expire(%r) failed at table %s", game.id, name, code)
                        state = view.state
                    new = View(view.seq + 1, state, view.timers, view.undo)
                    summary = game.describe_expiry(view.state, name, state)
                else:
                    new = View(view.seq + 1, view.state, timers.expire(view.timers, name), view.undo)
                    summary = f"Time is up: {name}"
                body = {"timer": name, "owner": owner, "deadline_ms": deadline, "summary": summary}
                return "expire", body, new, {"seq": new.seq}
            try:
                self._write(code, seq, None, "", decide, HOST, deliver_due=False)
            except ApiError as exc:
                if exc.status != 409:
                    raise
        return self._due.get(code)

    def due(self) -> dict[str, int]:
        """Every table's next deadline (what the expiry scheduler waits for)."""
        with self._lock:
            return dict(self._due)

    def load_deadlines(self) -> dict[str, int]:
        """The deadlines kept in the database (after a restart)."""
        with self.store.read() as tx:
            found = tx.deadlines()
        for code, due in found.items():
            self._set_due(code, due)
        return found

    def _authorize_move(self, game: Game, table: TableRow, move: dict, who: Who) -> None:
        if who is None:
            raise ApiError(401, "Send this table's host or seat token (Authorization: Bearer …) "
                                "with every move: a phone gets one when it takes a seat.")
        mover = game.mover(move)
        if who != HOST and mover is not None and mover != who:
            name = table.players[mover] if 0 <= mover < len(table.players) else f"player {mover}"
            raise ApiError(403, f"This phone holds {table.players[who]}'s seat; it cannot move for "
                                f"{name}.")

    def _write(self, code, expected_seq, idem_key, request_fp, decide, who, deliver_due=True,
               reads_log=False, commutes=None):
        """Decide outside the write lock (rules and JSON work on the committed view), then append
        under it if the table is still at that seq; otherwise a 409, exactly as if checked first.

        `commutes`: a seat's move, which in a simultaneous phase is decided on the current state even
        when `expected_seq` is behind it, as long as only other seats' moves came since, within the
        same phase (_commutes; API.md, "Simultaneous phases"). Another such move appended between
        our decision and our append has it decided again, on the newer state, under the lock."""
        if deliver_due and self._due.get(code, 2**62) <= self.clock():
            self.expire_due(code)   # time ran out before this request: that comes first
        head = None if reads_log else self._head(code, expected_seq)
        claimed = (int(who), who.digest) if isinstance(who, Claimed) else None
        if claimed and (head is None or head[1].seq != expected_seq):
            raise StaleSeat(code)   # (a replay or a 409 answers only a token read afresh)
        if head is not None and head[1].seq == expected_seq:
            # The usual move: this process wrote (or read) the table's latest event and keeps its
            # view, so no read transaction is needed; the seq is checked again under the write lock
            # (with several workers another may have moved the table on: then, as below, the move
            # commutes or is a 409).
            table, view = head
            seq, game, now = view.seq, self.games[table.game], self.clock()
            if deliver_due and not self._single and (self._next_due(game, view) or 2**62) <= now:
                self.expire_due(code)
                return self._write(code, expected_seq, idem_key, request_fp, decide, who, False,
                                   reads_log, commutes)
            kind, body, new, response = decide(game, view, now, None, table)
        else:
            with self.store.read() as tx:
                table = self._table(tx, code)
                seq = tx.seq(code)
                view = self._view(tx, table, seq)
                game = self.games[table.game]
                now = self.clock()
                # (another worker may have started the timer that has run out: this one's memory of
                # deadlines is not the whole story, the view is)
                late = deliver_due and not self._single and (self._next_due(game, view) or 2**62) <= now
                if not late and expected_seq != seq:
                    # A replayed key is answered before expected_seq counts (API.md). A stored key's
                    # request appended an event, so its expected_seq is behind the table: replays
                    # only come this way (a key reused at the current seq is caught under the lock).
                    hit = tx.remembered(code, idem_key) if idem_key else None
                    if hit:
                        return self._replay(hit, request_fp, tx, table)
                    if not self._commutes(tx, table, game, commutes, expected_seq, seq):
                        raise self._conflict(game, view, expected_seq, who, now, tx, table)
                if not late:
                    kind, body, new, response = decide(game, view, now, tx, table)
            if late:
                self.expire_due(code)
                return self._write(code, expected_seq, idem_key, request_fp, decide, who, False,
                                   reads_log, commutes)
        prepared = self._prepare(game, view, kind, body, new, response, who)
        with self._writing(code):      # (reads of this table go to the database meanwhile)
            for attempt in range(1, WRITE_ATTEMPTS + 1):
                try:
                    with self.store.write() as tx:
                        if attempt > 1 and commutes is not None:
                            # Other workers' writers raced us for this table (several seats moving at
                            # once): from now on wait for them in turn, each seeing the one before.
                            tx.lock_table(code)
                        body_json, response_json, stored, snapshot, due, was_due, was, now_result = prepared
                        # (the row holds the due of the view before: a writer always sets it when it changes)
                        due_changed = due != (self._due.get(code) if self._single else was_due)
                        # The usual write is this one statement: the table still at `seq`, the key
                        # unused (the same request, racing itself), the event and the remembered answer.
                        refused = tx.append_after(code, seq, kind, body_json, now, idem_key, request_fp,
                                                  stored, last=not (snapshot or due_changed or was != now_result),
                                                  seat=claimed)
                        if refused is not None:           # nothing was written
                            if claimed:
                                raise StaleSeat(code)
                            current, hit = refused
                            if hit:
                                return self._replay(hit, request_fp, tx, table)
                            if not (commutes is not None and current > seq and
                                    self._commutes(tx, table, game, commutes, expected_seq, current)):
                                raise self._conflict(game, self._view(tx, table, current), expected_seq,
                                                     who, now, tx, table)
                            # Another seat's simultaneous move came first: decide again on the state it
                            # left, here under the lock (what this transaction sees is the latest, even
                            # before its group commits). Illegal now: a 422, and nothing is written.
                            view, seq, now = self._view(tx, table, current), current, max(now, self.clock())
                            kind, body, new, response = decide(game, view, now, tx, table)
                            prepared = self._prepare(game, view, kind, body, new, response, who)
                            body_json, response_json, stored, snapshot, due, was_due, was, now_result = prepared
                            due_changed = due != (self._due.get(code) if self._single else was_due)
                            tx.append(code, new.seq, kind, body_json, now)
                            if idem_key:
                                tx.remember(code, idem_key, request_fp, 200, stored)
                        if snapshot:
                            tx.save_snapshot(code, new.seq, snapshot)
                        if due_changed:
                            tx.set_deadline(code, due)
                        if was != now_result:        # the game ended (or an undo took its end back)
                            play = None
                            if now_result is not None:
                                first = tx.first_event_ms(code)
                                play = PlayRow(code, table.game, table.players, now_result,
                                               first if first is not None else now, now, new.seq)
                            tx.record_play(play, code)
                    break
                except sqlite3.IntegrityError:
                    # Another worker appended event `new.seq` (or stored this key) between our look and
                    # our insert: the database's unique key refused ours, nothing was written. Looking
                    # again answers it as above: 409 with the table's state, the key's replay, or (a
                    # simultaneous move) a decision on the newer state.
                    if attempt == WRITE_ATTEMPTS:
                        raise
            self._remember_view(code, new)
            self._see_head(code, new.seq)
        self._set_due(code, due)
        self.notify(code)
        return 200, Encoded(response, response_json)

    def _prepare(self, game: Game, view: View, kind: str, body: dict, new: View, response: dict,
                 who) -> tuple:
        """What appending `new` after `view` writes, serialised before the write lock is taken."""
        body_json, response_json = dumps(body), dumps(response)
        # A move's or undo's answer is the state after it as its sender sees it: derivable from the
        # log, so the key keeps only where to find it (a few bytes instead of the whole state; a
        # retry asking for the whole answer gets it even when the first asked for the seq alone).
        stored = f'{{"seq":{new.seq},"state_of":{dumps(who)}}}' if kind in ("move", "undo") \
            else response_json
        # Every undo is snapshotted too: a later replay then starts at or after it, so it never has
        # to derive the view before an undone move from an earlier window.
        snapshot = dumps(new.to_json()) if new.seq % self.snapshot_every == 0 or kind == "undo" \
            else None
        return (body_json, response_json, stored, snapshot, self._next_due(game, new),
                self._next_due(game, view), view.result(game), new.result(game))

    def _conflict(self, game: Game, view: View, expected_seq: int, who, now: int,
                  tx: Tx | None = None, table: TableRow | None = None) -> ApiError:
        """409 with the table as `who` sees it now and, under "since", what changed after
        `expected_seq` (each event's history line and whose it was), so a page can say it in words."""
        since = []
        if tx is not None and table is not None and 0 <= expected_seq < view.seq \
                and view.seq - expected_seq <= MAX_SINCE:
            for e in tx.events(table.code, expected_seq, view.seq):
                mover = game.mover(e.body["move"]) if e.kind == "move" and "move" in e.body else None
                since.append({"seq": e.seq, "kind": e.kind, "player": mover,
                              "summary": e.body.get("summary", "")})
        return ApiError(409, f"The table has moved on: it is at {view.seq}, not {expected_seq}. "
                             "Here is the current state; try again from it.",
                        seq=view.seq, state=game.public_view(view.state, who),
                        timers=self._timers(game, view, now), since=since)

    def _commutes(self, tx: Tx, table: TableRow, game: Game, move: Any, expected_seq: int,
                  current: int) -> bool:
        """Whether a seat's `move` based on `expected_seq` may be decided on the state at `current`:
        every event since is another seat's move (no undo, table timer or table move, none of the
        sender's own) or the run-out of a game's clock after which the game names the same phase,
        and in every state from `expected_seq` on the sender was one of the seats acting at once
        ("several" or "all") in the same phase (Rules.phase). So a bid, a loan or a
        stop call is not refused because another seat's came first; a move made before a reveal,
        an expiry or a new round still is (API.md, "Simultaneous phases")."""
        if move is None or not 0 <= expected_seq < current or current - expected_seq > MAX_COMMUTE:
            return False
        events = tx.events(table.code, expected_seq, current)
        if len(events) != current - expected_seq:
            return False
        if all(e.kind == "walk" for e in events):
            return True     # only the set-up walk-through moved on (walk.py): the game did not
        seat = game.mover(move)
        if seat is None:
            return False
        view = self._view(tx, table, expected_seq)
        state, key = view.state, game.phase(view.state)

        def acting(state) -> bool:
            actors = game.actors(state)
            return actors.mode in ("several", "all") and seat in actors.seats \
                and game.phase(state) == key
        if not acting(state):
            return False
        for e in events:
            b = e.body
            try:
                if e.kind == "expire" and b.get("owner") == "game" and key is not None:
                    # the phase's clock ran out and the game named the phase the same after it
                    # (Countdown: the entries of the floor still come in after its clock)
                    state = game.on_expire(state, b["timer"], Ctx(b["deadline_ms"], None))
                elif e.kind == "move" and "move" in b and game.mover(b["move"]) not in (None, seat):
                    state = game.apply(state, b["move"], Ctx(e.at_ms, b.get("by", HOST)))
                elif e.kind == "walk":
                    continue
                else:
                    return False
            except Exception:  # noqa: BLE001 - as replay would: not ours to judge here
                return False
            if not acting(state):
                return False
        return True

    def _replay(self, hit, request_fp: str, tx: Tx | None = None,
                table: TableRow | None = None) -> tuple[int, dict]:
        if hit.request != request_fp:
            raise ApiError(422, "This Idempotency-Key was already used for a different request.",
                           ["send a fresh Idempotency-Key for each new action; reuse one only to "
                            "retry exactly the same request"])
        stored = hit.response
        if isinstance(stored, dict) and set(stored) == {"seq", "state_of"} and table is not None:
            # rebuilt from the log: the same state, so the very same bytes as the first answer
            game = self.games[table.game]
            view = self._view(tx, table, stored["seq"])
            response = {"seq": stored["seq"], "state": game.public_view(view.state, stored["state_of"])}
            return hit.status, Encoded(response, dumps(response))
        return hit.status, Encoded(hit.response, hit.text) if hit.text else hit.response

    # -- timers ---------------------------------------------------------------------------------
    def _timers(self, game: Game, view: View, now: int) -> list[dict]:
        """The table's own timers, then the game's (API.md's timer objects)."""
        own = timers.public(view.timers, now)
        theirs = [tclock.public(name, rec, now, owner="game")
                  for name, rec in game.timers(view.state).items()]
        return own + theirs

    @staticmethod
    def _due_timers(game: Game, view: View) -> list[tuple[int, str, str]]:
        """(deadline, owner, name) of every running timer, earliest first."""
        due = [(d, "table", name) for name, rec in view.timers.items()
               if (d := tclock.due(rec)) is not None]
        due += [(d, "game", name) for name, rec in game.timers(view.state).items()
                if (d := tclock.due(rec)) is not None]
        return sorted(due)

    def _next_due(self, game: Game, view: View) -> int | None:
        """The view's earliest deadline, derived once per view (a view is immutable): a write
        derives it for the view it appends, and the next write finds it for the view before."""
        memo = view.memo
        if "due" not in memo:
            due = self._due_timers(game, view)
            memo["due"] = due[0][0] if due else None
        return memo["due"]

    def _set_due(self, code: str, due: int | None) -> None:
        with self._lock:
            if self._due.get(code) == due:
                return
            if due is None:
                self._due.pop(code, None)
            else:
                self._due[code] = due
        self.on_due(code, due)

    # -- deriving -----------------------------------------------------------------------------------
    def _table(self, tx: Tx, code: str) -> TableRow:
        table = self._rows.get(code)
        if table is None:
            table = tx.table(code) if code else None
            if table is not None:
                with self._lock:
                    if len(self._rows) >= 4 * MAX_CACHED_TABLES:
                        self._rows.clear()
                    self._rows[code] = table
        if table is None:
            raise ApiError(404, f"There is no table with the code {codes.display(code)}; check the "
                                "code and try again.")
        if table.game not in self.games or not self.games[table.game].playable:
            raise ApiError(404, f"Table {code} is a game of {table.game!r}, which this companion "
                                "cannot run.")
        return table

    def _public(self, table: TableRow, view: View, viewer: Who, seats: dict[int, str]) -> dict:
        game = self.games[table.game]
        return {"code": table.code, "game": table.game, "players": table.players, "seq": view.seq,
                "state": game.public_view(view.state, viewer),
                "timers": self._timers(game, view, self.clock()),
                "turn": game.turn(view.state), "actors": game.actors(view.state).to_json(),
                "needs": game.needs(view.state), "result": view.result(game),
                "facts": game.table_facts(view.state), "setup": game.setup_steps(view.state),
                "sealed": game.sealed(view.state),
                "options": table.options, "replay": table.replay,
                "seats": [{"player": i, "name": name, "claimed": i in seats}
                          for i, name in enumerate(table.players)],
                "you": {"host": viewer == HOST,
                        "player": viewer if isinstance(viewer, int) else None}}

    def _view(self, tx: Tx, table: TableRow, seq: int) -> View:
        """The table after event `seq`: from the memory cache, else the nearest snapshot, then replay.

        An undo in the replayed window needs the view before the move it undoes, which may lie before
        the window: that view is derived first, without recursion (a stack of the seqs still
        wanted), so a chain of undos of any depth replays (undos are snapshotted, so the chain is
        normally one window long)."""
        found: dict[int, View] = {}
        wanted = [seq]
        while wanted:
            target = wanted[-1]
            if target in found:
                wanted.pop()
                continue
            start = self._start(tx, table, target, found)
            try:
                view = self._replay_events(tx, table, start, tx.events(table.code, start.seq, target),
                                           found)
            except _Needs as need:
                wanted.append(need.seq)
                continue
            found[target] = view
            wanted.pop()
        view = found[seq]
        self._remember_view(table.code, view)
        return view

    def _start(self, tx: Tx, table: TableRow, seq: int, found: dict[int, View]) -> View:
        """The latest view known at or before `seq`: derived just now, cached, snapshot, or setup."""
        start = max((v for s, v in found.items() if s <= seq), key=lambda v: v.seq, default=None)
        with self._lock:
            for view in reversed(self._cache.get(table.code, ())):
                if view.seq <= seq:
                    if start is None or view.seq > start.seq:
                        start = view
                    break
        if start is not None and start.seq == seq:
            return start
        try:
            snap = tx.snapshot(table.code, seq)
            if snap and (start is None or snap[0] > start.seq):
                start = View.from_json(*snap)
        except (sqlite3.DatabaseError, KeyError, TypeError, ValueError):
            pass            # a snapshot is a cache of the log: a damaged one is passed over
        if start is None:
            start = View(0, self.games[table.game].setup(table.players, table.options, table.seed), {}, ())
        return start

    def _replay_events(self, tx: Tx, table: TableRow, view: View, events: list[EventRow],
                       found: dict[int, View] | None = None) -> View:
        """`view` moved on through `events`. Raises _Needs(seq) when an undo needs the view after
        `seq` and it is neither in this window, nor in `found`, nor cached."""
        game = self.games[table.game]
        seen = {view.seq: view}
        for e in events:
            b = e.body
            if e.kind == "move":
                ctx = Ctx(e.at_ms, b.get("by", HOST))
                try:
                    state = game.apply(view.state, b["move"], ctx)
                except IllegalMove:
                    # A log written under older rules: a move its sender may no longer send (a
                    # player's holdings are now theirs or the host's alone) was accepted then, and
                    # replays as the host's rather than leave the table unreadable.
                    try:
                        state = game.apply(view.state, b["move"], Ctx(e.at_ms, HOST))
                    except Exception as exc:  # noqa: BLE001 - a log that does not replay is damaged
                        raise sqlite3.DatabaseError(f"the log of table {table.code} does not replay "
                                                    f"at event {e.seq}: {exc}") from None
                except Exception as exc:  # noqa: BLE001 - a log that does not replay is damaged
                    raise sqlite3.DatabaseError(f"the log of table {table.code} does not replay at "
                                                f"event {e.seq}: {exc}") from None
                view = View(e.seq, state, _followed(view.timers, b, e.at_ms), view.undo + (e.seq,))
            elif e.kind == "undo":
                target = b["undoes"]
                before = seen.get(target - 1) or (found or {}).get(target - 1) \
                    or self._cached(table.code, target - 1)
                if before is None:
                    raise _Needs(target - 1)
                view = View(e.seq, before.state, _followed(view.timers, b, e.at_ms), view.undo[:-1])
            elif e.kind == "timer":
                try:
                    new_timers = timers.apply(view.timers, b["timer"], b["action"], b.get("seconds"),
                                              e.at_ms, b)
                except timers.TimerRefused:
                    new_timers = view.timers
                view = View(e.seq, view.state, new_timers, view.undo)
            elif e.kind == "expire":
                if b.get("owner") == "game":
                    try:
                        state = game.on_expire(view.state, b["timer"], Ctx(b["deadline_ms"], None))
                    except Exception:  # noqa: BLE001 - as when it was appended (expire_due)
                        state = view.state
                    view = View(e.seq, state, view.timers, view.undo)
                else:
                    view = View(e.seq, view.state, timers.expire(view.timers, b["timer"]), view.undo)
            else:   # "walk" (companion/tables/walk.py): the set-up walk-through's step, outside the game
                view = View(e.seq, view.state, view.timers, view.undo)
            seen[e.seq] = view
        return view

    def _head(self, code: str, expected: int | None = None) -> tuple[TableRow, View] | None:
        """The table and its latest view, when this process knows both without reading. With SQLite the
        data folder's lock makes this process the only writer, so the latest seq it saw is current unless
        another of its own requests just moved on (then the write lock's seq check answers 409). With
        several workers (PostgreSQL) only the database knows the latest: the view this process saw
        last is offered when a writer's `expected` seq is that one (its write checks it again)."""
        if not self._single and (expected is None or self._heads.get(code) != expected):
            return None
        with self._lock:
            seq, table = self._heads.get(code), self._rows.get(code)
        if seq is None or table is None:
            return None
        view = self._cached(code, seq)
        return (table, view) if view is not None else None

    def _see_head(self, code: str, seq: int) -> None:
        with self._lock:
            if seq > self._heads.get(code, -1):
                self._heads[code] = seq

    def _cached(self, code: str, seq: int) -> View | None:
        with self._lock:
            # (newest first: a move asks for the latest; the seqs only grow, each is there once)
            for view in reversed(self._cache.get(code, ())):
                if view.seq == seq:
                    return view
        return None

    def _forget_all(self) -> None:
        """A group commit failed: views of its uncommitted events may be cached (and seats of it):
        drop them all."""
        with self._lock:
            self._cache.clear()
            self._texts.clear()
            self._tokens.clear()
            self._rows.clear()
            self._heads.clear()

    def _forget_tokens(self, code: str) -> None:
        with self._lock:
            self._seat_changes += 1
            self._tokens.pop(code, None)

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


def _clock_follows_turn(game: Game, table_timers: dict, state: Any, now: int) -> tuple[dict, dict]:
    """A running chess clock follows the game's turn by itself: when a move (or an undo) leaves the
    turn with one seat and the clock runs another's, that seat's time stops and the turn's runs.
    Returns the timers and {clock name: seat} of what followed (kept in the event, so a replay
    does the same and logs from before this replay as they were)."""
    if not table_timers:
        return table_timers, {}             # (no clock to follow the turn: the usual table)
    turn = game.turn(state)
    if not isinstance(turn, int):
        return table_timers, {}
    follows = {}
    for name, rec in table_timers.items():
        if chess_clock.is_chess(rec) and rec.get("status") == tclock.RUNNING and rec["seat"] != turn \
                and 0 <= turn < len(rec["clocks"]):
            try:
                table_timers = {**table_timers, name: chess_clock.pass_turn(rec, now, turn)}
            except ValueError:
                continue                    # that seat's time is out: the clock stays as it is
            follows[name] = turn
    return table_timers, follows


def _followed(table_timers: dict, body: dict, at_ms: int) -> dict:
    """The timers after an event's "clock_follows" (see _clock_follows_turn), replayed."""
    for name, seat in (body.get("clock_follows") or {}).items():
        rec = table_timers.get(name)
        if chess_clock.is_chess(rec):
            try:
                table_timers = {**table_timers, name: chess_clock.pass_turn(rec, at_ms, seat)}
            except ValueError:
                pass
    return table_timers


def _hint_secret(game: Game, state: Any, seat: int) -> bool:
    """Whether `seat` holds a secret in `state` (a rules error counts as one: better refuse)."""
    try:
        return bool(game.rules.secret_paths(state, seat))
    except Exception:  # noqa: BLE001
        return True


def play_record(row: PlayRow, game: Game | None) -> dict:
    """A finished play as GET /api/plays lists it."""
    return {"code": row.code, "game": row.game, "game_name": game.name if game else row.game,
            "players": row.players, "winners": row.result.get("winners", []),
            "unit": row.result.get("unit"), "scores": row.result.get("scores", []),
            "started_ms": row.started_ms, "ended_ms": row.ended_ms,
            "duration_ms": max(0, row.ended_ms - row.started_ms), "seq": row.seq}
