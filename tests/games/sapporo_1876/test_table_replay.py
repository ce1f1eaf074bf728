"""The table-replay driver (benchmarks/replay/sapporo_1876.py, run by benchmarks/table_replay.py --game
sapporo_1876) still plays Sapporo 1876 through the pages: with the table's own tiles laid out by hand, the
set-up's purchases and pioneers and the first two turns tapped on two simulated phones in a real headless
Chromium. It fails when a page no longer offers a move the driver needs (a dead end, a renamed button), so
issue 23's before/after figures can be measured again."""
from __future__ import annotations

import sys
from pathlib import Path

from phones import require_chromium

require_chromium()

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
from replay import sapporo_1876 as replay  # noqa: E402
from replay.common import chromium, companion_server  # noqa: E402


def test_two_turns_are_tapped_into_the_pages(tmp_path):
    turns = 2
    with companion_server(str(tmp_path)) as (server, services), chromium() as browser:
        game = replay.Game(browser, server, services, 2, "table", seed=3, turns=turns, log=None)
        try:
            with replay.seeded_tables(3):
                r = game.play()
            seq = game.seq()
            log, _ = services.tables.events(game.code, 0)
        finally:
            game.close()
    assert r["errors"] == []                                     # no script error on any phone
    assert r["turns"] == turns and len(r["taps"]) == turns
    kinds = [e["move"]["type"] for e in log if e.get("kind") == "move"]
    # the tiles the table laid out (16 boxes ticked), both purchases and both pioneers, then the turns
    assert kinds[:5] == ["lay-out-tiles", "buy-building", "buy-building", "place-pioneer", "place-pioneer"]
    assert kinds.count("move-pawn") == turns
    assert seq == r["moves"] == len(kinds)                       # every move the driver entered, and no other
    assert r["setup_taps"] >= 2 + 1 + 16 + 4                     # names, start, the tiles, buys and pioneers
    # each turn: the moves entered are at least the pawn and both actions (or nothing done)
    assert all(d >= 3 for d in r["decisions"])
    # the game screen (issue 23): at most a tap beside each move, on the screen as it is
    assert all(t <= d + 1 for t, d in zip(r["taps"], r["decisions"]))
    assert all(s <= 0.5 for s in r["screens"])
