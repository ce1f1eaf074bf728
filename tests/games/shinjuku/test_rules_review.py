"""Shinjuku rules engine: findings of a sentence-by-sentence review against the rules text.

The tests up to "Place customers / refresh the queue" each pin a deviation a review found (they
failed before the fix); the ones after it are independent cross-checks, written from the rules
text, of the queue refresh and of the end of the game over whole seeded games. Each sentence
quoted is checked against ../shared/rules/shinjuku.txt when that folder is there."""
from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

from companion.games.contract import IllegalMove
from companion.games.shinjuku.rules import RULES
from companion.games.shinjuku.rules.playout import choose
from companion.games.shinjuku.rules.state import card_pool
from generator.canon import load

D = load("shinjuku")
R = RULES(D)
IX = R.ix
NAMES = ["Aki", "Ben", "Cho", "Dai"]
RULES_TEXT = Path(__file__).resolve().parents[3].parent / "shared" / "rules" / "shinjuku.txt"

# The sentences of the rules text these tests pin (test_quoted_sentences_are_in_the_rules_text).
TWO_ACTIONS = "Choose any two of the following actions (must be different actions)"
INCOME_ENDS = "Your turn ends immediately after taking this action, even if you had one more action available."
LAST_CUSTOMER = ("When the last customer is drawn from the bag, play continues until the customer queue "
                 "is emptied.")
FINAL_TURN = ("The player that places the final customer from the queue finishes their turn and play "
              "continues until the player with the Start Player Token (so that every player has the "
              "same number of turns).")
QUOTED = (TWO_ACTIONS, INCOME_ENDS, LAST_CUSTOMER, FINAL_TURN)


def scenario(players=2, hand=(), matsuri="adachi"):
    """Player 0 to act (phase "actions"), a clean map, the given hand."""
    s = R.setup(NAMES[:players], {"deck": "companion"}, 7)
    s.update(phase="actions", current=0, actions=[], matsuri=matsuri,
             wards={w: [] for w in IX.ward_ids})
    for p in s["players"]:
        p["hand"] = []
    s["players"][0]["hand"] = IX.sort_cards(hand)
    return s


def refused(state, move, *words):
    before = copy.deepcopy(state)
    reasons = R.validate(state, move)
    assert reasons and all(isinstance(r, str) and r for r in reasons), reasons
    text = " ".join(reasons).lower()
    for w in words:
        assert w.lower() in text, (w, reasons)
    with pytest.raises(IllegalMove):
        R.apply(state, move)
    assert state == before
    return reasons


# ---------------------------------------------------------------------------------------------
# validate never raises, whatever it is given

@pytest.mark.parametrize("move", [
    {"type": "income", "player": 0, 1: None, "x": 2},            # keys that do not sort together
    {"type": "income", "player": 0, None: 1, ("a",): 2},
])
def test_validate_never_raises_on_odd_keys(move):
    s = scenario()
    refused(s, move, "has no field")


# ---------------------------------------------------------------------------------------------
# Turns: "Choose any two of the following actions (must be different actions)"

def test_a_turn_is_two_different_actions_and_cannot_be_ended_early():
    """TWO_ACTIONS: a player may not end a turn with no action or with one (the old engine had an
    "end-turn" move for that); Income is always possible, so two actions always are."""
    s = scenario(hand=["chiyoda"])
    refused(s, {"type": "end-turn", "player": 0}, TWO_ACTIONS)          # no action at all
    assert all(m["type"] != "end-turn" for m in R.legal_moves(s).moves)
    s = R.apply(s, {"type": "open-store", "player": 0, "card": "chiyoda", "station": "tokyo",
                    "goods": "food"})
    assert s["phase"] == "actions" and s["current"] == 0 and s["actions"] == ["open-store"]
    refused(s, {"type": "end-turn", "player": 0}, "no end-turn move")   # one action only
    legal = R.legal_moves(s).moves
    assert {m["type"] for m in legal} == {"expand-track", "income"}     # different, and Income
    assert "different" in R.needs(s)["prompt"]
    refused(s, {"type": "open-store", "player": 0, "card": ["chiyoda"] * 3, "station": "akihabara",
                "goods": "books"}, "must be different")
    s = R.apply(s, {"type": "expand-track", "player": 0, "connection": ["koenji", "nakano"]})
    assert s["current"] == 1 and s["actions"] == []                     # the second ends the turn


