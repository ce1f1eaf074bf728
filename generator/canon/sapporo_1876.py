"""Sapporo 1876's canonical data: action spots, tracks, city council, academy, pioneering, tiles.

Files (assets/sapporo-1876/): game.toml (setup, turn, action points, harvest, end, final scoring),
components.toml (the box inventory, player colours, resources, banknotes), board.toml (the main
board), personal.toml (the personal board) and tiles.toml (building tiles, influential persons).

Provenance: every table or item has `source` ("rules" = the rules text, "house" = chosen by this
project); a value whose source differs is marked beside it (`cost_source = "house"`). Use
`item.source_of("field")` to ask where one value comes from.

The rules' arithmetic over these values (AP of a payment, harvest gains, fame of a settlement and
of the final scoring) is the game's, in companion/games/sapporo_1876/rules/; this module only reads
and checks the data.
"""
from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Literal

from . import Component
from .files import read_files
from .schema import (Table, Ctx, GameHead, Source, Sourced, by_id, expect_count, expect_ref, expect_total,
                     expect_totals, field_values, hex_problem, unique_ids)

#: The component list of the rules text (sapporo-1876.txt, "Components"); components.toml's
#: [inventory] must agree with it.
RULES_INVENTORY = {
    "main_boards": 1, "personal_boards": 2, "workers": 18, "score_markers": 2,
    "influential_persons": 10, "building_tiles": 13, "resource_tokens": 48, "banknotes": 18,
    "action_pawns": 1, "harvest_markers": 1, "settlement_markers": 1,
}

Action = Literal["educate", "pioneer", "invest", "appoint"]
Background = Literal["orange", "blue"]
#: What a step pays or gains: a resource id, "any" (a resource of your choice, never banknotes),
#: "yen" or "fame". Resource ids are checked against components.toml.
YEN, FAME, ANY = "yen", "fame", "any"


class Step(Table):
    """One step of a bonus or tile effect, applied in order."""

    effect: Literal["pay", "gain", "action"]
    resource: str = ""
    amount: int = 0
    action: Action | None = None
    resource_ap: int = 0
    columns: tuple[str, ...] = ()

    def check(self):
        if self.effect == "action":
            if self.action is None or self.resource_ap <= 0:
                return "an 'action' step names its action and resource_ap"
            if self.resource or self.amount:
                return "an 'action' step takes no resource or amount"
            if self.columns and self.action != "pioneer":
                return "columns: only a 'pioneer' action is limited to columns"
        else:
            if not self.resource or self.amount <= 0:
                return f"a {self.effect!r} step names a resource and a positive amount"
            if self.action is not None or self.resource_ap or self.columns:
                return f"a {self.effect!r} step takes no action, resource_ap or columns"
            if self.effect == "pay" and self.resource == FAME:
                return "fame points are never paid"


# --------------------------------------------------------------------------- game.toml

class Setup(Sourced):
    yen: int
    resources: dict[str, int]
    workers_in_area: int
    persons_on_board: int
    buildings_on_board: int
    buildings_beside_board: int
    buildings_bought: int
    notes_on_action_spots: int
    free_pioneers: int
    score: int


class Turn(Sourced):
    notes_on_adjacent_spots: int
    adjacent_spots: int
    non_active_uses_buildings: bool


class ActionPoints(Sourced):
    high: int
    low: int
    yen: int


class Harvest(Sourced):
    free_building_returns: int
    building_return_cost: int


class End(Sourced):
    events: int
    tie: Literal["last-active-player"]


class FinalScoring(Sourced):
    leftover_items_per_fame: int


class GameFile(GameHead):
    """game.toml: its tables are carried by `Sapporo` as they are."""

    players_source: Source
    setup: Setup
    turn: Turn
    action_points: ActionPoints
    harvest: Harvest
    end: End
    final_scoring: FinalScoring


# --------------------------------------------------------------------------- components.toml

class Inventory(Sourced):
    main_boards: int
    personal_boards: int
    workers: int
    score_markers: int
    influential_persons: int
    building_tiles: int
    resource_tokens: int
    banknotes: int
    action_pawns: int
    harvest_markers: int
    settlement_markers: int


class PlayerColour(Sourced):
    id: str
    name: str
    workers: int
    score_markers: int
    hex: str

    def check(self):
        return hex_problem(self.hex)


