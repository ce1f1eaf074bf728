"""Sapporo 1876's canonical data against the rules text, its cross-references, and the loader's
errors on broken files. (The rules' arithmetic over it and the worked examples: test_rules.py.)

Each test checks the data first; the rules' own sentences (../shared/rules/sapporo-1876.txt) are
checked last, and skipped with a reason when ../shared is not beside the repository."""
import re
from collections import Counter

import pytest

from generator import canon

RULES = "sapporo-1876.txt"
GAME = "sapporo-1876"
RESOURCES = ("wheat", "rice-bale", "sheep", "cattle")


@pytest.fixture(scope="module")
def game():
    return canon.load(GAME)


# --------------------------------------------------------------------------- totals of the rules

def test_component_list_of_the_rules(game, rules_text):
    inv = game.inventory
    colour = {c.id: c for c in game.colours}
    resource = game.resource
    note = {n.value: n for n in game.banknotes}
    stated = {
        "Main board x1": inv.main_boards == 1,
        "Personal board x2": inv.personal_boards == 2,
        "Workers x18 (black x9, white x9)": (
            inv.workers == 18 and colour["black"].workers == 9 and colour["white"].workers == 9),
        "Score markers x2 (black x1, white x1)": (
            inv.score_markers == 2 and colour["black"].score_markers == colour["white"].score_markers == 1),
        "Influential person tiles x10": inv.influential_persons == 10 == len(game.persons),
        "Building tiles x13": inv.building_tiles == 13 == len(game.building_tiles),
        "Resource tokens x48 (wheat x12, rice bale x12, sheep x12, cattle x12)": (
            inv.resource_tokens == 48 and all(resource[r].tokens == 12 for r in RESOURCES)),
        "Banknotes x18 (1-yen note x14, 5-yen note x4)": (
            inv.banknotes == 18 and note[1].count == 14 and note[5].count == 4),
        "Action pawn x1": inv.action_pawns == 1,
        "Harvest marker x1": inv.harvest_markers == 1,
        "Settlement marker x1": inv.settlement_markers == 1,
    }
    for phrase, agrees in stated.items():
        assert agrees, phrase
    assert set(game.resource) == set(RESOURCES)
    assert game.players == (2, 2) and game.players_source == "rules"

    text = rules_text(RULES)
    for phrase in stated:
        assert phrase in text, phrase


def test_setup_stated_by_the_rules(game, rules_text):
    s = game.setup
    assert s.persons_on_board == 6
    assert s.buildings_on_board == 6
    assert s.buildings_beside_board == 4
    # 6 + 4 laid out, each player buys 1, "the 2 building tiles remaining" go back: 3 never come out.
    assert s.buildings_beside_board - 2 * s.buildings_bought == 2
    assert s.notes_on_action_spots == 1 and len(game.action_spots) == 4
    assert s.workers_in_area == 3
    assert game.academy.workers == 6 and s.workers_in_area + game.academy.workers == 9
    assert s.yen == 4
    assert s.resources == {"wheat": 2, "rice-bale": 1, "sheep": 1, "cattle": 1}
    assert s.score == 0
    assert all(t.cost <= s.yen for t in game.building_tiles)   # so it is always affordable

    text = rules_text(RULES)
    for phrase in (
            "place one face up on each of the 6 tile spaces in the center",
            "place one face up on each of the 6 tile spaces at the bottom",
            "randomly choose 4 of the remaining building tiles",
            "Return the 2 building tiles remaining beside the main board to the box",
            "Take four 1-yen notes from the common supply and place one on each of the 4 action spots",
            "Each player takes the 9 workers of one color. Place 3 of them on the worker area",
            "Place the remaining 6 on the spaces of the private academy",
            "Each player receives 4 yen",
            "Each player receives 2 wheat, 1 rice bale, 1 sheep and 1 cattle",
            'places it on the "0" space of the score track',
            "Buying this one building tile is mandatory",
    ):
        assert phrase in text, phrase


