"""The event store on PostgreSQL: the hosted companion's (several workers over one database).

The same tables as the SQLite store (companion/store/sqlite.py) and the same Tx queries, so Tables does not
know which one it talks to. What the database itself enforces:
- `events` is append-only (a trigger refuses UPDATE and DELETE) and numbered by PRIMARY KEY (code,
  seq): two workers that both decided event n+1 of a table cannot both append it; the second one's
  INSERT is a unique violation, raised as Duplicate (an sqlite3.IntegrityError, the store
  interface's error), and Tables answers it like any stale expected_seq (409) after looking again;
- an Idempotency-Key is inserted in the same transaction as its event (PRIMARY KEY (scope, key)),
  so a request racing itself through two workers appends once;
- `deadlines` has a lease (`lease_ms`): a worker's expiry scheduler claims due rows with SELECT …
  FOR UPDATE SKIP LOCKED and leases them for LEASE_MS, so each worker takes different timers, and a
  worker killed while delivering leaves a lease that runs out and another worker claims it. The
  expiry itself is appended once whoever delivers it: it is event n+1 like any other.

Every change to what phones see sends NOTIFY on the table's own channel (`channel(code)`, the code
as payload) in the same transaction: PostgreSQL delivers it at COMMIT to the listener of every
worker whose live streams follow that table (companion/live/pg_fanout.py), which wakes them. A seat
taken or freed always notifies. An event notifies only while some worker follows its table: the
trigger `events_notify` (after the foreign key's own check) sends it when the table's `live_until`
lease, which a following worker keeps renewed (`follow`), has not run out. A NOTIFY is not free:
PostgreSQL commits notifying transactions one at a time (a lock held through the WAL flush), and every
listener's backend wakes for each; sent for every move, with no phone anywhere, it cost the database
0.13 ms and serialised the commits. Nothing is missed: a worker LISTENs before it takes the lease,
and takes it with the table's row locked FOR UPDATE, which the foreign-key check of every append
(FOR KEY SHARE) conflicts with. An append that locked the row first commits before the lease does,
so the worker's look after the lease sees it; one that waited for the lease reads it afterwards (the
trigger's query takes a new snapshot) and notifies. A deadline set sends NOTIFY on
DEADLINES, which wakes the workers' timer schedulers (not every change: each look is two queries).

The schema is made or changed only by `python -m companion migrate --database URL` (and, on a fresh
database that holds none of the companion's tables, by the first companion that starts on it: nothing
can be writing to it yet). Every other start only reads the version in `companion_schema` and stops
with one line saying to run `migrate` when it is not SCHEMA_VERSION: a DDL statement on `events`
waits for, and makes wait, every writer, and a worker that dropped and made the trigger again at
start, under write load, deadlocked with the writers.

Connections: a small pool per process (each request borrows one for one transaction). Reads run in
REPEATABLE READ READ ONLY transactions (every SELECT inside sees one committed state, as SQLite's
read transactions do); writes in READ COMMITTED, committed (WAL flushed: synchronous_commit=on)
before the `with` block is left, and begun with their first statement: the usual move is one
statement (PgTx.append_after: the checks, the event, its NOTIFY and the key's answer), committed by
itself, one round trip.

The live streams read many tables at once (`reading_many`): one transaction for all the tables
that changed since the last look, their new events, seats, latest seq and latest snapshot fetched
by three statements sent together, and each table's read served from them. A table read on its
own is about six round trips; with a worker's request threads busy, each round trip also waits for
the interpreter, and a change waited for the reads of the tables queued before its own.
"""
from __future__ import annotations

import contextlib
import re
import select
import sqlite3
import threading
import weakref
from typing import Iterator

import psycopg
from psycopg import errors as pgerrors
from psycopg import pq

from .sqlite import EventRow, PlayRow, Remembered, TableRow, _load, _text, dumps

SCHEMA_VERSION = 4
#: The NOTIFY channel of each table: this and its code (a quoted identifier: the code's case kept).
CHANNEL = "companion_table_"
#: NOTIFY'd with a table's code when its timer deadline is set: the workers' schedulers look again.
DEADLINES = "companion_deadlines"
#: How long a worker's claim on a due timer lasts (ms): after this another worker may deliver it.
LEASE_MS = 5_000
#: Idle connections kept per process: at least as many as its threads may borrow at once (request
#: threads, the live streams' readers, the timer scheduler), else a busy worker closes connections
#: and opens new ones all the time (16 with 32 request threads: 12 a second under a flat-out load).
#: It never opens more than it borrows at once.
POOL_KEEP = 64
READ_ONLY = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"

