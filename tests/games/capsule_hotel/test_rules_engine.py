"""Tokyo Capsule Hotel's rules engine (companion/games/capsule_hotel/rules): every number and example
of the Italian text played through moves, the purchase queue with an injected clock, the purchase
limit, barter conservation and the end of the game. The rules' own sentences are checked last in a
test, skipped with a reason when ../shared is absent."""
import copy
import sys
from pathlib import Path

import pytest

from companion.games import clock
from companion.games.capsule_hotel.rules import engine as E, income as I
from companion.games.contract import HOST, Ctx, IllegalMove

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from test_rules_contract import GAMES, check_result, playout, replay  # noqa: E402

TEXT = "capsule-hotel.it.txt"
T0 = 1_700_000_000_000
NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi"]


def play(rules, state, *moves, now=T0, seat=HOST):
    for m in moves:
        state = rules.apply(state, m, Ctx(now, seat))
    return state


def start(rules, loans=(6000, 6000), options=None, seed=1):
    s = rules.setup(NAMES[:len(loans)], {"dice": "table", **(options or {})}, seed)
    return play(rules, s, *[{"type": "choose-loan", "player": p, "amount": a} for p, a in enumerate(loans)])


def head_buys(rules, s, **item):
    return play(rules, s, {"type": "purchase", "player": s["queue"][0], **item})


def land_of(s, seat):
    return E.owned(s, seat)[0]


def to_head(rules, s, seat):
    """Leave the queue with everyone before `seat` and rejoin at the back."""
    while s["queue"][0] != seat:
        other = s["queue"][0]
        s = play(rules, s, {"type": "leave-queue", "player": other}, {"type": "join-queue", "player": other})
    return s


# --------------------------------------------------------------------------- loans and debt

def test_loans_are_secret_and_simultaneous_then_revealed_together(rules, data):
    s = rules.setup(NAMES[:3], {"dice": "table"}, 4)
    assert s["phase"] == "loans" and rules.actors(s).mode == "all"
    s = play(rules, s, {"type": "choose-loan", "player": 1, "amount": 4000}, seat=1)
    assert rules.public_view(s, 0)["loan_choices"] == {"1": "sealed"}
    assert rules.public_view(s, None)["loan_choices"] == {"1": "sealed"}
    assert rules.public_view(s, 1)["loan_choices"] == {"1": 4000}
    assert rules.public_view(s, HOST)["loan_choices"] == {"1": 4000}
    assert rules.public_move({"type": "choose-loan", "player": 1, "amount": 4000}, 0)["amount"] == "sealed"
    assert rules.secret_paths(s, 1) == [("loan_choices", "1")]
    assert all(p["yen"] == 0 for p in s["players"])          # nothing revealed yet
    assert rules.validate(s, {"type": "choose-loan", "player": 1, "amount": 6000}) != []   # final
    assert rules.validate(s, {"type": "choose-loan", "player": 0, "amount": 6000}, Ctx(T0, 2)) != []
    assert rules.validate(s, {"type": "choose-loan", "player": 0, "amount": 5000}) != []
    s = play(rules, s, {"type": "choose-loan", "player": 0, "amount": 6000},
             {"type": "choose-loan", "player": 2, "amount": 10000})
    assert s["phase"] == "purchase" and s["loan_choices"] == {}
    assert [p["yen"] for p in s["players"]] == [6000, 4000, 10000]
    # "I giocatori che hanno scelto un prestito di 4.000円 prendono anche 1 Coupon ciascuno"
    assert [p["coupons"] for p in s["players"]] == [0, 1, 0]
    assert rules.ledger_view(s, 0)["interest"] == 600


def test_debt_example_6000_loan_is_7200_in_round_2(rules, rules_text):
    s = start(rules, (6000, 8000))
    s = play(rules, s, {"type": "pass", "player": 0}, {"type": "pass", "player": 1})
    assert s["phase"] == "income"
    s = play(rules, s, {"type": "pay-income"})
    assert s["round"] == 2 and s["phase"] == "purchase"
    v = rules.ledger_view(s, 0)
    assert (v["loan"], v["interest"], v["debt"]) == (6000, 600, 7200)
    assert rules.ledger_view(s, 1)["debt"] == 8000 + 2 * 800
    assert "nel secondo round il tuo Debito totale sarebbe di 7.200円 (6.000円 + 2×600円)" in rules_text(TEXT)


