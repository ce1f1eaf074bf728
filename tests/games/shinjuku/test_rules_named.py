"""Shinjuku with the table's deck and hands kept ("hands": "named", issue 23): nobody's hand is entered;
a card is named when it is played and checked on public information only (the rules' docstring,
Options). From ../shared/rules/shinjuku.txt: "Deal 4 Ward cards to each player", Income "Draw up to a
hand of 4 cards ... If you have 4 or more cards, draw 1 card", "Your turn ends immediately after taking
this action", the customer queue's ① card goes to the mover's hand. Also: old logs (options without
"hands") replay to exactly the states the code before this option gave (fixture recorded from that
code), seeded random playouts to the end (replay = state, undo exact, 72 cards always accounted for,
every illegal probe refused with the state unchanged), and secrets by difference over HTTP."""
from __future__ import annotations

import copy
import hashlib
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from companion.catalog import discover
from companion.games.contract import IllegalMove
from companion.games.shinjuku.rules import playout

GAME = discover()["shinjuku"]
R = GAME.rules
IX = R.ix
NAMES = ["Aki", "Ben", "Chie", "Dan"]
NAMED = {"deck": "table", "hands": "named"}


def _named(players=2, **options):
    return R.setup(NAMES[:players], {**NAMED, **options}, 1)


def _deal(s, seeds=("minato", "ota", "kita", "chuo"), matsuri="taito",
          queue=("chiyoda", "shinjuku", "nakano", "suginami"), customers=("food", "clothing")):
    for w in seeds:
        s = R.apply(s, {"type": "seed-ward", "ward": w, "customers": ["food", "books"]})
    s = R.apply(s, {"type": "place-matsuri", "ward": matsuri})
    return R.apply(s, {"type": "fill-queue", "cards": list(queue), "customers": list(customers)})


def _total(s) -> int:
    """Every card accounted for: deck + discard pile (named and not) + queue + hands (by count)."""
    return (s["deck_count"] + len(s["discard"]) + s["discard_unnamed"] + sum(1 for q in s["queue"] if q["card"])
            + sum(p["hand_size"] for p in s["players"]))


def _refused(s, move):
    before = copy.deepcopy(s)
    reasons = R.validate(s, move)
    assert reasons, move
    with pytest.raises(IllegalMove):
        R.apply(s, move)
    assert s == before                      # a refusal changes nothing
    return reasons


# -- options -----------------------------------------------------------------------------------------
def test_options():
    assert R.validate_options(NAMES[:2], NAMED) == []
    assert R.validate_options(NAMES[:2], {"deck": "table", "hands": "entered"}) == []
    assert any("hands" in r for r in R.validate_options(NAMES[:2], {"deck": "table", "hands": "yes"}))
    assert any("companion" in r for r in R.validate_options(NAMES[:2], {"deck": "companion", "hands": "named"}))
    assert R.chance_modes["table"] == NAMED                  # the table deck's default is the new way
    assert "hands" in R.options_doc
    # "hands" left out is the old way, state for state (old tables replay as they did)
    assert R.setup(NAMES[:3], {"deck": "table"}, 5) == R.setup(NAMES[:3], {"deck": "table", "hands": "entered"}, 5)


def test_the_deal_enters_no_hand():
    s = _named(3)
    assert s["phase"] == "deal" and s["hands"] == "named"
    assert [p["hand"] for p in s["players"]] == [None] * 3
    assert [p["hand_size"] for p in s["players"]] == [IX.hand_size] * 3       # "Deal 4 Ward cards to each player"
    assert s["deck_count"] == 72 - 3 * IX.hand_size and _total(s) == 72
    assert "deal-hand" not in R.needs(s)["moves"]
    assert not [m for m in R.legal_moves(s).moves if m["type"] == "deal-hand"]
    assert "not entered" in _refused(s, {"type": "deal-hand", "player": 0, "cards": ["ota"] * 4})[0]
    s = _deal(s)
    assert s["phase"] == "place" and _total(s) == 72
    assert s["deck_count"] == 72 - 3 * 4 - 4 - 1 - 4
    assert s["discard"] == IX.sort_cards(["minato", "ota", "kita", "chuo", "taito"])
    steps = R.setup_steps(_named(2))
    deal = [x for x in steps if x["title"] == "Deal the hands"][0]
    assert deal["input"] is None and "never entered" in deal["text"]


