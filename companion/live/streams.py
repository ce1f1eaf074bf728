"""The live streams of one server process, held by one asyncio loop in its own thread.

Waitress gives every request a thread until its response ends, and a live stream never ends: with a
thread per phone, 24 phones took every stream slot and the rest polled. Here a stream costs a socket
and a few kilobytes instead:

1. `GET /api/tables/<code>/events` is answered by the Flask view like any request (404, 409, 400,
   401, the per-address limit, the security headers); when it is served by the companion's own
   server (companion.serve.server), the view hands the stream over (`environ[HANDOFF](Follow(…))`) and
   returns an empty SSE response.
2. The waitress task writes no body: it keeps the response head for the stream (Follow.head), and
   the channel, once everything before it is flushed, leaves waitress's socket map and gives its
   socket to this loop (`StreamServer.adopt`). Waitress's thread is free at once.
3. Here each table is a Room of its viewers. A change (`Hub.notify(code)`, from a write in this
   process or, in the hosted mode, one announced by another worker) makes the room due. Every room
   due when a reader thread is free is read by it in one go: one transaction for all of them when
   the store can (PgStore.reading_many: their news fetched by three statements in one round trip),
   each table once for all its viewers (Tables.reading). The viewers are grouped by what they would
   be sent (who they are and where their stream stands), each group's text is computed once
   (sse.catch_up: the rules' public_move / public_view filtering), and the same bytes are written
   to every viewer of the group. Changes that arrive while a room is being read make it due again:
   a burst of changes to a table costs one read per round, however many.

   (Read one table at a time, a busy worker's reader threads each spent about 35 ms on a table,
   six round trips that each waited for the interpreter behind the request threads, and a change
   waited for the tables queued before it: 0.5 s at p50 with 50 busy tables.)

Heartbeats, the end after SSE_MAX_S and the timer deadlines work as in sse.stream (same bytes, same
chunked HTTP/1.1 framing as waitress gives a streamed response, `Connection: close`). A phone that
stops reading is cut off once MAX_BACKLOG bytes wait for it beyond its socket's SEND_BUFFER (it
reconnects with Last-Event-ID and loses nothing); one that sends more than MAX_RECEIVED bytes on its
stream is cut off too.

The loop thread is started by the first stream of a process, so a server created before a fork
(pre-forked workers) gets its own loop in each worker.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import resource
import socket
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from . import sse

log = logging.getLogger(__name__)

#: The WSGI environ key of the hand-off: `environ[HANDOFF](follow)` (set by companion.serve.server).
HANDOFF = "companion.live.sse.handoff"
#: Bytes that may wait for one phone before its stream is cut off (it reconnects, losing nothing).
MAX_BACKLOG = 1 << 20
#: The kernel's send buffer of a stream's socket: a fixed, modest size (a message is a few KB), so
#: a phone that stops reading holds at most this plus MAX_BACKLOG, and is found out soon.
SEND_BUFFER = 64 * 1024
#: Bytes a client may send on a stream after its request (a browser sends none).
MAX_RECEIVED = 16 * 1024
#: How long past SSE_MAX_S a stream still waits for its first catch-up before it ends anyway.
FIRST_GRACE_S = 10.0
#: Threads that read the database for the rooms (the loop itself never blocks on a read).
READERS = 2
#: Rooms read together at most (one transaction; the rest wait for the next free reader).
BATCH = 64
#: File descriptors kept free for everything else when the stream limit is set from the fd limit.
SPARE_FDS = 256


class Follow:
    """One accepted stream on its way from the Flask view to the loop: who watches which table from
    where, and its stream slot (freed exactly once, however the stream ends)."""

    def __init__(self, hub: sse.Hub, client: str, code: str, after: int, viewer: Any):
        self.hub, self.client, self.code, self.after, self.viewer = hub, client, code, after, viewer
        self.head = b""          # the HTTP response head (status line and headers), from waitress
        self.chunked = True      # HTTP/1.1: chunked body; HTTP/1.0: the body runs to the close
        self._lock = threading.Lock()
        self._released = False

    def release(self) -> None:
        with self._lock:
            if self._released:
                return
            self._released = True
        self.hub.close(self.client, sse.HANDED)

    def frame(self, text: str) -> bytes:
        data = text.encode()
        if not self.chunked or not data:
            return data
        return b"%X\r\n%s\r\n" % (len(data), data)

    @property
    def last_frame(self) -> bytes:
        return b"0\r\n\r\n" if self.chunked else b""


def stream_limit(wanted: int) -> int:
    """At most `wanted` streams, raising this process's soft limit of open files towards its hard
    limit as far as they need (each stream holds one); fewer when the hard limit is lower."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = wanted + SPARE_FDS
    if soft != resource.RLIM_INFINITY and soft < need:
        target = need if hard == resource.RLIM_INFINITY else min(need, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - SPARE_FDS))


