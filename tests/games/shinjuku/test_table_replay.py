"""The table-replay driver (benchmarks/replay/shinjuku.py, run by benchmarks/table_replay.py) still plays
Shinjuku through the pages: a short 2-player game with the table's own deck (hands kept and named at
play, the face-up deal entered card by card, two turns) on two simulated phones in a real headless
Chromium. It fails when a page no longer offers a move the driver needs (a dead end, a renamed button),
so the before/after figures of issues 9 and 23 can be measured again. About 30 s."""
from __future__ import annotations

import pytest

pytest.importorskip("companion.games.shinjuku")

from replaying import driver, replayed

replay = driver("shinjuku")


def test_names_are_told_apart():
    assert replay.starts_with_name("Kita 北", "Kita")
    assert replay.starts_with_name("Kita", "Kita")
    assert not replay.starts_with_name("Kita Senju 北千住", "Kita")
    assert not replay.starts_with_name("Nakano", "Naka Meguro")
    assert replay.starts_with_name("Shinjuku2 customers waiting", "Shinjuku")


def test_a_short_table_deck_game_is_tapped_into_the_pages(tmp_path):
    turns = 2
    played = replayed(replay, tmp_path, 2, "table", seed=5, turns=turns)
    r, state, seq, moves, kinds = played.result, played.state, played.seq, played.moves, played.kinds
    assert r["errors"] == []                                     # no script error on any phone
    assert r["turns"] == turns and len(r["taps"]) == turns
    # the new-table page's default: hands kept, nothing drawn into a hand entered; the face-up deal
    # went through the pages: 4 starting wards, the Matsuri, the queue
    assert state["hands"] == "named" and "deal-hand" not in kinds
    assert not [m for m in moves if m["type"] == "income" and "cards" in m]
    assert kinds.count("seed-ward") == 4 and "place-matsuri" in kinds and "fill-queue" in kinds
    assert kinds.count("place-customers") == turns
    assert seq == r["moves"] == len(kinds)                       # every move the driver entered, and no other
    assert state["turn"] == turns + 1 and state["phase"] == "place"
    # setup: names, seats, the invite code typed, the board opened, 4 x (1 + 2), 1, 4 + 2
    assert r["setup_taps"] >= 4 * 3 + 6
    assert all(t >= 3 for t in r["taps"])                        # place, Matsuri, an action: a tap each at least
    assert all(s >= 0 for s in r["screens"])
    assert len(r["map_drags"]) == turns and all(d >= 0 for d in r["map_drags"])   # the close-up map's drags, apart