def test_income_is_always_possible_and_ends_the_turn_at_once():
    """INCOME_ENDS: Income as the first action ends the turn with one action; it is always legal,
    even with no store, no track and nothing left to draw (it then draws nothing)."""
    s = scenario()
    s["players"][0].update(track=0, stores={g: 0 for g in IX.goods}, department_stores=0)
    s["deck"], s["discard"] = [], []
    assert R.legal_moves(s).moves == [{"type": "income", "player": 0}]
    new = R.apply(s, {"type": "income", "player": 0})
    assert new["current"] == 1 and new["last"]["drawn"] == [] and new["actions"] == []
    t = scenario(hand=["ota"])
    t = R.apply(t, {"type": "expand-track", "player": 0, "connection": ["koenji", "nakano"]})
    t = R.apply(t, {"type": "income", "player": 0})                      # Income second: ends too
    assert t["current"] == 1


# ---------------------------------------------------------------------------------------------
# End of game: "When the last customer is drawn from the bag, play continues until the customer
# queue is emptied"

def hoarding_game(mode: str, seed: int = 3, players: int = 4):
    """Every player takes Income whenever it can: the deck and the discard pile run out (every card
    but the queue's is in a hand). Yields each state."""
    state = R.setup(NAMES[:players], {"deck": mode}, seed)
    rng = random.Random(seed)
    yield state
    for _ in range(3000):
        if state["phase"] == "over":
            return
        moves = R.legal_moves(state).moves
        incomes = [m for m in moves if m["type"] == "income"]
        state = R.apply(state, incomes[0] if incomes else rng.choice(moves))
        yield state
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("mode", ["companion", "table"])
def test_the_game_does_not_end_with_customers_in_the_bag(mode):
    """LAST_CUSTOMER: the end starts when the bag is empty, never while customers are in it. The
    old engine left queue space ④ without a card once every card was in a hand, sent customers who
    found no card back to the bag, and ended this game with 29 (companion) / 5 (table) customers
    still in the bag."""
    ran_out = False
    for state in hoarding_game(mode):
        ran_out = ran_out or (card_pool(state) == 0 and state["phase"] != "deal")   # as the table counts
        if state["phase"] != "deal":
            assert all(q["card"] is not None for q in state["queue"])   # the queue keeps its cards
        if state["final_round"]:
            assert state["bag"] == []
    assert ran_out and state["phase"] == "over"
    assert state["bag"] == [] and not any(q["customers"] for q in state["queue"])



def final_round_scenario(players=3, current=2):
    """The bag is empty and the head of the queue holds the final customer; `current` places it."""
    s = scenario(players=players)
    s.update(phase="place", current=current, bag=[])
    s["queue"] = [{"card": "ota", "customers": ["food"]}, {"card": "kita", "customers": []},
                  {"card": "koto", "customers": []}, {"card": "chuo", "customers": []}]
    return s


