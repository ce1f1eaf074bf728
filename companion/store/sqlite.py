"""The event store: SQLite, append-only.

Tables (the game tables people play at) are rows in `tables`; everything that happens at a table is
a row in `events`, numbered 1, 2, 3 … per table (the table's `seq` is its last event's number, 0 for a
new table). Nothing is updated or deleted: triggers refuse it. Beside the log:
- `idempotency`: the response stored under an Idempotency-Key (only successful ones);
- `snapshots`: derived state every N events, so replay starts near the end (a cache of the log,
  never the truth: delete them all and replay gives the same states);
- `seats`: which seat token (its SHA-256, never the token) holds each claimed seat; the host
  token's hash is a column of `tables`;
- `deadlines`: when each table's next timer runs out (derived, so the expiry scheduler finds the
  running timers again after a restart without replaying every table);
- `plays`: the record of each finished game (players, result, dates), derived at the move that
  ends it (an undo of that move removes it again).

The schema is made, or an older one brought up to date (`migrate` below), when the store opens: a
data folder is served by one process at a time (companion/store/datadir.py's lock), so no other writer
can race it, and a new folder just works. (PostgreSQL's, which several workers share, is changed
only by `python -m companion migrate --database URL`: companion/store/postgres.py.)

SQLite settings (companion-practices.md): WAL, synchronous=FULL (a confirmed write survives power
loss), a busy timeout, and BEGIN IMMEDIATE for every read-then-write. Reads use one connection per
thread; writes share one connection and commit in groups (see GroupWrite).
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any, Callable, Iterator

SCHEMA_VERSION = 3

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code       TEXT PRIMARY KEY,
    game       TEXT NOT NULL,
    players    TEXT NOT NULL,           -- JSON list of names
    options    TEXT NOT NULL,           -- JSON object
    seed       NOT NULL,                -- the shuffle's seed: 128 bits, as hex text "x…" (old: an integer)
    created_ms INTEGER NOT NULL,
    host_hash  TEXT,                    -- SHA-256 of the host token (NULL: made before tokens)
    replay     INTEGER NOT NULL DEFAULT 0  -- 1: the creator chose the seed (a known shuffle replayed)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
    code  TEXT NOT NULL REFERENCES tables(code),
    seq   INTEGER NOT NULL,
    kind  TEXT NOT NULL,                -- move | undo | timer | expire
    body  TEXT NOT NULL,                -- JSON object
    at_ms INTEGER NOT NULL,             -- server clock when it was appended
    PRIMARY KEY (code, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS idempotency (
    scope    TEXT NOT NULL,             -- table code ('' for creating a table)
    key      TEXT NOT NULL,
    request  TEXT NOT NULL,             -- fingerprint of method, path and body
    status   INTEGER NOT NULL,
    response TEXT NOT NULL,
    PRIMARY KEY (scope, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (
    code TEXT NOT NULL REFERENCES tables(code),
    seq  INTEGER NOT NULL,
    view TEXT NOT NULL,                 -- JSON of the derived view after event `seq`
    PRIMARY KEY (code, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seats (
    code       TEXT NOT NULL REFERENCES tables(code),
    player     INTEGER NOT NULL,
    token_hash TEXT NOT NULL,           -- SHA-256 of the seat token
    claimed_ms INTEGER NOT NULL,
    PRIMARY KEY (code, player)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS deadlines (
    code   TEXT PRIMARY KEY REFERENCES tables(code),
    due_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS plays (
    code       TEXT PRIMARY KEY REFERENCES tables(code),
    game       TEXT NOT NULL,
    players    TEXT NOT NULL,           -- JSON list of names
    result     TEXT NOT NULL,           -- JSON: the game's result (winners, unit, scores)
    started_ms INTEGER NOT NULL,        -- the first event
    ended_ms   INTEGER NOT NULL,        -- the event that ended the game
    seq        INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS plays_by_end ON plays (ended_ms);
CREATE TRIGGER IF NOT EXISTS events_append_only_u BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_d BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
"""


