"""Tokyo Capsule Hotel: the rules audit's findings (issue 21), each from the Italian text it quotes:
a proposal received is not bartering, the tallest-hotel floor rule, Park side B on a starting lot."""
from __future__ import annotations

import pytest

from companion.games.capsule_hotel import rules as rules_module
from companion.games.capsule_hotel.rules import engine as E, income as I
from companion.games.contract import HOST, Ctx

T0 = 1_700_000_000_000
NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi"]
TEXT = "capsule-hotel.it.txt"
RULES_DOC = rules_module.__doc__


def play(rules, state, *moves, seat=HOST):
    for m in moves:
        state = rules.apply(state, m, Ctx(T0, seat))
    return state


def start(rules, n=3, options=None, seed=2):
    s = rules.setup(NAMES[:n], {"dice": "table", **(options or {})}, seed)
    return play(rules, s, *[{"type": "choose-loan", "player": p, "amount": 10000} for p in range(n)])


# ------------------------------------------------------------------ "purché ... tu non stia Barattando"

def test_a_player_who_receives_a_proposal_is_not_bartering_and_may_join_the_queue(rules, rules_text):
    """"Più avanti nella fase puoi liberamente rimettere il tuo Sigillo in fondo alla coda, purché in
    quel momento tu non stia Barattando": only the one who barters is held back. A rival's proposal
    cannot keep a player out of the real-time queue; joining it declines the proposal (a barter needs
    "il proprio Sigillo del giocatore davanti a sé")."""
    s = start(rules)
    a, b, c = s["queue"]
    s = play(rules, s, {"type": "leave-queue", "player": b}, {"type": "leave-queue", "player": c})
    s = play(rules, s, {"type": "propose-barter", "player": b, "with": c, "give": {"yen": 100},
                        "get": {"promise": "a Park next round"}})
    # the proposer is bartering: refused, with the reason
    assert "bartering" in " ".join(rules.validate(s, {"type": "join-queue", "player": b}))
    assert {"type": "join-queue", "player": b} not in rules.legal_moves(s).moves
    # the one asked is not: free to join, which declines the proposal
    join = {"type": "join-queue", "player": c}
    assert rules.validate(s, join) == [] and join in rules.legal_moves(s).moves
    assert "declining barter X1 from" in rules.describe(s, join)
    s = play(rules, s, join, seat=c)
    assert s["queue"] == [a, c] and s["players"][c]["seal"] == "queue"
    assert s["barters"] == [] and s["last"] == {"declined": "X1", "by": c}
    # the proposer is free again
    assert rules.validate(s, {"type": "join-queue", "player": b}) == []
    assert "purché in quel momento tu non stia Barattando" in rules_text(TEXT)


# ------------------------------------------------------------------ the floors of a hotel

def _ready_to_build(rules, s, seat, colour, capsules):
    """`seat` at the head of the queue holding `capsules` of `colour`, its lot able to take hotels."""
    while s["queue"][0] != seat:
        other = s["queue"][0]
        s = play(rules, s, {"type": "leave-queue", "player": other}, {"type": "join-queue", "player": other})
    s = {**s, "players": [dict(p) for p in s["players"]], "lands": {k: dict(v) for k, v in s["lands"].items()}}
    s["players"][seat]["capsules"] = {colour: capsules}
    lot = E.owned(s, seat)[0]
    s["lands"][lot]["vending"] = 3
    return s, lot


@pytest.mark.parametrize("tallest", [True, False])
def test_five_pink_capsules_stand_1_to_3_floors_or_5_never_4(rules, rules_text, tallest):
    """"non puoi costruire più piani di quante Capsule abbia il tuo Hotel al piano più basso ...
    Eccezione: gli Hotel di Capsule rosa possono essere costruiti con più piani di quante Capsule
    abbiano al piano terra, purché siano costruiti in un'unica pila alta almeno 4 piani." Five pink
    capsules 4 floors high are neither one stack (that is 5 floors) nor within the ground-floor
    limit (4 floors need 4 capsules on the ground floor and 3 above: 7)."""
    s = start(rules, options={"tallest_hotel": tallest})
    p = s["queue"][-1]
    s, lot = _ready_to_build(rules, s, p, "pink", 5)
    hotel = {"type": "purchase", "player": p, "item": "entrance", "land": lot, "colour": "pink", "capsules": 5}
    for floors in (1, 2, 3, 5):
        assert rules.validate(s, {**hotel, "floors": floors}) == [], floors
    for floors in (4, 6, 0):
        reasons = " ".join(rules.validate(s, {**hotel, "floors": floors}))
        assert "floors: 1 to 3, or 5" in reasons, (floors, reasons)
    built = play(rules, s, {**hotel, "floors": 5}, seat=p)
    assert built["hotels"][-1]["floors"] == 5
    assert "purché siano costruiti in un’unica pila alta almeno 4 piani" in rules_text(TEXT).replace("'", "’")


