"""Shin Bikkuri Man's rules engine: the rules text sentence by sentence, and every edge case of the
reference (../shared/reference/shin-bikkuri-man.md, "Edge cases the BGA implementation met")."""
from __future__ import annotations

import copy

import pytest

from companion.games.contract import HOST, Ctx, IllegalMove
from companion.games.shin_bikkuri_man.rules import engine

from .helpers import D, NAMES, R, make, rows

GEO = R.geometry


def apply(state, move):
    reasons = R.validate(state, move)
    assert reasons == [], reasons
    return R.apply(state, move)


def refused(state, move, *words):
    reasons = R.validate(state, move)
    assert reasons, f"accepted: {move}"
    text = " ".join(reasons)
    for w in words:
        assert w in text, (w, reasons)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove):
        R.apply(state, move)
    assert state == before
    return reasons


def build(tile, squares, brick, **extra):
    return {"type": "build", "player": 0, "tile": tile, "squares": [list(s) for s in squares],
            "brick": list(brick) if brick else None, **extra}


# ------------------------------------------------------------------------------------------ set-up
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_by_seat_and_counts_by_player_count(players):
    s = R.setup(NAMES[:players], {"deck": "companion"}, 3)
    assert len(s["harbour"]) == D.turn.harbour == 7
    assert [engine.hand_size(p["hand"]) for p in s["players"]] == [2, 3, 3, 4][:players]
    per = {2: 14, 3: 12, 4: 14}[players]
    in_play = engine.deck_count(s) + 7 + sum([2, 3, 3, 4][:players])
    assert in_play == 5 * per
    # the end card: in the bottom 10 at set-up with 2 players, not yet with 3-4
    assert (engine.END in s["deck"]) == (players == 2)
    if players == 2:
        assert s["deck"].index(engine.END) >= len(s["deck"]) - 11
    # tiles by player count: 2 copies of sizes 2-4 with 2 players, 3rd copy of 2 and 4 gone with 3
    sizes = {2: (2, 2, 2, 1), 3: (2, 3, 2, 1), 4: (3, 3, 3, 1)}[players]
    for colour in ("red", "purple"):
        assert [s["supply"][f"{colour}-{n}"] for n in (2, 3, 4, 5)] == list(sizes)
    assert s["supply"]["white-1"] == 12
    assert all(p["abilities"] == {"any-cards": "ready"} for p in s["players"])


def test_table_mode_set_up_is_entered_and_checked_against_the_deck():
    s = R.setup(NAMES[:2], {"deck": "table"}, 0)
    assert s["phase"] == "deal" and R.actors(s).mode == "all"
    refused(s, {"type": "deal-hand", "player": 1, "cards": ["red", "red"]}, "3 cards")
    refused(s, {"type": "fill-harbour", "cards": ["red"] * 15}, "7 cards")
    s = apply(s, {"type": "deal-hand", "player": 0, "cards": ["red", "red"]})
    s = apply(s, {"type": "fill-harbour", "cards": ["red"] * 7})
    s = apply(s, {"type": "deal-hand", "player": 1, "cards": ["red"] * 3})     # 12 of 14 red
    assert s["phase"] == "turn" and s["current"] == 0
    s = R.setup(NAMES[:4], {"deck": "table"}, 0)
    s = apply(s, {"type": "fill-harbour", "cards": ["red"] * 7})
    s = apply(s, {"type": "deal-hand", "player": 3, "cards": ["red"] * 4})
    s = apply(s, {"type": "deal-hand", "player": 2, "cards": ["red"] * 3})     # all 14 red
    # all 14 red are out, but 7 only in hands: an entry is judged on public information (the
    # harbour's 7), so player 1's red is accepted and shown to the host as a conflict (no seat's
    # own hand shows it: 1, 3 and 4 red with the harbour's 7 are not over 14)
    s_red = apply(s, {"type": "deal-hand", "player": 1, "cards": ["red", "blue", "blue"]})
    assert [(c["card"], c["over"], c["players"]) for c in R.public_view(s_red, HOST)["conflicts"]] \
        == [("red", 1, [1, 2, 3])]
    assert all(R.public_view(s_red, v)["conflicts"] == [] for v in (None, 0, 1, 2, 3))
    assert all(R.public_view(s_red, v)["owed"] is None for v in (None, 0, 1, 2, 3))
    assert R.table_facts(s_red) == R.table_facts(apply(s, {"type": "deal-hand", "player": 1,
                                                            "cards": ["blue"] * 3}))
    # the correction move (player 1's own, at any time) settles it: the deck's bookkeeping is exact
    s_red = apply(s_red, {"type": "correct-card", "player": 1, "was": "red", "now": "blue"})
    assert R.public_view(s_red, HOST)["conflicts"] == [] and s_red["owed"] == []
    refused(s_red, {"type": "correct-card", "player": 1, "was": "red", "now": "blue"}, "holds no red")
    s = apply(s, {"type": "deal-hand", "player": 1, "cards": ["blue"] * 3})
    assert s_red["deck"] == s["deck"] and s_red["players"][1] == s["players"][1]
    s = apply(s, {"type": "deal-hand", "player": 0, "cards": ["green"] * 2})
    assert s["phase"] == "turn" and s["current"] == 0
    # a seat may enter only its own hand
    s2 = R.setup(NAMES[:2], {"deck": "table"}, 0)
    assert R.validate(s2, {"type": "deal-hand", "player": 1, "cards": ["red"] * 3}, Ctx(0, 0))


