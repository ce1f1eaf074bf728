"""Shin Bikkuri Man benchmark: the rules engine's moves per second, and the kit's build time next to
Shinjuku's. Prints figures; asserts nothing.

    .venv/bin/python benchmarks/shin_bikkuri_man_bench.py [--games 20] [--seed 1] [--no-kit]

1. Plays `--games` seeded random games (2-4 players, both chance modes) and keeps their move logs
   (timed apart: the random player enumerates legal moves, the UI's job, not the engine's).
2. Times replaying every log through validate(state, move, ctx) + apply(state, move, ctx), as the
   companion does for every move it receives: moves per second; then legal-move lists, results and
   the place calculator on its own.
3. Builds each kit (PDF, Letter and A4) into a temporary folder: Shin Bikkuri Man and Shinjuku.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.contract import HOST, Ctx  # noqa: E402
from companion.games.shin_bikkuri_man.rules import RULES  # noqa: E402
from generator.canon import load  # noqa: E402

NAMES = ["Aki", "Ben", "Cho", "Dai"]


def playout(rules, players: int, mode: str, seed: int):
    rng = random.Random(seed)
    start = state = rules.setup(NAMES[:players], {"deck": mode}, seed)
    moves = []
    while rules.result(state) is None:
        move = rng.choice(rules.legal_moves(state).moves)
        state = rules.apply(state, move)
        moves.append(move)
    return start, moves, state


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-kit", action="store_true", help="skip the kit build timings")
    args = ap.parse_args()

    rules = RULES(load("shin-bikkuri-man"))
    games = []
    t0 = time.perf_counter()
    for g in range(args.games):
        seed = args.seed * 1000 + g
        games.append(playout(rules, 2 + g % 3, ("companion", "table")[g % 2], seed))
    t_play = time.perf_counter() - t0
    n_moves = sum(len(m) for _, m, _ in games)
    ends = [e["ended"] for _, _, e in games]

    t0 = time.perf_counter()
    for start, moves, end in games:
        state = start
        for move in moves:
            ctx = Ctx(0, HOST if rules.mover(move) is None else rules.mover(move))
            if rules.validate(state, move, ctx):
                raise SystemExit(f"replay refused {move}")
            state = rules.apply(state, move, ctx)
        assert state == end
    t_replay = time.perf_counter() - t0

    states = [s for start, moves, _ in games[:5] for s in _states(rules, start, moves)]
    t0 = time.perf_counter()
    sizes = [len(rules.legal_moves(s).moves) for s in states]
    t_legal = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _, _, end in games:
        rules.result(end)
    t_result = time.perf_counter() - t0
    body = {"board": ["....."] * 6 + ["Rr...", "PPppp", "rrrrr"],
            "tile": {"colour": "b", "squares": [[3, 4], [4, 4], [5, 4], [5, 5]], "brick": [3, 4]}}
    n_place = 2000
    t0 = time.perf_counter()
    for _ in range(n_place):
        rules.place(body)
    t_place = time.perf_counter() - t0

    print(f"rules: {args.games} random games, {n_moves} moves (ended by {ends.count('points')} x 12 points, "
          f"{ends.count('end-card')} x end card); playing them took {t_play:.2f} s")
    print(f"  validate + apply: {n_moves / t_replay:,.0f} moves/s ({1e6 * t_replay / n_moves:.0f} µs a move)")
    print(f"  legal_moves: {1e3 * t_legal / len(states):.2f} ms a state (median {statistics.median(sizes):.0f}, "
          f"max {max(sizes)} moves listed)")
    print(f"  result: {1e6 * t_result / len(games):.0f} µs; place calculator: {1e6 * t_place / n_place:.0f} µs a call")

    if not args.no_kit:
        from generator.build import BuildOptions, build
        for game in ("shin-bikkuri-man", "shinjuku"):
            with tempfile.TemporaryDirectory() as tmp:
                t0 = time.perf_counter()
                manifest = build(BuildOptions(games=(game,), formats=("pdf",), out=Path(tmp)))
                dt = time.perf_counter() - t0
            pages = sum(f["pages"] for f in manifest["files"])
            print(f"kit {game}: PDF on Letter and A4 in {dt:.2f} s ({len(manifest['files'])} files, {pages} pages)")


def _states(rules, start, moves):
    state = start
    yield state
    for move in moves:
        state = rules.apply(state, move)
        yield state


if __name__ == "__main__":
    main()