def test_loans_phase_ends_the_game_when_someone_can_repay(rules):
    s = start(rules, (4000, 6000))
    s = play(rules, s, {"type": "pass", "player": 0}, {"type": "pass", "player": 1})
    # Aki earned enough by a (recorded) correction to repay 4,000 + 2 x 400 in round 2.
    s = play(rules, s, {"type": "correction", "player": 0, "yen": 800, "note": "found a hotel's income"})
    s = play(rules, s, {"type": "pay-income"})
    assert s["phase"] == "over" and s["round"] == 2
    res = rules.result(s)
    scores = {r["player"]: r["score"] for r in res["scores"]}
    assert scores == {0: 4800 - 4800, 1: 6000 - 7200}
    assert res["winners"] == [0] and res["unit"] == "yen"
    labels = [b["label"] for b in res["scores"][0]["breakdown"]]
    assert "Loan received" in labels and "Income round 1" in labels and "Loan repaid" in labels
    assert any(ld.startswith("Interest (2 rounds") for ld in labels)
    assert rules.legal_moves(s).moves == [] and rules.actors(s).mode == "none"


def test_loans_check_is_kept_and_the_most_yen_left_wins_among_those_who_can_repay(rules, rules_text):
    """From round 2 nobody chooses in the loans phase (the FAQ: it "serve solo a verificare la fine
    della partita"): the check of every player's yen against their debt is recorded for the phones,
    and when two can repay the one with the most yen left after repaying wins, not the first seat."""
    s = start(rules, (4000, 6000, 8000))
    s = play(rules, s, *[{"type": "pass", "player": p} for p in range(3)], {"type": "pay-income"})
    assert s["phase"] == "purchase" and s["round"] == 2
    assert s["loans_check"] == {"round": 2, "can_repay": [], "players": [
        {"seat": 0, "yen": 4000, "debt": 4800, "can_repay": False},
        {"seat": 1, "yen": 6000, "debt": 7200, "can_repay": False},
        {"seat": 2, "yen": 8000, "debt": 9600, "can_repay": False}]}
    s = play(rules, s, {"type": "correction", "player": 0, "yen": 1000, "note": "test"},      # 5,000 >= 5,200? no
             {"type": "correction", "player": 1, "yen": 2000, "note": "test"},               # 8,000 >= 7,800
             {"type": "correction", "player": 2, "yen": 3000, "note": "test"},               # 11,000 >= 10,400
             *[{"type": "pass", "player": p} for p in range(3)], {"type": "pay-income"})
    assert s["phase"] == "over" and s["round"] == 3
    assert s["loans_check"]["can_repay"] == [1, 2] == s["ended"]["can_repay"]
    assert "Ben can repay (8,000 yen against a debt of 7,800 yen)" in s["ended"]["why"]
    assert "Aki" not in s["ended"]["why"]
    res = rules.result(s)
    assert {r["player"]: r["score"] for r in res["scores"]} == {0: 5000 - 5200, 1: 200, 2: 600}
    assert res["winners"] == [2]
    text = rules_text(TEXT)
    assert "se uno o più giocatori hanno Yen sufficienti a estinguere il proprio Debito totale" in text
    assert "la partita termina immediatamente" in text
    assert "nei round successivi la fase dei Prestiti serve solo a verificare la fine della partita" in text


def test_coupons_never_repay_debt(rules):
    s = start(rules, (4000, 6000))
    s = play(rules, s, {"type": "correction", "player": 0, "yen": 799, "coupons": 10, "note": "test"},
             {"type": "pass", "player": 0}, {"type": "pass", "player": 1}, {"type": "pay-income"})
    assert s["phase"] == "purchase" and s["round"] == 2     # 4,799 yen < 4,800: coupons do not count


def test_after_round_8_lowest_net_debt_wins_ties_share(rules, data):
    s = start(rules, (6000, 6000))
    for r in range(1, 9):
        s = play(rules, s, {"type": "pass", "player": 0}, {"type": "pass", "player": 1}, {"type": "pay-income"})
    assert s["phase"] == "over" and s["ended"]["round"] == 8
    res = rules.result(s)
    assert [r["score"] for r in res["scores"]] == [6000 - 6000 - 8 * 600] * 2
    assert res["winners"] == [0, 1]
    assert len([b for b in res["scores"][0]["breakdown"] if b["label"].startswith("Income round")]) == 8


def test_coupon_rounds_give_each_player_a_coupon(rules, data):
    s = start(rules, (6000, 6000))
    for _ in range(data.rounds.coupon_rounds[0] - 1):
        s = play(rules, s, {"type": "pass", "player": 0}, {"type": "pass", "player": 1}, {"type": "pay-income"})
    assert s["round"] == data.rounds.coupon_rounds[0]
    assert [p["coupons"] for p in s["players"]] == [1, 1]


# --------------------------------------------------------------------------- purchases

def test_pink_capsules_3500_for_4_then_3000_for_3(rules, rules_text):
    s = start(rules, (10000, 10000))
    p = s["queue"][0]
    s = head_buys(rules, s, item="capsules", colour="pink", count=4)
    assert s["players"][p]["yen"] == 10000 - 3500 and s["players"][p]["capsules"] == {"pink": 4}
    s = play(rules, s, {"type": "join-queue", "player": p})
    s = to_head(rules, s, p)
    s = head_buys(rules, s, item="capsules", colour="pink", count=3)
    assert s["players"][p]["yen"] == 10000 - 3500 - 3000 and s["players"][p]["capsules"] == {"pink": 7}
    text = rules_text(TEXT)
    assert "Acquista 4 Capsule rosa al costo di 3.500円 (2.000円 + 3×500円)" in text