def test_game_does_not_end_while_an_upgrade_has_refilled_the_queue():
    """The last player before the start player places the final customer, then upgrades a store:
    the spent customer goes back to the queue, so the queue is not emptied yet and the game goes
    on; the player who places that customer finishes the turn and play continues until the start
    player, so everyone still has the same number of turns."""
    s = final_round_scenario(players=3, current=2)
    s = R.apply(s, {"type": "place-customers", "player": 2})
    assert s["final_round"]
    s = R.apply(s, {"type": "move-matsuri", "player": 2, "ward": IX.neighbours[s["matsuri"]][0]})
    s["stations"]["shibuya"] = {"owner": 2, "kind": "store", "goods": "food"}
    s["players"][2]["stores"]["food"] -= 1
    s["players"][2]["customers"] = ["food"]
    s["players"][2]["hand"] = ["shibuya"]
    s = R.apply(s, {"type": "upgrade-store", "player": 2, "station": "shibuya", "card": "shibuya",
                       "customer": "food"})
    assert s["queue"][0]["customers"] == ["food"]
    s = R.apply(s, {"type": "income", "player": 2})
    assert s["phase"] == "place" and s["current"] == 0          # not over: the queue is not empty
    s = R.apply(s, {"type": "place-customers", "player": 0})
    assert s["wards"]["kita"] == ["food"]
    for p in (0, 1, 2):
        if s["phase"] == "place":
            s = R.apply(s, {"type": "place-customers", "player": p})
        s = R.apply(s, {"type": "move-matsuri", "player": p, "ward": IX.neighbours[s["matsuri"]][0]})
        assert s["current"] == p
        s = R.apply(s, {"type": "income", "player": p})
    assert s["phase"] == "over"                                  # back at the start player


def test_game_still_ends_at_the_start_player_once_the_queue_is_empty():
    s = final_round_scenario(players=3, current=2)
    s = R.apply(s, {"type": "place-customers", "player": 2})
    s = R.apply(s, {"type": "move-matsuri", "player": 2, "ward": IX.neighbours[s["matsuri"]][0]})
    s = R.apply(s, {"type": "income", "player": 2})
    assert s["phase"] == "over"


# ---------------------------------------------------------------------------------------------
# The deck runs out (table mode): Income with nothing left to draw

def test_table_income_with_nothing_to_draw_needs_no_cards_field():
    s = R.setup(NAMES[:2], {"deck": "table"}, 7)
    s.update(phase="actions", current=0, actions=[], matsuri="adachi", deal=None,
             wards={w: [] for w in IX.ward_ids})
    s["players"][0]["hand"] = IX.sort_cards(s["deck"])          # every card is in a hand
    s["deck"], s["discard"] = [], []
    assert R.needs(s)["income_cards"] == {"0": 0}
    new = R.apply(s, {"type": "income", "player": 0})         # the board sends no "cards"
    assert new["current"] == 1 and new["last"]["drawn"] == []
    assert R.validate(s, {"type": "income", "player": 0, "cards": []}) == []
    assert R.validate(s, {"type": "income", "player": 0, "cards": None}) == []
    refused(s, {"type": "income", "player": 0, "cards": ["ota"]}, "no card can be drawn")


# ---------------------------------------------------------------------------------------------
# Reasons a player understands

def test_reasons_use_an_before_a_vowel():
    s = scenario(hand=["ota", "shibuya"])
    r = refused(s, {"type": "open-store", "player": 0, "card": "ota", "station": "tokyo", "goods": "food"})
    assert r[0].startswith("An Ota card does not match Chiyoda"), r
    r = refused(s, {"type": "open-store", "player": 0, "cards": []})
    assert r[0].startswith("An open-store move has no field"), r
    s2 = dict(s, phase="matsuri")
    r = refused(s2, {"type": "income", "player": 0})
    assert r[0].startswith("An income move is not possible now."), r
    r = refused(s2, {"type": "upgrade-store", "player": 0})
    assert r[0].startswith("An upgrade-store move is not possible now."), r
    s3 = scenario(hand=["shibuya"])
    s3["stations"]["shibuya"] = {"owner": 0, "kind": "store", "goods": "electronics"}
    s3["players"][0]["customers"] = ["food"]
    r = refused(s3, {"type": "upgrade-store", "player": 0, "station": "shibuya", "card": "shibuya",
                     "customer": "food"})
    assert "spend an Electronics customer, not Food" in r[0], r


def test_a_connection_between_a_station_and_itself_is_explained():
    s = scenario()
    refused(s, {"type": "expand-track", "player": 0, "connection": ["nakano", "nakano"]},
            "two different stations")


