"""What the companion's server saves per request (companion/serve/server.py), and that nothing is lost
by it: a response's head and body leave in one send; a keep-alive connection's next request wakes
the main loop by itself (no pipe byte per request); pipelined requests are answered in order; a
client that shuts its sending side after its requests still gets every answer."""
from __future__ import annotations

import json
import select
import socket
import time

import pytest
import requests

from companion import create_app
from companion.serve import server as serve
from companion.testing import ServerThread
from testgames import COUNTER

#: The main loop's own timeout: a request whose wake-up were lost would wait for it, often past the
#: clients' timeout below (which no answered request comes near); over a hundred requests, surely.
#: (One server for the module: its loop ends only with that timeout.)
LOOP_TIMEOUT = 20
CLIENT_TIMEOUT = 10


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = create_app({"DATA_DIR": tmp_path_factory.mktemp("wakes"), "EXTRA_GAMES": {"counter": COUNTER}})
    with ServerThread(app, threads=4, asyncore_loop_timeout=LOOP_TIMEOUT) as s:
        yield s


def new_table(url) -> tuple[str, dict]:
    r = requests.post(f"{url}/api/tables", json={"game": "counter", "players": ["A", "B"],
                                                 "options": {"goal": 1000}}, timeout=CLIENT_TIMEOUT)
    assert r.status_code == 201
    return r.json()["code"], {"Authorization": f"Bearer {r.json()['host_token']}"}


def play_moves(url, count, between=None) -> int:
    """`count` moves at a new table over one keep-alive connection (`between(session, seq)` after
    each); returns how many were answered 200 (all of them, or an assertion fails)."""
    code, auth = new_table(url)
    with requests.Session() as s:
        for seq in range(count):
            r = s.post(f"{url}/api/tables/{code}/moves", headers=auth, timeout=CLIENT_TIMEOUT,
                       json={"expected_seq": seq, "move": {"player": seq % 2, "add": 1}})
            assert r.status_code == 200, r.text
            if between:
                between(s, seq)
    return count


def test_a_keep_alive_connection_needs_no_wake_per_request(server, monkeypatch):
    code, auth = new_table(server.url)
    pulls, sends = [], []
    trigger = server.server.trigger
    real_pull = trigger.pull_trigger
    monkeypatch.setattr(trigger, "pull_trigger", lambda *a: (pulls.append(1), real_pull(*a))[1])
    real_write = serve.CompanionChannel.write_soon
    monkeypatch.setattr(serve.CompanionChannel, "write_soon",
                        lambda self, data: (sends.append(len(data)), real_write(self, data))[1])
    with requests.Session() as s:
        for seq in range(60):
            r = s.post(f"{server.url}/api/tables/{code}/moves", headers=auth, timeout=CLIENT_TIMEOUT,
                       json={"expected_seq": seq, "move": {"player": seq % 2, "add": 1}})
            assert r.status_code == 200 and r.json()["seq"] == seq + 1
            r = s.get(f"{server.url}/api/tables/{code}", headers=auth, timeout=CLIENT_TIMEOUT)
            assert r.status_code == 200 and r.json()["seq"] == seq + 1
    # 120 requests on one connection, each answered without waiting out the loop's timeout; the
    # main loop was woken through its pipe for next to none of them (waitress: once per request)
    assert len(pulls) < 30, len(pulls)
    # every answer's head and body went out in one send
    assert len(sends) == 120, (len(sends), sends[:5])


