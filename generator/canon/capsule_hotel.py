"""Tokyo Capsule Hotel's canonical data: economy, loans, lots, capsules, buildings, dice, cards.

Files (assets/capsule-hotel/): game.toml (setup, rounds, money, loans, purchases, purchase limit,
income, franchise, construction, variants), components.toml (the box inventory, map sheet, starting
lots, lot boards, capsule board and colours, piece sizes, round expenses board, seals, attraction
boards) and buildings.toml (bonus dice, the six buildings with their die faces and attraction cards).

Provenance: every table or item has `source` ("rules" = the Italian rules text, "house" = chosen by
this project); a value whose source differs is marked beside it (`count_source = "house"`). Use
`item.source_of("field")` to ask where one value comes from. A `components()` row's source is where
its count comes from ("house" for lot boards, seals and dice, whose faces are house designs).

The rules' arithmetic over these values (prices, interest, debt, incomes) is the game's, in
companion/games/capsule_hotel/rules/ledger.py; this module only reads and checks the data.
"""
from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Literal

from . import Component
from .files import read_files
from .schema import (Table, Ctx, GameHead, Source, Sourced, by_id, expect_count, expect_ref, expect_total,
                     expect_totals, field_values, hex_problem, unique_ids)

#: The component list of the rules text (capsule-hotel.it.txt, first page); components.toml's
#: [inventory] must agree with it.
RULES_INVENTORY = {
    "map_sheets": 10, "game_ledger_pads": 1, "player_ledger_pads": 5, "lot_boards": 5,
    "franchise_income_boards": 1, "capsule_boards": 1, "attraction_boards": 2,
    "round_expenses_boards": 1, "round_expenses_markers": 2, "seals": 5,
    "coupons_and_attraction_cards": 26, "entrances": 20, "capsules": 88, "cemeteries": 4,
    "vending_machines": 20, "buildings": 11, "bonus_dice": 3,
}
#: The one capsule colour the rules treat apart (bought one by one, may stack as a tall tower).
PINK = "pink"


def _range_problem(values, lo_hi: tuple[int, int], what: str) -> str | None:
    lo, hi = lo_hi
    outside = [v for v in values if not lo <= v <= hi]
    if outside:
        return f"{what} {outside[0]} is outside the rules' range {lo}-{hi}"
    if values and (min(values) != lo or max(values) != hi):
        return f"{what}s run {min(values)}-{max(values)}, the rules say {lo}-{hi}"
    return None


# --------------------------------------------------------------------------- game.toml

class Setup(Sourced):
    starting_lots_per_player: int
    no_starting_lot_coupons: int


Phase = Literal["mark-round", "loans", "purchase-barter", "income"]


class Rounds(Sourced):
    count: int
    phases: tuple[Phase, ...]
    end_check_from: int
    coupon_rounds: tuple[int, ...]
    coupons_per_coupon_round: int

    def check(self):
        if not 1 <= self.end_check_from <= self.count:
            return f"end_check_from: {self.end_check_from} is not a round 1-{self.count}"
        if list(self.coupon_rounds) != sorted(set(self.coupon_rounds)) or any(
                not 1 <= r <= self.count for r in self.coupon_rounds):
            return f"coupon_rounds: expected distinct rounds 1-{self.count} in order"


class Money(Sourced):
    currency: str
    symbol: str
    coupon_value: int


class LoanOption(Sourced):
    amount: int
    coupons: int = 0


class Loan(Sourced):
    interest_percent: int
    option: tuple[LoanOption, ...]

    def check(self):
        amounts = [o.amount for o in self.option]
        if not amounts:
            return "option: at least one loan option"
        if amounts != sorted(set(amounts)):
            return "option: loan amounts must be distinct and in increasing order"
        for a in amounts:
            if a * self.interest_percent % 100:
                return f"option: {self.interest_percent}% of {a} is not a whole number of yen"


