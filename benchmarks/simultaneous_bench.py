"""Simultaneous-moves benchmark (issue 20, point 1; not a test): N phones sending at the same instant
in each simultaneous phase of every game, against the real server (`python -m companion`) on
loopback, printed.

For each phase and each N, R rounds; a round is a fresh table (POST /api/tables, a seat token per
phone from POST …/seats) driven into the phase with the host token, then:
- every phone (one per seat at the table, each from its own loopback address) reads its legal moves
  (GET …/legal with its seat token) and picks its move (moves that are all legal in any order:
  different perimeter cards, different drinks, different hands);
- every phone opens the table's live stream (GET …/events?since=<seq>, text/event-stream);
- the N sending phones meet at a threading.Barrier and all send their move at once with the same
  expected_seq. A phone answered 409 does what a page does: re-reads the table (GET …/<code>), and
  sends the same move again with the new seq if it is still among its legal moves (…/legal);
  a 422 (the move is illegal now: the phase changed) ends its tries, as does a move no longer legal;
- then, for every accepted move, the tap-to-every-phone delay: from the phone's first send (the tap;
  its retries included) to the moment EVERY phone's stream has the event of that move.

Per phase and N it prints: the sends; accepted at the first try; 409 and 422 at the first try; the
sends never accepted (after the page's re-sends); tries until accepted (max, mean); the delay p50,
p99, max. Targets (issue 20): user-visible conflicts 0 (a first send answered 409 or 422: what a page
shows as "someone else changed the table first"), delay p99 <= 300 ms.

The phases (`--list`): the actors() of every game's rules (companion/games/*/rules/) in mode "all"
or "several" where seats send their own moves at once. Left out by default: phases whose only move
is the table's own one-off entry (Jutaku's and Countdown's "begin", Shin Bikkuri Man's harbour
"refill", Sapporo's "lay-out-tiles", Capsule Hotel's income "roll"/"pay-income", Bottle Bonus's
"draw-drinks"): only one of N can ever be accepted; `--phases jutaku-begin` measures that case.

Runs: SQLite, one worker (`python -m companion --data DIR`), and PostgreSQL with --workers (2) on a
throwaway cluster (tests/pg_cluster.py), started as benchmarks/hosted_bench.py does (its pieces are
imported). `--repo DIR` serves another checkout (e.g. a git worktree of an older commit): the server
runs with cwd and PYTHONPATH = DIR, and the header says which companion package it imported.

    .venv/bin/python benchmarks/simultaneous_bench.py [--phases a,b] [--phones 2,4,5,8] [--rounds 5]
        [--only sqlite|postgresql] [--workers 2] [--repo DIR] [--json] [--list]
"""
from __future__ import annotations

import argparse
import dataclasses
import http.client
import itertools
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

import hosted_bench  # noqa: E402  (start_server, stop_server, hosted_available)
from companion.live.loopback_phones import address, percentile  # noqa: E402

NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi", "Gen", "Hana", "Ichi"]
SWEEP = (2, 4, 5, 8)
MAX_TRIES = 20            # a phone's sends of one move, at most
DELIVERY_S = 10.0         # how long a round waits for every phone to have every accepted move
TARGET_P99_MS = 300.0
WARM_UP = 2               # rounds not counted, before a phase's first N


class SetupError(Exception):
    """The table could not be driven into the phase (the round is skipped and reported)."""


# ------------------------------------------------------------------------------------------- HTTP
class Http:
    """One keep-alive HTTP/1.1 connection from one loopback address, JSON in and out."""

    def __init__(self, port: int, source: str = "127.0.0.1", token: str | None = None):
        self.port, self.source, self.token = port, source, token
        self.conn: http.client.HTTPConnection | None = None

    def call(self, method: str, path: str, body=None, token: str | None = None) -> tuple[int, dict]:
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
            headers["Idempotency-Key"] = uuid.uuid4().hex      # (the same on a reconnect below)
        token = token or self.token
        if token:
            headers["Authorization"] = f"Bearer {token}"
        for attempt in range(2):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30,
                                                           source_address=(self.source, 0))
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                payload = response.read()
                if response.will_close:
                    self.close()
                return response.status, (json.loads(payload) if payload else {})
            except (OSError, http.client.HTTPException):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.conn = None


