"""The hosted companion: several worker processes over one PostgreSQL database (README, "Hosting").

Real parts only: a throwaway PostgreSQL cluster (tests/pg_cluster.py) and `python -m companion
--database …` processes, reached over HTTP; workers are killed with SIGKILL. Two single-worker
processes on their own ports stand for two workers where a test must choose which one a request
reaches (the race, the kill mid-burst, the timer started by the one that dies); `--workers 2` is
tested as served (one port, the parent replacing a killed worker).
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

requests = pytest.importorskip("requests")

REPO = Path(__file__).resolve().parents[1]
#: Generous: the machine running the tests may be busy (these are not timings, just give-up points).
START_S = 120
GAMES = ("shinjuku", "shin-bikkuri-man", "capsule-hotel", "sapporo-1876", "jutaku")


class Companion:
    """`python -m companion --database URL --port 0 [--workers N]`, until stopped."""

    def __init__(self, url: str, workers: int = 1):
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        args = [sys.executable, "-m", "companion", "--database", url, "--port", "0"]
        if workers > 1:
            args += ["--workers", str(workers)]
        self.proc = subprocess.Popen(args, cwd=REPO, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self.pids: dict[int, int] = {}            # worker number -> pid (with --workers)
        self.base = ""
        try:
            self._wait_until_served()
        except BaseException:
            self.stop()              # (a start that failed leaves nothing running)
            raise

    def _wait_until_served(self) -> None:
        deadline = time.monotonic() + START_S
        while not self.base:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError("the companion did not start:\n" + "".join(self.lines))
            self.lines.append(line)
            if line.startswith("worker "):
                number, pid = line.split(":")
                self.pids[int(number.split()[1])] = int(pid.split()[1])
            if " companion on " in line:
                self.base = line.split(" on ")[1].split()[0].rstrip("/")
            assert time.monotonic() < deadline, "".join(self.lines)
        threading.Thread(target=self._drain, daemon=True).start()
        self.session = requests.Session()
        while True:      # (with workers, the URL is printed before they have built their apps)
            try:
                if self.session.get(self.base + "/api/time", timeout=5).status_code == 200:
                    break
            except requests.RequestException:
                pass
            assert time.monotonic() < deadline, "no worker answered:\n" + "".join(self.lines)
            time.sleep(0.2)

    def _drain(self):
        for line in self.proc.stdout:
            self.lines.append(line)

    def get(self, path, token=None, **kw):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.session.get(self.base + path, headers={**headers, **kw.pop("headers", {})},
                                timeout=30, **kw)

    def post(self, path, body, token=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.session.post(self.base + path, json=body, headers=headers, timeout=30)

    def kill(self):
        self.proc.kill()
        self.proc.wait(10)

    def stop(self):
        """SIGTERM: the companion stops every process it started (tests/test_companion_stop.py);
        SIGKILL if it has not ended after 20 s (its workers die with it)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@pytest.fixture
def start(pg_url):
    started: list[Companion] = []

    def make(workers: int = 1) -> Companion:
        c = Companion(pg_url, workers)
        started.append(c)
        return c
    try:
        yield make
    finally:
        for c in started:
            c.stop()


def new_table(c: Companion, game="shinjuku", players=("Aki", "Ben")) -> tuple[str, str]:
    r = c.post("/api/tables", {"game": game, "players": list(players), "seed": 11})
    assert r.status_code == 201, r.text
    return r.json()["code"], r.json()["host_token"]


def first_legal(c: Companion, code: str, token: str) -> tuple[int, dict | None]:
    r = c.get(f"/api/tables/{code}/legal", token)
    assert r.status_code == 200, r.text
    moves = r.json()["moves"]
    return r.json()["seq"], (moves[0] if moves else None)


def events(c: Companion, code: str, since: int = 0) -> list[dict]:
    r = c.get(f"/api/tables/{code}/events?since={since}", headers={"Accept": "application/json"})
    assert r.status_code == 200, r.text
    return r.json()["events"]


def test_any_worker_answers_any_table_and_a_killed_worker_is_replaced(start):
    hosted = start(workers=2)
    assert len(hosted.pids) == 2
    code, token = new_table(hosted)
    for _ in range(6):                      # each request on a new connection: either worker
        seq, move = first_legal(hosted, code, token)
        fresh = requests.post(f"{hosted.base}/api/tables/{code}/moves", timeout=30,
                              json={"expected_seq": seq, "move": move},
                              headers={"Authorization": f"Bearer {token}", "Connection": "close"})
        assert fresh.status_code == 200, fresh.text
    os.kill(hosted.pids[1], signal.SIGKILL)
    deadline = time.monotonic() + START_S
    while not any("worker 1 (pid" in line and "signal 9" in line for line in hosted.lines):
        assert time.monotonic() < deadline, "".join(hosted.lines)
        time.sleep(0.1)
    for _ in range(4):                      # the other worker (and the new one) go on
        r = requests.get(f"{hosted.base}/api/tables/{code}", headers={"Connection": "close"}, timeout=30)
        assert r.status_code == 200 and r.json()["seq"] == 6
    assert hosted.proc.poll() is None