def test_a_face_up_card_every_copy_of_which_is_public_is_refused():
    assert IX.card_counts["kita"] == 2
    s = _named(2)
    s = R.apply(s, {"type": "fill-queue", "cards": ["kita", "kita", "nakano", "suginami"],
                    "customers": ["food", "clothing"]})
    assert "Kita" in _refused(s, {"type": "seed-ward", "ward": "kita", "customers": ["food", "books"]})[0]
    assert _refused(s, {"type": "fill-queue", "cards": ["ota"] * 4, "customers": ["food", "books"]})
    for w in ("minato", "ota", "chuo", "taito"):
        s = R.apply(s, {"type": "seed-ward", "ward": w, "customers": ["food", "books"]})
    s = R.apply(s, {"type": "place-matsuri", "ward": "chiyoda"})
    assert s["phase"] == "place"
    # the card drawn for ④: not a third Kita (both are in the queue); a Taito is possible (its seed
    # card is discarded: one copy may still be in the deck)
    ok = {"type": "place-customers", "player": 0, "card": "taito", "customers": ["food"]}
    assert R.validate(s, ok) == []
    assert "Kita" in _refused(s, {**ok, "card": "kita"})[0]
    s1 = R.apply(s, ok)
    assert s1["queue"][-1]["card"] == "taito" and s1["players"][0]["hand_size"] == IX.hand_size + 1
    assert _total(s1) == 72


def test_a_card_named_at_play_is_checked_on_public_cards_and_the_hand_size():
    assert IX.card_counts["taito"] == 2 and IX.card_counts["ota"] == 5
    s = _deal(_named(2), seeds=("minato", "ota", "kita", "chuo"), matsuri="taito",
              queue=("chiyoda", "shinjuku", "nakano", "taito"))
    # Taito: the Matsuri's card discarded, one in the queue: both public
    s = R.apply(s, {"type": "place-customers", "player": 0, "card": "suginami", "customers": ["food"]})
    s = R.apply(s, {"type": "move-matsuri", "player": 0, "ward": IX.neighbours["taito"][0]})
    assert s["players"][0]["hand_size"] == IX.hand_size + 1          # the ① card went to the hand
    station = IX.stations_in["taito"][0]
    reasons = _refused(s, {"type": "open-store", "player": 0, "card": "taito", "station": station, "goods": "food"})
    assert "Taito" in reasons[0] and "2" in reasons[0]
    # Ota: the seed card is public, four copies may be in hands: one named is fine
    ota = IX.stations_in["ota"][0]
    assert R.validate(s, {"type": "open-store", "player": 0, "card": "ota", "station": ota, "goods": "food"}) == []
    # Kita: the seed card is public, one copy left: two named are refused
    assert "Kita" in _refused(s, {"type": "open-store", "player": 0, "card": ["kita", "kita", "ota"],
                                  "station": ota, "goods": "food"})[0]
    # three cards as one wild match any station
    s1 = R.apply(s, {"type": "open-store", "player": 0, "card": ["ota", "nerima", "kita"], "station": station,
                     "goods": "food"})
    assert s1["players"][0]["hand_size"] == IX.hand_size + 1 - 3
    assert Counter(s1["discard"]) - Counter(s["discard"]) == Counter(["ota", "nerima", "kita"])
    assert _total(s1) == 72
    # the hand must hold the cards: 2 left, a wild of three is refused
    reasons = _refused(s1, {"type": "move-customers", "player": 0, "card": ["ota", "nerima", "setagaya"],
                            "path": [IX.stations_in["minato"][0]]})
    assert "only 2 cards" in reasons[0]
    # no "cards" with Income, and no correction of a hand
    assert _refused(s1, {"type": "income", "player": 0, "cards": ["ota"]})
    assert _refused(s1, {"type": "correct-card", "player": 0, "was": "ota", "now": "kita"})


def _started(players=2):
    s = _deal(_named(players))
    s = R.apply(s, {"type": "place-customers", "player": 0, "card": "suginami", "customers": ["food"]})
    return R.apply(s, {"type": "move-matsuri", "player": 0, "ward": IX.neighbours[s["matsuri"]][0]})


def test_income_draws_by_count_and_ends_the_turn():
    s = _started()
    assert s["players"][0]["hand_size"] == 5
    deck = s["deck_count"]
    assert R.needs(s)["income_cards"] == {"0": 1}
    s1 = R.apply(s, {"type": "income", "player": 0})      # 4 or more in hand: draw 1 card
    assert s1["players"][0]["hand_size"] == 6 and s1["deck_count"] == deck - 1
    assert s1["current"] == 1 and s1["phase"] == "place"  # "Your turn ends immediately"
    # a hand of 2 after a wild of three: Income draws up to a hand of 4
    station = IX.stations_in["ota"][0]
    s2 = R.apply(s, {"type": "open-store", "player": 0, "card": ["ota", "kita", "nerima"], "station": station,
                     "goods": "food"})
    assert s2["players"][0]["hand_size"] == 2
    s3 = R.apply(s2, {"type": "income", "player": 0})
    assert s3["players"][0]["hand_size"] == 4 and s3["last"]["drawn_count"] == 2
    assert s3["deck_count"] == s2["deck_count"] - 2 and _total(s3) == 72