def migrate(conn: sqlite3.Connection) -> None:
    """Bring a database of an earlier version up to SCHEMA (new tables are made by SCHEMA itself)."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(tables)")}
    if "host_hash" not in columns:      # version 1: tables made before seat tokens
        conn.execute("ALTER TABLE tables ADD COLUMN host_hash TEXT")
    if "replay" not in columns:
        conn.execute("ALTER TABLE tables ADD COLUMN replay INTEGER NOT NULL DEFAULT 0")


@dataclasses.dataclass(frozen=True)
class TableRow:
    code: str
    game: str
    players: list[str]
    options: dict
    seed: int
    created_ms: int
    host_hash: str | None = None
    replay: bool = False


@dataclasses.dataclass(frozen=True)
class PlayRow:
    code: str
    game: str
    players: list[str]
    result: dict
    started_ms: int
    ended_ms: int
    seq: int


@dataclasses.dataclass(frozen=True)
class EventRow:
    seq: int
    kind: str
    body: dict
    at_ms: int


@dataclasses.dataclass(frozen=True)
class Remembered:
    request: str
    status: int
    response: dict
    text: str = ""          # the response as stored (a replay sends the very same bytes)


def _load(text: Any) -> Any:
    """Stored JSON, or a DatabaseError when what is stored cannot be read (a damaged page can hold
    bytes SQLite returns without complaint): the caller answers 503 for that table, never 500."""
    try:
        return json.loads(text)
    except (ValueError, TypeError) as exc:
        raise sqlite3.DatabaseError(f"stored data cannot be read: {exc}") from None


def encoder(**options) -> Callable[[Any], str]:
    """json.JSONEncoder(**options).encode, the same text, with the C encoder that encode makes
    anew on every call made once (encode costs about twice as much for a move's small JSON).
    Plain JSON has no cycles, so the encoder keeps no record of them (a value holding itself would
    raise RecursionError instead of ValueError). Without the C encoder: encode itself."""
    enc = json.JSONEncoder(**options)
    make = json.encoder.c_make_encoder
    if make is None or enc.indent is not None:
        return enc.encode
    once = make(None, enc.default,
                json.encoder.encode_basestring_ascii if enc.ensure_ascii else json.encoder.encode_basestring,
                enc.indent, enc.key_separator, enc.item_separator, enc.sort_keys, enc.skipkeys,
                enc.allow_nan)
    join = "".join

    def encode(value: Any) -> str:
        return join(once(value, 0))
    return encode


#: json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False), its encoder made once
_ENCODE = encoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def dumps(value: Any) -> str:
    return _ENCODE(value)


class Store:
    #: This process is the database's only writer (the data folder's lock): Tables may trust what it
    #: remembers of a table's latest seq, seats and deadline (companion/store/postgres.py's is False).
    single_writer = True

    def __init__(self, path: str | Path, busy_timeout_ms: int = 10_000):
        self.path = str(path)
        self.busy_timeout_ms = busy_timeout_ms
        self._local = threading.local()
        # Writers of this process queue on this lock (not in SQLite's busy handler, which sleeps in
        # growing steps), sharing one connection and committing in groups (GroupWrite).
        self._write_lock = threading.Lock()
        self._cond = threading.Condition()
        self._writer: sqlite3.Connection | None = None
        self._queued = 0          # writers waiting for the lock
        self._waiting = 0         # writers waiting for their group's COMMIT (under _cond)
        self._open = False        # a group transaction is open
        self._batch = 0           # number of the current (or last) group
        self._committed = 0       # the last group whose COMMIT has returned
        self._lost: set[int] = set()
        self.on_lost = None       # called when a group's COMMIT fails (caches must forget it)
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        conn = self._conn()
        conn.executescript(SCHEMA)
        migrate(conn)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    # -- connections -------------------------------------------------------------------------------
    def _connect(self, shared: bool = False) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, timeout=self.busy_timeout_ms / 1000,
                               check_same_thread=not shared)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    def _conn(self) -> sqlite3.Connection:
        """This thread's connection, for reads."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
        return conn

    def close(self) -> None:
        """Close this thread's connection (others close when their thread ends)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def _lose_group(self) -> None:
        """The open group's transaction is gone (rolled back by SQLite): every write of it is lost.
        Its writers are told (CommitFailed, 503), caches forget it, and the next writer begins a new
        group. Called with the write lock held."""
        if self._open:
            self._open = False
            self._lost.add(self._batch)
            if self._writer is not None and self._writer.in_transaction:
                try:
                    self._writer.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            if self.on_lost:
                self.on_lost()
            with self._cond:
                self._committed = self._batch
                self._cond.notify_all()

    def write(self) -> "GroupWrite":
        """One request's read-then-write, in a BEGIN IMMEDIATE transaction, committed (fsync'd)
        before the `with` block is left: `with store.write() as tx: ...`."""
        return GroupWrite(self)

    @contextlib.contextmanager
    def read(self) -> Iterator["Tx"]:
        """A read transaction: every SELECT inside sees the same committed state."""
        conn = self._conn()
        conn.execute("BEGIN")
        try:
            yield Tx(conn)
        finally:
            conn.execute("COMMIT")


class CommitFailed(sqlite3.OperationalError):
    """The group's COMMIT failed: nothing of it was written (the request may be retried)."""