class Resource(Sourced):
    id: str
    name: str
    tokens: int
    hex: str

    def check(self):
        if self.id in (YEN, FAME, ANY):
            return f"id: {self.id!r} is reserved"
        return hex_problem(self.hex)


class Banknote(Sourced):
    id: str
    name: str
    value: int
    count: int


class ComponentsFile(Table):
    inventory: Inventory
    colour: tuple[PlayerColour, ...]
    resource: tuple[Resource, ...]
    banknote: tuple[Banknote, ...]


# --------------------------------------------------------------------------- board.toml

class ActionSpot(Sourced):
    id: str
    name: str
    action: Action
    background: Background
    ap: dict[str, int]
    position: tuple[int, int]


class Track(Sourced):
    start: Literal["bottom", "top"]
    advanced_by: Background
    spaces: int
    icons: tuple[int, ...]

    def check(self):
        if list(self.icons) != sorted(set(self.icons)) or any(
                not 1 <= i < self.spaces for i in self.icons):
            return f"icons: expected distinct rows 1-{self.spaces - 1} in order (row 0 is the start)"


class CouncilColumn(Sourced):
    id: str
    name: str
    spaces: tuple[int, ...]
    higher: int
    lower: int
    final_per_worker: int

    def check(self):
        if not 0 <= self.lower < self.higher:
            return f"lower: {self.lower} must be below higher ({self.higher}) and not negative"
        # The rules settle a tie only for 1 worker each: with 3 spaces at most, no other tie exists.
        if not 2 <= len(self.spaces) <= 3:
            return f"spaces: {len(self.spaces)} spaces; the rules' tie-break needs 2-3 per column"
        if any(c <= 0 for c in self.spaces):
            return "spaces: AP costs are positive"


class ScoreTrack(Sourced):
    spaces: int


class BoardFile(Table):
    action_spot: tuple[ActionSpot, ...]
    harvest_track: Track
    settlement_track: Track
    council_column: tuple[CouncilColumn, ...]
    score_track: ScoreTrack


# --------------------------------------------------------------------------- personal.toml

class Tier(Sourced):
    id: str
    name: str
    workers: int
    cost: int
    final_fame: int
    bonus: tuple[Step, ...] = ()


class Academy(Sourced):
    when_empty_ap: int
    when_empty_fame: int
    tier: tuple[Tier, ...]

    @property
    def workers(self) -> int:
        return sum(t.workers for t in self.tier)


class PioneerSpace(Table):
    cost: int
    gain: dict[str, int]


class PioneerColumn(Sourced):
    id: str
    name: str
    resource: str
    spaces: tuple[PioneerSpace, ...]

    def check(self):
        if len(self.spaces) < 2:
            return "spaces: a column has a top space and one below it at least"


class Pioneering(Sourced):
    second_from_top_fame: int
    top_fame: int
    column: tuple[PioneerColumn, ...]


class PersonalFile(Table):
    academy: Academy
    pioneering: Pioneering


# --------------------------------------------------------------------------- tiles.toml

class BuildingTile(Sourced):
    id: str
    name: str
    cost: int
    text: str
    effects: tuple[Step, ...]


Counter = Literal["leftover-items", "resources", "pioneering-columns", "pioneering-spaces",
                  "council-workers", "council-columns", "academy-tiers", "building-tiles",
                  "influential-persons", "workers-in-area"]


class PersonScoring(Table):
    """An influential person's end-game rule: count something of its owner's, score from it."""

    counter: Counter
    points: int
    per: int = 1
    at_least: int = 0
    resources: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    min_space: int = 1

    def check(self):
        if self.points <= 0 or self.per < 1 or self.at_least < 0 or self.min_space < 1:
            return "points, per, at_least and min_space are positive"
        if self.resources and self.counter != "resources":
            return "resources: only the 'resources' counter takes resources"
        if self.columns and self.counter not in ("pioneering-columns", "council-workers"):
            return "columns: only 'pioneering-columns' and 'council-workers' take columns"
        if self.min_space != 1 and self.counter != "pioneering-columns":
            return "min_space: only the 'pioneering-columns' counter takes min_space"
        if self.at_least and self.per != 1:
            return "per: a rule with at_least scores its points once"


class Person(Sourced):
    id: str
    name: str
    cost: int
    text: str
    scoring: PersonScoring


