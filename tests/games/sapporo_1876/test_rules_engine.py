"""Sapporo 1876's engine (RULES) against the rules text: every worked example played through moves,
and the rules' sentences one by one (../shared/rules/sapporo-1876.txt; the sentence checks skip with
a reason when ../shared is absent)."""
import copy

import pytest

from companion.games.contract import Ctx, IllegalMove
from companion.games.sapporo_1876.rules import RULES
from generator import canon

TXT = "sapporo-1876.txt"


@pytest.fixture(scope="module")
def rules():
    return RULES(canon.load("sapporo-1876"))


def started(rules, tiles="companion", seed=3):
    """A game past set-up: seat 0 (Aki) starts; both bought a tile and placed their pioneer."""
    s = rules.setup(["Aki", "Ben"], {"tiles": tiles}, seed)
    if tiles == "table":
        s = rules.apply(s, rules.legal_moves(s).moves[0])
    s = rules.apply(s, {"type": "buy-building", "player": 1, "tile": s["beside"][0]})
    s = rules.apply(s, {"type": "buy-building", "player": 0, "tile": s["beside"][0]})
    s = rules.apply(s, {"type": "place-pioneer", "player": 0, "column": "wheat"})
    s = rules.apply(s, {"type": "place-pioneer", "player": 1, "column": "sheep"})
    return s


def at_spot(rules, spot, **players):
    """The action step at `spot` with seat 0 active; players={0: {...}, 1: {...}} override."""
    s = started(rules)
    s = rules.apply(s, {"type": "move-pawn", "player": 0, "spot": spot})
    for p, values in players.items():
        s["players"][int(p[1:])].update(copy.deepcopy(values))
    return s


def move(rules, s, **m):
    return rules.apply(s, m)


def refused(rules, s, **m):
    reasons = rules.validate(s, m)
    assert reasons, m
    with pytest.raises(IllegalMove):
        rules.apply(s, m)
    return " ".join(reasons)


# -- worked examples ------------------------------------------------------------------------------

def test_the_12_ap_payment_example(rules, rules_text):
    # "pay 2 rice bales (6 AP), 1 cattle (2 AP) and 4 yen (4 AP) ... a total of 12 AP"; with the
    # academy empty that buys 4 x 2 fame ("Example: pay 12 AP to gain 8 fame points").
    res = {"wheat": 0, "rice-bale": 2, "sheep": 0, "cattle": 1}
    s = at_spot(rules, "agricultural-college", p0={"educated": 6, "yen": 4, "resources": res})
    fame = s["players"][0]["fame"]
    after = move(rules, s, type="educate", player=0, fame=4, pay={"rice-bale": 2, "cattle": 1, "yen": 4})
    pl = after["players"][0]
    assert pl["fame"] == fame + 8 and pl["yen"] == 0 and pl["resources"]["rice-bale"] == 0
    assert "cannot be paid here" in refused(rules, s, type="educate", player=0, fame=1, pay={"wheat": 1})
    assert "worth 11 AP" in refused(rules, s, type="educate", player=0, fame=4,
                                    pay={"rice-bale": 2, "cattle": 1, "yen": 3})
    # "can be paid in any combination and in any number" ... "no change is given": 2 rice bales
    # (6 AP) for 3 AP are accepted, and the 3 AP left over are lost
    over = move(rules, s, type="educate", player=0, fame=1, pay={"rice-bale": 2})
    assert over["players"][0]["fame"] == fame + 2 and over["players"][0]["resources"]["rice-bale"] == 0
    # the history says what was lost
    line = rules.describe(s, {"type": "educate", "player": 0, "fame": 1, "pay": {"rice-bale": 2}})
    assert line.endswith("(3 AP lost: no change is given)"), line
    assert "lost" not in rules.describe(s, {"type": "educate", "player": 0, "fame": 1, "pay": {"rice-bale": 1}})
    # 3 AP exactly: one rice bale
    assert rules.validate(s, {"type": "educate", "player": 0, "fame": 1, "pay": {"rice-bale": 1}}) == []
    # the cheapest payments the companion shows
    pays = rules.payments(s, 0, {"rice-bale": 3, "cattle": 2}, 12)
    assert {"rice-bale": 2, "cattle": 1, "yen": 4} in pays
    text = rules_text(TXT)
    assert "Leftover AP cannot be carried over to the next action, and no change is given." in text
    assert "(Example: pay 12 AP to gain 8 fame points.)" in text
    assert "Resources and banknotes can be paid in any combination and in any number." in text


