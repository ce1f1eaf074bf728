"""Shinjuku's canonical data: wards, stations, connections, customers, tokens and pieces."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from .. import symbols
from . import Component
from .files import read_files
from .schema import (Table, Colour, Ctx, GameHead, Sourced, by_id, expect_count, expect_ref, expect_total,
                     field_values, grouped, list_file, unique_ids)

# Totals the rules text states (../shared/rules/shinjuku.txt); the data must agree with them.
RULES_WARDS = 23
RULES_CARDS = 72
RULES_CUSTOMERS = {"food": 23, "clothing": 20, "books": 16, "electronics": 13}


class Ward(Table):
    id: str
    number: int
    name: str
    kanji: str
    cards: int
    colour: str
    neighbours: tuple[str, ...]

    def check(self):
        if self.cards < 1:
            return "cards: a ward has at least one card"


class Station(Table):
    id: str
    name: str
    kanji: str
    ward: str
    sakura: bool
    map: tuple[float, float]


class Connection(Table):
    stations: tuple[str, str]
    prebuilt: bool = False

    @property
    def id(self) -> str:
        """Stable id of the track slot: the two station ids in sorted order."""
        return "--".join(sorted(self.stations))


class Deck(Sourced):
    cards: int


class MapSpace(Sourced):
    width: float
    height: float


class Rules(Sourced):
    hand_size: int
    income_hand: int
    seed_wards: int
    seed_customers_per_ward: int
    queue_slots: tuple[int, ...]
    queue_start_customers: int
    actions_per_turn: int
    cards_as_wild: int


class Scoring(Sourced):
    set_points: dict[str, int]

    def points_for_set(self, size: int) -> int:
        return self.set_points[str(size)]


class GameFile(GameHead):
    """game.toml: its tables are carried by `Shinjuku` as they are."""

    deck: Deck
    map: MapSpace
    rules: Rules
    scoring: Scoring


class CustomerType(Table):
    id: str
    name: str
    count: int
    double: int

    def check(self):
        if not 0 <= self.double <= self.count:
            return f"double: {self.double} is not between 0 and count ({self.count})"

    @property
    def single(self) -> int:
        return self.count - self.double


class Customers(Sourced):
    total: int
    type: tuple[CustomerType, ...]


class UpgradeBonus(Sourced):
    count: int
    values: tuple[int, ...]


class Tokens(Sourced):
    matsuri: int
    start_player: int


class PieceColour(Colour):
    symbol: str          # printed on every piece of the colour (generator/symbols.py); house

    def check(self):
        return super().check() or symbols.problem(self.symbol)


class Pieces(Sourced):
    department_stores: int
    stores: int
    track: int
    stores_by_type: dict[str, int]
    colour: tuple[PieceColour, ...]


class ComponentsFile(Table):
    customers: Customers
    upgrade_bonus: UpgradeBonus
    tokens: Tokens
    pieces: Pieces


class Shinjuku(GameFile):
    """Everything the generator draws and the rules engine checks for Shinjuku."""

    wards: tuple[Ward, ...]
    stations: tuple[Station, ...]
    connections: tuple[Connection, ...]
    customers: Customers
    upgrade_bonus: UpgradeBonus
    tokens: Tokens
    pieces: Pieces

    # -- look-ups (id -> item)
    ward = by_id("wards")
    station = by_id("stations")
    customer_type = by_id("customers.type")
    connection = by_id("connections")
    stations_in = grouped("stations", "ward", "wards")

    def components(self) -> list[Component]:
        rows = [Component("ward-card", w.id, w.cards, "reference", w.name) for w in self.wards]
        for t in self.customers.type:
            rows.append(Component("customer", t.id, t.single, self.customers.source, t.name))
            rows.append(Component("customer", f"{t.id}-2", t.double, "reference", f"{t.name} “2”"))
        rows.append(Component("upgrade-bonus-token", "upgrade-bonus", self.upgrade_bonus.count,
                              self.upgrade_bonus.source, "Upgrade bonus"))
        rows.append(Component("token", "matsuri", self.tokens.matsuri, self.tokens.source, "Matsuri"))
        rows.append(Component("token", "start-player", self.tokens.start_player, self.tokens.source,
                              "Start player"))
        rows.append(Component("board", "map", 1, "reference", "Tokyo map board"))
        p = self.pieces
        for c in p.colour:
            rows.append(Component("department-store", c.id, p.department_stores, p.source,
                                  f"{c.name} department store"))
            for goods, n in p.stores_by_type.items():
                rows.append(Component("store", f"{c.id}-{goods}", n, "reference",
                                      f"{c.name} {goods} store"))
            rows.append(Component("track", c.id, p.track, p.source, f"{c.name} track"))
        return rows


def load(folder: Path) -> Shinjuku:
    files, ctx = read_files(folder, {"game": GameFile, "wards": list_file("ward", Ward),
                                     "stations": list_file("station", Station),
                                     "connections": list_file("connection", Connection),
                                     "components": ComponentsFile})
    game, comps = files["game"], files["components"]
    wards, stations = files["wards"].ward, files["stations"].station
    connections = files["connections"].connection

    _check_wards(wards, game, ctx["wards"].at("ward"))
    _check_stations(stations, wards, ctx["stations"].at("station"))
    _check_connections(connections, stations, ctx["connections"].at("connection"))
    _check_components(comps, ctx["components"])
    return Shinjuku(**field_values(game, GameFile), wards=wards, stations=stations,
                    connections=connections, customers=comps.customers,
                    upgrade_bonus=comps.upgrade_bonus, tokens=comps.tokens, pieces=comps.pieces)


def _check_wards(wards, game: GameFile, ctx: Ctx) -> None:
    index = unique_ids(wards, ctx)
    expect_count(wards, RULES_WARDS, ctx, "wards")
    expect_total(sum(w.cards for w in wards), game.deck.cards, ctx, "card counts")
    expect_total(game.deck.cards, RULES_CARDS, Ctx(ctx.file, "deck.cards"), "cards")
    for i, w in enumerate(wards):
        for j, n in enumerate(w.neighbours):
            at = ctx.at(i).at("neighbours").at(j)
            expect_ref(n, index, at, "ward")
            if w.id not in index[n].neighbours:
                raise at.fail(f"{n!r} does not list {w.id!r} back as a neighbour")


def _check_stations(stations, wards, ctx: Ctx) -> None:
    unique_ids(stations, ctx)
    ward_ids = {w.id for w in wards}
    for i, s in enumerate(stations):
        expect_ref(s.ward, ward_ids, ctx.at(i).at("ward"), "ward")
    empty = ward_ids - {s.ward for s in stations}
    if empty:
        raise ctx.fail(f"ward {sorted(empty)[0]!r} has no station")


def _check_connections(connections, stations, ctx: Ctx) -> None:
    station_ids = {s.id for s in stations}
    seen = set()
    for i, c in enumerate(connections):
        for j, end in enumerate(c.stations):
            expect_ref(end, station_ids, ctx.at(i).at("stations").at(j), "station")
        if c.stations[0] == c.stations[1]:
            raise ctx.at(i).at("stations").fail("a connection joins two different stations")
        if c.id in seen:
            raise ctx.at(i).at("stations").fail(f"duplicate connection {c.id!r}")
        seen.add(c.id)


def _check_components(comps: ComponentsFile, ctx: Ctx) -> None:
    types_ctx = ctx.at("customers").at("type")
    index = unique_ids(comps.customers.type, types_ctx)
    for i, t in enumerate(comps.customers.type):
        if t.id in RULES_CUSTOMERS:
            expect_total(t.count, RULES_CUSTOMERS[t.id], types_ctx.at(i).at("count"), f"{t.id} customers")
    if set(index) != set(RULES_CUSTOMERS):
        raise types_ctx.fail(f"customer types {sorted(index)} are not the rules' {sorted(RULES_CUSTOMERS)}")
    expect_total(sum(t.count for t in comps.customers.type), comps.customers.total,
                 ctx.at("customers").at("total"), "customer types")
    bonus = comps.upgrade_bonus
    if len(bonus.values) != bonus.count:
        raise ctx.at("upgrade_bonus").at("values").fail(f"{len(bonus.values)} values for {bonus.count} tokens")
    p = comps.pieces
    by_type = Counter(p.stores_by_type)
    for goods in by_type:
        expect_ref(goods, index, ctx.at("pieces").at("stores_by_type").at(goods), "customer type")
    expect_total(sum(by_type.values()), p.stores, ctx.at("pieces").at("stores_by_type"), "stores by type")
    unique_ids(p.colour, ctx.at("pieces").at("colour"))
