"""Shin Bikkuri Man: property tests of placement, random playouts in both chance modes, and seeded
playouts that reach the 12-point end through real moves."""
from __future__ import annotations

import random

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.contract import HOST, Ctx

from .helpers import D, NAMES, R

GEO = R.geometry
TILES = list(GEO.placements)


@st.composite
def boards(draw):
    """A façade grown by legal placements of random tiles (so it is one a game can reach)."""
    cells = ["."] * GEO.n
    for _ in range(draw(st.integers(0, 14))):
        tile = draw(st.sampled_from(TILES))
        fits = GEO.legal_placements(cells, tile)
        if fits:
            cells = GEO.evaluate(cells, draw(st.sampled_from(fits))).cells
    return cells


@settings(max_examples=120, deadline=None)
@given(cells=boards(), tile=st.sampled_from(TILES), data=st.data())
def test_a_legal_placement_never_overlaps_is_supported_and_costs_zero_or_more(cells, tile, data):
    occ = GEO.occupied(cells)
    for p in GEO.placements[tile]:
        ok = not GEO.why_not(occ, p)
        assert ok == GEO.fits(occ, p)
        if not ok:
            continue
        assert not p.mask & occ
        assert any(r == 1 or GEO.bit(c, r - 1) & occ for c, r in p.squares)
    fits = GEO.legal_placements(cells, tile)
    if not fits:
        return
    p = data.draw(st.sampled_from(fits))
    ev = GEO.evaluate(cells, p)
    colour = GEO.tile_colour[tile]
    body = {"board": GEO.rows_of(cells), "tile": {"colour": GEO.letter[colour],
            "squares": [list(s) for s in p.squares], "brick": list(p.brick) if p.brick else None},
            "construction_discount": data.draw(st.booleans())}
    bad, illegal, out = R.place(body)
    assert bad == [] and illegal == [] and out["cost"] >= 0
    assert out["board"] == GEO.rows_of(ev.cells)
    before = GEO.score(cells)["points"]
    assert GEO.score(ev.cells)["points"] == before + out["points"]
    assert GEO.empty_squares(ev.cells) == GEO.empty_squares(cells) - len(p.squares)


def _playout(players, mode, seed):
    rng = random.Random(seed)
    state = R.setup(NAMES[:players], {"deck": mode}, seed)
    for _ in range(3000):
        res = R.result(state)
        if res is not None:
            return state, res
        moves = R.legal_moves(state).moves
        move = rng.choice(moves)
        assert R.validate(state, move, Ctx(0, HOST)) == [], move
        state = R.apply(state, move)
        for pl in state["players"]:
            assert sum(pl["hand"].values()) <= D.turn.hand_limit or state["phase"] == "discard"
            assert pl["points"] == R.score_of(pl["facade"])["points"]
        assert all(v >= 0 for v in state["supply"].values())
    raise AssertionError("no result")


def test_random_playouts_for_2_3_and_4_players_in_both_modes():
    for players in (2, 3, 4):
        for mode in ("table", "companion"):
            for seed in range(4):
                state, res = _playout(players, mode, seed)
                assert state["ended"] in ("points", "end-card")
                best = max(s["score"] for s in res["scores"])
                assert all(s["score"] == best for s in res["scores"] if s["player"] in res["winners"])
                if state["ended"] == "points":
                    assert best >= D.end.points


def _builder(state, moves, rng):
    """A player who plays for points: refills (the table's entries) in the colour the player to move
    holds most, takes cards of that colour, builds the placement that scores most (then the biggest
    tile, the lowest squares), fills the lowest square with a white tile."""
    p = state["current"]
    refills = [m for m in moves if m["type"] == "refill"]
    if refills:
        hand = state["players"][p]["hand"]
        for c in sorted(hand, key=lambda c: -hand[c]):
            m = {"type": "refill", "cards": [c] * len(refills[0]["cards"])}
            if not R.validate(state, m):
                return m
        return next((m for m in refills if "end" not in m["cards"]), refills[0])
    builds = []
    for m in (m for m in moves if m["type"] == "build"):
        after = R.apply(state, m)["players"][p]["points"]
        builds.append((after, len(m["squares"]), -max(r for _, r in m["squares"]), rng.random(), m))
    builds.sort(key=lambda t: t[:4], reverse=True)
    if builds and (builds[0][1] >= 3 or builds[0][0] > state["players"][p]["points"]):
        return builds[0][-1]
    special = [m for m in moves if m["type"] == "special-tile"]
    if special:
        return min(special, key=lambda m: (m["square"][1], rng.random()))
    takes = [m for m in moves if m["type"] == "take"]
    if takes:
        hand = state["players"][p]["hand"]
        best = max(hand, key=lambda c: hand[c])
        return max(takes, key=lambda m: (sum(state["harbour"][i] == best for i in m["spaces"]), rng.random()))
    return builds[0][-1] if builds else rng.choice(moves)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_seeded_playouts_reach_the_12_point_end_through_real_moves(seed):
    """Two players at a table-deck table, every move legal and applied: the first to reach 12 points
    ends the game at once, before the coat-of-arms actions that build earned, and wins unless the
    other player's façade (fewer empty squares) breaks a tie."""
    rng = random.Random(seed)
    state = R.setup(NAMES[:2], {"deck": "table"}, seed)
    for _ in range(3000):
        if R.result(state) is not None:
            break
        move = _builder(state, R.legal_moves(state).moves, rng)
        assert R.validate(state, move, Ctx(0, HOST)) == [], move
        before = state
        state = R.apply(state, move)
    res = R.result(state)
    assert res is not None and state["ended"] == "points"
    assert move["type"] in ("build", "special-tile")
    p = move["player"]
    assert before["players"][p]["points"] < D.end.points <= state["players"][p]["points"]
    assert state["phase"] == "over" and state["coats"] == 0        # no coat-of-arms action after it
    assert R.legal_moves(state).moves == []
    scores = {s["player"]: s["score"] for s in res["scores"]}
    assert scores[p] == state["players"][p]["points"] == R.score_of(state["players"][p]["facade"])["points"]
    assert p in res["winners"] or scores[p] == max(scores.values())
    for s in res["scores"]:
        assert sum(b["value"] for b in s["breakdown"]) == s["score"]
