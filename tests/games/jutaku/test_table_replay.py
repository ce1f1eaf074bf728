"""The table-replay driver (benchmarks/replay/jutaku.py, run by benchmarks/table_replay.py --game jutaku)
still plays Jutaku through the pages: a short Bottle Bonus game with the drinks drawn at the table (two
rounds: the architects on the map, Begin!, STOP!, the check, the drinks tapped in and grabbed, every move)
and two floors of Countdown, on simulated phones in a real headless Chromium. It fails when a page no
longer offers a move the driver needs (a dead end, a renamed button), so the before/after figures of
issue 23 can be measured again."""
from __future__ import annotations

from replaying import driver, replayed

replay = driver("jutaku")


def test_a_short_bottle_bonus_game_is_tapped_into_the_pages(tmp_path):
    turns = 2
    played = replayed(replay, tmp_path, 2, "bottle/table", seed=3, turns=turns)
    r, state, seq, kinds = played.result, played.state, played.seq, played.kinds
    assert r["errors"] == []                                     # no script error on any phone
    assert r["turns"] == turns and len(r["round_taps"]) == turns
    assert kinds[:2] == ["start", "start"]                      # the architects, tapped on the map
    assert kinds.count("stop") >= turns and kinds.count("verdict") >= turns
    assert kinds.count("draw-drinks") == turns and kinds.count("grab") == turns   # 1 drink drawn, 1 grab
    assert kinds.count("move") + kinds.count("stay") == 2 * turns
    assert seq == r["moves"] == len(kinds)                       # every move the driver entered, and no other
    assert state["round"] == turns and state["phase"] in ("ready", "over")
    assert sum(len(p["kept"]) for p in state["players"]) >= turns
    # a round on 2 phones: Begin! (or Ready), STOP!, Confirm, a colour and Enter, a grab, 2 moves
    assert all(t >= 7 for t in r["round_taps"])
    assert r["taps"] == [t / 2 for t in r["round_taps"]]        # a turn: a round per player


def test_countdown_floors_are_tapped_into_the_pages(tmp_path):
    played = replayed(replay, tmp_path, 2, "countdown", seed=4, turns=2)
    r, state, kinds = played.result, played.state, played.kinds
    assert r["errors"] == [] and r["turns"] == 2
    assert kinds[0] == "begin" and kinds.count("pieces") >= 3
    assert state["floor"] >= 2 or state["phase"] == "over"
    # Begin! once, then each entry two taps at most: a quick count and Enter (or, for none, Enter and
    # "Yes, I am out")
    assert sum(r["round_taps"]) <= 1 + 2 * kinds.count("pieces")
