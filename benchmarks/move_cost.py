"""Issue 24's in-process yardstick: the companion's own CPU per accepted move against the bare append's.

    .venv/bin/python benchmarks/move_cost.py [--moves 1000] [--rounds 5] [--top 30] [--sort tottime]
                                             [--only sqlite|postgresql] [--no-profile] [--companion DIR]
                                             [--answer seq|state]

Where benchmarks/append_bench.py serves both apps over HTTP and counts POSTs per second (what the issue
asks for, but only meaningful on a quiet machine), this calls each app straight through WSGI, one
request after the other in this one thread, and measures the process's CPU time (user + system, every
thread of the process: the PostgreSQL listener's too), which a busy machine disturbs far less than it
does a throughput. What is left out: waitress (about 0.35 ms per POST here, the same for both apps) and
the database server's own CPU (PostgreSQL's backends).

The companion (companion.app.create_app, the same settings as served): the moves of a seeded Shinjuku
game (benchmarks/companion_bench.py), one table after another, each POST /api/tables/<code>/moves with
the host token, expected_seq, a fresh Idempotency-Key and Prefer: return=minimal as the pages send it
(--answer state: without it, answered with the state); every answer must be 200. Tables are made,
and the requests' environ built, before the clock starts. The bare app (benchmarks/yardstick/bare_append.py):
the same bodies, one row per POST. One request at a time, so every SQLite POST commits (an fsync) on its
own. The figure printed is the median of --rounds rounds of --moves POSTs each, fresh tables each round.

Then a cProfile of one more round of the companion, by CPU time (time.process_time, so waiting for an
fsync or the database is not counted), its top --top lines.

PostgreSQL (when Debian's initdb is there: tests/pg_cluster.py, fsync=on as served): the same, the
companion and the bare app each on their own database of one throwaway cluster.

Then the companion alone again, each move sent with the token of the seat that moves (as phones send
them) instead of the host's.

--companion DIR measures the companion of another checkout (e.g. `git archive <commit> companion generator
assets layouts pyproject.toml | tar -x -C DIR`), for a before/after in one quiet window; the rest is
always this one's.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "benchmarks" / "yardstick"))

from companion_bench import PLAYERS, SEED, game_moves  # noqa: E402


def _environ(path: str, body: dict, headers: dict) -> dict:
    from werkzeug.test import EnvironBuilder
    builder = EnvironBuilder(path=path, method="POST", data=json.dumps(body),
                             headers={"Content-Type": "application/json", "Accept": "application/json",
                                      **headers})
    try:
        return builder.get_environ()
    finally:
        builder.close()


def _call(app, environ: dict) -> tuple[str, bytes]:
    status = []

    def start_response(s, headers, exc_info=None):
        status.append(s)

    body = b"".join(app(environ, start_response))
    return status[0], body


class CompanionRun:
    name = "companion"

    def __init__(self, config: dict, moves: list[dict]):
        from companion.app import create_app
        self.app = create_app(config)
        self.client = self.app.test_client()
        self.moves = moves

    def new_table(self) -> tuple[str, str]:
        r = self.client.post("/api/tables", json={"game": "shinjuku", "players": PLAYERS,
                                                  "options": {"deck": "companion"}, "seed": SEED})
        assert r.status_code == 201, r.get_json()
        j = r.get_json()
        return j["code"], j["host_token"]

    def requests(self, n: int, seats: bool = False) -> list[dict]:
        """`n` move POSTs with the host token, or (`seats`) each with the token of the seat that
        moves (seat 0's for the table's own moves), as the players' phones send them."""
        envs: list[dict] = []
        while len(envs) < n:
            code, token = self.new_table()
            tokens = {}
            if seats:
                for p in range(len(PLAYERS)):
                    r = self.client.post(f"/api/tables/{code}/seats", json={"player": p})
                    assert r.status_code == 201, r.get_json()
                    tokens[p] = r.get_json()["token"]
            for seq, move in enumerate(self.moves[:n - len(envs)]):
                mover = move.get("player") if isinstance(move.get("player"), int) else 0
                envs.append(_environ(f"/api/tables/{code}/moves", {"expected_seq": seq, "move": move},
                                     {"Authorization": f"Bearer {tokens.get(mover, token)}",
                                      "Idempotency-Key": uuid.uuid4().hex, **PREFER[ANSWER]}))
        return envs

    def reads(self, n: int) -> list[dict]:
        """GET of one table (cached: it was just moved on), with the host token."""
        from werkzeug.test import EnvironBuilder
        code, token = self.new_table()
        for seq, move in enumerate(self.moves[:20]):
            _call(self.app, _environ(f"/api/tables/{code}/moves", {"expected_seq": seq, "move": move},
                                     {"Authorization": f"Bearer {token}"}))
        envs = []
        for _ in range(n):
            b = EnvironBuilder(path=f"/api/tables/{code}", headers={"Authorization": f"Bearer {token}",
                                                                      "Accept": "application/json"})
            envs.append(b.get_environ())
            b.close()
        return envs

    def close(self) -> None:
        s = self.app.extensions["tokyo"]
        s.hub.stop()