def test_options_are_checked():
    assert R.validate_options(NAMES[:1], {}) and R.validate_options(NAMES[:4] + ["Emi"], {})
    assert R.validate_options(NAMES[:2], {"deck": "dice"})
    assert R.validate_options(NAMES[:2], {"start_player": 5})
    s = R.setup(NAMES[:3], {"deck": "companion", "start_player": 2}, 1)
    assert s["current"] == 2
    assert [engine.hand_size(s["players"][p]["hand"]) for p in (2, 0, 1)] == [2, 3, 3]


def _dealt(hand0):
    """A 2-player table-deck game (14 cards a colour) whose harbour holds 7 purple, seat 1's hand 3
    purple and seat 0's `hand0`."""
    s = R.setup(NAMES[:2], {"deck": "table"}, 0)
    s = apply(s, {"type": "fill-harbour", "cards": ["purple"] * 7})
    s = apply(s, {"type": "deal-hand", "player": 0, "cards": hand0})
    return apply(s, {"type": "deal-hand", "player": 1, "cards": ["purple"] * 3})


def test_refusals_and_listings_never_tell_a_starting_hand():
    """Issue 26 (reproduced): with the table's deck, "the deck holds no purple card now" and "the
    harbour has 2 empty spaces, not 11" gave the deck's contents, hence the opponent's starting
    hand, and the sample refills in `legal` showed which colours were missing. Two tables that
    differ only in seat 0's hand (7 purple in the harbour and 3 in seat 1's hand; seat 0 holding 2
    more, so the deck holds 2 or 4) give seat 1 and a spectator the same answers to every refill."""
    twins = [_dealt(["purple", "purple"]), _dealt(["blue", "blue"])]
    for i, s in enumerate(twins):         # seat 0 takes 2 purple cards: 2 spaces to refill
        s = apply(s, {"type": "take", "player": 0, "spaces": [0, 1]})
        assert s["phase"] == "refill"
        twins[i] = s
    probes = [{"type": "refill", "cards": cards} for colour in D.colours for cards in
              [[colour.id] * n for n in range(1, 12)] + [[colour.id, engine.END]]]
    for viewer in (1, None):
        assert R.public_view(twins[0], viewer) == R.public_view(twins[1], viewer)
        for m in probes:
            ctx = Ctx(0, viewer)
            assert R.validate(twins[0], m, ctx) == R.validate(twins[1], m, ctx), m
    assert R.legal_moves(twins[0], 1).moves == R.legal_moves(twins[1], 1).moves
    assert R.needs(twins[0]) == R.needs(twins[1]) and R.table_facts(twins[0]) == R.table_facts(twins[1])
    refused(twins[1], {"type": "refill", "cards": ["red"] * 11}, "2 empty spaces, not 11")
    # a purple refill is judged on public cards (5 in the harbour of 14): accepted at both tables,
    # and what seat 1 and a spectator see next is the same too
    after = [R.apply(s, {"type": "refill", "cards": ["purple", "red"]}, Ctx(0, 1)) for s in twins]
    for viewer in (1, None):
        assert R.public_view(after[0], viewer) == R.public_view(after[1], viewer)
    assert R.table_facts(after[0]) == R.table_facts(after[1])


