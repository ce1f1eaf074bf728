"""Tokyo Capsule Hotel, issue 26: reveals are final for seats, a player's holdings change only by
their own seat or the host, and the sealed loans as every phone sees them (sealed()). Over HTTP with
seat tokens where the server decides (undo, 403, 422); the rules directly where only they do."""
from __future__ import annotations

import pytest

from companion.games.capsule_hotel.rules import RULES
from companion.games.contract import HOST, Ctx
from generator import canon

GAME = "capsule-hotel"
NAMES = ["Aki", "Ben", "Chie"]


@pytest.fixture(scope="module")
def rules():
    return RULES(canon.load(GAME))



def table(client, n=3, **options):
    r = client.post("/api/tables", json={"game": GAME, "players": NAMES[:n], "seed": 2,
                                         "options": {"dice": "table", **options}})
    assert r.status_code == 201, r.json
    code = r.json["code"]
    seats = []
    for p in range(n):
        r = client.post(f"/api/tables/{code}/seats", json={"player": p}, auth=False)
        assert r.status_code == 201, r.json
        seats.append({"Authorization": f"Bearer {r.json['token']}"})
    return code, seats


def get(client, code, who=None):
    return client.get(f"/api/tables/{code}", **({"headers": who, "auth": False} if who else {})).json


def move(client, code, m, who=None):
    seq = get(client, code)["seq"]
    kw = {"headers": who, "auth": False} if who else {}
    return client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq, "move": m}, **kw)


def undo(client, code, who=None):
    seq = get(client, code)["seq"]
    kw = {"headers": who, "auth": False} if who else {}
    return client.post(f"/api/tables/{code}/undo", json={"expected_seq": seq}, **kw)


def ok(r):
    assert r.status_code == 200, r.json
    return r


def loan(p, amount):
    return {"type": "choose-loan", "player": p, "amount": amount}


# ------------------------------------------------------------------------ reveals are final for seats

def test_a_seat_cannot_undo_the_choice_that_revealed_every_loan(client):
    """"ogni giocatore sceglie simultaneamente l'importo del proprio prestito … Quando tutti hanno
    scelto, rivelate tutti i Registri dei giocatori": the last choice reveals every loan. Seat 2,
    having seen 8,000 and 6,000, may not take its 4,000 back and choose 10,000 (before the fix: 200);
    the host may, and the history says it took back a reveal."""
    code, (aki, ben, chie) = table(client)
    ok(move(client, code, loan(0, 8000), aki))
    ok(move(client, code, loan(1, 6000), ben))
    ok(move(client, code, loan(2, 4000), chie))
    assert [p["loan"] for p in get(client, code, chie)["state"]["players"]] == [8000, 6000, 4000]
    r = undo(client, code, chie)
    assert r.status_code == 422, r.json
    assert "revealed every loan: Aki ¥8,000 · Ben ¥6,000 · Chie ¥4,000" in " ".join(r.json["reasons"])
    assert move(client, code, loan(2, 10000), chie).status_code == 422      # revealed: final
    t = get(client, code)
    assert t["state"]["phase"] == "purchase" and t["state"]["players"][2]["loan"] == 4000
    # the host's undo is the table's ruling: the loans are sealed again, and the history says so
    r = ok(undo(client, code))
    assert get(client, code, aki)["state"]["loan_choices"] == {"0": 8000, "1": "sealed"}
    events = client.get(f"/api/tables/{code}/events?since=0",
                        headers={"Accept": "application/json"}).json["events"]
    assert "The host took back a reveal" in events[-1]["summary"]
    ok(move(client, code, loan(2, 10000), chie))
    assert [p["loan"] for p in get(client, code)["state"]["players"]] == [8000, 6000, 10000]


