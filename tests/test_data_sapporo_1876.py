"""Sapporo 1876's canonical data against the rules text, its worked examples, its cross-references,
and the loader's errors on broken files."""
import re
from collections import Counter
from pathlib import Path

import pytest

from generator import canon
from generator.canon import DataError

RULES = Path(__file__).resolve().parents[2] / "shared" / "rules" / "sapporo-1876.txt"
GAME = "sapporo-1876"
RESOURCES = ("wheat", "rice-bale", "sheep", "cattle")


@pytest.fixture(scope="module")
def game():
    return canon.load(GAME)


@pytest.fixture(scope="module")
def text() -> str:
    # The rules live beside the repo in ../shared; CI lays them out the same way.
    return RULES.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- totals of the rules

def test_component_list_of_the_rules(game, text):
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
        assert phrase in text, phrase
        assert agrees, phrase
    assert set(game.resource) == set(RESOURCES)
    assert game.players == (2, 2) and game.players_source == "rules"


def test_setup_stated_by_the_rules(game, text):
    s = game.setup
    assert "place one face up on each of the 6 tile spaces in the center" in text
    assert s.persons_on_board == 6
    assert "place one face up on each of the 6 tile spaces at the bottom" in text
    assert s.buildings_on_board == 6
    assert "randomly choose 4 of the remaining building tiles" in text and s.buildings_beside_board == 4
    # 6 + 4 laid out, each player buys 1, "the 2 building tiles remaining" go back: 3 never come out.
    assert "Return the 2 building tiles remaining beside the main board to the box" in text
    assert s.buildings_beside_board - 2 * s.buildings_bought == 2
    assert "Take four 1-yen notes from the common supply and place one on each of the 4 action spots" in text
    assert s.notes_on_action_spots == 1 and len(game.action_spots) == 4
    assert "Each player takes the 9 workers of one color. Place 3 of them on the worker area" in text
    assert s.workers_in_area == 3
    assert "Place the remaining 6 on the spaces of the private academy" in text
    assert game.academy.workers == 6 and s.workers_in_area + game.academy.workers == 9
    assert "Each player receives 4 yen" in text and s.yen == 4
    assert "Each player receives 2 wheat, 1 rice bale, 1 sheep and 1 cattle" in text
    assert s.resources == {"wheat": 2, "rice-bale": 1, "sheep": 1, "cattle": 1}
    assert 'places it on the "0" space of the score track' in text and s.score == 0
    assert "Buying this one building tile is mandatory" in text
    assert all(t.cost <= s.yen for t in game.building_tiles)   # so it is always affordable


def test_action_points_stated_by_the_rules(game, text):
    assert "you can pay rice bales as 3 AP each and cattle as 2 AP each" in text
    college = game.action_spot["agricultural-college"]
    assert college.ap == {"rice-bale": 3, "cattle": 2}
    assert college.source_of("ap") == "rules"
    assert "1 AP: 1-yen note" in text and "5 AP: 5-yen note" in text and game.action_points.yen == 1
    for spot in game.action_spots:
        assert sorted(spot.ap.values()) == [2, 3], spot.id
        assert set(spot.ap) <= set(RESOURCES)
    # House: each resource is worth 3 AP at one spot and 2 AP at another.
    for r in RESOURCES:
        assert sorted(s.ap[r] for s in game.action_spots if r in s.ap) == [2, 3], r
    assert "You may pay any resource as 2 AP each" in text
    actions = [s for t in game.building_tiles for s in t.effects if s.effect == "action"]
    assert len(actions) == 5 and all(s.resource_ap == 2 for s in actions)


