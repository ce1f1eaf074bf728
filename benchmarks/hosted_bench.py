"""Hosted companion benchmark (not a test): a café's worth of tables and live phones on loopback
against the real server (`python -m companion`), printed.

50 Shinjuku tables (companion deck, a seeded legal game replayed move by move; after its end a
timer is started and reset in turn, so the table keeps changing); 4 phones per table, each with its
seat's token and its own live stream (SSE, from its own loopback address, as phones on a Wi-Fi
have); more anonymous streams (spectators, a screen on the wall) up to --streams in all (500). One
writer per table posts the moves (expected_seq, Idempotency-Key, one keep-alive connection).

Two phases of --seconds each: *flat out* (every writer posts its next move as soon as the last is
answered: accepted moves/s, latency p50/p99) and *café pace* (each table moves every --pace
seconds, as people do). For both: the change-to-phone delay (a move's POST sent -> its event
received by a phone) over every stream, p50/p99/max. And the server's memory per open stream (what
its resident memory grows by while the last four fifths of the streams open, per stream; sockets'
kernel buffers are not in it) and its thread count with every stream open.

Runs: SQLite, one worker (`python -m companion --data DIR`); and, when the command line has
`--workers` and `--database` and a PostgreSQL can be started (tests/pg_cluster.py: Debian's
initdb/pg_ctl), PostgreSQL with 2 workers; else it prints why that run is skipped (`--only` picks
one). The writers and the 500 phones run on the same machine as the server, by default in this one
process (one asyncio loop); `--phones-process` moves the phones to a process of their own (arrival
times are CLOCK_MONOTONIC, the same clock in every process). For each phase it prints the CPU
seconds each side used (the server's processes, PostgreSQL's, the writers', the phones') against
what the machine's cores offered, and the load average: the clients share the cores they measure.

    .venv/bin/python benchmarks/hosted_bench.py [--seconds 60] [--quick] [--tables 50] [--phones 4]
                                                [--streams 500] [--pace 2] [--workers 2] [--threads N]
                                                [--requests-at-once N]
                                                [--only sqlite|postgresql] [--phones-process]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import signal
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

from companion.live.loopback_phones import Phone, address, open_all, percentile  # noqa: E402

PLAYERS = ["Aki", "Ben", "Chie", "Dan"]


class Http:
    """A minimal keep-alive HTTP/1.1 JSON client (one writer's connection)."""

    def __init__(self, port: int, source: str):
        self.port, self.source = port, source
        self.reader = self.writer = None

    async def call(self, method: str, path: str, body=None, token: str | None = None,
                   key: str | None = None) -> tuple[int, dict]:
        for attempt in range(3):
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection(
                        "127.0.0.1", self.port, local_addr=(self.source, 0))
                data = json.dumps(body).encode() if body is not None else b""
                lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Accept: application/json",
                         f"Content-Length: {len(data)}"]
                if body is not None:
                    lines.append("Content-Type: application/json")
                if token:
                    lines.append(f"Authorization: Bearer {token}")
                if key:
                    lines.append(f"Idempotency-Key: {key}")
                self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
                head = await self.reader.readuntil(b"\r\n\r\n")
                status = int(head.split(b" ", 2)[1])
                length = int(re.search(rb"(?i)content-length:\s*(\d+)", head).group(1))
                payload = await self.reader.readexactly(length)
                if re.search(rb"(?i)connection:\s*close", head):
                    self.close()
                return status, json.loads(payload) if payload else {}
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Table:
    """One table: its writer, its seats' tokens and its phones."""

    def __init__(self, index: int, port: int, moves: list[dict]):
        self.index, self.port, self.moves = index, port, moves
        self.http = Http(port, address(100_000 + index, per_address=1))   # (not a phone's)
        self.code = self.host = ""
        self.seats: list[str] = []
        self.seq = 0
        self.sent: dict[int, float] = {}       # seq -> when the POST that made it was sent
        self.acked: dict[int, float] = {}      # seq -> when its writer had the answer
        self.latencies: list[float] = []
        self.rejected = 0

    async def create(self) -> None:
        status, body = await self.http.call("POST", "/api/tables", {
            "game": "shinjuku", "players": PLAYERS, "options": {"deck": "companion"}, "seed": 11})
        assert status == 201, body
        self.code, self.host = body["code"], body["host_token"]
        for p in range(len(PLAYERS)):
            status, body = await self.http.call("POST", f"/api/tables/{self.code}/seats",
                                                {"player": p})
            assert status == 201, body
            self.seats.append(body["token"])

    async def step(self) -> None:
        """The next move (after the game's last: a timer started, reset, started, …)."""
        played = self.seq
        if played < len(self.moves):
            path, body = "moves", {"expected_seq": self.seq, "move": self.moves[played]}
        elif (played - len(self.moves)) % 2 == 0:
            path, body = "timers", {"expected_seq": self.seq, "timer": "turn", "action": "start",
                                    "seconds": 60}
        else:
            path, body = "timers", {"expected_seq": self.seq, "timer": "turn", "action": "reset"}
        t0 = time.monotonic()
        self.sent[self.seq + 1] = t0
        status, answer = await self.http.call("POST", f"/api/tables/{self.code}/{path}", body,
                                              token=self.host, key=uuid.uuid4().hex)
        t1 = time.monotonic()
        self.latencies.append(t1 - t0)
        if status == 200:
            self.seq = answer["seq"]
            self.acked[self.seq] = t1
        else:
            self.rejected += 1
            self.sent.pop(self.seq + 1, None)
            status, table = await self.http.call("GET", f"/api/tables/{self.code}", token=self.host)
            self.seq = table["seq"]


