"""The five games at the table: games played on simulated phones, every move tapped into the pages.

    .venv/bin/python benchmarks/table_replay.py                      # every game, the first 4 turns of each table
    .venv/bin/python benchmarks/table_replay.py --full               # every table to its end (long)
    .venv/bin/python benchmarks/table_replay.py --game shinjuku --tables 1,3 --turns 10 --seed 7

Each game's driver is `benchmarks/replay/<game>.py` (what the player taps, as a person who knows the pages
would; its docstring says how it chooses and taps); `benchmarks/replay/common.py` holds the phones that
count. The companion runs in-process (companion.testing.ServerThread, a temporary data directory); each
player is one headless Chromium context at phone size (390 x 844). A game with two chance modes (the
table's own deck or dice, or the companion's) is played in both.

Measured: taps (clicks + fills) and scrolling (before every tap the element is scrolled into view
explicitly: |scrollY after - scrollY before|, summed, in screen heights of 844 px), for set-up (from the
home page to the first move of the first turn) and per turn. Figures only, no assertion on speed.
TABLE_REPLAY_TRACE=<file> writes every tap with its scroll; TABLE_REPLAY_SNAPS=<dir> a screenshot before
every tap.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if importlib.util.find_spec("companion") is None:      # run from a checkout without the package installed
    sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import companion  # noqa: E402
from replay.common import CHROMIUM, HEIGHT, WIDTH, chromium, companion_server, revision, table  # noqa: E402

GAMES = ["shinjuku", "shin_bikkuri_man", "capsule_hotel", "sapporo_1876", "jutaku"]


def driver(game: str):
    return importlib.import_module(f"replay.{game.replace('-', '_')}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="all", help=f"one of {', '.join(GAMES)}, or all (default)")
    ap.add_argument("--full", action="store_true", help="play every table to its end")
    ap.add_argument("--turns", type=int, default=4, help="turns per table without --full (default 4)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tables", default="", help="which of the game's tables, e.g. 1,3 (default all)")
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args(argv)
    games = GAMES if args.game == "all" else [args.game.replace("-", "_")]
    for g in games:
        if g not in GAMES:
            ap.error(f"--game {g}: not one of {', '.join(GAMES)}")
    if not os.path.exists(CHROMIUM):
        print(f"{CHROMIUM} is not installed: nothing measured")
        return 0
    turns = None if args.full else args.turns
    print(f"companion from {Path(companion.__file__).resolve().parent} (revision {revision()})")
    print(f"{'complete games' if args.full else f'the first {turns} turns of each table'}, seed {args.seed}, "
          f"phones {WIDTH}x{HEIGHT}")
    log = print if args.verbose else None
    rows = []
    with companion_server() as (server, services), chromium() as browser:
        for g in games:
            mod = driver(g)
            picked = mod.GAMES if not args.tables else [mod.GAMES[int(k) - 1] for k in args.tables.split(",")]
            for name, n, mode in picked:
                try:                               # each table its own seed, whichever tables are picked
                    r = mod.play_game(browser, server, services, n, mode,
                                      args.seed * 100 + mod.GAMES.index((name, n, mode)), turns, log)
                except Exception as exc:  # noqa: BLE001 - a page the driver cannot use: say so, go on
                    r = {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0][:300]}"}
                    if args.verbose:
                        print(f"  {g} {name}: {exc}")
                rows.append((g, name, n, mode, r))
                if args.verbose and "taps" in r:
                    print(f"  taps per turn: {r['taps']}")
                    print(f"  screens per turn: {[round(x, 2) for x in r['screens']]}")
    print(table(rows))
    print(f"(screens of {HEIGHT} px)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