def test_action_spots_and_tracks(game, text):
    assert "orange (Agricultural College / Pioneer Village)" in text
    assert "blue (Foreign Residence / Central City Hall)" in text
    colours = {s.name: s.background for s in game.action_spots}
    assert colours == {"Agricultural College": "orange", "Pioneer Village": "orange",
                       "Foreign Residence": "blue", "Central City Hall": "blue"}
    actions = {s.name: s.action for s in game.action_spots}
    assert actions == {"Agricultural College": "educate", "Pioneer Village": "pioneer",
                       "Foreign Residence": "invest", "Central City Hall": "appoint"}
    assert "For the 2 action spots that are edge-adjacent" in text
    for spot, neighbours in game.adjacent.items():
        assert len(neighbours) == 2, spot
        assert all(spot in game.adjacent[n] for n in neighbours)
    assert "advance the harvest marker 1 space up" in text
    assert game.track("orange") is game.harvest_track and game.harvest_track.start == "bottom"
    assert "advance the settlement marker 1 space down" in text
    assert game.track("blue") is game.settlement_track and game.settlement_track.start == "top"
    assert "When harvests and settlements have occurred 5 times in total, the game ends" in text
    assert game.end.events == 5
    for track in (game.harvest_track, game.settlement_track):
        assert len(track.icons) >= 5 and track.icons[-1] == track.spaces - 1


def test_final_scoring_stated_by_the_rules(game, text):
    assert "If both workers of the second tier from the top have been educated, gain 3 fame points" in text
    assert "gain an additional 6 fame points (9 fame points in total)" in text
    assert [t.final_fame for t in game.academy.tier][-2:] == [3, 6]
    assert all(t.workers == 2 for t in game.academy.tier) and len(game.academy.tier) == 3
    assert "with a worker on the second space from the top, gain 2 fame points" in text
    assert "with a worker on the topmost space, gain 5 fame points" in text
    assert (game.pioneering.second_from_top_fame, game.pioneering.top_fame) == (2, 5)
    assert "gain 3 fame points. Similarly, gain 6 fame points for each of your workers in the middle" in text
    assert "9 fame points for each of your workers in the rightmost column" in text
    assert [c.final_per_worker for c in game.council] == [3, 6, 9]
    assert "Gain 1 fame point for every 2 of them (round down)" in text
    assert game.final_scoring.leftover_items_per_fame == 2
    assert "In case of a tie, the last active player is the winner" in text
    assert game.end.tie == "last-active-player"
    assert "you can pay 3 AP to gain 2 fame points" in text
    assert (game.academy.when_empty_ap, game.academy.when_empty_fame) == (3, 2)


def test_harvest_rules(game, text):
    assert "chooses one building tile beside their personal board that has a worker on it" in text
    assert game.harvest.free_building_returns == 1
    assert "each time you pay 1 yen you may remove the worker" in text
    assert game.harvest.building_return_cost == 1


# --------------------------------------------------------------------------- worked examples

def test_ap_example(game, text):
    assert "pay 2 rice bales (6 AP), 1 cattle (2 AP) and 4 yen (4 AP)" in text
    assert "an action worth a total of 12 AP" in text
    assert game.ap("agricultural-college", {"rice-bale": 2, "cattle": 1, "yen": 4}) == 12
    with pytest.raises(ValueError):
        game.ap("agricultural-college", {"wheat": 1})   # "You cannot pay wheat or sheep."


def test_academy_empty_example(game, text):
    assert "(Example: pay 12 AP to gain 8 fame points.)" in text
    a = game.academy
    assert 12 // a.when_empty_ap * a.when_empty_fame == 8


def test_appoint_example_names_spaces_of_5_and_6_ap(game, text):
    assert "appoint one worker each to a 5 AP space and a 6 AP space" in text
    costs = {c for col in game.council for c in col.spaces}
    assert {5, 6} <= costs


def test_harvest_example(game, text):
    assert "gained 2 wheat and 1 yen from the wheat pioneering column" in text
    assert "3 sheep and 3 yen from the sheep pioneering column" in text
    assert game.harvest_gain("wheat", 3) == {"wheat": 2, "yen": 1}
    assert game.harvest_gain("sheep", 5) == {"sheep": 3, "yen": 3}
    # 3 building tiles with workers: 1 back free, 1 more for 1 yen.
    assert "Player A paid 1 yen and removed workers from 2 of them" in text
    paid = 1
    assert game.harvest.free_building_returns + paid // game.harvest.building_return_cost == 2


