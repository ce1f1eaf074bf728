"""The rules contract (companion/games/contract.py), checked over every registered game and the tests'
own games (tests/testgames.py: a secret simultaneous bid and a timed round, which Shinjuku lacks).

For every game, in every chance mode it offers:
- setup works for each player count, and the options of the mode are valid;
- choosing random moves from `legal_moves` (and letting running timers run out now and then, as the
  server would at their deadlines) reaches a result; every listed move is accepted as it is;
- apply never changes its input; replaying the log from setup gives the same state;
- `validate` never raises on junk, and a rejected move is refused by `apply` with the state unchanged;
- `public_view` hides each seat's secrets (`secret_paths`) from every other viewer, and the seed;
- the result names real seats as winners, and each breakdown adds up to its score.
"""
from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.catalog import discover
from companion.games import clock
from companion.games.contract import HOST, Ctx, IllegalMove
from testgames import TEST_GAMES

T0 = 1_700_000_000_000
NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi", "Goro", "Hana"]
MAX_STEPS = 3000


def _games():
    found = {g.id: g for g in discover().values() if g.playable}
    found.update(TEST_GAMES)
    return found


GAMES = _games()
CASES = [(gid, mode) for gid, g in GAMES.items() for mode in g.chance_modes]


def playout(game, players: int, mode: str, seed: int):
    """A random game to its end: (states after each step, the log, the result)."""
    rng = random.Random(seed)
    state = game.setup(NAMES[:players], dict(game.chance_modes[mode]), seed)
    states, log, now = [state], [], T0
    for _ in range(MAX_STEPS):
        res = game.result(state)
        if res is not None:
            return states, log, res
        due = sorted((d, name) for name, rec in game.timers(state).items()
                     if (d := clock.due(rec)) is not None)
        legal = game.legal(state)
        assert legal.moves or due, f"{game.id}: no legal move while the game is not over"
        if due and (not legal.moves or rng.random() < 0.25):
            deadline, name = due[0]
            now = max(now, deadline)
            before = copy.deepcopy(state)
            state = game.on_expire(state, name, Ctx(deadline, None))
            assert states[-1] == before, "on_expire changed its input"
            log.append(("expire", name, deadline))
        else:
            move = rng.choice(legal.moves)
            ctx = Ctx(now, HOST)
            assert game.validate(state, move, ctx) == [], f"listed but refused: {move}"
            assert game.shape_reasons(move) == [], f"listed, but its type does not define it: {move}"
            before = copy.deepcopy(state)
            state = game.apply(state, move, ctx)
            assert states[-1] == before, "apply changed its input"
            log.append(("move", move, now))
            now += rng.randint(0, 3000)
        assert json.loads(json.dumps(state)) == state, "the state is not plain JSON"
        states.append(state)
    raise AssertionError(f"{game.id} ({mode}): no result after {MAX_STEPS} steps")


def replay(game, players: int, mode: str, seed: int, log):
    state = game.setup(NAMES[:players], dict(game.chance_modes[mode]), seed)
    for kind, what, at in log:
        state = (game.on_expire(state, what, Ctx(at, None)) if kind == "expire"
                 else game.apply(state, what, Ctx(at, HOST)))
    return state


def at_path(value, path):
    for key in path:
        if isinstance(value, dict) and key in value:
            value = value[key]
        elif isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value):
            value = value[key]
        else:
            return None
    return value


@pytest.mark.parametrize("game_id", list(GAMES))
def test_setup_for_every_player_count(game_id):
    game = GAMES[game_id]
    low, high = game.players
    for n in range(low, high + 1):
        for mode, options in game.chance_modes.items():
            assert game.validate_options(NAMES[:n], dict(options)) == [], (n, mode)
            state = game.setup(NAMES[:n], dict(options), 7)
            assert json.loads(json.dumps(state)) == state
            assert game.result(state) is None


@pytest.mark.parametrize("game_id,mode", CASES)
def test_random_playouts_reach_a_result_and_replay(game_id, mode):
    game = GAMES[game_id]
    low, high = game.players
    for seed in range(3):
        players = low + seed % (high - low + 1)
        states, log, res = playout(game, players, mode, seed)
        assert replay(game, players, mode, seed, log) == states[-1]
        assert game.legal(states[-1]).moves == []
        assert game.actors(states[-1]).mode == "none"
        check_result(res, players)


