"""Changes from the other workers: a thread per worker that LISTENs on PostgreSQL.

Every write to the database sends NOTIFY with the table's code (companion/store/postgres.py), delivered
at COMMIT to every connection listening on the channel, this worker's own included. The listener
calls `on_change(code)` for each, which wakes this worker's live streams of that table; a timer
deadline set (NOTIFY on pgstore.DEADLINES) calls `on_deadline()`, which wakes its timer scheduler.
No table is polled. When the connection drops, it reconnects (with a growing pause, at most 5 s)
and calls `on_change(None)` and `on_deadline()` once: changes may have been missed meanwhile, so
everything should look again. When the database itself is gone (dropped), it stops and calls
`on_gone()`.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable

import psycopg

from ..store.postgres import CHANNEL, DEADLINES

log = logging.getLogger(__name__)


class Listener:
    def __init__(self, url: str, on_change: Callable[[str | None], None],
                 on_gone: Callable[[], None] | None = None,
                 on_deadline: Callable[[], None] | None = None):
        self.url = url
        self.on_change = on_change
        self.on_gone = on_gone
        self.on_deadline = on_deadline or (lambda: None)
        self._stopping = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pg-listener", daemon=True)

    def start(self, wait_s: float = 10.0) -> "Listener":
        """Start listening; returns once LISTEN is in place (or after `wait_s`)."""
        self._thread.start()
        self._ready.wait(wait_s)
        return self

    def stop(self) -> None:
        self._stopping.set()

    def _run(self) -> None:
        pause = 0.1
        first = True
        while not self._stopping.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=10,
                                     application_name="tokyo-companion listener") as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    conn.execute(f"LISTEN {DEADLINES}")
                    self._ready.set()
                    if not first:
                        self.on_change(None)
                        self.on_deadline()
                    first, pause = False, 0.1
                    while not self._stopping.is_set():
                        for note in conn.notifies(timeout=1.0):
                            if note.channel == DEADLINES:
                                self.on_deadline()
                            else:
                                self.on_change(note.payload)
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
