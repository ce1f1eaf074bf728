"""Helpers for Shin Bikkuri Man's tests: the bound rules and states built to order."""
from __future__ import annotations

import copy

from companion.games.shin_bikkuri_man.rules import RULES
from generator import canon

NAMES = ["Aki", "Ben", "Chie", "Dan"]
D = canon.load("shin-bikkuri-man")
R = RULES(D)


def make(players=2, mode="companion", seed=1, hand=None, facade=None, harbour=None, **fields):
    """make(players=2, mode="companion", seed=1, hand=None, facade=None, harbour=None, **fields):
    a state at the first player's turn, with seat 0's hand, façade and the harbour set as given."""
    state = R.setup(NAMES[:players], {"deck": mode}, seed)
    if mode == "table":
        for m in R.legal_moves(state).moves:
            state = R.apply(state, m)
    state = copy.deepcopy(state)
    if hand is not None:
        state["players"][0]["hand"] = {c: hand.get(c, 0) for c in state["players"][0]["hand"]}
    if facade is not None:
        state["players"][0]["facade"] = list(facade)
        state["players"][0]["points"] = R.score_of(facade)["points"]
    if harbour is not None:
        state["harbour"] = list(harbour)
    state.update(fields)
    return state


def rows(*lines: str) -> list[str]:
    """A façade from its bottom rows upwards (the rest empty): rows("RRr..", "b....")."""
    lines = list(lines) + ["....."] * (9 - len(lines))
    return list(reversed(lines))
