"""Sapporo 1876 payments (rules/engine.py): the cheapest payments the companion shows are each
accepted, minimal and cover the cost; a payment is refused exactly when it does not cover the cost,
uses what the player lacks or what the spot does not take, or throws a whole unit away."""
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
    # every acceptable payment (brute force) is among the full list, and vice versa
    accepted = []
    for r, c, y in itertools.product(range(have["rice-bale"] + 1), range(have["cattle"] + 1),
                                     range(have["yen"] + 1)):
        pay = {k: n for k, n in (("rice-bale", r), ("cattle", c), ("yen", y)) if n}
        if not E.check_payment(ix, pl, pay, values, cost, "x"):
            accepted.append(pay)
    assert sorted(map(sorted, (p.items() for p in accepted))) == \
        sorted(map(sorted, (p.items() for p in shown)))
    # and wheat is never accepted here
    if have["wheat"]:
        assert E.check_payment(ix, pl, {"wheat": 1, "yen": have["yen"]}, values, cost, "x")
