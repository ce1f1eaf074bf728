"""Sapporo 1876 benchmark: the kit's build time and the rules engine's moves per second (figures
printed, not asserted).

    .venv/bin/python benchmarks/sapporo_1876_bench.py [--games 30] [--seed 1]

1. Builds the kit (both papers, PDF and SVG) into a temporary folder, in one process, twice (the
   second time every file is written again: the output is byte-identical).
2. Plays `--games` seeded random games (both chance modes) and keeps their move logs.
3. Times replaying every log through validate + apply, as the companion does for every move it
   receives; then legal-move enumeration, needs (the board twin's suggestions and preview) and result.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.contract import HOST, Ctx  # noqa: E402
from companion.games.sapporo_1876.rules import RULES  # noqa: E402
from generator.build import BuildOptions, build  # noqa: E402
from generator.canon import load  # noqa: E402

GAME = "sapporo-1876"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    os.environ.setdefault("TOKYO_KIT_JOBS", "1")
    for fmt in (("pdf",), ("pdf", "svg")):
        with tempfile.TemporaryDirectory() as out:
            t0 = time.perf_counter()
            manifest = build(BuildOptions(games=(GAME,), formats=fmt, out=Path(out)))
            dt = time.perf_counter() - t0
        pages = sum(f.get("pages", 0) for f in manifest["files"] if f["format"] == "pdf")
        print(f"kit build ({'+'.join(fmt)}, letter + a4, one process): {dt:.2f} s, "
              f"{len(manifest['files'])} files, {pages} PDF pages")

    rules = RULES(load(GAME))
    rng = random.Random(args.seed)
    logs = []
    t0 = time.perf_counter()
    for g in range(args.games):
        mode = ("table", "companion")[g % 2]
        state = rules.setup(["Aki", "Ben"], dict(rules.chance_modes[mode]), args.seed + g)
        log = [(mode, args.seed + g)]
        while rules.result(state) is None:
            move = rng.choice(rules.legal_moves(state).moves)
            state = rules.apply(state, move, Ctx(0, HOST))
            log.append(move)
        logs.append(log)
    play = time.perf_counter() - t0
    n = sum(len(log) - 1 for log in logs)
    print(f"random playouts: {args.games} games, {n} moves ({n / args.games:.0f} per game) in {play:.2f} s")

    t0 = time.perf_counter()
    states = []
    for (mode, seed), *moves in logs:
        state = rules.setup(["Aki", "Ben"], dict(rules.chance_modes[mode]), seed)
        for move in moves:
            assert not rules.validate(state, move, Ctx(0, HOST))
            state = rules.apply(state, move, Ctx(0, HOST))
            states.append(state)
    dt = time.perf_counter() - t0
    print(f"validate + apply: {n / dt:,.0f} moves/s ({dt / n * 1e6:.0f} µs per move)")

    sample = states[:: max(1, len(states) // 300)]
    for name, fn in (("legal_moves", lambda s: rules.legal_moves(s)), ("needs", rules.needs),
                     ("result", rules.result)):
        times = []
        for s in sample:
            t = time.perf_counter()
            fn(s)
            times.append(time.perf_counter() - t)
        print(f"{name}: median {statistics.median(times) * 1e6:.0f} µs, max {max(times) * 1e3:.2f} ms "
              f"over {len(sample)} states")


if __name__ == "__main__":
    main()
