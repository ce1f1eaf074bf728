"""Companion benchmark (not a test): accepted moves per second and latency percentiles with 8
concurrent clients on loopback against the real server (`python -m companion`, waitress).

Each client plays its own Shinjuku table (companion deck, fixed seed) through a legal game
precomputed with the engine's seeded playout, one POST /moves per move with expected_seq and an
Idempotency-Key, and starts a new table when the game is over. Then the server is restarted and a
table with a long log is read cold (snapshots bound the replay).

    .venv/bin/python benchmarks/companion_bench.py [--clients 8] [--seconds 15] [--threads 16]
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

PLAYERS = ["Aki", "Ben", "Chie", "Dan"]
SEED = 11


def game_moves() -> list[dict]:
    from generator import canon
    from companion.games.shinjuku.rules import RULES
    from companion.games.shinjuku.rules.playout import playout
    rules = RULES(canon.load("shinjuku"))
    state = rules.setup(PLAYERS, {"deck": "companion"}, SEED)
    moves, _ = playout(rules, state, SEED)
    return moves


class Client:
    """One phone: its own connection, and the host token of each table it created."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.tokens: dict[str, str] = {}

    def call(self, method: str, path: str, body=None, key: str | None = None):
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if key:
            headers["Idempotency-Key"] = key
        code = path.split("/")[3] if path.startswith("/api/tables/") else None
        if code in self.tokens:
            headers["Authorization"] = f"Bearer {self.tokens[code]}"
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None,
                          headers=headers)
        r = self.conn.getresponse()
        return r.status, json.loads(r.read())

    def new_table(self) -> str:
        status, body = self.call("POST", "/api/tables", {"game": "shinjuku", "players": PLAYERS,
                                                         "options": {"deck": "companion"}, "seed": SEED})
        assert status == 201, body
        self.tokens[body["code"]] = body["host_token"]
        return body["code"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, data: str, threads: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "companion", "--port", str(port), "--data", data,
                             "--threads", str(threads)], cwd=REPO, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            Client(port).call("GET", "/api/time")
            return proc
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the companion did not start")


def run_clients(port: int, moves: list[dict], clients: int, seconds: float):
    latencies: list[float] = []
    counts = {"accepted": 0, "rejected": 0, "tables": 0}
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    start_line = threading.Barrier(clients)
    longest = {"code": None, "seq": 0}

    def worker():
        c = Client(port)
        mine, ok, bad, tables = [], 0, 0, 0
        code, seq = c.new_table(), 0
        tables += 1
        start_line.wait()
        while time.monotonic() < stop:
            if seq >= len(moves):
                code, seq = c.new_table(), 0
                tables += 1
            t0 = time.perf_counter()
            status, body = c.call("POST", f"/api/tables/{code}/moves",
                                  {"expected_seq": seq, "move": moves[seq]}, key=uuid.uuid4().hex)
            mine.append(time.perf_counter() - t0)
            if status == 200:
                ok += 1
                seq = body["seq"]
            else:
                bad += 1
                seq = len(moves)     # out of step: start a new table
        with lock:
            latencies.extend(mine)
            counts["accepted"] += ok
            counts["rejected"] += bad
            counts["tables"] += tables
            if seq > longest["seq"]:
                longest.update(code=code, seq=seq)

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - t0
    return latencies, counts, elapsed, longest


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def long_log_read(port: int, data: str, threads: int, proc: subprocess.Popen, moves: list[dict]):
    """A table with a long log (a whole game plus timer events), read cold after a restart."""
    c = Client(port)
    code, seq = c.new_table(), 0
    for m in moves:
        status, body = c.call("POST", f"/api/tables/{code}/moves", {"expected_seq": seq, "move": m})
        seq = body["seq"]
        for action in ("start", "reset"):
            body = {"expected_seq": seq, "timer": "turn", "action": action}
            if action == "start":
                body["seconds"] = 60
            status, answer = c.call("POST", f"/api/tables/{code}/timers", body)
            seq = answer["seq"]
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=10)
    proc = start_server(port, data, threads)
    c = Client(port)             # a phone without a seat reads the table (no token needed)
    t0 = time.perf_counter()
    status, body = c.call("GET", f"/api/tables/{code}")
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(50):
        c.call("GET", f"/api/tables/{code}")
    warm = (time.perf_counter() - t0) / 50
    return proc, seq, cold, warm