#: What the moves ask to be answered with (--answer): their seq alone, as the pages ask, or the state.
ANSWER = "seq"
PREFER = {"seq": {"Prefer": "return=minimal"}, "state": {}}


class BareRun:
    name = "bare append"

    def __init__(self, app, moves: list[dict]):
        self.app, self.moves = app, moves

    def requests(self, n: int) -> list[dict]:
        envs: list[dict] = []
        while len(envs) < n:
            code = uuid.uuid4().hex[:8]
            for seq, move in enumerate(self.moves[:n - len(envs)]):
                envs.append(_environ(f"/append/{code}", {"expected_seq": seq, "move": move},
                                     {"Idempotency-Key": uuid.uuid4().hex}))
        return envs

    def close(self) -> None:
        pass


def cpu_ms_per_request(app, envs: list[dict], profile: cProfile.Profile | None = None) -> float:
    """CPU ms per request of `envs` through `app`, one after the other; every answer must be 200."""
    statuses = []
    t0 = time.process_time()
    if profile is not None:
        profile.enable()
    for env in envs:
        statuses.append(_call(app, env)[0])
    if profile is not None:
        profile.disable()
    cpu = time.process_time() - t0
    bad = [s for s in statuses if not s.startswith("200")]
    if bad:
        raise SystemExit(f"{len(bad)} of {len(envs)} answers were not 200 (first: {bad[0]})")
    return cpu / len(envs) * 1000


def measure(runs: list, args) -> dict[str, list[float]]:
    """Median-worthy rounds, alternating the order of the apps round by round."""
    figures: dict[str, list[float]] = {r.name: [] for r in runs}
    for r in runs:                                   # warm-up: imports, first connections, caches
        cpu_ms_per_request(r.app, r.requests(min(200, args.moves)))
    for i in range(args.rounds):
        for r in (runs if i % 2 == 0 else runs[::-1]):
            envs = r.requests(args.moves)
            figures[r.name].append(cpu_ms_per_request(r.app, envs))
    return figures