def test_a_non_pink_colour_is_bought_whole(rules, data):
    s = start(rules, (6000, 6000))
    p = s["queue"][0]
    assert rules.validate(s, {"type": "purchase", "player": p, "item": "capsules", "colour": "green",
                              "count": 2}) != []
    s = head_buys(rules, s, item="capsules", colour="green")
    assert s["players"][p]["capsules"] == {"green": data.capsule["green"].for_sale}
    assert s["supply"]["capsules"]["green"] == 0
    assert s["players"][p]["yen"] == 6000 - 2500


def test_only_the_head_purchases_one_item_and_its_seal_returns(rules):
    s = start(rules, (6000, 8000))
    head, other = s["queue"]
    assert rules.validate(s, {"type": "purchase", "player": other, "item": "capsules", "colour": "yellow"})
    s = head_buys(rules, s, item="capsules", colour="yellow")
    assert s["queue"] == [other] and s["players"][head]["seal"] == "front"


def test_coupons_pay_500_each_and_at_most_the_price(rules):
    s = start(rules, (4000, 6000))     # seat 0 has a coupon from the 4,000 loan
    s = to_head(rules, s, 0)
    land = land_of(s, 0)
    assert rules.validate(s, {"type": "purchase", "player": 0, "item": "vending-machine", "land": land,
                              "coupons": 2}) != []
    s = play(rules, s, {"type": "purchase", "player": 0, "item": "vending-machine", "land": land, "coupons": 1})
    assert (s["players"][0]["yen"], s["players"][0]["coupons"]) == (4000, 0)
    assert s["expenses"] == 500                          # coupons count as spending on the track


def test_cemetery_pays_the_buyer_200_and_never_moves_the_marker(rules):
    s = start(rules, (6000, 6000))
    p = s["queue"][0]
    s = head_buys(rules, s, item="cemetery", land=land_of(s, p))
    assert s["players"][p]["yen"] == 6200 and s["expenses"] == 0
    assert s["players"][p]["flows"]["cemeteries"] == 200


def test_at_most_5_cemeteries_per_lot(rules, data):
    s = start(rules, (6000, 6000))
    p = s["queue"][0]
    lot = land_of(s, p)
    for _ in range(5):
        if p not in s["queue"]:
            s = play(rules, s, {"type": "join-queue", "player": p})
        s = to_head(rules, s, p)
        s = head_buys(rules, s, item="cemetery", land=lot)
    s = to_head(rules, play(rules, s, {"type": "join-queue", "player": p}), p)
    assert "5 cemeteries" in " ".join(rules.validate(s, {"type": "purchase", "player": p, "item": "cemetery",
                                                         "land": lot}))


def test_golden_rule_of_hotel_placement(rules, data):
    s = start(rules, (10000, 10000))
    p = s["queue"][0]
    lot = land_of(s, p)
    s = head_buys(rules, s, item="capsules", colour="yellow")
    s = to_head(rules, play(rules, s, {"type": "join-queue", "player": p}), p)
    hotel = {"type": "purchase", "player": p, "item": "entrance", "land": lot, "colour": "yellow", "capsules": 2}
    assert "golden rule" in " ".join(rules.validate(s, hotel))
    s = head_buys(rules, s, item="vending-machine", land=lot)
    s = to_head(rules, play(rules, s, {"type": "join-queue", "player": p}), p)
    assert rules.validate(s, hotel) == []
    s = play(rules, s, hotel)
    assert s["hotels"][0]["capsules"] == 2 and s["players"][p]["capsules"] == {"yellow": 2}
    s = to_head(rules, play(rules, s, {"type": "join-queue", "player": p}), p)
    assert "golden rule" in " ".join(rules.validate(s, {**hotel, "capsules": 1}))


def test_coin_laundry_hotel_up_to_2_capsules_and_none_needs_no_support(rules):
    s = start(rules, (10000, 10000))
    p = s["queue"][0]
    lot = land_of(s, p)
    s = head_buys(rules, s, item="building", building="coin-laundry", land=lot)   # 0 capsules: no hotel
    assert s["hotels"] == [] and len(s["buildings"]) == 1
    s = to_head(rules, play(rules, s, {"type": "join-queue", "player": p}), p)
    s = head_buys(rules, s, item="capsules", colour="yellow")
    s = to_head(rules, play(rules, s, {"type": "join-queue", "player": p}), p)
    laundry = {"type": "purchase", "player": p, "item": "building", "building": "coin-laundry", "land": lot,
               "colour": "yellow", "capsules": 3}
    assert rules.validate(s, laundry) != []
    assert "golden rule" in " ".join(rules.validate(s, {**laundry, "capsules": 2}))


