"""Shin Bikkuri Man with the table's deck, cards named when paid ({"deck": "table", "cards":
"named-when-paid"}, the new tables' way): rules tests from the text (../shared/rules/shin-bikkuri-man.txt
and the reference's component facts) on what the companion can know without the colours: the harbour's
7 spaces (take one card and the one next to it, no wrap-around, the rest slide and are refilled),
the hands' sizes (hand limit 7, discards named), a tile's cost paid in cards named (its colour; another
only with Change of Colours), the deck's count (the discards become the deck when it runs out; the end
card shuffled into the bottom 10 at set-up with 2 players, at the first reshuffle with 3-4, the game
ending when it is revealed), and seeded random playouts to the end: every illegal move refused with the
state unchanged, the log replayed gives the same states, undo (the log less its last move) gives back
the state before exactly. Tables made before the option (no "cards") replay the logs recorded with the
code of that time state for state; what seat 0 is answered over HTTP does not depend on what seat 1
holds."""
from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path

import pytest

from companion.games.contract import HOST, IllegalMove

from .helpers import D, NAMES, R

NAMED = {"deck": "table", "cards": "named-when-paid"}
PER2 = D.cards_per_colour(2)
COLOURS = [c.id for c in D.colours]


def new(players=2, **options):
    return R.setup(NAMES[:players], {**NAMED, **options}, 1)


def play(state, *moves):
    for m in moves:
        state = R.apply(state, m)
    return state


def refused(state, move, *words):
    before = copy.deepcopy(state)
    reasons = R.validate(state, move)
    assert reasons, move
    with pytest.raises(IllegalMove):
        R.apply(state, move)
    assert state == before                                   # nothing changed
    text = " ".join(reasons)
    for w in words:
        assert w in text, (w, text)
    return text


# ---- set-up and options ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_nothing_is_entered_at_set_up(players):
    s = new(players)
    assert s["phase"] == "turn" and s["deal"] is None and s["cards"] == "named-when-paid"
    assert s["harbour"] == ["?"] * 7
    sizes = [sum(p["hand"].values()) for p in s["players"]]
    assert sizes == list(D.starting_hands.by_seat[:players])          # 2, 3, 3, 4 cards in turn order
    total = D.cards_per_colour(players) * len(COLOURS)
    assert s["deck"] == total - 7 - sum(sizes)
    assert s["end_in_deck"] == (players == 2)                          # shuffled in at set-up with 2
    steps = R.setup_steps(s)
    assert steps and all(st["input"] is None for st in steps)
    assert R.public_view(s, 0)["deck_size"] == s["deck"]
    assert R.secret_paths(s, 0) == []


def test_the_start_player_gets_the_smallest_hand():
    s = new(3, start_player=1)
    assert [sum(p["hand"].values()) for p in s["players"]] == [3, 2, 3] and s["current"] == 1


def test_options():
    assert R.validate_options(NAMES[:2], {"deck": "table", "cards": "entered"}) == []
    assert R.validate_options(NAMES[:2], NAMED) == []
    assert "named-when-paid" in " ".join(R.validate_options(NAMES[:2], {"deck": "table", "cards": "x"}))
    assert "table's deck" in " ".join(R.validate_options(NAMES[:2], {"deck": "companion", "cards": "entered"}))
    assert R.chance_modes["table"] == NAMED                           # the new tables' way
    old = R.setup(NAMES[:2], {"deck": "table"}, 1)                    # no "cards": entered, as before
    assert old["phase"] == "deal" and "cards" not in old and "end_window" not in old


# ---- taking cards ---------------------------------------------------------------------------------
def test_a_take_is_two_spaces_next_to_each_other_and_the_harbour_is_refilled_by_itself():
    s = new()
    deck = s["deck"]
    refused(s, {"type": "take", "player": 0, "spaces": [6, 0]}, "next to each other")   # no wrap-around
    refused(s, {"type": "take", "player": 0, "spaces": [3]}, "take 2 cards")
    refused(s, {"type": "take", "player": 1, "spaces": [0, 1]}, "Aki's turn")
    refused(s, {"type": "refill", "cards": ["red", "red"]}, "not a move at this table")
    refused(s, {"type": "fill-harbour", "cards": ["red"] * 7}, "not a move at this table")
    refused(s, {"type": "deal-hand", "player": 0, "cards": ["red", "red"]}, "not a move at this table")
    refused(s, {"type": "correct-card", "player": 0, "was": "red", "now": "blue"}, "not a move at this table")
    s = play(s, {"type": "take", "player": 0, "spaces": [5, 6]})
    assert s["players"][0]["hand"] == {"?": 4} and s["harbour"] == ["?"] * 7
    assert s["deck"] == deck - 2 and s["current"] == 1 and s["turn"] == 2 and s["phase"] == "turn"
    assert s["draws"] == 2 and not s["end_window"]
    line = R.describe(new(), {"type": "take", "player": 0, "spaces": [5, 6]})
    assert "takes 2 cards from the harbour (spaces 6 and 7)" in line