# ------------------------------------------------------------------------------------- drawing cards
HARBOUR = ["red", "yellow", "green", "blue", "purple", "red", "blue"]


def test_take_one_card_and_one_adjacent(rules_text):
    s = make(hand={}, harbour=HARBOUR)
    s2 = apply(s, {"type": "take", "player": 0, "spaces": [2, 3]})
    assert s2["players"][0]["hand"]["green"] == 1 and s2["players"][0]["hand"]["blue"] == 1
    # the rest slide together and the harbour is refilled to 7 at the end of the turn
    assert s2["harbour"][:5] == ["red", "yellow", "purple", "red", "blue"] and len(s2["harbour"]) == 7
    assert s2["current"] == 1
    refused(s, {"type": "take", "player": 0, "spaces": [1, 3]}, "next to each other")
    refused(s, {"type": "take", "player": 0, "spaces": [2]}, "take 2 cards")
    refused(s, {"type": "take", "player": 1, "spaces": [2, 3]}, "turn")
    text = rules_text("shin-bikkuri-man.txt")
    assert "1 more card immediately adjacent to the first" in text


def test_no_wrap_around(rules_text):
    s = make(hand={}, harbour=HARBOUR)
    refused(s, {"type": "take", "player": 0, "spaces": [6, 0]}, "not next to the first")
    assert 'does NOT "wrap around"' in rules_text("shin-bikkuri-man.txt")


def test_hand_limit_discard_at_once(rules_text):
    s = make(hand={"red": 4, "blue": 2}, harbour=HARBOUR)
    s = apply(s, {"type": "take", "player": 0, "spaces": [0, 1]})     # 8 cards: over the limit
    assert s["phase"] == "discard" and s["current"] == 0
    refused(s, {"type": "build", "player": 0, "tile": "red-2", "squares": [[1, 1], [2, 1]],
                "brick": [1, 1]}, "not a move now")
    refused(s, {"type": "discard", "player": 0, "cards": ["red", "red"]}, "discard 1")
    refused(s, {"type": "discard", "player": 0, "cards": ["green"]}, "only 0 green")
    s = apply(s, {"type": "discard", "player": 0, "cards": ["yellow"]})
    assert engine.hand_size(s["players"][0]["hand"]) == D.turn.hand_limit == 7
    assert s["discard"]["yellow"] == 1 and s["current"] == 1
    assert "hand limit, which is 7 cards" in rules_text("shin-bikkuri-man.txt")


def test_any_cards_takes_from_anywhere_and_is_spent():
    s = make(hand={}, harbour=HARBOUR)
    s2 = apply(s, {"type": "take", "player": 0, "spaces": [0, 6], "abilities": ["any-cards"]})
    assert s2["players"][0]["abilities"]["any-cards"] == "used"
    refused(s2 | {"current": 0, "phase": "turn"},
            {"type": "take", "player": 0, "spaces": [0, 6], "abilities": ["any-cards"]}, "used")


def test_edge_any_cards_not_spent_when_the_cards_are_adjacent_anyway():
    s = make(hand={}, harbour=HARBOUR)
    s2 = apply(s, {"type": "take", "player": 0, "spaces": [3, 4], "abilities": ["any-cards"]})
    assert s2["players"][0]["abilities"]["any-cards"] == "ready"


def test_additional_card_takes_three():
    s = make(hand={}, harbour=HARBOUR)
    s["players"][0]["abilities"]["additional-card"] = "ready"
    refused(s, {"type": "take", "player": 0, "spaces": [0, 1], "abilities": ["additional-card"]}, "take 3")
    s2 = apply(s, {"type": "take", "player": 0, "spaces": [0, 1, 2], "abilities": ["additional-card"]})
    assert engine.hand_size(s2["players"][0]["hand"]) == 3
    assert s2["players"][0]["abilities"]["additional-card"] == "used"
    s3 = apply(s, {"type": "take", "player": 0, "spaces": [0, 3, 6],
                   "abilities": ["any-cards", "additional-card"]})
    assert engine.hand_size(s3["players"][0]["hand"]) == 3
    refused(make(hand={}, harbour=HARBOUR),
            {"type": "take", "player": 0, "spaces": [0, 1, 2], "abilities": ["additional-card"]}, "no Additional")


