"""A worker hears of the writes to the tables its live streams follow, and of no others.

Hosted (several workers over PostgreSQL), each table has its own NOTIFY channel and a worker LISTENs
only on those its phones follow (companion/live/pg_fanout.py): the Hub knows which (a stream served
in a thread, or a room of the stream server's handed-off streams), and the listener follows that set,
announcing each table it starts to listen on (a change just before the LISTEN is not lost)."""
from __future__ import annotations

import queue
import threading
import time

import pytest
import requests

from companion import create_app
from companion.live import sse
from companion.testing import ServerThread
from companion.store.sqlite import TableRow
from testgames import COUNTER


NEW = {"game": "counter", "players": ["A", "B"], "options": {"goal": 1000}}


def test_a_stream_served_in_a_thread_follows_its_table_while_it_is_open(tmp_path):
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}})
    s = app.extensions["tokyo"]
    code = app.test_client().post("/api/tables", json=NEW).json["code"]
    pokes = []
    s.hub.on_follow(lambda: pokes.append(s.hub.followed()))
    body = sse.stream(s.tables, s.hub, code, 0, None, s.clock, heartbeat_s=0.05, max_s=30, retry_ms=500)
    assert s.hub.followed() == frozenset()          # (a generator not yet started follows nothing)
    next(body)                                       # the opening
    next(body)                                       # the table
    assert s.hub.followed() == {code}
    second = sse.stream(s.tables, s.hub, code, 0, None, s.clock, heartbeat_s=0.05, max_s=30, retry_ms=500)
    next(second), next(second)
    body.close()
    assert s.hub.followed() == {code}                # the other stream still follows it
    second.close()
    assert s.hub.followed() == frozenset()
    # told when the set changed (twice), not for the second stream of a followed table
    assert pokes == [frozenset({code}), frozenset()]


def test_a_handed_off_stream_follows_its_table_until_it_closes(tmp_path):
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}})
    hub = app.extensions["tokyo"].hub
    with ServerThread(app, threads=4) as server:
        code = requests.post(f"{server.url}/api/tables", json=NEW, timeout=10).json()["code"]
        with requests.get(f"{server.url}/api/tables/{code}/events?since=0", stream=True, timeout=10,
                          headers={"Accept": "text/event-stream"}) as r:
            assert r.status_code == 200
            lines = r.iter_lines(decode_unicode=True)
            while not next(lines).startswith("event: table"):
                pass
            assert hub.followed() == {code}
        for _ in range(100):                         # the stream server sees the phone go
            if not hub.followed():
                break
            time.sleep(0.05)
        assert hub.followed() == frozenset()


def test_the_listener_hears_only_the_followed_tables_and_announces_each_it_starts_to_follow(pg_url):
    from companion.live.pg_fanout import Listener
    from companion.store.postgres import PgStore
    store = PgStore(pg_url)
    with store.write() as tx:
        for code in ("T1", "T2"):
            tx.insert_table(TableRow(code, "counter", ["A"], {}, 1, 0, "h"))
    seq = {"T1": 0, "T2": 0}

    def write(code):
        with store.write() as tx:
            assert tx.append_after(code, seq[code], "move", {}, 1, None, "", {}, last=True) is None
        seq[code] += 1

    heard: queue.Queue = queue.Queue()
    followed: set[str] = set()
    lock = threading.Lock()

    def following():
        with lock:
            return frozenset(followed)

    listener = Listener(pg_url, heard.put, on_deadline=lambda: heard.put("deadline"), followed=following)
    listener.start()

    def follow(*codes):
        with lock:
            followed.clear()
            followed.update(codes)
        listener.poke()
        end = time.monotonic() + 30
        while listener.listening != set(codes) and time.monotonic() < end:   # (its LISTENs done)
            time.sleep(0.01)

    def drain(expected: int = 0, extra: float = 0.5) -> list:
        """What is heard: `expected` items (waiting up to 30 s for them), then whatever else comes
        within `extra` seconds (nothing should)."""
        got, end = [], time.monotonic() + 30
        while len(got) < expected:
            try:
                got.append(heard.get(timeout=max(0.0, end - time.monotonic())))
            except queue.Empty:
                return got
        end = time.monotonic() + extra
        while True:
            try:
                got.append(heard.get(timeout=max(0.0, end - time.monotonic())))
            except queue.Empty:
                return got
    try:
        write("T1"), write("T2")
        assert drain() == []                           # nobody follows: nothing is heard
        follow("T1")
        assert drain(1) == ["T1"]                      # announced once its LISTEN is in place
        write("T1"), write("T2"), write("T1")
        assert drain(2) == ["T1", "T1"]                # T2's writes are not for this worker
        follow("T1", "T2")
        assert drain(1) == ["T2"]
        write("T2")
        assert drain(1) == ["T2"]
        follow("T2")
        write("T1"), write("T2")
        assert drain(1) == ["T2"]
        with store.write() as tx:                      # a deadline set is heard whatever is followed
            tx.set_deadline("T1", 10_000)
        assert drain(1) == ["deadline"]
    finally:
        listener.stop()
        store.close()


