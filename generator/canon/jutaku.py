"""Tokyo Jutaku's canonical data: site cards, pieces, architects, and the Countdown, Bottle Bonus and
Izakaya games; plus the site cards' requirement notation ("3.V///" <-> 3 storeys, 8 pieces).

Files in assets/jutaku/: game.toml (contents, map, card grid, rules, the worked example, architects),
districts.toml, sites.toml (32 double-sided site cards), pieces.toml (69 pieces), drinks.toml,
modes.toml (Countdown, Bottle Bonus), izakaya.toml.

Coordinates: the map is [column, row] from 0 at the top left. A site plan and a piece are grids of
squares written top row first (see polyomino.py: a cell is (column, row) from 0, rows growing
downwards); a plan covers the whole card, `card.grid` squares of `card.cell_mm`, so pieces and
plans share one scale.
"""
from __future__ import annotations

import dataclasses
import re
from functools import cached_property
from pathlib import Path
from typing import Literal

from .. import symbols
from . import Component
from .files import read_files
from .polyomino import Cell, SIDES, bad_letters, canonical, is_connected, orientations, read_rows
from .schema import (Table, Colour, Ctx, DataError, GameHead, Source, Sourced, by_id, expect_ref, expect_total,
                     field_values, grouped, list_file, unique_ids)

# Totals the rules text states; the data must agree with them.
RULES_SITE_CARDS = 32
RULES_PIECES = 69
RULES_ARCHITECTS = 8
RULES_MAP = (6, 6)
RULES_CENTRE = 4
RULES_DRINK_COLOURS = 6
RULES_BORDERS = (1, 2)          # a site card has one or two black site borders

Side = Literal["white", "blue"]
SIDE_NAMES: tuple[Side, ...] = ("white", "blue")


# ------------------------------------------------------------------------------- requirement notation
@dataclasses.dataclass(frozen=True, order=True)
class Requirement:
    """A site card's building requirement: exactly `height` storeys built from exactly `pieces` pieces."""

    height: int
    pieces: int

    def __str__(self) -> str:
        return format_requirement(self.height, self.pieces)


_NOTATION = re.compile(r"([1-9][0-9]*)\.(V*)(/{0,4})")


def format_requirement(height: int, pieces: int) -> str:
    """The card notation: storeys, ".", then the pieces in tally numerals (V = five, / = one).

    >>> format_requirement(3, 8)
    '3.V///'
    """
    if height < 1 or pieces < 1:
        raise ValueError(f"a requirement needs at least 1 storey and 1 piece, got {height}, {pieces}")
    fives, ones = divmod(pieces, 5)
    return f"{height}." + "V" * fives + "/" * ones


def parse_requirement(text: str) -> Requirement:
    """Read the card notation back; only the form `format_requirement` writes is accepted.

    >>> parse_requirement("3.V///")
    Requirement(height=3, pieces=8)
    """
    m = _NOTATION.fullmatch(text) if isinstance(text, str) else None
    if not m or not (m.group(2) or m.group(3)):
        raise ValueError(f"{text!r} is not a requirement like '3.V///' (storeys, '.', then V = five"
                         " and / = one, at most four /)")
    return Requirement(int(m.group(1)), 5 * len(m.group(2)) + len(m.group(3)))


# ------------------------------------------------------------------------------------------ game.toml
class Contents(Sourced):
    site_cards: int
    pieces: int
    architects: int


class MapGrid(Sourced):
    size: tuple[int, int]
    centre: tuple[tuple[int, int], ...]


class CardGrid(Sourced):
    grid: tuple[int, int]
    cell_mm: float
    header_rows: int

    def check(self):
        cols, rows = self.grid
        if cols < 1 or rows < 1:
            return f"grid: {self.grid} is not a grid of squares"
        if self.cell_mm <= 0:
            return f"cell_mm: {self.cell_mm} is not a size"
        if not 0 <= self.header_rows < rows:
            return f"header_rows: {self.header_rows} leaves no room for a site on {rows} rows"

    @property
    def size_mm(self) -> tuple[float, float]:
        return (self.grid[0] * self.cell_mm, self.grid[1] * self.cell_mm)