# ------------------------------------------------------------------------------------------ building
def test_cost_is_one_card_per_square_of_its_colour(rules_text):
    s = make(hand={"red": 3, "blue": 5})
    m = build("red-3", [(1, 1), (2, 1), (1, 2)], (1, 2))     # L: brick at the end of a leg
    s2 = apply(s, m)
    assert s2["players"][0]["hand"] == {"red": 0, "yellow": 0, "green": 0, "blue": 5, "purple": 0}
    assert s2["discard"]["red"] == 3 and s2["supply"]["red-3"] == s["supply"]["red-3"] - 1
    assert s2["players"][0]["facade"][-1] == "rr..." and s2["players"][0]["facade"][-2] == "R...."
    refused(make(hand={"red": 2, "blue": 5}), m, "costs 3")
    assert "discards a number of cards equal to the number of square" in rules_text("shin-bikkuri-man.txt")


def test_same_colour_discount_and_edge_construction_discount_add_up():
    f = rows("Rr...")
    s = make(hand={"red": 2}, facade=f)
    m = build("red-3", [(3, 1), (4, 1), (3, 2)], (3, 2))      # touches the red tile: 3 - 1 = 2
    s2 = apply(s, m)
    assert s2["players"][0]["hand"]["red"] == 0
    s = make(hand={"red": 1}, facade=f)
    refused(s, m, "costs 2")
    s["players"][0]["abilities"]["construction-discount"] = "ready"
    s2 = apply(s, {**m, "abilities": ["construction-discount"]})          # 3 - 1 - 1 = 1
    assert s2["players"][0]["hand"]["red"] == 0
    assert s2["players"][0]["abilities"]["construction-discount"] == "used"
    # 2 - 1 - 1 = 0 (spent); a cost never goes below 0
    s = make(hand={}, facade=f)
    s["players"][0]["abilities"]["construction-discount"] = "ready"
    s2 = apply(s, {**build("red-2", [(3, 1), (4, 1)], (4, 1)), "abilities": ["construction-discount"]})
    assert s2["players"][0]["abilities"]["construction-discount"] == "used"
    assert s2["players"][0]["hand"]["red"] == 0
    ok = R.place({"board": rows("Rr..."), "tile": {"colour": "r", "squares": [[3, 1], [4, 1]],
                                                   "brick": [3, 1]}, "construction_discount": True})
    assert ok[2]["cost"] == 0


def test_change_of_colours_pays_with_another_colour():
    s = make(hand={"red": 1, "blue": 2})
    s["players"][0]["abilities"]["change-of-colours"] = "ready"
    m = build("red-3", [(1, 1), (2, 1), (1, 2)], (1, 2))
    refused(s, m, "costs 3")
    refused(s, {**m, "recolour": "blue"}, "needs the Change of Colours")
    s2 = apply(s, {**m, "abilities": ["change-of-colours"], "recolour": "blue"})
    assert s2["players"][0]["hand"]["red"] == 0 and s2["players"][0]["hand"]["blue"] == 0
    assert s2["players"][0]["abilities"]["change-of-colours"] == "used"
    s3 = apply(s, {**m, "abilities": ["change-of-colours"], "recolour": "blue",
                   "pay": {"blue": 2, "red": 1}})
    assert s3["discard"]["blue"] == 2
    refused(s, {**m, "abilities": ["change-of-colours"], "recolour": "blue", "pay": {"blue": 3}}, "only 2 blue")
    refused(s, {**m, "abilities": ["change-of-colours"], "recolour": "green", "pay": {"blue": 3}}, "do not pay")


def test_edge_change_of_colours_with_an_empty_hand_does_not_lock():
    s = make(hand={})
    s["players"][0]["abilities"]["change-of-colours"] = "ready"
    refused(s, {**build("red-2", [(1, 1), (2, 1)], (1, 1)), "abilities": ["change-of-colours"],
                "recolour": "blue"}, "costs 2")
    moves = R.legal_moves(s).moves
    assert any(m["type"] == "take" for m in moves)
    s2 = apply(s, moves[0])
    assert s2["current"] == 1 and s2["players"][0]["abilities"]["change-of-colours"] == "ready"


