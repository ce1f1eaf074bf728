"""The companion's HTTP server: waitress, with what a table night on a shared Wi-Fi needs on top.

- **Fair to every phone.** One client address may hold at most `per_client` connections (more are
  answered 503 JSON and closed at once), so one stranger cannot take all of waitress's
  `connection_limit` slots; a request must arrive whole within `request_deadline` seconds of its
  first byte (a client trickling a byte every 20 s is closed), and idle connections close after
  `channel_timeout`. Live streams are limited per address by the app itself (live.Hub).
- **Live streams without a thread each.** A `GET …/events` stream the app accepts leaves waitress:
  the task writes no body, the response head goes with the stream, and once the channel has flushed
  what came before, its socket is handed to the process's asyncio stream server
  (companion.live.streams), which holds hundreds of streams in one thread. The connection then no longer
  counts towards `per_client` or `connection_limit` (the app's SSE_PER_CLIENT limits its streams).
- **JSON errors from the HTTP layer too.** Waitress answers some requests itself, before the app
  runs (a body over max_request_body_size, malformed headers): those answers are JSON like every
  other error of the API (API.md), with the same security headers.

`create_server(app, host, port, **options)` returns a server with `.run()`, `.close()` and
`.effective_port`, like waitress.create_server.
"""
from __future__ import annotations

import collections
import json
import logging
import sys
import threading
import time

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher, WSGITask

from ..errors import MESSAGES
from ..web.security import HEADERS
from ..live.streams import HANDOFF, Follow, StreamServer

log = logging.getLogger(__name__)

#: Connections one client address may hold at once. A phone's browser opens up to 6 per host, plus
#: its live stream; a laptop a few more.
PER_CLIENT = 24
#: Seconds a request may take to arrive whole, from its first byte.
REQUEST_DEADLINE = 30.0


def json_error(status: int, reason: str, detail: str = "") -> tuple[str, list, bytes]:
    message = MESSAGES.get(status) or f"The request could not be handled ({reason})."
    if detail and status == 400:
        message = f"The request is malformed: {detail.strip().rstrip('.')}."
    body = json.dumps({"error": message}).encode()
    headers = [("Content-Type", "application/json"), *HEADERS.items()]
    return f"{status} {reason}", headers, body


class JsonErrorTask(ErrorTask):
    """Waitress's own error answers (413, 400, 431, …) as API.md's JSON errors."""

    def execute(self):
        error = self.request.error
        status, headers, body = json_error(error.code, error.reason, str(error.body))
        self.status = status
        self.response_headers.extend(headers)
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class CompanionTask(WSGITask):
    """A request whose response may be a live stream handed to the stream server."""

    follow: Follow | None = None
    handed = False

    def get_environment(self):
        environ = super().get_environment()
        if self.channel.server.streams is not None and self.request.command == "GET":
            environ[HANDOFF] = self._take
        return environ

    def _take(self, follow: Follow) -> None:
        self.follow = follow

    def finish(self):
        follow = self.follow
        if follow is None or self.wrote_header or self.content_length is not None \
                or not self.status.startswith("200"):
            return super().finish()
        # the head goes out with the stream, and this channel takes no further request
        follow.head = self.build_response_header()
        follow.chunked = self.chunked_response
        self.wrote_header = True
        self.close_on_finish = True
        self.handed = True
        self.channel.handoff = follow

    def service(self):
        try:
            super().service()
        finally:
            if self.follow is not None and not self.handed:
                self.follow.release()              # (an error after the view accepted it)

    def write(self, data):
        """The response's head and its body (or the body's first part) in one send, one packet:
        waitress sends the head on its own first. Only when the length is known and this part is
        within it; anything else is waitress's own write."""
        length = self.content_length
        if self.wrote_header or not data or not self.complete or length is None \
                or len(data) > length - self.content_bytes_written or not self.has_body:
            return super().write(data)
        head = self.build_response_header()
        self.wrote_header = True
        self.content_bytes_written += len(data)
        self.channel.write_soon(head + data)


#: The channel whose request this thread is serving (CompanionChannel.service).
_serving = threading.local()
_SERVICE_CODE = HTTPChannel.service.__code__


