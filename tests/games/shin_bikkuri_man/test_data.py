"""Shin Bikkuri Man's canonical data against the rules text and the reference facts.

Rules: ../shared/rules/shin-bikkuri-man.txt; reference: ../shared/reference/shin-bikkuri-man.md.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from generator import canon
from generator.canon.files import assets_root
from generator.canon.polyomino import canonical, read_rows
from generator.canon.schema import SOURCES

GAME = "shin-bikkuri-man"


@pytest.fixture(scope="module")
def g():
    return canon.load(GAME)


def test_identity(g):
    assert (g.id, g.name, g.players) == (GAME, "Shin Bikkuri Man", (2, 4))


# ------------------------------------------------------------------------------------------- board
def test_board_is_5_by_9_with_7_coats_of_arms(g):
    assert (g.board.columns, g.board.rows) == (5, 9)
    assert len(g.board.squares()) == 45
    assert g.board.coats_of_arms.total == 7                                   # rules
    assert len(g.coat_squares) + len(g.coat_rows) == 7
    assert sorted(g.coat_squares) == sorted([(3, 3), (5, 5), (2, 7), (4, 9)])  # reference
    assert g.coat_rows == (2, 4, 6)


# ------------------------------------------------------------------------------------------- tiles
def test_50_coloured_tiles_and_12_white(g):
    assert sum(g.tile_copies(t.id, 4) for t in g.tiles) == 50
    assert g.white.count == 12
    assert read_rows(g.white.shape) == {(0, 0): "W"}
    assert sum(c.count for c in g.components() if c.kind == "facade-tile") == 62


def test_each_colour_has_sizes_2_to_5_and_10_tiles(g):
    by_colour: dict[str, list[int]] = {}
    for t in g.tiles:
        by_colour.setdefault(t.colour, []).append(t.size)
    assert set(by_colour) == {"red", "yellow", "green", "blue", "purple"}
    for colour, sizes in by_colour.items():
        assert sorted(sizes) == [2, 3, 4, 5], colour
        assert sum(g.tile_copies(f"{colour}-{n}", 4) for n in sizes) == 10


@pytest.mark.parametrize("players, per_size, total", [
    (2, {2: 2, 3: 2, 4: 2, 5: 1}, 35),   # 2 copies of each size 2-4
    (3, {2: 2, 3: 3, 4: 2, 5: 1}, 40),   # the third copy of sizes 2 and 4 removed
    (4, {2: 3, 3: 3, 4: 3, 5: 1}, 50),   # all
])
def test_copies_by_player_count(g, players, per_size, total):
    for t in g.tiles:
        assert g.tile_copies(t.id, players) == per_size[t.size], (t.id, players)
    assert sum(g.tile_copies(t.id, players) for t in g.tiles) == total


def test_every_coloured_tile_has_exactly_one_brick(g):
    for t in g.tiles:
        letters = Counter(t.cells.values())
        assert letters == {"B": 1, "W": t.size - 1}, t.id
        assert t.cells[t.brick] == "B"
        assert t.windows == t.size - 1


# The reference's description of each shape, written out independently (B = brick, W = window).
REFERENCE_SHAPES = {
    "purple-2": ["BW"], "green-2": ["BW"], "red-2": ["BW"], "blue-2": ["BW"], "yellow-2": ["BW"],
    "purple-3": ["BWW"], "purple-4": ["BWWW"], "purple-5": ["BWWWW"],          # straight, brick at an end
    "green-3": ["BWW"],                                                          # straight (end: BGA)
    "green-4": ["WWW", ".B."],                                                   # T, brick at the stem tip
    "green-5": [".W.", "BWW", ".W."],                                            # plus, brick on an arm
    "red-3": ["B.", "WW"][::-1],                                                 # L
    "red-4": ["BW", "WW"],                                                       # 2 x 2 square
    "red-5": [".WW", "BWW"],                                                     # P: B W W, W W above the right two
    "blue-3": ["WW", "B."],                                                      # L
    "blue-4": ["..W", "BWW"],                                                    # B W W, window above the far end
    "blue-5": ["W..", "WWB", "W.."],                                             # T of 5, brick at the stem end
    "yellow-3": ["WW", "B."],                                                    # L
    "yellow-4": ["WB.", ".WW"][::-1],                                            # S/Z, brick on a middle square
    "yellow-5": ["B..", "WWW", "..W"],                                           # Z of 5, brick at an end
}


def test_shapes_match_the_reference(g):
    assert set(REFERENCE_SHAPES) == set(g.tile)
    for tile_id, rows in REFERENCE_SHAPES.items():
        assert canonical(g.tile[tile_id].cells) == canonical(read_rows(rows)), tile_id


def test_squares_up_puts_the_lowest_row_at_zero(g):
    red5 = g.tile["red-5"].squares_up()
    assert red5[(0, 0)] == "B" and {c for c in red5 if c[1] == 1} == {(1, 1), (2, 1)}


def test_orientations(g):
    assert len(g.tile["red-4"].orientations()) == 4             # the brick makes the square turnable 4 ways
    assert len(g.tile["purple-5"].orientations()) == 4
    assert len(g.tile["yellow-5"].orientations()) == 8
    assert all(len(o) == 5 for o in g.tile["green-5"].orientations())


# ------------------------------------------------------------------------------------------- cards
def test_cards(g):
    assert len(g.colours) == 5
    assert {n: g.cards_per_colour(n) for n in (2, 3, 4)} == {2: 14, 3: 12, 4: 14}
    cards = [c for c in g.components() if c.kind == "card"]
    assert sum(c.count for c in cards if c.id != "end") == 70
    assert [c.count for c in cards if c.id == "end"] == [1]


def test_end_card(g):
    assert g.end_card.count == 1 and g.end_card.bottom == 10
    assert g.end_card_shuffled_in(2) == "setup"
    assert g.end_card_shuffled_in(3) == g.end_card_shuffled_in(4) == "first-reshuffle"


def test_turn_harbour_hand(g):
    t = g.turn
    assert (t.harbour, t.take, t.wrap_around, t.hand_limit, t.tiles_per_turn) == (7, 2, False, 7, 1)
    assert [g.starting_hand(seat) for seat in (1, 2, 3, 4)] == [2, 3, 3, 4]
    # 4 players, 7 in the harbour: the deck deals every starting hand with cards to spare.
    assert sum(g.starting_hands.by_seat) + t.harbour < g.cards_per_colour(3) * len(g.colours)


def test_scoring_and_end(g):
    assert (g.scoring.row, g.scoring.row_all_windows) == (1, 2)
    assert (g.scoring.column, g.scoring.column_all_windows) == (2, 4)
    assert g.end.points == 12
    assert g.tie.rule == "fewest-empty-squares" and g.tie.then == "shared"
    assert g.tie.source == "reference" and g.tie.source_of("then") == "house"
    assert g.building.source_of("overhang") == "reference"
    assert g.building.rotate and g.building.flip
    assert g.building.source_of("rotate") == g.building.source_of("flip") == "reference"


def test_rotate_and_flip_are_the_references_fact(g):
    # ../shared/reference/shin-bikkuri-man.md: "Tiles may be rotated and flipped when placed"
    path = Path(__file__).resolve().parents[4] / "shared" / "reference" / "shin-bikkuri-man.md"
    if not path.is_file():
        pytest.skip(f"{path} is missing")
    text = path.read_text(encoding="utf-8")
    assert "Tiles may be rotated and flipped when placed" in text
    assert g.building.rotate is True and g.building.flip is True
    assert g.building.source_of("rotate") == g.building.source_of("flip") == "reference"


def test_abilities(g):
    assert [a.id for a in g.abilities] == ["any-cards", "additional-card", "construction-discount",
                                          "change-of-colours", "both-actions"]
    assert [a.id for a in g.abilities if a.starting] == ["any-cards"]
    a = g.ability
    assert (a["any-cards"].cards, a["any-cards"].adjacent) == (2, False)
    assert a["additional-card"].cards == 3
    assert a["construction-discount"].discount == 1
    assert a["change-of-colours"].recolour and a["both-actions"].both_actions
    assert {c.id: c.count for c in g.components() if c.kind == "ability-tile"} == dict.fromkeys(a, 4)


def test_coat_of_arms_actions(g):
    assert list(g.coat_action) == ["special-tile", "ability-tile", "reactivate"]
    assert g.coat_action["reactivate"].flips == "all"


# --------------------------------------------------------------------------------- data hygiene
def test_components_are_well_formed(g):
    rows = g.components()
    assert len({(c.kind, c.id) for c in rows}) == len(rows)
    for c in rows:
        assert c.count > 0 and c.source in SOURCES and c.label
    tiles = {c.id for c in rows if c.kind == "facade-tile"}
    assert tiles == set(g.tile) | {"white-1"}
    assert {c.id for c in rows if c.kind == "card"} == set(g.colour) | {"end"}


def test_every_file_says_where_its_values_come_from():
    for path in sorted((assets_root() / GAME).glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        assert text.startswith("#"), path.name
        assert "source" in text, path.name


# ------------------------------------------------------------------------------------ broken files
@pytest.mark.parametrize("file, old, new, key, words", [
    ("tiles.toml", 'shape = ["BWW"]', 'shape = ["WWW"]', "tile[1]", "brick"),
    ("tiles.toml", 'colour = "green"', 'colour = "teal"', "tile[4].colour", "unknown colour"),
    ("tiles.toml", "count = 12", "count = 11", "white.count", "12"),
    ("tiles.toml", "5 = { 2 = 1, 3 = 1, 4 = 1 }", "5 = { 2 = 1, 3 = 1, 4 = 2 }", "copies.by_size", "50"),
    ("tiles.toml", '"..W",\n         "BWW"]', '"..W",\n         "B.W"]', "tile[14]", "joined"),
    ("game.toml", "hand_limit = 7", "hand_limit = 8", "turn.hand_limit", "7"),
    ("game.toml", "by_seat = [2, 3, 3, 4]", "by_seat = [2, 3, 3]", "starting_hands.by_seat", "seats"),
    ("game.toml", "row_all_windows = 2", "row_all_windows = 0", "scoring", "row_all_windows"),
    ("board.toml", "[5, 5]", "[6, 5]", "coats_of_arms.squares[1]", "not a square"),
    ("board.toml", "row_ends = [2, 4, 6]", "row_ends = [2, 4]", "coats_of_arms", "7"),
    ("cards.toml", "per_colour = { 2 = 14, 3 = 12, 4 = 14 }", "per_colour = { 2 = 14, 4 = 14 }",
     "deck.per_colour", "player counts"),
    ("cards.toml", 'symbol = "star"', 'symbol = "star"\nshade = 1', "colour[4].shade", "unknown key"),
    ("cards.toml", '\n[[colour]]\nid = "purple"\nname = "Purple"\nhex = "#7d4ba3"\nsymbol = "star"\n', "\n",
     "colour", "4 colours, the reference has 5"),
    ("abilities.toml", 'id = "both-actions"', 'id = "any-cards"', "ability[4].id", "duplicate"),
    ("abilities.toml", 'action = "turn"', 'action = "sleep"', "ability[4].action", "expected one of"),
])
def test_broken_file_is_rejected_naming_file_and_key(refused_data, file, old, new, key, words):
    refused_data(GAME, file, old, new, key, words)