def test_action_points_stated_by_the_rules(game, rules_text):
    college = game.action_spot["agricultural-college"]
    assert college.ap == {"rice-bale": 3, "cattle": 2}
    assert college.source_of("ap") == "rules"
    assert game.action_points.yen == 1
    for spot in game.action_spots:
        assert sorted(spot.ap.values()) == [2, 3], spot.id
        assert set(spot.ap) <= set(RESOURCES)
    # House: each resource is worth 3 AP at one spot and 2 AP at another.
    for r in RESOURCES:
        assert sorted(s.ap[r] for s in game.action_spots if r in s.ap) == [2, 3], r
    actions = [s for t in game.building_tiles for s in t.effects if s.effect == "action"]
    assert len(actions) == 5 and all(s.resource_ap == 2 for s in actions)

    text = rules_text(RULES)
    for phrase in (
            "you can pay rice bales as 3 AP each and cattle as 2 AP each",
            "1 AP: 1-yen note", "5 AP: 5-yen note",
            "You may pay any resource as 2 AP each",
    ):
        assert phrase in text, phrase


def test_action_spots_and_tracks(game, rules_text):
    colours = {s.name: s.background for s in game.action_spots}
    assert colours == {"Agricultural College": "orange", "Pioneer Village": "orange",
                       "Foreign Residence": "blue", "Central City Hall": "blue"}
    actions = {s.name: s.action for s in game.action_spots}
    assert actions == {"Agricultural College": "educate", "Pioneer Village": "pioneer",
                       "Foreign Residence": "invest", "Central City Hall": "appoint"}
    for spot, neighbours in game.adjacent.items():
        assert len(neighbours) == 2, spot
        assert all(spot in game.adjacent[n] for n in neighbours)
    assert game.track("orange") is game.harvest_track and game.harvest_track.start == "bottom"
    assert game.track("blue") is game.settlement_track and game.settlement_track.start == "top"
    assert game.end.events == 5
    for track in (game.harvest_track, game.settlement_track):
        assert len(track.icons) >= 5 and track.icons[-1] == track.spaces - 1

    text = rules_text(RULES)
    for phrase in (
            "orange (Agricultural College / Pioneer Village)",
            "blue (Foreign Residence / Central City Hall)",
            "For the 2 action spots that are edge-adjacent",
            "advance the harvest marker 1 space up",
            "advance the settlement marker 1 space down",
            "When harvests and settlements have occurred 5 times in total, the game ends",
    ):
        assert phrase in text, phrase


def test_final_scoring_stated_by_the_rules(game, rules_text):
    assert [t.final_fame for t in game.academy.tier][-2:] == [3, 6]
    assert all(t.workers == 2 for t in game.academy.tier) and len(game.academy.tier) == 3
    assert (game.pioneering.second_from_top_fame, game.pioneering.top_fame) == (2, 5)
    assert [c.final_per_worker for c in game.council] == [3, 6, 9]
    assert game.final_scoring.leftover_items_per_fame == 2
    assert game.end.tie == "last-active-player"
    assert (game.academy.when_empty_ap, game.academy.when_empty_fame) == (3, 2)

    text = rules_text(RULES)
    for phrase in (
            "If both workers of the second tier from the top have been educated, gain 3 fame points",
            "gain an additional 6 fame points (9 fame points in total)",
            "with a worker on the second space from the top, gain 2 fame points",
            "with a worker on the topmost space, gain 5 fame points",
            "gain 3 fame points. Similarly, gain 6 fame points for each of your workers in the middle",
            "9 fame points for each of your workers in the rightmost column",
            "Gain 1 fame point for every 2 of them (round down)",
            "In case of a tie, the last active player is the winner",
            "you can pay 3 AP to gain 2 fame points",
    ):
        assert phrase in text, phrase


def test_harvest_rules(game, rules_text):
    assert game.harvest.free_building_returns == 1
    assert game.harvest.building_return_cost == 1

    text = rules_text(RULES)
    for phrase in (
            "chooses one building tile beside their personal board that has a worker on it",
            "each time you pay 1 yen you may remove the worker",
    ):
        assert phrase in text, phrase


