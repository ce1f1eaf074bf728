"""The expiry scheduler: delivers every timer's end at its deadline, whether or not a phone asks.

One daemon thread per app waits for the earliest deadline of any table (Tables keeps them, and the
database keeps them across restarts), then asks Tables to append the `expire` events that are due.
It sleeps until the next deadline or until a write brings a nearer one; a clock that can be moved
by hand (tests' FakeClock) wakes it when moved.
"""
from __future__ import annotations

import logging
import threading

log = logging.getLogger(__name__)

#: Longest sleep while something is due (ms): a guard against a clock that drifts from the sleep.
MAX_SLEEP_MS = 5_000


class _Scheduler:
    """What both schedulers share: one daemon thread (`_run`), started at the first deadline and woken
    through `_cond`; a fake clock that moves pokes it (tests)."""

    def __init__(self, tables, clock):
        self.tables = tables
        self.clock = clock
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopping = False
        if hasattr(clock, "listen"):
            clock.listen(self.poke)

    def _start(self) -> None:
        """Start the thread if it is not running (call with `_cond` held)."""
        if self._thread is None and not self._stopping:
            self._thread = threading.Thread(target=self._run, name="timer-expiry", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()


class Expiry(_Scheduler):
    def schedule(self, code: str, due: int | None) -> None:
        """Tables calls this whenever a table's next deadline changes."""
        if due is None:
            return
        with self._cond:
            self._start()
            self._cond.notify_all()

    def poke(self) -> None:
        with self._cond:
            self._cond.notify_all()

    def run_due(self) -> None:
        """Deliver every expiry that is due now (the thread's one step; tests call it directly)."""
        now = self.clock()
        for code, due in self.tables.due().items():
            if due <= now:
                try:
                    self.tables.expire_due(code)
                except Exception:  # noqa: BLE001 - one table's trouble must not stop the others
                    log.exception("could not deliver the timer expiry of table %s", code)

    def _run(self) -> None:
        while True:
            self.run_due()
            with self._cond:
                if self._stopping:
                    return
                pending = self.tables.due()
                if pending:
                    # (a deadline still in the past failed to deliver: try again shortly, not in a spin)
                    wait_ms = max(50, min(pending.values()) - self.clock())
                    self._cond.wait(min(wait_ms, MAX_SLEEP_MS) / 1000 + 0.001)
                else:
                    self._cond.wait()


class SharedExpiry(_Scheduler):
    """The expiry scheduler of one worker among several over one database (companion/store/postgres.py).

    Deadlines live in the database: each worker's thread claims the due ones with SELECT … FOR
    UPDATE SKIP LOCKED (a lease, so two workers never deliver the same timer at once, and a timer
    whose worker was killed mid-delivery is claimed again when its lease ends) and appends their
    `expire` events; the (code, seq) key makes each expiry appended once whoever gets there. It
    sleeps until the database's next deadline, and wakes when any worker sets a deadline (the
    listener's NOTIFY on pgstore.DEADLINES pokes it; other writes do not: each look is two
    queries, and under a flat-out load of moves it looked about 50 times a second for nothing) or
    a fake clock moves; at most POLL_MS between looks, in case a notification was lost with a
    connection.
    """

    POLL_MS = 1_000

    def __init__(self, tables, clock, store):
        self.store = store
        self._poked = False
        super().__init__(tables, clock)

    def start(self) -> None:
        with self._cond:
            self._start()

    def schedule(self, code: str, due: int | None) -> None:
        if due is not None:
            self.start()
            self.poke()

    def poke(self) -> None:
        with self._cond:
            self._poked = True
            self._cond.notify_all()

    def run_due(self) -> None:
        """Claim and deliver every expiry that is due now."""
        while True:
            claimed = self.store.claim_due(self.clock())
            for code in claimed:
                try:
                    self.tables.expire_due(code)
                except Exception:  # noqa: BLE001 - one table's trouble must not stop the others
                    log.exception("could not deliver the timer expiry of table %s", code)
            if len(claimed) < 32:
                return

    def _run(self) -> None:
        while True:
            wait_ms = self.POLL_MS
            try:
                self.run_due()
                ahead = self.store.next_due()
                if ahead is not None:
                    wait_ms = max(5, min(wait_ms, ahead - self.clock()))
            except Exception as exc:  # noqa: BLE001 - the database away for a moment: look again soon
                log.warning("the timer scheduler could not read the deadlines: %s", exc)
            with self._cond:
                if self._stopping:
                    return
                if not self._poked:
                    self._cond.wait(wait_ms / 1000 + 0.001)
                self._poked = False
                if self._stopping:
                    return