class TilesFile(Table):
    building_tile: tuple[BuildingTile, ...]
    person: tuple[Person, ...]


# --------------------------------------------------------------------------- the game

class Sapporo(GameFile):
    """Everything the generator draws and the rules engine checks for Sapporo 1876."""

    inventory: Inventory
    colours: tuple[PlayerColour, ...]
    resources: tuple[Resource, ...]
    banknotes: tuple[Banknote, ...]
    action_spots: tuple[ActionSpot, ...]
    harvest_track: Track
    settlement_track: Track
    council: tuple[CouncilColumn, ...]
    score_track: ScoreTrack
    academy: Academy
    pioneering: Pioneering
    building_tiles: tuple[BuildingTile, ...]
    persons: tuple[Person, ...]

    # -- look-ups (id -> item)
    action_spot = by_id("action_spots")
    council_column = by_id("council")
    pioneer_column = by_id("pioneering.column")
    building_tile = by_id("building_tiles")
    person = by_id("persons")
    resource = by_id("resources")

    @cached_property
    def adjacent(self) -> dict[str, tuple[str, ...]]:
        """Edge-adjacent action spots, from their positions on the board."""
        def touching(a: ActionSpot, b: ActionSpot) -> bool:
            return abs(a.position[0] - b.position[0]) + abs(a.position[1] - b.position[1]) == 1
        return {a.id: tuple(b.id for b in self.action_spots if touching(a, b))
                for a in self.action_spots}

    def track(self, background: Background) -> Track:
        """The track a spot of this background advances."""
        return next(t for t in (self.harvest_track, self.settlement_track)
                    if t.advanced_by == background)

    def components(self) -> list[Component]:
        inv = self.inventory
        rows = [
            Component("board", "main-board", inv.main_boards, "rules", "Main board"),
            Component("board", "personal-board", inv.personal_boards, "rules", "Personal board"),
        ]
        for c in self.colours:
            rows.append(Component("worker", c.id, c.workers, c.source_of("workers"),
                                  f"{c.name} worker"))
            rows.append(Component("score-marker", c.id, c.score_markers,
                                  c.source_of("score_markers"), f"{c.name} score marker"))
        rows += [Component("influential-person", p.id, 1, p.source, p.name) for p in self.persons]
        rows += [Component("building-tile", t.id, 1, t.source, t.name) for t in self.building_tiles]
        rows += [Component("resource", r.id, r.tokens, r.source_of("tokens"), r.name)
                 for r in self.resources]
        rows += [Component("banknote", n.id, n.count, n.source_of("count"), n.name)
                 for n in self.banknotes]
        rows += [
            Component("pawn", "action-pawn", inv.action_pawns, "rules", "Action pawn"),
            Component("marker", "harvest-marker", inv.harvest_markers, "rules", "Harvest marker"),
            Component("marker", "settlement-marker", inv.settlement_markers, "rules",
                      "Settlement marker"),
        ]
        return rows


# --------------------------------------------------------------------------- loading and checks

def load(folder: Path) -> Sapporo:
    files, ctx = read_files(folder, {"game": GameFile, "components": ComponentsFile, "board": BoardFile,
                                     "personal": PersonalFile, "tiles": TilesFile})
    game, comps, board = files["game"], files["components"], files["board"]
    personal, tiles = files["personal"], files["tiles"]

    resources = _check_components(comps, game, ctx["components"])
    _check_game(game, comps, resources, ctx["game"])
    _check_board(board, game, resources, ctx["board"])
    _check_personal(personal, game, comps, resources, ctx["personal"])
    _check_tiles(tiles, game, board, comps, personal, resources, ctx["tiles"])
    return Sapporo(
        **field_values(game, GameFile), inventory=comps.inventory,
        colours=comps.colour, resources=comps.resource, banknotes=comps.banknote,
        action_spots=board.action_spot, harvest_track=board.harvest_track,
        settlement_track=board.settlement_track, council=board.council_column,
        score_track=board.score_track, academy=personal.academy,
        pioneering=personal.pioneering, building_tiles=tiles.building_tile, persons=tiles.person)