def test_a_write_on_one_worker_wakes_a_stream_of_another_only_while_it_follows(pg_url):
    """Two apps over one database, as two workers: B's stream of a table hears A's moves at once;
    once it has closed, B no longer listens on that table."""
    a = create_app({"DATABASE_URL": pg_url, "EXTRA_GAMES": {"counter": COUNTER}})
    b = create_app({"DATABASE_URL": pg_url, "EXTRA_GAMES": {"counter": COUNTER}})
    hub_b = b.extensions["tokyo"].hub
    woken: queue.Queue = queue.Queue()
    hub_b.listen(woken.put, 0)
    ca = a.test_client()
    r = ca.post("/api/tables", json=NEW)
    code, auth = r.json["code"], {"Authorization": f"Bearer {r.json['host_token']}"}
    try:
        hub_b.follow(code)
        assert woken.get(timeout=10) == code           # (the announcement of the new LISTEN)
        assert ca.post(f"/api/tables/{code}/moves", headers=auth,
                       json={"expected_seq": 0, "move": {"player": 0, "add": 1}}).status_code == 200
        assert woken.get(timeout=10) == code
        hub_b.unfollow(code)
        listener_b, end = b.extensions["tokyo.listener"], time.monotonic() + 30
        while listener_b.listening and time.monotonic() < end:                  # (the UNLISTEN)
            time.sleep(0.01)
        assert listener_b.listening == frozenset()
        assert ca.post(f"/api/tables/{code}/moves", headers=auth,
                       json={"expected_seq": 1, "move": {"player": 1, "add": 1}}).status_code == 200
        with pytest.raises(queue.Empty):
            woken.get(timeout=1)
    finally:
        a.extensions["tokyo"].hub.stop()
        hub_b.stop()


def test_a_lease_and_an_append_racing_for_the_table_row_miss_nothing(pg_url):
    """The two orders of pgstore.follow and an append in flight: an append that holds the table's
    row (its foreign-key check) first makes the lease wait for its COMMIT, so the follower's look
    after the lease sees it; an append that comes while the lease holds the row waits, then sees the
    lease and notifies."""
    import psycopg
    from companion.store.postgres import NOW_MS, PgStore, channel, follow
    store = PgStore(pg_url)
    with store.write() as tx:
        tx.insert_table(TableRow("T1", "counter", ["A"], {}, 1, 0, "h"))
    with psycopg.connect(pg_url) as writer, psycopg.connect(pg_url, autocommit=True) as follower:
        follower.execute(f'LISTEN "{channel("T1")}"')
        # 1. the append first: the lease waits for it
        writer.execute("INSERT INTO events (code, seq, kind, body, at_ms) VALUES ('T1', 1, 'move', '{}', 1)")
        leased = threading.Event()
        taker = threading.Thread(target=lambda: (follow(follower, ["T1"]), leased.set()))
        taker.start()
        assert not leased.wait(0.5)                   # the row is the append's until it commits
        writer.commit()
        assert leased.wait(10)
        taker.join()
        with store.read() as tx:
            assert tx.seq("T1") == 1                  # what the follower's look then sees
        assert [n.payload for n in follower.notifies(timeout=0.3)] == []   # (it went unnotified)
        # 2. the lease first (held open here): the append waits, then notifies
        with psycopg.connect(pg_url) as leaser:
            follower.execute("UPDATE tables SET live_until = NULL WHERE code = 'T1'")   # (part 1's lease)
            leaser.execute("SELECT code FROM tables WHERE code = 'T1' FOR UPDATE")
            leaser.execute(f"UPDATE tables SET live_until = {NOW_MS} + 60000 WHERE code = 'T1'")
            appended = threading.Event()

            def append():
                with store.write() as tx:
                    tx.append_after("T1", 1, "move", {}, 1, None, "", {}, last=True)
                appended.set()
            appender = threading.Thread(target=append)
            appender.start()
            assert not appended.wait(0.5)             # its foreign-key check waits for the lease
            leaser.commit()
            assert appended.wait(10)
            appender.join()
        assert [n.payload for n in follower.notifies(timeout=2, stop_after=1)] == ["T1"]
    store.close()