def test_support_bottom_row_or_above_a_tile_with_overhang(rules_text):
    f = rows("Pp...")
    s = make(hand={"red": 9, "blue": 9, "purple": 9}, facade=f)
    # floating in the air: refused
    refused(s, build("purple-2", [(3, 3), (4, 3)], (3, 3)), "not supported")
    # directly above a tile
    apply(s, build("purple-2", [(1, 2), (2, 2)], (1, 2)))
    # overhang: one square above the tile, the other over empty space
    apply(s, build("purple-2", [(2, 2), (3, 2)], (2, 2)))
    # anywhere on the bottom row
    apply(s, build("purple-2", [(4, 1), (5, 1)], (5, 1)))
    # overlap
    refused(s, build("purple-2", [(2, 1), (3, 1)], (3, 1)), "already covered")
    text = rules_text("shin-bikkuri-man.txt")
    assert "Any space on the bottom row" in text and "immediately above an existing tile" in text


def test_shapes_rotations_flips_and_bricks():
    s = make(hand={"blue": 9})
    # blue 4 (L: B W W with a window above the far end) rotated and flipped
    placements = GEO.placements["blue-4"]
    assert len({p.key() for p in placements}) == len(placements)
    for p in placements:
        if GEO.fits(0, p):
            apply(s, build("blue-4", p.squares, p.brick))
    refused(s, build("blue-4", [(1, 1), (2, 1), (3, 1), (4, 1)], (1, 1)), "no blue tile has this shape")
    refused(s, build("blue-4", [(1, 1), (2, 1), (3, 1), (3, 2)], (2, 1)), "brick is not where")
    refused(s, build("blue-4", [(1, 1), (2, 1), (3, 1), (3, 2)], None), "brick square")
    refused(s, build("blue-4", [(4, 1), (5, 1), (6, 1), (6, 2)], (4, 1)), "off the board")
    refused(s, build("blue-9", [(1, 1)], None), "tile must be")


def test_one_tile_per_turn_and_sold_out_tiles(rules_text):
    s = make(hand={"red": 9})
    s["players"][0]["abilities"]["both-actions"] = "ready"
    s = apply(s, {**build("red-2", [(1, 1), (2, 1)], (1, 1)), "abilities": ["both-actions"]})
    assert s["phase"] == "turn" and s["current"] == 0
    refused(s, build("red-2", [(3, 1), (4, 1)], (3, 1)), "only 1 tile")
    assert "Only one tile may be purchased in a turn" in rules_text("shin-bikkuri-man.txt")
    s = make(hand={"red": 9})
    s["supply"]["red-2"] = 0
    refused(s, build("red-2", [(1, 1), (2, 1)], (1, 1)), "no red 2-square tile is left")


def test_both_actions_take_then_build_or_end_the_turn():
    s = make(hand={"red": 2}, harbour=HARBOUR)
    s["players"][0]["abilities"]["both-actions"] = "ready"
    s1 = apply(s, {"type": "take", "player": 0, "spaces": [0, 1], "abilities": ["both-actions"]})
    assert s1["phase"] == "turn" and s1["current"] == 0 and len(s1["harbour"]) == 5
    refused(s1, {"type": "take", "player": 0, "spaces": [0, 1]}, "once a turn")
    s2 = apply(s1, build("red-3", [(1, 1), (2, 1), (1, 2)], (1, 2)))
    assert s2["current"] == 1 and len(s2["harbour"]) == 7
    assert s2["players"][0]["abilities"]["both-actions"] == "used"
    s3 = apply(s1, {"type": "end-turn", "player": 0})      # declared, but only one action taken
    assert s3["current"] == 1 and s3["players"][0]["abilities"]["both-actions"] == "ready"
    refused(s, {"type": "end-turn", "player": 0}, "first")