def test_before_the_reveal_a_sealed_loan_is_one_tap_to_change(client):
    """Mistakes before a reveal stay one tap to fix: the latest choice undone by its seat, and any
    sealed choice taken back ("withdraw-loan", the page's Change) whoever chose after it."""
    code, (aki, ben, chie) = table(client)
    ok(move(client, code, loan(0, 8000), aki))
    ok(undo(client, code, aki))                         # its own, the latest move: not a reveal
    ok(move(client, code, loan(0, 6000), aki))
    ok(move(client, code, loan(1, 4000), ben))
    assert move(client, code, {"type": "withdraw-loan", "player": 0}, ben).status_code == 403
    ok(move(client, code, {"type": "withdraw-loan", "player": 0}, aki))
    assert get(client, code, ben)["state"]["loan_choices"] == {"1": 4000}
    ok(move(client, code, loan(0, 10000), aki))
    ok(move(client, code, loan(2, 4000), chie))
    assert [p["loan"] for p in get(client, code)["state"]["players"]] == [10000, 4000, 4000]
    r = move(client, code, {"type": "withdraw-loan", "player": 0}, aki)     # revealed: final
    assert r.status_code == 422 and "no sealed loan" in r.json["reasons"][0]


def companion_dice_table(client):
    """Two players, the companion's dice: Ben (at the head) buys a Coin Laundry, whose bonus die
    rolls; Ben passes; Aki's pass ends the phase and the companion rolls."""
    code, (aki, ben) = table(client, 2, dice="companion")
    ok(move(client, code, loan(0, 10000), aki))
    ok(move(client, code, loan(1, 10000), ben))
    t = get(client, code)
    assert t["state"]["queue"][0] == 1 and t["state"]["lands"]["S1"]["owner"] == 1
    ok(move(client, code, {"type": "purchase", "player": 1, "item": "building",
                           "building": "coin-laundry", "land": "S1"}, ben))
    ok(move(client, code, {"type": "pass", "player": 1}, ben))
    return code, aki, ben


def test_a_seat_cannot_undo_the_move_on_which_the_companion_rolled_the_dice(client):
    """The move that ends the purchase phase rolls the bonus dice (chance mode "companion"): its
    sender may not undo it and play something else knowing the faces (before the fix: 200). The
    host may; the faces depend only on the seed, the round and the building, so they come up again."""
    code, aki, ben = companion_dice_table(client)
    ok(move(client, code, {"type": "pass", "player": 0}, aki))
    t = get(client, code)
    assert t["state"]["phase"] == "income" and "B1" in t["state"]["rolls"]
    face = t["state"]["rolls"]["B1"]
    r = undo(client, code, aki)
    assert r.status_code == 422 and "the companion rolled the bonus dice of B1" in " ".join(r.json["reasons"])
    ok(undo(client, code))
    assert get(client, code)["state"]["phase"] == "purchase"
    ok(move(client, code, {"type": "pass", "player": 0}, aki))
    assert get(client, code)["state"]["rolls"]["B1"] == face


# ------------------------------------------------------------------------ holdings: own seat or host

def test_a_correction_takes_that_players_token_or_the_hosts_and_no_balance_below_zero(client):
    """Before: seat 1's token entered {"correction", player 0, yen -9000} (200) and left Aki at
    −1,000 yen. A balance never goes below zero (even the golden-rule penalty: "se non ha abbastanza
    Yen per pagare l'intera penale, paga tutto ciò che ha")."""
    code, (aki, ben) = table(client, 2)
    ok(move(client, code, loan(0, 8000), aki))
    ok(move(client, code, loan(1, 8000), ben))
    fix = {"type": "correction", "player": 0, "yen": -9000, "note": "x"}
    r = move(client, code, fix, ben)
    assert r.status_code == 403 and "Only Aki (or the host)" in r.json["reasons"][0]
    for who in (aki, None):
        r = move(client, code, fix, who)
        assert r.status_code == 422 and "never goes below 0" in r.json["reasons"][0], r.json
    assert move(client, code, {**fix, "yen": 10**30}, aki).status_code == 422
    ok(move(client, code, {**fix, "yen": -500, "note": "paid the bank twice"}, aki))
    ok(move(client, code, {**fix, "yen": -7500}))                       # the host, to exactly 0
    assert get(client, code)["state"]["players"][0]["yen"] == 0