class Rules(Sourced):
    end_sites: int
    move: int
    diagonal: bool
    start: Literal["perimeter"]
    tie: Literal["shared"]


class Example(Sourced):
    card: str
    side: Side
    requirement: str
    height: int
    pieces: int
    yen: int


class Info(Sourced):
    """A table that only says where its items' values come from."""


class Architect(Colour):
    number: int


class GameTables(GameHead):
    """game.toml's tables that `Jutaku` carries as they are (the architects it keeps under other names)."""

    players_source: Source
    contents: Contents
    map: MapGrid
    card: CardGrid
    rules: Rules
    example: Example


class GameFile(GameTables):
    architects: Info
    architect: tuple[Architect, ...]


# ------------------------------------------------------------------------------------ districts.toml
class District(Colour, Sourced):
    kanji: str


# ---------------------------------------------------------------------------------------- sites.toml
class SiteSide(Sourced):
    """One face of a site card: its requirement, value and plan (the black site borders)."""

    requirement: str
    yen: int
    plan: tuple[str, ...]

    @cached_property
    def need(self) -> Requirement:
        return parse_requirement(self.requirement)

    @property
    def height(self) -> int:
        return self.need.height

    @property
    def pieces(self) -> int:
        return self.need.pieces

    @cached_property
    def borders(self) -> tuple[frozenset[Cell], ...]:
        """The squares inside each black site border ("1", then "2"), as (column, row) on the card."""
        cells = read_rows(self.plan)
        labels = sorted(set(cells.values()))
        return tuple(frozenset(c for c, ch in cells.items() if ch == label) for label in labels)


class Site(Table):
    id: str
    district: str
    position: tuple[int, int]
    white: SiteSide
    blue: SiteSide

    def side(self, name: Side) -> SiteSide:
        return self.white if name == "white" else self.blue


class SiteSources(Table):
    district: Source
    position: Source
    plan: Source


class SitesFile(Table):
    sources: SiteSources
    site: tuple[Site, ...]


# --------------------------------------------------------------------------------------- pieces.toml
class Piece(Table):
    id: str
    number: int
    shape: tuple[str, ...]

    def check(self):
        bad = bad_letters(self.shape, "#.")
        if bad:
            return f"shape: unknown letter(s) {bad!r} (use # = part of the piece, . = empty)"
        if not self.cells:
            return "shape: no squares"
        if not is_connected(self.cells):
            return "shape: squares are not all joined by their sides"

    @cached_property
    def cells(self) -> frozenset[Cell]:
        return frozenset(read_rows(self.shape))

    @property
    def size(self) -> int:
        return len(self.cells)

    def orientations(self) -> list[frozenset[Cell]]:
        """Every distinct way the piece can lie (players may flip and rotate it)."""
        return [frozenset(c for c, _ in o) for o in orientations(dict.fromkeys(self.cells, "#"))]

    @cached_property
    def form(self) -> tuple:
        """Equal for two pieces of the same shape, however they are turned."""
        return canonical(dict.fromkeys(self.cells, "#"))


class PiecesFile(Table):
    pieces: Info
    piece: tuple[Piece, ...]


# --------------------------------------------------------------------------------------- drinks.toml
class Drink(Colour):
    power: Literal["flip-site", "early-piece", "put-it-back", "win-bonus", "two-pieces", "move-anywhere"]
    when: Literal["before-building", "before-round", "during-round", "move-phase"]
    text: str
    pieces: int = 0        # pieces the power concerns (white: placed early; red: moved together)
    yen: int = 0           # yen kept at game end (blue, when its round is won)