# ----------------------------------------------------------------------------------- coats of arms
def test_covering_a_coat_of_arms_gives_an_action(rules_text):
    f = rows("Rrrrr", "Rrrr.")
    s = make(hand={"purple": 3}, facade=f)
    s = apply(s, build("purple-3", [(3, 3), (3, 4), (3, 5)], (3, 5)))     # covers (3, 3)
    assert s["phase"] == "coats" and s["coats"] == 1 and s["current"] == 0
    s = apply(s, {"type": "take-ability", "player": 0, "ability": "both-actions"})
    assert s["players"][0]["abilities"]["both-actions"] == "ready" and s["current"] == 1
    assert "7 Coat of Arms spaces" in rules_text("shin-bikkuri-man.txt")


def test_completing_a_marked_row_gives_an_action_and_points():
    f = rows("PPppp", "Rrr..")
    s = make(hand={"blue": 2}, facade=f)
    s = apply(s, build("blue-2", [(4, 2), (5, 2)], (4, 2)))   # completes row 2 (coat at its end)
    assert s["players"][0]["points"] == 2 and s["last"]["points"] == 1
    assert s["last"]["rows"] == [2] and s["phase"] == "coats" and s["coats"] == 1


def test_white_tile_chains_another_action_and_edge_abilities_not_marked_used():
    f = rows("Rrrrr", "Rr.rr")
    s = make(hand={"purple": 2}, facade=f)
    s["players"][0]["abilities"]["both-actions"] = "ready"
    s = apply(s, build("purple-2", [(3, 2), (3, 3)], (3, 2)))   # completes row 2 and covers (3, 3)
    assert s["coats"] == 2
    s = apply(s, {"type": "special-tile", "player": 0, "square": [1, 3]})
    assert s["coats"] == 1 and s["players"][0]["facade"][-3][0] == "w"
    # placing a white tile does not mark any ability used (edge case)
    assert s["players"][0]["abilities"] == {"any-cards": "ready", "both-actions": "ready"}
    # white tile completing row 4? first fill row 3, then one white tile completes row 4's end
    s["players"][0]["facade"] = rows("Rrrrr", "Rrrrr", "wpwww", "wwww.")
    s = apply(s, {"type": "special-tile", "player": 0, "square": [5, 4]})   # completes row 4: +1
    assert s["phase"] == "coats" and s["coats"] == 1


def test_edge_white_tiles_follow_the_support_rule():
    s = make(hand={"purple": 2}, facade=rows("Rrrrr", "Rr.rr"))
    s = apply(s, build("purple-2", [(3, 2), (3, 3)], (3, 2)))
    refused(s, {"type": "special-tile", "player": 0, "square": [5, 5]}, "not supported")
    refused(s, {"type": "special-tile", "player": 0, "square": [3, 3]}, "already covered")


def test_edge_no_coat_action_possible_does_not_lock():
    s = make(hand={"blue": 2}, facade=rows("Rrrr.", "Rrrr."))
    for a in D.ability:
        s["players"][0]["abilities"][a] = "ready"      # every type held, none used
    s["supply"]["white-1"] = 0                        # and no white tile left
    s2 = apply(s, build("blue-2", [(5, 1), (5, 2)], (5, 1)))      # completes rows 1 and 2 (coat)
    assert s2["last"]["coats"] == 1
    assert s2["phase"] == "turn" and s2["coats"] == 0 and s2["current"] == 1


def test_reactivate_turns_used_abilities_face_up_and_decline():
    f = rows("Rrrrr", "Rrrr.")
    s = make(hand={"purple": 3}, facade=f)
    s["players"][0]["abilities"]["any-cards"] = "used"
    s = apply(s, build("purple-3", [(3, 3), (3, 4), (3, 5)], (3, 5)))
    s2 = apply(s, {"type": "reactivate", "player": 0})
    assert s2["players"][0]["abilities"]["any-cards"] == "ready"
    s3 = apply(s, {"type": "decline", "player": 0})
    assert s3["players"][0]["abilities"]["any-cards"] == "used" and s3["current"] == 1
    refused(s, {"type": "take-ability", "player": 0, "ability": "any-cards"}, "already")


# ------------------------------------------------------------------------------------ scoring and end
def test_row_and_column_points(rules_text):
    assert R.score_of(rows("rrrrr"))["points"] == 2
    assert R.score_of(rows("Rrrrr"))["points"] == 1
    col = ["r...."] * 9
    assert R.score_of(col)["points"] == 4
    col[4] = "R...."
    assert R.score_of(col)["points"] == 2
    text = rules_text("shin-bikkuri-man.txt")
    assert "Completing a horizontal row = +1 point" in text
    assert "Completing a vertical column = +2 points" in text