class Stream:
    """One phone's live stream (SSE) in a thread of its own: when each event's id arrived."""

    def __init__(self, port: int, code: str, token: str, source: str, since: int):
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()          # the first `table` message is in (or it failed)
        self.status = 0
        self.sock: socket.socket | None = None
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
        self.request = (f"/api/tables/{code}/events?since={since}",
                        {"Accept": "text/event-stream", "Authorization": f"Bearer {token}"})
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.conn.request("GET", self.request[0], headers=self.request[1])
            self.sock = self.conn.sock          # (getresponse hands it to the response: kept to close)
            response = self.conn.getresponse()
            self.status = response.status
            if response.status != 200:
                return
            while True:
                line = response.readline()
                if not line:
                    return
                if line.startswith(b"id:"):
                    self.arrived.setdefault(int(line[3:]), time.monotonic())
                elif line.startswith(b"event: table"):
                    self.ready.set()
        except (OSError, ValueError, http.client.HTTPException):
            return
        finally:
            self.ready.set()

    def close(self) -> None:
        sock = self.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.conn.close()
        self.thread.join(5)


# ------------------------------------------------------------------------------------------ tables
class Table:
    """A table made for one round, and the host's set-up moves (from 127.0.0.1)."""

    def __init__(self, port: int, game: str, players: int, options: dict, seed: int):
        self.http = Http(port)
        status, body = self.http.call("POST", "/api/tables", {
            "game": game, "players": NAMES[:players], "options": options, "seed": seed})
        if status != 201:
            raise SetupError(f"POST /api/tables: {status} {body.get('error')} {body.get('reasons', '')}")
        self.code, self.host, self.seq = body["code"], body["host_token"], 0
        self.tokens = []
        for p in range(players):
            status, body = self.http.call("POST", f"/api/tables/{self.code}/seats", {"player": p})
            if status != 201:
                raise SetupError(f"POST …/seats: {status} {body.get('error')}")
            self.tokens.append(body["token"])

    def move(self, move: dict) -> None:
        status, body = self.http.call("POST", f"/api/tables/{self.code}/moves",
                                      {"expected_seq": self.seq, "move": move}, token=self.host)
        if status != 200:
            raise SetupError(f"set-up move {move}: {status} {body.get('error')} {body.get('reasons', '')}")
        self.seq = body["seq"]

    def read(self) -> dict:
        status, body = self.http.call("GET", f"/api/tables/{self.code}", token=self.host)
        if status != 200:
            raise SetupError(f"GET table: {status} {body.get('error')}")
        self.seq = body["seq"]
        return body

    def legal(self, seat: int | None = None) -> list[dict]:
        query = "" if seat is None else f"?player={seat}"
        status, body = self.http.call("GET", f"/api/tables/{self.code}/legal{query}", token=self.host)
        if status != 200:
            raise SetupError(f"GET legal: {status} {body.get('error')}")
        return body["moves"]

    def close(self) -> None:
        self.http.close()


# ------------------------------------------------------------------------------------------ phases
def _all(table: Table, n: int) -> list[int]:
    return list(range(n))


def _nothing(table: Table, n: int, rnd: random.Random) -> None:
    return None


def _random_own(table, legal: dict[int, list[dict]], rnd: random.Random) -> dict[int, dict]:
    """Each seat: one of its own moves, at random."""
    return {s: rnd.choice(moves) for s, moves in legal.items()}


def _of_type(kind: str):
    def pick(table, legal, rnd):
        return {s: rnd.choice([m for m in moves if m["type"] == kind]) for s, moves in legal.items()}
    return pick


def _starts(table: Table, n: int, rnd: random.Random) -> None:
    """Jutaku: every seat starts on a different perimeter card (the host enters them)."""
    taken: set = set()
    for p in range(n):
        sites = [m for m in table.legal(p) if m["type"] == "start" and m["site"] not in taken]
        move = rnd.choice(sites)
        taken.add(move["site"])
        table.move(move)