def test_sumo_dohyo_side_b_lifts_the_golden_rule(rules):
    s = start(rules, (10000, 10000, 10000), {"attraction_cards": "all-side-b"})   # limit 9,000
    p = s["queue"][0]
    lot = land_of(s, p)
    s = play(rules, s, {"type": "correction", "player": p, "yen": 10000, "note": "rich uncle"})
    s = head_buys(rules, s, item="building", building="sumo-dohyo", land=lot)
    assert s["buildings"][0]["side"] == "B"
    s = to_head(rules, play(rules, s, {"type": "join-queue", "player": p}), p)
    s = head_buys(rules, s, item="capsules", colour="yellow")
    s = to_head(rules, play(rules, s, {"type": "join-queue", "player": p}), p)
    assert rules.validate(s, {"type": "purchase", "player": p, "item": "entrance", "land": lot,
                              "colour": "yellow", "capsules": 1}) == []


def test_side_b_purchase_bonuses_and_sweets_buffet_card_shared(rules):
    s = start(rules, (10000,) * 5, {"attraction_cards": "buyer-chooses"})   # limit 15,000
    p = next(x for x in s["queue"] if E.owned(s, x))      # with 5 players one has no starting lot
    s = to_head(rules, s, p)
    lot = land_of(s, p)
    s = play(rules, s, {"type": "correction", "player": p, "yen": 20000, "note": "test money"})
    spike = {"type": "purchase", "player": p, "item": "building", "building": "tokyo-spike", "land": lot}
    assert "side A or B" in " ".join(rules.validate(s, spike))
    s = play(rules, s, {**spike, "side": "B"})
    assert s["players"][p]["coupons"] == 7
    for side_asked in ("A", None):
        s = to_head(rules, play(rules, s, {"type": "join-queue", "player": p}), p)
        m = {"type": "purchase", "player": p, "item": "building", "building": "sweets-buffet", "land": lot,
             **({"side": side_asked} if side_asked else {})}
        s = play(rules, s, m)
    assert [b["side"] for b in s["buildings"] if b["kind"] == "sweets-buffet"] == ["A", "A"]
    s = to_head(rules, play(rules, s, {"type": "join-queue", "player": p}), p)
    assert "already shows side A" in " ".join(rules.validate(
        s, {"type": "purchase", "player": p, "item": "building", "building": "sweets-buffet", "land": lot,
            "side": "B"}))


# --------------------------------------------------------------------------- income

def _map(hotels, cemeteries=0, sub=False):
    lands = {"L1": {"kind": "lot", "owner": 0, "parent": None, "vending": 5, "cemeteries": cemeteries,
                    "adjoins": []}}
    if sub:
        lands["D1"] = {"kind": "sub", "owner": 1, "parent": "L1", "vending": 1, "cemeteries": 0}
    return lands, hotels


def test_hotel_income_formula_deduction_floor_and_cap(data):
    lands, hotels = _map([{"id": "H1", "land": "L1", "colour": "green", "capsules": 1}], cemeteries=3)
    # franchise 100 x (1 hotel + 1 lot) = 200; attraction 0; 3 cemeteries -> never below 100 by them
    r = I.compute(data, lands, hotels, [], {})
    assert r["lots"][0]["deduction"] == 300 and r["lots"][0]["hotels"][0]["income"] == 100
    # Sweets Buffet face 1000 + 200 franchise - 300 = 900, capped at 1,000 x 1 capsule
    b = [{"id": "B1", "kind": "sweets-buffet", "land": "L1", "side": None}]
    r = I.compute(data, lands, hotels, b, {"B1": 5})
    assert r["lots"][0]["hotels"][0]["income"] == 900
    # the cap is applied last: a 2,000 face for a 1-capsule hotel gives 1,000
    lands5, _ = _map([], cemeteries=5)
    park = [{"id": "B1", "kind": "park", "land": "L1", "side": None}]
    r = I.compute(data, lands5, hotels, park, {"B1": 2})     # 2,000 + 200 - 500 = 1,700 -> cap 1,000
    assert r["lots"][0]["deduction"] == 500 and r["lots"][0]["hotels"][0]["income"] == 1000
    # the rules' example: a 2-capsule hotel earns at most 2,000
    two = [{"id": "H1", "land": "L1", "colour": "green", "capsules": 2}]
    r = I.compute(data, lands5, two, park, {"B1": 3})      # 3,000 + 200 - 500 = 2,700 -> 2,000
    assert r["lots"][0]["hotels"][0]["income"] == 2000


def test_cemetery_deduction_never_above_500(data):
    lands, hotels = _map([{"id": "H1", "land": "L1", "colour": "green", "capsules": 3}], cemeteries=5)
    r = I.compute(data, lands, hotels, [{"id": "B1", "kind": "arcade", "land": "L1"}], {"B1": 4})
    # 200 franchise + 4,000 (face 4) - 500 = 3,700, then capped at 3 capsules x 1,000
    assert r["lots"][0]["deduction"] == 500 and r["lots"][0]["hotels"][0]["income"] == 3000
    with pytest.raises(ValueError):
        I.ledger.cemetery_deduction(data, 6)