# --------------------------------------------------------------------------- worked examples

def test_academy_empty_example(game, rules_text):
    a = game.academy
    assert 12 // a.when_empty_ap * a.when_empty_fame == 8

    text = rules_text(RULES)
    assert "(Example: pay 12 AP to gain 8 fame points.)" in text


def test_appoint_example_names_spaces_of_5_and_6_ap(game, rules_text):
    costs = {c for col in game.council for c in col.spaces}
    assert {5, 6} <= costs

    text = rules_text(RULES)
    assert "appoint one worker each to a 5 AP space and a 6 AP space" in text


# --------------------------------------------------------------------------- tiles

def test_building_tiles_are_the_rules_list(game, rules_text):
    assert len(game.building_tiles) == 13
    for t in game.building_tiles:
        assert t.source == "rules" and t.source_of("cost") == "house" and t.source_of("name") == "house"

    text = rules_text(RULES)
    section = text.split("Building tiles\n\n")[-1].split("\n\nInfluential person tiles")[0]
    listed = [line for line in section.splitlines() if line.strip()]
    assert len(listed) == 13
    assert [t.text for t in game.building_tiles] == listed


def test_building_tile_effects_match_their_text(game):
    for t in game.building_tiles:
        m = re.fullmatch(r"Pay 1 yen and gain 1 (wheat|rice bale|sheep|cattle)\.", t.text)
        if m:
            steps = [(s.effect, s.resource, s.amount) for s in t.effects]
            assert steps == [("pay", "yen", 1), ("gain", m.group(1).replace(" ", "-"), 1)], t.id
        m = re.match(r"Gain 1 yen\. Then perform one (\w+) action", t.text)
        if m:
            first, action = t.effects
            assert (first.effect, first.resource, first.amount) == ("gain", "yen", 1)
            assert action.action == m.group(1).lower() and action.resource_ap == 2
        if "rice bale or the cattle column" in t.text:
            assert t.effects[1].columns == ("rice-bale", "cattle")
        if "wheat or the sheep column" in t.text:
            assert t.effects[1].columns == ("wheat", "sheep")
        if "3 fame points" in t.text:
            assert ("gain", "fame", 3) in [(s.effect, s.resource, s.amount) for s in t.effects]


def test_influential_persons(game, rules_text):
    assert {"E. Dunn", "B. Ryan"} <= {p.name for p in game.persons}
    assert all(p.source == "house" and p.cost > 0 and p.text for p in game.persons)
    assert len({p.name for p in game.persons}) == 10

    text = rules_text(RULES)
    assert "The rulebook shows the 10 influential person tiles as pictures only" in text


# --------------------------------------------------------------------------- cross-references

def test_cross_references(game):
    known = set(RESOURCES) | {"yen", "fame", "any"}
    steps = [s for t in game.building_tiles for s in t.effects]
    steps += [s for tier in game.academy.tier for s in tier.bonus]
    for s in steps:
        if s.effect == "action":
            assert all(c in game.pioneer_column for c in s.columns)
        else:
            assert s.resource in known
    for col in game.pioneering.column:
        assert col.resource in game.resource
        assert all(set(space.gain) <= set(RESOURCES) | {"yen"} for space in col.spaces)
    assert set(game.pioneer_column) == set(RESOURCES)
    for p in game.persons:
        assert set(p.scoring.resources) <= set(RESOURCES)
        assert set(p.scoring.columns) <= set(game.pioneer_column) | set(game.council_column)
    for r in game.setup.resources:
        assert r in game.resource


def test_components_rows_add_up(game):
    rows = game.components()
    by_kind = Counter()
    for row in rows:
        by_kind[row.kind] += row.count
        assert row.source in ("rules", "reference", "house")
        assert row.label
    assert len({(r.kind, r.id) for r in rows}) == len(rows)
    assert by_kind == Counter({"board": 3, "worker": 18, "score-marker": 2, "influential-person": 10,
                               "building-tile": 13, "resource": 48, "banknote": 18, "pawn": 1,
                               "marker": 2})


