"""Tokyo Jutaku benchmark (not a test): kit build time, the 69 pieces packed (sheets used vs a naive
one-piece-per-cell layout), and the rules engine's random playouts per mode.

    .venv/bin/python benchmarks/jutaku_bench.py
"""
from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games import clock  # noqa: E402
from companion.games.contract import HOST, Ctx  # noqa: E402
from companion.games.jutaku.rules import RULES  # noqa: E402
from generator import canon  # noqa: E402
from generator.kits.jutaku import piece_blocks  # noqa: E402
from generator.kits.jutaku.layout import load_layout  # noqa: E402
from generator.kits.jutaku.pack import naive_sheets, pack  # noqa: E402


def kit_build() -> None:
    from generator.cli import main
    for fmt in ("pdf", "svg"):
        with tempfile.TemporaryDirectory() as out:
            t = time.perf_counter()
            main(["build", "--game", "jutaku", "--format", fmt, "--out", out])
            print(f"kit build, Letter + A4, {fmt}: {time.perf_counter() - t:.2f} s")


def pieces() -> None:
    data = canon.load("jutaku")
    cols, rows = load_layout().pieces.grid
    t = time.perf_counter()
    for _ in range(20):
        pack(data.pieces, cols, rows)
    ms = (time.perf_counter() - t) / 20 * 1000
    blocks = piece_blocks(data)
    used = sum(b.used for b in blocks)
    print(f"pieces: {len(data.pieces)} pieces, {used} squares on {len(blocks)} sheet(s) of {cols} x {rows} "
          f"({used / (len(blocks) * cols * rows):.0%} full), packed in {ms:.1f} ms; "
          f"naive one-per-cell layout: {naive_sheets(data.pieces, cols, rows)} sheets")


def playouts() -> None:
    rules = RULES(canon.load("jutaku"))
    for name, opts, n in (("jutaku", {}, 4), ("bottle bonus", {"bottle_bonus": True, "chance": "companion"}, 4),
                          ("countdown", {"mode": "countdown"}, 4), ("izakaya", {"mode": "izakaya"}, 4)):
        t, moves, games = time.perf_counter(), 0, 0
        while time.perf_counter() - t < 2.0:
            rng = random.Random(games)
            s = rules.setup(["A", "B", "C", "D"][:n], opts, games)
            now = 0
            while rules.result(s) is None:
                legal = rules.legal_moves(s).moves
                due = [(clock.due(r), k) for k, r in rules.timers(s).items() if clock.due(r) is not None]
                if due and (not legal or rng.random() < 0.2):
                    s = rules.on_expire(s, due[0][1], Ctx(due[0][0], None))
                    now = max(now, due[0][0])
                else:
                    s = rules.apply(s, rng.choice(legal), Ctx(now, HOST))
                    now += 500
                moves += 1
            games += 1
        dt = time.perf_counter() - t
        print(f"rules, {name} ({n} players): {games / dt:.0f} games/s, {moves / dt:.0f} moves/s")


if __name__ == "__main__":
    pieces()
    playouts()
    kit_build()