def golden_table(client):
    """Ben builds H1 (4 yellow capsules) on S1 with 1 vending machine: the golden rule is kept."""
    code, (aki, ben) = table(client, 2)
    ok(move(client, code, loan(0, 10000), aki))
    ok(move(client, code, loan(1, 10000), ben))
    for m, who in [({"type": "purchase", "player": 1, "item": "vending-machine", "land": "S1"}, ben),
                   ({"type": "join-queue", "player": 1}, ben), ({"type": "leave-queue", "player": 0}, aki),
                   ({"type": "purchase", "player": 1, "item": "capsules", "colour": "yellow"}, ben),
                   ({"type": "join-queue", "player": 1}, ben),
                   ({"type": "purchase", "player": 1, "item": "entrance", "land": "S1",
                     "colour": "yellow", "capsules": 4}, ben),
                   ({"type": "pass", "player": 1}, ben), ({"type": "pass", "player": 0}, aki),
                   ({"type": "pay-income"}, aki)]:
        ok(move(client, code, m, who))
    return code, aki, ben


def test_the_golden_rule_penalty_only_on_a_hotel_that_breaks_it_or_by_the_host(client):
    """"Se si scopre che un giocatore ha violato la Regola d'oro costruendo un Hotel che non avrebbe
    dovuto costruire, deve pagare …": H1 keeps the rule in the companion's record (4 capsules, 1
    vending machine), yet any seat could fine its owner (before: 200, Ben paid 4,000). Now another
    seat gets 403, the owner 422 (the record shows the rule kept); the host may rule it."""
    code, aki, ben = golden_table(client)
    t = get(client, code)
    assert t["state"]["players"][1]["yen"] == 7700 and t["state"]["incomes_done"] == 1
    pen = {"type": "golden-rule-penalty", "hotel": "H1"}
    r = move(client, code, pen, aki)
    assert r.status_code == 403 and "Only Ben (or the host)" in r.json["reasons"][0]
    r = move(client, code, pen, ben)
    assert r.status_code == 422
    assert "H1 keeps the golden rule in the companion's record (1 hotel on S1, 1 vending machine" \
        in r.json["reasons"][0]
    assert get(client, code)["state"]["players"][1]["yen"] == 7700
    ok(move(client, code, pen))                                          # the host's ruling
    assert get(client, code)["state"]["players"][1]["yen"] == 7700 - 4000


def test_the_penalty_on_a_hotel_breaking_the_rule_in_the_record(rules):
    """Where the record shows the rule broken (here the vending machine taken off the record), the
    hotel's owner may enter the penalty, capped at what they have ("paga tutto ciò che ha")."""
    s = rules.setup(NAMES[:2], {"dice": "table"}, 2)
    for p in range(2):
        s = rules.apply(s, loan(p, 10000))
    for m in [{"type": "purchase", "player": 1, "item": "vending-machine", "land": "S1"},
              {"type": "join-queue", "player": 1}, {"type": "leave-queue", "player": 0},
              {"type": "purchase", "player": 1, "item": "capsules", "colour": "yellow"},
              {"type": "join-queue", "player": 1},
              {"type": "purchase", "player": 1, "item": "entrance", "land": "S1", "colour": "yellow",
               "capsules": 4}]:
        s = rules.apply(s, m)
    s["lands"]["S1"]["vending"] = 0
    s["incomes_done"] = 2                                   # 1,000 x 4 capsules x 2 = 8,000 > 7,500
    pen = {"type": "golden-rule-penalty", "hotel": "H1"}
    assert rules.sender_reasons(s, pen, Ctx(0, 0))                      # not Aki's hotel
    assert rules.validate(s, pen, Ctx(0, 1)) == []
    after = rules.apply(s, pen, Ctx(0, 1))
    assert after["players"][1]["yen"] == 0 and after["entries"][-1]["yen"] == -7500
    assert "penalty" in after["entries"][-1]["why"] and "paid all" in after["entries"][-1]["why"]