class Purchase(Sourced):
    declare_seconds: int
    vending_machine: int
    cemetery: int
    entrance: int
    pink_first: int
    pink_each_further: int
    lot_price_range: tuple[int, int]
    capsule_price_range: tuple[int, int]
    building_price_range: tuple[int, int]
    items_per_purchase: int


class PurchaseLimit(Sourced):
    by_players: dict[str, int]
    track_step: int

    def check(self):
        for key, value in self.by_players.items():
            if not key.isdigit():
                return f"by_players.{key}: keys are player counts"
            if value <= 0 or value % self.track_step:
                return f"by_players.{key}: {value} is not a positive multiple of track_step"


class Income(Sourced):
    franchise_per_unit: int
    cemetery_deduction: int
    max_cemeteries_per_lot: int
    hotel_floor: int
    capsule_cap: int
    golden_rule_penalty: int


class Franchise(Sourced):
    coupon_thresholds: tuple[int, ...]
    coupons_per_threshold: int
    track_max: int

    def check(self):
        t = list(self.coupon_thresholds)
        if t != sorted(set(t)):
            return "coupon_thresholds: expected increasing amounts"
        if t and self.track_max < t[-1]:
            return f"track_max: {self.track_max} is below the last coupon threshold {t[-1]}"


class Construction(Sourced):
    hotels_per_purchase: int
    pink_tower_min_floors: int


class Variants(Sourced):
    tallest_hotel_coupons: int
    attraction_card_modes: tuple[Literal["buyer-chooses", "all-side-b"], ...]
    placement_vote_percent: int


class GameTables(GameHead):
    """game.toml's tables: read (and checked) as `GameFile`, carried by `CapsuleHotel`."""

    players_source: Source
    setup: Setup
    rounds: Rounds
    money: Money
    loan: Loan
    purchase: Purchase
    purchase_limit: PurchaseLimit
    income: Income
    franchise: Franchise
    construction: Construction
    variants: Variants


class GameFile(GameTables):
    def check(self):
        lo, hi = self.players
        if not 1 <= lo <= hi:
            return f"players: {list(self.players)} is not a range min <= max"
        keys = {str(n) for n in range(lo, hi + 1)}
        if set(self.purchase_limit.by_players) != keys:
            return (f"purchase_limit.by_players: expected one limit for each player count "
                    f"{lo}-{hi}, got {sorted(self.purchase_limit.by_players)}")
        if any(t % self.income.franchise_per_unit for t in self.franchise.coupon_thresholds):
            return "franchise.coupon_thresholds: not multiples of income.franchise_per_unit"


# --------------------------------------------------------------------------- components.toml

class Inventory(Sourced):
    """The rules' component list, as counts."""

    map_sheets: int
    game_ledger_pads: int
    player_ledger_pads: int
    lot_boards: int
    franchise_income_boards: int
    capsule_boards: int
    attraction_boards: int
    round_expenses_boards: int
    round_expenses_markers: int
    seals: int
    coupons_and_attraction_cards: int
    entrances: int
    capsules: int
    cemeteries: int
    vending_machines: int
    buildings: int
    bonus_dice: int


class MapSheet(Sourced):
    size: tuple[float, float]
    colour: str


class StartingLots(Sourced):
    count: int
    side: float
    corners: tuple[tuple[float, float], ...]

    def check(self):
        if len(self.corners) != self.count:
            return f"corners: {len(self.corners)} corners for {self.count} starting lots"


class LotBoard(Sourced):
    id: str
    name: str
    price: int
    size: tuple[float, float]


class CapsulePosition(Table):
    pieces: int
    price: int


class CapsuleBoard(Sourced):
    position: tuple[CapsulePosition, ...]
    entrances_half: Literal["left", "right"]


class CapsuleColour(Sourced):
    id: str
    name: str
    count: int
    hex: str
    pattern: str

    def check(self):
        problem = hex_problem(self.hex)
        if problem:
            return problem
        if self.count < 2:
            return "count: one capsule of each colour sits by the franchise income board, so at least 2"

    @property
    def for_sale(self) -> int:
        """Capsules beside the capsule board at setup (one of each colour marks the franchise board)."""
        return self.count - 1


