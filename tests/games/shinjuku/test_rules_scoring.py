"""Shinjuku set scoring: best_sets against the rules' examples and a brute force, the calculator body,
score(state)'s breakdown and the result of a finished game."""
from __future__ import annotations

import time
from collections import Counter
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.shinjuku.rules import RULES
from companion.games.shinjuku.rules import scoring
from generator.canon import load

D = load("shinjuku")
R = RULES(D)
best_sets = R.best_sets
TYPES = [t.id for t in D.customers.type]
POINTS = {int(k): v for k, v in D.scoring.set_points.items()}


def brute_force(counts: tuple, wild: int, points: dict) -> int:
    """Best score by trying every set that holds the first remaining item (exact, exponential)."""
    K = len(counts)

    @lru_cache(maxsize=None)
    def best(c: tuple, w: int) -> int:
        if not any(c) and w == 0:
            return 0
        result = -1
        if any(c):
            i = next(j for j, n in enumerate(c) if n)
            others = [j for j in range(K) if j != i and c[j]]
            for mask in range(1 << len(others)):
                chosen = [i] + [others[b] for b in range(len(others)) if mask >> b & 1]
                rest = list(c)
                for j in chosen:
                    rest[j] -= 1
                for k in range(0, min(w, K - len(chosen)) + 1):
                    result = max(result, points[len(chosen) + k] + best(tuple(rest), w - k))
        else:
            for k in range(1, min(w, K) + 1):
                result = max(result, points[k] + best(c, w - k))
        return result

    return best(tuple(counts), wild)


def check_sets(customers: dict, wild: int, points: dict, result) -> None:
    total, sets = result
    assert total == sum(points[len(s)] for s in sets)
    used = Counter()
    for s in sets:
        real = [x for x in s if x != "wild"]
        assert 1 <= len(s) <= len(TYPES)
        assert len(set(real)) == len(real), s
        used.update(real)
        used["wild"] += len(s) - len(real)
    want = Counter({t: n for t, n in customers.items() if n})
    if wild:
        want["wild"] = wild
    assert used == want


# ---------------------------------------------------------------------------------------------

def test_rules_example_with_one_wild():
    # food 3, clothing 2, books 1, electronics 0 and one upgrade bonus token
    points, sets = best_sets({"food": 3, "clothing": 2, "books": 1, "electronics": 0}, 1)
    assert points == 14
    assert sets == [["food", "clothing", "books", "wild"], ["food", "clothing"], ["food"]]


@pytest.mark.parametrize("customers,wild,points", [
    ({"food": 3, "clothing": 2, "books": 1}, 0, 6 + 3 + 1),
    ({"food": 1, "clothing": 1, "books": 1, "electronics": 1}, 0, 10),
    ({"food": 4}, 0, 4),
    ({"food": 1}, 3, 10),                         # several wilds in one set
    ({}, 5, 10 + 1),                              # only wilds
    ({}, 0, 0),
    ({"food": 2, "clothing": 2, "books": 2, "electronics": 2}, 0, 20),
    ({"food": 5, "clothing": 1}, 2, 10 + 1 + 1 + 1 + 1),   # {F, C, W, W} + four single F
    ({"food": 50, "clothing": 50, "books": 50, "electronics": 50}, 6, 500 + 10 + 3),
])
def test_examples(customers, wild, points):
    result = best_sets(customers, wild)
    assert result[0] == points
    check_sets(customers, wild, POINTS, result)


def test_all_wild_sets():
    assert best_sets({}, 5) == (11, [["wild"] * 4, ["wild"]])
    assert best_sets({}, 0) == (0, [])


def test_large_counts_are_fast():
    start = time.perf_counter()
    for n in range(0, 51, 5):
        best_sets({"food": 50, "clothing": 47, "books": n, "electronics": 3}, 6)
        best_sets({"food": 50, "clothing": 50, "books": 50, "electronics": 50}, n)
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("bad", [
    ({"pizza": 1}, 0), ({"food": -1}, 0), ({"food": 1.5}, 0), ({"food": True}, 0), ({}, -1), ({}, True),
])
def test_best_sets_refuses_bad_input(bad):
    with pytest.raises(ValueError):
        best_sets(*bad)


counts = st.fixed_dictionaries({t: st.integers(0, 4) for t in TYPES})


@settings(max_examples=300, deadline=None)
@given(counts, st.integers(0, 4))
def test_optimal_against_brute_force(customers, wild):
    result = best_sets(customers, wild)
    check_sets(customers, wild, POINTS, result)
    assert result[0] == brute_force(tuple(customers[t] for t in TYPES), wild, POINTS)


@settings(max_examples=200, deadline=None)
@given(counts, st.integers(0, 3), st.lists(st.integers(0, 15), min_size=4, max_size=4))
def test_optimal_for_any_point_table(customers, wild, values):
    """Exact for any point table (the data may change the numbers), not only 1/3/6/10."""
    points = {k + 1: v for k, v in enumerate(values)}
    result = scoring.best_sets(customers, wild, points, TYPES)
    check_sets(customers, wild, points, result)
    assert result[0] == brute_force(tuple(customers[t] for t in TYPES), wild, points)


# ---------------------------------------------------------------------------------------------
# The calculator (POST /api/shinjuku/score) and score(state)