def test_a_bonus_die_is_entered_by_its_buildings_owner_and_not_overwritten(client):
    """"il proprietario di ciascun Edificio nel Lotto … tira il Dado bonus corrispondente a
    quell'Edificio". Before: any seat entered B1's die and any seat overwrote it (face 1, then face
    5: the income rose). Now Aki (not the owner) gets 403; Ben enters it once; a second entry by
    Ben is refused (422); the host may change it."""
    code, (aki, ben) = table(client, 2)
    ok(move(client, code, loan(0, 10000), aki))
    ok(move(client, code, loan(1, 10000), ben))
    ok(move(client, code, {"type": "purchase", "player": 1, "item": "building",
                           "building": "coin-laundry", "land": "S1"}, ben))
    ok(move(client, code, {"type": "pass", "player": 1}, ben))
    ok(move(client, code, {"type": "pass", "player": 0}, aki))
    roll = {"type": "roll", "building": "B1", "face": 1}
    r = move(client, code, roll, aki)
    assert r.status_code == 403 and "Only Ben (or the host) may enter the bonus die" in r.json["reasons"][0]
    ok(move(client, code, roll, ben))
    for who, status in ((ben, 422), (aki, 403)):
        r = move(client, code, {**roll, "face": 5}, who)
        assert r.status_code == status, r.json
    assert get(client, code)["state"]["rolls"]["B1"] == 1
    ok(move(client, code, {**roll, "face": 5}))
    assert get(client, code)["state"]["rolls"]["B1"] == 5


# ------------------------------------------------------------------------ sealed(): public only

def test_sealed_shows_who_has_sealed_and_never_an_amount(rules):
    s = rules.setup(NAMES, {"dice": "table"}, 2)
    s = rules.apply(s, loan(0, 8000), Ctx(0, 0))
    s = rules.apply(s, loan(1, 6000), Ctx(0, 1))
    sealed = rules.sealed(s)
    assert sealed == {"label": "loans", "reveal": None, "seats": [
        {"seat": 0, "sealed": True}, {"seat": 1, "sealed": True}, {"seat": 2, "sealed": False}]}
    text = repr(sealed)
    assert "8000" not in text and "6000" not in text and "8,000" not in text and "6,000" not in text
    # the same whatever the sealed amounts are (a differential check)
    other = rules.apply(rules.apply(rules.setup(NAMES, {"dice": "table"}, 2), loan(0, 4000)), loan(1, 10000))
    assert rules.sealed(other) == sealed
    assert rules.sealed(rules.public_view(s, 2)) == sealed
    s = rules.apply(s, loan(2, 4000), Ctx(0, 2))
    reveal = rules.sealed(s)["reveal"]
    assert reveal["text"] == "Aki ¥8,000 · Ben ¥6,000 · Chie ¥4,000"
    assert [v["value"] for v in reveal["values"]] == [8000, 6000, 4000] and reveal["id"]
    assert rules.sealed(s)["seats"] == []


def test_the_reveal_stays_until_round_one_ends(client):
    code, (aki, ben) = table(client, 2)
    assert get(client, code)["sealed"]["seats"] == [{"seat": 0, "sealed": False}, {"seat": 1, "sealed": False}]
    ok(move(client, code, loan(0, 8000), aki))
    t = get(client, code, ben)
    assert t["sealed"]["seats"][0] == {"seat": 0, "sealed": True} and "8,000" not in repr(t["sealed"])
    ok(move(client, code, loan(1, 6000), ben))
    assert get(client, code, aki)["sealed"]["reveal"]["text"] == "Aki ¥8,000 · Ben ¥6,000"
    ok(move(client, code, {"type": "pass", "player": 0}, aki))
    ok(move(client, code, {"type": "pass", "player": 1}, ben))
    assert get(client, code)["sealed"]["reveal"]["id"] == "loans-1"      # income of round 1
    ok(move(client, code, {"type": "pay-income"}, aki))
    assert get(client, code)["sealed"] is None                            # round 2


def test_change_is_offered_and_only_the_last_choice_reveals(rules):
    """withdraw-loan is offered to a seat that has sealed; the last choice is a reveal for
    reveals(), an earlier one is not."""
    s = rules.setup(NAMES[:2], {"dice": "table"}, 2)
    assert rules.reveals(s, loan(0, 8000)) == []
    s = rules.apply(s, loan(0, 8000), Ctx(0, 0))
    assert {"type": "withdraw-loan", "player": 0} in rules.legal_moves(s, 0).moves
    assert "revealed every loan: Aki ¥8,000 · Ben ¥6,000" in rules.reveals(s, loan(1, 6000))[0]
    assert rules.validate(s, {"type": "withdraw-loan", "player": 0}, Ctx(0, HOST)) == []
