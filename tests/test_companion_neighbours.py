"""A stranger on the same Wi-Fi (issue 10): one client address cannot take every connection or every
live stream, a request trickling in a byte at a time is closed, and what the HTTP layer answers by
itself (too large, malformed) is JSON like every other error. The stranger is a bounded local client
on another loopback address (127.0.0.2): only this machine is ever a target."""
from __future__ import annotations

import json
import socket
import time

import pytest

from companion import create_app
from companion.testing import FakeClock, ServerThread
from testgames import COUNTER

STRANGER = "127.0.0.2"


def connect(url: str, source: str = "127.0.0.1") -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    s = socket.socket()
    s.settimeout(5)
    s.bind((source, 0))
    s.connect((host, int(port)))
    return s


def status_and_body(s: socket.socket) -> tuple[int, dict | None, bytes]:
    data = b""
    try:
        while b"\r\n\r\n" not in data or len(data) < data.find(b"\r\n\r\n") + 4 + _length(data):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except socket.timeout:
        pass
    head, _, body = data.partition(b"\r\n\r\n")
    if not head:
        return 0, None, head
    status = int(head.split()[1])
    return status, (json.loads(body) if b"application/json" in head.lower() and body else None), head


def _length(data: bytes) -> int:
    for line in data.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return int(line.split(b":")[1])
    return 0


def get(url: str, path: str, source: str = "127.0.0.1") -> int:
    with connect(url, source) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        return status_and_body(s)[0]


@pytest.fixture
def app(tmp_path):
    return create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}, "CLOCK": FakeClock(),
                       "SSE_MAX_STREAMS": 6, "SSE_PER_CLIENT": 2, "SSE_HEARTBEAT_S": 0.2})


def test_one_address_cannot_take_every_connection(app):
    with ServerThread(app, threads=8, per_client=6, request_deadline=3, connection_limit=30,
                      cleanup_interval=0.5) as server:
        opened = []
        for _ in range(25):                          # 25 slow connections from the stranger
            s = connect(server.url, STRANGER)
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")      # ... a request that never ends
            opened.append(s)
        time.sleep(0.4)
        held, refused = [], 0
        for s in opened:
            s.settimeout(0.01)
            try:
                first = s.recv(4096)
            except socket.timeout:
                first = None
            if first:                                 # answered at once: refused with JSON
                assert b" 503 " in first.split(b"\r\n")[0] and b"application/json" in first.lower()
                refused += 1
                s.close()
            else:
                held.append(s)
        assert len(held) == 6 and refused == 19
        # the others still play: every request of another address is answered
        assert [get(server.url, "/api/time") for _ in range(20)] == [200] * 20
        # the trickle is closed once its request took longer than the deadline
        deadline = time.monotonic() + 8
        open_ = list(held)
        while open_ and time.monotonic() < deadline:
            for s in list(open_):
                try:
                    s.sendall(b"X")
                    s.settimeout(0.05)
                    if s.recv(1) == b"":
                        open_.remove(s)
                except (OSError, socket.timeout) as exc:
                    if not isinstance(exc, socket.timeout):
                        open_.remove(s)
            time.sleep(0.2)
        assert not open_, f"{len(open_)} trickling connections still open"
        for s in held:
            s.close()
        assert get(server.url, "/api/time", STRANGER) == 200     # and then it may come back


def test_one_address_cannot_take_every_live_stream(app):
    client = app.test_client()
    code = client.post("/api/tables", json={"game": "counter", "players": ["A", "B"]}).json["code"]
    with ServerThread(app, threads=12) as server:
        streams = []
        for _ in range(3):
            s = connect(server.url, STRANGER)
            s.sendall(f"GET /api/tables/{code}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            streams.append(s)
        heads = []
        for s in streams:
            s.settimeout(3)
            heads.append(s.recv(4096).split(b"\r\n")[0])
        assert sum(b" 200 " in h for h in heads) == 2 and sum(b" 503 " in h for h in heads) == 1
        other = connect(server.url)                          # another phone still gets its stream
        other.sendall(f"GET /api/tables/{code}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert b" 200 " in other.recv(4096).split(b"\r\n")[0]
        for s in streams + [other]:
            s.close()


def test_the_http_layer_answers_json_too(app):
    with ServerThread(app, threads=4) as server:
        with connect(server.url) as s:                        # a body over the server's limit
            s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 10000000\r\n\r\n" + b"x" * 1000)
            status, body, head = status_and_body(s)
        assert status == 413 and body["error"] and b"content-security-policy" in head.lower()
        with connect(server.url) as s:                        # a header line without a colon
            s.sendall(b"GET /api/time HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n")
            status, body, _ = status_and_body(s)
        assert status == 400 and body["error"].startswith("The request is malformed")
        with connect(server.url) as s:                        # a bad header byte
            s.sendall(b"GET /api/time HTTP/1.1\r\nHost: x\r\nX-A: \x00\x7f\r\n\r\n")
            status, body, _ = status_and_body(s)
        assert status in (200, 400) and (status == 200 or body["error"])
