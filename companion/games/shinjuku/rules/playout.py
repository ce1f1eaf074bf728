"""Seeded random playouts (for tests and benchmarks): a random but purposeful player.

In the actions phase an action type is chosen first (weighted, so games use every action and
reach their end), then one of its legal moves uniformly. Everything is drawn from one
`random.Random(seed)`, so a playout is reproducible. `rules` is a bound ShinjukuRules.
"""
from __future__ import annotations

import random

from companion.games.contract import IllegalMove

from .movement import matching

#: how often each kind is tried first in the actions phase
WEIGHTS = {"move-customers": 6, "open-store": 4, "upgrade-store": 5, "expand-track": 4, "income": 2}


def choose(rules, state: dict, rng: random.Random) -> dict | None:
    if state["phase"] != "actions":
        moves = rules.legal_moves(state).moves
        return rng.choice(moves) if moves else None
    kinds = [k for k in WEIGHTS if k not in state["actions"]]
    while kinds:
        k = rng.choices(kinds, [WEIGHTS[x] for x in kinds])[0]
        moves = rules.legal_moves(state, kinds=(k,), max_paths=8).moves
        if moves:
            m = rng.choice(moves)
            if m["type"] == "move-customers" and rng.random() < 0.3:
                m = _with_choice(rules, state, m, rng)
            return m
        kinds.remove(k)
    return None


def _with_choice(rules, state: dict, move: dict, rng: random.Random) -> dict:
    """Sometimes pick which customer a store takes, instead of the default."""
    ix = rules.ix
    remaining = list(state["wards"][ix.station_ward[move["path"][0]]])
    take = {}
    for s in move["path"]:
        store = state["stations"].get(s)
        cands = matching(ix, store, remaining) if store else []
        if cands:
            pick = rng.choice(cands)
            take[s] = pick
            remaining.remove(pick)
    return {**move, "take": take} if take else move


def playout(rules, state: dict, seed: int, max_moves: int = 4000) -> tuple[list[dict], dict]:
    """Play from `state` to the end (or `max_moves`). Returns (moves, final state)."""
    rng = random.Random(seed)
    moves = []
    for _ in range(max_moves):
        if state["phase"] == "over":
            break
        move = choose(rules, state, rng)
        if move is None:
            break
        try:
            state = rules.apply(state, move)
        except IllegalMove as exc:
            raise AssertionError(f"legal_moves offered an illegal move {move}: {exc.reasons}") from exc
        moves.append(move)
    return moves, state