def test_the_hand_limit_discard_names_its_colours_checked_on_the_discard_pile():
    s = new()
    for _ in range(2):
        s = play(s, {"type": "take", "player": 0, "spaces": [0, 1]}, {"type": "take", "player": 1, "spaces": [0, 1]})
    s = play(s, {"type": "take", "player": 0, "spaces": [0, 1]})
    assert s["phase"] == "discard" and s["players"][0]["hand"] == {"?": 8}
    refused(s, {"type": "take", "player": 0, "spaces": [0, 1]}, "discard")
    refused(s, {"type": "discard", "player": 0, "cards": ["red", "blue"]}, "discard 1 card")
    refused(s, {"type": "discard", "player": 0, "cards": ["white"]}, "not a card")
    full = copy.deepcopy(s)
    full["discard"]["red"] = PER2                                       # every red card is face up
    refused(full, {"type": "discard", "player": 0, "cards": ["red"]}, f"has {PER2} red cards", "discard pile")
    assert {"type": "discard", "player": 0, "cards": ["red"]} not in R.legal_moves(full).moves
    s = play(s, {"type": "discard", "player": 0, "cards": ["red"]})
    assert s["discard"]["red"] == 1 and s["players"][0]["hand"] == {"?": 7} and s["current"] == 1


# ---- building ---------------------------------------------------------------------------------------
RED2 = {"type": "build", "player": 0, "tile": "red-2", "squares": [[1, 1], [2, 1]], "brick": [1, 1]}


def _red2():
    """The red 2-tile laid flat at the bottom left, its brick where the data puts it."""
    for m in R.legal_moves(new()).moves:
        if m["type"] == "build" and m["tile"] == "red-2" and sorted(map(tuple, m["squares"])) == [(1, 1), (2, 1)]:
            return m
    raise AssertionError("no red 2-tile at the bottom left")


def test_a_build_pays_the_tiles_colour_by_default():
    s = new()
    m = _red2()
    after = play(s, m)
    assert after["discard"]["red"] == 2 and after["players"][0]["hand"] == {"?": 0}
    assert after["last"]["paid"] == {"red": 2} and after["players"][0]["facade"][-1][:2].lower() == "rr"
    assert "paying 2 red" in R.describe(s, m)
    assert play(s, {**m, "pay": {"red": 2}}) == after


def test_a_build_is_refused_on_public_information_with_the_state_unchanged():
    s = new()
    m = _red2()
    refused(s, {**m, "pay": {"blue": 2}}, "blue cards do not pay for a red tile")
    refused(s, {**m, "pay": {"red": 1}}, "costs 2 cards, not 1")
    refused(s, {**m, "pay": {"pink": 2}}, "not a card colour")
    refused(s, {**m, "pay": "red"}, "pay is an object")
    small = copy.deepcopy(s)
    small["players"][0]["hand"] = {"?": 1}
    refused(small, m, "the hand holds 1")
    seen = copy.deepcopy(s)
    seen["discard"]["red"] = PER2 - 1                                   # one red card left unseen
    refused(seen, m, f"has {PER2} red cards and {PER2 - 1} are in the discard pile")
    assert not [x for x in R.legal_moves(seen).moves if x["type"] == "build" and x["tile"].startswith("red")]
    refused(s, {**m, "player": 1}, "Aki's turn")


def test_change_of_colours_pays_another_colour_and_is_spent_only_then():
    s = new()
    s["players"][0]["abilities"]["change-of-colours"] = "ready"
    m = {**_red2(), "abilities": ["change-of-colours"], "recolour": "blue"}
    both = play(s, {**m, "pay": {"red": 1, "blue": 1}})
    assert both["discard"]["red"] == 1 and both["discard"]["blue"] == 1
    assert both["players"][0]["abilities"]["change-of-colours"] == "used"
    own = play(s, {**m, "pay": {"red": 2}})
    assert own["players"][0]["abilities"]["change-of-colours"] == "ready"
    refused(s, {**m, "pay": {"red": 1, "green": 1}}, "green cards do not pay")


# ---- the deck, the reshuffle and the end card -------------------------------------------------------
def _takes_until(s, stop, rng=None):
    """Take the first pair (discarding what the discard pile leaves room for) until stop(s)."""
    for _ in range(500):
        if stop(s) or s["phase"] == "over":
            return s
        legal = [m for m in R.legal_moves(s).moves if m["type"] != "end-card" and not m.get("abilities")]
        takes = [m for m in legal if m["type"] in ("take", "discard")]
        s = R.apply(s, (takes or legal)[0])
    raise AssertionError("never got there")