class Pieces(Sourced):
    capsule: tuple[float, float, float]
    entrance: tuple[float, float]
    vending_machine: tuple[float, float]
    cemetery: tuple[float, float]


class RoundExpensesBoard(Sourced):
    queue_spaces: int
    track_max: int
    markers: tuple[Literal["expenses", "limit"], ...]


class Seal(Sourced):
    id: str
    name: str


class AttractionBoard(Sourced):
    id: str
    name: str
    buildings: tuple[str, ...]


class ComponentsFile(Table):
    inventory: Inventory
    map_sheet: MapSheet
    starting_lots: StartingLots
    lot_board: tuple[LotBoard, ...]
    capsule_board: CapsuleBoard
    capsule: tuple[CapsuleColour, ...]
    pieces: Pieces
    round_expenses_board: RoundExpensesBoard
    seal: tuple[Seal, ...]
    attraction_board: tuple[AttractionBoard, ...]


# --------------------------------------------------------------------------- buildings.toml

class Die(Sourced):
    id: str
    name: str
    sides: int


class Face(Table):
    """One face of a bonus die as the rules list it; `times` = how often it is on the die (2x)."""

    yen: int = 0
    coupons: int = 0
    no_cemetery: bool = False
    times: int = 1

    def check(self):
        if self.times < 1:
            return "times: at least 1"
        if self.yen < 0 or self.coupons < 0:
            return "a face shows no negative amounts"
        if not (self.yen or self.coupons or self.no_cemetery):
            return "a face shows yen, coupons or the no-cemetery symbol"


EffectKind = Literal[
    "roll-bonus-die",                  # roll the building's bonus die in each Income phase
    "attraction-income",               # fixed attraction income (amount) for every hotel in the lot
    "ignore-cemetery-deduction",       # no cemetery deduction for the hotels in the lot
    "gain-coupons",                    # the buyer / owner gains `amount` coupons
    "adjacent-lots-attraction-income",  # `amount` extra attraction income for every adjacent lot
    "rename",                          # the building is called `name` from now on
    "waive-golden-rule",               # hotels may exceed vending machines + cemeteries in the lot
    "hotel-on-building",               # up to `max_capsules` same-colour capsules on it form a hotel
]


class Effect(Table):
    effect: EffectKind
    when: Literal["purchase", "income", "always"] = "income"
    amount: int = 0
    name: str = ""
    max_capsules: int = 0
    starting_lots_as_one: bool = False

    def check(self):
        needs_amount = {"attraction-income", "gain-coupons", "adjacent-lots-attraction-income"}
        if self.effect in needs_amount and self.amount <= 0:
            return f"amount: {self.effect!r} needs a positive amount"
        if self.effect not in needs_amount and self.amount:
            return f"amount: {self.effect!r} takes no amount"
        if (self.effect == "rename") != bool(self.name):
            return "name: only 'rename' takes a name, and it needs one"
        if (self.effect == "hotel-on-building") != (self.max_capsules > 0):
            return "max_capsules: only 'hotel-on-building' takes max_capsules, and it needs one"
        if self.starting_lots_as_one and self.effect != "adjacent-lots-attraction-income":
            return "starting_lots_as_one: only for 'adjacent-lots-attraction-income'"


class AttractionCard(Sourced):
    id: str
    side_a_text: str
    side_b_text: str
    side_b: tuple[Effect, ...]


class Building(Sourced):
    id: str
    name: str
    cost: int
    count: int
    size: tuple[float, float]
    die: str
    faces: tuple[Face, ...]
    effects: tuple[Effect, ...]
    text: str
    card: AttractionCard | None = None

    def check(self):
        if self.count < 1:
            return "count: at least 1"
        if not any(e.effect == "roll-bonus-die" for e in self.effects):
            return "effects: every building rolls its bonus die (side A)"

    @property
    def rolled_faces(self) -> tuple[Face, ...]:
        """The faces as rolled: each listed face repeated `times` (a uniform pick is one roll)."""
        return tuple(f for f in self.faces for _ in range(f.times))