def test_no_cemetery_face_and_coupon_faces(data):
    lands, hotels = _map([{"id": "H1", "land": "L1", "colour": "green", "capsules": 2}], cemeteries=2)
    spike = [{"id": "B1", "kind": "tokyo-spike", "land": "L1"}]
    r = I.compute(data, lands, hotels, spike, {"B1": 0})        # no-cemetery face
    assert r["lots"][0]["no_cemetery"] and r["lots"][0]["hotels"][0]["income"] == 200
    r = I.compute(data, lands, hotels, spike, {"B1": 2})        # two coupons for the building's owner
    assert r["coupons"] == {"0": 2} and r["lots"][0]["hotels"][0]["income"] == 100   # 200 - 200, floor 100


def test_franchise_faq_subdivisions_do_not_count(data, rules_text):
    lands, _ = _map([], sub=True)
    lands["L2"] = {"kind": "lot", "owner": 1, "parent": None, "vending": 2, "cemeteries": 0}
    hotels = [{"id": "H1", "land": "L1", "colour": "blue", "capsules": 1},
              {"id": "H2", "land": "D1", "colour": "blue", "capsules": 1},
              {"id": "H3", "land": "L2", "colour": "blue", "capsules": 2}]
    f = I.franchise_table(data, lands, hotels)["blue"]
    assert (f["hotels"], f["lots"], f["income"]) == (3, 2, 500)   # the subdivision is not a lot
    r = I.compute(data, lands, hotels, [], {})
    assert r["by_owner"] == {"0": 500, "1": 1000}                   # the sub's hotel belongs to seat 1
    assert "conta i Lotti (mai le Suddivisioni)" in rules_text(TEXT)


def test_franchise_thresholds_give_every_owner_a_coupon(rules, data, rules_text):
    s = start(rules, (10000, 10000))
    a, b = s["queue"]
    la, lb = land_of(s, a), land_of(s, b)
    # a given map: the blue franchise at 400 (2 hotels of a in 2 lots... b owns one of them)
    s = copy.deepcopy(s)
    s["lands"][la]["vending"] = 3
    s["lands"][lb]["vending"] = 1
    s["hotels"] = [{"id": "H1", "land": la, "colour": "blue", "capsules": 1, "floors": None, "on": "entrance",
                    "round": 1, "built_after_incomes": 0, "withheld": False},
                   {"id": "H2", "land": lb, "colour": "blue", "capsules": 1, "floors": None, "on": "entrance",
                    "round": 1, "built_after_incomes": 0, "withheld": False}]
    s["next"]["hotel"] = 3
    s["players"][a]["capsules"] = {"blue": 2}
    assert I.franchise_income_of(data, s["lands"], s["hotels"], "blue") == 400
    s = head_buys(rules, s, item="entrance", land=la, colour="blue", capsules=1)   # 100 x (3 + 2) = 500
    assert [p["coupons"] for p in s["players"]] == [1, 1]
    assert "raggiunge o supera una Rendita franchising di 500円, 1.000円 o 1.500円" in rules_text(TEXT)


def test_income_phase_table_dice_then_pay(rules, data):
    s = start(rules, (10000, 10000))
    p = s["queue"][0]
    lot = land_of(s, p)
    s = head_buys(rules, s, item="building", building="coin-laundry", land=lot)
    s = play(rules, s, {"type": "pass", "player": 0}, {"type": "pass", "player": 1})
    assert s["phase"] == "income"
    assert "enter the bonus die" in " ".join(rules.validate(s, {"type": "pay-income"}))
    s = play(rules, s, {"type": "roll", "building": "B1", "face": 0})   # coupon face
    s = play(rules, s, {"type": "pay-income"})
    assert s["players"][p]["coupons"] == 1 and s["round"] == 2


def test_companion_rolls_the_dice_from_the_seed(rules):
    s = start(rules, (10000, 10000), {"dice": "companion"})
    p = s["queue"][0]
    s = head_buys(rules, s, item="building", building="arcade", land=land_of(s, p))
    s = play(rules, s, {"type": "pass", "player": 0}, {"type": "pass", "player": 1})
    assert "B1" in s["rolls"] and rules.validate(s, {"type": "pay-income"}) == []
    assert rules.validate(s, {"type": "roll", "building": "B1", "face": 1}) != []


