"""Tokyo Jutaku's rules (companion/games/jutaku/rules/): the text's numbers, the main game's rounds,
"stop!", verdicts, movement on the map with gaps and the end; Countdown's clock; Bottle Bonus's
drinks; Izakaya's bids, actions, thresholds, scoring and tie-break; random playouts of every mode."""
import sys
from pathlib import Path

import pytest

from companion.catalog import Game
from companion.games import clock
from companion.games.contract import HOST, Ctx, IllegalMove
from companion.games.jutaku.rules import JutakuRules, countdown, izakaya, main

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from test_rules_contract import check_result, playout, replay  # noqa: E402

T0 = 1_700_000_000_000
NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi", "Goro", "Hana"]


def play(R, state, *moves, now=T0):
    for m in moves:
        assert R.validate(state, m, Ctx(now, HOST)) == [], m
        state = R.apply(state, m, Ctx(now, HOST))
    return state


def iz_setup(R, n):
    """An Izakaya table that draws (chance "table"): the turn order drawn is entered first, here in
    seat order."""
    s = R.setup(NAMES[:n], {"mode": "izakaya"}, 1)
    assert s["phase"] == "order"
    return play(R, s, {"type": "turn-order", "order": list(range(n))})


def started(R, n=2, **opts):
    """A main game with architects on the perimeter, round 1 begun."""
    s = R.setup(NAMES[:n], opts, 1)
    sites = ["suginami-1", "taito-2", "setagaya-3", "shinagawa-4", "suginami-3", "taito-4", "setagaya-1", "meguro-2"]
    for p in range(n):
        s = play(R, s, {"type": "start", "player": p, "site": sites[p]})
    assert s["phase"] == "ready"
    return play(R, s, {"type": "begin"})


# ------------------------------------------------------------------------------- the text's numbers
def test_meguro_3V_is_3_floors_8_pieces_for_14000(g, R):
    face = g.site["meguro-1"].white
    assert (face.requirement, face.height, face.pieces, face.yen) == ("3.V///", 3, 8, 14000)
    assert R.site_value(["meguro-1"])[1] == 14000
    s = R.setup(NAMES[:2], {}, 1)
    s["map"]["4,3"] = None
    s["players"][0].update(at="4,3", site="meguro-1")
    s = play(R, {**s, "phase": "building"}, )
    assert R.validate(s, {"type": "stop", "player": 0, "floors": 3, "pieces": 8}) == []
    reasons = R.validate(s, {"type": "stop", "player": 0, "floors": 2, "pieces": 8})
    assert reasons == ["the card asks for 3 storeys (3.V///), not 2"]
    assert R.validate(s, {"type": "stop", "player": 0, "floors": 3, "pieces": 7})


def test_izakaya_example_3_floors_times_700_is_2100(g, R):
    ex = g.izakaya.example
    assert R.izakaya_pay(dict(g.izakaya.start_price), [{"floors": 3, "drinks": ["white", "white", "blue"]}]) == [2100]
    assert ex.payment == 2100
    s = iz_setup(R, 4)
    s["owners"] = {"1,1": 2}
    s["buildings"] = {"1,1": [{"floors": 3, "pieces": 5}]}
    s["corners"] = {"1,1": "white", "2,1": "white", "2,2": "blue"}
    assert izakaya.payments(s)[0]["yen"] == 2100


def test_izakaya_thresholds_by_player_count(R):
    for n, want in {2: 1500, 3: 2300, 4: 3000, 5: 4000}.items():
        s = iz_setup(R, n)
        assert s["threshold"] == want
        grid = {2: 3, 3: 3, 4: 4, 5: 5}[n]
        assert s["size"] == grid and (s["blocked"] == "1,1") == (n <= 3)