class GroupWrite:
    """Group commit: writers of this process take turns on one connection, each inside a SAVEPOINT
    of a shared BEGIN IMMEDIATE transaction (the writer that begins it needs none); the writer that
    finds nobody waiting behind it commits for all, and every writer leaves only once the COMMIT
    holding its changes has returned. With synchronous=FULL a commit costs an fsync, so one fsync
    for several requests keeps throughput up under concurrency, and nothing is confirmed before it
    is durable. A writer whose block raises rolls back its own writes only (its savepoint, or the
    transaction it began)."""

    def __init__(self, store: "Store"):
        self.s = store
        self.batch = 0
        self.failed = False
        self.opened = False       # this writer began the group's transaction (no savepoint of its own)

    def __enter__(self) -> "Tx":
        s = self.s
        if not s._write_lock.acquire(blocking=False):
            # another writer holds the lock: queue, so that it leaves the group open for us
            with s._cond:
                s._queued += 1
            s._write_lock.acquire()
            with s._cond:
                s._queued -= 1
        try:
            if s._writer is None:
                s._writer = s._connect(shared=True)
            if s._open and not s._writer.in_transaction:
                s._lose_group()      # SQLite ended the group's transaction by itself
            if not s._open:
                s._writer.execute("BEGIN IMMEDIATE")
                s._open = True
                s._batch += 1
                # The group's first writer needs no savepoint: rolling the transaction back undoes
                # its writes and nobody else's (the next writer joins only after it has left).
                self.opened = True
            else:
                s._writer.execute("SAVEPOINT request")
            self.batch = s._batch
        except BaseException:
            self._finish()
            raise
        return Tx(s._writer)

    def __exit__(self, exc_type, exc, tb) -> None:
        s = self.s
        try:
            if exc_type is None:
                if not self.opened:
                    s._writer.execute("RELEASE request")
            else:
                self.failed = True
                self._undo_own()
        finally:
            self._finish()
        if not self.failed:
            if s._committed < self.batch:       # (it only grows: the usual writer committed itself)
                with s._cond:
                    s._waiting += 1
                    try:
                        s._cond.wait_for(lambda: s._committed >= self.batch)
                    finally:
                        s._waiting -= 1
            if self.batch in s._lost:           # (a lost group is marked before it counts as committed)
                raise CommitFailed("the database could not commit; nothing was written")
        # (a failed block's own exception propagates unchanged: the caller sees the real error)

    def _undo_own(self) -> None:
        """Roll back this writer's savepoint. If SQLite has already rolled back the whole group's
        transaction (a full disk, an I/O error), the savepoint is gone and so are the earlier writes
        of the group: they are lost (their writers answer 503) and the next writer starts afresh."""
        s = self.s
        if s._writer.in_transaction:
            try:
                if self.opened:
                    s._writer.execute("ROLLBACK")      # (the group holds nothing but this writer's)
                    s._open = False
                else:
                    s._writer.execute("ROLLBACK TO request")
                    s._writer.execute("RELEASE request")
                return
            except sqlite3.Error:
                pass
        s._lose_group()

    def _finish(self) -> None:
        """Commit the group if nobody is waiting for the lock, then let the next writer in."""
        s = self.s
        try:
            # (read without the condition's lock, as under it: a writer that queues a moment later
            # finds the group committed and begins the next one)
            if s._open and s._queued == 0:
                s._open = False
                try:
                    s._writer.execute("COMMIT")
                except sqlite3.Error:
                    s._lost.add(s._batch)
                    try:
                        s._writer.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass
                    if s.on_lost:
                        s.on_lost()
                with s._cond:
                    s._committed = s._batch
                    if s._waiting:
                        s._cond.notify_all()
        finally:
            s._write_lock.release()