def test_park_side_b_gives_adjacent_lots_500_and_starting_lots_as_one(data):
    lands = {"S1": {"kind": "lot", "owner": 0, "parent": None, "start": True, "vending": 1, "cemeteries": 0,
                    "adjoins": ["S2"]},
             "S2": {"kind": "lot", "owner": 1, "parent": None, "start": True, "vending": 1, "cemeteries": 0,
                    "adjoins": ["S1"]},
             "S3": {"kind": "lot", "owner": 1, "parent": None, "start": True, "vending": 1, "cemeteries": 0,
                    "adjoins": []},
             "L1": {"kind": "lot", "owner": 0, "parent": None, "start": False, "vending": 1, "cemeteries": 0,
                    "adjoins": ["S1"]}}
    park = [{"id": "B1", "kind": "park", "land": "L1", "side": "B"}]
    r = I.compute(data, lands, [], park, {"B1": 1})
    att = {ld["lot"]: ld["attraction"] for ld in r["lots"]}
    assert att == {"S1": 500, "S2": 500, "S3": 500, "L1": 1000}


# --------------------------------------------------------------------------- the queue, the count, the limit

def test_queue_by_yen_ties_random_first_then_clockwise(rules):
    s = rules.setup(NAMES[:5], {"dice": "table"}, 3)
    s = play(rules, s, *[{"type": "choose-loan", "player": p, "amount": a}
                         for p, a in enumerate((8000, 6000, 8000, 4000, 8000))])
    q = s["queue"]
    assert q[:2] == [3, 1]                      # 4,000 (a coupon does not count), then 6,000
    tie = s["tie_orders"][-1]["ties"][0]
    assert tie["yen"] == 8000 and sorted(tie["order"]) == [0, 2, 4]
    first = tie["first"]
    assert q[2:] == sorted([0, 2, 4], key=lambda x: (x - first) % 5)
    firsts = {rules.setup(NAMES[:5], {"dice": "table"}, seed)["seed"] and play(
        rules, rules.setup(NAMES[:5], {"dice": "table"}, seed),
        *[{"type": "choose-loan", "player": p, "amount": 6000} for p in range(5)])["queue"][0]
        for seed in range(30)}
    assert len(firsts) > 2                      # the first of a tie is drawn, not always seat 0


def test_leave_and_rejoin_at_the_back_not_while_bartering(rules):
    s = start(rules, (6000, 6000, 6000), seed=2)
    a, b, c = s["queue"]
    s = play(rules, s, {"type": "leave-queue", "player": a}, {"type": "join-queue", "player": a})
    assert s["queue"] == [b, c, a]
    s = play(rules, s, {"type": "leave-queue", "player": b}, {"type": "leave-queue", "player": c})
    s = play(rules, s, {"type": "propose-barter", "player": b, "with": c, "give": {"yen": 100},
                        "get": {"promise": "I will build a Park"}})
    assert "bartering" in " ".join(rules.validate(s, {"type": "join-queue", "player": b}))
    assert rules.validate(s, {"type": "propose-barter", "player": a, "with": b, "give": {"yen": 1},
                              "get": {"yen": 1}})          # a is queued, b is bartering


def test_five_second_count_removes_the_head_at_expiry(rules, data, rules_text):
    s = start(rules, (6000, 8000))
    head, other = s["queue"]
    assert rules.validate(s, {"type": "start-count", "player": head}) != []   # another player counts
    s = play(rules, s, {"type": "start-count", "player": other}, now=T0 + 1000, seat=other)
    rec = rules.timers(s)["count"]
    assert rec["deadline_ms"] == T0 + 1000 + data.purchase.declare_seconds * 1000
    assert clock.status(rec, T0 + 5999) == "running" and clock.status(rec, T0 + 6000) == "expired"
    gone = rules.on_expire(s, "count", Ctx(T0 + 6000, None))
    assert gone["queue"] == [other] and gone["players"][head]["seal"] == "front"
    assert rules.timers(gone)["count"]["status"] == "expired"       # API.md: it stays expired
    with pytest.raises(IllegalMove):
        rules.on_expire(gone, "count", Ctx(T0 + 6000, None))
    # declaring a purchase in time stops the count
    bought = play(rules, s, {"type": "purchase", "player": head, "item": "capsules", "colour": "yellow"},
                  now=T0 + 5900)
    assert rules.timers(bought) == {} and bought["players"][head]["capsules"]
    assert "contare 5 secondi ad alta voce" in rules_text(TEXT)


def test_declare_seconds_option(rules):
    s = start(rules, (6000, 8000), {"declare_seconds": 3})
    head, other = s["queue"]
    s = play(rules, s, {"type": "start-count", "player": other})
    assert rules.timers(s)["count"]["duration_ms"] == 3000


def test_the_limit_passed_by_one_purchase_ends_purchases(rules, data, rules_text):
    s = start(rules, (10000, 10000, 10000), seed=5)     # 3 players: limit 9,000
    assert s["limit"] == data.purchase_limit.by_players["3"]
    a, b, c = s["queue"]
    s = play(rules, s, {"type": "leave-queue", "player": c})
    s = head_buys(rules, s, item="lot", board="lot-5000", adjoins=[land_of(s, a)])
    assert s["expenses"] == 5000 and not s["limit_reached"]
    s = head_buys(rules, s, item="lot", board="lot-6000", adjoins=["L1"])       # 11,000 >= 9,000
    assert s["lands"]["L2"]["owner"] == b                                     # completed
    assert s["phase"] == "income" and s["queue"] == []


