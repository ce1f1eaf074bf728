"""Live updates: Server-Sent Events with replay from Last-Event-ID, beside JSON polling.

Each numbered SSE message is one event of the table's log (`id:` = its seq), so a browser that
reconnects with Last-Event-ID receives exactly what it missed, in order, once. After each batch an
unnumbered `table` message carries the whole table (state, timers) so a phone need not ask for it;
it is sent again when a running timer reaches its deadline (the server deciding the expiry).

What a stream sends next is one step, `catch_up` (the events after the last one sent, as the viewer
may see them, and the table when there is news, from one Tables.reading), so the two ways of
serving a stream send the same bytes:

- **Handed off** (the companion's own server, companion.serve.server): the request is checked here like
  any other, then its connection leaves waitress for the asyncio loop of companion.live.streams, which
  holds hundreds of streams in one thread. Limited to LIVE_MAX_STREAMS at once.
- **In a thread** (any other WSGI server, Flask's test client, HEAD): `stream()` below, a generator
  that holds a server thread, so at most SSE_MAX_STREAMS at once (more get 503 and the page polls).

Either way a client address holds at most SSE_PER_CLIENT streams, a heartbeat comment goes out
every SSE_HEARTBEAT_S without news (a write to a phone that went away fails and frees its slot), and
a stream ends after SSE_MAX_S (the browser reconnects by itself, with Last-Event-ID).
"""
from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections import defaultdict
from typing import Any, Callable, Iterator

#: The addresses of the serving computer itself.
THIS_MACHINE = frozenset({"127.0.0.1", "::1"})
#: Streams that hold a server thread, and streams handed off to the asyncio loop.
THREAD, HANDED = "thread", "handed"


class Hub:
    """Wakes the streams of a table when an event is appended (in this process: a write here, or a
    write of another worker announced to this one, both call `notify`), counts open streams, and
    knows which tables they follow (hosted, a worker hears of another's writes to those only)."""

    def __init__(self, max_streams: int, per_client: int | None = None):
        self._cond = threading.Condition()
        self._versions: dict[str, int] = defaultdict(int)
        self._limits = {THREAD: max(1, max_streams), HANDED: 0}
        self._open = {THREAD: 0, HANDED: 0}
        self.per_client = per_client or max(1, max_streams)
        self._by_client: dict[str, int] = defaultdict(int)
        self.stopping = False
        self._on_stop: list[Callable[[], None]] = []
        self._listeners: list[Callable[[str | None], None]] = []
        self._followed: dict[str, int] = defaultdict(int)   # streams (or rooms) per table followed here
        self._on_follow: list[Callable[[], None]] = []

    def on_stop(self, callback: Callable[[], None]) -> None:
        """`callback()` when the server stops (the expiry scheduler ends with the streams)."""
        self._on_stop.append(callback)

    def listen(self, callback: Callable[[str | None], None], handed_limit: int) -> None:
        """`callback(code)` on every change, `callback(None)` when every table may have changed (the
        stream server, which holds up to `handed_limit` handed-off streams)."""
        with self._cond:
            self._listeners.append(callback)
            self._limits[HANDED] = max(0, handed_limit)

    def unlisten(self, callback: Callable[[str | None], None]) -> None:
        with self._cond:
            if callback in self._listeners:
                self._listeners.remove(callback)
            if not self._listeners:
                self._limits[HANDED] = 0

    def notify(self, code: str) -> None:
        with self._cond:
            self._versions[code] += 1
            self._cond.notify_all()
            listeners = list(self._listeners)
        for callback in listeners:
            callback(code)

    def notify_all(self) -> None:
        """Every table may have changed (changes from other workers may have been missed, e.g.
        while their notifications were cut off): every stream looks again."""
        with self._cond:
            for code in self._versions:
                self._versions[code] += 1
            self._cond.notify_all()
            listeners = list(self._listeners)
        for callback in listeners:
            callback(None)

    # -- the tables this process follows (hosted: only their changes are asked of the database) --
    def follow(self, code: str) -> None:
        """A live stream of this process follows table `code` (until `unfollow`)."""
        self._count(code, 1)

    def unfollow(self, code: str) -> None:
        self._count(code, -1)

    def _count(self, code: str, step: int) -> None:
        with self._cond:
            before = self._followed[code]
            self._followed[code] = after = max(0, before + step)
            if not after:
                del self._followed[code]
            callbacks = list(self._on_follow) if (before == 0) != (after == 0) else []
        for callback in callbacks:
            callback()

    def followed(self) -> frozenset[str]:
        """The tables some live stream of this process follows now."""
        with self._cond:
            return frozenset(self._followed)

    def on_follow(self, callback: Callable[[], None]) -> None:
        """`callback()` whenever a table starts or stops being followed here (it reads `followed()`:
        the set, not the order of the calls, is what counts)."""
        self._on_follow.append(callback)

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

    def try_open(self, client: str = "", kind: str = THREAD) -> bool:
        """A stream slot of `kind` for `client` (its address): at most `per_client` each, whatever
        their kind, so one device on the network cannot hold every slot. The computer serving the
        companion (127.0.0.1, ::1: its own browser tabs) is not a stranger and has only the overall
        limit."""
        with self._cond:
            if self._by_client[client] >= self.per_client and client not in THIS_MACHINE:
                return False
            if self._open[kind] >= self._limits[kind]:
                return False
            self._open[kind] += 1
            self._by_client[client] += 1
            return True

    def close(self, client: str = "", kind: str = THREAD) -> None:
        with self._cond:
            self._by_client[client] -= 1
            if self._by_client[client] <= 0:
                del self._by_client[client]
            self._open[kind] -= 1

    def open_streams(self) -> dict[str, int]:
        with self._cond:
            return dict(self._open)