def test_an_empty_deck_reshuffles_the_discard_pile_when_a_card_is_drawn():
    s = copy.deepcopy(_started())
    # (the deck down to 2 cards, the rest in player 1's hand; player 0 holds none)
    s["players"][1]["hand_size"] += s["deck_count"] - 2 + s["players"][0]["hand_size"]
    s["deck_count"], s["players"][0]["hand_size"] = 2, 0
    assert _total(s) == 72
    discard = len(s["discard"])
    s1 = R.apply(s, {"type": "income", "player": 0})      # 4 to draw: 2 from the deck, 2 after the reshuffle
    assert s1["players"][0]["hand_size"] == 4
    assert s1["discard"] == [] and s1["deck_count"] == discard - 2 and s1["last"]["reshuffled"]
    assert _total(s1) == 72
    assert R.table_facts(s1)["counts"][0] == {"label": "Cards left in the deck", "n": discard - 2}


# -- old logs ----------------------------------------------------------------------------------------
def _h(state) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()


def test_old_table_logs_replay_to_the_same_states():
    """Logs of tables created before the option ({"deck": "table"}, no "hands"), with the state after
    every move as the code before this change computed it (recorded from that code): the same
    states now, move for move."""
    logs = json.loads((Path(__file__).parent / "old_table_logs.json").read_text())
    assert len(logs) == 2
    for log in logs:
        s = R.setup(NAMES[:log["players"]], log["options"], log["seed"])
        assert "hands" not in s
        for move, want in zip(log["moves"], log["state_hashes"], strict=True):
            s = R.apply(s, move)
            assert _h(s)[:16] == want, move
        assert _h(s) == log["final"] and s["phase"] == "over"
        assert any(m["type"] == "deal-hand" for m in log["moves"])       # hands were entered then


# -- seeded random playouts --------------------------------------------------------------------------
def _probes(s, rng):
    """Moves that must be refused now (named hands): a card whose copies are all public, more cards
    than the hand holds, cards with Income, a hand dealt or corrected, a move of another seat."""
    p = s["current"]
    pub = Counter(q["card"] for q in s["queue"] if q["card"]) + Counter(s["discard"])
    gone = [w for w in IX.card_counts if pub[w] >= IX.card_counts[w]]
    out = [{"type": "deal-hand", "player": p, "cards": ["ota"] * 4},
           {"type": "correct-card", "player": p, "was": "ota", "now": "kita"}]
    if s["phase"] == "actions":
        out.append({"type": "income", "player": p, "cards": ["ota"]})
        free = [x for x in IX.station_ids if x not in s["stations"]]
        for w in gone[:2]:
            out.append({"type": "open-store", "player": p, "card": w, "station": rng.choice(free), "goods": "food"})
        size = s["players"][p]["hand_size"]
        if size < 3:
            out.append({"type": "open-store", "player": p, "card": ["ota", "kita", "chuo"],
                        "station": rng.choice(free), "goods": "food"})
        out.append({"type": "income", "player": (p + 1) % len(s["players"])})
    return out


@pytest.mark.parametrize("players,seed", [(2, 3), (3, 4), (4, 5)])
def test_random_playout_to_the_end(players, seed):
    rng = random.Random(seed)
    s0 = _named(players)
    s = s0
    states, log = [s], []
    for _ in range(4000):
        if s["phase"] == "over":
            break
        for bad in _probes(s, rng):
            _refused(s, bad)
        move = playout.choose(R, s, rng)
        before = copy.deepcopy(s)
        s = R.apply(s, move)
        assert states[-1] == before                               # apply never changes its input
        assert _total(s) == 72 and s["deck_count"] >= 0
        assert all(p["hand"] is None and p["hand_size"] >= 0 for p in s["players"])
        assert R.secret_paths(s, 0) == [] and R.public_view(s, 0) == R.public_view(s, 1)
        log.append(move)
        states.append(s)
    assert s["phase"] == "over" and R.result(s) is not None
    assert not any(m["type"] == "deal-hand" or (m["type"] == "income" and "cards" in m) for m in log)
    # replaying the log gives the same state; an undo (the log less its last moves) restores exactly
    r = s0
    for i, m in enumerate(log):
        r = R.apply(r, m)
        assert r == states[i + 1]
    for k in sorted(rng.sample(range(len(log)), 5)):
        u = s0
        for m in log[:k]:
            u = R.apply(u, m)
        assert u == states[k]
    assert json.loads(json.dumps(s)) == s