def test_the_interface_every_game_offers(game):
    assert game.id == GAME and game.name == "Sapporo 1876"
    assert canon.load(GAME) is game


# --------------------------------------------------------------------------- broken files

@pytest.mark.parametrize("name, old, new, key, problem", [
    ("tiles.toml", "cost = 2", "cost = 5", "building_tile[0].cost", "a building tile costs 1-4"),
    ("tiles.toml", "cost = 2", "cost = two", "", "not valid TOML"),
    ("tiles.toml", 'columns = ["rice-bale", "cattle"]', 'columns = ["rice", "cattle"]',
     "building_tile[4].effects[1].columns[0]", "unknown pioneering column 'rice'"),
    ("tiles.toml", '{ effect = "gain", resource = "any", amount = 1 }',
     '{ effect = "gain", resource = "gold", amount = 1 }', "building_tile[0].effects[1].resource",
     "unknown resource (or 'any', 'yen', 'fame') 'gold'"),
    ("tiles.toml", '{ effect = "pay", resource = "yen", amount = 2 }',
     '{ effect = "pay", resource = "yen" }', "building_tile[0].effects[0]", "positive amount"),
    ("tiles.toml", 'columns = ["sheep", "cattle"]', 'columns = ["sheep", "goats"]',
     "person[0].scoring.columns[1]", "unknown column 'goats'"),
    ("tiles.toml", 'counter = "leftover-items"', 'counter = "leftovers"', "person[1].scoring.counter",
     "expected one of"),
    ("board.toml", "ap = { rice-bale = 3, cattle = 2 }", "ap = { rice-bale = 3, cattle = 3 }",
     "action_spot[0].ap", "one resource at 3 AP and one at 2 AP"),
    ("board.toml", "position = [0, 1]", "position = [0, 0]", "action_spot[1].position",
     "same position as 'agricultural-college'"),
    ("board.toml", "position = [1, 1]", "position = [2, 2]", "action_spot[1].position",
     "1 edge-adjacent spot(s), the rules say 2"),
    ("board.toml", "icons = [3, 6, 9, 12, 15]", "icons = [3, 6, 9, 12]", "harvest_track.icons",
     "needs 5 icons"),
    ("board.toml", "lower = 1", "lower = 3", "council_column[0]", "lower: 3 must be below higher"),
    ("board.toml", 'action = "educate"', 'action = "appoint"', "action_spot",
     "one spot for each of"),
    ("personal.toml", "gain = { wheat = 1 } }", "gain = { weat = 1 } }",
     "pioneering.column[0].spaces[0].gain.weat", "unknown resource (or 'yen') 'weat'"),
    ("personal.toml", 'cost_source = "house"', 'price_source = "house"', "academy.tier[0].price_source",
     "'price' is not a field here"),
    ("personal.toml", 'bonus_source = "house"', 'bonus_source = "rules"', "academy.tier[0].bonus_source",
     "the item's source is 'rules' already"),
    ("personal.toml", "workers = 2", "workers = 3", "academy.tier",
     "workers in the academy and the worker area add up to 10, the rules say 9"),
    ("components.toml", "tokens = 12", "tokens = 13", "resource",
     "resource tokens add up to 49, the rules say 48"),
    ("components.toml", "workers = 18", "workers = 16", "inventory.workers", "the rules say 18"),
    ("game.toml", 'tie = "last-active-player"', 'tie = "coin-flip"', "end.tie", "expected one of"),
    ("game.toml", "resources = { wheat = 2,", "resources = { wheet = 2,", "setup.resources.wheet",
     "unknown resource 'wheet'"),
    ("game.toml", "players = [2, 2]", "players = [2, 3]", "colour", "2 player colours for 3 players"),
])
def test_broken_file_names_file_key_and_problem(refused_data, name, old, new, key, problem):
    # more players than colours is reported where the colours are
    refused_data(GAME, name, old, new, key, problem, where="components.toml" if key == "colour" else None)