def test_limit_reached_lets_open_barters_finish_but_no_new_one(rules):
    s = start(rules, (10000, 10000, 10000), seed=5)     # limit 9,000
    a, b, c = s["queue"]
    s = play(rules, s, {"type": "leave-queue", "player": b}, {"type": "leave-queue", "player": c},
             {"type": "propose-barter", "player": b, "with": c, "give": {"yen": 1000}, "get": {"promise": "later"}})
    s = head_buys(rules, s, item="lot", board="lot-6000", adjoins=[land_of(s, a)])
    s = play(rules, s, {"type": "join-queue", "player": a})
    s = head_buys(rules, s, item="lot", board="lot-3500", adjoins=["L1"])     # exactly 9,500 >= 9,000
    assert s["limit_reached"] and s["phase"] == "purchase" and s["queue"] == []
    assert rules.validate(s, {"type": "join-queue", "player": a}) != []
    s = play(rules, s, {"type": "confirm-barter", "player": c, "barter": "X1"})
    assert s["phase"] == "income"
    assert [p["yen"] for p in s["players"]][b] == 9000


def test_exactly_reaching_the_limit_ends_the_phase(rules, data):
    s = start(rules, (10000, 10000))                     # 2 players: limit 6,000
    s = head_buys(rules, s, item="lot", board="lot-6000", adjoins=[land_of(s, s["queue"][0])])
    assert s["expenses"] == data.purchase_limit.by_players["2"] and s["phase"] == "income"


def test_pass_is_final_and_everyone_passing_ends_the_phase(rules):
    s = start(rules, (6000, 6000))
    s = play(rules, s, {"type": "pass", "player": 0})
    assert rules.validate(s, {"type": "join-queue", "player": 0}) and s["phase"] == "purchase"
    s = play(rules, s, {"type": "pass", "player": 1})
    assert s["phase"] == "income"


# --------------------------------------------------------------------------- barter

def _totals(s):
    caps = {}
    for p in s["players"]:
        for c, n in p["capsules"].items():
            caps[c] = caps.get(c, 0) + n
    pieces = (len(s["hotels"]), len(s["buildings"]), sum(ld["vending"] for ld in s["lands"].values()),
              sum(ld["cemeteries"] for ld in s["lands"].values()))
    return (sum(p["yen"] for p in s["players"]), sum(p["coupons"] for p in s["players"]), caps, pieces)


def test_barter_is_two_sided_and_conserves(rules):
    s = start(rules, (4000, 6000))
    s = play(rules, s, {"type": "leave-queue", "player": 0}, {"type": "leave-queue", "player": 1})
    lot0 = land_of(s, 0)
    s = play(rules, s, {"type": "propose-barter", "player": 1, "with": 0, "give": {"yen": 1000},
                        "get": {"coupons": 1, "lands": [lot0], "promise": "a Park next round"}}, seat=1)
    assert s["players"][0]["coupons"] == 1 and s["lands"][lot0]["owner"] == 0        # nothing moved yet
    assert rules.validate(s, {"type": "confirm-barter", "player": 1, "barter": "X1"})  # the other confirms
    assert rules.validate(s, {"type": "confirm-barter", "player": 0, "barter": "X1"}, Ctx(T0, 1))
    before = _totals(s)
    s = play(rules, s, {"type": "confirm-barter", "player": 0, "barter": "X1"}, seat=0)
    assert _totals(s) == before
    assert s["lands"][lot0]["owner"] == 1 and s["players"][0]["yen"] == 5000 and s["players"][1]["coupons"] == 1
    assert s["players"][0]["flows"]["barter"] == 1000 and s["players"][1]["flows"]["barter"] == -1000


def test_each_side_must_offer_something(rules):
    s = start(rules, (6000, 6000))
    s = play(rules, s, {"type": "leave-queue", "player": 0}, {"type": "leave-queue", "player": 1})
    assert "offer something" in " ".join(rules.validate(
        s, {"type": "propose-barter", "player": 0, "with": 1, "give": {"yen": 100}, "get": {}}))
    assert rules.validate(s, {"type": "propose-barter", "player": 0, "with": 1, "give": {"yen": 7000},
                              "get": {"yen": 1}})


