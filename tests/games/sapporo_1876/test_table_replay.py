"""The table-replay driver (benchmarks/replay/sapporo_1876.py, run by benchmarks/table_replay.py --game
sapporo_1876) still plays Sapporo 1876 through the pages: with the table's own tiles laid out by hand, the
set-up's purchases and pioneers and the first two turns tapped on two simulated phones in a real headless
Chromium. It fails when a page no longer offers a move the driver needs (a dead end, a renamed button), so
issue 23's before/after figures can be measured again."""
from __future__ import annotations

from replaying import driver, replayed

replay = driver("sapporo_1876")


def test_two_turns_are_tapped_into_the_pages(tmp_path):
    turns = 2
    played = replayed(replay, tmp_path, 2, "table", seed=3, turns=turns)
    r, seq, kinds = played.result, played.seq, played.kinds
    assert r["errors"] == []                                     # no script error on any phone
    assert r["turns"] == turns and len(r["taps"]) == turns
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