def _check_step(step: Step, resources, pioneer_columns, ctx: Ctx) -> None:
    if step.effect != "action":
        expect_ref(step.resource, set(resources) | {YEN, FAME, ANY}, ctx.at("resource"),
                   "resource (or 'any', 'yen', 'fame')")
    for k, col in enumerate(step.columns):
        expect_ref(col, pioneer_columns, ctx.at("columns").at(k), "pioneering column")


def _check_components(comps: ComponentsFile, game: GameFile, ctx: Ctx) -> dict[str, Resource]:
    inv = comps.inventory
    expect_totals(inv, RULES_INVENTORY, ctx.at("inventory"))
    colours = unique_ids(comps.colour, ctx.at("colour"))
    if len(colours) != game.players[1]:
        raise ctx.at("colour").fail(f"{len(colours)} player colours for {game.players[1]} players")
    expect_total(sum(c.workers for c in comps.colour), inv.workers, ctx.at("colour"), "workers")
    expect_total(sum(c.score_markers for c in comps.colour), inv.score_markers, ctx.at("colour"),
                 "score markers")
    resources = unique_ids(comps.resource, ctx.at("resource"))
    expect_total(sum(r.tokens for r in comps.resource), inv.resource_tokens, ctx.at("resource"),
                 "resource tokens")
    notes = unique_ids(comps.banknote, ctx.at("banknote"))
    expect_total(sum(n.count for n in comps.banknote), inv.banknotes, ctx.at("banknote"), "banknotes")
    if 1 not in {n.value for n in notes.values()}:
        raise ctx.at("banknote").fail("no 1-yen note (the rules put 1-yen notes on the action spots)")
    return resources


def _check_game(game: GameFile, comps: ComponentsFile, resources, ctx: Ctx) -> None:
    if game.players[0] > game.players[1] or game.players[0] < 1:
        raise ctx.at("players").fail(f"{list(game.players)} is not a range min <= max")
    s, inv = game.setup, comps.inventory
    if s.buildings_on_board + s.buildings_beside_board > inv.building_tiles:
        raise ctx.at("setup").at("buildings_beside_board").fail(
            f"{s.buildings_on_board} + {s.buildings_beside_board} building tiles laid out, "
            f"there are {inv.building_tiles}")
    if s.buildings_bought * game.players[1] > s.buildings_beside_board:
        raise ctx.at("setup").at("buildings_bought").fail("more tiles bought than laid out beside the board")
    if s.persons_on_board > inv.influential_persons:
        raise ctx.at("setup").at("persons_on_board").fail(
            f"{s.persons_on_board} laid out, there are {inv.influential_persons}")
    notes_1 = sum(n.count for n in comps.banknote if n.value == 1)
    if s.notes_on_action_spots * 4 > notes_1:
        raise ctx.at("setup").at("notes_on_action_spots").fail(f"only {notes_1} 1-yen notes")
    for name in game.setup.resources:
        expect_ref(name, resources, ctx.at("setup").at("resources").at(name), "resource")
    ap = game.action_points
    if not ap.high > ap.low > 0:
        raise ctx.at("action_points").fail(f"high ({ap.high}) must be above low ({ap.low}) > 0")


def _check_board(board: BoardFile, game: GameFile, resources, ctx: Ctx) -> None:
    s_ctx = ctx.at("action_spot")
    unique_ids(board.action_spot, s_ctx)
    expect_count(board.action_spot, 4, s_ctx, "action spots")
    actions = [s.action for s in board.action_spot]
    if sorted(actions) != sorted(Action.__args__):  # type: ignore[attr-defined]
        raise s_ctx.fail(f"actions {sorted(actions)}: the rules have one spot for each of "
                         f"{', '.join(Action.__args__)}")  # type: ignore[attr-defined]
    ap = game.action_points
    positions = {}
    for i, s in enumerate(board.action_spot):
        at = s_ctx.at(i)
        for name in s.ap:
            expect_ref(name, resources, at.at("ap").at(name), "resource")
        if sorted(s.ap.values()) != [ap.low, ap.high]:
            raise at.at("ap").fail(f"one resource at {ap.high} AP and one at {ap.low} AP, "
                                   f"got {dict(s.ap)}")
        if s.position in positions:
            raise at.at("position").fail(f"same position as {positions[s.position]!r}")
        positions[s.position] = s.id
    for i, s in enumerate(board.action_spot):
        n = sum(abs(s.position[0] - o.position[0]) + abs(s.position[1] - o.position[1]) == 1
                for o in board.action_spot)
        if n != game.turn.adjacent_spots:
            raise s_ctx.at(i).at("position").fail(
                f"{n} edge-adjacent spot(s), the rules say {game.turn.adjacent_spots}")
    for name in ("harvest_track", "settlement_track"):
        t = getattr(board, name)
        if len(t.icons) < game.end.events or t.icons[-1] != t.spaces - 1:
            raise ctx.at(name).at("icons").fail(
                f"the track needs {game.end.events} icons with one on its last row "
                f"({t.spaces - 1}), so that its marker cannot run off before the game ends")
    if {board.harvest_track.advanced_by, board.settlement_track.advanced_by} != {"orange", "blue"}:
        raise ctx.at("settlement_track").at("advanced_by").fail(
            "one track is advanced by orange spots, the other by blue ones")
    c_ctx = ctx.at("council_column")
    unique_ids(board.council_column, c_ctx)
    expect_count(board.council_column, 3, c_ctx, "columns")


