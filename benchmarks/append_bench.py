"""Issue 24's yardstick: the companion against the barest durable append, in one run, side by side.

    .venv/bin/python benchmarks/append_bench.py [--seconds 8] [--rounds 3] [--clients 8] [--threads 16]
                                                [--only sqlite|postgresql] [--workers 2] [--companion DIR]
                                                [--answer seq|state]

Both servers run at once on this machine, started the same way (waitress, the same thread count):
the companion (`python -m companion`) and benchmarks/yardstick/bare_append.py (Flask + one INSERT and
COMMIT per POST). Each round, 8 clients (threads in this process, one keep-alive connection each) post flat out
for --seconds to one server and then to the other (the order alternating by round, so a busy machine
weighs on both alike): to the companion, the moves of a seeded Shinjuku game, one table per client
(expected_seq and an Idempotency-Key on every POST, and Prefer: return=minimal as the phone's page
sends it, unless --answer state; a new table at the game's end); to the bare app,
the same bodies, one table per client. Printed per server: accepted POSTs/s (the median round), the
latency p50/p99 over all rounds, and the server's CPU per POST (user + system of its processes).

Then, on the companion alone:
- a read of a cached table: GET /api/tables/<code> 2,000 times from one client, server CPU per GET
  (and per GET …/legal);
- the live phones' fan-out: 50 and then 500 phones (raw SSE streams from their own loopback
  addresses, companion/live/loopback_phones.py) follow one table while 100 moves are posted to it one by
  one, each waiting until every phone has it; the server's CPU per delivered event is the CPU of
  the run minus that of the same 100 moves with no phone, divided by moves x phones.

PostgreSQL (a throwaway cluster from Debian's package, tests/pg_cluster.py, with fsync=on for this
run): the companion with --workers 2 against the bare app's 2 processes, each on its own database.
"""
from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import signal
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
sys.path.insert(0, str(REPO / "benchmarks"))

from companion_bench import PLAYERS, SEED, game_moves  # noqa: E402
from hosted_bench import cpu_s, server_pids  # noqa: E402


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method: str, path: str, body=None, token: str | None = None, key: str | None = None,
             prefer: str | None = None):
        headers = {"Accept": "application/json"}
        if prefer:
            headers["Prefer"] = prefer
        if body is not None:
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if key:
            headers["Idempotency-Key"] = key
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        r = self.conn.getresponse()
        return r.status, json.loads(r.read() or b"{}")


def wait_up(port: int, proc: subprocess.Popen, probe: str) -> None:
    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit(f"the server on port {port} ended at start")
        try:
            Client(port).call("GET" if probe.startswith("/api") else "POST", probe,
                              None if probe.startswith("/api") else {})
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"the server on port {port} did not start")


BARE = REPO / "benchmarks" / "yardstick" / "bare_append.py"

#: The checkout whose companion is measured (--companion: e.g. a worktree of an earlier commit, for a
#: before/after in one quiet window); the bare app and the clients are always this one's.
MEASURED = REPO
#: What the companion's clients ask a move to be answered with (--answer): "seq", as the phone's
#: page asks (Prefer: return=minimal: it reads the whole table after its move anyway), or "state",
#: API.md's default answer (the state after the move, about 4.8 KB for Shinjuku).
ANSWER = "seq"


def start(cmd: list[str], port: int, probe: str) -> subprocess.Popen:
    where = MEASURED if cmd[:2] == ["-m", "companion"] else REPO
    proc = subprocess.Popen([sys.executable, *cmd, "--port", str(port)], cwd=where,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(where)})
    wait_up(port, proc, probe)
    return proc


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()


class Companion:
    name = "companion"

    def __init__(self, port: int, moves: list[dict]):
        self.port, self.moves = port, moves

    def player(self):
        c = Client(self.port)
        state = {}

        def new():
            status, body = c.call("POST", "/api/tables", {"game": "shinjuku", "players": PLAYERS,
                                                          "options": {"deck": "companion"}, "seed": SEED})
            assert status == 201, body
            state.update(code=body["code"], token=body["host_token"], seq=0)

        new()

        def post() -> tuple[bool, float]:
            t0 = time.perf_counter()
            status, body = c.call("POST", f"/api/tables/{state['code']}/moves",
                                  {"expected_seq": state["seq"], "move": self.moves[state["seq"]]},
                                  token=state["token"], key=uuid.uuid4().hex,
                                  prefer="return=minimal" if ANSWER == "seq" else None)
            took = time.perf_counter() - t0
            state["seq"] = body["seq"] if status == 200 else len(self.moves)
            if state["seq"] >= len(self.moves):
                new()                                  # (a new table: not a move, not timed)
            return status == 200, took
        return post