SCHEMA = """
CREATE TABLE IF NOT EXISTS companion_schema (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    code       TEXT PRIMARY KEY,
    game       TEXT NOT NULL,
    players    TEXT NOT NULL,
    options    TEXT NOT NULL,
    seed       TEXT NOT NULL,               -- "x" and the seed in hex (128 bits)
    created_ms BIGINT NOT NULL,
    host_hash  TEXT,
    replay     BOOLEAN NOT NULL DEFAULT false,
    live_until BIGINT                       -- a worker follows it until then (database clock, ms)
);
ALTER TABLE tables ADD COLUMN IF NOT EXISTS live_until BIGINT;   -- (version 4)
CREATE TABLE IF NOT EXISTS events (
    code  TEXT NOT NULL REFERENCES tables(code),
    seq   INTEGER NOT NULL,
    kind  TEXT NOT NULL,
    body  TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (code, seq)
);
CREATE TABLE IF NOT EXISTS idempotency (
    scope    TEXT NOT NULL,
    key      TEXT NOT NULL,
    request  TEXT NOT NULL,
    status   INTEGER NOT NULL,
    response TEXT NOT NULL,
    PRIMARY KEY (scope, key)
);
CREATE TABLE IF NOT EXISTS snapshots (
    code TEXT NOT NULL REFERENCES tables(code),
    seq  INTEGER NOT NULL,
    view TEXT NOT NULL,
    PRIMARY KEY (code, seq)
);
CREATE TABLE IF NOT EXISTS seats (
    code       TEXT NOT NULL REFERENCES tables(code),
    player     INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    claimed_ms BIGINT NOT NULL,
    PRIMARY KEY (code, player)
);
CREATE TABLE IF NOT EXISTS deadlines (
    code     TEXT PRIMARY KEY REFERENCES tables(code),
    due_ms   BIGINT NOT NULL,
    lease_ms BIGINT                          -- a worker is delivering it until then (NULL: nobody)
);
CREATE INDEX IF NOT EXISTS deadlines_by_due ON deadlines (due_ms);
CREATE TABLE IF NOT EXISTS plays (
    code       TEXT PRIMARY KEY REFERENCES tables(code),
    game       TEXT NOT NULL,
    players    TEXT NOT NULL,
    result     TEXT NOT NULL,
    started_ms BIGINT NOT NULL,
    ended_ms   BIGINT NOT NULL,
    seq        INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS plays_by_end ON plays (ended_ms);
CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS
    $$ BEGIN RAISE EXCEPTION 'events are append-only'; END $$;
CREATE OR REPLACE FUNCTION events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM tables WHERE code = NEW.code AND live_until > %(now)s) THEN
        PERFORM pg_notify(%(channel)s || NEW.code, NEW.code);
    END IF;
    RETURN NULL;
END $$;
"""
#: The database's clock in ms (what a follower's lease is counted in: the workers' clocks may differ).
NOW_MS = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"
SCHEMA = SCHEMA.replace("%(now)s", NOW_MS).replace("%(channel)s", "'" + CHANNEL + "'")
#: Made only where missing (never dropped and made again: DDL on `events` takes a lock every writer
#: waits behind, and a worker that did it at start deadlocked with the writers), by name. The
#: notifying one's name sorts after the foreign key's "RI_ConstraintTrigger_c_…", so it runs after
#: that check has locked the table's row (triggers of one event fire in the order of their names).
TRIGGERS = {
    "events_append_only": "CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events "
                          "FOR EACH ROW EXECUTE FUNCTION events_append_only()",
    "events_notify": "CREATE TRIGGER events_notify AFTER INSERT ON events "
                     "FOR EACH ROW EXECUTE FUNCTION events_notify()",
}
#: How long a follower's lease on a table lasts (ms); the listener renews it a third of this early.
FOLLOW_MS = 600_000
#: Several companions making or changing one database's schema at once take turns on this lock.
SCHEMA_LOCK = 7407131

#: Every table of the schema, parents first (what `migrate` copies and `--replace` empties).
TABLES = ("tables", "events", "idempotency", "snapshots", "seats", "deadlines", "plays")


def channel(code: str) -> str:
    """The NOTIFY channel of table `code` (a worker LISTENs on those its phones follow)."""
    return CHANNEL + code


def follow(conn: psycopg.Connection, codes: list[str], lease_ms: int = FOLLOW_MS) -> None:
    """Events appended to the tables `codes` notify for `lease_ms` from now (the database's clock):
    their rows locked FOR UPDATE, so every append that had locked one first (its foreign-key check)
    has committed when this returns, and every later one sees the lease (the module's docstring).
    `conn` in autocommit: one statement, its own transaction. LISTEN before this, look after it."""
    conn.execute(f"WITH held AS (SELECT code FROM tables WHERE code = ANY(%s) FOR UPDATE) "
                 f"UPDATE tables SET live_until = {NOW_MS} + %s FROM held WHERE tables.code = held.code",
                 (list(codes), lease_ms))


class Duplicate(sqlite3.IntegrityError):
    """A unique key is taken: the event (code, seq) another worker appended first, or a key."""


class Unavailable(sqlite3.OperationalError):
    """The database cannot be reached or refused the transaction; nothing was written (a 503)."""


class Damaged(sqlite3.DatabaseError):
    """Stored data the database returns but that cannot be used."""


class SchemaProblem(sqlite3.DatabaseError):
    """The database's schema is not the one this companion serves (behind: `migrate` brings it up
    to date; ahead: a newer companion made it); `str()` is one line saying what to do."""


# -- the schema: made or changed by `migrate` (and on a fresh database by the first start), only
#    checked by a worker's start --------------------------------------------------------------------