def test_two_players_the_end_card_window_opens_in_the_bottom_cards_and_one_tap_ends_the_game():
    s = new()
    refused(s, {"type": "end-card"}, "could not have come up")
    s = _takes_until(s, lambda x: x["end_window"])
    # the refill just made drew a card while at most 10 cards (and the end card) were in the deck
    assert s["deck"] + 2 <= D.end_card.bottom + 1 and s["phase"] == "turn" and not s["done"]
    assert {"type": "end-card"} in R.legal_moves(s).moves
    assert R.needs(s)["end_window"] is True and R.mover({"type": "end-card"}) is None
    over = R.apply(s, {"type": "end-card"})
    assert over["phase"] == "over" and over["ended"] == "end-card" and R.result(over)["ended"] == "end-card"
    # not taken up: the next move closes the window; the end card cannot be claimed afterwards
    m = next(x for x in R.legal_moves(s).moves if x["type"] == "take" and not x.get("abilities"))
    later = R.apply(s, m)
    if later["phase"] == "discard":
        refused(later, {"type": "end-card"}, "undo the moves made since")


def test_only_the_end_card_left_ends_the_game_by_itself():
    s = new()
    s = _takes_until(s, lambda x: x["deck"] == 0 and x["end_in_deck"] and x["phase"] == "turn")
    assert s["phase"] == "turn"
    m = next(x for x in R.legal_moves(s).moves if x["type"] == "take" and not x.get("abilities"))
    after = R.apply(s, m)
    if after["phase"] == "discard":
        after = R.apply(after, R.legal_moves(after).moves[0])
    assert after["phase"] == "over" and after["ended"] == "end-card" and not after["end_in_deck"]


def test_three_players_the_discards_become_the_deck_and_the_end_card_joins_them():
    s = new(3)
    assert not s["end_in_deck"]
    refused(s, {"type": "end-card"}, "not in the deck yet", "first become the deck")
    s = _takes_until(s, lambda x: x["shuffles"] == 1)
    assert s["end_in_deck"] and sum(s["discard"].values()) == 0
    # every card is somewhere: deck + harbour + hands + discard pile = the game's cards
    total = D.cards_per_colour(3) * len(COLOURS)
    assert s["deck"] + len(s["harbour"]) + sum(sum(p["hand"].values()) for p in s["players"]) \
        + sum(s["discard"].values()) == total


# ---- seeded random playouts ----------------------------------------------------------------------------
def _probes(s):
    p = s.get("current", 0)
    return [{"type": "take", "player": p, "spaces": [0, 3]}, {"type": "take", "player": p, "spaces": [6, 7]},
            {"type": "take", "player": (p + 1) % len(s["players"]), "spaces": [0, 1]},
            {"type": "discard", "player": p, "cards": ["red"] * 9},
            {"type": "build", "player": p, "tile": "red-5", "squares": [[1, 1]], "brick": None},
            {**RED2, "player": p, "pay": {"red": 99}},
            {"type": "end-card"} if not s.get("end_window") else {"type": "x"},
            {"type": "refill", "cards": ["red"]}, {"type": "special-tile", "player": p, "square": [9, 9]},
            {"type": "decline", "player": (p + 1) % len(s["players"])}, "not a move", {"type": None}]


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_a_seeded_random_playout_to_the_end(players, seed):
    rng = random.Random(seed)
    s0 = R.setup(NAMES[:players], NAMED, seed)
    s, log, states = s0, [], [s0]
    while s["phase"] != "over":
        assert len(log) < 600
        legal = R.legal_moves(s).moves
        assert legal
        for probe in _probes(s):                                # illegal: refused, state unchanged
            if probe in legal:
                continue
            before = copy.deepcopy(s)
            if R.validate(s, probe):
                with pytest.raises(IllegalMove):
                    R.apply(s, probe)
            assert s == before
        for m in legal:
            assert R.validate(s, m) == [], m                    # every listed move is accepted
        plain = [m for m in legal if m["type"] != "end-card"] if rng.random() < 0.9 else legal
        m = rng.choice(plain or legal)
        s = R.apply(s, m)
        log.append(m)
        states.append(s)
        # the counts add up to the game's cards at every step
        total = D.cards_per_colour(players) * len(COLOURS)
        held = sum(sum(p["hand"].values()) for p in s["players"])
        assert s["deck"] + len(s["harbour"]) + held + sum(s["discard"].values()) <= total
        assert all(v >= 0 for p in s["players"] for v in p["hand"].values()) and s["deck"] >= 0
        assert R.public_view(s, 0)["deck_size"] == s["deck"]
    assert R.result(s)["winners"]
    # replaying the log gives the same states; undo (the log less its last moves) restores exactly
    r = copy.deepcopy(s0)
    for i, m in enumerate(log):
        r = R.apply(r, m)
        assert r == states[i + 1]
    for k in (1, 2, len(log) // 2):
        again = R.setup(NAMES[:players], NAMED, seed)
        for m in log[:-k]:
            again = R.apply(again, m)
        assert again == states[-1 - k]
    json.dumps(states[-1])                                       # plain JSON


# ---- tables made before the option ------------------------------------------------------------------------
FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "old_logs.json").read_text())


