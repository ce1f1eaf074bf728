"""A card entered wrongly is set right without undoing what came after (issue 9: "In table-deck mode
a card entered wrongly (dealt hand, income draw) blocks later plays ('You have no Ota card in your
hand.') and the only fix is undoing everything since")."""
from __future__ import annotations

import copy
from collections import Counter

import pytest

from companion.games.contract import Ctx
from companion.games.shinjuku.rules import RULES
from generator import canon


@pytest.fixture(scope="module")
def rules():
    return RULES(canon.load("shinjuku"))


def dealt(rules, hands):
    state = rules.setup(["Aki", "Ben"], {"deck": "table"}, 1)
    for p, hand in enumerate(hands):
        state = rules.apply(state, {"type": "deal-hand", "player": p, "cards": hand})
    return state


def test_a_wrong_card_in_a_hand_is_corrected_and_nothing_else_changes(rules):
    state = dealt(rules, [["ota", "kita", "ota", "chuo"], ["minato", "shibuya", "nerima", "adachi"]])
    before = copy.deepcopy(state)
    move = {"type": "correct-card", "player": 0, "was": "ota", "now": "nakano"}
    assert rules.validate(state, move, Ctx()) == []
    after = rules.apply(state, move, Ctx())
    assert state == before                                   # pure
    assert sorted(after["players"][0]["hand"]) == sorted(["ota", "kita", "nakano", "chuo"])
    assert after["players"][1] == before["players"][1]
    pool = lambda s: Counter(s["deck"]) + Counter(s["discard"])   # noqa: E731
    assert pool(after)["ota"] == pool(before)["ota"] + 1 and pool(after)["nakano"] == pool(before)["nakano"] - 1
    assert after["phase"] == before["phase"] and after["deal"] == before["deal"]


def test_refused_corrections_change_nothing(rules):
    # Kita has 2 cards: both are in Aki's own hand, so one of her cards cannot have been a Kita
    state = dealt(rules, [["ota", "kita", "kita", "chuo"], ["arakawa", "arakawa", "nerima", "adachi"]])
    cases = [
        ({"type": "correct-card", "player": 0, "was": "shibuya", "now": "ota"}, "no Shibuya card"),
        ({"type": "correct-card", "player": 0, "was": "ota", "now": "kita"}, "cannot have been"),
        ({"type": "correct-card", "player": 0, "was": "ota", "now": "ota"}, "same card"),
        ({"type": "correct-card", "player": 0, "was": "ota", "now": "atlantis"}, "ward id"),
        ({"type": "correct-card", "player": 7, "was": "ota", "now": "kita"}, "whose hand"),
    ]
    for move, words in cases:
        before = copy.deepcopy(state)
        reasons = rules.validate(state, move, Ctx())
        assert reasons and words in " ".join(reasons), (move, reasons)
        with pytest.raises(ValueError):
            rules.apply(state, move, Ctx())
        assert state == before


def test_a_correction_is_judged_on_what_its_player_knows(rules):
    """Issue 26: Arakawa has 2 cards, both in Ben's hand. Aki's correction to an Arakawa is judged
    on public cards and her own hand (whose answers must not tell Ben's hand): accepted, and the
    conflict is the host's to see (neither hand alone shows more Arakawa than the game has)."""
    state = dealt(rules, [["ota", "kita", "ota", "chuo"], ["arakawa", "arakawa", "nerima", "adachi"]])
    move = {"type": "correct-card", "player": 0, "was": "ota", "now": "arakawa"}
    assert rules.validate(state, move, Ctx(0, 0)) == []
    after = rules.apply(state, move, Ctx(0, 0))
    assert [(c["card"], c["players"]) for c in rules.public_view(after, "host")["conflicts"]] \
        == [("arakawa", [0, 1])]
    assert rules.public_view(after, 0)["conflicts"] == [] == rules.public_view(after, 1)["conflicts"]
    # Aki's second thought (it was a Nakano after all) settles it
    after = rules.apply(after, {"type": "correct-card", "player": 0, "was": "arakawa", "now": "nakano"},
                        Ctx(0, 0))
    assert rules.public_view(after, "host")["conflicts"] == [] and after["owed"] == []
    assert Counter(after["deck"])["arakawa"] == 0 and len(after["deck"]) == len(state["deck"])


def test_only_the_table_deck_is_corrected(rules):
    state = rules.setup(["Aki", "Ben"], {"deck": "companion"}, 1)
    card = state["players"][0]["hand"][0]
    reasons = rules.validate(state, {"type": "correct-card", "player": 0, "was": card, "now": "ota"}, Ctx())
    assert reasons and "companion draws" in reasons[0]


def test_the_blocked_play_goes_through_after_the_correction(rules):
    """The issue's case: Ota entered, Nakano drawn; later Nakano cannot be played until corrected,
    whoever's turn it is, and the history shows no card to the others."""
    from companion.games.shinjuku.rules.playout import playout  # noqa: F401 - (a real game's helpers)
    state = dealt(rules, [["ota", "kita", "ota", "chuo"], ["minato", "shibuya", "nerima", "adachi"]])
    # finish the set-up with legal entries (the first listed each time)
    while state["phase"] == "deal":
        move = next(m for m in rules.legal_moves(state).moves if m["type"] != "deal-hand")
        state = rules.apply(state, move)
    seat = 1 - state["current"]                          # not their turn: a correction still goes
    hand = state["players"][seat]["hand"]
    wrong = hand[0]
    right = next(w for w in ("nakano", "suginami", "itabashi", "koto") if w not in hand
                 and (Counter(state["deck"]) + Counter(state["discard"]))[w] > 0)
    state = rules.apply(state, {"type": "correct-card", "player": seat, "was": wrong, "now": right})
    assert right in state["players"][seat]["hand"]
    logged = {"type": "correct-card", "player": seat, "was": wrong, "now": right}
    assert rules.public_move(logged, 1 - seat)["was"] is None and rules.public_move(logged, seat) == logged
    assert wrong not in rules.describe(state, logged) and right not in rules.describe(state, logged)
