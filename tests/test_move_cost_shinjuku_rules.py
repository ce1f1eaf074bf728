"""Shinjuku's answers to a move, made cheaper (issue 24), are the answers of the slow, obvious way.

The shortcuts: state.clone shares what the moves only ever replace ("last", "owed", the deck, the
discard pile, the bag, the bonus stack, "actions", "bonus", a player's hand, stores, customers and
bonus tokens, a queue slot); public_view takes the sorted bag from
Index.sorted_bag (remembered by the bag's content); describe takes a Move Customers' outcome from
the apply just made of that very move on that very state instead of simulating it again.

Whole seeded games in every deck mode (and random playouts from other seeds), through the catalog's
Game as the server calls it (apply, then describe on the state before, then public_view), compare
at every step against the obvious way: apply on a full deep copy, describe on deep copies (its own
simulate), the public view built from a deep copy with the bag sorted afresh; the legal moves of
both states; the refusals of other moves (mutated, out of turn, corrections of a hand); and no move
changes any earlier state.
"""
from __future__ import annotations

import json
import random

import pytest

from companion.catalog import discover
from companion.games.contract import HOST, Ctx, IllegalMove
from companion.games.shinjuku.rules import moves as mv
from companion.games.shinjuku.rules import playout
from companion.games.shinjuku.rules import state as st

G = discover()["shinjuku"]
R = G.rules
IX = R.ix
NAMES = ["Aki", "Ben", "Chie", "Dan"]
MODES = {"companion": {"deck": "companion"}, "table": {"deck": "table", "hands": "named"},
         "table-entered": {"deck": "table", "hands": "entered"}}
assert {k: MODES[k] for k in R.chance_modes} == {k: v for k, v in R.chance_modes.items()}


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)       # key order counts: the answers' bytes


def slow_apply(state: dict, move) -> dict:
    """apply with a full deep copy of the state (nothing shared with the state before)."""
    reasons = R.sender_reasons(state, move, Ctx())
    if reasons:
        raise IllegalMove(reasons)
    new = st.deep_copy(state)
    reasons = mv.run(IX, new, move, act=True)
    if reasons:
        raise IllegalMove(reasons)
    return new


def slow_describe(state: dict, move) -> str:
    """describe on copies of the state and the move: it simulates a Move Customers itself."""
    return G.describe(st.deep_copy(state), st.deep_copy(move))


def slow_view(state: dict, viewer) -> dict:
    """public_view as its docstring says, on a deep copy, the bag sorted afresh."""
    view = st.deep_copy(state)
    view["seed"] = None
    view["deck"] = None
    view["deck_size"] = st.deck_size(state)
    if state.get("mode") == st.TABLE:
        view["owed"] = list(st.owed(state)) if viewer == HOST else None
        view["conflicts"] = st.conflicts(IX, state, viewer)
    view["bag"] = sorted(state["bag"], key=IX.token_key)
    for p, pl in enumerate(view["players"]):
        pl["hand_size"] = pl["hand_size"] if pl["hand"] is None else len(pl["hand"])
        if viewer != HOST and p != viewer:
            pl["hand"] = None
    last = state.get("last")
    if last and "drawn" in last and last.get("player") != viewer and viewer != HOST:
        view["last"] = {**view["last"], "drawn": len(last["drawn"])}
    return view


def outcome(call):
    """(accepted state's JSON | None, refusal reasons)."""
    try:
        return dumps(call()), []
    except IllegalMove as exc:
        return None, exc.reasons


def probes(state: dict, chosen: dict, rng: random.Random) -> list:
    """Other moves for the same state: legal ones not chosen, the same mutated (another player,
    another path or card, a field too many), corrections of a hand, junk."""
    n = len(state["players"])
    others = R.legal_moves(state, max_paths=4).moves
    picked = rng.sample(others, min(3, len(others)))
    out = list(picked)
    for m in picked + [chosen]:
        if "player" in m:
            out.append({**m, "player": (m["player"] + 1) % n})
        if "path" in m:
            out.append({**m, "path": list(reversed(m["path"]))})
            out.append({**m, "take": {m["path"][-1]: rng.choice(sorted(IX.token))}})
        if "card" in m:
            out.append({**m, "card": rng.choice(sorted(IX.card_counts))})
        out.append({**m, "extra": 1})
    for p, pl in enumerate(state["players"]):
        if pl.get("hand"):
            out.append({"type": "correct-card", "player": p, "was": rng.choice(pl["hand"]),
                        "now": rng.choice(sorted(IX.card_counts))})
    out += [{"type": "upgrade-store", "player": state["current"], "station": s, "card": rng.choice(
        sorted(IX.card_counts)), "customer": rng.choice(sorted(IX.token))} for s in list(state["stations"])[:2]]
    out += [None, {"type": "move-customers", "player": state["current"], "path": ["nowhere"]}]
    return out


