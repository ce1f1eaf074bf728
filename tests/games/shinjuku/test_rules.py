"""Shinjuku rules engine: each rule of ../shared/rules/shinjuku.txt, legal and illegal cases."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from companion.games import contract, rules_class
from companion.games.contract import HOST, Actors, Ctx, IllegalMove
from companion.games.shinjuku.rules import RULES, ShinjukuRules
from generator.canon import load

D = load("shinjuku")
R = RULES(D)
IX = R.ix
NAMES = ["Aki", "Ben", "Cho", "Dai"]


def fresh(players=2, mode="companion", seed=7, **options):
    return R.setup(NAMES[:players], {"deck": mode, **options}, seed)


def scenario(players=2, hand=(), matsuri="adachi", **edits):
    """Player 0 to act (phase "actions"), a clean map, the given hand; anything else via edits."""
    s = fresh(players)
    s["phase"] = "actions"
    s["current"] = 0
    s["actions"] = []
    s["matsuri"] = matsuri
    s["wards"] = {w: [] for w in IX.ward_ids}
    for p in s["players"]:
        p["hand"] = []
    s["players"][0]["hand"] = IX.sort_cards(hand)
    for key, value in edits.items():
        s[key] = value
    return s


def ok(state, move):
    reasons = R.validate(state, move)
    assert reasons == [], reasons
    before = copy.deepcopy(state)
    new = R.apply(state, move)
    assert state == before, "apply mutated its input"
    return new


def bad(state, move, *words):
    before = copy.deepcopy(state)
    reasons = R.validate(state, move)
    assert reasons, f"expected {move} to be refused"
    assert all(isinstance(r, str) and r.endswith((".", ")")) for r in reasons), reasons
    text = " ".join(reasons).lower()
    for w in words:
        assert w.lower() in text, (w, reasons)
    with pytest.raises(IllegalMove) as raised:
        R.apply(state, move)
    assert raised.value.reasons == reasons
    assert state == before
    return reasons


def store(s, station, owner, goods="food", kind="store"):
    s["stations"][station] = {"owner": owner, "kind": kind, "goods": None if kind != "store" else goods}
    pl = s["players"][owner]
    if kind == "store":
        pl["stores"][goods] -= 1
    else:
        pl["department_stores"] -= 1


def track(s, a, b, owner):
    cid = IX.conn_by_pair[frozenset((a, b))]
    s["tracks"][cid] = owner
    s["players"][owner]["track"] -= 1


# ---------------------------------------------------------------------------------------------
# Registration, options, setup

def test_the_rules_import_without_flask_or_the_store():
    """DESIGN.md: rules are pure; `import companion.games.shinjuku.rules` loads neither Flask nor
    the companion's store or tables (checked in a fresh interpreter)."""
    code = ("import json, sys\n"
            "import companion.games.shinjuku.rules\n"
            "print(json.dumps(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         cwd=Path(__file__).resolve().parents[3])
    assert out.returncode == 0, out.stderr
    loaded = set(json.loads(out.stdout))
    assert "companion.games.shinjuku.rules" in loaded
    for banned in ("flask", "werkzeug", "jinja2", "companion.store", "companion.tables",
                   "companion.app", "companion.games.shinjuku.web", "sqlite3"):
        assert banned not in loaded, f"importing the rules loaded {banned}"


def test_rules_registered_and_bound_to_the_data_once():
    assert rules_class("shinjuku") is RULES is ShinjukuRules
    assert issubclass(RULES, contract.Rules) and RULES.id == "shinjuku"
    assert R.data is D and R.ix.data is D              # one Index, built when bound
    assert RULES.chance_modes == {"table": {"deck": "table", "hands": "named"}, "companion": {"deck": "companion"},
                                  "table-entered": {"deck": "table", "hands": "entered"}}
    assert set(RULES.options_doc) == {"deck", "hands", "start_player", "colours"}
    for mode, options in RULES.chance_modes.items():
        assert R.setup(NAMES[:2], options, 1)["mode"] == options["deck"]


def test_move_types_table():
    names = [mt.name for mt in RULES.move_types]
    assert names == ["deal-hand", "seed-ward", "place-matsuri", "fill-queue", "place-customers",
                     "move-matsuri", "open-store", "expand-track", "upgrade-store", "income",
                     "move-customers", "decline-income", "correct-card"]
    assert "end-turn" not in names
    who = {mt.name: mt.who for mt in RULES.move_types}
    assert {n for n, w in who.items() if w == "table"} == {"seed-ward", "place-matsuri", "fill-queue"}
    for mt in RULES.move_types:
        schema = mt.schema()
        json.dumps(schema)
        assert schema["properties"]["type"] == {"const": mt.name} and mt.label
        assert ("player" in schema["required"]) == (mt.who == "seat")
        assert all(f.doc for f in mt.fields)
    assert R.mover({"type": "seed-ward", "ward": "ota", "player": 1}) is None
    assert R.mover({"type": "deal-hand", "player": 1}) == 1
    assert R.mover({"type": "income", "player": 2}) == 2
    assert R.mover("junk") is None


@pytest.mark.parametrize("players,options,word", [
    (["A"], {}, "2 to 4"),
    (["A", "B", "C", "D", "E"], {}, "2 to 4"),
    (["A", "a"], {}, "same name"),
    (["A", ""], {}, "name"),
    (["A", "B"], {"deck": "shuffled"}, "deck"),
    (["A", "B"], {"start_player": 2}, "start_player"),
    (["A", "B"], {"start_player": True}, "start_player"),
    (["A", "B"], {"colours": ["red", "red"]}, "same colour"),
    (["A", "B"], {"colours": ["red", "purple"]}, "colours"),
    (["A", "B"], {"speed": 2}, "unknown option"),
    (["A", "B"], "companion", "options"),
    ("AB", {}, "list"),
])
def test_validate_options_refuses(players, options, word):
    reasons = R.validate_options(players, options)
    assert reasons and word.lower() in " ".join(reasons).lower()
    with pytest.raises(ValueError):
        R.setup(players, options, 1)
    with pytest.raises(IllegalMove):
        R.setup(players, options, 1)


def test_validate_options_accepts():
    assert R.validate_options(["A", "B"], {}) == []
    assert R.validate_options(["A", "B", "C", "D"],
                              {"deck": "companion", "start_player": 3,
                               "colours": ["yellow", "green", "blue", "red"]}) == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_companion_setup_follows_the_rules(players):
    s = fresh(players, seed=11)
    json.dumps(s)                                  # plain JSON
    assert s["phase"] == "place" and s["current"] == 0 and s["turn"] == 1
    for p in s["players"]:
        assert len(p["hand"]) == 4
        assert p["stores"] == {"food": 2, "clothing": 2, "books": 2, "electronics": 2}
        assert p["department_stores"] == 3 and p["track"] == 16
    seeded = {w: c for w, c in s["wards"].items() if c}
    assert len(seeded) == 4 and all(len(c) == 2 for c in seeded.values())
    assert s["matsuri"] in IX.ward_ids
    assert [slot["card"] is not None for slot in s["queue"]] == [True] * 4
    queued = [c for slot in s["queue"] for c in slot["customers"]]
    assert len(queued) == 2 and s["queue"][0]["customers"]
    assert len(s["bag"]) == 72 - 8 - 2
    # every card is somewhere: deck, discard (seed + Matsuri cards), hands, queue
    cards = (Counter(s["deck"]) + Counter(s["discard"]) + Counter(c for slot in s["queue"] for c in [slot["card"]])
             + sum((Counter(p["hand"]) for p in s["players"]), Counter()))
    assert cards == Counter(IX.card_counts)
    assert set(seeded) <= set(s["discard"]) and s["matsuri"] in s["discard"]
    assert s["tracks"] == {"shinjuku--yoyogi": None}   # the pre-built neutral link
    assert s["bonus_stack"] == [3, 2, 2, 2, 1, 1]


def test_setup_is_deterministic_per_seed():
    assert fresh(3, seed=5) == fresh(3, seed=5)
    assert fresh(3, seed=5) != fresh(3, seed=6)


def test_start_player_option():
    s = fresh(3, start_player=2)
    assert s["current"] == 2 and s["start_player"] == 2
    assert R.actors(s) == Actors("one", (2,))


def test_queue_rule_same_type_stacks_new_type_takes_first_empty_card():
    from companion.games.shinjuku.rules.state import queue_add
    s = scenario()
    s["queue"] = [{"card": w, "customers": []} for w in ("ota", "kita", "chuo", "koto")]
    for tok in ("food", "books", "food-2", "clothing", "books-2"):
        queue_add(IX, s, tok)
    assert [slot["customers"] for slot in s["queue"]] == [
        ["food", "food-2"], ["books", "books-2"], ["clothing"], []]


# ---------------------------------------------------------------------------------------------
# Table mode: the physical deck and bag

def deal_table(players=2):
    s = fresh(players, mode="table")
    assert s["phase"] == "deal" and s["players"][0]["hand"] == []
    s = ok(s, {"type": "deal-hand", "player": 0, "cards": ["ota", "ota", "kita", "chuo"]})
    s = ok(s, {"type": "deal-hand", "player": 1, "cards": ["minato", "shinjuku", "nerima", "adachi"]})
    for ward, cust in [("shibuya", ["food", "books-2"]), ("taito", ["food", "food"]),
                       ("koto", ["clothing", "electronics-2"]), ("nakano", ["books", "clothing-2"])]:
        s = ok(s, {"type": "seed-ward", "ward": ward, "customers": cust})
    s = ok(s, {"type": "place-matsuri", "ward": "setagaya"})
    bad(s, {"type": "place-customers", "player": 0}, "set up")
    s = ok(s, {"type": "fill-queue", "cards": ["edogawa", "itabashi", "suginami", "meguro"],
               "customers": ["electronics", "food"]})
    return s


def test_table_mode_deal_then_play():
    s = deal_table()
    assert s["phase"] == "place" and s["deal"] is None
    assert s["players"][0]["hand"] == ["chuo", "ota", "ota", "kita"]        # kept in ward order
    assert s["wards"]["shibuya"] == ["food", "books-2"]
    assert s["matsuri"] == "setagaya"
    assert [slot["customers"] for slot in s["queue"]] == [["electronics"], ["food"], [], []]
    assert [slot["card"] for slot in s["queue"]] == ["edogawa", "itabashi", "suginami", "meguro"]
    assert len(s["bag"]) == 72 - 10
    # the placement needs the card drawn for ④ and one customer (one was placed)
    bad(s, {"type": "place-customers", "player": 0}, "card")
    bad(s, {"type": "place-customers", "player": 0, "card": "ota"}, "exactly 1")
    bad(s, {"type": "place-customers", "player": 0, "card": "ota", "customers": ["food", "food"]}, "exactly 1")
    bad(s, {"type": "place-customers", "player": 0, "card": "narnia", "customers": ["food"]}, "no ward")
    s = ok(s, {"type": "place-customers", "player": 0, "card": "ota", "customers": ["books-2"]})
    assert s["wards"]["edogawa"] == ["electronics"]
    assert "edogawa" in s["players"][0]["hand"]
    assert [slot["card"] for slot in s["queue"]] == ["itabashi", "suginami", "meguro", "ota"]
    assert [slot["customers"] for slot in s["queue"]] == [["food"], ["books-2"], [], []]


def test_table_mode_refuses_impossible_entries():
    s = fresh(2, mode="table")
    bad(s, {"type": "deal-hand", "player": 0, "cards": ["bunkyo", "bunkyo", "bunkyo", "ota"]}, "more bunkyo")
    bad(s, {"type": "deal-hand", "player": 0, "cards": ["ota", "ota", "kita"]}, "exactly 4")
    bad(s, {"type": "deal-hand", "player": 5, "cards": ["ota", "ota", "kita", "chuo"]}, "whose hand")
    s = ok(s, {"type": "deal-hand", "player": 0, "cards": ["ota", "ota", "kita", "chuo"]})
    bad(s, {"type": "deal-hand", "player": 0, "cards": ["ota", "ota", "kita", "chuo"]}, "already")
    s = ok(s, {"type": "seed-ward", "ward": "ota", "customers": ["food", "food"]})
    bad(s, {"type": "seed-ward", "ward": "ota", "customers": ["food", "food"]}, "already")
    s = ok(s, {"type": "seed-ward", "ward": "kita", "customers": ["electronics"] * 2})   # both singles
    bad(s, {"type": "seed-ward", "ward": "koto", "customers": ["electronics", "food"]}, "only 0 electronics")
    bad(s, {"type": "seed-ward", "ward": "koto", "customers": ["cake", "food"]}, "not a customer")
    # Ota has 5 cards. Only public cards count against an entry (the queue, the discard pile):
    # with 1 seeded and the Matsuri's card out, 4 Ota in the queue cannot be.
    s = ok(s, {"type": "seed-ward", "ward": "chuo", "customers": ["food", "books"]})
    s = ok(s, {"type": "place-matsuri", "ward": "ota"})
    bad(s, {"type": "fill-queue", "cards": ["ota", "ota", "ota", "ota"], "customers": ["food", "books"]},
        "more ota", "in the queue and the discard pile")


QUEUE = {"type": "fill-queue", "cards": ["ota", "ota", "ota", "chuo"], "customers": ["food", "books"]}


def _queue_after(hand):
    s = ok(fresh(2, mode="table"), {"type": "deal-hand", "player": 0, "cards": hand})
    s = ok(s, {"type": "seed-ward", "ward": "ota", "customers": ["food", "food"]})
    assert R.validate(s, QUEUE, Ctx(0, 1)) == []            # seat 1 sends the table's entry
    return R.apply(s, QUEUE, Ctx(0, 1))


def test_table_mode_judges_entries_on_public_information_only():
    """Issue 26: a seat's answers depend only on what it may know. Player 0's hand holds 2 Ota
    (of 5); one more is seeded. The table's queue entry with 3 Ota is judged on the public cards
    (5 - 1 seeded = 4 may still be drawn): accepted whatever player 0 holds, and shown as a
    conflict to player 0 and the host only, who set it right with the correction move."""
    s = _queue_after(["ota", "ota", "kita", "chuo"])
    twin = _queue_after(["nerima", "nerima", "kita", "chuo"])
    for viewer in (1, None):
        assert R.public_view(s, viewer) == R.public_view(twin, viewer)
        assert R.public_view(s, viewer)["conflicts"] == [] and R.public_view(s, viewer).get("owed") is None
    assert R.table_facts(s) == R.table_facts(twin)
    assert R.table_facts(s)["counts"][0]["n"] == 72 - 4 - 1 - 4
    assert R.legal_moves(s, 1).moves == R.legal_moves(twin, 1).moves
    mine = R.public_view(s, 0)["conflicts"]
    assert [(c["card"], c["over"]) for c in mine] == [("ota", 1)] and "correct" in mine[0]["text"]
    assert R.public_view(twin, 0)["conflicts"] == []
    host = R.public_view(s, HOST)["conflicts"]
    assert [(c["card"], c["over"], c["players"]) for c in host] == [("ota", 1, [0])]
    # the correction: one Ota of the hand really was a Nerima -> no conflict, the deck exact again
    s = ok(s, {"type": "correct-card", "player": 0, "was": "ota", "now": "nerima"})
    assert R.public_view(s, 0)["conflicts"] == [] and R.public_view(s, HOST)["conflicts"] == []
    assert s["owed"] == [] and "ota" not in s["deck"]
    assert len(s["deck"]) == 72 - 4 - 1 - 4 and R.table_facts(s)["counts"][0]["n"] == 72 - 4 - 1 - 4


def test_table_mode_income_needs_the_drawn_cards():
    s = deal_table()
    s = ok(s, {"type": "place-customers", "player": 0, "card": "ota", "customers": ["books-2"]})
    s = ok(s, {"type": "move-matsuri", "player": 0, "ward": "shibuya"})
    # hand of 5 -> one card
    bad(s, {"type": "income", "player": 0}, "1 ward id")
    bad(s, {"type": "income", "player": 0, "cards": ["ota", "ota"]}, "exactly 1")
    s = ok(s, {"type": "income", "player": 0, "cards": ["nerima"]})
    assert s["players"][0]["hand"].count("nerima") == 1 and s["current"] == 1


def test_companion_mode_refuses_entered_draws():
    s = fresh()
    bad(s, {"type": "place-customers", "player": 0, "card": "ota"}, "companion draws")


# ---------------------------------------------------------------------------------------------
# Start of a turn: place customers, move the Matsuri

def test_place_customers_and_refresh_the_queue():
    s = fresh(seed=3)
    head = s["queue"][0]
    n = len(head["customers"])
    bag = list(s["bag"])
    new = ok(s, {"type": "place-customers", "player": 0})
    for tok in head["customers"]:
        assert tok in new["wards"][head["card"]]
    assert Counter(new["players"][0]["hand"]) == Counter(s["players"][0]["hand"]) + Counter([head["card"]])
    assert [q["card"] for q in new["queue"][:3]] == [q["card"] for q in s["queue"][1:]]
    assert new["queue"][3]["card"] == s["deck"][0]
    assert new["bag"] == bag[n:]
    assert sorted(new["last"]["customers_drawn"]) == sorted(bag[:n])
    assert new["phase"] == "matsuri"


def test_turn_order_and_phases():
    s = fresh()
    bad(s, {"type": "place-customers", "player": 1}, "aki's turn")
    bad(s, {"type": "move-matsuri", "player": 0, "ward": IX.neighbours[s["matsuri"]][0]}, "placing the customers")
    bad(s, {"type": "income", "player": 0}, "not possible now")
    s = ok(s, {"type": "place-customers", "player": 0})
    bad(s, {"type": "income", "player": 0}, "matsuri")


def test_matsuri_moves_to_a_neighbouring_ward():
    s = scenario(matsuri="taito")
    s["phase"] = "matsuri"
    bad(s, {"type": "move-matsuri", "player": 0, "ward": "ota"}, "not next to taito", "arakawa")
    bad(s, {"type": "move-matsuri", "player": 0, "ward": "taito"}, "not next to")
    bad(s, {"type": "move-matsuri", "player": 0}, "where the matsuri goes")
    s = ok(s, {"type": "move-matsuri", "player": 0, "ward": "arakawa"})
    assert s["matsuri"] == "arakawa" and s["phase"] == "actions"


# ---------------------------------------------------------------------------------------------
# Open store

def test_open_store():
    s = scenario(hand=["chiyoda", "ota"])
    new = ok(s, {"type": "open-store", "player": 0, "card": "chiyoda", "station": "tokyo", "goods": "food"})
    assert new["stations"]["tokyo"] == {"owner": 0, "kind": "store", "goods": "food"}
    assert new["players"][0]["stores"]["food"] == 1
    assert new["players"][0]["hand"] == ["ota"] and "chiyoda" in new["discard"]
    assert new["actions"] == ["open-store"] and new["phase"] == "actions"
    bad(new, {"type": "open-store", "player": 0, "card": "ota", "station": "omori", "goods": "books"},
        "already opened a store")


@pytest.mark.parametrize("move,words", [
    ({"card": "ota", "station": "tokyo", "goods": "food"}, ["does not match chiyoda"]),
    ({"card": "koto", "station": "tokyo", "goods": "food"}, ["no koto card"]),
    ({"card": "chiyoda", "station": "tokyo", "goods": "cake"}, ["what the store sells"]),
    ({"card": "chiyoda", "station": "atlantis", "goods": "food"}, ["which station"]),
    ({"card": "chiyoda", "goods": "food"}, ["which station"]),
    ({"station": "tokyo", "goods": "food"}, ["which card"]),
    ({"card": ["chiyoda", "ota"], "station": "tokyo", "goods": "food"}, ["three cards"]),
    ({"card": 3, "station": "tokyo", "goods": "food"}, ["one card"]),
])
def test_open_store_refused(move, words):
    s = scenario(hand=["chiyoda", "ota"])
    bad(s, {"type": "open-store", "player": 0, **move}, *words)


def test_open_store_needs_an_empty_station_and_a_store_in_supply():
    s = scenario(hand=["chiyoda", "chiyoda"])
    store(s, "tokyo", 1)
    bad(s, {"type": "open-store", "player": 0, "card": "chiyoda", "station": "tokyo", "goods": "books"},
        "already has a store", "ben")
    s["players"][0]["stores"]["books"] = 0
    bad(s, {"type": "open-store", "player": 0, "card": "chiyoda", "station": "akihabara", "goods": "books"},
        "no books store left")
    ok(s, {"type": "open-store", "player": 0, "card": "chiyoda", "station": "akihabara", "goods": "clothing"})


def test_wild_card_from_a_store_in_its_ward():
    s = scenario(hand=["ota"])
    bad(s, {"type": "open-store", "player": 0, "card": "ota", "station": "tokyo", "goods": "food"}, "does not match")
    store(s, "omori", 0, "books")                        # my store in Ota: Ota cards are wild for me
    ok(s, {"type": "open-store", "player": 0, "card": "ota", "station": "tokyo", "goods": "food"})
    s2 = scenario(hand=["ota"])
    store(s2, "omori", 1, "books")                       # someone else's store does not help me
    bad(s2, {"type": "open-store", "player": 0, "card": "ota", "station": "tokyo", "goods": "food"}, "does not match")
    s3 = scenario(hand=["ota"])
    store(s3, "omori", 0, kind="department-store")       # a department store counts too
    ok(s3, {"type": "open-store", "player": 0, "card": "ota", "station": "tokyo", "goods": "food"})


def test_wild_card_from_the_matsuri():
    s = scenario(hand=["ota"], matsuri="ota")
    ok(s, {"type": "open-store", "player": 0, "card": "ota", "station": "ikebukuro", "goods": "food"})
    s["matsuri"] = "meguro"
    bad(s, {"type": "open-store", "player": 0, "card": "ota", "station": "ikebukuro", "goods": "food"},
        "matsuri ward, meguro")


def test_three_cards_as_one_wild():
    s = scenario(hand=["ota", "ota", "kita", "koto"])
    new = ok(s, {"type": "open-store", "player": 0, "card": ["ota", "kita", "koto"], "station": "tokyo",
                 "goods": "food"})
    assert new["players"][0]["hand"] == ["ota"]
    assert Counter(new["discard"]) - Counter(s["discard"]) == Counter(["ota", "kita", "koto"])
    bad(s, {"type": "open-store", "player": 0, "card": ["kita", "kita", "koto"], "station": "tokyo",
            "goods": "food"}, "only 1 kita")
    ok(s, {"type": "open-store", "player": 0, "card": ["ota"], "station": "omori", "goods": "food"})


# ---------------------------------------------------------------------------------------------
# Expand track

def test_expand_track_one_segment_anywhere_without_a_card():
    s = scenario()
    new = ok(s, {"type": "expand-track", "player": 0, "connection": ["koenji", "nakano"]})
    assert new["tracks"]["koenji--nakano"] == 0 and new["players"][0]["track"] == 15
    ok(s, {"type": "expand-track", "player": 0, "connection": "koenji--nakano"})


def test_expand_track_second_segment_with_a_card_matching_either_end():
    s = scenario(hand=["suginami", "nakano", "ota"])
    first = ["koenji", "nakano"]
    for card in ("suginami", "nakano"):                 # Koenji is in Suginami, Nakano in Nakano
        new = ok(s, {"type": "expand-track", "player": 0, "connection": first,
                     "second": ["nakano", "shinjuku"], "card": card})
        assert new["tracks"]["koenji--nakano"] == 0 and new["tracks"]["nakano--shinjuku"] == 0
        assert new["players"][0]["track"] == 14 and card not in new["players"][0]["hand"]
    bad(s, {"type": "expand-track", "player": 0, "connection": first, "second": ["nakano", "shinjuku"],
            "card": "ota"}, "does not match suginami or nakano")
    bad(s, {"type": "expand-track", "player": 0, "connection": first, "second": ["nakano", "shinjuku"]},
        "costs a card")
    bad(s, {"type": "expand-track", "player": 0, "connection": first, "card": "nakano"}, "only for a second")
    bad(s, {"type": "expand-track", "player": 0, "connection": first, "second": ["tokyo", "akihabara"],
            "card": "nakano"}, "connected to the first")
    bad(s, {"type": "expand-track", "player": 0, "connection": first, "second": first, "card": "nakano"},
        "another connection")


@pytest.mark.parametrize("conn,words", [
    (["shinjuku", "yoyogi"], ["already track"]),        # the pre-built link
    (["koenji", "tokyo"], ["not connected on the map"]),
    (["koenji", "mordor"], ["no station called"]),
    ("koenji", ["two stations"]),
    (None, ["two stations"]),
])
def test_expand_track_refused(conn, words):
    s = scenario()
    bad(s, {"type": "expand-track", "player": 0, "connection": conn}, *words)


def test_expand_track_supply():
    s = scenario(hand=["nakano"])
    s["players"][0]["track"] = 1
    ok(s, {"type": "expand-track", "player": 0, "connection": ["koenji", "nakano"]})
    bad(s, {"type": "expand-track", "player": 0, "connection": ["koenji", "nakano"],
            "second": ["nakano", "shinjuku"], "card": "nakano"}, "only one track")
    s["players"][0]["track"] = 0
    bad(s, {"type": "expand-track", "player": 0, "connection": ["koenji", "nakano"]}, "no track left")
    track(s, "koenji", "nakano", 1)
    bad(s, {"type": "expand-track", "player": 0, "connection": ["nakano", "koenji"]}, "already track")


# ---------------------------------------------------------------------------------------------
# Upgrade store

def upgrade_scenario():
    s = scenario(hand=["shibuya", "ota"])
    store(s, "shibuya", 0, "food")
    store(s, "ebisu", 0, "food")                          # no sakura at Ebisu
    s["players"][0]["customers"] = ["food", "food-2", "books"]
    s["queue"] = [{"card": "ota", "customers": ["clothing"]}, {"card": "kita", "customers": ["food"]},
                  {"card": "koto", "customers": []}, {"card": "chuo", "customers": []}]
    return s


def test_upgrade_store():
    s = upgrade_scenario()
    new = ok(s, {"type": "upgrade-store", "player": 0, "station": "shibuya", "card": "shibuya",
                 "customer": "food-2"})
    assert new["stations"]["shibuya"] == {"owner": 0, "kind": "department-store", "goods": None}
    me = new["players"][0]
    assert me["stores"]["food"] == s["players"][0]["stores"]["food"] + 1      # store back to supply
    assert me["department_stores"] == 2
    assert me["customers"] == ["food", "books"]
    assert new["queue"][1]["customers"] == ["food", "food-2"]                  # customer to the queue
    assert me["bonus_tokens"] == [3] and new["bonus_stack"] == [2, 2, 2, 1, 1]
    assert new["last"]["bonus_token"] == 3


@pytest.mark.parametrize("move,words", [
    ({"station": "ebisu", "card": "shibuya", "customer": "food"}, ["no sakura"]),
    ({"station": "shibuya", "card": "shibuya", "customer": "books"}, ["sells food", "not books"]),
    ({"station": "shibuya", "card": "shibuya", "customer": "clothing"}, ["sells food"]),
    ({"station": "shibuya", "card": "ota", "customer": "food"}, ["does not match shibuya"]),
    ({"station": "shibuya", "card": "shibuya", "customer": "pizza"}, ["which of your food customers"]),
    ({"station": "shinjuku", "card": "shibuya", "customer": "food"}, ["no store at shinjuku"]),
    ({"station": "kremlin", "card": "shibuya", "customer": "food"}, ["which store"]),
])
def test_upgrade_refused(move, words):
    bad(upgrade_scenario(), {"type": "upgrade-store", "player": 0, **move}, *words)


def test_upgrade_needs_own_store_a_customer_and_a_department_store():
    s = upgrade_scenario()
    s["players"][0]["customers"] = ["food"]
    bad(s, {"type": "upgrade-store", "player": 0, "station": "shibuya", "card": "shibuya",
            "customer": "food-2"}, "no food “2” customer")
    s = upgrade_scenario()
    s["players"][0]["department_stores"] = 0
    bad(s, {"type": "upgrade-store", "player": 0, "station": "shibuya", "card": "shibuya",
            "customer": "food"}, "no department store left")
    s = upgrade_scenario()
    store(s, "shinjuku", 1, "food")
    bad(s, {"type": "upgrade-store", "player": 0, "station": "shinjuku", "card": "shibuya",
            "customer": "food"}, "no store at shinjuku")
    s = upgrade_scenario()
    s["stations"]["shibuya"] = {"owner": 0, "kind": "department-store", "goods": None}
    bad(s, {"type": "upgrade-store", "player": 0, "station": "shibuya", "card": "shibuya",
            "customer": "food"}, "already a department store")


def test_upgrade_bonus_tokens_run_out():
    s = upgrade_scenario()
    s["bonus_stack"] = []
    new = ok(s, {"type": "upgrade-store", "player": 0, "station": "shibuya", "card": "shibuya",
                 "customer": "food"})
    assert new["players"][0]["bonus_tokens"] == [] and new["last"]["bonus_token"] is None


# ---------------------------------------------------------------------------------------------
# Income

@pytest.mark.parametrize("hand,drawn", [(0, 4), (1, 3), (3, 1), (4, 1), (7, 1)])
def test_income_draws_up_to_four_or_one(hand, drawn):
    s = scenario(hand=["ota"] * hand)
    new = ok(s, {"type": "income", "player": 0})
    assert len(new["players"][0]["hand"]) == hand + drawn
    assert len(new["last"]["drawn"]) == drawn


def test_income_ends_the_turn_at_once():
    s = scenario(hand=["ota"])
    new = ok(s, {"type": "income", "player": 0})
    assert new["current"] == 1 and new["phase"] in ("place", "matsuri") and new["actions"] == []
    s2 = ok(s, {"type": "expand-track", "player": 0, "connection": ["koenji", "nakano"]})
    assert s2["current"] == 0
    s3 = ok(s2, {"type": "income", "player": 0})
    assert s3["current"] == 1


def test_income_reshuffles_the_discard_pile_when_the_deck_is_empty():
    s = scenario()
    s["discard"] = IX.sort_cards(s["deck"][2:] + s["discard"])
    s["deck"] = s["deck"][:2]
    new = ok(s, {"type": "income", "player": 0})
    assert len(new["players"][0]["hand"]) == 4
    assert new["shuffles"] == 1 and new["discard"] == [] and new["last"]["reshuffled"]
    again = R.apply(s, {"type": "income", "player": 0})
    assert again == new                                   # the reshuffle is seeded


def test_two_different_actions_then_the_turn_ends():
    s = scenario(hand=["chiyoda"])
    s = ok(s, {"type": "expand-track", "player": 0, "connection": ["koenji", "nakano"]})
    bad(s, {"type": "expand-track", "player": 0, "connection": ["tokyo", "akihabara"]}, "already expanded")
    s = ok(s, {"type": "open-store", "player": 0, "card": "chiyoda", "station": "tokyo", "goods": "food"})
    assert s["current"] == 1 and s["turn"] == 2


def test_turns_pass_in_order_and_rounds_count():
    s = scenario()
    bad(s, {"type": "income", "player": 1}, "aki's turn")
    new = ok(s, {"type": "income", "player": 0})
    assert new["current"] == 1 and new["round"] == 1
    back = ok(new | {"phase": "actions"}, {"type": "income", "player": 1})
    assert back["current"] == 0 and back["round"] == 2


# ---------------------------------------------------------------------------------------------
# Move customers

def test_move_example_department_store_takes_any_type_store_takes_its_own():
    s = scenario(hand=["shinjuku"])
    s["wards"]["shinjuku"] = ["food", "food-2", "books"]
    store(s, "shinjuku", 1, kind="department-store")       # Ben's department store at the start
    store(s, "shibuya", 0, "food")                         # my food store at the end
    track(s, "yoyogi", "shibuya", 1)                       # Ben's track
    new = ok(s, {"type": "move-customers", "player": 0, "card": "shinjuku",
                 "path": ["shinjuku", "yoyogi", "shibuya"], "take": {"shinjuku": "books"}})
    assert new["players"][1]["customers"] == ["books"]
    assert new["players"][0]["customers"] == ["food-2"]    # default for my own store: the "2"
    assert new["wards"]["shinjuku"] == []
    assert new["wards"]["shibuya"] == ["food"]             # leftover joins the last station's ward
    assert new["phase"] == "bonus" and new["bonus"] == [1]  # Ben's track was used
    assert new["last"]["deliveries"] == [
        {"station": "shinjuku", "owner": 1, "customer": "books"},
        {"station": "shibuya", "owner": 0, "customer": "food-2"}]


def test_move_store_takes_a_single_customer_and_defaults():
    s = scenario(hand=["shinjuku"])
    s["wards"]["shinjuku"] = ["food", "food-2"]
    store(s, "shinjuku", 1, "food")                       # another player's store: default a single
    new = ok(s, {"type": "move-customers", "player": 0, "card": "shinjuku", "path": ["shinjuku"]})
    assert new["players"][1]["customers"] == ["food"]
    assert new["wards"]["shinjuku"] == ["food-2"]
    assert new["bonus"] == [] and new["phase"] == "actions"
    chosen = ok(s, {"type": "move-customers", "player": 0, "card": "shinjuku", "path": ["shinjuku"],
                    "take": {"shinjuku": "food-2"}})
    assert chosen["players"][1]["customers"] == ["food-2"]


def test_move_leftovers_merge_with_customers_already_there():
    s = scenario(hand=["shinjuku"])
    s["wards"]["shinjuku"] = ["clothing"]
    s["wards"]["shibuya"] = ["books"]
    track(s, "yoyogi", "shibuya", 0)
    new = ok(s, {"type": "move-customers", "player": 0, "card": "shinjuku",
                 "path": ["shinjuku", "yoyogi", "shibuya"]})
    assert new["wards"]["shibuya"] == ["clothing", "books"]
    assert new["bonus"] == []                              # my own track and the neutral link: no bonus


def test_move_no_station_twice_and_only_along_built_track():
    s = scenario(hand=["shinjuku"])
    s["wards"]["shinjuku"] = ["food"]
    track(s, "yoyogi", "shibuya", 1)
    bad(s, {"type": "move-customers", "player": 0, "card": "shinjuku",
            "path": ["shinjuku", "yoyogi", "shinjuku"]}, "twice")
    bad(s, {"type": "move-customers", "player": 0, "card": "shinjuku", "path": ["shinjuku", "nakano"]},
        "no track between shinjuku and nakano")
    bad(s, {"type": "move-customers", "player": 0, "card": "shinjuku", "path": ["shinjuku", "shibuya"]},
        "not connected")
    bad(s, {"type": "move-customers", "player": 0, "card": "shinjuku", "path": []}, "list of station")
    bad(s, {"type": "move-customers", "player": 0, "card": "shinjuku", "path": "shinjuku"}, "list of station")
    bad(s, {"type": "move-customers", "player": 0, "card": "shibuya", "path": ["shinjuku"]}, "no shibuya card")
    bad(s, {"type": "move-customers", "player": 0, "card": "shinjuku", "path": ["yoyogi", "shibuya"]},
        "no customers in shibuya")


def test_move_card_matches_the_ward_of_the_first_station():
    s = scenario(hand=["ota"], matsuri="ota")               # a wild Ota card moves Shinjuku's customers
    s["wards"]["shinjuku"] = ["food"]
    ok(s, {"type": "move-customers", "player": 0, "card": "ota", "path": ["takadanobaba"]})
    s["matsuri"] = "kita"
    bad(s, {"type": "move-customers", "player": 0, "card": "ota", "path": ["takadanobaba"]},
        "does not match shinjuku")


def test_move_take_choices_are_checked():
    s = scenario(hand=["shinjuku"])
    s["wards"]["shinjuku"] = ["food", "books"]
    store(s, "shinjuku", 1, "food")
    bad(s, {"type": "move-customers", "player": 0, "card": "shinjuku", "path": ["shinjuku"],
            "take": {"shinjuku": "books"}}, "cannot take books")
    bad(s, {"type": "move-customers", "player": 0, "card": "shinjuku", "path": ["shinjuku"],
            "take": {"yoyogi": "food"}}, "not on the path")
    bad(s, {"type": "move-customers", "player": 0, "card": "shinjuku", "path": ["shinjuku", "yoyogi"],
            "take": {"yoyogi": "food"}}, "nobody is taken at yoyogi")
    bad(s, {"type": "move-customers", "player": 0, "card": "shinjuku", "path": ["shinjuku"],
            "take": ["food"]}, "take")


def test_move_others_track_income_once_each_and_not_the_mover():
    s = scenario(players=4, hand=["shinjuku", "ota"])
    s["current"] = 1
    s["players"][1]["hand"] = ["shinjuku"]
    s["players"][0]["hand"] = ["ota"]
    s["wards"]["shinjuku"] = ["electronics"]
    track(s, "shinjuku", "nakano", 3)
    track(s, "nakano", "koenji", 3)                        # two of Dai's segments: one income
    track(s, "takadanobaba", "nakano", 1)                  # the mover's own track: nothing
    track(s, "takadanobaba", "ikebukuro", 0)
    new = ok(s, {"type": "move-customers", "player": 1, "card": "shinjuku",
                 "path": ["shinjuku", "nakano", "takadanobaba", "ikebukuro"]})
    assert new["bonus"] == [3, 0]                          # turn order from the mover's left
    assert new["phase"] == "bonus" and new["wards"]["toshima"] == ["electronics"]
    bad(new, {"type": "open-store", "player": 1, "card": "ota", "station": "omori", "goods": "food"},
        "waiting for dai, aki")
    bad(new, {"type": "income", "player": 1}, "no income to take")
    bad(new, {"type": "income", "player": 2}, "no income to take")
    after = ok(new, {"type": "income", "player": 3})
    assert len(after["players"][3]["hand"]) == 4 and after["bonus"] == [0]
    after = ok(after, {"type": "decline-income", "player": 0})
    assert after["players"][0]["hand"] == ["ota"]
    assert after["phase"] == "actions" and after["current"] == 1 and after["actions"] == ["move-customers"]


def test_bonus_income_after_the_second_action_ends_the_turn_when_answered():
    s = scenario(hand=["shinjuku"])
    s["wards"]["shinjuku"] = ["food"]
    s["actions"] = ["open-store"]
    track(s, "shinjuku", "nakano", 1)
    new = ok(s, {"type": "move-customers", "player": 0, "card": "shinjuku", "path": ["shinjuku", "nakano"]})
    assert new["phase"] == "bonus" and new["current"] == 0
    new = ok(new, {"type": "income", "player": 1})
    assert new["current"] == 1 and new["phase"] in ("place", "matsuri")


# ---------------------------------------------------------------------------------------------
# End of the game

def end_scenario(players=3, current=1):
    s = scenario(players=players)
    s["phase"] = "place"
    s["current"] = current
    s["bag"] = []
    s["queue"] = [{"card": "ota", "customers": ["food"]}, {"card": "kita", "customers": []},
                  {"card": "koto", "customers": []}, {"card": "chuo", "customers": []}]
    return s


def test_end_when_the_final_customer_leaves_the_queue_and_the_round_is_finished():
    s = end_scenario(players=3, current=1)
    s = ok(s, {"type": "place-customers", "player": 1})
    assert s["final_round"] and s["wards"]["ota"] == ["food"]
    assert s["queue"][3]["customers"] == [] and s["last"]["customers_drawn"] == []
    s = ok(s, {"type": "move-matsuri", "player": 1, "ward": IX.neighbours["adachi"][0]})
    s = ok(s, {"type": "income", "player": 1})
    assert s["current"] == 2 and s["phase"] == "matsuri"    # empty queue: nothing to place
    s = ok(s, {"type": "move-matsuri", "player": 2, "ward": IX.neighbours[s["matsuri"]][0]})
    s = ok(s, {"type": "income", "player": 2})
    assert s["phase"] == "over"                            # back to the start player: game over
    bad(s, {"type": "income", "player": 0}, "game is over")
    assert R.score(s)["final"] is True
    assert R.actors(s) == contract.NOBODY and R.legal_moves(s) == contract.Legal([], True)
    assert R.result(s) is not None


def test_no_end_while_customers_remain_in_the_queue():
    s = end_scenario()
    s["queue"][1]["customers"] = ["books"]
    s = ok(s, {"type": "place-customers", "player": 1})
    assert not s["final_round"] and s["queue"][0]["customers"] == ["books"]


def test_final_customer_placed_by_the_player_before_the_start_player_ends_the_game_that_turn():
    s = end_scenario(players=2, current=1)
    s = ok(s, {"type": "place-customers", "player": 1})
    s = ok(s, {"type": "move-matsuri", "player": 1, "ward": IX.neighbours["adachi"][0]})
    s = ok(s, {"type": "income", "player": 1})
    assert s["phase"] == "over"


def test_upgraded_customer_after_the_queue_emptied_is_still_placed():
    s = end_scenario(players=3, current=1)
    s = ok(s, {"type": "place-customers", "player": 1})
    s = ok(s, {"type": "move-matsuri", "player": 1, "ward": IX.neighbours["adachi"][0]})
    store(s, "shibuya", 1, "food")
    s["players"][1]["customers"] = ["food"]
    s["players"][1]["hand"] = ["shibuya"]
    s = ok(s, {"type": "upgrade-store", "player": 1, "station": "shibuya", "card": "shibuya", "customer": "food"})
    assert s["queue"][0]["customers"] == ["food"]
    s = ok(s, {"type": "income", "player": 1})
    assert s["phase"] == "place"
    s = ok(s, {"type": "place-customers", "player": 2})
    assert s["final_round"]
    s = ok(s, {"type": "move-matsuri", "player": 2, "ward": IX.neighbours[s["matsuri"]][0]})
    s = ok(s, {"type": "income", "player": 2})
    assert s["phase"] == "over"


def test_with_no_card_left_to_draw_the_card_of_the_head_goes_back_on_4():
    """Deck and discard pile empty (every other card is in a hand): the card taken from ① is the
    only card left, so it goes back on ④ instead of into the hand; the queue keeps its four cards
    and takes every customer drawn (see the rules module: a gap the text leaves)."""
    s = end_scenario(players=2, current=0)
    s["deck"], s["discard"] = [], []
    s["bag"] = ["electronics", "books-2"]
    s["queue"] = [{"card": "kita", "customers": ["food"]}, {"card": "koto", "customers": ["clothing"]},
                  {"card": "chuo", "customers": []}, {"card": "ota", "customers": []}]
    hand = list(s["players"][0]["hand"])
    assert R.needs(s)["phase"] == "place"
    assert "goes back on ④" in R.describe(s, {"type": "place-customers", "player": 0})
    new = ok(s, {"type": "place-customers", "player": 0})
    assert new["wards"]["kita"] == ["food"] and new["players"][0]["hand"] == hand
    assert [q["card"] for q in new["queue"]] == ["koto", "chuo", "ota", "kita"]
    assert [q["customers"] for q in new["queue"]] == [["clothing"], ["electronics"], [], []]
    assert new["bag"] == ["books-2"] and not new["final_round"]
    assert new["last"]["card_taken"] is None and new["last"]["queue_card"] == "kita"
    # table mode: no card is entered for ④
    t = copy.deepcopy(s) | {"mode": "table"}
    t["bag"] = IX.sort_tokens(t["bag"])
    assert R.needs(t)["enter"] == {"cards": 0, "customers": 1}
    bad(t, {"type": "place-customers", "player": 0, "card": "kita", "customers": ["books-2"]},
        "goes back on ④", "leave out")
    new = ok(t, {"type": "place-customers", "player": 0, "customers": ["books-2"]})
    assert [q["card"] for q in new["queue"]] == ["koto", "chuo", "ota", "kita"]
    assert [q["customers"] for q in new["queue"]] == [["clothing"], ["books-2"], [], []]
    assert new["bag"] == ["electronics"] and new["players"][0]["hand"] == hand


# ---------------------------------------------------------------------------------------------
# Garbage and helpers

@pytest.mark.parametrize("move", [
    None, 3, "end-turn", [], {}, {"type": None}, {"type": "fly"}, {"type": ["end-turn"]},
    {"type": "end-turn"}, {"type": "end-turn", "player": 0},
    {"type": "income"}, {"type": "income", "player": "0"}, {"type": "income", "player": True},
    {"type": "income", "player": 0, "extra": 1}, {"type": "income", "player": 0, None: 1},
    {"type": "open-store", "player": 0, "card": {"a": 1}, "station": ["x"], "goods": ["food"]},
    {"type": "open-store", "player": 0, "card": "chiyoda", "station": "tokyo", "goods": {"x": 1}},
    {"type": "move-customers", "player": 0, "card": "shinjuku", "path": [["a"]]},
    {"type": "move-customers", "player": 0, "card": "shinjuku", "path": ["shinjuku"], "take": {"shinjuku": 3}},
    {"type": "expand-track", "player": 0, "connection": [["a"], {"b": 1}]},
    {"type": "move-matsuri", "player": 0, "ward": ["x"]},
])
def test_garbage_is_refused_with_a_sentence(move):
    s = scenario(hand=["chiyoda", "shinjuku"])
    s["wards"]["shinjuku"] = ["food"]
    bad(s, move)
    s["phase"] = "matsuri"
    bad(s, move)


def test_ward_view_without_and_with_state():
    v = R.ward_view("shinjuku")
    assert v["cards"] == 4 and v["name"] == "Shinjuku"
    assert [st["id"] for st in v["stations"]] == ["shinjuku", "takadanobaba", "yotsuya"]
    assert {n["id"] for n in v["neighbours"]} == {"toshima", "bunkyo", "chiyoda", "minato", "shibuya", "nakano"}
    assert v["stations"][0]["sakura"] is True
    assert any(c["station"] == "yoyogi" and c["prebuilt"] for c in v["stations"][0]["connections"])
    s = scenario(hand=["shinjuku", "shinjuku"], matsuri="nakano")
    store(s, "takadanobaba", 1, "books")
    track(s, "shinjuku", "nakano", 0)
    s["wards"]["shinjuku"] = ["food"]
    v = R.ward_view("shinjuku", s, player=0)
    assert v["customers"] == ["food"] and v["matsuri"] is False
    assert v["stations"][1]["store"] == {"owner": 1, "kind": "store", "goods": "books"}
    conn = {c["station"]: c for c in v["stations"][0]["connections"]}
    assert conn["nakano"]["built"] and conn["nakano"]["owner"] == 0
    assert conn["yoyogi"]["built"] and conn["yoyogi"]["owner"] is None
    assert not conn["iidabashi"]["built"]
    assert v["wild_for_player"] is False and v["in_hand"] == 2
    assert v["wild"][1] == {"player": 1, "name": "Ben", "wild": True, "why": ["store"]}
    assert R.ward_view("nakano", s, player=0)["wild_why"] == ["matsuri"]
    public = R.public_view(s, viewer=1)                 # works on a phone's view of the state too
    assert R.ward_view("shinjuku", public, player=0)["in_hand"] is None
    assert R.ward_view("shinjuku", public, player=1)["wild_for_player"] is True   # Ben has a store there
    with pytest.raises(KeyError):
        R.ward_view("gotham")


def test_public_view_hides_seed_deck_and_other_hands():
    s = fresh(3)
    v = R.public_view(s, viewer=1)
    assert v["seed"] is None and v["deck"] is None and v["deck_size"] == len(s["deck"])
    assert v["players"][0]["hand"] is None and v["players"][0]["hand_size"] == 4
    assert v["players"][1]["hand"] == s["players"][1]["hand"]
    s2 = ok(scenario(hand=["ota"]), {"type": "income", "player": 0})
    assert R.public_view(s2, viewer=1)["last"]["drawn"] == 3
    assert len(R.public_view(s2, viewer=0)["last"]["drawn"]) == 3
    assert R.public_view(s2, viewer=None)["last"]["drawn"] == 3
    assert len(R.public_view(s2, viewer=HOST)["last"]["drawn"]) == 3


def test_public_view_of_a_spectator_and_of_the_host():
    """None (a spectator) sees no hand; HOST (the phone passed around) sees every hand, but never
    the seed, the deck or the bag's order."""
    s = fresh(3)
    spectator = R.public_view(s, viewer=None)
    assert all(p["hand"] is None and p["hand_size"] == 4 for p in spectator["players"])
    host = R.public_view(s, viewer=HOST)
    assert [p["hand"] for p in host["players"]] == [p["hand"] for p in s["players"]]
    for v in (spectator, host):
        assert v["seed"] is None and v["deck"] is None and v["deck_size"] == len(s["deck"])
        assert v["bag"] == IX.sort_tokens(s["bag"]) and json.dumps(v)
    t = deal_table()
    assert R.public_view(t, viewer=HOST)["deck"] is None      # table mode: the deck would tell hands
    move = {"type": "deal-hand", "player": 0, "cards": ["ota", "ota", "kita", "chuo"]}
    assert R.public_move(move, viewer=1)["cards"] == 4
    assert R.public_move(move, viewer=None)["cards"] == 4
    assert R.public_move(move, viewer=0) == move and R.public_move(move, viewer=HOST) == move
    assert R.public_move("junk", viewer=1) == "junk"


def get_path(state, path):
    for key in path:
        state = state[key]
    return state


def test_secret_paths_are_hidden_from_everyone_but_their_seat_and_the_host():
    s = ok(scenario(players=3, hand=["ota"]), {"type": "income", "player": 0})
    assert R.secret_paths(s, 0) == [("players", 0, "hand"), ("last", "drawn")]
    assert R.secret_paths(s, 1) == [("players", 1, "hand")]
    for seat in range(3):
        for path in R.secret_paths(s, seat):
            secret = get_path(s, path)
            for viewer in (None, *(v for v in range(3) if v != seat)):
                assert get_path(R.public_view(s, viewer), path) != secret or secret in ([], None)
            assert get_path(R.public_view(s, seat), path) == secret
            assert get_path(R.public_view(s, HOST), path) == secret


def test_needs_describe_and_can_undo():
    s = fresh()
    n = R.needs(s)
    assert n["phase"] == "place" and n["players"] == [0] and n["moves"] == ["place-customers"]
    t = deal_table()
    assert R.needs(t)["enter"] == {"cards": 1, "customers": 1}
    assert R.needs(R.public_view(t, viewer=1)) == R.needs(t)
    t2 = ok(ok(t, {"type": "place-customers", "player": 0, "card": "ota", "customers": ["books-2"]}),
            {"type": "move-matsuri", "player": 0, "ward": "shibuya"})
    assert R.needs(t2)["income_cards"] == {"0": 1}
    assert R.needs(R.public_view(t2, viewer=1)) == R.needs(t2)
    assert "places" in R.describe(s, {"type": "place-customers", "player": 0})
    assert R.describe(s, {"type": "open-store", "player": 0, "card": "chiyoda", "station": "tokyo",
                             "goods": "food"}) == "Aki opens a Food store at Tokyo with a Chiyoda card."
    assert R.describe(s, "junk") == "?"
    assert R.reveals(s, {"type": "place-customers", "player": 0})
    assert R.reveals(s, {"type": "open-store", "player": 0}) == []
    assert R.reveals(t, {"type": "income", "player": 0}) == []
    assert R.can_undo(s, {"type": "place-customers", "player": 0}) == []   # the host may (API.md)


def test_actors_in_every_phase():
    t = fresh(3, mode="table")
    assert R.actors(t) == Actors("all", (0, 1, 2))           # anyone enters the set-up
    s = fresh(3, start_player=1)
    assert R.actors(s) == Actors("one", (1,))                # place-customers
    s = ok(s, {"type": "place-customers", "player": 1})
    assert R.actors(s) == Actors("one", (1,))                # move-matsuri
    b = scenario(players=4, hand=["shinjuku"])
    b["wards"]["shinjuku"] = ["food"]
    track(b, "shinjuku", "nakano", 3)
    track(b, "nakano", "koenji", 2)
    b = ok(b, {"type": "move-customers", "player": 0, "card": "shinjuku",
               "path": ["shinjuku", "nakano", "koenji"]})
    assert R.actors(b) == Actors("several", (2, 3))          # each answers the track bonus
    assert R.actors(ok(b, {"type": "decline-income", "player": 3})) == Actors("several", (2,))
    assert R.actors(b | {"phase": "over"}) == contract.NOBODY


def test_who_may_send_a_move():
    """ctx.seat: the seat a move names, or the host; the table's set-up entries from any seat; a
    seat enters its own dealt hand only."""
    s = scenario(hand=["ota"])
    move = {"type": "income", "player": 0}
    assert R.validate(s, move, contract.Ctx(seat=0)) == []
    assert R.validate(s, move, contract.Ctx(seat=HOST)) == []
    reasons = bad_from(s, move, contract.Ctx(seat=1))
    assert "only aki" in " ".join(reasons).lower()
    bad_from(s, move, contract.Ctx(seat=None))
    t = fresh(2, mode="table")
    hand = {"type": "deal-hand", "player": 0, "cards": ["ota", "ota", "kita", "chuo"]}
    assert R.validate(t, hand, contract.Ctx(seat=0)) == []
    bad_from(t, hand, contract.Ctx(seat=1))
    seed = {"type": "seed-ward", "ward": "ota", "customers": ["food", "food"]}
    for seat in (0, 1, None, HOST):
        assert R.validate(t, seed, contract.Ctx(seat=seat)) == []
        R.apply(t, seed, contract.Ctx(seat=seat))


def bad_from(state, move, ctx):
    before = copy.deepcopy(state)
    reasons = R.validate(state, move, ctx)
    assert reasons and R.validate(state, move) == []
    with pytest.raises(IllegalMove):
        R.apply(state, move, ctx)
    assert state == before
    return reasons


def test_legal_moves_of_one_seat_and_completeness():
    t = fresh(3, mode="table")
    everyone = R.legal_moves(t)
    assert everyone.complete is False                         # one possible draw of many
    mine = R.legal_moves(t, player=1).moves
    assert {m["type"] for m in mine} == {"deal-hand", "seed-ward", "place-matsuri", "fill-queue"}
    assert [m["player"] for m in mine if m["type"] == "deal-hand"] == [1]
    s = scenario(hand=["ota"], matsuri="taito")
    s["phase"] = "matsuri"
    legal = R.legal_moves(s)
    assert legal.complete and {m["ward"] for m in legal.moves} == set(IX.neighbours["taito"])
    assert R.legal_moves(s, player=1).moves == []
    s = scenario(hand=["ota", "kita", "koto"])
    s["wards"]["ota"] = ["food"]
    assert R.legal_moves(s).complete is False                  # three-card wilds and paths sampled
    s = scenario(hand=["chiyoda"])
    legal = R.legal_moves(s)                                   # one card, nothing to move
    assert legal.complete is True and all(R.validate(s, m) == [] for m in legal.moves)


def test_legal_moves_are_legal_in_many_positions():
    s = scenario(hand=["shinjuku", "chiyoda", "ota", "kita"])
    s["wards"]["shinjuku"] = ["food", "books"]
    store(s, "shinjuku", 0, "food")
    store(s, "shibuya", 1, kind="department-store")
    s["players"][0]["customers"] = ["food"]
    moves = R.legal_moves(s).moves
    kinds = Counter(m["type"] for m in moves)
    assert set(kinds) == {"open-store", "expand-track", "upgrade-store", "income", "move-customers"}
    for m in moves:
        assert R.validate(s, m) == [], m