def test_edge_twelve_points_end_the_game_before_the_coat_of_arms_actions(rules_text):
    f = ["r...."] * 4 + ["rrrr."] * 2 + ["rrrrr"] * 3      # rows 9..1
    s = make(hand={"blue": 2}, facade=f)
    assert s["players"][0]["points"] == 10                  # rows 1-3 and column 1, all windows
    s = apply(s, build("blue-2", [(5, 4), (5, 5)], (5, 5)))   # completes row 4 (coat) + covers (5,5)
    assert s["phase"] == "over" and s["ended"] == "points" and s["coats"] == 0
    res = R.result(s)
    assert res["winners"] == [0] and res["scores"][0]["score"] >= 12
    assert R.legal_moves(s).moves == []
    assert "Be the first player to 12 points" in rules_text("shin-bikkuri-man.txt")


def test_edge_no_card_after_the_end_card():
    s = make(hand={}, harbour=HARBOUR)
    s["deck"] = ["red", engine.END, "blue", "green"]
    s["end_in_deck"] = True
    s = apply(s, {"type": "take", "player": 0, "spaces": [0, 1]})
    assert s["phase"] == "over" and s["ended"] == "end-card"
    assert len(s["harbour"]) == 6 and s["deck"] == ["blue", "green"]
    assert R.legal_moves(s).moves == [] and R.result(s) is not None


def test_end_card_shuffled_in_at_the_first_reshuffle_with_3_players():
    s = make(players=3, hand={}, harbour=HARBOUR)
    assert engine.END not in s["deck"]
    s["deck"] = []
    s["discard"] = {"red": 12, "yellow": 0, "green": 0, "blue": 0, "purple": 0}
    s = apply(s, {"type": "take", "player": 0, "spaces": [0, 1]})
    assert s["shuffles"] == 1 and engine.END in s["deck"]
    assert s["deck"].index(engine.END) >= len(s["deck"]) - 11


def test_table_mode_refill_and_end_card():
    s = make(mode="table", hand={}, harbour=HARBOUR)
    s = apply(s, {"type": "take", "player": 0, "spaces": [0, 1]})
    assert s["phase"] == "refill" and R.actors(s).mode == "all"
    refused(s, {"type": "refill", "cards": ["red"]}, "enter the 2")
    refused(s, {"type": "refill", "cards": ["end"]}, "end card")      # 60 cards still above it
    s2 = apply(s, {"type": "refill", "cards": ["red", "blue"]})
    assert s2["harbour"][-2:] == ["red", "blue"] and s2["current"] == 1
    s["deck"] = ["red"] * 3
    s3 = apply(s, {"type": "refill", "cards": ["end"]})
    assert s3["phase"] == "over" and s3["ended"] == "end-card"
    s["deck"] = []
    refused(s, {"type": "refill", "cards": ["red", "red"]}, "only the end card")


def test_tie_break_fewest_empty_squares():
    s = make(hand={})
    s["players"][0]["facade"] = rows("Rrrrr", "Rr...")
    s["players"][1]["facade"] = rows("Rrrrr", "R....")
    s["phase"], s["ended"] = "over", "end-card"
    res = R.result(s)
    assert [x["score"] for x in res["scores"]] == [1, 1] and res["winners"] == [0]
    s["players"][1]["facade"] = rows("Rrrrr", "Rr...")
    assert R.result(s)["winners"] == [0, 1]       # a shared victory
    b = res["scores"][0]["breakdown"]
    assert {x["label"] for x in b} >= {"Rows with a brick", "Columns all windows"}