def schema_version(conn: psycopg.Connection) -> int | None:
    """The companion schema's version in this database: None for a database without any of its
    tables (fresh), 0 for tables without a recorded version. Reads only (no lock a writer waits on)."""
    made, tables = conn.execute("SELECT to_regclass('companion_schema') IS NOT NULL, "
                                "to_regclass('tables') IS NOT NULL").fetchone()
    if not made:
        return 0 if tables else None
    version = conn.execute("SELECT max(version) FROM companion_schema").fetchone()[0]
    return version or 0


def _bring_up_to_date(conn: psycopg.Connection) -> None:
    """Make what is missing of SCHEMA and record SCHEMA_VERSION (inside the caller's transaction,
    which holds SCHEMA_LOCK)."""
    conn.execute(SCHEMA)
    made = {name for name, in conn.execute("SELECT tgname FROM pg_trigger WHERE tgrelid = 'events'::regclass")}
    for name, statement in TRIGGERS.items():
        if name not in made:
            conn.execute(statement)
    conn.execute("DELETE FROM companion_schema")
    conn.execute("INSERT INTO companion_schema (version) VALUES (%s)", (SCHEMA_VERSION,))


def _problem(url: str, version: int | None) -> SchemaProblem:
    where = shown(url)
    if version is None:
        return SchemaProblem(f"the database {where} has no companion tables yet: make them with "
                             "`python -m companion migrate --database URL` (the same URL), then start "
                             "the workers")
    if version > SCHEMA_VERSION:
        return SchemaProblem(f"the database {where} has schema version {version}, made by a newer "
                             f"companion; this one serves version {SCHEMA_VERSION}: start the newer "
                             "companion's code")
    return SchemaProblem(f"the database {where} has schema version {version} and this companion needs "
                         f"{SCHEMA_VERSION}: run `python -m companion migrate --database URL` (the same "
                         "URL) once, then start the workers")


def migrate_schema(url: str, connect_timeout: int = 10, fresh_only: bool = False) -> tuple[int | None, int]:
    """Make the schema of the database at `url`, or bring an older one up to date; returns (the
    version before, the version now). A database already at SCHEMA_VERSION is not touched (no
    statement that takes a lock). Several callers at once take turns (SCHEMA_LOCK); a schema of a
    newer companion is a SchemaProblem. `fresh_only`: change nothing but a fresh database (the
    first start of a companion on an empty database: nothing can be writing to it yet); an older
    schema is then a SchemaProblem saying to run `migrate`."""
    with _translated(), psycopg.connect(url, autocommit=True, connect_timeout=connect_timeout,
                                        application_name="tokyo-companion migrate") as conn:
        before = schema_version(conn)
        if before == SCHEMA_VERSION:
            return before, before
        if before is not None and (before > SCHEMA_VERSION or fresh_only):
            raise _problem(url, before)
        conn.execute("BEGIN")
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        before = schema_version(conn)          # (another companion may have made it meanwhile)
        if before != SCHEMA_VERSION:
            if before is not None and (before > SCHEMA_VERSION or fresh_only):
                conn.execute("ROLLBACK")
                raise _problem(url, before)
            _bring_up_to_date(conn)
        conn.execute("COMMIT")
    return before, SCHEMA_VERSION


def _closed_by_server(conn: psycopg.Connection) -> bool:
    """Whether an idle connection has something to read: the server closing it (a restart, a
    terminated backend) says so and hangs up; a connection that is well has nothing to say until
    it is asked. Looked at without a round trip (the first statement of a write is the write)."""
    try:
        poller = select.poll()            # (not select.select: a busy worker's sockets pass fd 1024)
        poller.register(conn.fileno(), select.POLLIN)
        return bool(poller.poll(0))
    except (OSError, ValueError, psycopg.Error):
        return True


def is_url(text: str | None) -> bool:
    return bool(text) and text.split("://", 1)[0] in ("postgresql", "postgres")