def test_the_harvest_example(rules, rules_text):
    s = started(rules)
    s["harvest"] = 2                      # the next orange spot reaches the harvest icon (row 3)
    a = s["players"][0]
    a["pioneer"] = {"wheat": 3, "rice-bale": 0, "sheep": 5, "cattle": 0}
    a["buildings"] = [{"id": t, "worker": True} for t in ("flour-mill", "dairy", "wool-shed")]
    a["yen"], a["resources"] = 0, {"wheat": 0, "rice-bale": 0, "sheep": 0, "cattle": 0}
    s["players"][1]["buildings"] = []
    s["notes"]["pioneer-village"] = 0
    s = move(rules, s, type="move-pawn", player=0, spot="pioneer-village")
    assert s["pending"] == "harvest"
    s = move(rules, s, type="pass", player=0)
    s = move(rules, s, type="pass", player=1)
    a = s["players"][0]
    assert a["resources"] == {"wheat": 2, "rice-bale": 0, "sheep": 3, "cattle": 0}
    assert a["yen"] == 1 + 3
    assert s["phase"] == "returns" and s["returns"] == [0]
    assert "costs 2 yen" in refused(rules, {**s, "players": [{**a, "yen": 1}, s["players"][1]]},
                                    type="return-workers", player=0,
                                    tiles=["flour-mill", "dairy", "wool-shed"])
    s = move(rules, s, type="return-workers", player=0, tiles=["flour-mill", "dairy"])
    a = s["players"][0]
    assert a["yen"] == 3 and [b["worker"] for b in a["buildings"]] == [False, False, True]
    assert s["events"] == 1
    text = rules_text(TXT)
    assert "Player A paid 1 yen and removed workers from 2 of them" in text


def test_the_settlement_example(rules, rules_text):
    s = started(rules)
    s["settlement"] = 2
    A, B = 0, 1                           # Player A (white) = seat 0 here, B = seat 1
    s["council"] = {"left": [A, B, A], "middle": [B, None, None], "right": [B, A, None]}
    fame = [pl["fame"] for pl in s["players"]]
    s = move(rules, s, type="move-pawn", player=0, spot="central-city-hall")
    assert s["pending"] == "settlement"
    s = move(rules, s, type="pass", player=0)
    s = move(rules, s, type="pass", player=1)
    assert s["players"][A]["fame"] - fame[A] == 3 + 0 + 5
    assert s["players"][B]["fame"] - fame[B] == 1 + 4 + 3
    assert s["history"][-1]["fame"] == [{"left": 3, "middle": 0, "right": 5},
                                        {"left": 1, "middle": 4, "right": 3}]
    assert s["council"]["left"] == [A, B, A]           # workers stay
    text = rules_text(TXT)
    assert "After settlement, workers are not removed" in text


def test_the_final_scoring_example(rules, rules_text):
    s = started(rules)
    a = s["players"][0]
    a.update(educated=6, pioneer={"wheat": 4, "rice-bale": 0, "sheep": 5, "cattle": 4},
             persons=["b-ryan", "e-dunn"], yen=1,
             resources={"wheat": 0, "rice-bale": 0, "sheep": 0, "cattle": 2}, fame=10)
    s["council"] = {"left": [0, 0, None], "middle": [0, None, None], "right": [1, 0, None]}
    s["phase"], s["events"] = "over", 5
    res = rules.result(s)
    row = next(r for r in res["scores"] if r["player"] == 0)
    values = {b["label"]: b["value"] for b in row["breakdown"]}
    assert values == {"Fame during the game": 10, "Private academy": 9, "Pioneering columns": 9,
                      "B. Ryan": 3, "E. Dunn": 7, "City council": 21,
                      "Leftover banknotes and resources": 1}
    assert row["score"] == 10 + 9 + 9 + 3 + 7 + 21 + 1
    assert res["unit"] == "fame"
    text = rules_text(TXT)
    assert "21 fame points from the city council (3 + 3 + 6 + 9)" in text