def test_a_write_on_one_worker_reaches_a_live_stream_on_the_other(start):
    a, b = start(), start()
    code, token = new_table(a)
    seq, move = first_legal(a, code, token)
    got: list[tuple[float, dict]] = []
    opened = threading.Event()

    def listen():
        with requests.get(f"{b.base}/api/tables/{code}/events?since={seq}", stream=True, timeout=60,
                          headers={"Accept": "text/event-stream"}) as r:
            assert r.status_code == 200
            numbered = False             # an `id:` line: the message is an event of the log
            for line in r.iter_lines(decode_unicode=True):
                opened.set()
                if line.startswith("id: "):
                    numbered = True
                elif line.startswith("data: ") and numbered:
                    got.append((time.monotonic(), json.loads(line[6:])))
                    return
                elif not line:
                    numbered = False
    reader = threading.Thread(target=listen, daemon=True)
    reader.start()
    assert opened.wait(60)
    time.sleep(0.5)                          # the stream is waiting (its first messages are sent)
    sent = time.monotonic()
    assert a.post(f"/api/tables/{code}/moves", {"expected_seq": seq, "move": move}, token).status_code == 200
    reader.join(10)   # B's stream heartbeat is 15 s: only a notification from A's write wakes it sooner
    assert got and got[0][1]["seq"] == seq + 1 and got[0][1]["kind"] == "move"
    print(f"change on worker A reached a stream on worker B after {1000 * (got[0][0] - sent):.0f} ms")


def test_racing_writers_through_two_workers_exactly_one_wins_each_seq_and_a_key_appends_once(start):
    a, b = start(), start()
    code, token = new_table(a)
    rounds = 4
    for _ in range(rounds):
        seq, move = first_legal(a, code, token)
        gate = threading.Barrier(8)
        answers: list[int] = []

        def race(worker):
            session = requests.Session()
            gate.wait()
            r = session.post(f"{worker.base}/api/tables/{code}/moves", timeout=60,
                             json={"expected_seq": seq, "move": move},
                             headers={"Authorization": f"Bearer {token}"})
            answers.append(r.status_code)
        racers = [threading.Thread(target=race, args=((a, b)[i % 2],)) for i in range(8)]
        for t in racers:
            t.start()
        for t in racers:
            t.join()
        assert sorted(answers) == [200] + [409] * 7, answers
    log = events(b, code)
    assert [e["seq"] for e in log] == list(range(1, rounds + 1))
    # one request retried at once through both workers (the same Idempotency-Key): appended once,
    # and every answer is the first one's
    seq, move = first_legal(a, code, token)
    gate = threading.Barrier(8)
    replies: list[tuple[int, bytes]] = []

    def retry(worker):
        session = requests.Session()
        gate.wait()
        r = session.post(f"{worker.base}/api/tables/{code}/moves", timeout=60,
                         json={"expected_seq": seq, "move": move},
                         headers={"Authorization": f"Bearer {token}", "Idempotency-Key": "once"})
        replies.append((r.status_code, r.content))
    racers = [threading.Thread(target=retry, args=((a, b)[i % 2],)) for i in range(8)]
    for t in racers:
        t.start()
    for t in racers:
        t.join()
    assert {status for status, _ in replies} == {200} and len({body for _, body in replies}) == 1
    assert [e["seq"] for e in events(a, code)] == list(range(1, rounds + 2))


def test_kill_9_of_a_worker_mid_burst_loses_no_acknowledged_write(start):
    a, b = start(), start()
    tables = [new_table(a, game) for game in GAMES]
    acked: list[tuple[str, int, dict]] = []
    stop = threading.Event()

    def burst(code, token):
        session = requests.Session()
        while not stop.is_set():
            try:
                r = session.get(f"{a.base}/api/tables/{code}/legal", timeout=30,
                                headers={"Authorization": f"Bearer {token}"})
                moves = r.json()["moves"]
                if not moves:
                    return
                r = session.post(f"{a.base}/api/tables/{code}/moves", timeout=30,
                                 json={"expected_seq": r.json()["seq"], "move": moves[0]},
                                 headers={"Authorization": f"Bearer {token}"})
            except (requests.RequestException, ValueError):
                return                            # worker A is gone
            if r.status_code == 200:
                acked.append((code, r.json()["seq"], moves[0]))
    writers = [threading.Thread(target=burst, args=t) for t in tables]
    for t in writers:
        t.start()
    deadline = time.monotonic() + START_S
    while len(acked) < 40 and time.monotonic() < deadline:
        time.sleep(0.05)
    a.kill()                                      # SIGKILL, in the middle of the writes
    stop.set()
    for t in writers:
        t.join(30)
    assert len(acked) >= 40
    by_table = {code: {e["seq"]: e for e in events(b, code)} for code, _ in tables}
    for code, seq, move in acked:
        assert seq in by_table[code], f"acknowledged event {seq} of {code} is lost"
        assert by_table[code][seq]["kind"] == "move"
    for code, log in by_table.items():
        assert sorted(log) == list(range(1, len(log) + 1))     # no gap, nothing half-written