@contextlib.contextmanager
def _translated() -> Iterator[None]:
    """psycopg's errors as the store interface's (sqlite3's classes, which errors.py answers)."""
    try:
        yield
    except pgerrors.UniqueViolation as exc:
        raise Duplicate(str(exc).splitlines()[0]) from None
    except (psycopg.OperationalError, pgerrors.SerializationFailure, pgerrors.DeadlockDetected,
            pgerrors.QueryCanceled, pgerrors.AdminShutdown) as exc:
        # (the message says "busy" so errors.py answers 503, a passing trouble, not damage)
        raise Unavailable("the database is busy or unreachable: "
                          f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None


class PgStore:
    """The store interface over PostgreSQL (see module doc)."""

    #: Other processes write too: a process's memory of a table's latest seq proves nothing.
    single_writer = False
    #: A start on a fresh database (none of the companion's tables) makes the schema: nothing can be
    #: writing to it yet. The forked workers of `--workers N` set it False: their parent made or
    #: checked the schema before starting them, and a worker's start only checks the version.
    makes_fresh_schema = True

    def __init__(self, url: str, connect_timeout: int = 10):
        self.url = url
        self.connect_timeout = connect_timeout
        self.on_lost = None              # (the interface's: PostgreSQL commits or raises, never loses)
        self._idle: list[psycopg.Connection] = []
        self._lock = threading.Lock()
        self._batch = threading.local()      # .tx: the reading_many of this thread, if any
        self._closed = False
        with _translated(), self._borrow() as conn:
            version = schema_version(conn)       # a start only looks: no DDL, no lock on a table
        if version != SCHEMA_VERSION:
            if version is not None or not self.makes_fresh_schema:
                raise _problem(url, version)
            migrate_schema(url, connect_timeout, fresh_only=True)

    # -- connections -------------------------------------------------------------------------------
    def connect(self) -> psycopg.Connection:
        return psycopg.connect(self.url, autocommit=True, connect_timeout=self.connect_timeout,
                               application_name="tokyo-companion")

    @contextlib.contextmanager
    def _borrow(self, begin: str | None = None) -> Iterator[psycopg.Connection]:
        """A connection of the pool (a new one if none is idle), in a transaction begun by `begin`."""
        with self._lock:
            conn = self._idle.pop() if self._idle else None
        if conn is not None and begin:
            try:
                conn.execute(begin)
            except psycopg.OperationalError:     # the server closed it meanwhile (a restart): anew
                conn.close()
                conn = None
        if conn is None or conn.closed:
            conn = self.connect()
            if begin:
                conn.execute(begin)
        ok = False
        try:
            yield conn
            ok = True
        finally:
            self._give_back(conn, ok)

    @contextlib.contextmanager
    def _lend(self) -> Iterator["_Lent"]:
        """A connection of the pool (a new one if none is idle) with no transaction begun, as a
        _Lent: its first statement goes through `first`, which replaces a pooled connection the
        server closed meanwhile (what _borrow's BEGIN finds out, without the round trip)."""
        with self._lock:
            conn = self._idle.pop() if self._idle else None
        if conn is not None and _closed_by_server(conn):
            conn.close()
            conn = None
        lent = _Lent(self, conn)
        ok = False
        try:
            yield lent
            ok = True
        finally:
            self._give_back(lent.conn, ok)

    def _give_back(self, conn: psycopg.Connection, ok: bool) -> None:
        """Back to the pool when it is well and idle; else closed."""
        if ok and not conn.closed and conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
            with self._lock:
                if len(self._idle) < POOL_KEEP and not self._closed:
                    self._idle.append(conn)
                    return
        conn.close()

    def close(self) -> None:
        """Close the idle connections (those lent out close when given back)."""
        with self._lock:
            idle, self._idle, self._closed = self._idle, [], True
        for conn in idle:
            conn.close()

    # -- transactions ------------------------------------------------------------------------------
    @contextlib.contextmanager
    def read(self) -> Iterator["PgTx"]:
        batch = getattr(self._batch, "tx", None)
        if batch is not None and batch.usable():
            with _translated():
                yield batch                      # (inside reading_many: its transaction)
            return
        with _translated(), self._borrow(READ_ONLY) as conn:
            try:
                yield PgTx(conn)
            finally:
                if not conn.closed:
                    conn.execute("ROLLBACK")

    @contextlib.contextmanager
    def reading_many(self, wants: dict[str, int]) -> Iterator[None]:
        """Every `read()` of this thread inside the block is one REPEATABLE READ transaction, which
        already holds, for each table `code` of `wants`, its events after `wants[code]`, its seats,
        its latest seq and its latest snapshot's seq (three statements, one round trip). What it
        does not hold (another table, older events, a snapshot's view) it reads in the same
        transaction. A statement that fails there ends it: the reads after it run on their own."""
        with _translated(), self._borrow(READ_ONLY) as conn:
            try:
                self._batch.tx = Prefetched(conn, wants)
                yield
            finally:
                self._batch.tx = None
                if not conn.closed:
                    conn.execute("ROLLBACK")

    @contextlib.contextmanager
    def write(self) -> Iterator["PgTx"]:
        """One request's read-then-write, committed before the `with` block is left; an exception
        inside rolls all of it back and propagates (psycopg's translated, the rest unchanged). The
        transaction begins with its first statement (PgTx), so a write that is one statement
        (append_after with last=True) is that statement alone, committed by itself: one round trip."""
        with _translated(), self._lend() as lent:
            tx = PgTx(lent.conn, begin="BEGIN", lent=lent)
            try:
                yield tx
            except BaseException:
                if not lent.conn.closed and tx.begun:
                    with contextlib.suppress(psycopg.Error):
                        lent.conn.execute("ROLLBACK")
                raise
            if tx.begun:
                lent.conn.execute("COMMIT")

    def latest(self, code: str) -> tuple[int, dict[int, str]]:
        """Table `code`'s latest seq and its seats (player -> token hash), in one statement (one
        snapshot, no transaction to begin and end): what a read of a table this process holds needs."""
        with _translated(), self._lend() as lent:
            seq, seats = lent.first(
                "SELECT (SELECT coalesce(max(seq), 0) FROM events WHERE code = %s), (SELECT "
                "coalesce(json_agg(json_build_array(player, token_hash)), '[]') FROM seats WHERE code = %s)",
                (code, code)).fetchone()
        return seq, {player: held for player, held in seats}

    # -- timer deadlines, for the expiry scheduler of several workers ------------------------------
    def claim_due(self, now_ms: int, limit: int = 32, lease_ms: int = LEASE_MS) -> list[str]:
        """The tables whose deadline has passed and that no live worker is delivering, leased to
        this one for `lease_ms` (rows another worker holds locked right now are skipped)."""
        with _translated(), self._borrow() as conn:
            rows = conn.execute(
                "UPDATE deadlines SET lease_ms = %s WHERE code IN (SELECT code FROM deadlines "
                "WHERE due_ms <= %s AND (lease_ms IS NULL OR lease_ms <= %s) ORDER BY due_ms "
                "LIMIT %s FOR UPDATE SKIP LOCKED) RETURNING code",
                (now_ms + lease_ms, now_ms, now_ms, limit)).fetchall()
        return [r[0] for r in rows]

    def next_due(self) -> int | None:
        """The earliest deadline of any table, or the end of a lease that hides a passed one."""
        with _translated(), self._borrow() as conn:
            r = conn.execute("SELECT min(CASE WHEN lease_ms IS NOT NULL AND lease_ms > due_ms "
                             "THEN lease_ms ELSE due_ms END) FROM deadlines").fetchone()
        return r[0]


class _Lent:
    """A connection lent by PgStore._lend, and whether its next statement is the first on a
    connection taken from the pool."""

    def __init__(self, store: PgStore, conn: psycopg.Connection | None):
        self.store = store
        self.pooled = conn is not None
        self.conn = conn if conn is not None else store.connect()

    def first(self, sql, params=None) -> psycopg.Cursor:
        """The first statement: on a pooled connection the server has closed meanwhile (a restart,
        a terminated backend; its hang-up may arrive just after _lend looked) it is sent again on a
        new connection. A backend told to end runs no statement sent to it after that, and a move
        sent again is checked again (its seq and its key): nothing is appended twice."""
        return self._again(lambda conn: conn.execute(sql, params))

    def first_prepared(self, statement: "Prepared", values: dict) -> list[bytes | None]:
        """`first`, for a statement run through libpq (Prepared.run)."""
        return self._again(lambda conn: statement.run(conn, values))

    def _again(self, run):
        try:
            return run(self.conn)
        except psycopg.OperationalError:
            if not (self.pooled and self.conn.closed):
                raise
            self.conn.close()
            self.conn = self.store.connect()
            return run(self.conn)
        finally:
            self.pooled = False


class Prepared:
    """A statement of the hot path run straight through libpq, prepared once on each connection
    (autocommit: it is its own transaction). psycopg's cursor path (its placeholders converted, each
    parameter adapted, the result wrapped) cost 55 µs of CPU more per move, and it lets go of the
    interpreter lock and takes it back three or four times per statement, each a chance for another
    thread to take it for a while; libpq's PQexecPrepared does it once. Parameters are sent as text
    (None: NULL) and their types left to the server, which infers them from the statement;
    `run` gives the first row's values as text (bytes, None: NULL). Errors are psycopg's own."""

    _on: "weakref.WeakKeyDictionary[psycopg.Connection, set[bytes]]" = weakref.WeakKeyDictionary()

    def __init__(self, name: str, sql: str):
        self.names: list[str] = []

        def number(match: re.Match) -> str:
            if match.group(1) not in self.names:
                self.names.append(match.group(1))
            return f"${self.names.index(match.group(1)) + 1}"
        self.name = name.encode()
        self.sql = re.sub(r"%\((\w+)\)s", number, sql).encode()

    def run(self, conn: psycopg.Connection, values: dict) -> list[bytes | None]:
        pg = conn.pgconn
        params = [None if (v := values[n]) is None else (v if isinstance(v, str) else str(v)).encode()
                  for n in self.names]
        prepared = self._on.setdefault(conn, set())
        if self.name not in prepared:
            self._check(conn, pg.prepare(self.name, self.sql))
            prepared.add(self.name)
        result = pg.exec_prepared(self.name, params)
        if result.status == pq.ExecStatus.FATAL_ERROR and \
                result.error_field(pq.DiagnosticField.SQLSTATE) == b"26000":
            # the server forgot it (a pooler in between may DISCARD ALL): once more, prepared anew
            self._check(conn, pg.prepare(self.name, self.sql))
            result = pg.exec_prepared(self.name, params)
        self._check(conn, result)
        return [result.get_value(0, i) for i in range(result.nfields)] if result.ntuples else []

    @staticmethod
    def _check(conn: psycopg.Connection, result) -> None:
        if result.status in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK):
            return
        if conn.closed:
            raise psycopg.OperationalError(conn.pgconn.error_message.decode("utf-8", "replace").strip()
                                           or "the connection was closed")
        raise pgerrors.error_from_result(result, encoding="utf-8")


