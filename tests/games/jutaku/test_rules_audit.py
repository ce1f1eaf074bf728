"""Tokyo Jutaku: the rules audit's findings (issue 21), each from the text it quotes: Izakaya's line
bonus scores the lines, not the order the discs went down; the first turn order drawn at the table;
the black drink's back stays unseen until flipped and a flipped card keeps its face on the map; a
round "could be" the last; error texts in words; grab's drink required by the engine as by the
OpenAPI document."""
from __future__ import annotations

import itertools


from companion.games.contract import HOST, Ctx
from companion.games.jutaku.rules import izakaya, main
from companion.games.jutaku.web import site_status

T0 = 1_700_000_000_000
NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi"]
TEXT = "jutaku.txt"


def play(R, state, *moves):
    for m in moves:
        assert R.validate(state, m, Ctx(T0, HOST)) == [], m
        state = R.apply(state, m, Ctx(T0, HOST))
    return state


# ------------------------------------------------------------------------------ Izakaya: the lines
ROW = [((c, 0), (c + 1, 0)) for c in range(4)]          # the 4 disc spaces along the top row of 5 cards


def free_pieces_for(R, order):
    """Aki claims the 4 spaces of a row of the 5 x 5 grid in `order` (a claim a turn, the pyramid
    on a card of its own); returns the free pieces earned, each placed at once."""
    s = R.setup(NAMES[:5], {"mode": "izakaya", "chance": "companion"}, 3)
    s = play(R, s, *[{"type": "bid", "player": p, "amount": 0} for p in range(5)])
    aki = s["order"][0]
    earned = 0
    sites = {0: (0, 0), 1: (1, 0), 2: (2, 0), 3: (4, 0)}   # a free card beside each disc space
    for i in order:
        s = {**s, "turn": 0, "phase": "actions", "players": [dict(p, discs=9, pyramids=6) for p in s["players"]]}
        a, b = ROW[i]
        s = play(R, s, {"type": "claim", "player": aki, "edge": [list(a), list(b)], "site": list(sites[i])})
        if s["bonus"] is not None:
            got = s["bonus_left"]
            earned += got
            for k in range(got):
                assert izakaya.current(s) == aki and s["bonus"] == aki
                s = play(R, s, {"type": "build", "player": aki, "site": [k, 2], "floors": 1})
            assert s["bonus"] is None and s["bonus_left"] == 0
    assert len(s["lines"]) == 2
    return earned


def test_four_discs_in_a_row_earn_two_free_pieces_whatever_the_order(R, rules_text):
    """"If a player manages to get a straight line of 3 action discs (only possible in the 4 or 5
    player games), they get to take a building piece from the supply and place it immediately": four
    discs in a row hold two lines of 3. Placed left to right they earn one piece, then another; with
    the middle disc last, the one disc completes both lines at once: two pieces too."""
    for order in itertools.permutations(range(4)):
        assert free_pieces_for(R, order) == 2, order
    assert "straight line of 3 action discs" in rules_text(TEXT)


def test_two_lines_at_once_ask_for_two_pieces_and_a_pass_lets_one_go(R):
    s = R.setup(NAMES[:5], {"mode": "izakaya", "chance": "companion"}, 3)
    s = play(R, s, *[{"type": "bid", "player": p, "amount": 0} for p in range(5)])
    aki = s["order"][0]
    s["edges"] = {izakaya.edge_key(*ROW[i]): aki for i in (0, 1, 3)}
    s = play(R, s, {"type": "claim", "player": aki, "edge": [list(x) for x in ROW[2]], "site": [2, 0]})
    assert s["bonus"] == aki and s["bonus_left"] == 2
    assert R.describe(s, {"type": "pass", "player": aki}) == f"{NAMES[aki]} lets a free piece go."
    assert "Place 2 free pieces" in R.needs(s)["prompt"]
    turn = s["turn"]
    s = play(R, s, {"type": "pass", "player": aki})                 # lets the first go
    assert s["bonus_left"] == 1 and s["turn"] == turn and "Place a free piece" in R.needs(s)["prompt"]
    s = play(R, s, {"type": "build", "player": aki, "site": [4, 4], "floors": 1})
    assert s["bonus"] is None and s["turn"] == turn + 1