def test_calculator_body():
    reasons, out = R.calculator({"customers": {"food": 3, "clothing": 2, "books": 1, "electronics": 0},
                                 "wild": 1})
    assert reasons == [] and out == {"points": 14, "sets": [["food", "clothing", "books", "wild"],
                                                            ["food", "clothing"], ["food"]]}
    assert R.calculator({"customers": {}})[1] == {"points": 0, "sets": []}


@pytest.mark.parametrize("body,word", [
    ([], "send"), ({"customers": [1]}, "maps each type"), ({"customers": {"pizza": 1}}, "not a customer type"),
    ({"customers": {"food": -1}}, "whole number"), ({"customers": {"food": "3"}}, "whole number"),
    ({"customers": {"food": 10_000}}, "whole number"), ({"wild": -2}, "wild"), ({"wild": False}, "wild"),
    ({"customers": {}, "bonus": 1}, "unknown field"),
])
def test_calculator_refuses(body, word):
    reasons, out = R.calculator(body)
    assert out is None and word in " ".join(reasons).lower()


def test_score_of_a_state_counts_doubles_and_bonus_tokens():
    s = R.setup(["Aki", "Ben"], {"deck": "companion"}, 1)
    s["players"][0]["customers"] = ["food", "books-2"]
    s["players"][0]["bonus_tokens"] = [3]
    s["players"][1]["customers"] = ["food", "clothing", "books", "electronics-2"]
    out = R.score(s)
    assert out["final"] is False
    aki, ben = out["players"]
    assert aki["customers"] == {"food": 1, "clothing": 0, "books": 2, "electronics": 0}
    assert aki["tokens"]["books-2"] == 1 and aki["wild"] == 1
    assert aki["points"] == 7 and aki["sets"] == [["food", "books", "wild"], ["books"]]
    assert aki["by_size"]["3"] == {"sets": 1, "points_each": 6, "points": 6}
    assert aki["by_size"]["1"] == {"sets": 1, "points_each": 1, "points": 1}
    assert ben["points"] == 10 + 1
    assert out["leaders"] == [1]
    s["players"][0]["customers"] = ["food", "clothing", "books", "electronics-2"]
    s["players"][0]["bonus_tokens"] = []
    assert R.score(s)["leaders"] == [0, 1]            # ties are shared


def test_calculator_refuses_more_than_the_box_holds():
    """API.md: numbers that cannot occur in the game (more than the box holds) are refused."""
    most, most_wild = R.limits()
    # every token of a type, a "2" counting twice; every upgrade bonus token
    assert most == {t.id: t.single + 2 * t.double for t in D.customers.type}
    assert most_wild == len(D.upgrade_bonus.values)
    assert R.calculator({"customers": most, "wild": most_wild})[0] == []
    reasons, out = R.calculator({"customers": {"food": most["food"] + 1}, "wild": most_wild + 1})
    assert out is None and len(reasons) == 2
    assert f"from 0 to {most['food']}" in reasons[0] and f"from 0 to {most_wild}" in reasons[1]


# ---------------------------------------------------------------------------------------------
# The result of a finished game (contract.result)

def finished(customers: list[list[str]], bonus: list[list[int]]) -> dict:
    s = R.setup(["Aki", "Ben", "Cho"][:len(customers)], {"deck": "companion"}, 1)
    for p, (c, b) in enumerate(zip(customers, bonus)):
        s["players"][p]["customers"] = c
        s["players"][p]["bonus_tokens"] = b
    return s | {"phase": "over"}


def test_result_is_none_while_the_game_runs():
    s = finished([["food"], []], [[], []])
    assert R.result(s | {"phase": "actions"}) is None
    assert R.result(s) is not None


def test_result_breakdown_sets_by_size_and_wilds_add_up_to_the_score():
    s = finished([["food", "clothing", "books", "food", "clothing", "food"], ["electronics-2", "food"]],
                 [[3], [2, 2]])
    result = R.result(s)
    assert result["unit"] == "points" and result["winners"] == [0]
    aki, ben = result["scores"]
    assert (aki["player"], aki["name"], ben["name"]) == (0, "Aki", "Ben")
    # Aki: food 3, clothing 2, books 1 + one wild = {F, C, B, W} {F, C} {F} = 10 + 3 + 1
    assert aki["score"] == 14 == R.score(s)["players"][0]["points"]
    assert [b["value"] for b in aki["breakdown"]] == [10, 0, 3, 1, 0]
    assert aki["breakdown"][0]["label"] == "Sets of 4 different customers: 1 × 10 (1 bonus token as wild)"
    assert aki["breakdown"][3]["label"] == "Single customers: 1 × 1"
    assert "bonus tokens used as wild customers: 1" in aki["breakdown"][4]["label"]
    assert aki["sets"] == [["food", "clothing", "books", "wild"], ["food", "clothing"], ["food"]]
    # Ben: electronics counts twice + food + two wilds = {F, E, W, W} {E}
    assert ben["score"] == 11 and ben["wild"] == 2
    for row in result["scores"]:
        assert row["score"] == sum(b["value"] for b in row["breakdown"])


def test_a_tie_is_a_shared_victory():
    """The rules text has no tie-break: every player with the top score wins."""
    s = finished([["food", "clothing"], ["books", "electronics"], ["food"]], [[], [], [1]])
    result = R.result(s)
    assert [r["score"] for r in result["scores"]] == [3, 3, 3]
    assert result["winners"] == [0, 1, 2]
    s = finished([["food", "clothing"], ["books", "electronics"], ["food"]], [[], [], []])
    assert R.result(s)["winners"] == [0, 1]