# -- set-up -----------------------------------------------------------------------------------------

def test_setup_companion_mode_lays_out_and_order_of_purchase_and_pioneers(rules, rules_text):
    s = rules.setup(["Aki", "Ben"], {"tiles": "companion", "start_player": 1}, 9)
    assert len(s["persons"]) == 6 and len(s["buildings"]) == 6 and len(s["beside"]) == 4
    assert len(set(s["buildings"] + s["beside"])) == 10
    assert s["notes"] == {sp: 1 for sp in s["notes"]}
    assert [pl["yen"] for pl in s["players"]] == [4, 4] and [pl["area"] for pl in s["players"]] == [3, 3]
    assert s["players"][0]["resources"] == {"wheat": 2, "rice-bale": 1, "sheep": 1, "cattle": 1}
    assert s == rules.setup(["Aki", "Ben"], {"tiles": "companion", "start_player": 1}, 9)
    assert "seed" not in s
    # the player who is not the start player buys first
    assert rules.actors(s).seats == (0,)
    t = s["beside"][0]
    assert "turn" in refused(rules, s, type="buy-building", player=1, tile=t)
    s = move(rules, s, type="buy-building", player=0, tile=t)
    assert s["players"][0]["yen"] == 4 - rules.ix.building[t].cost
    assert "beside the board" in refused(rules, s, type="buy-building", player=1, tile=t)
    s = move(rules, s, type="buy-building", player=1, tile=s["beside"][0])
    assert s["beside"] == [] and s["phase"] == "place"
    # then the start player places first, the other in a different column
    assert rules.actors(s).seats == (1,)
    s = move(rules, s, type="place-pioneer", player=1, column="cattle")
    assert "different" in refused(rules, s, type="place-pioneer", player=0, column="cattle")
    s = move(rules, s, type="place-pioneer", player=0, column="wheat")
    assert s["phase"] == "move" and s["current"] == 1
    assert s["players"][1]["pioneer"]["cattle"] == 1 and s["players"][1]["area"] == 2
    text = rules_text(TXT)
    assert "The player who is not the start player buys one of the 4 building tiles" in text
    assert "must choose a column different from the one the start player chose" in text


def test_setup_table_mode_enters_the_tiles(rules):
    s = rules.setup(["Aki", "Ben"], {"tiles": "table"}, 1)
    assert s["phase"] == "tiles" and rules.actors(s).mode == "all"
    ids = list(rules.ix.buildings)
    persons = list(rules.ix.persons)[:6]
    bad = {"type": "lay-out-tiles", "persons": persons, "buildings": ids[:6], "beside": ids[5:9]}
    assert "only once" in refused(rules, s, **bad)
    assert "lay out the tiles" in refused(rules, s, type="buy-building", player=1, tile=ids[0])
    s = move(rules, s, type="lay-out-tiles", persons=persons, buildings=ids[:6], beside=ids[6:10])
    assert s["phase"] == "buy" and s["beside"] == ids[6:10]
    assert rules.validate(s, {"type": "lay-out-tiles", "persons": persons, "buildings": ids[:6],
                              "beside": ids[6:10]})


def test_setup_tile_purchase_needs_banknotes_only(rules):
    s = rules.setup(["Aki", "Ben"], {"tiles": "companion"}, 2)
    s["players"][1]["yen"] = 0
    assert "you have 0" in refused(rules, s, type="buy-building", player=1, tile=s["beside"][0])


# -- the turn ---------------------------------------------------------------------------------------