def timer_table(c: Companion, seconds: int) -> tuple[str, str]:
    code, token = new_table(c)
    r = c.post(f"/api/tables/{code}/timers", {"expected_seq": 0, "timer": "Egg", "action": "start",
                                              "seconds": seconds}, token)
    assert r.status_code == 200, r.text
    return code, token


def expiries(c: Companion, code: str) -> list[dict]:
    return [e for e in events(c, code) if e["kind"] == "expire"]


def test_each_expiry_is_delivered_once_across_two_workers(start):
    a, b = start(), start()
    tables = [timer_table((a, b)[i % 2], 2) for i in range(8)]
    deadline = time.monotonic() + 60
    while not all(expiries(a, code) for code, _ in tables):
        assert time.monotonic() < deadline, "a timer's end was not delivered"
        time.sleep(0.3)
    time.sleep(2)                                  # (a second delivery would have come by now)
    for code, _ in tables:
        (once,) = expiries(b, code)
        assert once["timer"] == "Egg"
        assert [e["seq"] for e in events(b, code)] == [1, 2]


def test_a_timer_ends_on_time_after_the_worker_that_started_it_is_killed(start):
    a, b = start(), start()
    code, token = timer_table(a, 3)
    a.kill()
    deadline = time.monotonic() + 60
    while not expiries(b, code):
        assert time.monotonic() < deadline, "the surviving worker did not deliver the timer's end"
        time.sleep(0.3)
    (once,) = expiries(b, code)
    started = events(b, code)[0]["at_ms"]
    assert once["deadline_ms"] == started + 3000
    assert [e["seq"] for e in events(b, code)] == [1, 2]


@pytest.mark.parametrize("argv, says", [
    (["--workers", "2"], "--workers needs --database postgresql://"),
    (["--workers", "2", "--data", "somewhere"], "--workers needs --database postgresql://"),
    (["--database", "mysql://x/y"], "--database must be a postgresql://"),
    (["--database", "postgresql://x/y", "--data", "d"], "not both"),
])
def test_workers_without_postgresql_are_refused_in_one_line(argv, says, capsys):
    from companion.serve.cli import main
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0]