class Viewer(asyncio.Protocol):
    """One phone's stream: its connection and where it stands in its table's log."""

    def __init__(self, server: "StreamServer", follow: Follow):
        self.server = server
        self.follow = follow
        self.at = sse.Position(follow.after)
        self.transport: asyncio.Transport | None = None
        now = time.monotonic()
        self.sent_at = now
        self.end_at = now + server.max_s
        self.received = 0
        self.done = False

    @property
    def key(self) -> tuple:
        """Viewers with the same key are sent the same bytes."""
        return (self.follow.viewer, self.at)

    def connection_made(self, transport) -> None:
        self.transport = transport
        transport.write(self.follow.head + self.follow.frame(sse.opening(self.server.retry_ms)))
        self.server.watch(self)

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        if self.received > MAX_RECEIVED:
            self.transport.abort()

    def eof_received(self) -> bool:
        return False                      # the phone closed its side: the stream ends

    def connection_lost(self, exc) -> None:
        self.done = True
        self.server.unwatch(self)
        self.follow.release()

    def send(self, data: bytes) -> None:
        if self.done or not data:
            return
        self.transport.write(data)
        self.sent_at = time.monotonic()
        if self.transport.get_write_buffer_size() > MAX_BACKLOG:
            log.info("cut off a live stream of table %s: %s is not reading", self.follow.code,
                     self.follow.client)
            self.done = True
            self.transport.abort()

    def end(self) -> None:
        """The last chunk, then the close (the browser reconnects with Last-Event-ID)."""
        if self.done:
            return
        self.done = True
        self.transport.write(self.follow.last_frame)
        self.transport.close()


class Room:
    """The viewers of one table in this process."""

    def __init__(self, code: str):
        self.code = code
        self.viewers: set[Viewer] = set()
        self.dirty = False               # a change not yet read
        self.busy = False                # being read now (its change waits in `dirty`)
        self.wake_at: asyncio.TimerHandle | None = None