def report(title: str, runs: list, args) -> list[str]:
    figures = measure(runs, args)
    out = [f"{title}: {args.rounds} rounds of {args.moves} POSTs, one at a time, load average "
           f"{os.getloadavg()[0]:.1f}"]
    med = {}
    for name, values in figures.items():
        med[name] = statistics.median(values)
        out.append(f"  {name:<12} CPU {med[name]:.3f} ms per POST, least {min(values):.3f} (rounds: "
                   f"{', '.join(f'{v:.3f}' for v in values)})")
    out.append(f"  ratio companion / bare (CPU per POST): {med['companion'] / med['bare append']:.2f}")
    comp = runs[0]
    seats = [cpu_ms_per_request(comp.app, comp.requests(args.moves, seats=True)) for _ in range(args.rounds)]
    out.append(f"  companion, each move with its seat's token: CPU {statistics.median(seats):.3f} ms per POST, "
               f"least {min(seats):.3f}")
    envs = comp.reads(args.moves)
    cpu_ms_per_request(comp.app, envs[:100])
    out.append(f"  GET a table (cached, host token): CPU {cpu_ms_per_request(comp.app, envs):.3f} ms per read")
    if args.top:
        prof = cProfile.Profile(time.process_time)
        cpu = cpu_ms_per_request(comp.app, comp.requests(args.moves), prof)
        text = io.StringIO()
        stats = pstats.Stats(prof, stream=text)
        stats.sort_stats(args.sort).print_stats(args.top)
        lines = [line for line in text.getvalue().splitlines() if line.strip()]
        start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
        out.append(f"  profile of the companion ({args.moves} POSTs, {cpu:.3f} ms each under the profiler; "
                   f"by CPU time, sorted by {args.sort}, top {args.top}):")
        out += ["    " + line.replace(str(REPO) + "/", "").replace(sys.prefix + "/", "") for line in lines[start:]]
    return out


def run_sqlite(args, moves) -> list[str]:
    from bare_append import sqlite_app
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        comp = CompanionRun({"DATA_DIR": a}, moves)
        bare = BareRun(sqlite_app(os.path.join(b, "bare.sqlite3")), moves)
        try:
            return report("SQLite (WAL, synchronous=FULL)", [comp, bare], args)
        finally:
            comp.close()


def run_postgres(args, moves) -> list[str]:
    sys.path.insert(0, str(REPO / "tests"))
    from pg_cluster import Cluster, served_databases
    from bare_append import postgres_app
    with served_databases() as urls:
        if urls is None:
            return [f"PostgreSQL: skipped ({Cluster.unavailable()})"]
        a, b = urls
        comp = CompanionRun({"DATABASE_URL": a}, moves)
        bare = BareRun(postgres_app(b), moves)
        try:
            return report("PostgreSQL (one process, TCP to a local cluster)", [comp, bare], args)
        finally:
            comp.close()


def revision(where: Path) -> str:
    r = subprocess.run(["git", "-C", str(where), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if r.returncode or not (where / ".git").exists():
        return "not a git checkout"
    dirty = subprocess.run(["git", "-C", str(where), "status", "--porcelain", "--", "companion"],
                           capture_output=True, text=True).stdout.strip()
    return (r.stdout.strip() or "unknown") + (" + uncommitted changes" if dirty else "")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=1000, help="POSTs per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--top", type=int, default=30, help="lines of the profile (0: no profile)")
    ap.add_argument("--sort", default="tottime", choices=["tottime", "cumulative", "ncalls"])
    ap.add_argument("--no-profile", dest="top", action="store_const", const=0)
    ap.add_argument("--only", choices=["sqlite", "postgresql"])
    ap.add_argument("--companion", metavar="DIR", help="measure the companion package of this folder")
    ap.add_argument("--answer", choices=["seq", "state"], default="seq",
                    help="what the companion's moves ask for: their seq alone (Prefer: return=minimal, as "
                         "the pages ask; the default) or the state after them")
    args = ap.parse_args(argv)
    global ANSWER
    ANSWER = args.answer
    where = REPO
    if args.companion:
        where = Path(args.companion).resolve()
        sys.path.insert(0, str(where))
        for name in [m for m in sys.modules if m == "companion" or m.startswith(("companion.", "generator"))]:
            del sys.modules[name]
    moves = game_moves()
    import companion
    assert Path(companion.__file__).resolve().parents[1] == where, companion.__file__
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; machine: {os.cpu_count()} CPUs; "
          f"Shinjuku, {len(moves)} moves per game; companion of {where} ({revision(where)}); moves answered "
          f"with {'their seq alone (Prefer: return=minimal)' if ANSWER == 'seq' else 'the state'}", flush=True)
    if args.only != "postgresql":
        print("\n".join(run_sqlite(args, moves)), flush=True)
    if args.only != "sqlite":
        print("\n".join(run_postgres(args, moves)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
