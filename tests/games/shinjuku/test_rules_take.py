"""Move Customers: the mover chooses which customer each store takes ("take"), the old move form
(no "take") still means the default choice, and the history line says who got what.

Rules text (shared/rules/shinjuku.txt, Moving Customers): "If more than one customer matches (e.g.,
with a department store; or if there are multiple customers of the same type), then you may choose
which single customer is given to the store owner."
"""
from __future__ import annotations

import copy
import random

import pytest

from companion.games.contract import IllegalMove
from companion.games.shinjuku.rules.movement import simulate

from .test_rules import IX, R, fresh, scenario, store, track


def _board():
    """On the Shinjuku–Yoyogi–Shibuya line: Ben's department store at Shinjuku, my food store at
    Shibuya, Ben's track Yoyogi–Shibuya; food, food "2" and books wait in Shinjuku."""
    s = scenario(hand=["shinjuku"])
    s["wards"]["shinjuku"] = ["food", "food-2", "books"]
    store(s, "shinjuku", 1, kind="department-store")
    store(s, "shibuya", 0, "food")
    track(s, "yoyogi", "shibuya", 1)
    return s


MOVE = {"type": "move-customers", "player": 0, "card": "shinjuku", "path": ["shinjuku", "yoyogi", "shibuya"]}


def test_every_choice_the_rules_allow_is_accepted_and_gives_the_customer_to_the_owner():
    s = _board()
    seen = set()
    for first in ("food", "food-2", "books"):                 # the department store: any type
        rest = ["food", "food-2", "books"]
        rest.remove(first)
        for second in [c for c in rest if c.startswith("food")]:   # my food store: a food
            move = {**MOVE, "take": {"shinjuku": first, "shibuya": second}}
            assert R.validate(s, move) == []
            new = R.apply(s, move)
            assert new["players"][1]["customers"] == [first]
            assert new["players"][0]["customers"] == [second]
            left = [c for c in rest if c != second]
            assert new["wards"]["shibuya"] == IX.sort_tokens(left)
            seen.add((first, second))
    assert len(seen) == 4          # books+food, books+food-2, food+food-2, food-2+food


@pytest.mark.parametrize("take, words", [
    ({"shibuya": "books"}, "cannot take books"),               # a food store takes no books
    ({"shinjuku": "food-2", "shibuya": "food-2"}, "cannot take food"),   # already taken upstream
    ({"yoyogi": "food"}, "nobody is taken at yoyogi"),          # no store there
    ({"shinjuku": "electronics"}, "cannot take electronics"),   # not among the travellers
    ({"harajuku": "food"}, "not on the path"),
])
def test_a_choice_against_the_rules_is_refused_and_changes_nothing(take, words):
    s = _board()
    before = copy.deepcopy(s)
    move = {**MOVE, "take": take}
    reasons = R.validate(s, move)
    assert reasons and words in " ".join(reasons).lower(), reasons
    with pytest.raises(IllegalMove):
        R.apply(s, move)
    assert s == before


def test_the_old_move_form_means_the_default_choice():
    """Stored logs without "take" replay as before: the mover's own store takes a "2" first,
    another player's store a single first."""
    s = _board()
    old = R.apply(s, MOVE)
    explicit = R.apply(s, {**MOVE, "take": {"shinjuku": "food", "shibuya": "food-2"}})
    assert old == {**explicit, "last": old["last"]} and old["last"]["deliveries"] == explicit["last"]["deliveries"]
    assert old["players"][1]["customers"] == ["food"] and old["players"][0]["customers"] == ["food-2"]


def test_the_history_line_says_who_got_what():
    s = _board()
    s["players"][0]["name"], s["players"][1]["name"] = "Aki", "Ben"
    line = R.describe(s, {**MOVE, "take": {"shinjuku": "books"}})
    assert line == ("Aki moves the customers of Shinjuku from Shinjuku to Shibuya with a Shinjuku card. "
                    "Ben's Shinjuku department store took a books customer; "
                    "Aki's Shibuya store took 2 food customers. A food customer stays in Shibuya.")
    s["wards"]["shinjuku"] = ["clothing", "electronics"]
    line = R.describe(s, {**MOVE, "path": ["shibuya"], "card": "shibuya"})
    assert "took" not in line and "stay" not in line     # an illegal move: the plain line


def test_replaying_a_game_with_random_choices_gives_the_same_state():
    """Seeded companion-deck games where every Move Customers picks a random allowed customer at
    each store: replaying the log from the set-up gives the same state, and the history line of
    each such move names every delivery."""
    from companion.games.shinjuku.rules.playout import choose
    for seed in range(6):
        rng = random.Random(seed)
        start = fresh(3, seed=seed)
        s, log, moved = start, [], 0
        for _ in range(400):
            if s["phase"] == "over":
                break
            move = choose(R, s, rng)
            if move["type"] == "move-customers":
                move = dict(move, take=_random_take(s, move, rng))
                outcome, reasons = simulate(IX, s, move["player"], move["path"], move["take"])
                assert not reasons
                line = R.describe(s, move)
                for d in outcome["deliveries"]:
                    owner = s["players"][d["owner"]]["name"]
                    assert f"{owner}'s {IX.sname(d['station'])} " in line, line
                assert line.count(" took ") == len(outcome["deliveries"]) or (
                    not outcome["deliveries"] and "No store on the way took a customer." in line), line
                moved += bool(outcome["deliveries"])
            s = R.apply(s, move)
            log.append(move)
        again = start
        for move in log:
            again = R.apply(again, move)
        assert again == s
    assert moved         # at least one move delivered to a store


def _random_take(s, move, rng):
    """Walk the path as the rules do, picking a random matching customer at every store."""
    remaining = list(s["wards"][IX.station_ward[move["path"][0]]])
    take = {}
    for sid in move["path"]:
        here = s["stations"].get(sid)
        if not here:
            continue
        match = [c for c in remaining if here["kind"] == "department-store" or IX.token[c][0] == here["goods"]]
        if match:
            take[sid] = rng.choice(match)
            remaining.remove(take[sid])
    return take
