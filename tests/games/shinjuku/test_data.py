"""Shinjuku's canonical data against the rules text, and the loader's errors on broken files."""
import re
from collections import Counter

import pytest

from generator import canon

RULES = "shinjuku.txt"   # ../shared/rules/shinjuku.txt


@pytest.fixture(scope="module")
def game():
    return canon.load("shinjuku")


def test_totals_stated_by_the_rules(game, rules_text):
    assert len(game.wards) == 23 and sum(w.cards for w in game.wards) == 72
    assert sum(t.count for t in game.customers.type) == 72
    assert {t.id: t.count for t in game.customers.type} == {
        "food": 23, "clothing": 20, "books": 16, "electronics": 13}
    assert (game.pieces.department_stores, game.pieces.stores, game.pieces.track) == (3, 8, 16)
    assert game.rules.queue_slots == (4, 3, 2, 1)
    assert game.rules.hand_size == 4 and game.rules.cards_as_wild == 3

    text = rules_text(RULES)   # the same numbers in the rules' own sentences
    assert re.search(r"divided into the 23 regions", text)
    assert "There are 72 cards" in text and "total of 72 customers" in text
    for count, goods in re.findall(r"(\d+) customers want (\w+)", text):
        assert game.customer_type[goods.lower()].count == int(count)
    assert "3 department stores, 8 stores and 16 track segments" in text
    assert "④ ③ ② ①" in text and "hand of 4 location cards" in text
    assert "play any three cards from your hand as a single wildcard" in text


def test_set_points_are_the_rules_scoring(game, rules_text):
    assert [game.scoring.points_for_set(n) for n in (1, 2, 3, 4)] == [1, 3, 6, 10]

    text = rules_text(RULES)
    for points, size in re.findall(r"(\d+) pts for each set of (\d) different", text):
        assert game.scoring.points_for_set(int(size)) == int(points)
    assert "1 pt for each remaining customer" in text


def test_map_facts_from_the_reference(game):
    assert len(game.stations) == 44
    assert sum(s.sakura for s in game.stations) == 12
    assert len(game.connections) == 68
    assert [c.id for c in game.connections if c.prebuilt] == ["shinjuku--yoyogi"]
    # Every ward has a station, every station a known ward, neighbours are symmetric.
    assert all(game.stations_in[w.id] for w in game.wards)
    for w in game.wards:
        for n in w.neighbours:
            assert w.id in game.ward[n].neighbours
    # The track network is one connected piece: every station can be reached.
    links = {s.id: set() for s in game.stations}
    for c in game.connections:
        a, b = c.stations
        links[a].add(b)
        links[b].add(a)
    seen, todo = set(), ["shinjuku"]
    while todo:
        s = todo.pop()
        if s not in seen:
            seen.add(s)
            todo.extend(links[s] - seen)
    assert seen == set(links)


def test_components_rows_add_up(game):
    rows = game.components()
    by_kind = Counter()
    for row in rows:
        by_kind[row.kind] += row.count
        assert row.source in ("rules", "reference", "house")
    assert by_kind["ward-card"] == 72
    assert by_kind["customer"] == 72
    assert by_kind["upgrade-bonus-token"] == 6
    assert by_kind["token"] == 2
    colours = len(game.pieces.colour)
    assert colours == 4
    assert by_kind["department-store"] == 3 * colours
    assert by_kind["store"] == 8 * colours
    assert by_kind["track"] == 16 * colours


@pytest.mark.parametrize("name, old, new, key, problem", [
    ("wards.toml", "cards = 3", 'cards = "three"', "ward[0].cards", "expected a whole number"),
    ("wards.toml", "cards = 3", "cards = 4", "ward", "card counts add up to 73"),
    ("wards.toml", 'neighbours = ["bunkyo"', 'neighbours = ["bunkyou"', "ward[0].neighbours[0]",
     "unknown ward 'bunkyou'"),
    ("stations.toml", 'ward = "chiyoda"', 'ward = "chiyod"', "station[0].ward", "unknown ward"),
    ("stations.toml", "sakura = true", "sakura = 1", "station[0].sakura", "expected true or false"),
    ("connections.toml", '"akihabara", "iidabashi"', '"akihabara", "nowhere"',
     "connection[0].stations[1]", "unknown station 'nowhere'"),
    ("components.toml", "count = 23", "count = 22", "customers.type[0].count", "the rules say 23"),
    ("components.toml", "department_stores = 3", "department_stores = 3\ndepartment_store = 3",
     "pieces.department_store", "unknown key"),
    ("game.toml", "players = [2, 4]", "players = [2]", "players", "expected a list of 2 items"),
    ("game.toml", 'source = "rules"', 'source = "folklore"', "deck.source", "expected one of"),
    ("game.toml", "[deck]", "[deck\n", "", "not valid TOML"),
])
def test_broken_file_names_file_key_and_problem(refused_data, name, old, new, key, problem):
    refused_data("shinjuku", name, old, new, key, problem)


def test_unknown_game_is_named():
    with pytest.raises(canon.UnknownGame, match="unknown game 'tokio'"):
        canon.load("tokio")
