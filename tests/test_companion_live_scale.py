"""Live phones at scale (issue 11): the companion's own server holds hundreds of live streams without
a thread each (companion.live.streams), every change reaches every one of them quickly, each viewer is
still shown only what it may see, and the per-address and overall limits still hold.

The phones are raw asyncio SSE clients (companion.live.loopback_phones), each from its own loopback
address: only this machine is ever contacted."""
from __future__ import annotations

import asyncio
import resource
import socket
import time

import pytest
import requests

from companion import create_app
from companion.live import sse, streams
from companion.live.loopback_phones import Phone, address, open_all, percentile, wait_for
from companion.testing import FakeClock, ServerThread
from testgames import COUNTER, SEALED_BID

PHONES = 500
TABLES = 5
THREADS = 6


@pytest.fixture(autouse=True)
def enough_files():
    """Each stream is a socket at both ends (both ends are in this process)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 4 * PHONES + 512
    if soft != resource.RLIM_INFINITY and soft < want:
        if hard != resource.RLIM_INFINITY and hard < want:
            pytest.skip(f"this process may open only {hard} files; the test needs {want}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def new_table(url: str, game: str = "counter", players=("A", "B")) -> tuple[str, str]:
    options = {"goal": 1000} if game == "counter" else {}
    r = requests.post(f"{url}/api/tables", json={"game": game, "players": list(players),
                                                 "options": options}, timeout=10)
    assert r.status_code == 201
    return r.json()["code"], r.json()["host_token"]


def move(url: str, code: str, token: str, seq: int, body: dict) -> requests.Response:
    return requests.post(f"{url}/api/tables/{code}/moves", timeout=10,
                         headers={"Authorization": f"Bearer {token}"},
                         json={"expected_seq": seq, "move": body})


def test_500_phones_each_change_reaches_every_one_within_a_second(tmp_path):
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}})
    hub = app.extensions["tokyo"].hub
    with ServerThread(app, threads=THREADS) as server:
        tables = [new_table(server.url) for _ in range(TABLES)]
        port = int(server.server.effective_port)

        async def play() -> tuple[list[Phone], dict[tuple[str, int], float], int]:
            phones = [Phone(port, tables[i % TABLES][0], address(i)) for i in range(PHONES)]
            statuses = await open_all(phones)
            assert statuses == [200] * PHONES, {s: statuses.count(s) for s in set(statuses)}
            open_now = hub.open_streams()
            # every stream is open at once, and waitress's few threads are all free
            assert open_now == {sse.THREAD: 0, sse.HANDED: PHONES}
            loop = asyncio.get_running_loop()
            r = await loop.run_in_executor(None, lambda: requests.get(
                f"{server.url}/api/tables/{tables[0][0]}", timeout=5))
            assert r.status_code == 200
            sent: dict[tuple[str, int], float] = {}
            rounds = 4
            for seq in range(rounds):
                for t, (code, token) in enumerate(tables):
                    sent[code, seq + 1] = time.monotonic()
                    r = await loop.run_in_executor(None, move, server.url, code, token, seq,
                                                   {"player": seq % 2, "add": 1 + t % 3})
                    assert r.status_code == 200, r.text
                    await asyncio.sleep(0.02)
            assert await wait_for(phones, rounds, timeout=15), \
                f"{sum(rounds not in p.arrived for p in phones)} phones lack event {rounds}"
            for phone in phones:
                phone.close()
            return phones, sent, rounds

        phones, sent, rounds = asyncio.run(play())
    for phone in phones:
        # each event once, in order, the table after it, each as the game wrote it
        assert phone.seqs == list(range(1, rounds + 1))
        assert phone.tables[-1]["seq"] == rounds
        assert all(e["kind"] == "move" for e in phone.events)
    delays = [phone.arrived[seq] - sent[phone.code, seq] for phone in phones
              for seq in range(1, rounds + 1)]
    assert len(delays) == PHONES * rounds
    # generous for a shared machine (a loopback change takes milliseconds), yet a thread or a poll
    # per phone would not make it: a phone polling every 2 s misses it half the time
    assert percentile(delays, 99) < 1.0, sorted(delays)[-10:]
    assert hub.open_streams()[sse.HANDED] == 0


def test_each_viewer_sees_only_what_it_may_among_many(storage):
    """Streams are served in groups sharing one read, and the tables that changed are read together
    (with PostgreSQL in one transaction): each phone has every event of its own table once, in
    order, and a seat's secret bid reaches its own phone and the host's, never the other seat's or
    a spectator's, nor another table's phones."""
    app = create_app({**storage, "EXTRA_GAMES": {"sealed-bid": SEALED_BID}})
    with ServerThread(app, threads=THREADS) as server:
        tables = []
        for _ in range(3):
            code, host = new_table(server.url, "sealed-bid")
            seats = [requests.post(f"{server.url}/api/tables/{code}/seats", json={"player": p},
                                   timeout=5).json()["token"] for p in (0, 1)]
            tables.append((code, host, seats))
        port = int(server.server.effective_port)
        # 40 phones a table, 10 of each viewer
        who = [(t, tok) for t, (_, host, seats) in enumerate(tables)
               for tok in [host, seats[0], seats[1], None] * 10]

        async def play():
            phones = [Phone(port, tables[t][0], address(i), token=tok)
                      for i, (t, tok) in enumerate(who)]
            assert await open_all(phones) == [200] * len(phones)
            loop = asyncio.get_running_loop()

            async def moves(t: int) -> None:
                code, host, _ = tables[t]
                for seq, body in enumerate([{"type": "start-round", "prize": 2},
                                            {"type": "bid", "player": 0, "amount": 7 + t}]):
                    r = await loop.run_in_executor(None, move, server.url, code, host, seq, body)
                    assert r.status_code == 200, r.text
            await asyncio.gather(*(moves(t) for t in range(len(tables))))
            assert await wait_for(phones, 2, timeout=10)
            await asyncio.sleep(0.2)                         # (the table after the last event)
            for phone in phones:
                phone.close()
            return phones

        phones = asyncio.run(play())
    for phone, (t, tok) in zip(phones, who):
        code, host, seats = tables[t]
        assert phone.seqs == [1, 2] and phone.tables[-1]["code"] == code
        bid = phone.events[-1]["move"]
        bids = phone.tables[-1]["state"]["bids"]
        if tok in (host, seats[0]):
            assert bid["amount"] == 7 + t and bids == {"0": 7 + t}
        else:
            assert bid["amount"] == "sealed" and bids == {"0": "sealed"}
        assert phone.tables[-1]["you"] == {"host": tok == host,
                                           "player": 0 if tok == seats[0] else 1 if tok == seats[1]
                                           else None}


def test_limits_per_address_and_overall_hold_and_slots_come_back(tmp_path):
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER},
                      "SSE_PER_CLIENT": 2, "LIVE_MAX_STREAMS": 5})
    hub = app.extensions["tokyo"].hub
    with ServerThread(app, threads=THREADS) as server:
        code, _ = new_table(server.url)
        port = int(server.server.effective_port)

        async def play():
            stranger = [Phone(port, code, "127.0.0.2") for _ in range(3)]
            statuses = [await p.open() for p in stranger]
            assert statuses == [200, 200, 503] and stranger[2].error["error"]
            others = [Phone(port, code, address(i, per_address=1)) for i in range(4)]
            statuses = [await p.open() for p in others]
            assert statuses == [200, 200, 200, 503]            # 5 at once in all
            assert hub.open_streams()[sse.HANDED] == 5
            stranger[0].close()                                # a phone goes away: its slot is free
            for _ in range(100):
                if hub.open_streams()[sse.HANDED] == 4:
                    break
                await asyncio.sleep(0.02)
            again = Phone(port, code, "127.0.0.2")
            assert await again.open() == 200
            for p in stranger + others + [again]:
                p.close()
        asyncio.run(play())
        for _ in range(100):
            if hub.open_streams()[sse.HANDED] == 0:
                break
            time.sleep(0.02)
        assert hub.open_streams()[sse.HANDED] == 0


def test_a_handed_stream_heartbeats_ends_and_resumes_from_last_event_id(tmp_path):
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER},
                      "SSE_HEARTBEAT_S": 0.1, "SSE_MAX_S": 0.8, "SSE_RETRY_MS": 700})
    with ServerThread(app, threads=THREADS) as server:
        code, token = new_table(server.url)
        port = int(server.server.effective_port)
        for seq in range(3):
            move(server.url, code, token, seq, {"player": seq % 2, "add": 1})

        async def play():
            first = Phone(port, code, last_event_id=1)
            assert await first.open() == 200
            await first.finished(5)            # SSE_MAX_S: the server ends it with the last chunk
            assert first.ended and first.seqs == [2, 3] and first.heartbeats >= 2
            again = Phone(port, code, last_event_id=first.seqs[-1])
            assert await again.open() == 200
            await again.ready.wait()
            again.close()
            return first, again
        first, again = asyncio.run(play())
    head = first.head.decode().lower()
    assert "content-type: text/event-stream" in head and "cache-control: no-cache" in head
    assert "content-security-policy" in head and "transfer-encoding: chunked" in head
    assert again.seqs == [] and again.tables[0]["seq"] == 3


def test_http_1_0_and_the_retry_line(tmp_path):
    """An HTTP/1.0 client gets the stream unchunked, up to the close."""
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER},
                      "SSE_HEARTBEAT_S": 5, "SSE_MAX_S": 0.5, "SSE_RETRY_MS": 700})
    with ServerThread(app, threads=THREADS) as server:
        code, _ = new_table(server.url)
        with socket.create_connection(("127.0.0.1", int(server.server.effective_port)), timeout=5) as s:
            s.sendall(f"GET /api/tables/{code}/events HTTP/1.0\r\n\r\n".encode())
            data = b""
            while chunk := s.recv(65536):
                data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    assert b" 200 " in head.split(b"\r\n")[0] and b"chunked" not in head.lower()
    assert body.startswith(b"retry: 700\n\n") and b"event: table\n" in body


def test_a_stream_past_its_time_still_sends_its_first_catch_up(tmp_path, monkeypatch):
    """On a busy server the room's first read may come after SSE_MAX_S: the stream still sends the
    events and the table before it ends (a stream of one `retry:` line would make the phone
    reconnect for nothing; a clean-clone run once saw just that)."""
    read_many = streams.StreamServer._read_many

    def slow(self, wants, now):
        time.sleep(0.3)
        return read_many(self, wants, now)
    monkeypatch.setattr(streams.StreamServer, "_read_many", slow)
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER},
                      "SSE_HEARTBEAT_S": 5, "SSE_MAX_S": 0.02, "SSE_RETRY_MS": 700})
    with ServerThread(app, threads=THREADS) as server:
        code, token = new_table(server.url)
        assert move(server.url, code, token, 0, {"player": 0, "add": 1}).status_code == 200
        with socket.create_connection(("127.0.0.1", int(server.server.effective_port)), timeout=5) as s:
            s.sendall(f"GET /api/tables/{code}/events HTTP/1.0\r\n\r\n".encode())
            data = b""
            while chunk := s.recv(65536):
                data += chunk
    body = data.partition(b"\r\n\r\n")[2]
    assert body.startswith(b"retry: 700\n\n")
    assert b"id: 1\n" in body and b"event: table\n" in body


def test_a_phone_that_stops_reading_is_cut_off(tmp_path, monkeypatch):
    monkeypatch.setattr(streams, "MAX_BACKLOG", 32 * 1024)
    monkeypatch.setattr(streams, "SEND_BUFFER", 8 * 1024)
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}})
    hub = app.extensions["tokyo"].hub
    with ServerThread(app, threads=THREADS) as server:
        code, token = new_table(server.url)
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", int(server.server.effective_port)))
        s.sendall(f"GET /api/tables/{code}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        seq = 0
        while hub.open_streams()[sse.HANDED] == 1 and seq < 900:     # it never reads
            assert move(server.url, code, token, seq, {"player": seq % 2, "add": 1}).status_code == 200
            seq += 1
        assert hub.open_streams()[sse.HANDED] == 0 and seq < 900
        s.close()


def test_a_timer_expiry_reaches_the_handed_streams(tmp_path):
    clock = FakeClock()
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}, "CLOCK": clock})
    with ServerThread(app, threads=THREADS) as server:
        code, token = new_table(server.url)
        port = int(server.server.effective_port)
        r = requests.post(f"{server.url}/api/tables/{code}/timers", timeout=5,
                          headers={"Authorization": f"Bearer {token}"},
                          json={"expected_seq": 0, "timer": "t", "action": "start", "seconds": 5})
        assert r.status_code == 200

        async def play():
            phones = [Phone(port, code, address(i)) for i in range(20)]
            assert await open_all(phones) == [200] * 20
            assert phones[0].tables[-1]["timers"][0]["status"] == "running"
            await asyncio.get_running_loop().run_in_executor(None, clock.advance, 5_000)
            assert await wait_for(phones, 2, timeout=10)
            await asyncio.sleep(0.2)
            for phone in phones:
                phone.close()
            return phones
        phones = asyncio.run(play())
    for phone in phones:
        assert phone.events[-1]["kind"] == "expire"
        assert phone.tables[-1]["timers"][0]["status"] == "expired"



def test_a_missed_change_is_seen_when_every_stream_is_told_to_look_again(tmp_path):
    """Hub.notify_all (the hosted mode's listener after a reconnect: other workers' changes may have
    been missed) makes every stream read its table again."""
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}})
    s = app.extensions["tokyo"]
    with ServerThread(app, threads=THREADS) as server:
        codes = [new_table(server.url) for _ in range(3)]
        port = int(server.server.effective_port)

        async def play():
            phones = [Phone(port, codes[i % 3][0], address(i)) for i in range(30)]
            assert await open_all(phones) == [200] * 30
            loop = asyncio.get_running_loop()
            s.tables.notify = lambda code: None               # the change is not announced ...
            for code, token in codes:
                r = await loop.run_in_executor(None, move, server.url, code, token, 0,
                                               {"player": 0, "add": 1})
                assert r.status_code == 200
            assert not await wait_for(phones, 1, timeout=1.0)
            s.hub.notify_all()                                 # ... until everyone looks again
            assert await wait_for(phones, 1, timeout=10)
            for phone in phones:
                phone.close()
        asyncio.run(play())


def test_a_client_that_keeps_sending_on_its_stream_is_cut_off(tmp_path):
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}})
    hub = app.extensions["tokyo"].hub
    with ServerThread(app, threads=THREADS) as server:
        code, _ = new_table(server.url)
        with socket.create_connection(("127.0.0.1", int(server.server.effective_port)), timeout=5) as s:
            s.sendall(f"GET /api/tables/{code}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert b" 200 " in s.recv(4096).split(b"\r\n")[0]
            assert hub.open_streams()[sse.HANDED] == 1
            try:
                for _ in range(8):                    # more than a stream may receive
                    s.sendall(b"x" * 4096)
                    time.sleep(0.05)
            except OSError:
                pass
            for _ in range(100):
                if hub.open_streams()[sse.HANDED] == 0:
                    break
                time.sleep(0.02)
            assert hub.open_streams()[sse.HANDED] == 0