class DrinksInfo(Sourced):
    """Where the [[drink]] items' values come from (`source`), their print colours apart."""

    per_colour: int
    hex_source: Source      # of every drink's `hex`


class DrinksFile(Table):
    drinks: DrinksInfo
    drink: tuple[Drink, ...]


# ---------------------------------------------------------------------------------------- modes.toml
class Countdown(Sourced):
    players: tuple[int, int]
    minutes: tuple[int, int]
    floor_seconds: tuple[int, ...]
    further_floor_seconds: int

    def check(self):
        if not self.floor_seconds or min(self.floor_seconds) < 1 or self.further_floor_seconds < 1:
            return "floor_seconds: every floor has a time of at least 1 second"


class BottleBonus(Sourced):
    players: tuple[int, int]
    minutes: tuple[int, int]
    drinks_per_other_player: int
    grab: int


class ModesFile(Table):
    countdown: Countdown
    bottle_bonus: BottleBonus


# -------------------------------------------------------------------------------------- izakaya.toml
class IzakayaGrid(Table):
    size: int
    blocked_centre: bool

    def check(self):
        if self.size < 1:
            return f"size: {self.size} is not a grid size"
        if self.blocked_centre and self.size % 2 == 0:
            return f"blocked_centre: a {self.size} x {self.size} grid has no centre card"

    @property
    def claimable(self) -> int:
        return self.size * self.size - (1 if self.blocked_centre else 0)


class IzakayaStock(Sourced):
    order: tuple[str, ...]


class IzakayaExample(Sourced):
    floors: int
    drinks: tuple[str, ...]
    values: dict[str, int]
    payment: int


class IzakayaAction(Sourced):
    id: str
    name: str
    spot: str
    limit: int
    per: Literal["spot", "colour"]
    text: str


class IzakayaMoney(Sourced):
    coins: dict[str, int]


class MetroColour(Colour):
    symbol: str          # printed on every pyramid and disc of the colour (generator/symbols.py); house

    def check(self):
        return super().check() or symbols.problem(self.symbol)


class IzakayaMetro(Sourced):
    colour: tuple[MetroColour, ...]


class Izakaya(Sourced):
    players: tuple[int, int]
    minutes: tuple[int, int]
    side: Side
    action_card_side: Side
    start_yen: int
    coin: int
    start_prices: tuple[int, ...]
    pyramids: int
    discs: int
    action_discs: int
    claim_discs: int
    turn_order_discs: int
    drink_spots: tuple[int, ...]
    line_bonus: int
    end_yen: dict[str, int]
    tie: Literal["most-starting-yen-kept"]   # the tied player who kept most of their 1,000 yen wins
    grids: dict[str, IzakayaGrid]
    stock: IzakayaStock
    example: IzakayaExample
    action: tuple[IzakayaAction, ...]
    money: IzakayaMoney
    metro: IzakayaMetro

    def grid_for(self, players: int) -> IzakayaGrid:
        return self.grids[str(players)]

    def end_threshold(self, players: int) -> int:
        return self.end_yen[str(players)]

    @cached_property
    def start_price(self) -> dict[str, int]:
        """Drink colour -> the price its stock card starts at."""
        return dict(zip(self.stock.order, self.start_prices))


class IzakayaFile(Table):
    izakaya: Izakaya