def _h(state):
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()[:16]


@pytest.mark.parametrize("case", FIXTURE["logs"], ids=lambda c: f"{len(c['players'])}p-{c['options']}")
def test_old_logs_without_the_option_replay_state_for_state(case):
    """Logs recorded with the rules before "cards" existed (commit 7015e2f): the same states now."""
    s = R.setup(case["players"], case["options"], case["seed"])
    assert _h(s) == case["states"][0]
    for i, m in enumerate(case["moves"]):
        s = R.apply(s, m)
        assert _h(s) == case["states"][i + 1], (i, m)
    assert s == case["final"] and s["phase"] == "over"


# ---- secrets by difference, over HTTP ----------------------------------------------------------------------
def _seat_answers(client, code, headers):
    out = {"table": client.get(f"/api/tables/{code}", headers=headers).get_json(),
           "legal": client.get(f"/api/tables/{code}/legal", headers=headers).get_json()}
    for probe in ({"type": "take", "player": 0, "spaces": [0, 5]}, {"type": "discard", "player": 0, "cards": ["red"]},
                  {**RED2, "player": 0, "pay": {"blue": 2}}, {"type": "end-card"}):
        seq = out["table"]["seq"]
        r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq, "move": probe}, headers=headers)
        out[json.dumps(probe)] = (r.status_code, r.get_json())
    for k in ("table",):
        out[k] = json.loads(json.dumps(out[k]).replace(code, "<code>"))
    out["table"].pop("code", None)
    for key in ("created", "updated", "created_at", "updated_at", "expires_at", "invite"):
        out["table"].pop(key, None)
    return out


def test_what_seat_0_is_answered_does_not_depend_on_what_seat_1_holds(tmp_path):
    """Two tables dealt differently at the table (seat 1's starting hand blue, blue, yellow at one,
    red, green, purple at the other), the same taps: seat 0's reads, legal list and refusals are the
    same JSON at both (the companion never learns a hand; only cards paid or discarded are named)."""
    from companion import create_app
    from companion.testing import FakeClock, token_client
    app = create_app({"DATA_DIR": tmp_path, "CLOCK": FakeClock()})
    client = token_client(app)
    answers = []
    for seat1_holds in (["blue", "blue", "yellow"], ["red", "green", "purple"]):
        made = client.post("/api/tables", json={"game": "shin-bikkuri-man", "players": NAMES[:2],
                                                "options": NAMED}).json
        code = made["code"]
        tokens = {}
        for p in range(2):
            got = client.post(f"/api/tables/{code}/seats", json={"player": p}, auth=False)
            tokens[p] = {"Authorization": f"Bearer {got.json['token']}"}
        # (seat 1's cards lie in its hand at the table: no tap names them)
        for p, m in ((0, {"type": "take", "player": 0, "spaces": [0, 1]}),
                     (1, {"type": "take", "player": 1, "spaces": [2, 3]}),
                     (0, {"type": "take", "player": 0, "spaces": [4, 5]})):
            seq = client.get(f"/api/tables/{code}", headers=tokens[p]).json["seq"]
            r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq, "move": m}, headers=tokens[p])
            assert r.status_code == 200, r.json
        answers.append(_seat_answers(client, code, tokens[0]))
    assert answers[0] == answers[1]
    assert answers[0]["table"]["state"]["players"][1]["hand"] is None       # another seat's: its size only
    assert answers[0]["table"]["state"]["players"][1]["hand_size"] == 5


def test_the_host_sees_no_colour_of_a_hand_either():
    s = new()
    view = R.public_view(s, HOST)
    assert view["players"][1]["hand"] == {"?": 3} and view["conflicts"] == []


# ---- the old way's secrets are still checked by difference ---------------------------------------------------
def test_the_entered_way_still_keeps_each_hand_secret():
    """chance_modes' table now names the new way; the generic check by difference runs here on the
    entered way (every card typed in), whose hands the companion does hold."""
    from test_secrets_by_difference import GAMES, STEPS, check_by_difference
    pairs, twins, _ = check_by_difference(GAMES["shin-bikkuri-man"], {"deck": "table", "cards": "entered"},
                                          "shin-bikkuri-man (table, entered)", STEPS["shin-bikkuri-man"])
    assert twins and pairs
