"""Live updates: Server-Sent Events with replay from Last-Event-ID, beside JSON polling.

Each numbered SSE message is one event of the table's log (`id:` = its seq), so a browser that
reconnects with Last-Event-ID receives exactly what it missed, in order, once. After each batch an
unnumbered `table` message carries the whole table (state, timers) so a phone need not ask for it;
it is sent again when a running timer reaches its deadline (the server deciding the expiry).

Each open stream holds a waitress thread, so streams are bounded three ways: at most
SSE_MAX_STREAMS at once (more get 503 and the page polls instead), a heartbeat comment every
SSE_HEARTBEAT_S (the write to a phone that went away fails and frees the thread), and an end after
SSE_MAX_S (the browser reconnects by itself, with Last-Event-ID).
"""
from __future__ import annotations

import json
import threading
import time
from collections import defaultdict
from typing import Callable, Iterator



#: The addresses of the serving computer itself.
THIS_MACHINE = frozenset({"127.0.0.1", "::1"})


class Hub:
    """Wakes the streams of a table when an event is appended (in this process)."""

    def __init__(self, max_streams: int, per_client: int | None = None):
        self._cond = threading.Condition()
        self._versions: dict[str, int] = defaultdict(int)
        self._slots = threading.BoundedSemaphore(max(1, max_streams))
        self.per_client = per_client or max(1, max_streams)
        self._by_client: dict[str, int] = defaultdict(int)
        self.stopping = False
        self._on_stop: list[Callable[[], None]] = []

    def on_stop(self, callback: Callable[[], None]) -> None:
        """`callback()` when the server stops (the expiry scheduler ends with the streams)."""
        self._on_stop.append(callback)

    def notify(self, code: str) -> None:
        with self._cond:
            self._versions[code] += 1
            self._cond.notify_all()

    def version(self, code: str) -> int:
        with self._cond:
            return self._versions[code]

    def wait(self, code: str, known: int, timeout: float) -> int:
        """Until the table changes or `timeout` seconds pass; returns the table's version."""
        with self._cond:
            self._cond.wait_for(lambda: self._versions[code] != known or self.stopping,
                                timeout=max(0.0, timeout))
            return self._versions[code]

    def stop(self) -> None:
        """End every stream (the server is shutting down); browsers reconnect to the next one."""
        with self._cond:
            self.stopping = True
            self._cond.notify_all()
        for callback in self._on_stop:
            callback()

    def try_open(self, client: str = "") -> bool:
        """A stream slot for `client` (its address): at most `per_client` each, so one device on
        the network cannot hold every slot. The computer serving the companion (127.0.0.1, ::1:
        its own browser tabs) is not a stranger and has only the overall limit."""
        with self._cond:
            if self._by_client[client] >= self.per_client and client not in THIS_MACHINE:
                return False
            if not self._slots.acquire(blocking=False):
                return False
            self._by_client[client] += 1
            return True

    def close(self, client: str = "") -> None:
        with self._cond:
            self._by_client[client] -= 1
            if self._by_client[client] <= 0:
                del self._by_client[client]
        self._slots.release()


def message(data: dict, *, event: str | None = None, seq: int | None = None) -> str:
    """One Server-Sent Event; `seq` is its `id:` line (what a reconnect sends back)."""
    lines = []
    if seq is not None:
        lines.append(f"id: {seq}")
    if event:
        lines.append(f"event: {event}")
    lines.append("data: " + json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


def stream(tables, hub: Hub, code: str, after: int, viewer: int | None, clock: Callable[[], int], *,
           heartbeat_s: float, max_s: float, retry_ms: int) -> Iterator[str]:
    """The body of one SSE response (the view frees the stream slot when the response closes)."""
    yield f"retry: {int(retry_ms)}\n\n"
    end = time.monotonic() + max_s
    last = after
    announced_deadline = None
    first = True
    while True:
        version = hub.version(code)
        events, _ = tables.events(code, last, viewer)
        for event in events:
            yield message(event, seq=event["seq"])
        table = tables.get(code, viewer)
        now = clock()
        deadline = next_deadline(table["timers"])
        expired_now = announced_deadline is not None and now >= announced_deadline
        if first or events or expired_now:
            yield message(table, event="table")
        first = False
        if events:
            last = events[-1]["seq"]
        announced_deadline = deadline
        left = end - time.monotonic()
        if left <= 0 or hub.stopping:
            return
        wait = min(heartbeat_s, left)
        if deadline is not None:
            wait = min(wait, max(0.0, (deadline - now) / 1000) + 0.005)
        if hub.wait(code, version, wait) == version and (deadline is None or clock() < deadline):
            if hub.stopping:
                return
            yield ": heartbeat\n\n"


def next_deadline(public_timers: list[dict]) -> int | None:
    """When the next running timer expires (the stream wakes then to announce it)."""
    ahead = [t["deadline_ms"] for t in public_timers if t["status"] == "running"]
    return min(ahead) if ahead else None