class Tx:
    """The queries, run inside one transaction."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    # tables
    def insert_table(self, row: TableRow) -> None:
        self.conn.execute(
            "INSERT INTO tables (code, game, players, options, seed, created_ms, host_hash, replay) "
            "VALUES (?,?,?,?,?,?,?,?)", (row.code, row.game, dumps(row.players), dumps(row.options),
                                         f"x{row.seed:x}", row.created_ms, row.host_hash, int(row.replay)))

    def table(self, code: str) -> TableRow | None:
        r = self.conn.execute("SELECT code, game, players, options, seed, created_ms, host_hash, replay "
                              "FROM tables WHERE code = ?", (code,)).fetchone()
        if r is None:
            return None
        seed = int(r[4][1:], 16) if isinstance(r[4], str) else r[4]   # (hex: SQLite's integers are 64-bit)
        return TableRow(r[0], r[1], _load(r[2]), _load(r[3]), seed, r[5], r[6], bool(r[7]))

    # seats
    def seats(self, code: str) -> dict[int, str]:
        """Claimed seats: player index -> token hash."""
        return dict(self.conn.execute("SELECT player, token_hash FROM seats WHERE code = ?", (code,)))

    def claim_seat(self, code: str, player: int, token_hash: str, at_ms: int) -> None:
        """Give the seat to a token (replacing the one that held it, whose token is then void)."""
        self.conn.execute("INSERT OR REPLACE INTO seats (code, player, token_hash, claimed_ms) "
                          "VALUES (?,?,?,?)", (code, player, token_hash, at_ms))

    def free_seat(self, code: str, player: int) -> None:
        self.conn.execute("DELETE FROM seats WHERE code = ? AND player = ?", (code, player))

    def lock_table(self, code: str) -> None:
        """Writers of this table wait for each other until COMMIT (BEGIN IMMEDIATE already makes
        every SQLite writer wait: nothing to do)."""

    # timer deadlines (derived)
    def set_deadline(self, code: str, due_ms: int | None) -> None:
        if due_ms is None:
            self.conn.execute("DELETE FROM deadlines WHERE code = ?", (code,))
        else:
            self.conn.execute("INSERT OR REPLACE INTO deadlines (code, due_ms) VALUES (?,?)",
                              (code, due_ms))

    def deadlines(self) -> dict[str, int]:
        return dict(self.conn.execute("SELECT code, due_ms FROM deadlines"))

    # records of finished plays (derived)
    def record_play(self, row: PlayRow | None, code: str) -> None:
        """Keep the record of the game at `code` (None: it is not over, e.g. after an undo)."""
        if row is None:
            self.conn.execute("DELETE FROM plays WHERE code = ?", (code,))
            return
        self.conn.execute("INSERT OR REPLACE INTO plays (code, game, players, result, started_ms, "
                          "ended_ms, seq) VALUES (?,?,?,?,?,?,?)",
                          (row.code, row.game, dumps(row.players), dumps(row.result),
                           row.started_ms, row.ended_ms, row.seq))

    def plays(self, limit: int = 1000, game: str | None = None) -> list[PlayRow]:
        where, args = ("WHERE game = ? ", (game,)) if game else ("", ())
        rows = self.conn.execute("SELECT code, game, players, result, started_ms, ended_ms, seq "
                                 f"FROM plays {where}ORDER BY ended_ms DESC LIMIT ?", (*args, limit))
        return [PlayRow(r[0], r[1], _load(r[2]), _load(r[3]), r[4], r[5], r[6])
                for r in rows]

    def first_event_ms(self, code: str) -> int | None:
        r = self.conn.execute("SELECT at_ms FROM events WHERE code = ? ORDER BY seq LIMIT 1",
                              (code,)).fetchone()
        return r[0] if r else None

    # events
    def seq(self, code: str) -> int:
        return self.conn.execute("SELECT coalesce(max(seq), 0) FROM events WHERE code = ?",
                                 (code,)).fetchone()[0]

    def events(self, code: str, after: int, upto: int | None = None) -> list[EventRow]:
        if upto is None:
            rows = self.conn.execute("SELECT seq, kind, body, at_ms FROM events WHERE code = ? AND "
                                     "seq > ? ORDER BY seq", (code, after))
        else:
            rows = self.conn.execute("SELECT seq, kind, body, at_ms FROM events WHERE code = ? AND "
                                     "seq > ? AND seq <= ? ORDER BY seq", (code, after, upto))
        return [EventRow(s, k, _load(b), t) for s, k, b, t in rows]

    def append(self, code: str, seq: int, kind: str, body: dict | str, at_ms: int) -> None:
        self.conn.execute("INSERT INTO events (code, seq, kind, body, at_ms) VALUES (?,?,?,?,?)",
                          (code, seq, kind, _text(body), at_ms))

    def append_after(self, code: str, after: int, kind: str, body: dict | str, at_ms: int, key: str | None,
                     request: str, response: dict | str, status: int = 200, last: bool = False,
                     seat: tuple[int, str] | None = None) -> tuple[int, Remembered | None] | None:
        """Event `after + 1` appended, and `response` remembered under `key` (when given), if the
        table's seq is `after`, `key` is unused and (`seat`: (player, token hash)) that seat is
        still held by that token: None. Else nothing is written and the answer is the table's seq
        and what `key` remembers (seq_and_remembered). `last`: nothing else follows in this
        transaction (PostgreSQL may then commit it with the statement)."""
        appended = self.conn.execute(
            "INSERT INTO events (code, seq, kind, body, at_ms) SELECT ?, ?, ?, ?, ? WHERE "
            "(SELECT coalesce(max(seq), 0) FROM events WHERE code = ?) = ?" + (
                " AND NOT EXISTS (SELECT 1 FROM idempotency WHERE scope = ? AND key = ?)" if key else "") + (
                " AND EXISTS (SELECT 1 FROM seats WHERE code = ? AND player = ? AND token_hash = ?)"
                if seat else ""),
            (code, after + 1, kind, _text(body), at_ms, code, after, *((code, key) if key else ()),
             *((code, *seat) if seat else ()))).rowcount
        if not appended:
            return self.seq_and_remembered(code, key)
        if key:
            self.remember(code, key, request, status, response)
        return None

    def seq_and_remembered(self, code: str, key: str | None) -> tuple[int, Remembered | None]:
        """The table's seq and what `key` remembers, in one query (a write's first look)."""
        if not key:
            return self.seq(code), None
        r = self.conn.execute(
            "SELECT (SELECT coalesce(max(seq), 0) FROM events WHERE code = ?), i.request, i.status, "
            "i.response FROM (SELECT 1) LEFT JOIN idempotency i ON i.scope = ? AND i.key = ?",
            (code, code, key)).fetchone()
        return r[0], (Remembered(r[1], r[2], _load(r[3]), r[3]) if r[1] is not None else None)

    # idempotency
    def remembered(self, scope: str, key: str) -> Remembered | None:
        r = self.conn.execute("SELECT request, status, response FROM idempotency WHERE scope = ? "
                              "AND key = ?", (scope, key)).fetchone()
        return Remembered(r[0], r[1], _load(r[2]), r[2]) if r else None

    def remember(self, scope: str, key: str, request: str, status: int, response: dict | str) -> None:
        self.conn.execute("INSERT INTO idempotency (scope, key, request, status, response) "
                          "VALUES (?,?,?,?,?)", (scope, key, request, status, _text(response)))

    # snapshots
    def snapshot(self, code: str, upto: int) -> tuple[int, dict] | None:
        r = self.conn.execute("SELECT seq, view FROM snapshots WHERE code = ? AND seq <= ? "
                              "ORDER BY seq DESC LIMIT 1", (code, upto)).fetchone()
        return (r[0], _load(r[1])) if r else None

    def save_snapshot(self, code: str, seq: int, view: dict | str) -> None:
        self.conn.execute("INSERT OR IGNORE INTO snapshots (code, seq, view) VALUES (?,?,?)",
                          (code, seq, _text(view)))


def _text(value: dict | str) -> str:
    """JSON text (callers may serialise before taking the write lock)."""
    return value if isinstance(value, str) else dumps(value)
