"""The table-replay driver (benchmarks/replay/shin_bikkuri_man.py, run by benchmarks/table_replay.py) still
plays Shin Bikkuri Man through the pages: short 2-player games with the table's own deck on two simulated
phones in a real headless Chromium, the entered way (the harbour and both starting hands entered card by
card, then two turns, each with the refill its player revealed) and the new tables' way, cards named when
paid (nothing dealt or revealed tapped in; the companion's counts follow the table's as it lies). It
fails when a page no longer offers a move the driver needs (a dead end, a renamed button), so the
before/after figures of issue 23 can be measured again."""
from __future__ import annotations

from replaying import driver, replayed

replay = driver("shin_bikkuri_man")


def test_a_short_table_deck_game_is_tapped_into_the_pages(tmp_path):
    turns = 2
    played = replayed(replay, tmp_path, 2, "table", seed=100, turns=turns, cards="entered")
    r, state, seq, kinds = played.result, played.state, played.seq, played.kinds
    assert r["errors"] == []                                     # no script error on any phone
    assert r["turns"] == turns and len(r["taps"]) == turns
    # the deal went through the pages: the harbour, then both hands (each from its own phone)
    assert kinds[:3] == ["fill-harbour", "deal-hand", "deal-hand"]
    assert {m["player"] for m in played.moves if m["type"] == "deal-hand"} == {0, 1}
    actions = [k for k in kinds[3:] if k in ("take", "build")]
    assert len(actions) == turns                                 # one action a turn
    assert kinds.count("refill") == actions.count("take")        # each take refilled from the table's deck
    assert seq == r["moves"] == len(kinds)                       # every move the driver entered, and no other
    assert state["turn"] == turns + 1 and state["phase"] == "turn"
    assert all(t >= 1 for t in r["taps"]) and all(s >= 0 for s in r["screens"])
    assert r["setup_taps"] >= 7 + 2 + 3                          # the harbour and the hands, a tap a card


def test_a_named_when_paid_game_taps_in_nothing_revealed(tmp_path):
    turns = 6
    played = replayed(replay, tmp_path, 2, "table", seed=1, turns=turns, cards="named-when-paid")
    r, state, kinds = played.result, played.state, played.kinds
    assert r["errors"] == [] and r["turns"] == turns
    assert not {"fill-harbour", "deal-hand", "refill"} & set(kinds)        # nothing dealt or revealed entered
    assert state["cards"] == "named-when-paid" and state["turn"] == turns + 1
    assert sum(r["entry_taps"]) == 0 and r["setup_taps"] < 7 + 2 + 3
    # the driver's table as it lies and the companion's counts agree (Game.in_step checks each move)
    assert [sum(p["hand"].values()) for p in played.game.shadow["players"]] == \
        [sum(p["hand"].values()) for p in state["players"]]