# ---------------------------------------------------------------------------------------------- game
class Jutaku(GameTables):
    """Everything the generator draws and the rules engines check for Tokyo Jutaku and its games."""

    architect_info: Info
    architects: tuple[Architect, ...]
    districts: tuple[District, ...]
    site_sources: SiteSources
    sites: tuple[Site, ...]
    piece_info: Info
    pieces: tuple[Piece, ...]
    drink_info: DrinksInfo
    drinks: tuple[Drink, ...]
    countdown: Countdown
    bottle_bonus: BottleBonus
    izakaya: Izakaya

    # -- look-ups
    site = by_id("sites")
    site_at = by_id("sites", key="position")
    district = by_id("districts")
    piece = by_id("pieces")
    drink = by_id("drinks")
    architect = by_id("architects")
    sites_in = grouped("sites", "district", "districts")

    def perimeter(self) -> list[tuple[int, int]]:
        """Map squares on the outer ring, where architects start."""
        cols, rows = self.map.size
        return [(c, r) for r in range(rows) for c in range(cols)
                if c in (0, cols - 1) or r in (0, rows - 1)]

    def components(self) -> list[Component]:
        rows: list[Component] = []
        for s in self.sites:
            src = "rules" if s.white.source == s.blue.source == "rules" else "house"
            n = self.sites_in[s.district].index(s) + 1
            rows.append(Component("site-card", s.id, 1, src, f"{self.district[s.district].name} {n}"))
        for a in self.architects:
            rows.append(Component("architect", a.id, 1, self.contents.source,
                                  f"Architect {a.number} ({a.name})"))
        for p in self.pieces:
            rows.append(Component("piece", p.id, 1, self.piece_info.source, f"Piece {p.number}"))
        d, iz = self.drink_info, self.izakaya
        for drink in self.drinks:
            rows.append(Component("drink", drink.id, d.per_colour, d.source,
                                  f"{drink.name} drink (from Tokyo Jidohanbaiki)"))
        for colour in iz.stock.order:
            rows.append(Component("stock-card", colour, 1, iz.source,
                                  f"{self.drink[colour].name} stock card (from Tokyo Jidohanbaiki)"))
        rows.append(Component("stock-card", "shape", 1, iz.source,
                              "Shape stock card, face down: price adjustment (from Tokyo Jidohanbaiki)"))
        rows.append(Component("crate", "crate", len(iz.stock.order), iz.source,
                              "Drinks crate (from Tokyo Jidohanbaiki)"))
        for c in iz.metro.colour:
            rows.append(Component("pyramid", c.id, iz.pyramids, iz.source, f"{c.name} pyramid (from Tokyo Metro)"))
            rows.append(Component("disc", c.id, iz.discs + iz.turn_order_discs, iz.source,
                                  f"{c.name} disc (from Tokyo Metro)"))
        for value, n in iz.money.coins.items():
            rows.append(Component("coin", value, n, iz.money.source, f"{int(value):,} yen"))
        return rows


# ---------------------------------------------------------------------------------------------- load
def load(folder: Path) -> Jutaku:
    files, ctx = read_files(folder, {"game": GameFile, "districts": list_file("district", District), "sites": SitesFile,
                                     "pieces": PiecesFile, "drinks": DrinksFile, "modes": ModesFile,
                                     "izakaya": IzakayaFile})
    game, districts, sites = files["game"], files["districts"].district, files["sites"]
    pieces, drinks, modes = files["pieces"], files["drinks"], files["modes"]
    izakaya = files["izakaya"].izakaya

    _check_game(game, ctx["game"])
    unique_ids(districts, ctx["districts"].at("district"))
    _check_sites(sites, game, districts, ctx["sites"])
    _check_example(game, sites, ctx["game"].at("example"))
    _check_pieces(pieces, game, ctx["pieces"])
    _check_drinks(drinks, ctx["drinks"])
    _check_modes(modes, game, ctx["modes"])
    _check_izakaya(izakaya, game, drinks, ctx["izakaya"].at("izakaya"))
    return Jutaku(
        **field_values(game, GameTables), architect_info=game.architects,
        architects=game.architect, districts=districts, site_sources=sites.sources, sites=sites.site,
        piece_info=pieces.pieces, pieces=pieces.piece, drink_info=drinks.drinks, drinks=drinks.drink,
        countdown=modes.countdown, bottle_bonus=modes.bottle_bonus, izakaya=izakaya)