def test_pawn_must_move_takes_notes_and_puts_notes_beside(rules, rules_text):
    s = started(rules)
    s = move(rules, s, type="move-pawn", player=0, spot="agricultural-college")
    assert s["players"][0]["yen"] == started(rules)["players"][0]["yen"] + 1
    assert s["notes"] == {"agricultural-college": 0, "central-city-hall": 2, "foreign-residence": 2,
                          "pioneer-village": 1}
    assert s["harvest"] == 1 and s["settlement"] == 0
    s = move(rules, s, type="pass", player=0)
    s = move(rules, s, type="pass", player=1)
    while s["phase"] == "end":
        s = move(rules, s, type="end-turn", player=0)
    assert s["current"] == 1
    assert "must move" in refused(rules, s, type="move-pawn", player=1, spot="agricultural-college")
    s = move(rules, s, type="move-pawn", player=1, spot="central-city-hall")
    assert s["players"][1]["yen"] >= 2 and s["settlement"] == 1
    text = rules_text(TXT)
    assert "The action pawn cannot stay at the same action spot as now." in text


def test_active_then_other_player_acts(rules):
    s = at_spot(rules, "agricultural-college")
    assert rules.actors(s).seats == (0,)
    assert "turn" in refused(rules, s, type="pass", player=1)
    assert "educate" in refused(rules, s, type="pioneer", player=0, steps=["wheat"])
    s = move(rules, s, type="pass", player=0)
    assert rules.actors(s).seats == (1,)          # the turn waits on Ben's step 5


def test_the_active_player_uses_building_tiles_at_any_time_of_the_turn(rules, rules_text):
    # "At any time during your turn, you can place 1 worker from your worker area on a building
    # tile"; "The player who is not the active player cannot place workers on building tiles, even
    # during step "5. Non-active player performs their action"." Aki invests in the Kaitakushi
    # Office at the Foreign Residence and uses it during Ben's step-5 investment.
    text = rules_text(TXT)
    assert "At any time during your turn, you can place 1 worker from your worker area on a building tile" in text
    assert "The player who is not the active player cannot place workers on building tiles, even during step" in text
    s = started(rules)
    s["buildings"][0] = "kaitakushi-office"
    others = [t for t in s["persons"] if t]
    for pl in s["players"]:
        pl["yen"] = 12
    s = move(rules, s, type="move-pawn", player=0, spot="foreign-residence")
    s = move(rules, s, type="invest", player=0, tile="kaitakushi-office", pay={"yen": 4})
    assert s["phase"] == "action" and s["acting"] == 1
    area = s["players"][0]["area"]
    cost = rules.ix.tile_cost(others[0])
    use = {"type": "use-building", "player": 0, "tile": "kaitakushi-office",
           "action": {"tile": others[0], "pay": {"yen": cost}}}
    assert rules.validate(s, use) == []
    s2 = rules.apply(s, use)
    pl = s2["players"][0]
    assert others[0] in pl["persons"] and pl["area"] == area - 1 and s2["acting"] == 1
    assert s2["phase"] == "action"                # Ben still performs his action
    # Ben, not the active player, cannot, even in his step 5
    s["players"][1]["buildings"].append({"id": "toyohira-bridge", "worker": False})
    assert "only the active player" in refused(rules, s, type="use-building", player=1, tile="toyohira-bridge")
    assert all(m.get("player") != 1 for m in rules.legal_moves(s).moves if m["type"] == "use-building")
    # and during a harvest's returns, before the turn's step 7, the active player still may
    h = started(rules)
    h["harvest"] = 2
    h["players"][0]["buildings"] = [{"id": "toyohira-bridge", "worker": True},
                                    {"id": "trading-post", "worker": False}]
    h["players"][1]["buildings"] = [{"id": "dairy", "worker": True}]
    h = move(rules, h, type="move-pawn", player=0, spot="agricultural-college")
    h = move(rules, h, type="pass", player=0)
    h = move(rules, h, type="pass", player=1)
    assert h["phase"] == "returns"
    yen = h["players"][0]["yen"]
    h = move(rules, h, type="use-building", player=0, tile="trading-post", take="wheat")
    assert h["players"][0]["yen"] == yen - 2 and h["phase"] == "returns"
    assert "only the active player" in refused(rules, h, type="use-building", player=1, tile="dairy")