class Bare:
    name = "bare append"

    def __init__(self, port: int, moves: list[dict]):
        self.port, self.moves = port, moves

    def player(self):
        c = Client(self.port)
        state = {"code": uuid.uuid4().hex[:8], "seq": 0}

        def post() -> tuple[bool, float]:
            if state["seq"] >= len(self.moves):
                state.update(code=uuid.uuid4().hex[:8], seq=0)
            t0 = time.perf_counter()
            status, body = c.call("POST", f"/append/{state['code']}",
                                  {"expected_seq": state["seq"], "move": self.moves[state["seq"]]},
                                  key=uuid.uuid4().hex)
            took = time.perf_counter() - t0
            if status == 200:
                state["seq"] = body["seq"]
            return status == 200, took
        return post


def flat_out(target, pids: list[int], clients: int, seconds: float) -> dict:
    """`clients` threads post as fast as answered for `seconds`: rate, latencies, CPU per POST."""
    players = [target.player() for _ in range(clients)]
    latencies: list[float] = []
    ok = [0]
    lock = threading.Lock()
    line = threading.Barrier(clients + 1)

    def worker(post):
        mine, n = [], 0
        line.wait()
        while time.monotonic() < stop_at:
            accepted, took = post()
            n += accepted
            mine.append(took)
        with lock:
            latencies.extend(mine)
            ok[0] += n

    stop_at = time.monotonic() + 3600
    threads = [threading.Thread(target=worker, args=(p,)) for p in players]
    for t in threads:
        t.start()
    cpu0, t0 = cpu_s(pids), time.monotonic()
    stop_at = t0 + seconds
    line.wait()
    for t in threads:
        t.join()
    elapsed, cpu = time.monotonic() - t0, cpu_s(pids) - cpu0
    return {"rate": ok[0] / elapsed, "lat": latencies, "cpu_ms": cpu / max(1, len(latencies)) * 1000,
            "accepted": ok[0], "sent": len(latencies)}


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def side_by_side(title: str, targets: list, pids: dict, args) -> list[str]:
    rounds: dict[str, list[dict]] = {t.name: [] for t in targets}
    for t in targets:                                   # warm-up
        flat_out(t, pids[t.name], args.clients, 1.5)
    for r in range(args.rounds):
        for t in (targets if r % 2 == 0 else targets[::-1]):
            rounds[t.name].append(flat_out(t, pids[t.name], args.clients, args.seconds))
    out = [f"{title}: {args.clients} clients, {args.rounds} rounds of {args.seconds:.0f} s each, "
           f"load average {os.getloadavg()[0]:.1f}"]
    for name, rs in rounds.items():
        lat = [x * 1000 for r in rs for x in r["lat"]]
        each = ", ".join(f"{r['rate']:.0f}" for r in rs)
        out.append(f"  {name:<12} {statistics.median(r['rate'] for r in rs):6.0f} POSTs/s (rounds: "
                   f"{each}), p50 {statistics.median(lat):5.1f} ms, "
                   f"p99 {pct(lat, 99):5.1f} ms, server CPU {statistics.median(r['cpu_ms'] for r in rs):.2f} "
                   f"ms per POST, refused {sum(r['sent'] - r['accepted'] for r in rs)}")
    names = list(rounds)
    ratio = statistics.median(r["rate"] for r in rounds[names[0]]) / \
        statistics.median(r["rate"] for r in rounds[names[1]])
    out.append(f"  ratio companion / bare: {ratio:.2f}")
    return out


def cached_reads(port: int, pids: list[int], moves: list[dict], n: int = 2000) -> list[str]:
    c = Client(port)
    status, body = c.call("POST", "/api/tables", {"game": "shinjuku", "players": PLAYERS,
                                                  "options": {"deck": "companion"}, "seed": SEED})
    code, token, seq = body["code"], body["host_token"], 0
    for m in moves[:20]:
        status, b = c.call("POST", f"/api/tables/{code}/moves", {"expected_seq": seq, "move": m}, token=token)
        seq = b["seq"]
    out = []
    for what, path in (("GET a table", f"/api/tables/{code}"), ("GET …/legal", f"/api/tables/{code}/legal")):
        for _ in range(100):
            c.call("GET", path, token=token)
        cpu0, t0 = cpu_s(pids), time.perf_counter()
        for _ in range(n):
            c.call("GET", path, token=token)
        wall, cpu = time.perf_counter() - t0, cpu_s(pids) - cpu0
        out.append(f"  {what:<12} (cached, host token): server CPU {cpu / n * 1000:.2f} ms per read, "
                   f"{wall / n * 1000:.2f} ms from one client")
    return out


