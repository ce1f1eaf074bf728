"""Shinjuku's apply copies only what a move may change in place (state.clone shares the records the
moves only ever replace: a ward's customers, a station's store, a queue slot's customers). Whole
seeded games in every deck mode check what that sharing must never break: no move, legal or
refused, changes any earlier state of the game, and every state is what a full deep copy per
move gives."""
from __future__ import annotations

import json
import random

import pytest

from companion.catalog import discover
from companion.games.contract import IllegalMove
from companion.games.shinjuku.rules import playout
from companion.games.shinjuku.rules import state as st

G = discover()["shinjuku"]
R = G.rules
NAMES = ["Aki", "Ben", "Chie", "Dai"]


def _frozen(state: dict) -> str:
    return json.dumps(state)


def _probes(state: dict, rng: random.Random) -> list[dict]:
    """Moves that touch the shared records, most of them refused in this state."""
    wards = sorted(state["wards"])
    stations = sorted(state["stations"]) or ["shinjuku"]
    p = state.get("current", 0)
    return [{"type": "move-customers", "player": p, "card": rng.choice(wards),
             "path": [rng.choice(stations), rng.choice(stations)]},
            {"type": "upgrade-store", "player": p, "station": rng.choice(stations), "card": rng.choice(wards),
             "customer": "food"},
            {"type": "open-store", "player": p, "card": rng.choice(wards), "station": rng.choice(stations),
             "goods": "food"},
            {"type": "place-customers", "player": p}]


def _reference_apply(state: dict, move: dict) -> dict:
    """apply as it was with a full deep copy of the state per move."""
    real = st.clone
    st.clone = st.deep_copy
    try:
        return R.apply(state, move)
    finally:
        st.clone = real


@pytest.mark.parametrize("options,seed,players", [
    ({"deck": "companion"}, 7, 4), ({"deck": "companion"}, 11, 2),
    ({"deck": "table", "hands": "entered"}, 5, 3), ({"deck": "table", "hands": "named"}, 9, 4)])
def test_no_move_changes_an_earlier_state(options, seed, players):
    rng = random.Random(seed)
    state = R.setup(NAMES[:players], options, seed)
    history = [(state, _frozen(state))]
    for _ in range(600):
        if state["phase"] == "over":
            break
        move = playout.choose(R, state, rng)
        if move is None:
            break
        for probe in _probes(state, rng):
            try:
                R.apply(state, probe)
            except IllegalMove:
                pass
        new = R.apply(state, move)
        assert new == _reference_apply(state, move)
        state = new
        history.append((state, _frozen(state)))
        for old, frozen in history[-3:]:
            assert _frozen(old) == frozen
    assert len(history) > 40
    for old, frozen in history:
        assert _frozen(old) == frozen, "a later move changed an earlier state"