class PgTx:
    """The queries of companion.store.sqlite.Tx, in PostgreSQL's words.

    `begin`: the transaction is begun (that statement) only before the first query that needs it,
    so a write that turns out to be one statement needs no BEGIN and no COMMIT."""

    def __init__(self, conn: psycopg.Connection, begin: str | None = None, lent: _Lent | None = None):
        self._conn = conn
        self._begin = begin
        self._lent = lent
        self.begun = False

    def _first(self, sql, params=None) -> psycopg.Cursor:
        """The transaction's first statement (through _Lent.first when the connection was lent)."""
        if self._lent is None:
            return self._conn.execute(sql, params)
        cursor = self._lent.first(sql, params)
        self._conn = self._lent.conn
        return cursor

    @property
    def conn(self) -> psycopg.Connection:
        """The connection, inside the transaction (begun now if it was not yet)."""
        if self._begin is not None and not self.begun:
            self._first(self._begin)
            self.begun = True
        return self._conn

    def _one(self, sql: str, args=()):
        return self.conn.execute(sql, args).fetchone()

    def _changed(self, code: str) -> None:
        """Phones of `code` should look again: NOTIFY, delivered to every worker at COMMIT."""
        self.conn.execute("SELECT pg_notify(%s, %s)", (channel(code), code))

    # tables
    def insert_table(self, row: TableRow) -> None:
        self.conn.execute(
            "INSERT INTO tables (code, game, players, options, seed, created_ms, host_hash, replay) "
            "VALUES (%s,%s,%s,%s,%s,%s,%s,%s)",
            (row.code, row.game, dumps(row.players), dumps(row.options), f"x{row.seed:x}",
             row.created_ms, row.host_hash, bool(row.replay)))

    def table(self, code: str) -> TableRow | None:
        r = self._one("SELECT code, game, players, options, seed, created_ms, host_hash, replay "
                      "FROM tables WHERE code = %s", (code,))
        if r is None:
            return None
        try:
            seed = int(r[4][1:], 16)
        except (TypeError, ValueError):
            raise Damaged(f"the seed of table {code} cannot be read") from None
        return TableRow(r[0], r[1], _load(r[2]), _load(r[3]), seed, r[5], r[6], bool(r[7]))

    # seats
    def seats(self, code: str) -> dict[int, str]:
        return dict(self.conn.execute("SELECT player, token_hash FROM seats WHERE code = %s",
                                      (code,)).fetchall())

    def claim_seat(self, code: str, player: int, token_hash: str, at_ms: int) -> None:
        self.conn.execute("INSERT INTO seats (code, player, token_hash, claimed_ms) VALUES (%s,%s,%s,%s) "
                          "ON CONFLICT (code, player) DO UPDATE SET token_hash = excluded.token_hash, "
                          "claimed_ms = excluded.claimed_ms", (code, player, token_hash, at_ms))
        self._changed(code)

    def free_seat(self, code: str, player: int) -> None:
        self.conn.execute("DELETE FROM seats WHERE code = %s AND player = %s", (code, player))
        self._changed(code)

    def lock_table(self, code: str) -> None:
        """Writers of this table (its seats, its racing moves) wait for each other (across workers)
        until COMMIT. NO KEY UPDATE, not UPDATE: an insert's foreign-key check (KEY SHARE on this
        row) does not wait for it, so a writer that inserted first and checks its key afterwards
        cannot deadlock with the one holding this lock and waiting on that insert's seq."""
        self.conn.execute("SELECT 1 FROM tables WHERE code = %s FOR NO KEY UPDATE", (code,))

    # timer deadlines (derived)
    def set_deadline(self, code: str, due_ms: int | None) -> None:
        if due_ms is None:
            self.conn.execute("DELETE FROM deadlines WHERE code = %s", (code,))
        else:
            self.conn.execute("INSERT INTO deadlines (code, due_ms) VALUES (%s,%s) ON CONFLICT (code) "
                              "DO UPDATE SET due_ms = excluded.due_ms, lease_ms = NULL", (code, due_ms))
            self.conn.execute("SELECT pg_notify(%s, %s)", (DEADLINES, code))

    def deadlines(self) -> dict[str, int]:
        return dict(self.conn.execute("SELECT code, due_ms FROM deadlines").fetchall())

    # records of finished plays (derived)
    def record_play(self, row: PlayRow | None, code: str) -> None:
        if row is None:
            self.conn.execute("DELETE FROM plays WHERE code = %s", (code,))
            return
        self.conn.execute(
            "INSERT INTO plays (code, game, players, result, started_ms, ended_ms, seq) "
            "VALUES (%s,%s,%s,%s,%s,%s,%s) ON CONFLICT (code) DO UPDATE SET game = excluded.game, "
            "players = excluded.players, result = excluded.result, started_ms = excluded.started_ms, "
            "ended_ms = excluded.ended_ms, seq = excluded.seq",
            (row.code, row.game, dumps(row.players), dumps(row.result), row.started_ms, row.ended_ms,
             row.seq))

    def plays(self, limit: int = 1000, game: str | None = None) -> list[PlayRow]:
        where, args = ("WHERE game = %s ", (game,)) if game else ("", ())
        rows = self.conn.execute("SELECT code, game, players, result, started_ms, ended_ms, seq "
                                 f"FROM plays {where}ORDER BY ended_ms DESC LIMIT %s", (*args, limit))
        return [PlayRow(r[0], r[1], _load(r[2]), _load(r[3]), r[4], r[5], r[6]) for r in rows]

    def first_event_ms(self, code: str) -> int | None:
        r = self._one("SELECT at_ms FROM events WHERE code = %s ORDER BY seq LIMIT 1", (code,))
        return r[0] if r else None

    # events
    def seq(self, code: str) -> int:
        return self._one("SELECT coalesce(max(seq), 0) FROM events WHERE code = %s", (code,))[0]

    def events(self, code: str, after: int, upto: int | None = None) -> list[EventRow]:
        if upto is None:
            rows = self.conn.execute("SELECT seq, kind, body, at_ms FROM events WHERE code = %s AND "
                                     "seq > %s ORDER BY seq", (code, after))
        else:
            rows = self.conn.execute("SELECT seq, kind, body, at_ms FROM events WHERE code = %s AND "
                                     "seq > %s AND seq <= %s ORDER BY seq", (code, after, upto))
        return [EventRow(s, k, _load(b), t) for s, k, b, t in rows]

    def append(self, code: str, seq: int, kind: str, body: dict | str, at_ms: int) -> None:
        # (its NOTIFY, when a worker follows the table: the trigger events_notify)
        self.conn.execute("INSERT INTO events (code, seq, kind, body, at_ms) VALUES (%s,%s,%s,%s,%s)",
                          (code, seq, kind, _text(body), at_ms))

    def append_after(self, code: str, after: int, kind: str, body: dict | str, at_ms: int, key: str | None,
                     request: str, response: dict | str, status: int = 200, last: bool = False,
                     seat: tuple[int, str] | None = None) -> tuple[int, Remembered | None] | None:
        """companion.store.sqlite.Tx.append_after in one statement: the seq and key checks, the event
        (and its NOTIFY, by the trigger events_notify) and the remembered response. The unique keys
        still refuse a racing worker's event or key (Duplicate). `last` and no statement before it in
        this write: the statement runs on its own, committed by itself (autocommit), one round trip
        in all, through libpq (Prepared)."""
        values = {"code": code, "after": after, "seq": after + 1, "kind": kind, "body": _text(body),
                  "at": at_ms, "key": key, "request": request, "status": status,
                  "response": _text(response) if key else None,
                  "player": seat[0] if seat else None, "held": seat[1] if seat else None}
        if last and not self.begun and self._lent is not None:
            # the usual move: this statement alone, its own transaction, through libpq (Prepared)
            seq, request, status, response, appended = self._lent.first_prepared(
                _APPEND_PREPARED[bool(key), bool(seat)], values)
            self._conn = self._lent.conn
            row = (int(seq), None if request is None else request.decode(),
                   None if status is None else int(status), None if response is None else response.decode(),
                   appended)
        else:
            run = self._first if last and not self.begun else self.conn.execute
            row = run(_APPEND[bool(key), bool(seat)], values).fetchone()
        if row[4]:
            return None
        return row[0], (Remembered(row[1], row[2], _load(row[3]), row[3]) if row[1] is not None else None)

    def seq_and_remembered(self, code: str, key: str | None) -> tuple[int, Remembered | None]:
        if not key:
            return self.seq(code), None
        r = self._one(
            "SELECT (SELECT coalesce(max(seq), 0) FROM events WHERE code = %s), i.request, i.status, "
            "i.response FROM (SELECT 1) AS one LEFT JOIN idempotency i ON i.scope = %s AND i.key = %s",
            (code, code, key))
        return r[0], (Remembered(r[1], r[2], _load(r[3]), r[3]) if r[1] is not None else None)

    # idempotency
    def remembered(self, scope: str, key: str) -> Remembered | None:
        r = self._one("SELECT request, status, response FROM idempotency WHERE scope = %s AND key = %s",
                      (scope, key))
        return Remembered(r[0], r[1], _load(r[2]), r[2]) if r else None

    def remember(self, scope: str, key: str, request: str, status: int, response: dict | str) -> None:
        self.conn.execute("INSERT INTO idempotency (scope, key, request, status, response) "
                          "VALUES (%s,%s,%s,%s,%s)", (scope, key, request, status, _text(response)))

    # snapshots
    def snapshot(self, code: str, upto: int) -> tuple[int, dict] | None:
        r = self._one("SELECT seq, view FROM snapshots WHERE code = %s AND seq <= %s "
                      "ORDER BY seq DESC LIMIT 1", (code, upto))
        return (r[0], _load(r[1])) if r else None

    def save_snapshot(self, code: str, seq: int, view: dict | str) -> None:
        self.conn.execute("INSERT INTO snapshots (code, seq, view) VALUES (%s,%s,%s) "
                          "ON CONFLICT DO NOTHING", (code, seq, _text(view)))


