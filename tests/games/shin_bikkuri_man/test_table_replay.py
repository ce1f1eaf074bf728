"""The table-replay driver (benchmarks/replay/shin_bikkuri_man.py, run by benchmarks/table_replay.py) still
plays Shin Bikkuri Man through the pages: short 2-player games with the table's own deck on two simulated
phones in a real headless Chromium, the entered way (the harbour and both starting hands entered card by
card, then two turns, each with the refill its player revealed) and the new tables' way, cards named when
paid (nothing dealt or revealed tapped in; the companion's counts follow the table's as it lies). It
fails when a page no longer offers a move the driver needs (a dead end, a renamed button), so the
before/after figures of issue 23 can be measured again."""
from __future__ import annotations

import sys
from pathlib import Path

from phones import require_chromium

require_chromium()

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
from replay import shin_bikkuri_man as replay  # noqa: E402
from replay.common import chromium, companion_server  # noqa: E402


def test_a_short_table_deck_game_is_tapped_into_the_pages(tmp_path):
    turns = 2
    with companion_server(str(tmp_path)) as (server, services), chromium() as browser:
        game = replay.Game(browser, server, services, 2, "table", seed=100, turns=turns, cards="entered")
        try:
            with replay.seeded_tables(100):
                r = game.play()
            state = game.state()
            seq = game.seq()
            log, _ = services.tables.events(game.code, 0)
        finally:
            game.close()
    assert r["errors"] == []                                     # no script error on any phone
    assert r["turns"] == turns and len(r["taps"]) == turns
    kinds = [e["move"]["type"] for e in log if e.get("kind") == "move"]
    # the deal went through the pages: the harbour, then both hands (each from its own phone)
    assert kinds[:3] == ["fill-harbour", "deal-hand", "deal-hand"]
    assert {e["move"]["player"] for e in log if e.get("kind") == "move" and e["move"]["type"] == "deal-hand"} == {0, 1}
    actions = [k for k in kinds[3:] if k in ("take", "build")]
    assert len(actions) == turns                                 # one action a turn
    assert kinds.count("refill") == actions.count("take")        # each take refilled from the table's deck
    assert seq == r["moves"] == len(kinds)                       # every move the driver entered, and no other
    assert state["turn"] == turns + 1 and state["phase"] == "turn"
    assert all(t >= 1 for t in r["taps"]) and all(s >= 0 for s in r["screens"])
    assert r["setup_taps"] >= 7 + 2 + 3                          # the harbour and the hands, a tap a card


def test_a_named_when_paid_game_taps_in_nothing_revealed(tmp_path):
    turns = 6
    with companion_server(str(tmp_path)) as (server, services), chromium() as browser:
        game = replay.Game(browser, server, services, 2, "table", seed=1, turns=turns, cards="named-when-paid")
        try:
            with replay.seeded_tables(1):
                r = game.play()
            state = game.state()
            log, _ = services.tables.events(game.code, 0)
        finally:
            game.close()
    assert r["errors"] == [] and r["turns"] == turns
    kinds = [e["move"]["type"] for e in log if e.get("kind") == "move"]
    assert not {"fill-harbour", "deal-hand", "refill"} & set(kinds)        # nothing dealt or revealed entered
    assert state["cards"] == "named-when-paid" and state["turn"] == turns + 1
    assert sum(r["entry_taps"]) == 0 and r["setup_taps"] < 7 + 2 + 3
    # the driver's table as it lies and the companion's counts agree (Game.in_step checks each move)
    assert [sum(p["hand"].values()) for p in game.shadow["players"]] == \
        [sum(p["hand"].values()) for p in state["players"]]