# ------------------------------------------------------------------------------- seats and secrets
def test_seats_hidden_hands_and_undo_policy():
    s = make(players=3)
    assert R.validate(s, {"type": "take", "player": 0, "spaces": [0, 1]}, Ctx(0, 1))
    assert R.validate(s, {"type": "take", "player": 0, "spaces": [0, 1]}, Ctx(0, 0)) == []
    v = R.public_view(s, 1)
    assert v["players"][0]["hand"] is None and v["players"][1]["hand"] is not None
    assert v["players"][0]["hand_size"] == 2 and v["seed"] is None and v["deck"] is None
    assert R.public_view(s, HOST)["players"][2]["hand"] is not None
    # companion mode: the move that refilled the harbour from the deck is a reveal (only the host
    # may take it back); table mode: no reveal
    assert R.reveals(s, {"type": "take", "player": 0, "spaces": [0, 1]})
    assert R.can_undo(s, {"type": "take", "player": 0, "spaces": [0, 1]}) == []
    t = make(mode="table")
    assert R.reveals(t, {"type": "take", "player": 0, "spaces": [0, 1]}) == []
    m = R.public_move({"type": "deal-hand", "player": 1, "cards": ["red"] * 3}, 0)
    assert m["cards"] == 3


def test_describe_reads_like_a_sentence():
    s = make(hand={"red": 3}, harbour=HARBOUR)
    assert R.describe(s, {"type": "take", "player": 0, "spaces": [0, 1]}) == "Aki takes red, yellow from the harbour"
    assert "red 3-square tile" in R.describe(s, build("red-3", [(1, 1), (2, 1), (1, 2)], (1, 2)))


def test_each_phase_says_who_acts_and_what_comes_next():
    s = R.setup(NAMES[:3], {"deck": "table"}, 0)
    assert R.actors(s).mode == "all" and R.needs(s)["phase"] == "deal"
    assert "harbour" in R.needs(s)["prompt"]
    for m in R.legal_moves(s).moves:
        assert R.describe(s, m)
        s = apply(s, m)
    assert R.actors(s).mode == "one" and R.actors(s).seats == (0,)
    n = R.needs(s)
    assert n["players"] == [0] and set(n["moves"]) == {"take", "build", "end-turn"}
    assert n["deck_size"] == 60 - 7 - 8 and n["last_cards"] is False
    s = apply(s, {"type": "take", "player": 0, "spaces": [0, 1]})
    assert R.needs(s)["enter"] == {"cards": 2} and R.actors(s).mode == "all"
    assert R.needs(R.public_view(s, 1))["deck_size"] == R.needs(s)["deck_size"]


def test_every_move_type_has_a_history_line():
    s = make(hand={"red": 3}, harbour=HARBOUR)
    for move in ({"type": "take", "player": 0, "spaces": [0, 1], "abilities": ["any-cards"]},
                 {"type": "discard", "player": 0, "cards": ["red"]},
                 build("red-3", [(1, 1), (2, 1), (1, 2)], (1, 2), abilities=["change-of-colours"], recolour="blue"),
                 {"type": "special-tile", "player": 0, "square": [3, 1]},
                 {"type": "take-ability", "player": 0, "ability": "both-actions"},
                 {"type": "reactivate", "player": 0}, {"type": "decline", "player": 0},
                 {"type": "end-turn", "player": 0}, {"type": "refill", "cards": ["red", "end"]},
                 {"type": "fill-harbour", "cards": ["red"]}, {"type": "deal-hand", "player": 1, "cards": []}):
        line = R.describe(s, move)
        assert line and line[0].isupper() and "Aki" in line or move["type"] in ("refill", "fill-harbour", "deal-hand")
    assert "the end card" in R.describe(s, {"type": "refill", "cards": ["red", "end"]})


def test_a_whole_table_mode_game_ends_on_the_end_card_entered():
    s = make(mode="table", seed=2)
    turns = 0
    while s["phase"] != "over":
        moves = R.legal_moves(s).moves
        if s["phase"] == "refill":
            ends = [m for m in moves if m["cards"] and m["cards"][0] == "end"]
            move = ends[0] if ends and engine.deck_count(s) <= 3 else moves[-1]
        else:
            takes = [m for m in moves if m["type"] == "take" and "abilities" not in m]
            move = takes[0] if takes else moves[0]
        s = apply(s, move)
        turns += 1
        assert turns < 2000
    assert s["ended"] == "end-card" and R.result(s)["winners"]
    assert R.legal_moves(s).moves == []


def test_stuck_player_may_end_the_turn():
    s = make(hand={}, harbour=[])
    assert engine.stuck(R.ix, s)
    assert R.legal_moves(s).moves == [{"type": "end-turn", "player": 0}]
    s2 = apply(s, {"type": "end-turn", "player": 0})
    assert s2["current"] == 1