#: PgTx.append_after: event `after + 1` if the table is at `after` (and the key is unused, and the seat
#: still held by that token) and the response remembered, in one statement. Its row: the
#: table's seq, what the key remembers (request, status, response; NULLs if nothing) and whether the
#: event was appended (1, else NULL). By (with a key, with a seat).
_APPEND: dict[tuple[bool, bool], str] = {}
for _keyed in (False, True):
    for _seated in (False, True):
        _APPEND[_keyed, _seated] = f"""
WITH cur AS (SELECT coalesce(max(seq), 0) AS seq FROM events WHERE code = %(code)s),
hit AS (SELECT request, status, response FROM idempotency WHERE scope = %(code)s AND key = %(key)s{
            "" if _keyed else " AND false"}),
ev AS (INSERT INTO events (code, seq, kind, body, at_ms)
       SELECT %(code)s, %(seq)s, %(kind)s, %(body)s, %(at)s FROM cur
       WHERE cur.seq = %(after)s AND NOT EXISTS (SELECT 1 FROM hit){
            " AND EXISTS (SELECT 1 FROM seats WHERE code = %(code)s AND player = %(player)s AND token_hash = %(held)s)"
            if _seated else ""} RETURNING code){
            ", kept AS (INSERT INTO idempotency (scope, key, request, status, response) "
            "SELECT code, %(key)s, %(request)s, %(status)s, %(response)s FROM ev)" if _keyed else ""}
SELECT cur.seq, hit.request, hit.status, hit.response,
       (SELECT 1 FROM ev)
FROM cur LEFT JOIN hit ON true"""

