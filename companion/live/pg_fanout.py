"""Changes from the other workers: a thread per worker that LISTENs on PostgreSQL.

Every table has its own NOTIFY channel (pgstore.channel(code), the code as payload), and a worker
LISTENs only on those of the tables its live streams follow (`followed()`, the Hub's), so a write
wakes the listeners of the workers with a phone on that table and no others. An event notifies only
while some worker holds a lease on its table (pgstore.follow; the trigger events_notify), so a move
at a table nobody follows sends no NOTIFY at all (with one channel for every table and a NOTIFY per
move, under a flat-out load of moves on 2 workers with no phone anywhere, each worker's listener woke
for every move of every table, and the notifying commits went one at a time).

`poke()` says the set changed: the thread LISTENs on each newly followed table, then takes its lease
(renewed every third of pgstore.FOLLOW_MS while followed), then calls `on_change(code)`: a change
committed before the lease was in place is then seen by the stream's look, one after it is notified
(postgres.py's docstring says why nothing falls between). Tables no longer followed are UNLISTENed;
their leases run out by themselves (another worker may follow them too).

For each notification the listener calls `on_change(code)`, which wakes this worker's live streams
of that table; a timer deadline set (NOTIFY on pgstore.DEADLINES) calls `on_deadline()`, which wakes
its timer scheduler. No table is polled. When the connection drops, it reconnects (with a growing
pause, at most 5 s), listens again on every followed table, takes their leases and calls
`on_change(None)` and `on_deadline()` once: changes may have been missed meanwhile, so everything
should look again. When the database itself is gone (dropped), it stops and calls `on_gone()`.
"""
from __future__ import annotations

import logging
import os
import selectors
import threading
import time
from typing import Callable

import psycopg
from psycopg import sql

from ..store.postgres import DEADLINES, FOLLOW_MS, channel, follow

log = logging.getLogger(__name__)


class Listener:
    def __init__(self, url: str, on_change: Callable[[str | None], None],
                 on_gone: Callable[[], None] | None = None,
                 on_deadline: Callable[[], None] | None = None,
                 followed: Callable[[], frozenset[str]] = frozenset):
        self.url = url
        self.on_change = on_change
        self.on_gone = on_gone
        self.on_deadline = on_deadline or (lambda: None)
        self.followed = followed
        #: The tables it listens on now, on its current connection (`followed()` at its last look).
        self.listening: frozenset[str] = frozenset()
        self._stopping = threading.Event()
        self._ready = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._pipe = threading.Lock()      # (held to write to the pipe, and to close it at the end)
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="pg-listener", daemon=True)

    def start(self, wait_s: float = 10.0) -> "Listener":
        """Start listening; returns once LISTEN is in place (or after `wait_s`)."""
        self._thread.start()
        self._ready.wait(wait_s)
        return self

    def poke(self) -> None:
        """The followed tables changed: listen on what `followed()` says now (from any thread)."""
        with self._pipe:
            if self._closed:
                return                      # (the listener has ended)
            try:
                os.write(self._wake_w, b"x")
            except BlockingIOError:
                pass                        # (a full pipe already holds a wake)

    def stop(self) -> None:
        self._stopping.set()
        self.poke()

    def _run(self) -> None:
        pause = 0.1
        first = True
        try:
            while not self._stopping.is_set():
                try:
                    with psycopg.connect(self.url, autocommit=True, connect_timeout=10,
                                         application_name="tokyo-companion listener") as conn:
                        conn.execute(f"LISTEN {DEADLINES}")
                        self.listening = frozenset()
                        # (a reconnect announces every table below: no table needs its own)
                        self._sync(conn, announce=False)
                        self._ready.set()
                        if not first:
                            self.on_change(None)
                            self.on_deadline()
                        first, pause = False, 0.1
                        self._listen(conn)
                except Exception as exc:  # noqa: BLE001 - the database restarted or the network dropped
                    if self._stopping.is_set():
                        return
                    if "does not exist" in str(exc):
                        log.error("the database is gone (%s): this worker stops listening", exc)
                        self._ready.set()
                        if self.on_gone:
                            self.on_gone()
                        return
                    log.warning("lost the database's notifications (%s); reconnecting", exc)
                    time.sleep(pause)
                    pause = min(5.0, pause * 2)
        finally:
            with self._pipe:
                self._closed = True
                os.close(self._wake_r)
                os.close(self._wake_w)

    def _listen(self, conn: psycopg.Connection) -> None:
        """Until stopped: wait for a notification or a poke, and answer it."""
        with selectors.DefaultSelector() as selector:     # (not select(): a worker's fds pass 1024)
            selector.register(conn.fileno(), selectors.EVENT_READ)
            selector.register(self._wake_r, selectors.EVENT_READ, "poked")
            renew_at = time.monotonic() + FOLLOW_MS / 3000
            while not self._stopping.is_set():
                ready = selector.select(1.0)
                self._answer(conn, any(key.data == "poked" for key, _ in ready))
                if time.monotonic() >= renew_at:         # (the leases of the tables still followed)
                    if self.listening:
                        follow(conn, sorted(self.listening))
                    renew_at = time.monotonic() + FOLLOW_MS / 3000

    def _answer(self, conn: psycopg.Connection, poked: bool) -> None:
        """What a wake of the listener brings: a poke (the followed tables changed), notifications."""
        if poked:
            try:
                while os.read(self._wake_r, 4096):
                    pass
            except BlockingIOError:
                pass
            self._sync(conn, announce=True)
        # (timeout 0: what has arrived, and what a LISTEN just now brought along, nothing more)
        for note in conn.notifies(timeout=0):
            if note.channel == DEADLINES:
                self.on_deadline()
            else:
                self.on_change(note.payload)

    def _sync(self, conn: psycopg.Connection, announce: bool) -> None:
        """LISTEN on the channel of each followed table and take its lease (pgstore.follow: its
        events notify from now on), UNLISTEN the others (their leases just run out: another worker
        may follow them too); `announce`: each table newly listened on may have changed before its
        lease was taken (on_change)."""
        wanted = self.followed()
        for code in self.listening - wanted:
            conn.execute(sql.SQL("UNLISTEN {}").format(sql.Identifier(channel(code))))
            self.listening -= {code}
        new = sorted(wanted - self.listening)
        for code in new:
            conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel(code))))
            self.listening |= {code}
        if new:
            follow(conn, new)
        if announce:
            for code in new:
                self.on_change(code)