# ------------------------------------------------------------------------------ Izakaya: turn order
def test_the_first_turn_order_is_drawn_at_the_table_and_entered(R, rules_text):
    """"Using players' remaining disc, randomly draw them 1 at a time, and create the turn order":
    at a table that draws, it enters the order before the first bids; the bids' ties then swap the
    order drawn ("Any ties swap places"), not the seat order."""
    s = R.setup(NAMES[:3], {"mode": "izakaya"}, 1)
    assert s["phase"] == "order" and R.needs(s)["moves"] == ["turn-order"]
    assert "enter the turn order" in R.needs(s)["prompt"]
    assert "first enter the turn order" in " ".join(R.validate(s, {"type": "bid", "player": 0, "amount": 0}))
    for bad in ([0, 1], [0, 0, 1], [0, 1, 3], "0,1,2", [0, 1, 2.5]):
        assert R.validate(s, {"type": "turn-order", "order": bad}), bad
    assert R.move_type("turn-order").who == "table"
    steps = R.setup_steps(s)                                        # the table page's set-up walk
    assert steps[-1]["title"] == "Turn order" and steps[-1]["input"] == "turn-order"
    assert "draw them 1 at a time" in steps[-1]["text"]
    s = play(R, s, {"type": "turn-order", "order": [2, 0, 1]})
    assert s["phase"] == "bid" and s["order"] == [2, 0, 1] and R.setup_steps(s) == []
    assert R.describe(s, {"type": "turn-order", "order": [2, 0, 1]}) == "Turn order drawn: Chie, Aki, Ben."
    assert R.validate(s, {"type": "turn-order", "order": [0, 1, 2]})             # once, before the bids
    s = play(R, s, *[{"type": "bid", "player": p, "amount": 0} for p in range(3)])
    assert s["order"] == [1, 0, 2]                                  # all tied: the drawn order reversed
    # the companion draws it where it deals: no order to enter
    c = R.setup(NAMES[:3], {"mode": "izakaya", "chance": "companion"}, 1)
    assert c["phase"] == "bid" and R.validate(c, {"type": "turn-order", "order": [0, 1, 2]})
    assert "randomly draw them 1 at a time, and create the turn order" in rules_text(TEXT)


def test_izakaya_floors_error_in_words(R):
    s = R.setup(NAMES[:2], {"mode": "izakaya"}, 1)
    s = play(R, s, {"type": "turn-order", "order": [0, 1]}, {"type": "bid", "player": 0, "amount": 0},
             {"type": "bid", "player": 1, "amount": 0})
    p = izakaya.current(s)
    assert R.validate(s, {"type": "build", "player": p, "site": [0, 0], "floors": 2}) == \
        ["floors: a new building has 1 floor with its first piece"]
    s = play(R, s, {"type": "build", "player": p, "site": [0, 0], "floors": 1})
    q = izakaya.current(s)
    assert R.validate(s, {"type": "build", "player": q, "site": [0, 0], "floors": 3}) == \
        ["floors: the building has 1 floor; with the new piece it has 1 (the piece on its top floor) "
         "or 2 (a new floor)"]


# ------------------------------------------------------------------------------ the main game
def on_site(R, s, p, site, phase="building"):
    s = {**s, "phase": phase, "map": dict(s["map"]), "players": [dict(x) for x in s["players"]]}
    k = next(k for k, v in s["map"].items() if v == site)
    s["map"][k] = None
    s["players"][p].update(at=k, site=site)
    return s


def test_stop_counts_errors_say_storey_and_piece_in_words(R, g):
    face = g.site["suginami-1"].blue
    assert (face.height, face.requirement) == (1, "1.///")
    s = on_site(R, R.setup(NAMES[:2], {"side": "blue"}, 1), 0, "suginami-1")
    s["players"][0]["side"] = "blue"
    assert R.validate(s, {"type": "stop", "player": 0, "floors": 2}) == \
        ["the card asks for 1 storey (1.///), not 2"]
    assert R.validate(s, {"type": "stop", "player": 0, "pieces": 4}) == \
        ["the card asks for 3 pieces (1.///), not 4"]


def test_grab_needs_its_drink_field_as_the_openapi_document_says(R):
    field = next(f for f in R.move_type("grab").fields if f.name == "drink")
    assert field.required                                           # the document: required (null allowed)
    s = R.setup(NAMES[:3], {"bottle_bonus": True, "chance": "companion"}, 1)
    for p, site in enumerate(("suginami-1", "taito-2", "setagaya-3")):
        s = play(R, s, {"type": "start", "player": p, "site": site})
    s = play(R, s, {"type": "begin"}, {"type": "stop", "player": 0},
             {"type": "verdict", "player": 1, "builder": 0, "ok": True})
    assert s["phase"] == "grab"
    assert R.validate(s, {"type": "grab", "player": 1}) == \
        ["drink: a colour that came out of the machine, or null to grab nothing"]
    assert R.validate(s, {"type": "grab", "player": 1, "drink": None}) == []