def test_floors_follow_the_ground_floor_limit_for_every_colour(data):
    """f floors need f capsules on the ground floor and one on each floor above: 2f - 1 capsules.
    Pink: "un'unica pila rosa di 4 o più piani", exactly as tall as its capsules; 2 or 3 pink
    capsules follow the normal rule ("Le Capsule rosa possono formare un'unica pila di 2 o 3
    piani?: No"). A Coin Laundry is the ground floor itself."""
    assert E.allowed_floors(data, "black", 1, False) == [1]
    assert E.allowed_floors(data, "black", 3, False) == [1, 2]
    assert E.allowed_floors(data, "black", 5, False) == [1, 2, 3]
    assert E.allowed_floors(data, "pink", 3, False) == [1, 2]                   # no stack of 3
    assert E.allowed_floors(data, "pink", 4, False) == [1, 2, 4]
    assert E.allowed_floors(data, "pink", 7, False) == [1, 2, 3, 4, 7]
    assert E.allowed_floors(data, "pink", 2, True) == [1, 2]                    # on a Coin Laundry
    assert E.floors_words([1, 2, 3, 5]) == "1 to 3, or 5" and E.floors_words([1]) == "1"


def test_a_black_hotel_of_3_capsules_is_refused_3_floors_with_the_rule_in_words(rules):
    s = start(rules, options={"tallest_hotel": True})
    p = s["queue"][0]
    s, lot = _ready_to_build(rules, s, p, "black", 3)
    reasons = " ".join(rules.validate(s, {"type": "purchase", "player": p, "item": "entrance", "land": lot,
                                          "colour": "black", "capsules": 3, "floors": 3}))
    assert "floors: 1 to 2" in reasons and "ground floor" in reasons
    assert "the tallest hotel variant needs the height" in " ".join(rules.validate(
        s, {"type": "purchase", "player": p, "item": "entrance", "land": lot, "colour": "black", "capsules": 3}))


# ------------------------------------------------------------------ Park side B on a starting lot

def _lot(owner, start, adjoins):
    return {"kind": "lot", "owner": owner, "parent": None, "start": start, "vending": 1, "cemeteries": 0,
            "adjoins": adjoins}


def test_park_side_b_on_a_starting_lot_gives_every_other_starting_lot_500_not_its_own(data, rules_text):
    """"una Rendita attrazione extra di 500円 viene assegnata a tutti gli altri Lotti adiacenti al Lotto
    che contiene il Park ... se almeno uno dei piccoli Lotti iniziali quadrati ... è adiacente al Lotto
    che contiene il Park, tutti i piccoli Lotti iniziali quadrati in gioco ricevono questa Rendita":
    the other lots; the Park's own starting lot keeps its die roll and no +500 (the docstring says so);
    the diagonal starting lot gets it; a purchased lot beside the Park's lot too, one elsewhere not."""
    lands = {"S1": _lot(0, True, ["S2", "S3"]), "S2": _lot(1, True, ["S1", "S4"]),
             "S3": _lot(2, True, ["S1", "S4"]), "S4": _lot(3, True, ["S2", "S3"]),
             "L1": _lot(0, False, ["S1"]), "L2": _lot(1, False, ["S4"])}
    park = [{"id": "B1", "kind": "park", "land": "S1", "side": "B"}]
    face = 1                                                     # the Park die's 1,000 face
    assert data.building["park"].faces[face].yen == 1000
    att = {ld["lot"]: ld["attraction"] for ld in I.compute(data, lands, [], park, {"B1": face})["lots"]}
    assert att == {"S1": 1000, "S2": 500, "S3": 500, "S4": 500, "L1": 500, "L2": 0}
    assert "Park side B on a starting lot" in RULES_DOC and "never gets the +500" in RULES_DOC
    assert "tutti gli altri Lotti adiacenti al Lotto che contiene il Park" in rules_text(TEXT)


def test_claimed_starting_lots_always_touch_one_another(rules):
    """The docstring's reason a Park on a starting lot always has a starting lot beside it: at every
    player count the claimed starting lots each share a side with another claimed one."""
    for n in range(2, 6):
        s = rules.setup(NAMES[:n], {"dice": "table"}, 7)
        starts = {k: v for k, v in s["lands"].items() if v["start"]}
        assert all(v["adjoins"] for v in starts.values()), (n, starts)