def test_educate_from_the_lowest_tier_with_tier_bonus(rules, rules_text):
    res = {"wheat": 0, "rice-bale": 4, "sheep": 0, "cattle": 0}
    s = at_spot(rules, "agricultural-college", p0={"yen": 0, "resources": res})
    # two lower-tier workers: 3 + 3 AP; completing the tier gives 1 resource of your choice
    assert "bonus" in refused(rules, s, type="educate", player=0, workers=2, pay={"rice-bale": 2})
    s2 = move(rules, s, type="educate", player=0, workers=2, bonus="sheep", pay={"rice-bale": 2})
    pl = s2["players"][0]
    assert pl["educated"] == 2 and pl["area"] == 2 + 2 and pl["resources"]["sheep"] == 1
    assert "3 AP for 2 fame only once" in refused(rules, s, type="educate", player=0, workers=1, fame=1,
                                                  pay={"rice-bale": 2})
    assert "only 6 worker" in refused(rules, s, type="educate", player=0, workers=7, pay={"rice-bale": 4})
    text = rules_text(TXT)
    assert "must always be educated starting from the lowest tier" in text


def test_pioneer_new_columns_need_a_worker_and_stop_at_the_top(rules, rules_text):
    res = {"wheat": 6, "rice-bale": 0, "sheep": 6, "cattle": 0}
    s = at_spot(rules, "pioneer-village", p0={"yen": 30, "resources": res, "area": 1})
    # wheat column: the worker is on space 1; 2 more spaces cost 3 + 4 AP
    s2 = move(rules, s, type="pioneer", player=0, steps=["wheat", "wheat"], pay={"wheat": 2, "yen": 1})
    assert s2["players"][0]["pioneer"]["wheat"] == 3
    assert "no worker" in refused(rules, s, type="pioneer", player=0, steps=["rice-bale", "cattle"],
                                  pay={"yen": 4})
    s3 = move(rules, s, type="pioneer", player=0, steps=["cattle"], pay={"yen": 2})
    assert s3["players"][0]["area"] == 0 and s3["players"][0]["pioneer"]["cattle"] == 1
    s4 = copy.deepcopy(s)
    s4["players"][0]["pioneer"]["wheat"] = 5
    assert "top space" in refused(rules, s4, type="pioneer", player=0, steps=["wheat"], pay={"yen": 1})
    text = rules_text(TXT)
    assert "In a column whose worker has reached the top space, no further pioneering can be done." in text


def test_invest_one_tile_no_replenishing(rules):
    s = at_spot(rules, "foreign-residence", p0={"yen": 20})
    tile = s["persons"][0]
    cost = rules.ix.tile_cost(tile)
    s2 = move(rules, s, type="invest", player=0, tile=tile, pay={"yen": cost})
    assert s2["persons"][0] is None and tile in s2["players"][0]["persons"]
    assert s2["players"][0]["yen"] == 20 - cost
    assert "tile on the main board" in refused(rules, s2, type="invest", player=1, tile=tile, pay={"yen": 1})
    b = s2["buildings"][0]
    s3 = move(rules, s2, type="invest", player=1, tile=b, pay={"yen": rules.ix.tile_cost(b)}) \
        if s2["players"][1]["yen"] >= rules.ix.tile_cost(b) else None
    if s3:
        assert {"id": b, "worker": False} in s3["players"][1]["buildings"]