class CompanionChannel(HTTPChannel):
    task_class = CompanionTask
    error_task_class = JsonErrorTask
    request_started: float | None = None
    handoff: Follow | None = None
    #: What readable() last told the main loop, which registers the socket for reading by it.
    polled_readable = False
    #: The client shut its sending side while a request of its was pending (a half-close, as
    #: `nc -N` and some scripts do): what it sent is answered, then the connection closes.
    half_closed = False

    def readable(self):
        self.polled_readable = readable = not self.half_closed and super().readable()
        return readable

    def writable(self):
        """As waitress's, except while a task's thread holds the output: its write_soon is sending
        what it just wrote (send_bytes is 1), and the socket, writable at once, would turn the main
        loop again and again, each turn a look at every socket and a bid for the interpreter lock,
        only to find the output locked (8 turns per request under 8 clients, 0.5 after). When that
        send leaves something behind, write_soon wakes the loop once it has let go (below). (Over
        the high-water mark the task waits for the loop to send: writable as ever then.)"""
        if not super().writable():
            return False
        if self.requests and self.total_outbufs_len <= self.adj.outbuf_high_watermark \
                and not (self.will_close or self.close_when_flushed):
            if not self.outbuf_lock.acquire(False):
                return False
            self.outbuf_lock.release()
        return True

    def write_soon(self, data):
        written = super().write_soon(data)
        if self.total_outbufs_len and self.connected:
            # (its own send left something: the loop may have looked while the output was locked)
            self.server.pull_trigger()
        return written

    def handle_read(self):
        """As waitress's, except for the end of input while a request is pending, which the
        lookahead lets the loop see: waitress would take it for a client gone, close at once and
        drop the answer, and a request not started yet would never run."""
        if not self.requests:
            return super().handle_read()
        try:
            data = self.socket.recv(self.adj.recv_bytes)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self.handle_close()              # (reset: gone indeed, as waitress's handle_read)
            return
        if data:
            self.last_activity = time.time()
            self.received(data)
        else:
            self.half_closed = True

    def service(self):
        """Waitress wakes its main loop after every request (a byte through a pipe), so that it
        looks at the socket again. With the channel still registered for reading (the server's
        channel_request_lookahead keeps it so while a request is served) and nothing left to send,
        the client's next request wakes the loop by itself: that wake is left out (one system call
        here, a loop turn and two there, per request)."""
        _serving.final_pull = False
        _serving.channel = self
        try:
            super().service()
        finally:
            _serving.channel = None
            if self.half_closed and not self.requests and self.connected:
                with self.requests_lock:
                    self.close_when_flushed = True      # (all answered: now it closes)
                _serving.final_pull = True
            if _serving.final_pull and not self._still_polled():
                self.server.pull_trigger()

    def _still_polled(self) -> bool:
        return bool(self.connected and self.polled_readable and not self.requests
                    and not self.total_outbufs_len and not self.will_close
                    and not self.close_when_flushed)

    def received(self, data):
        if data and self.request is None:
            self.request_started = time.monotonic()     # the first byte of a new request
        return super().received(data)

    def handle_close(self):
        """Closing after a live stream's response head: hand the socket over instead (in the main
        loop's thread, once everything before the stream has been flushed)."""
        follow, self.handoff = self.handoff, None
        if follow is None:
            return super().handle_close()
        if self.total_outbufs_len or self.socket is None:
            follow.release()                           # (closed before it could start)
            return super().handle_close()
        sock = self.socket
        with self.outbuf_lock:
            for outbuf in self.outbufs:
                try:
                    outbuf.close()
                except Exception:  # noqa: BLE001 - as waitress's own handle_close
                    self.logger.exception("Unknown exception while trying to close outbuf")
            self.total_outbufs_len = 0
            self.connected = False
            self.outbuf_lock.notify()
        self.del_channel()                             # out of waitress's map, the socket still open
        self.socket = None
        self.server.streams.adopt(sock, follow)


class CompanionServer(TcpWSGIServer):
    channel_class = CompanionChannel

    def pull_trigger(self):
        # (HTTPChannel.service's own last line, after its request is done: the channel decides)
        if getattr(_serving, "channel", None) is not None and sys._getframe(1).f_code is _SERVICE_CODE:
            _serving.final_pull = True
            return
        super().pull_trigger()

    def __init__(self, *args, per_client: int = PER_CLIENT,
                 request_deadline: float = REQUEST_DEADLINE, streams: StreamServer | None = None,
                 **kw):
        self.per_client = per_client
        self.request_deadline = request_deadline
        self.streams = streams
        super().__init__(*args, **kw)

    def close(self):
        try:
            return super().close()
        finally:
            if self.streams is not None:
                self.streams.close()

    def handle_accept(self):
        try:
            accepted = self.accept()
            if accepted is None:
                return
            conn, addr = accepted
            self.set_socket_options(conn)
        except OSError:
            return
        addr = self.fix_addr(addr)
        host = addr[0] if isinstance(addr, tuple) else addr
        held = sum(1 for ch in self.active_channels.values()
                   if isinstance(ch.addr, tuple) and ch.addr[0] == host)
        if held >= self.per_client:
            log.warning("refused a connection from %s: it holds %d already", host, held)
            self._refuse(conn)
            return
        self.channel_class(self, conn, addr, self.adj, map=self._map)

    @staticmethod
    def _refuse(conn) -> None:
        status, headers, body = json_error(503, "Service Unavailable")
        lines = [f"HTTP/1.1 {status}", *(f"{k}: {v}" for k, v in headers),
                 f"Content-Length: {len(body)}", "Connection: close", "Retry-After: 5", "", ""]
        try:
            conn.setblocking(True)
            conn.settimeout(1.0)
            conn.sendall("\r\n".join(lines).encode() + body)
        except OSError:
            pass
        finally:
            conn.close()

    def maintenance(self, now):
        super().maintenance(now)
        mono = time.monotonic()
        for channel in list(self.active_channels.values()):
            started = getattr(channel, "request_started", None)
            if channel.request is not None and started is not None \
                    and mono - started > self.request_deadline:
                channel.will_close = True      # a request trickling in: its time is up