def message(data: dict, *, event: str | None = None, seq: int | None = None) -> str:
    """One Server-Sent Event; `seq` is its `id:` line (what a reconnect sends back)."""
    lines = []
    if seq is not None:
        lines.append(f"id: {seq}")
    if event:
        lines.append(f"event: {event}")
    lines.append("data: " + json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


def opening(retry_ms: int) -> str:
    """What every stream sends first: how long the browser waits before it reconnects."""
    return f"retry: {int(retry_ms)}\n\n"


HEARTBEAT = ": heartbeat\n\n"


@dataclasses.dataclass(frozen=True)
class Position:
    """Where one viewer's stream stands: the last event sent, whether the table was sent yet, and
    the timer deadline the last table showed (at it, the table is sent again)."""
    last: int
    first: bool = True
    deadline: int | None = None


def catch_up(reading, viewer: Any, at: Position, now: int) -> tuple[str, Position]:
    """What the stream of `viewer` sends next from `at`, from `reading` (Tables.reading(code, n) with
    n <= at.last: one read serves every viewer of a table): the events after `at.last` as the
    viewer may see them (the rules' public_move), then the table (public_view) when it is the
    first message, there were events, or a deadline it showed has passed. "" when there is no news."""
    events = reading.events(at.last, viewer)
    parts = [message(e, seq=e["seq"]) for e in events]
    last = events[-1]["seq"] if events else at.last
    deadline = at.deadline
    if at.first or events or (deadline is not None and now >= deadline):
        table = reading.table(viewer)
        parts.append(message(table, event="table"))
        deadline = next_deadline(table["timers"])
    return "".join(parts), Position(last, False, deadline)


def stream(tables, hub: Hub, code: str, after: int, viewer: Any, clock: Callable[[], int], *,
           heartbeat_s: float, max_s: float, retry_ms: int) -> Iterator[str]:
    """The body of one SSE response served in a thread (the view frees the stream slot when the
    response closes)."""
    yield opening(retry_ms)
    hub.follow(code)
    try:
        yield from _follow(tables, hub, code, after, viewer, clock, heartbeat_s, max_s)
    finally:
        hub.unfollow(code)


def _follow(tables, hub: Hub, code: str, after: int, viewer: Any, clock: Callable[[], int],
            heartbeat_s: float, max_s: float) -> Iterator[str]:
    end = time.monotonic() + max_s
    at = Position(after)
    while True:
        version = hub.version(code)
        text, at = catch_up(tables.reading(code, at.last), viewer, at, clock())
        if text:
            yield text
        left = end - time.monotonic()
        if left <= 0 or hub.stopping:
            return
        wait = min(heartbeat_s, left)
        if at.deadline is not None:
            wait = min(wait, max(0.0, (at.deadline - clock()) / 1000) + 0.005)
        if hub.wait(code, version, wait) == version and (at.deadline is None or clock() < at.deadline):
            if hub.stopping:
                return
            yield HEARTBEAT


def next_deadline(public_timers: list[dict]) -> int | None:
    """When the next running timer expires (the stream wakes then to announce it)."""
    ahead = [t["deadline_ms"] for t in public_timers if t["status"] == "running"]
    return min(ahead) if ahead else None