def _check_personal(personal: PersonalFile, game: GameFile, comps: ComponentsFile, resources,
                    ctx: Ctx) -> None:
    t_ctx = ctx.at("academy").at("tier")
    unique_ids(personal.academy.tier, t_ctx)
    per_player = comps.colour[0].workers if comps.colour else 0
    expect_total(game.setup.workers_in_area + personal.academy.workers, per_player, t_ctx,
                 "workers in the academy and the worker area")
    columns = unique_ids(personal.pioneering.column, ctx.at("pioneering").at("column"))
    for i, tier in enumerate(personal.academy.tier):
        for j, step in enumerate(tier.bonus):
            _check_step(step, resources, columns, t_ctx.at(i).at("bonus").at(j))
    col_ctx = ctx.at("pioneering").at("column")
    if set(columns) != set(resources):
        raise col_ctx.fail(f"columns {sorted(columns)}: the rules have one for each resource "
                           f"{sorted(resources)}")
    for i, col in enumerate(personal.pioneering.column):
        expect_ref(col.resource, resources, col_ctx.at(i).at("resource"), "resource")
        for j, space in enumerate(col.spaces):
            for what, n in space.gain.items():
                expect_ref(what, set(resources) | {YEN}, col_ctx.at(i).at("spaces").at(j).at("gain").at(what),
                           "resource (or 'yen')")
                if n <= 0:
                    raise col_ctx.at(i).at("spaces").at(j).at("gain").at(what).fail("a gain is positive")
            if space.cost <= 0:
                raise col_ctx.at(i).at("spaces").at(j).at("cost").fail("an AP cost is positive")


def _check_tiles(tiles: TilesFile, game: GameFile, board: BoardFile, comps: ComponentsFile,
                 personal: PersonalFile, resources, ctx: Ctx) -> None:
    inv = comps.inventory
    b_ctx, p_ctx = ctx.at("building_tile"), ctx.at("person")
    unique_ids(tiles.building_tile, b_ctx)
    unique_ids(tiles.person, p_ctx)
    expect_count(tiles.building_tile, inv.building_tiles, b_ctx, "building tiles")
    expect_count(tiles.person, inv.influential_persons, p_ctx, "influential persons")
    s = game.setup
    columns = {c.id for c in personal.pioneering.column}
    for i, t in enumerate(tiles.building_tile):
        if not 0 < t.cost <= s.yen:
            # Buying one of the tiles beside the board with the starting yen is mandatory.
            raise b_ctx.at(i).at("cost").fail(
                f"{t.cost}: a building tile costs 1-{s.yen}, the yen a player starts with, since "
                f"buying one at setup is mandatory")
        for j, step in enumerate(t.effects):
            _check_step(step, resources, columns, b_ctx.at(i).at("effects").at(j))
    council = {c.id for c in board.council_column}
    for i, p in enumerate(tiles.person):
        if p.cost <= 0:
            raise p_ctx.at(i).at("cost").fail("an AP cost is positive")
        sc, at = p.scoring, p_ctx.at(i).at("scoring")
        for k, r in enumerate(sc.resources):
            expect_ref(r, resources, at.at("resources").at(k), "resource")
        known = columns if sc.counter == "pioneering-columns" else council
        for k, c in enumerate(sc.columns):
            expect_ref(c, known, at.at("columns").at(k), "column")