def test_countdown_floors_60_45_30_15(R):
    s = R.setup(NAMES[:2], {"mode": "countdown"}, 1)
    got = []
    s = play(R, s, {"type": "begin"})
    for floor in range(1, 6):
        t = s["timer"]
        got.append(t["duration_ms"] // 1000)
        assert R.timers(s)["floor"]["status"] == clock.RUNNING
        s = R.on_expire(s, "floor", Ctx(t["deadline_ms"], None))
        assert s["phase"] == "count"
        s = play(R, s, {"type": "pieces", "player": 0, "pieces": 2}, {"type": "pieces", "player": 1, "pieces": 1},
                 now=t["deadline_ms"] + 5000)
        assert s["timer"]["deadline_ms"] == t["deadline_ms"] + 5000 + 1000 * [45, 30, 15, 15, 15][floor - 1]
    assert got == [60, 45, 30, 15, 15]


def test_countdown_out_when_adding_none_and_early_end(R):
    s = play(R, R.setup(NAMES[:3], {"mode": "countdown"}, 1), {"type": "begin"})
    s = play(R, s, {"type": "pieces", "player": 0, "pieces": 4}, {"type": "pieces", "player": 1, "pieces": 0})
    assert s["phase"] == "floor" and s["floor"] == 1
    s = play(R, s, {"type": "pieces", "player": 2, "pieces": 3}, now=T0 + 20_000)   # all in: ends early
    assert s["floor"] == 2 and s["players"][1]["out"] and s["timer"]["duration_ms"] == 45_000
    assert R.validate(s, {"type": "pieces", "player": 1, "pieces": 2})
    s = play(R, s, {"type": "pieces", "player": 0, "pieces": 2}, {"type": "pieces", "player": 2, "pieces": 0})
    s = play(R, s, {"type": "pieces", "player": 0, "pieces": 0})
    res = R.result(s)
    assert [r["score"] for r in res["scores"]] == [6, 0, 3] and res["winners"] == [0] and res["unit"] == "pieces"
    assert [b["label"] for b in res["scores"][0]["breakdown"]] == ["Floor 1", "Floor 2", "Floor 3"]


def test_countdown_table_ends_a_floor_and_shares_the_supply(R):
    s = play(R, R.setup(NAMES[:2], {"mode": "countdown", "floor_seconds": [10]}, 1), {"type": "begin"})
    assert s["timer"]["duration_ms"] == 10_000
    s = play(R, s, {"type": "end-floor"})
    assert s["phase"] == "count" and s["timer"] is None
    assert R.validate(s, {"type": "pieces", "player": 0, "pieces": 70}) == ["only 69 pieces are left in the middle"]


# -------------------------------------------------------------------------------------- main game
def test_start_on_the_perimeter_only(R):
    s = R.setup(NAMES[:2], {}, 1)
    assert R.validate(s, {"type": "start", "player": 0, "site": "nakano-1"}) == \
        ["architects start on a site card of the outer perimeter of the map"]
    s = play(R, s, {"type": "start", "player": 0, "site": "suginami-1"})
    assert s["map"]["0,0"] is None and s["players"][0]["site"] == "suginami-1"
    assert R.validate(s, {"type": "start", "player": 1, "site": "suginami-1"})


def test_each_player_chooses_an_architect_token(R, g):
    """"each player chooses one architect token": a token nobody has placed changes hands with the
    chooser's; one already on the map is refused; leaving it out keeps the seat's own."""
    s = R.setup(NAMES[:3], {}, 1)
    assert [p["architect"] for p in s["players"]] == [a.id for a in g.architects[:3]]
    s = play(R, s, {"type": "start", "player": 0, "site": "suginami-1", "architect": "blue"})
    assert [p["architect"] for p in s["players"]] == ["blue", "red", "green"]       # Ben had not placed
    assert R.validate(s, {"type": "start", "player": 2, "site": "taito-2", "architect": "blue"}) == \
        ["Aki has placed that architect already"]
    assert R.validate(s, {"type": "start", "player": 2, "site": "taito-2", "architect": "gold"})[0] \
        .startswith("architect must be one of the tokens")
    s = play(R, s, {"type": "start", "player": 2, "site": "taito-2", "architect": "pink"},
             {"type": "start", "player": 1, "site": "setagaya-3"})
    assert [p["architect"] for p in s["players"]] == ["blue", "red", "pink"]
    assert len({p["architect"] for p in s["players"]}) == 3
    assert R.describe(R.setup(NAMES[:2], {}, 1), {"type": "start", "player": 0, "site": "suginami-1",
                                                   "architect": "pink"}).startswith("Aki takes architect 8 (Pink)")


def test_movement_through_gaps(g, R):
    s = R.setup(NAMES[:2], {}, 1)
    # From [1, 2] (nakano-4) to the right, the centre [2..3, 2] is a gap: one step lands on [4, 2].
    s["map"]["1,2"] = None
    near = main.reachable(R, s, "1,2", 1)
    assert near == {"0,2", "1,1", "1,3", "4,2"}
    # With [4, 2] taken too, one step right passes the centre and the taken card: [5, 2].
    s["map"]["4,2"] = None
    assert main.reachable(R, s, "1,2", 1) == {"0,2", "1,1", "1,3", "5,2"}
    # Two steps, turning allowed (never a diagonal step), gaps passed through.
    assert main.reachable(R, s, "1,2", 2) == {"0,2", "1,1", "1,3", "5,2", "0,1", "0,3", "1,0", "2,1",
                                              "1,4", "4,3", "5,1", "5,3"}


def test_stop_verdicts_movement_and_several_at_once(R):
    s = started(R, 3)
    s = play(R, s, {"type": "stop", "player": 0}, now=T0 + 30_000)
    assert s["phase"] == "check"
    s = play(R, s, {"type": "stop", "player": 2})                 # at the same time: both checked
    assert R.validate(s, {"type": "verdict", "player": 0, "builder": 0, "ok": True}) == \
        ["another player checks a building, not its builder"]
    s = play(R, s, {"type": "verdict", "player": 1, "builder": 0, "ok": True})
    assert s["phase"] == "check"
    s = play(R, s, {"type": "verdict", "player": 1, "builder": 2, "ok": True})
    # both completed: suginami-1 white 9,000; setagaya-3: the richer moves first
    y0, y2 = (s["players"][p]["kept"][0]["yen"] for p in (0, 2))
    first = 0 if y0 >= y2 else 2
    assert s["phase"] == "move" and s["movers"][0] == first
    assert s["movers"] == [(first + i) % 3 for i in range(3)]
    cur = s["movers"][0]
    assert R.validate(s, {"type": "stay", "player": cur})            # completed: must move
    dest = main.destinations(R, s, cur)[0]
    s = play(R, s, {"type": "move", "player": cur, "site": s["map"][sorted(dest)[0]]})
    for p in s["movers"][1:]:
        if s["players"][p]["site"] is None:
            s = play(R, s, {"type": "move", "player": p, "site": s["map"][sorted(main.destinations(R, s, p)[0])[0]]})
        else:
            s = play(R, s, {"type": "stay", "player": p})
    assert s["phase"] == "ready" and s["round"] == 1


def test_a_rejected_building_builds_on(R):
    s = started(R, 2)
    s = play(R, s, {"type": "stop", "player": 1}, {"type": "verdict", "player": 0, "builder": 1, "ok": False})
    assert s["phase"] == "building" and s["players"][1]["kept"] == []
    s = play(R, s, {"type": "stop", "player": 1}, {"type": "verdict", "player": 0, "builder": 1, "ok": True})
    assert s["phase"] == "move" and s["movers"] == [1, 0]


def test_a_timed_round_pauses_while_checking_and_runs_out(R):
    s = started(R, 2, round_seconds=90)
    assert s["timer"]["deadline_ms"] == T0 + 90_000
    s = play(R, s, {"type": "stop", "player": 0}, now=T0 + 30_000)
    assert s["timer"]["status"] == clock.PAUSED and s["timer"]["remaining_ms"] == 60_000
    s = play(R, s, {"type": "verdict", "player": 1, "builder": 0, "ok": False}, now=T0 + 50_000)
    assert s["timer"]["deadline_ms"] == T0 + 110_000
    s = R.on_expire(s, "round", Ctx(T0 + 110_000, None))
    assert s["phase"] == "ready" and all(p["site"] for p in s["players"])


def test_the_end_at_the_fourth_card_and_shared_victory(R):
    s = started(R, 2)
    for pl, sites in zip(s["players"], (["meguro-1", "taito-1", "nakano-1"], ["meguro-3", "taito-3", "nakano-3"])):
        pl["kept"] = [{"site": x, "side": "white", "yen": 10000, "round": 0} for x in sites]
    s = play(R, s, {"type": "stop", "player": 0}, {"type": "stop", "player": 1},
             {"type": "verdict", "player": 1, "builder": 0, "ok": True},
             {"type": "verdict", "player": 0, "builder": 1, "ok": True})
    res = R.result(s)
    assert s["phase"] == "over" and res["unit"] == "yen"
    y = [r["score"] for r in res["scores"]]
    assert res["winners"] == ([0, 1] if y[0] == y[1] else [y.index(max(y))])
    s2 = {**s, "players": [dict(p, kept=[dict(k, yen=10000) for k in p["kept"]]) for p in s["players"]]}
    assert R.result(s2)["winners"] == [0, 1]                       # ties share the victory
    assert len(res["scores"][0]["breakdown"]) == 4


# ------------------------------------------------------------------------------------- Bottle Bonus
def bottle_round(R, chance, n=3):
    s = started(R, n, bottle_bonus=True, chance=chance)
    return play(R, s, {"type": "stop", "player": 0}, {"type": "verdict", "player": 1, "builder": 0, "ok": True})


def test_bottle_bonus_companion_draws_from_the_seed(R):
    s = bottle_round(R, "companion")
    assert s["phase"] == "grab" and len(s["offer"]) == 2 and sum(s["box"].values()) == 34
    assert bottle_round(R, "companion")["offer"] == s["offer"]            # seeded: the same draw
    assert R.public_view(s, 1)["seed"] is None
    assert R.validate(s, {"type": "grab", "player": 0, "drink": s["offer"][0]}) == ["Aki does not grab now"]
    s = play(R, s, {"type": "grab", "player": 1, "drink": s["offer"][0]}, {"type": "grab", "player": 2, "drink": None})
    assert s["phase"] == "move" and sum(s["box"].values()) == 35 and sum(s["players"][1]["drinks"].values()) == 1


def test_bottle_bonus_table_enters_the_draw_and_blue_pays_200_if_won(R):
    s = bottle_round(R, "table")
    assert s["phase"] == "draw"
    assert R.validate(s, {"type": "draw-drinks", "drinks": ["blue"]}) == ["Aki draws 2 drinks, one per other player"]
    s = play(R, s, {"type": "draw-drinks", "drinks": ["blue", "purple"]},
             {"type": "grab", "player": 1, "drink": "blue"}, {"type": "grab", "player": 2, "drink": "purple"})
    # everyone moves; then Ben spends blue before the round and wins it
    for p in s["movers"]:
        if s["players"][p]["site"] is None:
            s = play(R, s, {"type": "move", "player": p, "site": s["map"][sorted(main.destinations(R, s, p)[0])[0]]})
        elif p == 2:                                                  # purple: anywhere
            far = s["map"]["5,5"] and "5,5" or sorted(main.available(s))[-1]
            s = play(R, s, {"type": "move", "player": 2, "site": s["map"][far], "purple": True})
            assert s["players"][2]["drinks"] == {}
        else:
            s = play(R, s, {"type": "stay", "player": p})
    assert R.validate(s, {"type": "spend", "player": 1, "drink": "mint"}) == ["Ben has no mint drink"]
    s = play(R, s, {"type": "spend", "player": 1, "drink": "blue"}, {"type": "begin"},
             {"type": "stop", "player": 1}, {"type": "verdict", "player": 0, "builder": 1, "ok": True})
    assert s["players"][1]["blue"] == 1
    s["phase"] = "over"
    row = R.result(s)["scores"][1]
    assert row["breakdown"][-1] == {"label": "Blue drinks kept (1 x ¥200)", "value": 200}


def test_black_flips_the_site_card(R, g):
    s = R.setup(NAMES[:2], {"bottle_bonus": True}, 1)
    s = play(R, s, {"type": "start", "player": 0, "site": "suginami-1"},
             {"type": "start", "player": 1, "site": "taito-2"})
    s["players"][0]["drinks"] = {"black": 1}
    s = play(R, s, {"type": "spend", "player": 0, "drink": "black"}, {"type": "begin"})
    assert s["players"][0]["side"] == "blue"
    assert R.validate(s, {"type": "spend", "player": 0, "drink": "black"})
    s = play(R, s, {"type": "stop", "player": 0}, {"type": "verdict", "player": 1, "builder": 0, "ok": True})
    assert s["players"][0]["kept"][0]["yen"] == g.site["suginami-1"].blue.yen


def test_white_mint_and_red_are_spent_once_at_their_moment_and_go_back_to_the_box(R, g):
    """The powers the players play out with the pieces (white: a piece before the others begin;
    mint: put a piece back; red: two pieces at once) are tracked until spent: each at its moment
    (drinks.toml `when`), once, recorded in `powers` and returned to the box."""
    s = R.setup(NAMES[:2], {"bottle_bonus": True}, 1)
    s = play(R, s, {"type": "start", "player": 0, "site": "suginami-1"},
             {"type": "start", "player": 1, "site": "taito-2"})
    s["players"][0]["drinks"] = {"white": 1, "mint": 1, "red": 1}
    for d in ("white", "mint", "red"):
        s["box"][d] -= 1
    box = dict(s["box"])
    assert g.drink["mint"].when == g.drink["red"].when == "during-round"
    assert R.validate(s, {"type": "spend", "player": 0, "drink": "mint"}) == \
        ["a mint drink is spent during a building round"]
    s = play(R, s, {"type": "spend", "player": 0, "drink": "white"}, {"type": "begin"})
    assert R.validate(s, {"type": "spend", "player": 0, "drink": "white"}) == ["Aki has no white drink"]
    s = play(R, s, {"type": "spend", "player": 0, "drink": "mint"}, {"type": "spend", "player": 0, "drink": "red"})
    assert s["players"][0]["drinks"] == {}
    assert [(x["drink"], x["round"]) for x in s["powers"]] == [("white", 1), ("mint", 1), ("red", 1)]
    assert {d: s["box"][d] - box[d] for d in ("white", "mint", "red")} == {"white": 1, "mint": 1, "red": 1}
    assert R.validate(s, {"type": "spend", "player": 0, "drink": "red"}) == ["Aki has no red drink"]


# ---------------------------------------------------------------------------------------- Izakaya
def test_izakaya_secret_bids_order_and_ties_swap(R):
    s = iz_setup(R, 3)
    assert s["order"] == [0, 1, 2]
    s = play(R, s, {"type": "bid", "player": 0, "amount": 200})
    assert R.public_view(s, 1)["bids"] == {"0": "sealed"} and R.public_view(s, 0)["bids"] == {"0": 200}
    assert R.public_move({"type": "bid", "player": 0, "amount": 200}, 1)["amount"] == "sealed"
    assert R.validate(s, {"type": "bid", "player": 1, "amount": 150})
    s = play(R, s, {"type": "bid", "player": 1, "amount": 300}, {"type": "bid", "player": 2, "amount": 200})
    assert s["order"] == [1, 2, 0]                                # 0 and 2 tied: they swap
    assert s["pile"] == 700 and [p["yen"] for p in s["players"]] == [800, 700, 800]
    assert s["phase"] == "actions" and R.actors(s).seats == (1,)


def test_izakaya_four_card_corners_first_and_one_disc_per_colour(R):
    s = iz_setup(R, 4)
    s = play(R, s, *[{"type": "bid", "player": p, "amount": 0} for p in range(4)])
    p = izakaya.current(s)
    assert R.validate(s, {"type": "bottle", "player": p, "drink": "white", "corner": [0, 1]}) == \
        ["every corner shared by 4 cards needs a drink before a corner shared by 2"]
    assert R.validate(s, {"type": "bottle", "player": p, "drink": "white", "corner": [0, 0]}) == \
        ["a drink never goes on an outside corner of a single card"]
    s = play(R, s, {"type": "bottle", "player": p, "drink": "white", "corner": [1, 1]})
    q = izakaya.current(s)
    assert R.validate(s, {"type": "bottle", "player": q, "drink": "white", "corner": [2, 2]}) == \
        ["a disc is on the white stock card already this action phase"]
    s = play(R, s, {"type": "price", "player": q, "from": "black", "to": "blue"})
    assert s["prices"]["black"] == 0 and s["prices"]["blue"] == 400
    assert R.validate(s, {"type": "price", "player": izakaya.current(s), "from": "mint", "to": "red"})


def test_izakaya_claim_line_of_three_bonus(R):
    s = iz_setup(R, 4)
    s = play(R, s, *[{"type": "bid", "player": p, "amount": 0} for p in range(4)])
    p = izakaya.current(s)
    s["edges"] = {izakaya.edge_key((0, 0), (1, 0)): p, izakaya.edge_key((1, 0), (2, 0)): p}
    s = play(R, s, {"type": "claim", "player": p, "edge": [[2, 0], [3, 0]], "site": [3, 0]})
    assert s["bonus"] == p and s["owners"] == {"3,0": p} and len(s["lines"]) == 1
    assert R.validate(s, {"type": "price", "player": p, "from": "mint", "to": "red"})
    turn = s["turn"]
    s = play(R, s, {"type": "build", "player": p, "site": [3, 0], "floors": 1})
    assert s["bonus"] is None and s["turn"] == turn + 1 and s["pieces_left"] == 68


def test_izakaya_end_after_the_threshold_and_tie_break_on_kept_yen(R):
    s = iz_setup(R, 2)
    s = play(R, s, {"type": "bid", "player": 0, "amount": 800}, {"type": "bid", "player": 1, "amount": 700})
    assert s["final"] is True and s["pile"] == 1500
    while s["phase"] == "actions":
        p = izakaya.current(s)
        s = play(R, s, {"type": "build", "player": p, "site": [0, 0], "floors": 1})
    assert s["phase"] == "over"
    res = R.result(s)
    assert [r["score"] for r in res["scores"]] == [200, 300] and res["winners"] == [1]
    s2 = {**s, "owners": {"0,0": 0}, "corners": {"1,1": "black"}}       # 0: 200 + 1 x 100 = 300
    res2 = R.result(s2)
    assert [r["score"] for r in res2["scores"]] == [300, 300] and res2["winners"] == [1]  # most yen kept
    # the breakdown names the drinks touching the card (issue: "the cards, drinks or floors")
    s3 = {**s, "owners": {"0,0": 0}, "corners": {"1,1": "black", "0,1": "red"}}
    label, value = [(b["label"], b["value"]) for b in R.result(s3)["scores"][0]["breakdown"]][1]
    names = {d: R.data.drink[d].name for d in ("black", "red")}
    assert value == s3["prices"]["black"] + s3["prices"]["red"]
    assert label.endswith(f"1 floor x ({names['red']} ¥{s3['prices']['red']:,} + "
                          f"{names['black']} ¥{s3['prices']['black']:,})") or \
        label.endswith(f"1 floor x ({names['black']} ¥{s3['prices']['black']:,} + "
                       f"{names['red']} ¥{s3['prices']['red']:,})"), label


# --------------------------------------------------------------------------------- options, playouts
def test_options(R):
    assert R.validate_options(NAMES[:1], {"mode": "izakaya"}) == ["Izakaya is for 2 to 5 players, not 1"]
    assert R.validate_options(NAMES[:2], {"mode": "countdown", "bottle_bonus": True})
    assert R.validate_options(NAMES[:2], {"floor_seconds": []})
    assert R.validate_options(NAMES[:2], {"colour": "red"})
    with pytest.raises(IllegalMove):
        R.setup(NAMES[:6], {"mode": "izakaya"}, 1)


MODES = {
    "jutaku": ({}, (1, 8)),
    "jutaku-timed": ({"round_seconds": 20}, (1, 8)),
    "bottle-companion": ({"bottle_bonus": True, "chance": "companion", "round_seconds": 40}, (1, 8)),
    "bottle-table": ({"bottle_bonus": True, "chance": "table"}, (1, 8)),
    "countdown": ({"mode": "countdown"}, (1, 8)),
    "izakaya-table": ({"mode": "izakaya"}, (2, 5)),
    "izakaya-companion": ({"mode": "izakaya", "chance": "companion"}, (2, 5)),
}


@pytest.mark.parametrize("mode", list(MODES))
def test_random_playouts_of_every_mode(g, mode):
    opts, players = MODES[mode]

    class Moded(JutakuRules):
        chance_modes = {mode: opts}

    game = Game("jutaku", "Tokyo Jutaku", players, Moded(g), g)
    for seed in range(6):
        n = players[0] + seed % (players[1] - players[0] + 1)
        states, log, res = playout(game, n, mode, seed)
        assert replay(game, n, mode, seed, log) == states[-1]
        check_result(res, n)
        assert game.actors(states[-1]).mode == "none" and game.legal(states[-1]).moves == []


def test_countdown_seconds_for(g):
    assert [countdown.seconds_for(g, n) for n in range(1, 7)] == [60, 45, 30, 15, 15, 15]
    with pytest.raises(ValueError):
        countdown.seconds_for(g, 0)


def test_moving_away_puts_the_card_back_and_no_card_in_reach_means_any(R):
    s = started(R, 2)
    s = play(R, s, {"type": "stop", "player": 0}, {"type": "verdict", "player": 1, "builder": 0, "ok": True})
    s = play(R, s, {"type": "move", "player": 0, "site": s["map"][sorted(main.destinations(R, s, 0)[0])[0]]})
    # Ben did not complete: he may move, and his card goes back on its square
    assert s["players"][1]["at"] == "5,0" and s["map"]["5,0"] is None
    s = play(R, s, {"type": "move", "player": 1, "site": "taito-3"})
    assert s["map"]["5,0"] == "taito-2" and s["players"][1]["site"] == "taito-3"
    # a map with no free card within 2 spaces: any free card will do
    far = {k: None for k in s["map"]}
    far["0,5"] = "setagaya-3"
    s2 = {**s, "map": far}
    assert main.destinations(R, s2, 1) == ({"0,5"}, True)


# -- issue 25: a fair Begin! in Bottle Bonus -----------------------------------------------------------
def test_bottle_bonus_the_round_begins_when_every_drink_holder_is_ready(R):
    """"BLACK: Spend this drink to flip over your site card before you start building on it", "WHITE:
    ... place 1 piece on your site card before the round begins", "BLUE: Spend this drink before one
    round of building": whoever taps Begin! first must not close that window for the others. A
    seat's Begin! is refused while a player holding such a drink has not said Ready (the host may
    begin: the table's ruling); the last holder's Ready begins the round."""
    s = R.setup(NAMES[:3], {"bottle_bonus": True}, 1)
    s = play(R, s, *[{"type": "start", "player": p, "site": site}
                     for p, site in enumerate(["suginami-1", "taito-2", "setagaya-3"])])
    s["players"][0]["drinks"] = {"black": 1}
    s["players"][1]["drinks"] = {"white": 1, "mint": 1}
    s["players"][2]["drinks"] = {"mint": 1}                       # spent during the round: not waited for
    seat2 = Ctx(0, 2)
    reasons = R.validate(s, {"type": "begin"}, seat2)
    assert reasons and "Aki and Ben are still deciding" in reasons[0]
    assert R.actors(s).seats == (0, 1) and "Aki and Ben may spend a drink now" in R.needs(s)["prompt"]
    assert {"type": "begin"} not in R.legal_moves(s).moves
    assert R.validate(s, {"type": "ready", "player": 2}) == ["Chie holds no drink to spend before the round"]
    s = play(R, s, {"type": "spend", "player": 0, "drink": "black"})        # Aki spent her only one: done
    assert R.validate(s, {"type": "begin"}, seat2) and R.actors(s).seats == (1,)
    assert R.describe(s, {"type": "ready", "player": 1}) == "Ben is ready. Round 1 begins: everyone builds!"
    s = play(R, s, {"type": "ready", "player": 1})                          # Ben keeps his white drink
    assert s["phase"] == "building" and s["round"] == 1 and s["players"][1]["drinks"] == {"white": 1, "mint": 1}
    assert R.validate(s, {"type": "ready", "player": 1})                    # too late now


def test_bottle_bonus_begin_is_as_before_when_nobody_holds_a_drink_to_spend(R):
    s = R.setup(NAMES[:2], {"bottle_bonus": True}, 1)
    s = play(R, s, {"type": "start", "player": 0, "site": "suginami-1"},
             {"type": "start", "player": 1, "site": "taito-2"})
    assert R.validate(s, {"type": "begin"}, Ctx(0, 1)) == [] and {"type": "begin"} in R.legal_moves(s).moves
    assert "Round 1: press Begin!" in R.needs(s)["prompt"]
    s["players"][0]["drinks"] = {"blue": 1}
    assert R.validate(s, {"type": "begin"}, Ctx(0, 1)) and R.validate(s, {"type": "begin"}, Ctx(0, "host")) == []