def fan_out(port: int, pids: list[int], moves: list[dict], phones_n: int, n_moves: int = 100) -> tuple[float, float]:
    """(server CPU s of n_moves posted one by one, each until every phone has it; delivered events)."""
    from companion.live.loopback_phones import Phone, address, open_all, wait_for
    c = Client(port)
    status, body = c.call("POST", "/api/tables", {"game": "shinjuku", "players": PLAYERS,
                                                  "options": {"deck": "companion"}, "seed": SEED})
    code, token = body["code"], body["host_token"]

    async def run():
        phones = [Phone(port, code, address(i, per_address=1), light=True) for i in range(phones_n)]
        if phones:
            await open_all(phones)
        await asyncio.sleep(0.5)
        cpu0 = cpu_s(pids)
        seq = 0
        loop = asyncio.get_running_loop()
        for m in moves[:n_moves]:
            status, b = await loop.run_in_executor(None, lambda: c.call(
                "POST", f"/api/tables/{code}/moves", {"expected_seq": seq, "move": m}, token=token))
            assert status == 200, b
            seq = b["seq"]
            if phones:
                assert await wait_for(phones, seq, 30), "a phone missed an event"
        cpu = cpu_s(pids) - cpu0
        for p in phones:
            p.close()
        return cpu, seq * phones_n
    return asyncio.run(run())


def fan_out_lines(port: int, pids: list[int], moves: list[dict]) -> list[str]:
    base, _ = fan_out(port, pids, moves, 0)
    out = [f"  fan-out: 100 moves with no phone: server CPU {base / 100 * 1000:.2f} ms per move"]
    for n in (50, 500):
        cpu, delivered = fan_out(port, pids, moves, n)
        out.append(f"  fan-out: {n} phones on the table, {delivered} events delivered: server CPU "
                   f"{(cpu - base) / delivered * 1e6:.0f} µs per delivered event "
                   f"({(cpu - base) / 100 * 1000:.1f} ms per move for all {n})")
    return out


def run_sqlite(args, moves) -> list[str]:
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        cp, bp = free_port(), free_port()
        comp = start(["-m", "companion", "--data", a, "--threads", str(args.threads), "--no-mdns"], cp, "/api/time")
        bare = start([str(BARE), "--data", b, "--threads", str(args.threads)], bp, "/append/probe")
        try:
            pids = {"companion": server_pids(comp), "bare append": server_pids(bare)}
            out = side_by_side("SQLite (WAL, synchronous=FULL), one process each", [Companion(cp, moves),
                               Bare(bp, moves)], pids, args)
            out += cached_reads(cp, pids["companion"], moves)
            out += fan_out_lines(cp, pids["companion"], moves)
        finally:
            stop(comp)
            stop(bare)
    return out


def run_postgres(args, moves) -> list[str]:
    sys.path.insert(0, str(REPO / "tests"))
    from pg_cluster import Cluster, served_databases
    with served_databases() as urls:
        if urls is None:
            return [f"PostgreSQL: skipped ({Cluster.unavailable()})"]
        a, b = urls
        subprocess.run([sys.executable, "-m", "companion", "migrate", "--database", a], cwd=MEASURED, check=True,
                       stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(MEASURED)})
        cp, bp = free_port(), free_port()
        comp = start(["-m", "companion", "--database", a, "--workers", str(args.workers), "--threads",
                      str(args.threads), "--no-mdns"], cp, "/api/time")
        bare = start([str(BARE), "--database", b, "--workers",
                      str(args.workers), "--threads", str(args.threads)], bp, "/append/probe")
        try:
            time.sleep(1)
            pids = {"companion": server_pids(comp), "bare append": [bare.pid, *children(bare.pid)]}
            out = side_by_side(f"PostgreSQL, {args.workers} workers each", [Companion(cp, moves),
                               Bare(bp, moves)], pids, args)
            out += cached_reads(cp, pids["companion"], moves)
        finally:
            stop(comp)
            stop(bare)
    return out


def revision(where: Path) -> str:
    r = subprocess.run(["git", "-C", str(where), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(where), "status", "--porcelain", "--", "companion"],
                           capture_output=True, text=True).stdout.strip()
    return (r.stdout.strip() or "unknown") + (" + uncommitted changes" if dirty else "")


def children(pid: int) -> list[int]:
    from hosted_bench import children_of
    return children_of(pid)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=8)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--threads", type=int, default=16)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", choices=["sqlite", "postgresql"])
    ap.add_argument("--companion", metavar="DIR", help="measure the companion of this checkout (default: "
                    "this one), e.g. `git worktree add /tmp/before <commit>`")
    ap.add_argument("--answer", choices=["seq", "state"], default="seq",
                    help="what the companion's moves ask for: their seq alone, as the phone's page asks "
                         "(Prefer: return=minimal; the default), or the state after them")
    args = ap.parse_args(argv)
    global MEASURED, ANSWER
    ANSWER = args.answer
    if args.companion:
        MEASURED = Path(args.companion).resolve()
    moves = game_moves()
    print(f"machine: {os.cpu_count()} CPUs; Shinjuku, {len(moves)} moves per game; companion of {MEASURED} "
          f"({revision(MEASURED)}); the companion's moves answered with "
          + ("their seq alone (Prefer: return=minimal, as the phone's page asks)" if ANSWER == "seq"
             else "the state after them"))
    if args.only != "postgresql":
        print("\n".join(run_sqlite(args, moves)), flush=True)
    if args.only != "sqlite":
        print("\n".join(run_postgres(args, moves)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