def _distinct_sites(table, legal, rnd):
    taken, out = set(), {}
    for s in sorted(legal):
        move = rnd.choice([m for m in legal[s] if m["type"] == "start" and m["site"] not in taken])
        taken.add(move["site"])
        out[s] = move
    return out


def prep_capsule_queue(table: Table, n: int, rnd: random.Random) -> None:
    """Round-1 loans (host), then every seal leaves the queue: everyone may join it again."""
    for p in range(n):
        table.move(rnd.choice([m for m in table.legal(p) if m["type"] == "choose-loan"]))
    if table.read()["state"]["phase"] != "purchase":
        raise SetupError("Capsule Hotel: no purchase phase after the loans")
    for p in range(n):
        table.move({"type": "leave-queue", "player": p})


def prep_jutaku_ready(table: Table, n: int, rnd: random.Random) -> None:
    _starts(table, n, rnd)


def prep_jutaku_building(table: Table, n: int, rnd: random.Random) -> None:
    _starts(table, n, rnd)
    table.move({"type": "begin"})


def prep_jutaku_check(table: Table, n: int, rnd: random.Random) -> None:
    prep_jutaku_building(table, n, rnd)
    for p in range(n):
        table.move({"type": "stop", "player": p})


def _verdicts(table, legal, rnd):
    """Seat i judges the building of seat i+1 (each building one verdict), all rejected: everyone
    builds on."""
    n = len(legal)
    return {s: {"type": "verdict", "player": s, "builder": (s + 1) % n, "ok": False} for s in legal}


def prep_jutaku_grab(table: Table, n: int, rnd: random.Random) -> None:
    """Bottle Bonus (companion draws), n + 1 seats: seat 0 alone completes; the drinks are drawn
    and the n others grab at once."""
    seats = n + 1
    prep_jutaku_building(table, seats, rnd)
    for p in range(seats):
        table.move({"type": "stop", "player": p})
    for p in range(seats):
        builder = (p + 1) % seats
        table.move({"type": "verdict", "player": p, "builder": builder, "ok": builder == 0})
    state = table.read()["state"]
    if state["phase"] != "grab":
        raise SetupError(f"Bottle Bonus: phase {state['phase']!r} instead of grab")


def _grabs(table, legal, rnd):
    """Each grabs a different drink of the offer (nothing when none is left)."""
    offer = list(table.read()["state"].get("offer") or [])
    out = {}
    for s in sorted(legal):
        drink = offer.pop(0) if offer else None
        out[s] = {"type": "grab", "player": s, "drink": drink}
    return out


def _grab_senders(table: Table, n: int) -> list[int]:
    return list(range(1, n + 1))


def prep_countdown(table: Table, n: int, rnd: random.Random) -> None:
    table.move({"type": "begin"})


def _pieces(table, legal, rnd):
    return {s: next(m for m in moves if m["type"] == "pieces" and m["pieces"] == 2)
            for s, moves in legal.items()}


def _shinjuku_hands(table, legal, rnd):
    """Different ward cards for every hand (as many as the seat's own sample holds)."""
    wards = list(table.read()["state"]["wards"])
    at, out = 0, {}
    for s in sorted(legal):
        sample = next(m for m in legal[s] if m["type"] == "deal-hand")
        k = len(sample["cards"])
        out[s] = {"type": "deal-hand", "player": s, "cards": [wards[(at + j) % len(wards)] for j in range(k)]}
        at += k
    return out


def _same_type_and_seat(move: dict, listed: dict) -> bool:
    """Still legal if the seat still has a move of this type to make (the list is a sample)."""
    return listed.get("type") == move["type"] and listed.get("player") == move.get("player")


def prep_shinjuku_bonus(table: Table, n: int, rnd: random.Random, ctx: dict) -> None:
    """A seeded companion-deck game of n + 1 seats replayed up to a track bonus for the n others
    (the path is found by the served checkout's own rules, in a subprocess)."""
    for move in ctx["path"]:
        table.move(move)
    state = table.read()["state"]
    if state["phase"] != "bonus" or len(state["bonus"]) != n:
        raise SetupError(f"Shinjuku: the replay reached {state['phase']!r} {state.get('bonus')}")