def test_settlement_example(game, text):
    assert "Player A (white workers) has 2 workers and Player B (black workers) has 1 worker, " \
           "so Player A gains 3 fame points and Player B gains 1 fame point" in text
    assert "In the middle column only Player B has a worker, so Player B gains 4 fame points" in text
    assert "Player A's worker is on the higher space, so Player A gains 5 fame points and " \
           "Player B gains 3 fame points" in text
    left = game.settle_column("left", a=[1, 3], b=[2])
    middle = game.settle_column("middle", a=[], b=[1])
    right = game.settle_column("right", a=[2], b=[1])
    assert (left, middle, right) == ((3, 1), (0, 4), (5, 3))
    assert "Player A: leftmost column 3 fame points; middle column 0 fame points; rightmost column 5" in text
    assert sum(x[0] for x in (left, middle, right)) == 8
    assert sum(x[1] for x in (left, middle, right)) == 8
    assert [c.source_of("higher") for c in game.council] == ["rules"] * 3
    assert [c.source_of("lower") for c in game.council] == ["rules", "house", "rules"]


def test_final_scoring_example(game, text):
    assert "9 fame points from the private academy (3 + 6)" in text
    assert game.academy_fame(3) == 9
    assert "9 fame points from the pioneering columns (2 + 5 + 2)" in text
    columns = {"wheat": 4, "sheep": 5, "cattle": 4}   # two on the second space from the top, one on top
    assert [game.pioneering_fame(c, s) for c, s in columns.items()] == [2, 5, 2]
    assert "3 fame points from the influential person tile [B. Ryan] (3 resources remaining)" in text
    assert "7 fame points from the influential person tile [E. Dunn]" in text
    leftover = 1 + 2     # "one 1-yen note and 2 cattle"
    assert game.person["b-ryan"].scoring.points_for(leftover) == 3
    dunn = game.person["e-dunn"].scoring
    counted = sum(1 for c in dunn.columns if columns.get(c, 0) >= dunn.min_space)
    assert dunn.points_for(counted) == 7
    assert "21 fame points from the city council (3 + 3 + 6 + 9)" in text
    assert game.council_fame({"left": 2, "middle": 1, "right": 1}) == 21
    assert "1 fame point from leftover banknotes and resources (one 1-yen note and 2 cattle)" in text
    assert game.leftover_fame(leftover) == 1


# --------------------------------------------------------------------------- tiles

def test_building_tiles_are_the_rules_list(game, text):
    section = text.split("Building tiles\n\n")[-1].split("\n\nInfluential person tiles")[0]
    listed = [line for line in section.splitlines() if line.strip()]
    assert len(listed) == 13
    assert [t.text for t in game.building_tiles] == listed
    for t in game.building_tiles:
        assert t.source == "rules" and t.source_of("cost") == "house" and t.source_of("name") == "house"


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


def test_influential_persons(game, text):
    assert "The rulebook shows the 10 influential person tiles as pictures only" in text
    assert {"E. Dunn", "B. Ryan"} <= {p.name for p in game.persons}
    assert all(p.source == "house" and p.cost > 0 and p.text for p in game.persons)
    assert len({p.name for p in game.persons}) == 10


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
    ("personal.toml", 'house = ["cost", "bonus"]', 'house = ["price"]', "academy.tier[0]",
     "'price' is not a field here"),
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
def test_broken_file_names_file_key_and_problem(broken_data, name, old, new, key, problem):
    root, path = broken_data(GAME, name, old, new)
    with pytest.raises(DataError) as info:
        canon.load(GAME, root=root)
    err = info.value
    if key == "colour":   # more players than colours is reported where the colours are
        path = root / GAME / "components.toml"
    assert err.file == str(path)
    assert err.key == key
    assert problem in err.problem
    assert str(err).startswith(f"{path}: ")
    assert "\n" not in str(err)