def _check_range(players: tuple[int, int], within: tuple[int, int], ctx: Ctx) -> None:
    lo, hi = players
    if not within[0] <= lo <= hi <= within[1]:
        raise ctx.fail(f"{list(players)} is not a range of player counts within {list(within)}")


def _check_game(game: GameFile, ctx: Ctx) -> None:
    _check_range(game.players, (1, RULES_ARCHITECTS), ctx.at("players"))
    c, cctx = game.contents, ctx.at("contents")
    expect_total(c.site_cards, RULES_SITE_CARDS, cctx.at("site_cards"), "site cards")
    expect_total(c.pieces, RULES_PIECES, cctx.at("pieces"), "pieces")
    expect_total(c.architects, RULES_ARCHITECTS, cctx.at("architects"), "architect tokens")
    m, mctx = game.map, ctx.at("map")
    if m.size != RULES_MAP:
        raise mctx.at("size").fail(f"{list(m.size)}, the rules lay the cards out {RULES_MAP[0]} x {RULES_MAP[1]}")
    expect_total(len(m.centre), RULES_CENTRE, mctx.at("centre"), "centre spaces")
    for i, (x, y) in enumerate(m.centre):
        if not (0 <= x < m.size[0] and 0 <= y < m.size[1]):
            raise mctx.at("centre").at(i).fail(f"[{x}, {y}] is not on the {m.size[0]} x {m.size[1]} map")
    if len(set(m.centre)) != len(m.centre):
        raise mctx.at("centre").fail("a space is listed twice")
    if c.site_cards != m.size[0] * m.size[1] - len(m.centre):
        raise cctx.at("site_cards").fail(f"{c.site_cards} cards do not fill the map around the centre")
    actx = ctx.at("architect")
    unique_ids(game.architect, actx)
    expect_total(len(game.architect), c.architects, actx, "architects listed")
    numbers = sorted(a.number for a in game.architect)
    if numbers != list(range(1, len(numbers) + 1)):
        raise actx.fail(f"numbers {numbers} are not 1..{len(numbers)}")


def _plan_problem(side: SiteSide, card: CardGrid) -> tuple[str, str] | None:
    """(key, problem) for the first thing wrong with a plan, or None."""
    cols, rows = card.grid
    if len(side.plan) != rows:
        return "plan", f"{len(side.plan)} rows, the card grid has {rows}"
    for i, row in enumerate(side.plan):
        if len(row) != cols:
            return f"plan[{i}]", f"{len(row)} squares, the card grid is {cols} wide"
    labels = "".join(str(n) for n in range(1, max(RULES_BORDERS) + 1))
    bad = bad_letters(side.plan, "." + labels)
    if bad:
        return "plan", f"unknown letter(s) {bad!r} (use . = outside, {', '.join(labels)} = site border)"
    for i in range(card.header_rows):
        if side.plan[i].strip("."):
            return f"plan[{i}]", "a site border enters the card's title strip (card.header_rows)"
    cells = read_rows(side.plan)
    used = sorted(set(cells.values()))
    if len(used) not in RULES_BORDERS or used != list(labels[: len(used)]):
        return "plan", f"borders {used}; a card has border 1, or borders 1 and 2"
    borders = side.borders
    for label, border in zip(used, borders):
        if not is_connected(border):
            return "plan", f"border {label} is not one piece of ground"
    if len(borders) == 2:
        a, b = borders
        if any((x + dx, y + dy) in b for x, y in a for dx, dy in SIDES):
            return "plan", "borders 1 and 2 touch; two sites need ground between them"
    return None


def _check_side(side: SiteSide, game: GameFile, ctx: Ctx) -> None:
    try:
        need = parse_requirement(side.requirement)
    except ValueError as exc:
        raise ctx.at("requirement").fail(str(exc)) from None
    if need.pieces < need.height:
        raise ctx.at("requirement").fail(
            f"{need.height} storeys cannot be built from {need.pieces} pieces")
    if need.pieces > game.contents.pieces:
        raise ctx.at("requirement").fail(f"{need.pieces} pieces, the game has {game.contents.pieces}")
    if side.yen <= 0:
        raise ctx.at("yen").fail(f"{side.yen} is not a yen value")
    problem = _plan_problem(side, game.card)
    if problem:
        key, text = problem
        raise Ctx(ctx.file, f"{ctx.key}.{key}").fail(text)