class StreamServer:
    """Every handed-off live stream of one process (see the module's doc)."""

    def __init__(self, tables, hub: sse.Hub, clock: Callable[[], int], *, heartbeat_s: float,
                 max_s: float, retry_ms: int, max_streams: int, readers: int = READERS):
        self.tables, self.hub, self.clock = tables, hub, clock
        self.heartbeat_s, self.max_s, self.retry_ms = heartbeat_s, max_s, retry_ms
        self.readers = readers
        self.max_streams = stream_limit(max_streams)
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid: int | None = None
        self._thread: threading.Thread | None = None
        self._pool: ThreadPoolExecutor | None = None
        self.rooms: dict[str, Room] = {}
        self._due: dict[str, Room] = {}      # rooms with news, waiting for a free reader, in order
        self._reading = 0                    # readers at work
        self._pumping = False                # a look at the due rooms is scheduled
        self.stopping = False
        hub.listen(self.changed, self.max_streams)
        hub.on_stop(self.stop)

    # -- from other threads -------------------------------------------------------------------------
    def adopt(self, sock: socket.socket, follow: Follow) -> None:
        """Serve `follow` on `sock` (a connected socket that waitress has let go of)."""
        loop = None if self.stopping else self._ensure_loop()
        if loop is None:
            sock.close()
            follow.release()
            return
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        except OSError:
            pass
        try:
            loop.call_soon_threadsafe(self._adopt, sock, follow)
        except RuntimeError:                  # the loop has just closed
            sock.close()
            follow.release()

    def changed(self, code: str | None) -> None:
        """Hub.notify: table `code` has news (called in the writer's thread); None: any table may."""
        loop = self._loop
        if loop is None or self._pid != os.getpid() or (code is not None and code not in self.rooms):
            return
        try:
            loop.call_soon_threadsafe(self._wake_all if code is None else self._wake, code)
        except RuntimeError:
            pass

    def stop(self) -> None:
        """End every stream (Hub.stop: the server is shutting down)."""
        self.stopping = True
        loop = self._loop
        if loop is not None and self._pid == os.getpid():
            try:
                loop.call_soon_threadsafe(self._end_all)
            except RuntimeError:
                pass

    def close(self, timeout: float = 2.0) -> None:
        """Stop, let the last chunks go out, and end the loop's thread."""
        self.stop()
        self.hub.unlisten(self.changed)
        with self._lock:
            loop, thread, pool = self._loop, self._thread, self._pool
            mine = self._pid == os.getpid()
            self._loop = self._thread = self._pool = None
        if loop is None or not mine:
            return
        try:
            asyncio.run_coroutine_threadsafe(self._finish(), loop)
        except RuntimeError:
            pass
        thread.join(timeout)
        pool.shutdown(wait=False, cancel_futures=True)

    def counts(self) -> dict[str, int]:
        """Open streams and rooms (for benchmarks and logs)."""
        rooms = list(self.rooms.values())
        return {"streams": sum(len(r.viewers) for r in rooms), "rooms": len(rooms)}

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid():
                # the first stream of this process (a pre-forked worker starts its own loop)
                self._loop = asyncio.new_event_loop()
                self._pid = os.getpid()
                self._pool = ThreadPoolExecutor(self.readers, thread_name_prefix="live-reader")
                self.rooms, self._due, self._reading, self._pumping = {}, {}, 0, False
                self._thread = threading.Thread(target=self._run, args=(self._loop,),
                                                name="live-streams", daemon=True)
                self._thread.start()
            return self._loop

    def _run(self, loop: asyncio.AbstractEventLoop) -> None:
        asyncio.set_event_loop(loop)
        loop.call_soon(self._tick)
        try:
            loop.run_forever()
        finally:
            for room in list(self.rooms.values()):
                for viewer in list(room.viewers):
                    if viewer.transport is not None:
                        viewer.transport.abort()
            loop.run_until_complete(asyncio.sleep(0))
            loop.close()

    # -- in the loop --------------------------------------------------------------------------------
    def _adopt(self, sock: socket.socket, follow: Follow) -> None:
        asyncio.get_running_loop().create_task(self._connect(sock, follow))

    async def _connect(self, sock: socket.socket, follow: Follow) -> None:
        try:
            await asyncio.get_running_loop().connect_accepted_socket(
                lambda: Viewer(self, follow), sock=sock)
        except OSError:
            sock.close()
            follow.release()

    def watch(self, viewer: Viewer) -> None:
        code = viewer.follow.code
        room = self.rooms.get(code)
        if room is None:
            room = self.rooms[code] = Room(code)
            self.hub.follow(code)
        room.viewers.add(viewer)
        if self.stopping:
            viewer.end()
            return
        self._wake(code)

    def unwatch(self, viewer: Viewer) -> None:
        room = self.rooms.get(viewer.follow.code)
        if room is None:
            return
        room.viewers.discard(viewer)
        if not room.viewers and not room.busy:
            self._forget(room)

    def _forget(self, room: Room) -> None:
        if room.wake_at is not None:
            room.wake_at.cancel()
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            self.hub.unfollow(room.code)
        if self._due.get(room.code) is room:
            del self._due[room.code]

    def _wake(self, code: str) -> None:
        room = self.rooms.get(code)
        if room is None:
            return
        room.dirty = True
        if not room.busy:
            self._due[code] = room
            self._pump_soon()

    def _wake_all(self, _=None) -> None:
        for code in list(self.rooms):
            self._wake(code)

    def _pump_soon(self) -> None:
        """Look at the due rooms once the changes already queued for this loop are in."""
        if not self._pumping:
            self._pumping = True
            asyncio.get_running_loop().call_soon(self._pump)

    def _pump(self) -> None:
        """Every free reader takes the rooms that are due (at most BATCH each)."""
        self._pumping = False
        while self._due and self._reading < self.readers and not self.stopping:
            rooms = []
            for code in list(self._due)[:BATCH]:
                room = self._due.pop(code)
                room.busy = True
                room.dirty = False
                rooms.append(room)
            self._reading += 1
            asyncio.get_running_loop().create_task(self._refresh(rooms))

    async def _refresh(self, rooms: list[Room]) -> None:
        loop = asyncio.get_running_loop()
        groups_of: dict[str, dict[tuple, list[Viewer]]] = {}
        try:
            for room in rooms:
                groups: dict[tuple, list[Viewer]] = defaultdict(list)
                for viewer in room.viewers:
                    if not viewer.done:
                        groups[viewer.key].append(viewer)
                if groups:
                    groups_of[room.code] = groups
            if groups_of:
                steps_of = await loop.run_in_executor(
                    self._pool, self._read_many, {code: list(g) for code, g in groups_of.items()},
                    self.clock())
            for room in rooms:
                if room.code in groups_of and not self.stopping:
                    self._deliver(room, groups_of[room.code], steps_of[room.code])
        except Exception:  # noqa: BLE001 - the rooms' trouble must not stop the others
            log.exception("the live streams of tables %s failed", ", ".join(groups_of))
            for room in rooms:
                for viewer in list(room.viewers):
                    viewer.end()
        finally:
            self._reading -= 1
            for room in rooms:
                room.busy = False
                if not room.viewers:
                    self._forget(room)
                elif room.dirty:
                    self._due[room.code] = room
            self._pump_soon()

    def _deliver(self, room: Room, groups: dict[tuple, list[Viewer]], steps: dict[tuple, Any]) -> None:
        try:
            for key, step in steps.items():
                if isinstance(step, BaseException):
                    for viewer in groups[key]:
                        viewer.end()          # (it reconnects; the view answers what is wrong)
                    continue
                text, at = step
                data = groups[key][0].follow.frame(text) if text else b""
                for viewer in groups[key]:
                    viewer.send(data)
                    viewer.at = at
            self._arm(room)
        except Exception:  # noqa: BLE001 - one room's trouble must not stop the others
            log.exception("the live streams of table %s failed", room.code)
            for viewer in list(room.viewers):
                viewer.end()

    def _read_many(self, wants: dict[str, list[tuple]], now: int) -> dict[str, dict[tuple, Any]]:
        """In a reader thread: the next step of every group of every room in `wants` (code ->
        its groups' keys), in one transaction when the store can read many tables at once."""
        steps_of: dict[str, dict[tuple, Any]] = {}
        many = getattr(self.tables.store, "reading_many", None)
        afters = {code: min(at.last for _, at in keys) for code, keys in wants.items()}
        try:
            with many(afters) if many else contextlib.nullcontext():
                for code, keys in wants.items():
                    steps_of[code] = self._read(code, keys, now)
        except Exception as exc:  # noqa: BLE001 - the shared read could not start or end
            log.warning("live streams: reading %d tables at once failed (%s); one at a time",
                        len(wants), exc)
        for code, keys in wants.items():
            if code not in steps_of:
                steps_of[code] = self._read(code, keys, now)
        return steps_of

    def _read(self, code: str, keys: list[tuple], now: int) -> dict[tuple, Any]:
        """In a reader thread: one read of the table for all its viewers, then each group's next
        text, computed once for all the group's viewers."""
        try:
            reading = self.tables.reading(code, min(at.last for _, at in keys))
        except Exception as exc:  # noqa: BLE001 - the room's streams end; the others go on
            log.warning("live streams of table %s: %s", code, exc)
            return {key: exc for key in keys}
        steps: dict[tuple, Any] = {}
        for key in keys:
            who, at = key
            try:
                steps[key] = sse.catch_up(reading, who, at, now)
            except Exception as exc:  # noqa: BLE001 - the group's streams end; the others go on
                log.warning("live stream of table %s: %s", code, exc)
                steps[key] = exc
        return steps

    def _arm(self, room: Room) -> None:
        """Wake the room at the earliest timer deadline its viewers were shown."""
        if room.wake_at is not None:
            room.wake_at.cancel()
            room.wake_at = None
        deadlines = [v.at.deadline for v in room.viewers if v.at.deadline is not None]
        if deadlines:
            delay = max(0.0, (min(deadlines) - self.clock()) / 1000) + 0.005
            room.wake_at = asyncio.get_running_loop().call_later(delay, self._wake, room.code)

    def _tick(self) -> None:
        """Heartbeats for the quiet streams, the end of those past SSE_MAX_S."""
        now = time.monotonic()
        for room in list(self.rooms.values()):
            for viewer in list(room.viewers):
                # (a stream ends only once it has had its first catch-up: on a busy server the
                # room's first read can come after SSE_MAX_S, and a stream of one `retry:` line
                # would have the phone reconnect for nothing)
                if now >= viewer.end_at and (not viewer.at.first or now >= viewer.end_at + FIRST_GRACE_S):
                    viewer.end()
                elif now - viewer.sent_at >= self.heartbeat_s:
                    viewer.send(viewer.follow.frame(sse.HEARTBEAT))
        if not self.stopping:
            interval = max(0.01, min(self.heartbeat_s / 2, self.max_s / 4, 1.0))
            asyncio.get_running_loop().call_later(interval, self._tick)

    def _end_all(self) -> None:
        for room in list(self.rooms.values()):
            for viewer in list(room.viewers):
                viewer.end()

    async def _finish(self) -> None:
        self._end_all()
        deadline = time.monotonic() + 1.0
        while self.rooms and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        asyncio.get_running_loop().stop()