def test_an_unreachable_database_stops_the_start_in_one_line(tmp_path):
    from pg_cluster import _free_port
    r = subprocess.run([sys.executable, "-m", "companion", "--database",
                        f"postgresql://postgres@127.0.0.1:{_free_port()}/none", "--port", "0"],
                       cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("error: the database postgresql://postgres@127.0.0.1:") and "cannot be used" in line


def test_connections_the_database_closed_are_replaced_and_a_database_away_is_503(pg_url, pg_cluster):
    from companion import create_app
    from companion.testing import token_client
    from pg_cluster import run_sql
    app = create_app({"DATABASE_URL": pg_url})
    client = token_client(app)
    code = client.post("/api/tables", json={"game": "jutaku", "players": ["Eri"]}).json["code"]
    assert client.get(f"/api/tables/{code}").status_code == 200
    # the server drops every connection of the companion (as a database restart does)
    dropped = run_sql({"DATABASE_URL": pg_url}, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                      "WHERE datname = current_database() AND pid <> pg_backend_pid()")
    assert len(dropped) >= 2                       # the pooled one and the listener at least
    assert client.get(f"/api/tables/{code}").status_code == 200     # no request pays for it
    legal = client.get(f"/api/tables/{code}/legal").json
    r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": 0, "move": legal["moves"][0]})
    assert r.status_code == 200
    pg_cluster.drop(pg_url)                        # the database away altogether
    r = client.get(f"/api/tables/{code}")
    assert r.status_code == 503 and r.headers["Retry-After"] == "1" and "busy" in r.json["error"]
    app.extensions["tokyo"].hub.stop()


def test_a_timer_claimed_by_a_worker_that_died_is_delivered_when_its_lease_ends(pg_url):
    """Worker A claimed the due timer (its lease is in the database) and was killed before it
    appended the expiry: worker B leaves it alone while the lease runs, then delivers it, once."""
    from companion import create_app
    from companion.store.postgres import LEASE_MS, PgStore
    from companion.testing import FakeClock, token_client
    clock = FakeClock()
    b = create_app({"DATABASE_URL": pg_url, "CLOCK": clock})
    client = token_client(b)
    code = client.post("/api/tables", json={"game": "jutaku", "players": ["Eri"]}).json["code"]
    r = client.post(f"/api/tables/{code}/timers", json={"expected_seq": 0, "timer": "Egg",
                                                        "action": "start", "seconds": 10})
    assert r.status_code == 200
    b.extensions["tokyo"].expiry.stop()          # B's thread sleeps; its steps are taken by hand
    clock.now_ms += 10_000                        # (moved without waking anyone)
    a = PgStore(pg_url)
    assert a.claim_due(clock()) == [code]         # A claims it ... and dies
    a.close()
    b.extensions["tokyo"].expiry.run_due()
    assert client.get(f"/api/tables/{code}").json["seq"] == 1          # leased: not B's yet
    clock.now_ms += LEASE_MS
    b.extensions["tokyo"].expiry.run_due()
    b.extensions["tokyo"].expiry.run_due()
    log = client.get(f"/api/tables/{code}/events?since=0", headers={"Accept": "application/json"}).json
    assert [e["kind"] for e in log["events"]] == ["timer", "expire"]
    assert log["events"][1]["deadline_ms"] == log["events"][0]["at_ms"] + 10_000
    b.extensions["tokyo"].hub.stop()


def test_the_live_streams_read_many_tables_at_once_and_see_what_one_read_each_sees(pg_url, monkeypatch):
    """companion.live.streams reads every table due in one transaction (PgStore.reading_many): each viewer
    is shown exactly what a read of its table alone shows (the events after any point, the table,
    a sealed bid only to its seat and the host), also by a worker that has none of the tables in
    memory (views from snapshots); and with the views in memory the reads send no statement beyond
    the three that fetched the tables' news."""
    import psycopg
    from companion import create_app
    from companion.games.contract import HOST
    from companion.testing import FakeClock, token_client
    from testgames import TEST_GAMES
    config = {"DATABASE_URL": pg_url, "EXTRA_GAMES": TEST_GAMES, "SNAPSHOT_EVERY": 2,
              "CLOCK": FakeClock()}
    app = create_app(config)
    client = token_client(app)
    codes = []
    for n in range(3):
        code = client.post("/api/tables", json={"game": "sealed-bid", "players": ["Aki", "Ben"]}).json["code"]
        assert client.post(f"/api/tables/{code}/seats", json={"player": 0}).status_code == 201
        for seq, move in enumerate([{"type": "start-round", "prize": 1 + n},
                                    {"type": "bid", "player": 0, "amount": 3 + n}]):
            r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq, "move": move})
            assert r.status_code == 200, r.json
        codes.append(code)
    code = client.post("/api/tables", json={"game": "counter", "players": ["A", "B"]}).json["code"]
    for seq in range(5):
        r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq,
                                                           "move": {"player": seq % 2, "add": 1}})
        assert r.status_code == 200, r.json
    assert client.post(f"/api/tables/{code}/undo", json={"expected_seq": 5}).status_code == 200
    codes.append(code)

    def shown(tables, code, after):
        reading = tables.reading(code, after)
        return {who: (reading.events(after, who), reading.table(who)) for who in (None, HOST, 0, 1)}

    tables = app.extensions["tokyo"].tables
    alone = {(code, after): shown(tables, code, after) for code in codes for after in (0, 1, 3)}
    assert alone[codes[0], 0][0][0][-1]["move"]["amount"] == 3                 # the bidder's own
    assert alone[codes[0], 0][1][0][-1]["move"]["amount"] == "sealed"          # the other seat's
    executed: list[str] = []                      # the statements this thread sends
    real, me = psycopg.Connection.execute, threading.get_ident()

    def execute(self, query, *args, **kw):
        if threading.get_ident() == me:
            executed.append(query)
        return real(self, query, *args, **kw)
    monkeypatch.setattr(psycopg.Connection, "execute", execute)
    cold = create_app(config)                      # another worker: no view in its memory
    for after in (0, 1, 3):
        mine = {key: value for key, value in alone.items() if key[1] == after}
        executed.clear()
        with tables.store.reading_many({code: after for code in codes}):
            fetched = len(executed)
            together = {(code, after): shown(tables, code, after) for code in codes}
            assert executed[fetched:] == []
        assert fetched == 4, executed              # BEGIN and the three statements of the news
        assert together == mine
        with cold.extensions["tokyo"].tables.store.reading_many({code: after for code in codes}):
            assert {(c, after): shown(cold.extensions["tokyo"].tables, c, after) for c in codes} == mine
    app.extensions["tokyo"].hub.stop()
    cold.extensions["tokyo"].hub.stop()