def _bonus_senders(table: Table, n: int) -> list[int]:
    return sorted(table.read()["state"]["bonus"])


FIND_BONUS = r"""
import json, random, sys
from companion import catalog
from companion.games.contract import Ctx
names, want, limit = json.loads(sys.argv[1])
rules = catalog.discover()["shinjuku"].rules
for seed in range(1, 60):
    state = rules.setup(names, {"deck": "companion"}, seed)
    rnd, path = random.Random(seed), []
    for _ in range(limit):
        if state["phase"] == "bonus" and len(state["bonus"]) == want:
            print(json.dumps({"seed": seed, "path": path}))
            sys.exit(0)
        legal = rules.legal_moves(state).moves
        if not legal:
            break
        moving = [m for m in legal if m["type"] in ("move-customers", "expand-track")]
        move = rnd.choice(moving if moving and rnd.random() < 0.7 else legal)
        state = rules.apply(state, move, Ctx(now_ms=0))
        path.append(move)
print("null")
"""


def find_bonus_path(repo: Path, n: int) -> dict | None:
    out = subprocess.run([sys.executable, "-c", FIND_BONUS, json.dumps([NAMES[:n + 1], n, 400])],
                         cwd=repo, env={**os.environ, "PYTHONPATH": str(repo)}, capture_output=True,
                         text=True, timeout=120)
    try:
        return json.loads(out.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return None


@dataclasses.dataclass
class Phase:
    key: str
    title: str
    game: str
    options: dict
    lo: int                                   # senders (N), at least
    hi: int                                   # senders, at most (the game's seats allow it)
    prepare: Callable = _nothing              # (table, n, rnd[, ctx]) -> None: the host's set-up
    choose: Callable = _random_own            # (table, {seat: legal}, rnd) -> {seat: move}
    senders: Callable = _all                  # (table, n) -> the seats that send
    extra: int = 0                            # seats at the table that do not send
    same: Callable = lambda move, listed: move == listed    # is `move` still `listed`
    default: bool = True
    needs_path: bool = False                  # prepare takes the Shinjuku bonus path


PHASES = [
    Phase("capsule-loans", "Capsule Hotel round-1 loans", "capsule-hotel", {"dice": "companion"}, 2, 5),
    Phase("capsule-queue", "Capsule Hotel queue: everyone joins", "capsule-hotel",
          {"dice": "companion"}, 2, 5, prepare=prep_capsule_queue, choose=_of_type("join-queue")),
    Phase("jutaku-start", "Jutaku start: perimeter cards", "jutaku", {}, 2, 8, choose=_distinct_sites),
    Phase("jutaku-stop", "Jutaku building: everyone calls stop", "jutaku", {}, 2, 8,
          prepare=prep_jutaku_building, choose=_of_type("stop")),
    Phase("jutaku-verdicts", "Jutaku check: verdicts (several)", "jutaku", {}, 2, 8,
          prepare=prep_jutaku_check, choose=_verdicts),
    Phase("jutaku-grab", "Bottle Bonus: drinks grabbed", "jutaku",
          {"bottle_bonus": True, "chance": "companion"}, 2, 7, prepare=prep_jutaku_grab, choose=_grabs,
          senders=_grab_senders, extra=1),
    Phase("countdown-pieces", "Countdown floor: pieces entered", "jutaku", {"mode": "countdown"}, 2, 8,
          prepare=prep_countdown, choose=_pieces),
    Phase("izakaya-bids", "Izakaya sealed bids", "jutaku", {"mode": "izakaya", "chance": "companion"},
          2, 5, choose=_of_type("bid")),
    Phase("shinjuku-deal", "Shinjuku deal: hands (table deck)", "shinjuku", {"deck": "table"},
          2, 4, choose=_shinjuku_hands, same=_same_type_and_seat),
    Phase("shinjuku-bonus", "Shinjuku track bonus answers (several)", "shinjuku", {"deck": "companion"},
          2, 3, prepare=prep_shinjuku_bonus, choose=_of_type("income"), senders=_bonus_senders, extra=1,
          needs_path=True),
    Phase("sbm-deal", "Shin Bikkuri Man deal: hands (table deck)", "shin-bikkuri-man",
          {"deck": "table"}, 2, 4, choose=_of_type("deal-hand"), same=_same_type_and_seat),
    Phase("jutaku-begin", "Jutaku ready: all tap Begin! (table move)", "jutaku", {}, 2, 8,
          prepare=prep_jutaku_ready, choose=lambda t, legal, rnd: {s: {"type": "begin"} for s in legal},
          default=False),
]
BY_KEY = {p.key: p for p in PHASES}


def phone_counts(phase: Phase, wanted: list[int]) -> list[int]:
    """The wanted N the phase allows; its largest N too when some wanted N is over it."""
    ns = [n for n in wanted if phase.lo <= n <= phase.hi]
    if any(n > phase.hi for n in wanted) and phase.hi not in ns:
        ns.append(phase.hi)
    return sorted(ns)


# ------------------------------------------------------------------------------------------- rounds
@dataclasses.dataclass
class Send:
    seat: int
    first: int = 0                        # the status of the first send
    tries: int = 0
    statuses: list = dataclasses.field(default_factory=list)
    seq: int | None = None                # the accepted move's seq
    tap: float = 0.0                      # time.monotonic() of the first send
    why: str = ""                         # why it was never accepted


class Phone:
    """One seat's phone: its loopback address, its token, its keep-alive connection."""

    def __init__(self, port: int, code: str, seat: int, token: str, source: str):
        self.code, self.seat, self.token, self.source = code, seat, token, source
        self.http = Http(port, source, token)

    def legal(self) -> tuple[int, list[dict]]:
        status, body = self.http.call("GET", f"/api/tables/{self.code}/legal")
        if status != 200:
            raise SetupError(f"GET legal (seat {self.seat}): {status} {body.get('error')}")
        return body["seq"], body["moves"]

    def send(self, move: dict, seq: int, barrier: threading.Barrier, phase: Phase, out: Send) -> None:
        try:
            barrier.wait(timeout=30)
        except threading.BrokenBarrierError:
            out.why = "barrier broken"
            return
        out.tap = time.monotonic()
        while out.tries < MAX_TRIES:
            out.tries += 1
            try:
                status, body = self.http.call("POST", f"/api/tables/{self.code}/moves",
                                              {"expected_seq": seq, "move": move})
            except (OSError, http.client.HTTPException) as exc:
                out.why = f"connection: {exc}"
                return
            out.statuses.append(status)
            if out.tries == 1:
                out.first = status
            if status == 200:
                out.seq = body["seq"]
                return
            if status != 409:
                out.why = f"{status}: {'; '.join(body.get('reasons') or [body.get('error', '')])}"
                return
            try:
                self.http.call("GET", f"/api/tables/{self.code}")     # a page re-reads the table
                seq, legal = self.legal()
            except (OSError, http.client.HTTPException, SetupError) as exc:
                out.why = f"409, then the table could not be read again: {exc}"
                return
            if not any(phase.same(move, m) for m in legal):
                out.why = "409, then no longer legal"
                return
        out.why = f"still 409 after {MAX_TRIES} tries"


def one_round(port: int, phase: Phase, n: int, rnd: random.Random, sources, ctx: dict) -> dict:
    """One round: a fresh table driven into the phase, N phones sending at once; its figures."""
    seats = n + phase.extra
    seed = ctx.get("seed") or rnd.randrange(1, 10**9)
    table = Table(port, phase.game, seats, phase.options, seed)
    phones: list[Phone] = []
    streams: list[Stream] = []
    try:
        try:
            if phase.needs_path:
                phase.prepare(table, n, rnd, ctx)
            else:
                phase.prepare(table, n, rnd)
            senders = phase.senders(table, n)
            if len(senders) != n:
                raise SetupError(f"{len(senders)} seats may act, not {n}")
            phones = [Phone(port, table.code, s, table.tokens[s], next(sources)) for s in range(seats)]
            legal = {s: phones[s].legal()[1] for s in senders}
            moves = phase.choose(table, legal, rnd)
        except (IndexError, KeyError, StopIteration, TypeError) as exc:   # (a move the phase needs
            raise SetupError(f"the phase's moves are not offered: {exc!r}") from exc   # is missing)
        seq0 = table.read()["seq"]
        streams = [Stream(port, table.code, ph.token, ph.source, seq0) for ph in phones]
        for stream in streams:
            stream.ready.wait(20)
        refused = [s.status for s in streams if s.status != 200]
        if refused:
            raise SetupError(f"live streams refused: {refused}")
        barrier = threading.Barrier(n)
        sends = {s: Send(s) for s in senders}
        threads = [threading.Thread(target=phones[s].send, args=(moves[s], seq0, barrier, phase, sends[s]),
                                    daemon=True) for s in senders]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        delays, missing = [], 0
        end = time.monotonic() + DELIVERY_S
        for send in sends.values():
            if send.seq is None:
                continue
            while time.monotonic() < end and any(send.seq not in st.arrived for st in streams):
                time.sleep(0.005)
            if any(send.seq not in st.arrived for st in streams):
                missing += 1
            else:
                delays.append(max(st.arrived[send.seq] for st in streams) - send.tap)
        return {"sends": list(sends.values()), "delays": delays, "missing": missing}
    finally:
        for stream in streams:
            stream.close()
        for phone in phones:
            phone.http.close()
        table.close()


def run_phases(port: int, repo: Path, phases: list[Phase], wanted: list[int], rounds: int,
               log=lambda text: None) -> list[dict]:
    """Every phase x N x round on the server at `port`; one row of figures per phase and N."""
    counter = itertools.count(1)
    sources = (address(i, per_address=1) for i in counter)
    rows = []
    for phase in phases:
        for n in phone_counts(phase, wanted):
            rnd = random.Random(f"{phase.key}:{n}")
            ctx: dict = {}
            if phase.needs_path:
                found = find_bonus_path(repo, n)
                if found is None:
                    rows.append(row_of(phase, n, [], [f"no game path reaches a bonus for {n} seats"]))
                    continue
                ctx = found
            results, errors = [], []
            for _ in range(WARM_UP if n == phone_counts(phase, wanted)[0] else 0):
                try:                              # not counted: a game's first tables load its data
                    one_round(port, phase, n, rnd, sources, ctx)        # in every worker
                except SetupError:
                    pass
            for _ in range(rounds):
                try:
                    results.append(one_round(port, phase, n, rnd, sources, ctx))
                except SetupError as exc:
                    errors.append(str(exc))
            row = row_of(phase, n, results, errors)
            rows.append(row)
            log(row)
    return rows


def row_of(phase: Phase, n: int, results: list[dict], errors: list[str]) -> dict:
    sends = [s for r in results for s in r["sends"]]
    tries = [s.tries for s in sends if s.seq is not None]
    delays = [d * 1000 for r in results for d in r["delays"]]
    return {
        "phase": phase.key, "title": phase.title, "phones": n, "rounds": len(results),
        "skipped_rounds": errors,
        "sends": len(sends),
        "first_ok": sum(1 for s in sends if s.first == 200),
        "first_409": sum(1 for s in sends if s.first == 409),
        "first_422": sum(1 for s in sends if s.first == 422),
        "first_other": sum(1 for s in sends if s.first not in (200, 409, 422)),
        "answers_409": sum(s.statuses.count(409) for s in sends),
        "accepted": len(tries),
        "not_accepted": [s.why for s in sends if s.seq is None],
        "tries_max": max(tries) if tries else None,
        "tries_mean": statistics.fmean(tries) if tries else None,
        "delays_ms": delays,
        "delay_ms": {"p50": percentile(delays, 50), "p99": percentile(delays, 99),
                     "max": max(delays) if delays else float("nan"), "n": len(delays)},
        "never_arrived": sum(r["missing"] for r in results),
    }


# ------------------------------------------------------------------------------------------- report
HEAD = (f"{'phase':<42} {'N':>2} {'sends':>5} {'1st ok':>6} {'1st 409':>7} {'1st 422':>7} "
        f"{'never ok':>8} {'tries max':>9} {'mean':>5} {'delay p50':>9} {'p99':>6} {'max':>6}")


def line_of(row: dict) -> str:
    d = row["delay_ms"]
    tries_max = "-" if row["tries_max"] is None else str(row["tries_max"])
    mean = "-" if row["tries_mean"] is None else f"{row['tries_mean']:.1f}"
    text = (f"{row['title'][:42]:<42} {row['phones']:>2} {row['sends']:>5} {row['first_ok']:>6} "
            f"{row['first_409']:>7} {row['first_422']:>7} {len(row['not_accepted']):>8} {tries_max:>9} "
            f"{mean:>5} {d['p50']:>9.0f} {d['p99']:>6.0f} {d['max']:>6.0f}")
    notes = []
    if row["never_arrived"]:
        notes.append(f"{row['never_arrived']} accepted moves never reached every phone")
    if row["first_other"]:
        notes.append(f"{row['first_other']} first sends answered another status")
    reasons = {}
    for why in row["not_accepted"]:
        reasons[why] = reasons.get(why, 0) + 1
    notes += [f"never accepted x{k}: {why[:150]}" for why, k in reasons.items()]
    if row["skipped_rounds"]:
        notes.append(f"{len(row['skipped_rounds'])} rounds skipped: {row['skipped_rounds'][0][:200]}")
    return text + "".join(f"\n{'':>46}{note}" for note in notes)


def summary(rows: list[dict]) -> list[str]:
    sends = sum(r["sends"] for r in rows)
    visible = sum(r["first_409"] + r["first_422"] + r["first_other"] for r in rows)
    never = sum(len(r["not_accepted"]) for r in rows)
    worst = max((r["delay_ms"]["p99"] for r in rows if r["delay_ms"]["n"]), default=float("nan"))
    over = [f"{r['phase']} N={r['phones']}" for r in rows
            if r["delay_ms"]["n"] and r["delay_ms"]["p99"] > TARGET_P99_MS]
    pooled = [d for r in rows for d in r.get("delays_ms", [])]
    return [f"  user-visible conflicts (a first send refused: 409, 422 or an error): {visible} of {sends} sends "
            f"(target 0); never accepted after the page's re-sends: {never}",
            f"  tap-to-every-phone delay: worst p99 {worst:.0f} ms (target <= {TARGET_P99_MS:.0f} ms); over "
            f"the target: {', '.join(over) if over else 'none'}",
            f"  every delay of this run pooled ({len(pooled)}): p50 {percentile(pooled, 50):.0f} ms, p99 "
            f"{percentile(pooled, 99):.0f} ms, max {max(pooled, default=float('nan')):.0f} ms"]


def served_code(repo: Path) -> str:
    """Which companion package a server started from `repo` imports, and the checkout's commit."""
    found = subprocess.run([sys.executable, "-c", "import companion; print(companion.__file__)"], cwd=repo,
                           env={**os.environ, "PYTHONPATH": str(repo)}, capture_output=True, text=True)
    commit = subprocess.run(["git", "-C", str(repo), "log", "-1", "--format=%h %s"], capture_output=True,
                            text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--", "companion"],
                           capture_output=True, text=True).stdout.strip()
    return (f"{found.stdout.strip() or found.stderr.strip()[-200:]}; git {commit[:90]}"
            + (" (+ uncommitted changes in companion/)" if dirty else ""))


def start_companion(repo: Path, args: list[str]):
    """hosted_bench.start_server, from the checkout `repo` (its cwd and PYTHONPATH)."""
    saved = hosted_bench.REPO
    hosted_bench.REPO = repo
    try:
        return hosted_bench.start_server(args)
    finally:
        hosted_bench.REPO = saved


def run_backend(name: str, repo: Path, server_args: list[str], phases, wanted, rounds, say) -> dict:
    t0 = time.monotonic()
    proc, port = start_companion(repo, server_args)
    try:
        if "--workers" in server_args:
            time.sleep(1.0)                       # (the workers fork and listen)
        say(f"== {name}\n{HEAD}")
        rows = run_phases(port, repo, phases, wanted, rounds, log=lambda row: say(line_of(row)))
    finally:
        hosted_bench.stop_server(proc)
    for text in summary(rows):
        say(text)
    say(f"  ({time.monotonic() - t0:.0f} s; load average {os.getloadavg()[0]:.1f} at the end)")
    return {"backend": name, "rows": rows}


def main(argv=None, out=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phases", default=None,
                    help="comma-separated phase keys (default: every default phase; --list shows them)")
    ap.add_argument("--phones", default=",".join(map(str, SWEEP)),
                    help="comma-separated N, phones sending at once (default 2,4,5,8, where the game allows)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds per phase and N (default 5)")
    ap.add_argument("--only", choices=("sqlite", "postgresql"), help="one of the two runs")
    ap.add_argument("--workers", type=int, default=2, help="workers of the PostgreSQL run (default 2)")
    ap.add_argument("--repo", type=Path, default=REPO, help="the checkout to serve (default: this one)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON instead of a table")
    ap.add_argument("--list", action="store_true", help="list the phases and stop")
    args = ap.parse_args(argv)
    out = out or sys.stdout
    if args.list:
        for p in PHASES:
            print(f"{p.key:<18} N {p.lo}-{p.hi}{'' if p.default else ' (not by default)'}: {p.title}", file=out)
        return 0
    keys = args.phases.split(",") if args.phases else [p.key for p in PHASES if p.default]
    unknown = [k for k in keys if k not in BY_KEY]
    if unknown:
        ap.error(f"unknown phase {', '.join(unknown)}; --list shows them")
    try:
        wanted = sorted({int(x) for x in args.phones.split(",")})
    except ValueError:
        ap.error("--phones: comma-separated numbers, e.g. 2,4,5,8")
    if not wanted or min(wanted) < 1 or max(wanted) > 8 or args.rounds < 1 or args.rounds > 100:
        ap.error("--phones between 1 and 8, --rounds between 1 and 100")
    phases = [BY_KEY[k] for k in keys]
    repo = args.repo.resolve()
    say = (lambda text: None) if args.json else (lambda text: print(text, file=out, flush=True))
    say(f"simultaneous moves: {len(phases)} phases, N in {wanted} where the game allows, {args.rounds} rounds "
        f"each; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")
    say(f"server: python -m companion from {repo}: imports {served_code(repo)}")
    say("columns: sends = N x rounds; 1st ok / 1st 409 / 1st 422 = the first send's answer; never ok = "
        "never accepted after the page's re-sends; tries = sends until accepted (the first included); "
        "delay = ms from the tap (first send) to the event on EVERY phone's stream (p99 of 40 "
        f"delays or fewer is their max); {WARM_UP} warm-up rounds per phase are not counted")
    runs = []
    if args.only != "postgresql":
        with tempfile.TemporaryDirectory() as data:
            runs.append(run_backend("SQLite, one worker (python -m companion --data DIR)", repo,
                                    ["--data", data], phases, wanted, args.rounds, say))
    if args.only != "sqlite":
        saved = hosted_bench.REPO
        hosted_bench.REPO = repo
        try:
            why, cluster_class = hosted_bench.hosted_available(args.workers)
        finally:
            hosted_bench.REPO = saved
        if why:
            say(f"== PostgreSQL, {args.workers} workers: skipped: {why}")
            runs.append({"backend": "postgresql", "skipped": why})
        else:
            cluster = cluster_class().start()
            try:
                runs.append(run_backend(
                    f"PostgreSQL, {args.workers} workers (python -m companion --database URL --workers "
                    f"{args.workers})", repo, ["--database", cluster.database(), "--workers", str(args.workers)],
                    phases, wanted, args.rounds, say))
            finally:
                cluster.stop()
    if args.json:
        print(json.dumps({"repo": str(repo), "phones": wanted, "rounds": args.rounds, "runs": runs},
                         indent=1, default=str), file=out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