def _check_sites(sites: SitesFile, game: GameFile, districts, ctx: Ctx) -> None:
    sctx = ctx.at("site")
    unique_ids(sites.site, sctx)
    expect_total(len(sites.site), game.contents.site_cards, sctx, "site cards listed")
    known = {d.id for d in districts}
    cols, rows = game.map.size
    centre = set(game.map.centre)
    taken: dict[tuple[int, int], str] = {}
    for i, s in enumerate(sites.site):
        at = sctx.at(i)
        expect_ref(s.district, known, at.at("district"), "district (see districts.toml)")
        x, y = s.position
        if not (0 <= x < cols and 0 <= y < rows):
            raise at.at("position").fail(f"[{x}, {y}] is not on the {cols} x {rows} map")
        if s.position in centre:
            raise at.at("position").fail(f"[{x}, {y}] is a centre space, where the pieces go")
        if s.position in taken:
            raise at.at("position").fail(f"[{x}, {y}] is already {taken[s.position]!r}")
        taken[s.position] = s.id
        for name in SIDE_NAMES:
            _check_side(s.side(name), game, at.at(name))
    for d in districts:
        spots = [s.position for s in sites.site if s.district == d.id]
        if not spots:
            raise sctx.fail(f"district {d.id!r} has no site card")
        if not is_connected(spots):
            raise sctx.fail(f"the {d.id!r} cards are not grouped together on the map")


def _check_example(game: GameFile, sites: SitesFile, ctx: Ctx) -> None:
    ex = game.example
    index = {s.id: s for s in sites.site}
    expect_ref(ex.card, index, ctx.at("card"), "site card (see sites.toml)")
    try:
        need = parse_requirement(ex.requirement)
    except ValueError as exc:
        raise ctx.at("requirement").fail(str(exc)) from None
    if (need.height, need.pieces) != (ex.height, ex.pieces):
        raise ctx.at("requirement").fail(
            f"{ex.requirement!r} reads as {need.height} storeys, {need.pieces} pieces, "
            f"not {ex.height}, {ex.pieces}")
    side = index[ex.card].side(ex.side)
    if (side.requirement, side.yen) != (ex.requirement, ex.yen):
        raise ctx.fail(f"sites.toml gives {ex.card} ({ex.side}) {side.requirement!r} and {side.yen} yen, "
                       f"the rules' example {ex.requirement!r} and {ex.yen} yen")


def _check_pieces(pieces: PiecesFile, game: GameFile, ctx: Ctx) -> None:
    pctx = ctx.at("piece")
    unique_ids(pieces.piece, pctx)
    expect_total(len(pieces.piece), game.contents.pieces, pctx, "pieces listed")
    numbers = sorted(p.number for p in pieces.piece)
    if numbers != list(range(1, len(numbers) + 1)):
        raise pctx.fail(f"numbers are not 1..{len(numbers)}, each once")
    cols, rows = game.card.grid
    forms: dict[tuple, str] = {}
    for i, p in enumerate(pieces.piece):
        if p.form in forms:
            raise pctx.at(i).at("shape").fail(
                f"same shape as {forms[p.form]!r}; the rules' 69 pieces are all different")
        forms[p.form] = p.id
        fits = any(max(x for x, _ in o) < cols and max(y for _, y in o) < rows - game.card.header_rows
                   for o in p.orientations())
        if not fits:
            raise pctx.at(i).at("shape").fail("does not fit on a site card")


