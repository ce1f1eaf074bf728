"""Shinjuku rules engine benchmark: validate + apply throughput on seeded random playouts.

    .venv/bin/python benchmarks/shinjuku_rules_bench.py [--games 20] [--seed 1]

1. Plays `--games` seeded random games in companion-deck mode (2-4 players) and keeps their move logs
   (timed apart: the random player enumerates legal moves, which is the UI's job, not the engine's).
2. Times replaying every log through validate(state, move, ctx) + apply(state, move, ctx), as the
   companion does for every move it receives: moves per second.
3. Also times apply alone, validate of refused moves, legal-move enumeration, result and best_sets.

The rules are bound to the data once (`RULES(data)`), as the companion binds them.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.contract import HOST, Ctx  # noqa: E402
from companion.games.shinjuku.rules import RULES  # noqa: E402
from companion.games.shinjuku.rules.playout import playout  # noqa: E402
from generator.canon import load  # noqa: E402

NAMES = ["Aki", "Ben", "Cho", "Dai"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    rules = RULES(load("shinjuku"))
    games = []
    t0 = time.perf_counter()
    for g in range(args.games):
        seed = args.seed * 1000 + g
        start = rules.setup(NAMES[:2 + g % 3], {"deck": "companion"}, seed)
        moves, end = playout(rules, start, seed)
        assert end["phase"] == "over"
        games.append((start, moves, end))
    t_play = time.perf_counter() - t0
    n_moves = sum(len(m) for _, m, _ in games)

    # validate + apply, as the companion does for every move it receives
    # each move sent by its own seat (the table's set-up entries by the host)
    ctxs = [[Ctx(now_ms=0, seat=HOST if rules.mover(m) is None else rules.mover(m)) for m in moves]
            for _, moves, _ in games]
    t0 = time.perf_counter()
    for (start, moves, end), seats in zip(games, ctxs):
        state = start
        for move, ctx in zip(moves, seats):
            if rules.validate(state, move, ctx):
                raise SystemExit(f"replay refused {move}")
            state = rules.apply(state, move, ctx)
        assert state == end
    t_va = time.perf_counter() - t0

    # apply only (a replay of the event log)
    t0 = time.perf_counter()
    for start, moves, _ in games:
        state = start
        for move in moves:
            state = rules.apply(state, move)
    t_apply = time.perf_counter() - t0

    # validate of refused moves (wrong player / garbage)
    rng = random.Random(args.seed)
    refused = checked = 0
    t_bad = 0.0
    for start, moves, _ in games:
        state = start
        for move in moves[:80]:
            bad = [dict(move, player=(move.get("player", 0) + 1) % len(state["players"])),
                   {"type": rng.choice(["fly", "open-store"]), "player": 0}]
            t0 = time.perf_counter()
            for b in bad:
                refused += bool(rules.validate(state, b))
            t_bad += time.perf_counter() - t0
            checked += len(bad)
            state = rules.apply(state, move)

    # legal-move enumeration (UI and random players)
    n_legal = listed = 0
    t0 = time.perf_counter()
    for start, moves, _ in games[:5]:
        state = start
        for move in moves:
            listed += len(rules.legal_moves(state).moves)
            n_legal += 1
            state = rules.apply(state, move)
    t_legal = time.perf_counter() - t0

    # result of each finished game (the end screen)
    t0 = time.perf_counter()
    for _, _, end in games:
        assert rules.result(end) is not None
    t_result = (time.perf_counter() - t0) / len(games)

    # best_sets
    samples = []
    for n in (3, 12, 24, 50):
        t0 = time.perf_counter()
        for w in range(7):
            rules.best_sets({"food": n, "clothing": max(n - 1, 0), "books": n // 2, "electronics": n // 3}, w)
        samples.append((n, (time.perf_counter() - t0) / 7 * 1e3))

    turns = [end["turn"] for _, _, end in games]
    print(f"Shinjuku rules benchmark: {args.games} random games (companion deck, 2-4 players), "
          f"{n_moves} moves, {statistics.mean(turns):.0f} turns per game on average")
    print(f"  random playouts (legal-move listing + apply): {n_moves / t_play:10,.0f} moves/s")
    print(f"  validate + apply:                             {n_moves / t_va:10,.0f} moves/s"
          f"  ({t_va / n_moves * 1e6:.0f} us/move)")
    print(f"  apply only (log replay):                      {n_moves / t_apply:10,.0f} moves/s"
          f"  (a whole game replays in {t_apply / len(games) * 1e3:.1f} ms)")
    print(f"  validate, refused moves:                      {checked / t_bad:10,.0f} moves/s"
          f"  ({refused} of {checked} refused)")
    print(f"  legal_moves:                                  {n_legal / t_legal:10,.0f} positions/s"
          f"  ({listed / n_legal:.0f} moves listed per position)")
    print(f"  result of a finished game:                     {t_result * 1e3:10.2f} ms")
    for n, ms in samples:
        print(f"  best_sets, counts up to {n:2d} + 0-6 wild:           {ms:8.2f} ms")


if __name__ == "__main__":
    main()