def test_appoint_one_space_one_worker(rules, rules_text):
    s = at_spot(rules, "central-city-hall", p0={"yen": 20})
    s2 = move(rules, s, type="appoint", player=0, column="right", space=0, pay={"yen": 6})
    assert s2["council"]["right"][0] == 0 and s2["players"][0]["area"] == s["players"][0]["area"] - 1
    s2["players"][1]["yen"] = 20
    assert "already has a worker" in refused(rules, s2, type="appoint", player=1, column="right", space=0,
                                             pay={"yen": 6})
    s3 = copy.deepcopy(s)
    s3["players"][0]["area"] = 0
    assert "no worker" in refused(rules, s3, type="appoint", player=0, column="left", space=0, pay={"yen": 3})
    text = rules_text(TXT)
    assert "You can appoint only 1 worker in one action." in text


def test_buildings_on_own_turn_only_once_each(rules, rules_text):
    s = started(rules)
    s["players"][0]["buildings"] = [{"id": "toyohira-bridge", "worker": False},
                                    {"id": "trading-post", "worker": False},
                                    {"id": "drill-hall", "worker": False}]
    yen = s["players"][0]["yen"]
    s2 = move(rules, s, type="use-building", player=0, tile="toyohira-bridge")
    assert s2["players"][0]["yen"] == yen + 2 and s2["players"][0]["area"] == s["players"][0]["area"] - 1
    assert "already has a worker" in refused(rules, s2, type="use-building", player=0, tile="toyohira-bridge")
    assert "turn" in refused(rules, s, type="use-building", player=1, tile="toyohira-bridge")
    s3 = move(rules, s2, type="use-building", player=0, tile="trading-post", take="cattle")
    assert s3["players"][0]["yen"] == yen and s3["players"][0]["resources"]["cattle"] == 2
    # the Drill Hall: 1 yen, then educate paying any resource as 2 AP
    s4 = move(rules, s, type="use-building", player=0, tile="drill-hall",
              action={"workers": 1, "pay": {"wheat": 1, "yen": 1}})
    assert s4["players"][0]["educated"] == 1
    assert s4["players"][0]["yen"] == yen + 1 - 1
    text = rules_text(TXT)
    assert "The player who is not the active player cannot place workers on building tiles" in text


def test_game_ends_after_five_events_and_tie_goes_to_last_active(rules, rules_text):
    s = started(rules)
    s["events"], s["harvest"] = 4, 2
    s = move(rules, s, type="move-pawn", player=0, spot="agricultural-college")
    s = move(rules, s, type="pass", player=0)
    s = move(rules, s, type="pass", player=1)
    while s["phase"] in ("returns", "end"):
        s = rules.apply(s, rules.legal_moves(s).moves[0])
    assert s["phase"] == "over" and rules.legal_moves(s).moves == []
    for pl in s["players"]:
        pl.update(fame=0, educated=0, persons=[], yen=0, pioneer={c: 0 for c in pl["pioneer"]},
                  resources={r: 0 for r in pl["resources"]})
    s["council"] = {c: [None] * 3 for c in s["council"]}
    res = rules.result(s)
    assert [r["score"] for r in res["scores"]] == [0, 0] and res["winners"] == [s["current"]]
    text = rules_text(TXT)
    assert "In case of a tie, the last active player is the winner." in text


def test_preview_score_at_any_time(rules):
    s = started(rules)
    rows = rules.score(s)
    assert len(rows) == 2 and all(sum(b["value"] for b in r["breakdown"]) == r["score"] for r in rows)
    # in every phase of a whole game, set-up included, the board's hints carry the preview, and at
    # the end it is the result
    import random
    rng = random.Random(2)
    for mode in ("table", "companion"):
        s = rules.setup(["Aki", "Ben"], {"tiles": mode}, 3)
        phases = set()
        while True:
            phases.add(s["phase"])
            preview = rules.needs(s)["preview"]
            assert preview == rules.score(s) and [r["name"] for r in preview] == ["Aki", "Ben"], s["phase"]
            if rules.result(s):
                assert [r["score"] for r in preview] == [r["score"] for r in rules.result(s)["scores"]]
                break
            s = rules.apply(s, rng.choice(rules.legal_moves(s).moves))
        assert {"buy", "place", "move", "action", "over"} <= phases
        assert ("tiles" in phases) == (mode == "table")