def _check_drinks(drinks: DrinksFile, ctx: Ctx) -> None:
    dctx = ctx.at("drink")
    unique_ids(drinks.drink, dctx)
    expect_total(len(drinks.drink), RULES_DRINK_COLOURS, dctx, "drink colours")
    if drinks.drinks.per_colour < 1:
        raise ctx.at("drinks").at("per_colour").fail("at least one drink of each colour")
    powers = [d.power for d in drinks.drink]
    if len(set(powers)) != len(powers):
        raise dctx.fail("two colours have the same power")


def _check_modes(modes: ModesFile, game: GameFile, ctx: Ctx) -> None:
    for key, mode in (("countdown", modes.countdown), ("bottle_bonus", modes.bottle_bonus)):
        _check_range(mode.players, game.players, ctx.at(key).at("players"))
        if not 0 < mode.minutes[0] <= mode.minutes[1]:
            raise ctx.at(key).at("minutes").fail(f"{list(mode.minutes)} is not a range of minutes")


def _check_izakaya(iz: Izakaya, game: GameFile, drinks: DrinksFile, ctx: Ctx) -> None:
    _check_range(iz.players, game.players, ctx.at("players"))
    counts = {str(n) for n in range(iz.players[0], iz.players[1] + 1)}
    for key, table in (("grids", iz.grids), ("end_yen", iz.end_yen)):
        if set(table) != counts:
            raise ctx.at(key).fail(f"player counts {sorted(table)}, Izakaya is for {sorted(counts, key=int)}")
    for n, grid in iz.grids.items():
        if grid.size * grid.size + 1 > game.contents.site_cards:  # + the blue claim-action card
            raise ctx.at("grids").at(n).at("size").fail(
                f"a {grid.size} x {grid.size} grid and the action card need more than "
                f"{game.contents.site_cards} site cards")
        if grid.claimable < int(n):
            raise ctx.at("grids").at(n).at("size").fail(f"fewer site cards than the {n} players")
    colours = [d.id for d in drinks.drink]
    octx = ctx.at("stock").at("order")
    for i, c in enumerate(iz.stock.order):
        expect_ref(c, colours, octx.at(i), "drink colour (see drinks.toml)")
    if sorted(iz.stock.order) != sorted(colours):
        raise octx.fail(f"each of the {len(colours)} drink colours has one stock card, once")
    if len(iz.start_prices) != len(iz.stock.order):
        raise ctx.at("start_prices").fail(
            f"{len(iz.start_prices)} prices for {len(iz.stock.order)} stock cards")
    for i, p in enumerate(iz.start_prices):
        if p <= 0 or p % iz.coin:
            raise ctx.at("start_prices").at(i).fail(f"{p} is not a whole number of {iz.coin}-yen coins")
    expect_total(iz.action_discs + iz.claim_discs, iz.discs, ctx.at("discs"), "action and claim discs")
    ex, ectx = iz.example, ctx.at("example")
    for i, c in enumerate(ex.drinks):
        expect_ref(c, colours, ectx.at("drinks").at(i), "drink colour (see drinks.toml)")
        expect_ref(c, ex.values, ectx.at("drinks").at(i), "drink without a value in example.values")
    for c in ex.values:
        expect_ref(c, colours, ectx.at("values").at(c), "drink colour (see drinks.toml)")
    unique_ids(iz.action, ctx.at("action"))
    unique_ids(iz.metro.colour, ctx.at("metro").at("colour"))
    if len(iz.metro.colour) < iz.players[1]:
        raise ctx.at("metro").at("colour").fail(f"{len(iz.metro.colour)} colours for up to {iz.players[1]} players")
    for value in iz.money.coins:
        if not value.isdigit() or int(value) % iz.coin:
            raise ctx.at("money").at("coins").at(value).fail(f"{value!r} is not a coin value in yen")


__all__ = ["DataError", "Jutaku", "Requirement", "format_requirement", "parse_requirement", "load"]