def test_history_lines_use_an_before_a_vowel():
    s = scenario(hand=["ota"])
    assert R.describe(s, {"type": "open-store", "player": 0, "card": "ota", "station": "omori",
                             "goods": "electronics"}) == \
        "Aki opens an Electronics store at Omori with an Ota card."
    line = R.describe(s, {"type": "upgrade-store", "player": 0, "station": "shibuya", "card": "edogawa",
                             "customer": "electronics-2"})
    assert "spending an Electronics “2” customer with an Edogawa card." in line, line


# ---------------------------------------------------------------------------------------------
# Place customers / refresh the queue, checked against the rules text over whole games

def expected_placement(s: dict, p: int) -> dict:
    """Companion mode, written from the rules text: take ①'s customers to its ward and its card to
    the hand; slide; draw a card onto ④; add as many customers as were placed, each onto the card
    holding its type, else onto the next empty card (from ①)."""
    queue = [dict(slot, customers=list(slot["customers"])) for slot in s["queue"]]
    head, queue = queue[0], queue[1:]
    deck, discard, bag = list(s["deck"]), list(s["discard"]), list(s["bag"])
    wards = {w: list(c) for w, c in s["wards"].items()}
    hand = list(s["players"][p]["hand"])
    wards[head["card"]] += head["customers"]
    if deck:
        new = deck.pop(0)
        hand.append(head["card"])
    elif discard:
        new = "?"                    # a reshuffle: only check that some card came
        hand.append(head["card"])
    else:
        new = head["card"]           # nothing to draw: ①'s card goes back on ④ (the module's reading)
    queue.append({"card": new, "customers": []})
    drawn, bag = bag[:len(head["customers"])], bag[len(head["customers"]):]
    for tok in drawn:
        kind = IX.token[tok][0]
        same = [q for q in queue if q["customers"] and IX.token[q["customers"][0]][0] == kind]
        empty = [q for q in queue if q["card"] is not None and not q["customers"]]
        (same or empty)[0]["customers"].append(tok)
    return {"queue": queue, "wards": wards, "hand": sorted(hand), "drawn": drawn}


@pytest.mark.parametrize("seed,players", [(11, 2), (12, 3), (13, 4)])
def test_place_customers_against_the_rules_text(seed, players):
    s = R.setup(NAMES[:players], {"deck": "companion"}, seed)
    rng = random.Random(seed)
    placements = 0
    while s["phase"] != "over":
        move = choose(R, s, rng)
        new = R.apply(s, move)
        if move["type"] == "place-customers":
            exp = expected_placement(s, move["player"])
            assert new["last"]["customers_drawn"] == exp["drawn"]
            assert sorted(new["players"][move["player"]]["hand"]) == exp["hand"]
            assert {w: sorted(c) for w, c in new["wards"].items()} == {w: sorted(c) for w, c in exp["wards"].items()}
            for got, want in zip(new["queue"], exp["queue"]):
                assert sorted(got["customers"]) == sorted(want["customers"])
                assert want["card"] == "?" and got["card"] is not None or got["card"] == want["card"]
            placements += 1
        s = new
    assert placements > 10


@pytest.mark.parametrize("seed,players", [(21, 2), (22, 3), (23, 4), (24, 4)])
def test_every_player_has_the_same_number_of_turns_and_the_queue_is_empty_at_the_end(seed, players):
    """LAST_CUSTOMER and FINAL_TURN over whole seeded games."""
    start = seed % players
    s = R.setup(NAMES[:players], {"deck": "companion", "start_player": start}, seed)
    rng = random.Random(seed)
    turns = [0] * players
    while s["phase"] != "over":
        move = choose(R, s, rng)
        if move["type"] == "move-matsuri":
            turns[move["player"]] += 1
        s = R.apply(s, move)
    assert len(set(turns)) == 1, turns
    assert s["bag"] == [] and not any(q["customers"] for q in s["queue"])
    assert s["current"] == (start - 1) % players


def test_quoted_sentences_are_in_the_rules_text():
    if not RULES_TEXT.is_file():
        pytest.skip(f"the rules text is not beside the repository ({RULES_TEXT})")
    words = " ".join(RULES_TEXT.read_text(encoding="utf-8").split())
    for sentence in QUOTED:
        assert " ".join(sentence.split()) in words, sentence