def test_a_round_could_be_the_last_never_surely(R, g):
    """"Once a player finishes their fourth site card, the game ends": a player holding 3 makes the
    next round one that could be the last, not the last (their building may fail the check, a timed
    round may run out), so no "Last round!" banner; the prompt says it could be, and why."""
    end = g.rules.end_sites
    s = R.setup(NAMES[:2], {}, 1)
    for p, site in enumerate(("suginami-1", "taito-2")):
        s = play(R, s, {"type": "start", "player": p, "site": site})
    assert R.table_facts(s)["last_round"] is False and "could be" not in R.needs(s)["prompt"]
    s["players"][0]["kept"] = [{"site": x, "side": "white", "yen": 1000, "round": 1}
                               for x in ("meguro-1", "meguro-2", "meguro-3")][:end - 1]
    facts = R.table_facts(s)
    assert facts["last_round"] is False and "last_round_note" not in facts
    assert {c["label"]: c["n"] for c in facts["counts"]}["Players one site card from the end (4 ends the game)"] == 1
    assert R.needs(s)["prompt"].endswith(
        "This could be the last round: Aki has 3 site cards, and completing one more ends the game.")
    # Izakaya's final action phase is known: its banner stays
    iz = {**R.setup(NAMES[:2], {"mode": "izakaya", "chance": "companion"}, 1), "final": True}
    assert R.table_facts(iz)["last_round"] is True


# ------------------------------------------------------------------------------ Bottle Bonus: black
def test_a_card_flipped_by_black_and_left_behind_keeps_the_face_it_lies_on(R, g):
    """"BLACK: Spend this drink to flip over your site card": the card lies blue side up from then
    on. Left behind when its player moves, it goes back on the map as it lies, and whoever takes it
    later builds on its blue side."""
    s = R.setup(NAMES[:2], {"bottle_bonus": True}, 1)
    s = play(R, s, {"type": "start", "player": 0, "site": "suginami-1"},
             {"type": "start", "player": 1, "site": "taito-2"})
    s["players"][0]["drinks"] = {"black": 1}
    s = play(R, s, {"type": "spend", "player": 0, "drink": "black"})
    assert s["players"][0]["side"] == "blue" and s["flipped"] == ["suginami-1"]
    # Ben completes; Aki, who did not, moves away: the card goes back blue side up
    s = play(R, s, {"type": "begin"}, {"type": "stop", "player": 1},
             {"type": "verdict", "player": 0, "builder": 1, "ok": True},
             {"type": "draw-drinks", "drinks": ["purple"]}, {"type": "grab", "player": 0, "drink": None})
    s = play(R, s, {"type": "move", "player": 1, "site": s["map"][sorted(main.destinations(R, s, 1)[0])[0]]})
    aki_at = s["players"][0]["at"]
    s = play(R, s, {"type": "move", "player": 0, "site": s["map"][sorted(main.destinations(R, s, 0)[0])[0]]})
    assert s["map"][aki_at] == "suginami-1" and s["turned"] == {"suginami-1": "blue"}
    assert main.face_up(s, "suginami-1") == "blue"
    assert site_status(type("Game", (), {"rules": R}), s, "suginami-1") == \
        "It is on the map, free (blue side up: a black drink flipped it)."
    # whoever takes it later builds its blue face (Ben, with a purple drink, after his next card)
    s = {**s, "phase": "move", "movers": [1], "mover": 0, "players": [dict(p) for p in s["players"]]}
    s["players"][1].update(site=None, drinks={"purple": 1})
    s = play(R, s, {"type": "move", "player": 1, "site": "suginami-1", "purple": True})
    assert s["players"][1]["site"] == "suginami-1" and s["players"][1]["side"] == "blue"
    assert s["turned"] == {}


def test_the_back_of_a_card_is_public_only_once_flipped(R, g):
    """"Players cannot look at the back side before deciding to flip or not": the table's state
    carries a card's two faces only once a black drink flipped it there."""
    s = R.setup(NAMES[:2], {"bottle_bonus": True}, 1)
    s = play(R, s, {"type": "start", "player": 0, "site": "suginami-1"},
             {"type": "start", "player": 1, "site": "taito-2"})
    assert R.public_view(s, 0)["faces"] == {}
    assert R.faces_seen(s, "suginami-1") == ("white", ["white"])
    assert R.faces_seen(s, "meguro-1") == ("white", ["white"])
    s["players"][0]["drinks"] = {"black": 1}
    s = play(R, s, {"type": "spend", "player": 0, "drink": "black"})
    view = R.public_view(s, 1)
    assert list(view["faces"]) == ["suginami-1"]
    assert view["faces"]["suginami-1"]["blue"] == {"req": g.site["suginami-1"].blue.requirement,
                                                   "yen": g.site["suginami-1"].blue.yen,
                                                   "plan": list(g.site["suginami-1"].blue.plan)}
    assert R.faces_seen(s, "suginami-1") == ("blue", ["white", "blue"])
    assert R.faces_seen(s, "taito-2") == ("white", ["white"])
    assert R.faces_seen({**s, "phase": "over"}, "taito-2") == ("white", ["white", "blue"])
