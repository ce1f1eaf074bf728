"""Seeded random playouts (for tests and benchmarks): a random but purposeful player.

In the actions phase an action type is chosen first (weighted, so games use every action and
reach their end), then one of its legal moves uniformly. Everything is drawn from one
`random.Random(seed)`, so a playout is reproducible.
"""
from __future__ import annotations

import random

from .index import Index
from .legal import legal_moves
from .moves import run
from .state import clone

#: how often each kind is tried first in the actions phase
WEIGHTS = {"move-customers": 6, "open-store": 4, "upgrade-store": 5, "expand-track": 4,
           "income": 2, "end-turn": 1}


def choose(ix: Index, state: dict, rng: random.Random) -> dict | None:
    if state["phase"] != "actions":
        moves = legal_moves(ix, state)
        return rng.choice(moves) if moves else None
    kinds = [k for k in WEIGHTS if k == "end-turn" or k not in state["actions"]]
    while kinds:
        k = rng.choices(kinds, [WEIGHTS[x] for x in kinds])[0]
        moves = legal_moves(ix, state, kinds=(k,), max_paths=8)
        moves = [m for m in moves if m["type"] == k]
        if moves:
            m = rng.choice(moves)
            if m["type"] == "move-customers" and rng.random() < 0.3:
                m = _with_choice(ix, state, m, rng)
            return m
        kinds.remove(k)
    return None


def _with_choice(ix: Index, state: dict, move: dict, rng: random.Random) -> dict:
    """Sometimes pick which customer a store takes, instead of the default."""
    from .movement import _matching
    remaining = list(state["wards"][ix.station_ward[move["path"][0]]])
    take = {}
    for s in move["path"]:
        store = state["stations"].get(s)
        cands = _matching(ix, store, remaining) if store else []
        if cands:
            pick = rng.choice(cands)
            take[s] = pick
            remaining.remove(pick)
    return {**move, "take": take} if take else move


def playout(ix: Index, state: dict, seed: int, max_moves: int = 4000):
    """Play from `state` to the end (or `max_moves`). Returns (moves, final state)."""
    rng = random.Random(seed)
    moves = []
    for _ in range(max_moves):
        if state["phase"] == "over":
            break
        move = choose(ix, state, rng)
        if move is None:
            break
        moves.append(clone(move))
        new = clone(state)
        reasons = run(ix, new, move, act=True)
        if reasons:
            raise AssertionError(f"legal_moves offered an illegal move {move}: {reasons}")
        state = new
    return moves, state