def check_result(res, players):
    assert set(res) >= {"winners", "unit", "scores"}
    assert isinstance(res["unit"], str) and res["unit"]
    assert sorted(s["player"] for s in res["scores"]) == list(range(players))
    assert res["winners"] and set(res["winners"]) <= set(range(players))
    best = max(s["score"] for s in res["scores"])
    for s in res["scores"]:
        assert s["name"] == NAMES[s["player"]]
        assert sum(b["value"] for b in s["breakdown"]) == s["score"], s
        assert all(isinstance(b["label"], str) and b["label"] for b in s["breakdown"])
        if s["player"] in res["winners"]:
            assert s["score"] == best


@pytest.mark.parametrize("game_id,mode", CASES)
def test_public_view_hides_other_seats_secrets(game_id, mode):
    game = GAMES[game_id]
    low, high = game.players
    players = max(low, 2)
    states, _, _ = playout(game, players, mode, 11)
    checked = 0
    for state in states[::max(1, len(states) // 40)]:
        for seat in range(players):
            for path in game.rules.secret_paths(state, seat):
                secret = at_path(state, path)
                if secret in (None, [], {}, ""):
                    continue
                for viewer in [None] + [v for v in range(players) if v != seat]:
                    assert at_path(game.public_view(state, viewer), path) != secret, (path, viewer)
                    checked += 1
                assert at_path(game.public_view(state, seat), path) == secret
                assert at_path(game.public_view(state, HOST), path) == secret
        if isinstance(state, dict) and state.get("seed") is not None:
            for viewer in [None, HOST, *range(players)]:
                assert game.public_view(state, viewer).get("seed") != state["seed"]
    if any(game.rules.secret_paths(s, p) for s in states for p in range(players)):
        assert checked, "secrets were listed but never checked"


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 100) | st.floats(allow_nan=False)
                    | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8),
                                                                                inner, max_size=4),
                    max_leaves=12)


def _sample_states(game_id, mode):
    game = GAMES[game_id]
    low, _ = game.players
    states, _, _ = playout(game, max(low, 2), mode, 5)
    return states[:: max(1, len(states) // 12)]


@pytest.mark.parametrize("game_id,mode", CASES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_junk_and_mutated_moves_never_raise_and_change_nothing(game_id, mode, data):
    game = GAMES[game_id]
    if (game_id, mode) not in SAMPLES:      # (setdefault would play the sample game out on every example)
        SAMPLES[game_id, mode] = _sample_states(game_id, mode)
    states = SAMPLES[game_id, mode]
    state = data.draw(st.sampled_from(states))
    legal = game.legal(state).moves
    if legal and data.draw(st.booleans()):
        move = dict(data.draw(st.sampled_from(legal)))
        key = data.draw(st.sampled_from(sorted(move)))
        move[key] = data.draw(JSON)       # a listed move with one field mangled
    else:
        move = data.draw(JSON | st.dictionaries(st.sampled_from(["type", "player", "card", "amount"]),
                                                JSON, max_size=4))
        if isinstance(move, dict) and data.draw(st.booleans()) and game.move_types:
            move["type"] = data.draw(st.sampled_from([mt.name for mt in game.move_types]))
    before = copy.deepcopy(state)
    ctx = Ctx(T0, HOST)
    reasons = game.validate(state, move, ctx)
    assert isinstance(reasons, list) and all(isinstance(r, str) and r for r in reasons)
    if reasons:
        with pytest.raises(IllegalMove):
            game.apply(state, move, ctx)
    else:
        game.apply(state, move, ctx)
    assert state == before


SAMPLES: dict = {}


def test_move_types_are_named_and_documented():
    for game in GAMES.values():
        names = [mt.name for mt in game.move_types]
        assert names and len(names) == len(set(names)), game.id
        for mt in game.move_types:
            schema = mt.schema()
            assert schema["properties"]["type"] == {"const": mt.name}
            assert mt.label and mt.who in ("seat", "table")