def game_moves() -> list[dict]:
    from companion_bench import game_moves as moves
    return moves()


def rss_kb(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        status = Path(f"/proc/{pid}/status").read_text()
        total += int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
    return total


def threads_of(pids: list[int]) -> int:
    return sum(int(re.search(r"Threads:\s+(\d+)", Path(f"/proc/{p}/status").read_text()).group(1))
               for p in pids)


def server_pids(proc: subprocess.Popen) -> list[int]:
    """The serving processes: itself and the workers it forked (the same command line)."""
    own = Path(f"/proc/{proc.pid}/cmdline").read_bytes()
    pids = [proc.pid]
    for task in Path(f"/proc/{proc.pid}/task").iterdir():
        try:
            children = [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
        for child in children:
            try:
                if Path(f"/proc/{child}/cmdline").read_bytes() == own:
                    pids.append(child)
            except OSError:
                pass
    return pids


def start_server(args: list[str]) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([sys.executable, "-m", "companion", "--port", "0", *args], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    end = time.monotonic() + 60
    while time.monotonic() < end:
        line = proc.stdout.readline()
        found = re.search(r"http://[^:/]+:(\d+)/", line or "")
        if found:
            return proc, int(found.group(1))
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise SystemExit("the companion did not start: " + " ".join(args))


def cpu_s(pids: list[int]) -> float:
    """User + system CPU seconds the processes `pids` used so far (those gone count nothing)."""
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def own_cpu_s() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def children_of(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def database_pids(cluster) -> list[int]:
    """The PostgreSQL server's processes: the postmaster and its children (the connections')."""
    try:
        postmaster = int((cluster.folder / "data" / "postmaster.pid").read_text().split()[0])
        return [postmaster, *children_of(postmaster)]
    except (OSError, ValueError, IndexError):
        return []


def stop_server(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def delays_of(tables: list[Table], phones: list[tuple[str, dict[int, float]]], start: float,
              end: float, since: str = "sent") -> list[float]:
    """Each delivery's delay after its move was sent (or after the writer had the answer: negative
    when the phone had it first); `phones`: each phone's table and arrival times."""
    by_code = {t.code: t for t in tables}
    out = []
    for code, arrivals in phones:
        table = by_code[code]
        for seq, t_sent in table.sent.items():
            if start <= t_sent < end and seq in table.acked:
                arrived = arrivals.get(seq)
                t0 = t_sent if since == "sent" else table.acked[seq]
                out.append(float("inf") if arrived is None else arrived - t0)
    return out


class LocalPhones:
    """The phones in this process (one asyncio loop with the writers)."""

    def __init__(self, port: int, wanted: list[tuple[str, str | None]]):
        self.phones = [Phone(port, code, address(i, per_address=1), token=token, light=True)
                       for i, (code, token) in enumerate(wanted)]

    async def open(self, start: int, end: int) -> list[int]:
        return await open_all(self.phones[start:end])

    def cpu_s(self) -> float:
        return 0.0                             # (counted with the writers: the same process)

    async def arrivals(self) -> list[tuple[str, dict[int, float]]]:
        return [(p.code, p.arrived) for p in self.phones]

    async def close(self) -> None:
        for phone in self.phones:
            phone.close()


class ChildPhones:
    """The phones in a process of their own (`hosted_bench.py --phones-child PORT`), driven by lines
    on its stdin and stdout."""

    def __init__(self, port: int, wanted: list[tuple[str, str | None]]):
        self.wanted = wanted
        self.proc = subprocess.Popen([sys.executable, __file__, "--phones-child", str(port)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self._send(wanted)

    def _send(self, value) -> None:
        self.proc.stdin.write(json.dumps(value) + "\n")
        self.proc.stdin.flush()

    async def _answer(self):
        line = await asyncio.get_running_loop().run_in_executor(None, self.proc.stdout.readline)
        if not line:
            raise SystemExit("the phones' process ended")
        return json.loads(line)

    async def open(self, start: int, end: int) -> list[int]:
        self._send(["open", start, end])
        return await self._answer()

    def cpu_s(self) -> float:
        return cpu_s([self.proc.pid])

    async def arrivals(self) -> list[tuple[str, dict[int, float]]]:
        self._send(["arrivals"])
        return [(code, {int(k): v for k, v in arrived.items()}) for code, arrived in await self._answer()]

    async def close(self) -> None:
        self._send(["close"])
        await asyncio.get_running_loop().run_in_executor(None, self.proc.wait)


async def phones_child(port: int) -> None:
    """The phones' process: opens the phones it is told to, and says when each event arrived."""
    loop = asyncio.get_running_loop()
    ask = lambda: loop.run_in_executor(None, sys.stdin.readline)  # noqa: E731
    local = LocalPhones(port, [tuple(w) for w in json.loads(await ask())])
    while True:
        command = json.loads(await ask() or '["close"]')
        if command[0] == "open":
            answer = await local.open(command[1], command[2])
        elif command[0] == "arrivals":
            answer = await local.arrivals()
        else:
            await local.close()
            return
        print(json.dumps(answer), flush=True)


async def phase(tables: list[Table], seconds: float, pace: float | None) -> tuple[float, float, int]:
    """Every writer for `seconds` (flat out, or one move per `pace` seconds per table)."""
    start = time.monotonic()
    stop = start + seconds

    async def writer(table: Table, offset: float) -> None:
        if pace:
            await asyncio.sleep(offset)
        while time.monotonic() < stop:
            t0 = time.monotonic()
            await table.step()
            if pace:
                await asyncio.sleep(max(0.0, pace - (time.monotonic() - t0)))
    counts = [len(t.latencies) for t in tables]
    await asyncio.gather(*(writer(t, pace * i / len(tables) if pace else 0)
                           for i, t in enumerate(tables)))
    end = time.monotonic()
    moves = sum(len(t.latencies) - c for t, c in zip(tables, counts))
    return start, end, moves


async def run(port: int, proc: subprocess.Popen, args, moves: list[dict],
              database_pids=lambda: []) -> dict:
    tables = [Table(i, port, moves) for i in range(args.tables)]
    for table in tables:
        await table.create()
    for table in tables:                          # every table's view cached, as while people play
        await table.step()
        for token in table.seats:
            await table.http.call("GET", f"/api/tables/{table.code}", token=token)
    wanted = []
    for i in range(args.streams):
        table = tables[i % args.tables]
        seat = i // args.tables
        wanted.append((table.code, table.seats[seat] if seat < args.phones else None))
    phones = (ChildPhones if args.phones_process else LocalPhones)(port, wanted)
    # the first fifth opens first (the stream loop, its readers and their buffers start), then the
    # rest: the memory they add, per stream
    first = max(1, len(wanted) // 5)
    t0 = time.monotonic()
    statuses = await phones.open(0, first)
    opened_s = time.monotonic() - t0
    await asyncio.sleep(1.0)
    before = rss_kb(server_pids(proc))
    t0 = time.monotonic()
    statuses += await phones.open(first, len(wanted))
    opened_s += time.monotonic() - t0
    refused = len(statuses) - statuses.count(200)
    await asyncio.sleep(2.0)
    pids = server_pids(proc)
    after = rss_kb(pids)
    threads = threads_of(pids)
    added = statuses[first:].count(200)
    result = {"per_stream_kb": (after - before) / max(1, added), "rss_mb": after / 1024,
              "threads": threads, "opened_s": opened_s, "refused": refused}
    for name, pace in (("flat out", None), ("café pace", args.pace)):
        lat0 = [len(t.latencies) for t in tables]
        rej0 = sum(t.rejected for t in tables)
        cpu0 = (cpu_s(pids), cpu_s(database_pids()), own_cpu_s(), phones.cpu_s(), time.monotonic())
        start, end, count = await phase(tables, args.seconds, pace)
        await asyncio.sleep(2.0)                                       # the last deliveries
        cpu1 = (cpu_s(pids), cpu_s(database_pids()), own_cpu_s(), phones.cpu_s(), time.monotonic())
        lat = [x for t, n in zip(tables, lat0) for x in t.latencies[n:]]
        rejected = sum(t.rejected for t in tables) - rej0
        arrivals = await phones.arrivals()
        result[name] = {"moves": count - rejected, "rate": (count - rejected) / (end - start),
                        "lat": lat, "rejected": rejected,
                        "delays": delays_of(tables, arrivals, start, end),
                        "after_answer": delays_of(tables, arrivals, start, end, "acked"),
                        "cpu": [b - a for a, b in zip(cpu0, cpu1)], "load": os.getloadavg()[0]}
    await phones.close()
    for table in tables:
        table.http.close()
    return result


def report(title: str, r: dict, args) -> None:
    print(f"== {title}")
    print(f"  {args.streams} live streams ({args.tables} tables x {args.phones} seated phones + "
          f"{max(0, args.streams - args.tables * args.phones)} spectators) opened in "
          f"{r['opened_s']:.1f} s, refused {r['refused']}; server threads with all open: "
          f"{r['threads']}")
    print(f"  memory: {r['per_stream_kb']:.1f} KB per open stream (server resident memory "
          f"{r['rss_mb']:.0f} MB with all open)")
    for name in ("flat out", "café pace"):
        p = r[name]
        ms = [x * 1000 for x in p["lat"]] or [float("nan")]
        d = [x * 1000 for x in p["delays"]]
        missing = sum(1 for x in d if x == float("inf"))
        pace = f"one move per table every {args.pace:g} s" if name != "flat out" else \
            "each writer's next move as soon as the last is answered"
        print(f"  {name} ({pace}): {p['moves']} moves in {args.seconds:g} s = {p['rate']:.0f} "
              f"accepted/s, rejected {p['rejected']}; latency p50 {statistics.median(ms):.1f} ms, "
              f"p99 {percentile(ms, 99):.1f} ms")
        print(f"    change-to-phone delay over {len(d)} deliveries: p50 "
              f"{percentile(d, 50):.1f} ms, p99 {percentile(d, 99):.1f} ms, max {max(d):.1f} ms"
              + (f", NEVER ARRIVED {missing}" if missing else ""))
        a = [x * 1000 for x in p["after_answer"]]
        print(f"    after the writer had its answer: p50 {percentile(a, 50):.1f} ms, "
              f"p99 {percentile(a, 99):.1f} ms (negative: the phone had it first)")
        server, database, writers, phones, wall = p["cpu"]
        clients = (f"writers {writers:.1f}, phones {phones:.1f}" if args.phones_process
                   else f"writers and phones {writers:.1f}")
        print(f"    CPU seconds: server {server:.1f}, PostgreSQL {database:.1f}, {clients} "
              f"(the machine offered {wall * (os.cpu_count() or 1):.0f} in {wall:.0f} s); "
              f"load average {p['load']:.1f} at the end")


def hosted_available(workers: int) -> tuple[str | None, object]:
    """(why the PostgreSQL run is skipped, or None; the cluster class)."""
    helptext = subprocess.run([sys.executable, "-m", "companion", "--help"], cwd=REPO,
                              capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)}).stdout
    if "--workers" not in helptext or "--database" not in helptext:
        return "`python -m companion` has no --workers/--database yet", None
    sys.path.insert(0, str(REPO / "tests"))
    try:
        from pg_cluster import Cluster
    except ImportError as exc:
        return f"tests/pg_cluster.py cannot be imported ({exc})", None
    why = Cluster.unavailable()
    return why, Cluster


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60, help="length of each phase (default 60)")
    ap.add_argument("--quick", action="store_true", help="5 s phases (a smoke run)")
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--phones", type=int, default=4, help="seated phones per table (default 4)")
    ap.add_argument("--streams", type=int, default=500, help="live streams in all (default 500)")
    ap.add_argument("--pace", type=float, default=2.0,
                    help="café pace: seconds between two moves of a table (default 2)")
    ap.add_argument("--workers", type=int, default=2, help="workers of the PostgreSQL run")
    ap.add_argument("--threads", type=int, default=None,
                    help="server threads per process (default: the server's own, 32)")
    ap.add_argument("--requests-at-once", type=int, default=None, metavar="N",
                    help="requests each server process works on at once (default: the server's own, "
                         "8; 0: all its threads)")
    ap.add_argument("--only", choices=("sqlite", "postgresql"), help="one of the two runs")
    ap.add_argument("--sqlite-only", action="store_const", const="sqlite", dest="only",
                    help="the same as --only sqlite")
    ap.add_argument("--phones-process", action="store_true",
                    help="the phones in a process of their own (default: with the writers)")
    ap.add_argument("--phones-child", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.phones_child:
        asyncio.run(phones_child(args.phones_child))
        return 0
    if args.quick:
        args.seconds = 5
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 2 * args.streams + 256
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    moves = game_moves()
    threads = ["--threads", str(args.threads)] if args.threads else []
    if args.requests_at_once is not None:
        threads += ["--requests-at-once", str(args.requests_at_once)]
    where = ("the writers in one process, the phones in another" if args.phones_process
             else "the writers and the phones run in one process")
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start; "
          f"{where} beside the server; server options: {' '.join(threads) or 'its defaults'}")

    if args.only != "postgresql":
        with tempfile.TemporaryDirectory() as data:
            proc, port = start_server(["--data", data, *threads])
            try:
                result = asyncio.run(run(port, proc, args, moves))
            finally:
                stop_server(proc)
        report("SQLite, one worker (python -m companion --data DIR)", result, args)
    if args.only == "sqlite":
        print("== PostgreSQL run skipped (--only sqlite)")
        return 0
    why, cluster_class = hosted_available(args.workers)
    if why:
        print(f"== PostgreSQL, {args.workers} workers: skipped: {why}")
        return 0
    cluster = cluster_class().start()
    try:
        url = cluster.database()
        proc, port = start_server(["--database", url, "--workers", str(args.workers), *threads])
        try:
            time.sleep(1.0)                       # (the workers fork and listen)
            result = asyncio.run(run(port, proc, args, moves, lambda: database_pids(cluster)))
        finally:
            stop_server(proc)
        report(f"PostgreSQL, {args.workers} workers (python -m companion --database URL "
               f"--workers {args.workers})", result, args)
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