_APPEND_PREPARED = {variant: Prepared(f"companion_append_{int(variant[0])}{int(variant[1])}", text)
                    for variant, text in _APPEND.items()}


class Prefetched(PgTx):
    """A read transaction that fetched several tables' news at its start (PgStore.reading_many)."""

    def __init__(self, conn: psycopg.Connection, wants: dict[str, int]):
        super().__init__(conn)
        codes = list(wants)
        self._after = dict(wants)
        with conn.pipeline():
            news = conn.execute(
                "SELECT e.code, e.seq, e.kind, e.body, e.at_ms FROM unnest(%s::text[], %s::int[]) "
                "AS w(code, after) JOIN events e ON e.code = w.code AND e.seq > w.after "
                "ORDER BY e.code, e.seq", (codes, [wants[c] for c in codes]))
            heads = conn.execute(
                "SELECT w.code, (SELECT coalesce(max(seq), 0) FROM events e WHERE e.code = w.code), "
                "(SELECT max(seq) FROM snapshots s WHERE s.code = w.code) "
                "FROM unnest(%s::text[]) AS w(code)", (codes,))
            seats = conn.execute("SELECT code, player, token_hash FROM seats WHERE code = ANY(%s)",
                                 (codes,))
        self._rows: dict[str, list[EventRow]] = {c: [] for c in codes}
        for code, seq, kind, body, at_ms in news.fetchall():
            self._rows[code].append(EventRow(seq, kind, _load(body), at_ms))
        self._seq: dict[str, int] = {}
        self._snapshot: dict[str, int | None] = {}
        for code, seq, snapshot in heads.fetchall():
            self._seq[code], self._snapshot[code] = seq, snapshot
        self._seats: dict[str, dict[int, str]] = {c: {} for c in codes}
        for code, player, held in seats.fetchall():
            self._seats[code][player] = held

    def usable(self) -> bool:
        return (not self.conn.closed
                and self.conn.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS)

    def seq(self, code: str) -> int:
        return self._seq[code] if code in self._seq else super().seq(code)

    def seats(self, code: str) -> dict[int, str]:
        return dict(self._seats[code]) if code in self._seats else super().seats(code)

    def events(self, code: str, after: int, upto: int | None = None) -> list[EventRow]:
        if upto is not None and upto <= after:
            return []
        if code not in self._rows or after < self._after[code]:
            return super().events(code, after, upto)
        return [e for e in self._rows[code] if e.seq > after and (upto is None or e.seq <= upto)]

    def snapshot(self, code: str, upto: int) -> tuple[int, dict] | None:
        if code not in self._snapshot:
            return super().snapshot(code, upto)
        latest = self._snapshot[code]
        if latest is None:
            return None
        if latest > upto:
            return super().snapshot(code, upto)
        return latest, _SnapshotView(self.conn, code, latest)


class _SnapshotView(dict):
    """A snapshot's view, read from the database only when it is used (the table's view is usually
    in the process's memory already, newer than its latest snapshot)."""

    def __init__(self, conn: psycopg.Connection, code: str, seq: int):
        super().__init__()
        self._where = conn, code, seq

    def __missing__(self, key):
        conn, code, seq = self._where
        with _translated():
            r = conn.execute("SELECT view FROM snapshots WHERE code = %s AND seq = %s",
                             (code, seq)).fetchone()
        if r is None:
            raise Damaged(f"the snapshot {seq} of table {code} is gone")
        self.update(_load(r[0]))
        return dict.__getitem__(self, key)


def shown(url: str) -> str:
    """The URL with its password hidden (for messages and logs)."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "the database"
    return (f"postgresql://{info.get('user', '')}@{info.get('host', 'localhost')}"
            f"{':' + str(info['port']) if info.get('port') else ''}/{info.get('dbname', '')}")