def test_barter_a_subdivision_with_the_golden_rule(rules):
    s = start(rules, (10000, 10000))
    a = s["queue"][0]
    b = 1 - a
    lot = land_of(s, a)
    s = head_buys(rules, s, item="vending-machine", land=lot)
    s = play(rules, s, {"type": "leave-queue", "player": b})
    sub = {"of": lot, "vending": 1}
    s = play(rules, s, {"type": "propose-barter", "player": a, "with": b, "give": {"subdivision": sub},
                        "get": {"yen": 1500}})
    before = _totals(s)
    s = play(rules, s, {"type": "confirm-barter", "player": b, "barter": "X1"})
    assert _totals(s) == before
    assert s["lands"]["D1"] == {"kind": "sub", "owner": b, "parent": lot, "start": False, "board": None,
                                "vending": 1, "cemeteries": 0, "adjoins": []}
    assert s["lands"][lot]["vending"] == 0
    # a hotel in a subdivision counts for its lot's franchise income, owned by the sub's owner
    assert I.root(s["lands"], "D1") == lot


def test_random_barters_conserve_money_and_pieces(rules):
    import sys
    sys.path.insert(0, "tests")
    from test_rules_contract import playout
    from companion.catalog import Game
    game = Game("capsule-hotel", "Tokyo Capsule Hotel", (2, 5), rules, rules.data)
    seen = 0
    for seed in range(6):
        states, log, _ = playout(game, 2 + seed % 4, "companion", seed)
        for before, after, (kind, move, _) in zip(states, states[1:], log):
            if kind == "move" and move["type"] == "confirm-barter":
                assert _totals(before) == _totals(after)
                seen += 1
    assert seen


def test_golden_rule_penalty_is_a_correction_entry(rules):
    s = start(rules, (10000, 10000))
    p = s["queue"][0]
    lot = land_of(s, p)
    s = head_buys(rules, s, item="vending-machine", land=lot)
    for item in ({"item": "capsules", "colour": "orange"},
                 {"item": "entrance", "land": lot, "colour": "orange", "capsules": 3}):
        s = to_head(rules, play(rules, s, {"type": "join-queue", "player": p}), p)
        s = head_buys(rules, s, **item)
    s = play(rules, s, {"type": "pass", "player": 0}, {"type": "pass", "player": 1}, {"type": "pay-income"})
    s = play(rules, s, {"type": "pass", "player": 0}, {"type": "pass", "player": 1}, {"type": "pay-income"})
    yen_before = s["players"][p]["yen"]
    s = play(rules, s, {"type": "golden-rule-penalty", "hotel": "H1"})
    assert s["players"][p]["yen"] == yen_before - min(yen_before, 1000 * 3 * 2)
    assert s["entries"][-1]["why"].startswith("golden rule broken by hotel H1")
    assert I.compute(rules.data, s["lands"], s["hotels"], [], {})["by_owner"].get(str(p), 0) == 0


def test_tallest_hotel_variant(rules):
    s = start(rules, (10000, 10000, 10000), {"tallest_hotel": True})
    p = s["queue"][0]
    lot = land_of(s, p)
    s = play(rules, s, {"type": "correction", "player": p, "yen": 20000, "note": "test"})
    seq = [{"item": "vending-machine", "land": lot}, {"item": "vending-machine", "land": lot},
           {"item": "capsules", "colour": "black"},
           {"item": "entrance", "land": lot, "colour": "black", "capsules": 3, "floors": 2},
           {"item": "entrance", "land": lot, "colour": "black", "capsules": 5, "floors": 3}]
    for i, item in enumerate(seq):
        if i:
            s = to_head(rules, play(rules, s, {"type": "join-queue", "player": p}), p)
        if item.get("floors") == 2:
            assert "floors" in " ".join(rules.validate(s, {"type": "purchase", "player": p,
                                                           **{**item, "floors": 3}}))
        s = head_buys(rules, s, **item)
    assert s["tallest"]["hotel"] == "H2" and s["players"][p]["coupons"] == 1   # the first hotel earns none


def test_junk_never_raises(rules):
    s = start(rules, (6000, 6000))
    for junk in (None, 3, [], {}, {"type": "purchase"}, {"type": "purchase", "player": 0, "item": "lot",
                 "board": [1]}, {"type": "propose-barter", "player": 0, "with": 1, "give": {"capsules": [1]},
                 "get": "x"}, {"type": "confirm-barter", "player": 0, "barter": {}}):
        assert rules.validate(s, junk)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("mode", ["table", "companion"])
def test_random_playouts_for_2_to_5_players_reach_a_result(players, mode):
    """Random legal moves (and the count's expiry now and then) from the set-up to the end, for every
    player count and both dice modes: the log replays to the same state and the result adds up."""
    game = GAMES["capsule-hotel"]
    for seed in (players, players + 10):
        states, log, res = playout(game, players, mode, seed)
        assert replay(game, players, mode, seed, log) == states[-1]
        check_result(res, players)
        last = states[-1]
        assert last["phase"] == "over" and last["ended"]
        # the ending is the rules': someone could repay in a loans phase, or round 8 was played out
        if last["ended"].get("can_repay"):
            assert last["loans_check"]["round"] == last["round"] >= 2
        else:
            assert last["round"] == 8 and len(last["players"][0]["income_by_round"]) == 8
