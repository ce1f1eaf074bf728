"""Tokyo Capsule Hotel benchmark: the income of a full late-game map, and a round's purchase phase
replayed through validate + apply as the companion does for every move it receives.

    .venv/bin/python benchmarks/capsule_hotel_bench.py [--repeat 200] [--rounds 20]

1. Income: a late-game map of 5 players (every lot board bought once, the 4 starting lots, 13
   subdivisions, 40 hotels in every colour, all 11 buildings, 20 vending machines, cemeteries up to
   the limit) with every die rolled: income.compute per call, and POST-body calculator per call.
2. Purchase phase: random seeded 5-player purchase/barter phases (queue moves, counts, purchases,
   barters, passes) recorded, then replayed from their starting state: moves per second and the
   time of one whole phase.
"""
from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.capsule_hotel.rules import RULES  # noqa: E402
from companion.games.capsule_hotel.rules import income as I  # noqa: E402
from companion.games.contract import HOST, Ctx  # noqa: E402
from generator.canon import load  # noqa: E402

NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi"]
T0 = 1_700_000_000_000


def late_game_map(data, rng):
    lands = {}
    for i in range(4):
        lands[f"S{i + 1}"] = {"kind": "lot", "owner": i, "parent": None, "start": True, "vending": 0,
                              "cemeteries": 0, "adjoins": []}
    for i, b in enumerate(data.lot_boards):
        lands[f"L{i + 1}"] = {"kind": "lot", "owner": i % 5, "parent": None, "start": False, "vending": 0,
                              "cemeteries": 0, "adjoins": [f"S{i % 4 + 1}"]}
    lots = list(lands)
    for i in range(13):
        parent = lots[i % len(lots)]
        lands[f"D{i + 1}"] = {"kind": "sub", "owner": (i + 2) % 5, "parent": parent, "start": False,
                              "vending": 0, "cemeteries": 0, "adjoins": []}
    ids = list(lands)
    for k in range(20):
        lands[ids[k % len(ids)]]["vending"] += 1
    for lot in lots:
        lands[lot]["cemeteries"] = rng.randint(0, data.income.max_cemeteries_per_lot)
    colours = [c.id for c in data.capsules]
    hotels = [{"id": f"H{i + 1}", "land": ids[i % len(ids)], "colour": colours[i % len(colours)],
               "capsules": 1 + i % 4, "withheld": False} for i in range(40)]
    buildings, n = [], 0
    for b in data.buildings:
        for _ in range(b.count):
            n += 1
            buildings.append({"id": f"B{n}", "kind": b.id, "land": ids[n % len(ids)], "side": None})
    rolls = {b["id"]: rng.randrange(len(data.building[b["kind"]].faces)) for b in buildings}
    return lands, hotels, buildings, rolls


def bench_income(data, repeat):
    rng = random.Random(1)
    lands, hotels, buildings, rolls = late_game_map(data, rng)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        res = I.compute(data, lands, hotels, buildings, rolls)
        times.append(time.perf_counter() - t)
    total = sum(res["by_owner"].values())
    body = {"lots": [{"id": lot["lot"], "cemeteries": lot["cemeteries"],
                      "faces": [{"yen": p["yen"], "no_cemetery": bool(p.get("no_cemetery")),
                                 "coupon": bool(p.get("coupons"))} for p in lot["attraction_parts"]],
                      "hotels": [{"id": h["id"], "owner": h["owner"], "colour": h["colour"],
                                  "capsules": h["capsules"]} for h in lot["hotels"]]} for lot in res["lots"]]}
    ctimes = []
    for _ in range(repeat):
        t = time.perf_counter()
        I.calculator(data, body)
        ctimes.append(time.perf_counter() - t)
    print(f"income of a late-game map ({len(lands)} land areas, {len(hotels)} hotels, {len(buildings)} buildings;"
          f" {total:,} yen paid): median {statistics.median(times) * 1e3:.3f} ms, "
          f"p95 {sorted(times)[int(0.95 * len(times))] * 1e3:.3f} ms")
    print(f"income calculator (POST body of the same map): median {statistics.median(ctimes) * 1e3:.3f} ms")


def record_phase(rules, seed):
    """A seeded 5-player game to the start of round 1's purchase phase (loans revealed), then that phase's moves."""
    rng = random.Random(seed)
    s = rules.setup(NAMES, {"dice": "companion"}, seed)
    for p in range(5):
        s = rules.apply(s, {"type": "choose-loan", "player": p, "amount": rng.choice(rules.loan_amounts)})
    start, log, now = s, [], T0
    while s["phase"] == "purchase":
        timers = rules.timers(s)
        if timers and rng.random() < 0.2:
            now = max(now, timers["count"]["deadline_ms"])
            log.append(("expire", "count", now))
            s = rules.on_expire(s, "count", Ctx(now, None))
            continue
        move = rng.choice(rules.legal_moves(s).moves)
        log.append(("move", move, now))
        s = rules.apply(s, move, Ctx(now, HOST))
        now += rng.randint(200, 3000)
    return start, log


def bench_phase(data, rounds):
    rules = RULES(data)
    phases = [record_phase(rules, seed) for seed in range(rounds)]
    moves = sum(len(log) for _, log in phases)
    t = time.perf_counter()
    per_phase = []
    for start, log in phases:
        t1 = time.perf_counter()
        s = copy.deepcopy(start)
        for kind, what, at in log:
            if kind == "expire":
                s = rules.on_expire(s, what, Ctx(at, None))
            else:
                ctx = Ctx(at, HOST)
                assert rules.validate(s, what, ctx) == []
                s = rules.apply(s, what, ctx)
        per_phase.append(time.perf_counter() - t1)
    total = time.perf_counter() - t
    print(f"purchase phase replayed (5 players, {rounds} phases, {moves} moves and expiries): "
          f"{moves / total:,.0f} moves/s, one phase median {statistics.median(per_phase) * 1e3:.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    data = load("capsule-hotel")
    bench_income(data, args.repeat)
    bench_phase(data, args.rounds)


if __name__ == "__main__":
    main()
