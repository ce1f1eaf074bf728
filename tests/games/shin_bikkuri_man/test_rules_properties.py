"""Shin Bikkuri Man: property tests of placement, and random playouts in both chance modes."""
from __future__ import annotations

import random

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