def test_a_closing_answer_still_wakes_the_loop(server, monkeypatch):
    """`Connection: close`: the channel must be closed by the main loop once the answer is out."""
    code, auth = new_table(server.url)
    for seq in range(3):
        r = requests.post(f"{server.url}/api/tables/{code}/moves", timeout=CLIENT_TIMEOUT,
                          headers={**auth, "Connection": "close"},
                          json={"expected_seq": seq, "move": {"player": seq % 2, "add": 1}})
        assert r.status_code == 200 and r.headers["Connection"] == "close"
    with socket.create_connection(("127.0.0.1", server.server.effective_port), timeout=CLIENT_TIMEOUT) as c:
        c.sendall(f"GET /api/tables/{code} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := c.recv(65536):             # the server closes: recv ends with b""
            data += chunk
    assert data.startswith(b"HTTP/1.1 200 OK\r\n") and b'"seq":3' in data


def test_pipelined_requests_are_answered_in_order(server):
    code, auth = new_table(server.url)
    head = (f"POST /api/tables/{code}/moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Authorization: {auth['Authorization']}\r\n")
    requests_ = b""
    for seq in range(5):
        body = json.dumps({"expected_seq": seq, "move": {"player": seq % 2, "add": 1}}).encode()
        requests_ += (head + f"Content-Length: {len(body)}\r\n\r\n").encode() + body
    requests_ += f"GET /api/tables/{code} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()
    with socket.create_connection(("127.0.0.1", server.server.effective_port), timeout=CLIENT_TIMEOUT) as c:
        c.sendall(requests_)                      # all six at once, in one packet
        data = b""
        while chunk := c.recv(65536):
            data += chunk
    answers = data.split(b"HTTP/1.1 ")[1:]
    assert len(answers) == 6
    seqs = [json.loads(a.split(b"\r\n\r\n", 1)[1].split(b"\n")[0])["seq"] for a in answers]
    assert seqs == [1, 2, 3, 4, 5, 5]
    assert all(a.startswith(b"200 OK\r\n") for a in answers)


def test_one_send_carries_the_same_bytes_waitress_would(server):
    """The head written with the body: the status line, the headers (Content-Length and the
    security headers among them) and the body, exactly one answer's worth."""
    code, auth = new_table(server.url)
    with socket.create_connection(("127.0.0.1", server.server.effective_port), timeout=CLIENT_TIMEOUT) as c:
        c.sendall(f"GET /api/tables/{code} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                  f"Authorization: {auth['Authorization']}\r\n\r\n".encode())
        data = b""
        while chunk := c.recv(65536):
            data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0] == "HTTP/1.1 200 OK"
    headers = dict(line.split(": ", 1) for line in lines[1:])
    assert int(headers["Content-Length"]) == len(body) and body.endswith(b"\n")
    assert headers["X-Content-Type-Options"] == "nosniff" and headers["Server"] == "tokyo-companion"
    assert json.loads(body)["code"] == code


def test_a_client_that_half_closes_gets_every_answer(server):
    """`shutdown(SHUT_WR)` right after the requests (as `nc -N` does): the loop, which keeps reading
    while a request is served, sees the end of input; the requests still run and are answered."""
    code, auth = new_table(server.url)
    head = (f"POST /api/tables/{code}/moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Authorization: {auth['Authorization']}\r\n")
    for rounds in (1, 3):
        seq = requests.get(f"{server.url}/api/tables/{code}", headers=auth, timeout=CLIENT_TIMEOUT).json()["seq"]
        sent = b""
        for i in range(rounds):
            body = json.dumps({"expected_seq": seq + i, "move": {"player": (seq + i) % 2, "add": 1}}).encode()
            sent += (head + f"Content-Length: {len(body)}\r\n\r\n").encode() + body
        with socket.create_connection(("127.0.0.1", server.server.effective_port),
                                      timeout=CLIENT_TIMEOUT) as c:
            c.sendall(sent)
            c.shutdown(socket.SHUT_WR)
            data = b""
            while chunk := c.recv(65536):         # every answer, then the server's close
                data += chunk
        assert data.count(b"HTTP/1.1 200 OK\r\n") == rounds, data[:200]
        now = requests.get(f"{server.url}/api/tables/{code}", headers=auth, timeout=CLIENT_TIMEOUT).json()
        assert now["seq"] == seq + rounds


def test_many_connections_at_once_lose_no_wake(server):
    """Eight keep-alive connections at once, moves and reads of a large file mixed (the loop turns
    for the others while one's answer is being written, and a large answer leaves in several
    sends): every request is answered well before the loop's own timeout."""
    from concurrent.futures import ThreadPoolExecutor

    def phone(i):
        def read_the_script(s, seq):
            if seq % 3 == i % 3:
                r = s.get(f"{server.url}/static/app.js", timeout=CLIENT_TIMEOUT)
                assert r.status_code == 200 and len(r.content) > 20_000
        return play_moves(server.url, 30, between=read_the_script)

    with ThreadPoolExecutor(8) as pool:
        assert all(pool.map(phone, range(8)))


def test_the_loop_does_not_spin_while_a_task_sends_its_answer(server, monkeypatch):
    """While a task's thread sends its answer (it holds the channel's output), the socket is
    writable at once: a loop that asked for it would turn over and over, finding the output locked
    (waitress: about 8 turns per request under 8 clients). The loop turns for a socket that is
    writable only when something is left for it to send."""
    from concurrent.futures import ThreadPoolExecutor

    from waitress import wasyncore
    turns = {"out": 0, "requests": 0}
    real = wasyncore.readwrite

    def counting(obj, flags):
        if flags & select.POLLOUT and isinstance(obj, serve.CompanionChannel):
            turns["out"] += 1
        return real(obj, flags)
    monkeypatch.setattr(wasyncore, "readwrite", counting)

    with ThreadPoolExecutor(8) as pool:
        turns["requests"] = sum(pool.map(lambda i: play_moves(server.url, 40), range(8)))
    assert turns["out"] < turns["requests"] / 4, turns


def test_a_large_answer_to_a_slow_reader_arrives_whole(server):
    """An answer larger than the socket's buffers, to a client that reads only after a while: what
    the task's own send leaves behind is sent by the loop as the client reads (well before the
    loop's own timeout)."""
    with socket.create_connection(("127.0.0.1", server.server.effective_port), timeout=CLIENT_TIMEOUT) as c:
        c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        c.sendall(b"GET /static/app.js HTTP/1.1\r\nHost: x\r\n\r\n")
        time.sleep(1)                              # (the server's sends fill the buffers meanwhile)
        data = b""
        while b"\r\n\r\n" not in data:
            data += c.recv(4096)
        head, body = data.split(b"\r\n\r\n", 1)
        length = int(dict(line.split(": ", 1) for line in head.decode("latin-1").split("\r\n")[1:])
                      ["Content-Length"])
        while len(body) < length:
            chunk = c.recv(4096)
            assert chunk
            body += chunk
    assert length > 20_000 and len(body) == length