# -- secrets by difference, over HTTP ------------------------------------------------------------------
from test_secrets_by_difference import _post, _reads, _same_over_http, _table, http  # noqa: E402, F401


def test_what_seat_0_is_answered_does_not_depend_on_seat_1s_hand(http):  # noqa: F811
    """Two tables whose seat 1 holds different cards (three Chiyoda and an Ota, or two Nerima, a Kita
    and an Ota): nothing of a hand is entered, so both tables take the same moves (seat 1 names the
    Ota it holds at both), and seat 0, a spectator and even the host read the same JSON at every step;
    seat 0's refused probes get the same bodies."""
    players = ["Aki", "Ben", "Chie"]
    codes, tokens = [], []
    for _hand_of_seat_1 in (["chiyoda", "chiyoda", "chiyoda", "ota"], ["nerima", "nerima", "kita", "ota"]):
        code, seat = _table(http, "shinjuku", players, NAMED)
        codes.append(code)
        tokens.append(seat)
    wards = list(IX.ward_ids)

    def probes(v):
        p = [{"type": "deal-hand", "player": v, "cards": ["chiyoda"] * 4},
             {"type": "income", "player": v, "cards": ["ota"]},
             {"type": "correct-card", "player": v, "was": "ota", "now": "chiyoda"}]
        free = [x for x in IX.station_ids if x not in R.setup(players, NAMED, 1)["stations"]]
        p += [{"type": "open-store", "player": v, "card": w, "station": free[i % len(free)], "goods": "food"}
              for i, w in enumerate(wards)]
        return p

    def both(move, seat):
        for k in range(2):
            r = _post(http, codes[k], move, tokens[k][seat])
            assert r.status_code == 200, r.json

    def same():
        host = [http.get(f"/api/tables/{c}").json["state"] for c in codes]     # the host's token
        assert host[0]["players"][1]["hand"] is None and host[0] == host[1]   # no hand is held anywhere
        return _same_over_http(http, codes, tokens, [0, None], len(players), probes)

    pairs = same()
    for w in ("minato", "ota", "kita", "chuo"):
        both({"type": "seed-ward", "ward": w, "customers": ["food", "books"]}, 0)
    both({"type": "place-matsuri", "ward": "taito"}, 0)
    both({"type": "fill-queue", "cards": ["chiyoda", "shinjuku", "nakano", "suginami"],
          "customers": ["food", "clothing"]}, 0)
    pairs += same()
    both({"type": "place-customers", "player": 0, "card": "setagaya", "customers": ["food"]}, 0)
    both({"type": "move-matsuri", "player": 0, "ward": IX.neighbours["taito"][0]}, 0)
    both({"type": "income", "player": 0}, 0)
    pairs += same()
    both({"type": "place-customers", "player": 1, "card": "edogawa", "customers": ["books"]}, 1)
    both({"type": "move-matsuri", "player": 1, "ward": IX.neighbours[IX.neighbours["taito"][0]][0]}, 1)
    ota = [x for x in IX.stations_in["ota"]][0]
    both({"type": "open-store", "player": 1, "card": "ota", "station": ota, "goods": "books"}, 1)
    pairs += same()
    assert pairs == 8


def test_three_cards_as_one_wild_need_not_be_named():
    s = _started()
    kita = IX.stations_in["kita"][0]
    move = {"type": "open-store", "player": 0, "card": 3, "station": kita, "goods": "food"}
    s1 = R.apply(s, move)                          # any three cards match: not named
    assert s1["players"][0]["hand_size"] == 2 and s1["discard"] == s["discard"]
    assert s1["discard_unnamed"] == 3 and _total(s1) == 72
    assert "three cards as one wild" in R.describe(s, move)
    assert "only 2 cards" in _refused(s1, {"type": "move-customers", "player": 0, "card": 3,
                                           "path": [IX.stations_in["minato"][0]]})[0]
    assert _refused(s1, {**move, "player": 0, "card": 2})                # 3 or a ward, nothing else
    entered = R.setup(NAMES[:2], {"deck": "table"}, 1)
    assert R.validate(entered, {**move, "type": "open-store"})          # (refused in the entered way)
    # a reshuffle brings the unnamed cards back with the pile
    s2 = copy.deepcopy(s1)
    s2["players"][1]["hand_size"] += s2["deck_count"]
    s2["deck_count"] = 0
    s2 = R.apply(s2, {"type": "income", "player": 0})
    assert s2["discard_unnamed"] == 0 and s2["discard"] == [] and _total(s2) == 72
    assert s2["deck_count"] == len(s1["discard"]) + 3 - 2