def test_seats_act_only_for_themselves(rules):
    s = at_spot(rules, "agricultural-college")
    assert rules.validate(s, {"type": "pass", "player": 0}, Ctx(0, 1))
    assert rules.validate(s, {"type": "pass", "player": 0}, Ctx(0, 0)) == []


def test_harvest_returns_active_first_then_step_7_uses_a_freed_tile(rules):
    s = started(rules)
    s["harvest"] = 2
    for pl in s["players"]:
        pl["buildings"] = [{"id": "toyohira-bridge", "worker": True}] if pl is s["players"][0] else \
            [{"id": "dairy", "worker": True}]
        pl["area"] = 0
    s = move(rules, s, type="move-pawn", player=0, spot="agricultural-college")
    s = move(rules, s, type="pass", player=0)
    s = move(rules, s, type="pass", player=1)
    assert s["returns"] == [0, 1] and rules.actors(s).seats == (0,)
    assert "turn" in refused(rules, s, type="return-workers", player=1, tiles=["dairy"])
    s = move(rules, s, type="return-workers", player=0, tiles=["toyohira-bridge"])
    s = move(rules, s, type="return-workers", player=1, tiles=["dairy"])
    # step 7: the active player may use the tile the harvest just freed
    assert s["phase"] == "end" and s["current"] == 0
    yen = s["players"][0]["yen"]
    s = move(rules, s, type="use-building", player=0, tile="toyohira-bridge")
    assert s["players"][0]["yen"] == yen + 2
    s = rules.apply(s, {"type": "end-turn", "player": 0}) if s["phase"] == "end" else s
    assert s["current"] == 1 and s["phase"] == "move"


def test_building_actions_pay_any_resource_at_2_ap_and_keep_to_their_columns(rules):
    s = started(rules)
    pl = s["players"][0]
    pl["buildings"] = [{"id": "makomanai-farm", "worker": False}]
    pl["resources"] = {"wheat": 1, "rice-bale": 0, "sheep": 0, "cattle": 0}
    pl["yen"] = 0
    assert "pioneers only" in refused(rules, s, type="use-building", player=0, tile="makomanai-farm",
                                      action={"steps": ["wheat"], "pay": {"wheat": 1}})
    assert "pioneers only" in refused(rules, s, type="use-building", player=0, tile="makomanai-farm",
                                      action={"steps": ["sheep"], "pay": {"wheat": 1}})
    # 1 yen from the tile, then a new cattle column (2 AP) paid with 1 wheat at 2 AP
    s2 = move(rules, s, type="use-building", player=0, tile="makomanai-farm",
              action={"steps": ["cattle"], "pay": {"wheat": 1}})
    p2 = s2["players"][0]
    assert p2["pioneer"]["cattle"] == 1 and p2["yen"] == 1 and p2["resources"]["wheat"] == 0
    assert p2["area"] == pl["area"] - 2           # one worker on the tile, one in the new column