def deep_undo(port: int, levels: int, timers_per_level: int = 48):
    """The review's chain: one move, 48 timer starts, undo, again and again (each undo reaches back
    past a snapshot window). Returns the undo latencies (s) by level and a cached read at the end."""
    c = Client(port)
    code = c.new_table()
    status, body = c.call("POST", f"/api/tables/{code}/moves",
                          {"expected_seq": 0, "move": {"type": "place-customers", "player": 0}})
    seq = body["seq"]
    status, table = c.call("GET", f"/api/tables/{code}")
    ward = table["needs"]["wards"][0]
    undo_s = []
    for level in range(levels):
        status, body = c.call("POST", f"/api/tables/{code}/moves",
                              {"expected_seq": seq, "move": {"type": "move-matsuri", "player": 0,
                                                             "ward": ward}})
        assert status == 200, body
        seq = body["seq"]
        for _ in range(timers_per_level):
            status, body = c.call("POST", f"/api/tables/{code}/timers",
                                  {"expected_seq": seq, "timer": "t", "action": "start", "seconds": 60})
            seq = body["seq"]
        t0 = time.perf_counter()
        status, body = c.call("POST", f"/api/tables/{code}/undo", {"expected_seq": seq})
        undo_s.append(time.perf_counter() - t0)
        assert status == 200, body
        seq = body["seq"]
    t0 = time.perf_counter()
    for _ in range(20):
        c.call("GET", f"/api/tables/{code}")
    return undo_s, (time.perf_counter() - t0) / 20, seq


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--threads", type=int, default=16)
    ap.add_argument("--undo-levels", type=int, default=100,
                    help="depth of the undo chain measured (each level is 50 events)")
    args = ap.parse_args(argv)

    moves = game_moves()
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        proc = start_server(port, data, args.threads)
        try:
            run_clients(port, moves, args.clients, 2)            # warm-up
            cpu0 = process_cpu(proc.pid)
            latencies, counts, elapsed, _ = run_clients(port, moves, args.clients, args.seconds)
            server_cpu = process_cpu(proc.pid) - cpu0
            proc, events, cold, warm = long_log_read(port, data, args.threads, proc, moves)
            undo_s, deep_read, deep_seq = deep_undo(port, args.undo_levels)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=10)
    rate = counts["accepted"] / elapsed
    ms = [x * 1000 for x in latencies]
    print(f"machine: {os.cpu_count()} CPUs; server: waitress, {args.threads} threads; "
          f"{args.clients} clients on loopback for {elapsed:.1f} s")
    print(f"game: Shinjuku, {len(moves)} legal moves per game (seeded playout), "
          f"{counts['tables']} tables played")
    print(f"accepted moves: {counts['accepted']} ({rate:.0f}/s), rejected: {counts['rejected']}")
    print(f"server CPU per accepted move: {server_cpu / max(1, counts['accepted']) * 1000:.2f} ms "
          f"({server_cpu / elapsed * 100:.0f} % of one core)")
    print(f"latency per move: p50 {statistics.median(ms):.1f} ms, p90 {pct(ms, 90):.1f} ms, "
          f"p99 {pct(ms, 99):.1f} ms, max {max(ms):.1f} ms")
    print(f"long log: a table with {events} events read after a restart in {cold * 1000:.1f} ms "
          f"(cold: snapshot + replay), then {warm * 1000:.2f} ms per read (cached)")
    undo_ms = [x * 1000 for x in undo_s]
    tenth = max(1, len(undo_ms) // 10)
    print(f"undo chain: {len(undo_ms)} levels, {deep_seq} events: undo p50 "
          f"{statistics.median(undo_ms):.1f} ms, max {max(undo_ms):.1f} ms; first tenth p50 "
          f"{statistics.median(undo_ms[:tenth]):.1f} ms, last tenth p50 "
          f"{statistics.median(undo_ms[-tenth:]):.1f} ms; then a read {deep_read * 1000:.2f} ms")
    goal = rate >= 700 and pct(ms, 99) < 50 and warm < 0.005 and max(undo_ms) < 20
    print("goal (>= 700 moves/s, p99 < 50 ms, cached long read < 5 ms, undo at any depth < 20 ms):",
          "met" if goal else "NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
