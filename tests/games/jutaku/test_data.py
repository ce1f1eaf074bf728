"""Tokyo Jutaku's canonical data against the rules text (../shared/rules/jutaku.txt), the requirement
notation both ways, and the house data's consistency: every site side can really be built."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, strategies as st

from generator import canon
from generator.canon.files import assets_root
from generator.canon.jutaku import Requirement, format_requirement, parse_requirement
from generator.canon.polyomino import SIDES, is_connected
from generator.canon.schema import SOURCES

GAME = "jutaku"
RULES = "jutaku.txt"   # ../shared/rules/jutaku.txt


def test_identity(g):
    assert (g.id, g.name, g.players) == (GAME, "Tokyo Jutaku", (1, 8))


# ------------------------------------------------------------------------------------ notation
@pytest.mark.parametrize("text, height, pieces", [
    ("3.V///", 3, 8),      # the rules' example
    ("1./", 1, 1),
    ("2.////", 2, 4),
    ("2.V", 2, 5),
    ("4.V////", 4, 9),
    ("3.VV/", 3, 11),
    ("12.VV", 12, 10),
])
def test_notation_examples(text, height, pieces):
    assert parse_requirement(text) == Requirement(height, pieces)
    assert format_requirement(height, pieces) == text
    assert str(Requirement(height, pieces)) == text


@pytest.mark.parametrize("text", [
    "", "3", "3.", ".V", "0.V", "03.V", "3.v", "3./////", "3./V", "3.V/V", "3.IV", "3 V", "3.V/// ",
    "3,V", "-1.V", "3.X", "3.Ⅴ",
])
def test_notation_rejects(text):
    with pytest.raises(ValueError):
        parse_requirement(text)


@pytest.mark.parametrize("height, pieces", [(0, 3), (3, 0), (-1, 2)])
def test_format_rejects(height, pieces):
    with pytest.raises(ValueError):
        format_requirement(height, pieces)


@given(st.integers(1, 10_000), st.integers(1, 10_000))
def test_format_then_parse_round_trips(height, pieces):
    assert parse_requirement(format_requirement(height, pieces)) == Requirement(height, pieces)


@given(st.text(alphabet="0123456789.V/v xI", max_size=12))
def test_parse_then_format_round_trips(text):
    try:
        need = parse_requirement(text)
    except ValueError:
        return
    assert format_requirement(need.height, need.pieces) == text


@given(st.from_regex(r"[1-9][0-9]{0,2}\.V{0,4}/{0,4}", fullmatch=True))
def test_every_canonical_string_parses(text):
    if text.endswith("."):
        with pytest.raises(ValueError):
            parse_requirement(text)
    else:
        need = parse_requirement(text)
        assert str(need) == text
        assert need.pieces == 5 * text.count("V") + text.count("/")


# --------------------------------------------------------------------------------- contents, map
def test_contents(g):
    assert (g.contents.site_cards, g.contents.pieces, g.contents.architects) == (32, 69, 8)
    assert len(g.sites) == 32 and len(g.pieces) == 69 and len(g.architects) == 8
    counts = Counter()
    for c in g.components():
        counts[c.kind] += c.count
    assert (counts["site-card"], counts["piece"], counts["architect"]) == (32, 69, 8)


def test_sites_fill_the_6x6_map_around_the_4_centre_spaces(g):
    assert g.map.size == (6, 6)
    assert sorted(g.map.centre) == [(2, 2), (2, 3), (3, 2), (3, 3)]
    every = {(c, r) for c in range(6) for r in range(6)}
    assert {s.position for s in g.sites} == every - set(g.map.centre)
    assert len(g.perimeter()) == 20 and all(p in g.site_at for p in g.perimeter())


def test_sites_are_grouped_by_district(g):
    assert sum(len(v) for v in g.sites_in.values()) == 32
    for district, sites in g.sites_in.items():
        assert sites, district
        assert is_connected(s.position for s in sites), district
        assert all(s.id.startswith(district) for s in sites)


def test_every_card_has_a_white_and_a_blue_side_with_one_or_two_borders(g):
    for s in g.sites:
        for side in (s.white, s.blue):
            assert len(side.borders) in (1, 2), s.id
            assert all(is_connected(b) for b in side.borders)
            assert side.pieces >= side.height >= 1


def test_white_side_is_harder_than_blue(g):
    for s in g.sites:
        w, b = s.white, s.blue
        assert w.height >= b.height and w.pieces >= b.pieces, s.id
        assert w.yen > b.yen, s.id


def test_the_rules_example_card(g):
    ex = g.example
    assert (ex.card, ex.requirement, ex.height, ex.pieces, ex.yen) == ("meguro-1", "3.V///", 3, 8, 14000)
    side = g.site["meguro-1"].side(ex.side)
    assert side.source == "rules"
    assert (side.height, side.pieces, side.yen) == (3, 8, 14000)
    assert g.site["meguro-1"].district == "meguro"
    assert g.district["meguro"].source == "rules"


def test_rules(g):
    r = g.rules
    assert (r.end_sites, r.move, r.diagonal, r.start, r.tie) == (4, 2, False, "perimeter", "shared")


def test_card_grid(g):
    assert g.card.size_mm == (g.card.grid[0] * g.card.cell_mm, g.card.grid[1] * g.card.cell_mm)
    for s in g.sites:
        for side in (s.white, s.blue):
            assert len(side.plan) == g.card.grid[1]
            assert all(y >= g.card.header_rows for b in side.borders for _, y in b)


# ------------------------------------------------------------------------------------------- pieces
def test_69_different_pieces(g):
    assert len({p.form for p in g.pieces}) == 69                  # "69 unique wooden pieces"
    assert sorted(p.number for p in g.pieces) == list(range(1, 70))
    for p in g.pieces:
        assert is_connected(p.cells) and p.size >= 1, p.id
        assert all(len(o) == p.size for o in p.orientations())


def test_every_player_can_build_at_once(g):
    """8 architects building the largest requirement at the same time do not run out of pieces."""
    most = max(side.pieces for s in g.sites for side in (s.white, s.blue))
    assert g.contents.architects * most <= g.contents.pieces


# A witness that each house site can be built: one legal building, found by a small search and then
# checked by an independent checker of the building rules.
class _OutOfTime(Exception):
    pass


def find_building(border, height, count, pieces, budget=200_000):
    """Floors (bottom first) of [(piece id, cells)]: storeys 2.. one piece each, storey 1 the rest.

    A witness search, not a complete one: it gives up (None) after `budget` tries.
    """
    border = frozenset(border)
    pieces = sorted(pieces, key=lambda p: (p.size, p.number))
    shapes = {p.id: p.orientations() for p in pieces}
    spent = [0]

    def tick():
        spent[0] += 1
        if spent[0] > budget:
            raise _OutOfTime

    def covering(pid, cells, free):
        """Placements of piece `pid` inside `free` that cover one of `cells`."""
        seen = set()
        for o in shapes[pid]:
            for ox, oy in o:
                for tx, ty in cells:
                    tick()
                    placed = frozenset((x - ox + tx, y - oy + ty) for x, y in o)
                    if placed not in seen and placed <= free:
                        seen.add(placed)
                        yield placed

    def ground_floor(k, cover, used, union, start):
        if k == 0:
            return [] if cover <= union and is_connected(union) else None
        free = border - union
        unused = [p for p in pieces if p.id not in used]
        if sum(p.size for p in unused[:k]) > len(free):
            return None
        missing = cover - union
        if missing:
            choices, cells = list(enumerate(pieces)), [min(missing)]
        else:
            cells = sorted({(x + dx, y + dy) for x, y in union for dx, dy in SIDES} & free) if union \
                else sorted(free)
            choices = list(enumerate(pieces))[start:]
        for i, p in choices:
            if p.id in used:
                continue
            for cand in covering(p.id, cells, free):
                rest = ground_floor(k - 1, cover, used | {p.id}, union | cand,
                                    start if missing else i + 1)
                if rest is not None:
                    return [(p.id, cand)] + rest
        return None

    def upper(level, used, chain):
        if level == 1:
            cover = chain[-1][1] if chain else frozenset()
            floor = ground_floor(count - (height - 1), cover, used, frozenset(), 0)
            return None if floor is None else [floor] + [[p] for p in reversed(chain)]
        top = chain[-1][1] if chain else None
        for p in pieces:
            if p.id in used or (top is not None and p.size < len(top)):
                continue
            target = top if top is not None else border
            for cand in covering(p.id, sorted(target), border):
                if top is not None and not top <= cand:
                    continue
                found = upper(level - 1, used | {p.id}, chain + [(p.id, cand)])
                if found:
                    return found
                break
        return None

    try:
        return upper(height, frozenset(), [])
    except _OutOfTime:
        return None


def building_problems(border, height, count, floors, pieces) -> list[str]:
    """The Jutaku building rules, checked on a finished building."""
    shapes = {p.id: {frozenset(o) for o in p.orientations()} for p in pieces}
    problems = []
    used = [pid for floor in floors for pid, _ in floor]
    if len(floors) != height:
        problems.append(f"{len(floors)} storeys, not {height}")
    if len(used) != count:
        problems.append(f"{len(used)} pieces, not {count}")
    if len(set(used)) != len(used):
        problems.append("a piece is used twice")
    below = frozenset(border)
    for level, floor in enumerate(floors, 1):
        if not floor:
            problems.append(f"storey {level} is empty")
        union: set = set()
        for pid, cells in floor:
            mx, my = min(x for x, _ in cells), min(y for _, y in cells)
            if frozenset((x - mx, y - my) for x, y in cells) not in shapes[pid]:
                problems.append(f"{pid} does not have that shape")
            if union & cells:
                problems.append(f"{pid} overlaps another piece on storey {level}")
            union |= cells
        if not union <= below:
            problems.append(f"storey {level} leaves the site border or overhangs a gap")
        if not is_connected(union):
            problems.append(f"storey {level}: a piece touches no other piece")
        below = frozenset(union)
    return problems


def all_borders(g):
    for s in g.sites:
        for name in ("white", "blue"):
            side = s.side(name)
            for i, border in enumerate(side.borders, 1):
                yield pytest.param(s.id, name, i, id=f"{s.id}-{name}-{i}")


@pytest.mark.parametrize("site, side, border", list(all_borders(canon.load(GAME))))
def test_every_site_border_can_be_built(g, site, side, border):
    face = g.site[site].side(side)
    cells = face.borders[border - 1]
    floors = find_building(cells, face.height, face.pieces, g.pieces)
    assert floors, f"no building found for {site} {side} border {border} ({face.requirement})"
    assert building_problems(cells, face.height, face.pieces, floors, g.pieces) == []


def test_the_checker_catches_illegal_buildings(g):
    border = g.site["meguro-1"].white.borders[0]
    floors = find_building(border, 3, 8, g.pieces)
    assert building_problems(border, 3, 8, floors, g.pieces) == []
    assert building_problems(border, 4, 8, floors, g.pieces)                   # wrong height
    moved = [floors[0], floors[1], [(floors[2][0][0], frozenset({(0, 0)}))]]  # overhangs
    assert any("overhangs" in p for p in building_problems(border, 3, 8, moved, g.pieces))


# ---------------------------------------------------------------------------------- game modes
def test_countdown(g):
    c = g.countdown
    assert c.players == (1, 8) and c.minutes == (5, 5)
    assert (c.floor_seconds, c.further_floor_seconds) == ((60, 45, 30), 15)


def test_bottle_bonus_drinks(g):
    assert [d.id for d in g.drinks] == ["black", "white", "mint", "blue", "red", "purple"]
    assert g.drink_info.per_colour == 6
    assert sum(c.count for c in g.components() if c.kind == "drink") == 36
    d = g.drink
    assert (d["black"].power, d["black"].when) == ("flip-site", "before-building")
    assert (d["white"].power, d["white"].pieces) == ("early-piece", 1)
    assert d["mint"].power == "put-it-back"
    assert (d["blue"].power, d["blue"].yen) == ("win-bonus", 200)
    assert (d["red"].power, d["red"].pieces) == ("two-pieces", 2)
    assert (d["purple"].power, d["purple"].when) == ("move-anywhere", "move-phase")
    b = g.bottle_bonus
    assert (b.players, b.minutes, b.drinks_per_other_player, b.grab) == ((1, 8), (20, 30), 1, 1)
    # The winner draws one drink per other player: 7 at most, fewer than one colour's 36 drinks.
    assert (b.players[1] - 1) * b.drinks_per_other_player <= len(g.drinks) * g.drink_info.per_colour


def test_izakaya_setup(g):
    iz = g.izakaya
    assert iz.players == (2, 5) and iz.minutes == (30, 30)
    assert {n: iz.grid_for(n).size for n in range(2, 6)} == {2: 3, 3: 3, 4: 4, 5: 5}
    assert {n: iz.grid_for(n).blocked_centre for n in range(2, 6)} == {2: True, 3: True, 4: False, 5: False}
    assert (iz.side, iz.action_card_side) == ("white", "blue")
    assert iz.start_prices == (100, 100, 200, 200, 300, 300)
    assert sorted(iz.stock.order) == sorted(g.drink)
    assert (iz.pyramids, iz.discs, iz.action_discs, iz.claim_discs) == (6, 9, 3, 6)
    assert iz.start_yen == 1000 and iz.coin == 100
    assert {n: iz.end_threshold(n) for n in range(2, 6)} == {2: 1500, 3: 2300, 4: 3000, 5: 4000}
    # The largest grid plus the blue action card fits in the 32 site cards.
    assert iz.grid_for(5).size ** 2 + 1 <= g.contents.site_cards
    assert len(iz.metro.colour) >= iz.players[1]
    assert {a.id for a in iz.action} == {"bottle", "price", "claim", "build"}
    assert {a.id: a.limit for a in iz.action if a.source == "rules"} == {"bottle": 1, "claim": 0, "build": 0}


def test_izakaya_end_and_tie_stated_by_the_rules(g, rules_text):
    assert {n: g.izakaya.end_threshold(n) for n in range(2, 6)} == {2: 1500, 3: 2300, 4: 3000, 5: 4000}
    assert g.izakaya.tie == "most-starting-yen-kept"
    assert g.rules.tie == "shared"   # base game

    text = rules_text(RULES)
    assert ("1,500 yen for 2 players / 2,300 yen for 3 players / 3,000 yen for 4 players / "
            "4,000 yen for 5 players") in text
    assert "If there is a tie, the player who kept the most of their starting yen wins" in text
    assert "If players tie, the victory is shared" in text


def test_izakaya_scoring_example(g):
    ex = g.izakaya.example
    assert ex.floors * sum(ex.values[d] for d in ex.drinks) == ex.payment == 2100
    # The house order of the stock cards agrees with the example at the starting prices.
    assert all(g.izakaya.start_price[d] == v for d, v in ex.values.items())


# --------------------------------------------------------------------------------- data hygiene
def test_components_are_well_formed(g):
    rows = g.components()
    assert len({(c.kind, c.id) for c in rows}) == len(rows)
    for c in rows:
        assert c.count > 0 and c.source in SOURCES and c.label
    assert {c.id for c in rows if c.kind == "site-card"} == set(g.site)
    assert {c.id for c in rows if c.kind == "piece"} == set(g.piece)
    assert {c.id for c in rows if c.kind == "drink"} == set(g.drink)
    assert {c.id for c in rows if c.kind == "architect"} == set(g.architect)


def test_house_values_are_marked(g):
    assert g.site_sources.plan == g.site_sources.position == "house"
    assert g.piece_info.source == "house" and g.card.source == "house"
    assert [s.id for s in g.sites if "rules" in (s.white.source, s.blue.source)] == ["meguro-1"]
    assert g.izakaya.stock.source == "house" and g.izakaya.money.source == "house"


def test_every_file_says_where_its_values_come_from():
    for path in sorted((assets_root() / GAME).glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        assert text.startswith("#"), path.name
        assert "source" in text, path.name


# ------------------------------------------------------------------------------------ broken files
@pytest.mark.parametrize("file, old, new, key, words", [
    ("sites.toml", 'requirement = "3.V///"\nyen = 14000\nsource = "rules"',
     'requirement = "3.V////V"\nyen = 14000\nsource = "rules"', "site[20].white.requirement", "not a requirement"),
    ("sites.toml", 'requirement = "3.V///"\nyen = 14000\nsource = "rules"',
     'requirement = "3.//"\nyen = 14000\nsource = "rules"', "site[20].white.requirement", "cannot be built"),
    ("sites.toml", 'district = "meguro"', 'district = "meguru"', "site[20].district", "unknown district"),
    ("sites.toml", "position = [0, 0]", "position = [2, 2]", "site[0].position", "centre"),
    ("sites.toml", 'plan = ["........",', 'plan = [".........",', "site[0].white.plan[0]", "9 squares"),
    ("sites.toml", 'plan = ["........",', 'plan = ["...x....",', "site[0].white.plan", "unknown letter"),
    ("sites.toml", 'plan = ["........",', 'plan = ["...1....",', "site[0].white.plan[0]", "title strip"),
    ("game.toml", "pieces = 69", "pieces = 70", "contents.pieces", "69"),
    ("game.toml", "yen = 14000", "yen = 15000", "example", "14000"),
    ("game.toml", 'card = "meguro-1"', 'card = "meguro-9"', "example.card", "unknown site card"),
    ("pieces.toml", 'shape = ["##"]', 'shape = ["#"]', "piece[1].shape", "same shape"),
    ("pieces.toml", 'shape = ["##"]', 'shape = ["#.#"]', "piece[1]", "joined"),
    ("drinks.toml", 'power = "put-it-back"', 'power = "put-back"', "drink[2].power", "expected one of"),
    ("izakaya.toml", 'order = ["black",', 'order = ["pink",', "izakaya.stock.order[0]", "unknown drink"),
    ("izakaya.toml", "5 = { size = 5, blocked_centre = false }", "5 = { size = 6, blocked_centre = false }",
     "izakaya.grids.5.size", "site cards"),
    ("izakaya.toml", "discs = 9", "discs = 8", "izakaya.discs", "9"),
    ("izakaya.toml", 'tie = "most-starting-yen-kept"', 'tie = "shared"', "izakaya.tie", "expected one of"),
    ("districts.toml", 'kanji = "目黒"', 'kanji = "目黒"\ncolour = "green"', "district[0].colour",
     "unknown key"),
    ("modes.toml", "further_floor_seconds = 15", "further_floor_seconds = 0", "countdown", "floor"),
])
def test_broken_file_is_rejected_naming_file_and_key(refused_data, file, old, new, key, words):
    refused_data(GAME, file, old, new, key, words)