def check_step(state: dict, move: dict, rng: random.Random) -> dict:
    """One move as the server makes it, against the slow way; returns the state after it."""
    frozen = dumps(state)
    for probe in probes(state, move, rng):
        fast, slow = outcome(lambda: R.apply(state, probe)), outcome(lambda: slow_apply(state, probe))
        assert fast == slow, probe
        assert R.validate(state, probe) == slow[1], probe
        if fast[0] is not None:
            assert G.describe(state, probe) == slow_describe(state, probe), probe
        assert dumps(state) == frozen, f"{probe} changed the state it was applied to"
    ctx = Ctx(0, HOST)
    new = G.apply(state, move, ctx)               # Tables.move: apply, describe, public_view
    summary = G.describe(state, move)
    assert summary == slow_describe(state, move)
    slow = slow_apply(state, move)
    assert dumps(new) == dumps(slow)
    assert dumps(state) == frozen
    n = len(new["players"])
    for viewer in [None, HOST, *range(n)]:
        view = G.public_view(new, viewer)
        assert dumps(view) == dumps(slow_view(new, viewer)), viewer
        view["bag"].append("food")                # an answer is its own: the next one is as it was
        assert G.public_view(new, viewer)["bag"] == slow_view(new, viewer)["bag"]
    assert R.legal_moves(new) == R.legal_moves(slow)
    return new


def play(options: dict, seed: int, players: int, steps: int = 400) -> int:
    rng = random.Random(seed)
    state = R.setup(NAMES[:players], options, seed)
    history = [(state, dumps(state))]
    for _ in range(steps):
        if state["phase"] == "over":
            break
        move = playout.choose(R, state, rng)
        if move is None:
            break
        state = check_step(state, move, rng)
        history.append((state, dumps(state)))
        for old, frozen in history[-4:]:
            assert dumps(old) == frozen, "a later move changed an earlier state"
    for old, frozen in history:
        assert dumps(old) == frozen, "a later move changed an earlier state"
    return len(history) - 1


@pytest.mark.parametrize("mode", list(MODES))
def test_the_benchmark_game_in_every_deck_mode(mode):
    """The benchmark's game (4 players, seed 11: benchmarks/companion_bench.py) in each mode."""
    assert play(MODES[mode], 11, 4) > 100


@pytest.mark.parametrize("mode,seed,players", [
    ("companion", 3, 2), ("companion", 29, 3), ("table", 5, 3), ("table", 17, 2),
    ("table-entered", 8, 4), ("table-entered", 23, 2)])
def test_random_playouts(mode, seed, players):
    assert play(MODES[mode], seed, players, steps=250) > 40


def test_describe_takes_the_outcome_only_of_that_very_move_on_that_very_state():
    """A Move Customers described on another state, after its path or take changed in place, or
    after another move was applied, is simulated again: the line is the slow way's."""
    rng = random.Random(4)
    state = R.setup(NAMES, MODES["companion"], 4)
    seen = 0
    for _ in range(600):
        if state["phase"] == "over":
            break
        moves = R.legal_moves(state, kinds=("move-customers",)).moves if state["phase"] == "actions" else []
        for m in moves[:3]:
            move = st.deep_copy(m)
            R.apply(state, move)
            assert G.describe(st.deep_copy(state), move) == slow_describe(state, move)   # another state
            assert G.describe(state, st.deep_copy(move)) == slow_describe(state, move)   # another move
            assert G.describe(state, move) == slow_describe(state, move)                 # this one
            for other in moves:
                if other["path"] != m["path"]:
                    R.apply(state, move)
                    move["path"] = list(other["path"])           # changed in place after apply
                    assert G.describe(state, move) == slow_describe(state, move)
                    move = st.deep_copy(m)
                    R.apply(state, move)
                    R.apply(state, other)                        # another move applied since
                    assert G.describe(state, move) == slow_describe(state, move)
                    break
            R.apply(state, move)
            move["take"] = {move["path"][0]: "food-2"}
            assert G.describe(state, move) == slow_describe(state, move)
            seen += 1
        state = R.apply(state, playout.choose(R, state, rng))
    assert seen > 10


def test_sorted_bag_is_sort_tokens_for_any_bag():
    """Index.sorted_bag answers what sort_tokens does, a new list each time, for odd bags too."""
    bag = list(IX.token) * 3
    random.Random(1).shuffle(bag)
    for b in (bag, bag[5:], bag[:-5], bag[:0], bag + ["unknown"], list(reversed(bag)), tuple(bag)):
        first, again = IX.sorted_bag(b), IX.sorted_bag(b)
        assert first == again == IX.sort_tokens(b) and first is not again
    with pytest.raises(TypeError):
        IX.sorted_bag(None)
    with pytest.raises(TypeError):
        IX.sorted_bag([["food"]])
