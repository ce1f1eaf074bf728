"""Sapporo 1876 payments (rules/engine.py): the cheapest payments the companion shows are each
accepted, minimal and cover the cost; a payment is refused exactly when it does not cover the cost or
uses what the player lacks or what the spot does not take. More than the cost is accepted: "Resources
and banknotes can be paid in any combination and in any number" ... "Leftover AP cannot be carried
over to the next action, and no change is given" (the pages warn of it: engine.overpaid)."""
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.sapporo_1876.rules import RULES
from companion.games.sapporo_1876.rules import engine as E
from generator import canon


@pytest.fixture(scope="module")
def rules():
    return RULES(canon.load("sapporo-1876"))


holdings = st.fixed_dictionaries({"yen": st.integers(0, 12), "rice-bale": st.integers(0, 4),
                                  "cattle": st.integers(0, 4), "wheat": st.integers(0, 3)})


@settings(max_examples=200, deadline=None)
@given(have=holdings, cost=st.integers(1, 20))
def test_payments_are_accepted_minimal_and_complete(rules, have, cost):
    ix = rules.ix
    values = ix.spot_values("agricultural-college")          # rice bale 3 AP, cattle 2 AP
    pl = {"yen": have["yen"], "resources": {"wheat": have["wheat"], "rice-bale": have["rice-bale"],
                                            "sheep": 0, "cattle": have["cattle"]}}
    shown = E.payments(ix, pl, values, cost, limit=50)
    for pay in shown:
        assert E.check_payment(ix, pl, pay, values, cost, "x") == []
    # a payment is accepted exactly when it covers the cost (brute force over what the player has),
    # and the payments shown are exactly the accepted ones that no unit could be left out of
    accepted, minimal = [], []
    for r, c, y in itertools.product(range(have["rice-bale"] + 1), range(have["cattle"] + 1),
                                     range(have["yen"] + 1)):
        pay = {k: n for k, n in (("rice-bale", r), ("cattle", c), ("yen", y)) if n}
        total = 3 * r + 2 * c + y
        assert (E.check_payment(ix, pl, pay, values, cost, "x") == []) == (total >= cost), pay
        assert E.overpaid(ix, pay, values, cost) == max(0, total - cost)
        if total >= cost:
            accepted.append(pay)
            if all(total - (1 if k == "yen" else values[k]) < cost for k in pay):
                minimal.append(pay)
    assert sorted(map(sorted, (p.items() for p in minimal))) == \
        sorted(map(sorted, (p.items() for p in shown)))
    # more than one has is refused, and wheat is never accepted here
    assert E.check_payment(ix, pl, {"yen": have["yen"] + 1}, values, cost, "x")
    if have["wheat"]:
        assert E.check_payment(ix, pl, {"wheat": 1, "yen": have["yen"]}, values, cost, "x")