def test_makomanai_farm_and_kotoni_village_pioneer_one_of_their_columns_per_use(rules, rules_text):
    # "Gain 1 yen. Then perform one Pioneer action for yourself only, in either the rice bale or the
    # cattle column." (and Kotoni Village: "in either the wheat or the sheep column")
    text = rules_text(TXT)
    assert "perform one Pioneer action for yourself only, in either the rice bale or the cattle column" in text
    assert "perform one Pioneer action for yourself only, in either the wheat or the sheep column" in text
    s = started(rules)                                 # Aki pioneers wheat, Ben sheep
    pl = s["players"][0]
    pl["buildings"] = [{"id": "makomanai-farm", "worker": False}, {"id": "kotoni-village", "worker": False}]
    pl["yen"], pl["area"] = 30, 3
    both = {"steps": ["rice-bale", "cattle"], "pay": {"yen": 4}}
    assert "either" in refused(rules, s, type="use-building", player=0, tile="makomanai-farm", action=both)
    assert "either" in refused(rules, s, type="use-building", player=0, tile="kotoni-village",
                               action={"steps": ["wheat", "sheep"], "pay": {"yen": 5}})
    # one column, as many spaces up it as are paid: a new rice bale column (2 AP) and its next space (3 AP)
    s2 = move(rules, s, type="use-building", player=0, tile="makomanai-farm",
              action={"steps": ["rice-bale", "rice-bale"], "pay": {"yen": 5}})
    assert s2["players"][0]["pioneer"]["rice-bale"] == 2
    s3 = move(rules, s, type="use-building", player=0, tile="kotoni-village",
              action={"steps": ["wheat", "wheat"], "pay": {"yen": 7}})
    assert s3["players"][0]["pioneer"]["wheat"] == 3
    # a new rice bale column costs 2 AP: 3 yen pays it, 1 AP lost (no change is given)
    over = {"type": "use-building", "player": 0, "tile": "makomanai-farm",
            "action": {"steps": ["rice-bale"], "pay": {"yen": 3}}}
    assert rules.validate(s, over) == [] and rules.describe(s, over).endswith("(1 AP lost: no change is given)")
    # the builder's plan says so before anything is sent, and no suggestion mixes the columns
    plan = rules.plan(s, {"type": "use-building", "player": 0, "tile": "makomanai-farm", "action": both})
    assert plan["reasons"] and "either" in plan["reasons"][0]
    for m in rules.legal_moves(s).moves:
        if m["type"] == "use-building" and m.get("action"):
            assert len(set(m["action"]["steps"])) == 1, m


def test_legal_moves_of_a_finished_game_are_complete(rules):
    # API.md: "the empty list of a finished game is complete"; while it runs the list is a sample
    s = started(rules)
    assert rules.legal_moves(s).complete is False
    s["events"], s["harvest"] = 4, 2
    s = move(rules, s, type="move-pawn", player=0, spot="agricultural-college")
    s = move(rules, s, type="pass", player=0)
    s = move(rules, s, type="pass", player=1)
    while s["phase"] != "over":
        s = rules.apply(s, next(m for m in rules.legal_moves(s).moves if m["type"] != "use-building"))
    legal = rules.legal_moves(s)
    assert legal.moves == [] and legal.complete is True


def test_every_suggested_move_and_payment_is_legal(rules):
    import random
    rng = random.Random(4)
    building_payments = 0
    for mode in ("table", "companion"):
        s = rules.setup(["Aki", "Ben"], {"tiles": mode}, 6)
        while rules.result(s) is None:
            needs = rules.needs(s)
            assert needs["prompt"] and needs["players"]
            for o in needs["options"]:
                assert rules.validate(s, o["move"]) == [], o
                for pay in o.get("payments", []):
                    m = o["move"]
                    m = {**m, "action": {**m["action"], "pay": pay}} if o.get("pay_in") == "action" \
                        else {**m, "pay": pay}
                    assert rules.validate(s, m) == [], (o, pay)
                    assert E_ap(rules, s, o, pay) >= o["cost"]
                    building_payments += o.get("pay_in") == "action"
            s = rules.apply(s, rng.choice(needs["options"])["move"])
        assert rules.needs(s)["options"] == []
    assert building_payments, "no building action with payments was suggested"


def E_ap(rules, s, o, pay):
    from companion.games.sapporo_1876.rules import engine
    return engine.payment_value(rules.ix, pay, o["values"])


def test_history_lines_read_as_sentences(rules):
    s = at_spot(rules, "agricultural-college")
    line = rules.describe(s, {"type": "educate", "player": 0, "workers": 1, "pay": {"rice-bale": 1}})
    assert line == "Aki educates 1 worker for 1 Rice bale"
    assert rules.describe(s, {"type": "move-pawn", "player": 1, "spot": "pioneer-village"}) == \
        "Ben moves the action pawn to the Pioneer Village"
    assert rules.describe(s, {"junk": 1}) == "?"