class BuildingsFile(Table):
    die: tuple[Die, ...]
    building: tuple[Building, ...]


# --------------------------------------------------------------------------- the game

class CapsuleHotel(GameTables):
    """Everything the generator draws and the rules engine checks for Tokyo Capsule Hotel."""

    inventory: Inventory
    map_sheet: MapSheet
    starting_lots: StartingLots
    lot_boards: tuple[LotBoard, ...]
    capsule_board: CapsuleBoard
    capsules: tuple[CapsuleColour, ...]
    pieces: Pieces
    round_expenses_board: RoundExpensesBoard
    seals: tuple[Seal, ...]
    attraction_boards: tuple[AttractionBoard, ...]
    dice: tuple[Die, ...]
    buildings: tuple[Building, ...]

    # -- look-ups (id -> item)
    lot_board = by_id("lot_boards")
    capsule = by_id("capsules")
    building = by_id("buildings")
    die = by_id("dice")

    @cached_property
    def attraction_cards(self) -> tuple[AttractionCard, ...]:
        return tuple(b.card for b in self.buildings if b.card is not None)

    @property
    def most_hotels(self) -> int:
        """Hotels the box can open: one per entrance, and one on each Coin Laundry."""
        laundries = sum(b.count for b in self.buildings
                        if any(e.effect == "hotel-on-building" for e in b.effects))
        return self.inventory.entrances + laundries

    @property
    def most_lots(self) -> int:
        """Lots one map sheet can hold: its starting lots and, in the rest of the sheet, as many
        lots as the smallest lot board outlines (lots never overlap)."""
        w, h = self.map_sheet.size
        start = self.starting_lots.count * self.starting_lots.side ** 2
        smallest = min(b.size[0] * b.size[1] for b in self.lot_boards)
        return self.starting_lots.count + int((w * h - start) // smallest)

    @property
    def coupons(self) -> int:
        """Coupon cards in the box: the 26 coupons and attraction cards less the attraction cards."""
        return self.inventory.coupons_and_attraction_cards - len(self.attraction_cards)

    def components(self) -> list[Component]:
        inv = self.inventory
        rows = [
            Component("map-sheet", "map-sheet", inv.map_sheets, "rules", "Map sheet"),
            Component("ledger", "game-ledger", inv.game_ledger_pads, "rules", "Game ledger"),
            Component("ledger", "player-ledger", inv.player_ledger_pads, "rules", "Player ledger"),
        ]
        rows += [Component("lot-board", b.id, 1, b.source, b.name) for b in self.lot_boards]
        rows += [
            Component("board", "franchise-income", inv.franchise_income_boards, "rules",
                      "Franchise income board"),
            Component("board", "capsule-board", inv.capsule_boards, "rules", "Capsule board"),
        ]
        rows += [Component("board", b.id, 1, b.source, b.name) for b in self.attraction_boards]
        rows += [
            Component("board", "round-expenses", inv.round_expenses_boards, "rules",
                      "Round expenses board"),
            Component("marker", "round-expenses-marker", inv.round_expenses_markers, "rules",
                      "Round expenses marker"),
        ]
        rows += [Component("seal", s.id, 1, s.source, f"Player seal ({s.name})") for s in self.seals]
        rows += [Component("attraction-card", c.id, 1, c.source, f"{b.name} attraction card")
                 for b in self.buildings if (c := b.card) is not None]
        rows += [
            Component("coupon", "coupon", self.coupons, "rules", "Coupon"),
            Component("entrance", "entrance", inv.entrances, "rules", "Entrance"),
        ]
        rows += [Component("capsule", c.id, c.count, c.source_of("count"), f"{c.name} capsule")
                 for c in self.capsules]
        rows += [
            Component("cemetery", "cemetery", inv.cemeteries, "rules", "Cemetery"),
            Component("vending-machine", "vending-machine", inv.vending_machines, "rules",
                      "Vending machine"),
        ]
        rows += [Component("building", b.id, b.count, b.source_of("count"), b.name)
                 for b in self.buildings]
        rows += [Component("bonus-die", d.id, 1, d.source, d.name) for d in self.dice]
        return rows


# --------------------------------------------------------------------------- loading and checks

def load(folder: Path) -> CapsuleHotel:
    files, ctx = read_files(folder, {"game": GameFile, "components": ComponentsFile,
                                     "buildings": BuildingsFile})
    game, comps, blds = files["game"], files["components"], files["buildings"]

    _check_game(game, ctx["game"])
    # first: the other checks count on it
    expect_totals(comps.inventory, RULES_INVENTORY, ctx["components"].at("inventory"))
    _check_buildings(blds, comps, game, ctx["buildings"])
    _check_components(comps, game, blds, ctx["components"], ctx["game"])
    _check_purchase_limit(game, comps, ctx["game"])
    return CapsuleHotel(
        **field_values(game, GameTables), inventory=comps.inventory,
        map_sheet=comps.map_sheet, starting_lots=comps.starting_lots, lot_boards=comps.lot_board,
        capsule_board=comps.capsule_board, capsules=comps.capsule, pieces=comps.pieces,
        round_expenses_board=comps.round_expenses_board, seals=comps.seal,
        attraction_boards=comps.attraction_board, dice=blds.die,
        buildings=blds.building)


def _check_game(game: GameFile, ctx: Ctx) -> None:
    p = game.purchase
    for name in ("lot_price_range", "capsule_price_range", "building_price_range"):
        lo, hi = getattr(p, name)
        if not 0 < lo <= hi:
            raise ctx.at("purchase").at(name).fail(f"{[lo, hi]} is not a range of prices")
    step = game.purchase_limit.track_step
    for name in ("vending_machine", "entrance", "pink_first", "pink_each_further"):
        if getattr(p, name) <= 0 or getattr(p, name) % step:
            raise ctx.at("purchase").at(name).fail(
                f"{getattr(p, name)} is not a positive multiple of purchase_limit.track_step ({step})")
    if p.cemetery >= 0:
        raise ctx.at("purchase").at("cemetery").fail("a cemetery has a negative cost (the buyer gains)")


def _largest_purchase(game: GameFile, comps: ComponentsFile) -> int:
    """The most one purchase can cost: the dearest lot, building or capsule colour, or every pink
    capsule for sale bought at once."""
    p = game.purchase
    pink = next(c.for_sale for c in comps.capsule if c.id == PINK)
    return max(p.lot_price_range[1], p.building_price_range[1], p.capsule_price_range[1],
               p.pink_first + p.pink_each_further * (pink - 1), p.entrance, p.vending_machine)


def _check_purchase_limit(game: GameFile, comps: ComponentsFile, ctx: Ctx) -> None:
    # "in alcuni casi è possibile che il Limite di acquisto venga superato con un solo Acquisto e
    # che la fase termini prima che tutti i giocatori abbiano avuto l'occasione di fare qualcosa":
    # at some player count a single purchase reaches the limit (reaching it ends the phase too).
    most = _largest_purchase(game, comps)
    smallest = min(game.purchase_limit.by_players.values())
    if smallest > most:
        raise ctx.at("purchase_limit").at("by_players").fail(
            f"the smallest limit ({smallest}) is above the largest single purchase ({most}); the "
            f"rules say one purchase can pass the limit in some cases")


def _check_buildings(blds: BuildingsFile, comps: ComponentsFile, game: GameFile, ctx: Ctx) -> None:
    die_ctx, b_ctx = ctx.at("die"), ctx.at("building")
    dice = unique_ids(blds.die, die_ctx)
    unique_ids(blds.building, b_ctx)
    inv = comps.inventory
    expect_count(blds.die, inv.bonus_dice, die_ctx, "dice")
    expect_total(sum(b.count for b in blds.building), inv.buildings, b_ctx, "building counts")
    problem = _range_problem([b.cost for b in blds.building], game.purchase.building_price_range,
                             "building cost")
    if problem:
        raise b_ctx.fail(problem)
    used = set()
    cards = set()
    for i, b in enumerate(blds.building):
        at = b_ctx.at(i)
        if b.cost % game.purchase_limit.track_step:
            raise at.at("cost").fail(f"{b.cost} is not a multiple of {game.purchase_limit.track_step}")
        expect_ref(b.die, dice, at.at("die"), "die")
        used.add(b.die)
        sides, n = dice[b.die].sides, len(b.rolled_faces)
        if sides != n:
            # "(2x) = questa faccia compare due volte sul dado": a face not marked (2x) is on the die
            # once, so the die has exactly as many sides as the listed faces count.
            raise at.at("faces").fail(
                f"{n} faces as the rules list them ((2x) counted twice), but die {b.die!r} has "
                f"{sides} sides; each face must be on the die as often as listed")
        if b.card is not None:
            if b.card.id in cards:
                raise at.at("card").at("id").fail(f"duplicate id {b.card.id!r}")
            cards.add(b.card.id)
    unused = sorted(set(dice) - used)
    if unused:
        raise die_ctx.fail(f"die {unused[0]!r} is used by no building")
    if len(cards) >= inv.coupons_and_attraction_cards:
        raise b_ctx.fail(f"{len(cards)} attraction cards leave no coupons of the "
                         f"{inv.coupons_and_attraction_cards} coupons and attraction cards")


def _check_components(comps: ComponentsFile, game: GameFile, blds: BuildingsFile, ctx: Ctx,
                      game_ctx: Ctx) -> None:
    inv = comps.inventory
    sheet_w, sheet_h = comps.map_sheet.size

    # starting lots: enough for the smallest table, on the sheet, not overlapping
    sl, sl_ctx = comps.starting_lots, ctx.at("starting_lots")
    if game.setup.starting_lots_per_player * game.players[0] > sl.count:
        raise game_ctx.at("setup").at("starting_lots_per_player").fail(
            f"{game.players[0]} players cannot claim {game.setup.starting_lots_per_player} of the "
            f"{sl.count} starting lots each")
    for i, (x, y) in enumerate(sl.corners):
        if x < 0 or y < 0 or x + sl.side > sheet_w or y + sl.side > sheet_h:
            raise sl_ctx.at("corners").at(i).fail("the starting lot is not wholly on the map sheet")
        for j in range(i):
            ox, oy = sl.corners[j]
            if abs(x - ox) < sl.side and abs(y - oy) < sl.side:
                raise sl_ctx.at("corners").at(i).fail(f"overlaps starting lot {j}")

    # lot boards
    lb_ctx = ctx.at("lot_board")
    unique_ids(comps.lot_board, lb_ctx)
    expect_count(comps.lot_board, inv.lot_boards, lb_ctx, "lot boards")
    problem = _range_problem([b.price for b in comps.lot_board], game.purchase.lot_price_range,
                             "lot price")
    if problem:
        raise lb_ctx.fail(problem)
    for i, b in enumerate(comps.lot_board):
        w, h = b.size
        if not (w <= sheet_w and h <= sheet_h) and not (h <= sheet_w and w <= sheet_h):
            raise lb_ctx.at(i).at("size").fail("the lot board does not fit on the map sheet")
        if b.price % game.purchase_limit.track_step:
            raise lb_ctx.at(i).at("price").fail(
                f"{b.price} is not a multiple of {game.purchase_limit.track_step}")

    # capsule board and colours
    cb_ctx, c_ctx = ctx.at("capsule_board").at("position"), ctx.at("capsule")
    positions = {}
    for i, p in enumerate(comps.capsule_board.position):
        if p.pieces in positions:
            raise cb_ctx.at(i).at("pieces").fail(f"two positions for {p.pieces} capsules")
        if p.price % game.purchase_limit.track_step:
            raise cb_ctx.at(i).at("price").fail(f"{p.price} is not a multiple of "
                                                f"{game.purchase_limit.track_step}")
        positions[p.pieces] = p
    problem = _range_problem([p.price for p in comps.capsule_board.position],
                             game.purchase.capsule_price_range, "capsule price")
    if problem:
        raise cb_ctx.fail(problem)
    colours = unique_ids(comps.capsule, c_ctx)
    if PINK not in colours:
        raise c_ctx.fail(f"no {PINK!r} capsules (the rules price and stack them apart)")
    expect_total(sum(c.count for c in comps.capsule), inv.capsules, c_ctx, "capsule counts")
    taken = {}
    for i, c in enumerate(comps.capsule):
        if c.id == PINK:
            continue
        if c.for_sale not in positions:
            raise c_ctx.at(i).at("count").fail(
                f"{c.for_sale} capsules beside the board (count - 1 on the franchise board) "
                f"match no capsule board position ({sorted(positions)})")
        if c.for_sale in taken:
            raise c_ctx.at(i).at("count").fail(
                f"shares the capsule board position for {c.for_sale} with {taken[c.for_sale]!r}")
        taken[c.for_sale] = c.id
    empty = sorted(set(positions) - set(taken))
    if empty:
        raise cb_ctx.fail(f"no colour starts at the position for {empty[0]} capsules")

    # The franchise income board's track shows every income a franchise can reach: a hotel has at
    # least 1 capsule and an entrance or a Coin Laundry, and a lot counts only if it holds one.
    laundries = sum(b.count for b in blds.building if any(
        e.effect == "hotel-on-building" for e in b.effects))
    most_hotels = min(max(c.for_sale for c in comps.capsule), inv.entrances + laundries)
    most_income = game.income.franchise_per_unit * 2 * most_hotels
    if game.franchise.track_max < most_income:
        raise game_ctx.at("franchise").at("track_max").fail(
            f"{game.franchise.track_max}: a franchise can reach {most_income} "
            f"({most_hotels} hotels in as many lots)")

    # seals, ledgers and boards against the player count
    players_max = game.players[1]
    seals = unique_ids(comps.seal, ctx.at("seal"))
    expect_count(seals, inv.seals, ctx.at("seal"), "seals")
    if players_max > min(inv.seals, inv.player_ledger_pads):
        raise game_ctx.at("players").fail(
            f"game.toml allows {players_max} players, but there are only {inv.seals} seals "
            f"and {inv.player_ledger_pads} player ledger pads")
    reb, reb_ctx = comps.round_expenses_board, ctx.at("round_expenses_board")
    if reb.queue_spaces < players_max:
        raise reb_ctx.at("queue_spaces").fail(f"{reb.queue_spaces} spaces for {players_max} seals")
    if len(reb.markers) != inv.round_expenses_markers or len(set(reb.markers)) != len(reb.markers):
        raise reb_ctx.at("markers").fail(
            f"one distinct role for each of the {inv.round_expenses_markers} round expenses markers")
    limits = game.purchase_limit
    if reb.track_max < max(limits.by_players.values()) or reb.track_max % limits.track_step:
        raise reb_ctx.at("track_max").fail(
            f"{reb.track_max}: a multiple of {limits.track_step} reaching the largest purchase limit "
            f"({max(limits.by_players.values())})")
    ab_ctx = ctx.at("attraction_board")
    unique_ids(comps.attraction_board, ab_ctx)
    expect_count(comps.attraction_board, inv.attraction_boards, ab_ctx, "attraction boards")
    building_ids = [b.id for b in blds.building]
    seen: dict[str, int] = {}
    for i, board in enumerate(comps.attraction_board):
        for j, ref in enumerate(board.buildings):
            expect_ref(ref, building_ids, ab_ctx.at(i).at("buildings").at(j), "building")
            if ref in seen:
                raise ab_ctx.at(i).at("buildings").at(j).fail(f"{ref!r} is already on board {seen[ref]}")
            seen[ref] = i
    missing = [b for b in building_ids if b not in seen]
    if missing:
        raise ab_ctx.fail(f"building {missing[0]!r} is on no attraction board")
