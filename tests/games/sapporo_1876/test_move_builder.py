"""Sapporo 1876's move builder: RULES.plan (a move's cost, cheapest payments and what is still wrong,
before it is sent) and POST /api/sapporo-1876/tables/<code>/plan. The board page's suggestions are a
sample of the legal moves; the builder lets a player enter any of them, so `plan` must accept every
spec some payment makes legal, over the whole space of choices (not only the suggested ones), and
its first payment must then be accepted."""
from __future__ import annotations

import itertools
import random

import pytest

from companion.games.sapporo_1876.rules import RULES
from companion.games.sapporo_1876.rules import engine as E
from generator import canon


@pytest.fixture(scope="module")
def rules():
    return RULES(canon.load("sapporo-1876"))


def specs(rules, s, action, p, columns=()):
    """Every choice of an action's parts worth trying here (beyond the engine's sample)."""
    ix = rules.ix
    pl = s["players"][p]
    if action == "educate":
        left = ix.academy_size - pl["educated"]
        for n, k, b in itertools.product(range(left + 1), range(3), [None, *ix.resources]):
            yield {"workers": n, **({"fame": k} if k else {}), **({"bonus": b} if b else {})}
    elif action == "pioneer":
        cols = [c for c in ix.columns if not columns or c in columns]
        for n in (1, 2, 3):
            for steps in itertools.product(cols, repeat=n):
                yield {"steps": list(steps)}
    elif action == "invest":
        for t in s["persons"] + s["buildings"] + ix.buildings[:2]:
            if t:
                yield {"tile": t}
    elif action == "appoint":
        for c in ix.council:
            for i in range(len(s["council"][c])):
                yield {"column": c, "space": i}


def some_payment_works(rules, s, move, values):
    """Whether any payment (each resource accepted here up to 4, yen up to 12) makes `move` legal."""
    pl = s["players"][move["player"]]
    kinds = [k for k in values if pl["resources"].get(k, 0)]
    for counts in itertools.product(*[range(min(4, pl["resources"][k]) + 1) for k in kinds]):
        for yen in range(min(12, pl["yen"]) + 1):
            pay = {k: c for k, c in zip(kinds, counts) if c}
            if yen:
                pay["yen"] = yen
            if not rules.validate(s, {**move, "pay": pay}):
                return True
    return False


def action_states(rules, games=3):
    """Action steps met in seeded random games (both players', every spot)."""
    rng = random.Random(11)
    for seed in range(games):
        s = rules.setup(["Aki", "Ben"], {"tiles": "companion"}, seed)
        while rules.result(s) is None:
            if s["phase"] == "action":
                yield s
            s = rules.apply(s, rng.choice(rules.legal_moves(s).moves))


def test_plan_accepts_exactly_the_specs_some_payment_makes_legal(rules):
    checked = accepted = outside_sample = 0
    for s in itertools.islice(action_states(rules, games=4), 0, None, 4):
        p, action = s["acting"], rules.ix.spot[s["pawn"]].action
        values = rules.ix.spot_values(s["pawn"])
        sample = [{k: v for k, v in m.items() if k != "pay"} for m in rules.legal_moves(s).moves]
        for spec in specs(rules, s, action, p):
            move = {"type": action, "player": p, **spec}
            plan = rules.plan(s, move)
            legal = some_payment_works(rules, s, move, values)
            assert (plan["reasons"] == []) == legal, (move, plan)
            checked += 1
            if legal:
                accepted += 1
                outside_sample += move not in sample
                assert plan["pay_in"] == "move" and plan["cost"] >= 0 and plan["values"] == values
                for pay in plan["payments"]:
                    assert rules.validate(s, {**move, "pay": pay}) == [], (move, pay)
                    assert E.payment_value(rules.ix, pay, values) >= plan["cost"]
            else:
                assert plan["reasons"] and all(isinstance(r, str) and r for r in plan["reasons"])
    assert checked > 500 and accepted > 50
    assert outside_sample > 20, "the builder's specs should reach moves the engine does not suggest"


def test_plan_of_building_actions_and_moves_paid_with_nothing(rules):
    seen = set()
    rng = random.Random(5)
    for seed in range(6):
        s = rules.setup(["Aki", "Ben"], {"tiles": "companion"}, seed)
        while rules.result(s) is None and len(seen) < 3:
            for m in rules.legal_moves(s).moves:
                if m["type"] != "use-building" or not m.get("action"):
                    continue
                bare = {**m, "action": {k: v for k, v in m["action"].items() if k != "pay"}}
                plan = rules.plan(s, bare)
                assert plan["reasons"] == [] and plan["pay_in"] == "action", (bare, plan)
                for pay in plan["payments"]:
                    assert rules.validate(s, {**bare, "action": {**bare["action"], "pay": pay}}) == []
                seen.add(m["tile"])
            s = rules.apply(s, rng.choice(rules.legal_moves(s).moves))
    assert seen, "no building with an action was met"
    s = rules.setup(["Aki", "Ben"], {"tiles": "companion"}, 1)
    buy = rules.legal_moves(s).moves[0]
    assert rules.plan(s, buy) == {"reasons": [], "cost": None, "values": {}, "payments": [], "pay_in": None}
    assert rules.plan(s, {**buy, "tile": "nowhere"})["reasons"]
    assert rules.plan(s, {"type": "fly"})["reasons"]
    assert rules.plan(s, {"type": "educate", "player": "x"})["reasons"]



def test_the_plan_endpoint_answers_without_writing(client, rules):
    r = client.post("/api/tables", json={"game": "sapporo-1876", "players": ["Aki", "Ben"],
                                         "options": {"tiles": "companion"}, "seed": 2})
    code = r.json["code"]
    t = client.get(f"/api/tables/{code}").json
    while t["state"]["phase"] != "action":
        move = client.get(f"/api/tables/{code}/legal").json["moves"][0]
        r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": t["seq"], "move": move})
        assert r.status_code == 200, r.json
        t = client.get(f"/api/tables/{code}").json
    st = t["state"]
    action = rules.ix.spot[st["pawn"]].action
    spec = next(iter(specs(rules, st, action, st["acting"])))
    move = {"type": action, "player": st["acting"], **spec}
    r = client.post(f"/api/sapporo-1876/tables/{code}/plan", json={"move": move}, auth=False)
    assert r.status_code == 200 and r.json == rules.plan(st, move)
    assert client.get(f"/api/tables/{code}").json["seq"] == t["seq"]          # nothing written
    assert client.post(f"/api/sapporo-1876/tables/{code}/plan", json={"moves": []}).status_code == 400
    assert client.post("/api/sapporo-1876/tables/ZZZZZZZZ/plan", json={"move": move}).status_code == 404
    other = client.post("/api/tables", json={"game": "shin-bikkuri-man", "players": ["A", "B"]}).json["code"]
    assert client.post(f"/api/sapporo-1876/tables/{other}/plan", json={"move": move}).status_code == 404