class Admission:
    """The app, run by at most `at_once` of the server's threads at a time; the others wait their
    turn, blocked, out of the way. A process runs Python in one thread at a time (the interpreter
    lock): thirty requests at once do not finish sooner than eight, and the live streams' reader and
    loop threads, which need that lock too, wait behind all of them. Flat out (hosted benchmark,
    PostgreSQL, 2 workers, 500 streams) a change waited 0.4-1.3 s at p99 after its write's answer to
    reach every phone with all 32 threads in the app, 0.1-0.2 s with 8. Only the call is gated: a
    response's body (a thread-held live stream) is sent outside it."""

    def __init__(self, app, at_once: int | None):
        self.app = app
        self._lock = threading.Lock()
        self._free = at_once or 0
        self._waiting: collections.deque[threading.Event] = collections.deque()
        self.gated = bool(at_once)

    def __call__(self, environ, start_response):
        if not self.gated:
            return self.app(environ, start_response)
        self._enter()
        try:
            return self.app(environ, start_response)
        finally:
            self._leave()

    # First come, first served: a slot freed goes straight to the longest waiter (a semaphore lets a
    # newcomer take it first, and a request could wait behind many later ones).
    def _enter(self) -> None:
        with self._lock:
            if self._free and not self._waiting:
                self._free -= 1
                return
            turn = threading.Event()
            self._waiting.append(turn)
        turn.wait()

    def _leave(self) -> None:
        with self._lock:
            if self._waiting:
                self._waiting.popleft().set()
            else:
                self._free += 1


def stream_server(app) -> StreamServer:
    """The stream server for `app`'s live streams (its loop starts with the first stream)."""
    s, cfg = app.extensions["tokyo"], app.config
    return StreamServer(s.tables, s.hub, s.clock, heartbeat_s=cfg["SSE_HEARTBEAT_S"],
                        max_s=cfg["SSE_MAX_S"], retry_ms=cfg["SSE_RETRY_MS"],
                        max_streams=cfg["LIVE_MAX_STREAMS"])


def create_server(app, host: str = "127.0.0.1", port: int = 5000, *, threads: int = 32,
                  per_client: int | None = None, request_deadline: float = REQUEST_DEADLINE,
                  live_streams: bool = True, sock=None, **adjustments) -> CompanionServer:
    """`per_client`: connections one address may hold (default: the app's CONNECTIONS_PER_ADDRESS).
    `live_streams=False`: every live stream holds a thread (at most SSE_MAX_STREAMS).
    `sock`: serve this socket, already bound and listening (the workers of `--workers N` share
    their parent's), instead of binding host:port."""
    # Bodies over the app's own limit are refused before they are buffered (as JSON: the app
    # answers 413 JSON for anything between).
    limit = 4 * int(app.config.get("MAX_CONTENT_LENGTH") or 64 * 1024)
    # poll(), not select(): with hundreds of live streams a process's sockets pass file descriptor
    # 1024, which select() cannot watch.
    # channel_request_lookahead 1: a connection stays registered for reading while its request is
    # served (CompanionChannel.service); waitress keeps a second request that comes meanwhile
    # waiting, in order.
    options = {"channel_timeout": 60, "connection_limit": 200, "ident": "tokyo-companion",
               "channel_request_lookahead": 1,
               "cleanup_interval": 5, "max_request_body_size": limit, "asyncore_use_poll": True,
               **adjustments}
    adj = Adjustments(host=host, port=port, threads=threads, **options)
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    gated = Admission(app, app.config.get("REQUESTS_AT_ONCE"))
    if per_client is None:
        per_client = int(app.config.get("CONNECTIONS_PER_ADDRESS") or PER_CLIENT)
    return CompanionServer(gated, map={}, dispatcher=dispatcher, adj=adj, sockinfo=adj.listen[0],
                           per_client=per_client, request_deadline=request_deadline,
                           _sock=sock, bind_socket=sock is None,
                           streams=stream_server(app) if live_streams else None)
