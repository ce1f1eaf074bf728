"""Shin Bikkuri Man's canonical data (Copenhagen rules): board, facade tiles, cards, abilities, scoring.

Files in assets/shin-bikkuri-man/: game.toml (turn, building, scoring, end), board.toml (5 x 9 board
and its coats of arms), tiles.toml (50 coloured + 12 white facade tiles, copies by player count),
cards.toml (colours, cards by player count, the end card), abilities.toml (ability tiles and the
coat-of-arms actions).

Coordinates: on the board a square is [column, row], column 1..5 from the left and row 1..9 from the
bottom (as the reference counts). A tile's `shape` is written top row first (see polyomino.py:
cells there are (column, row) from 0 with rows growing downwards); `Tile.squares_up()` gives its
cells with rows growing upwards, ready to add to a board square.
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal

from . import Component
from .files import read_files
from .polyomino import Shape, bad_letters, is_connected, orientations, read_rows
from .schema import (Table, Ctx, GameHead, Source, Sourced, by_id, expect_count, expect_ref, expect_total,
                     field_values, unique_ids)
from . import schema

# Totals the sources state; the data must agree with them.
RULES_COATS_OF_ARMS = 7            # rules text
RULES_HARBOUR = 7                  # rules text
RULES_HAND_LIMIT = 7               # rules text
RULES_POINTS = 12                  # rules text
REFERENCE_BOARD = (5, 9)           # columns, rows
REFERENCE_COLOURED_TILES = 50      # with all copies (4 players)
REFERENCE_WHITE_TILES = 12
REFERENCE_TILE_SIZES = (2, 3, 4, 5)
REFERENCE_COLOURS = 5
REFERENCE_ABILITIES = 5

PlayerCount = Literal["2", "3", "4"]
BRICK, WINDOW = "B", "W"


# ---------------------------------------------------------------------------------------- game.toml
class Turn(Sourced):
    harbour: int
    take: int
    wrap_around: bool
    hand_limit: int
    tiles_per_turn: int


class StartingHands(Sourced):
    by_seat: tuple[int, ...]


class Building(Sourced):
    cards_per_square: int
    same_colour_discount: int
    overhang: bool
    rotate: bool
    flip: bool


class Scoring(Sourced):
    row: int
    row_all_windows: int
    column: int
    column_all_windows: int

    def check(self):
        if not 0 < self.row <= self.row_all_windows:
            return "row_all_windows: must be at least row (it is the total for an all-window row)"
        if not 0 < self.column <= self.column_all_windows:
            return "column_all_windows: must be at least column (it is the total for an all-window column)"


class End(Sourced):
    points: int


class ScoreMarkers(Sourced):
    """The markers the players move along their boards' score tracks (house: no source names them)."""

    per_player: int

    def check(self):
        if self.per_player < 1:
            return "per_player: each player needs a marker for the score track"


class Tie(Sourced):
    rule: Literal["fewest-empty-squares"]
    then: Literal["shared"]


class GameFile(GameHead):
    """game.toml: its tables are carried by `ShinBikkuriMan` as they are."""

    turn: Turn
    starting_hands: StartingHands
    building: Building
    scoring: Scoring
    end: End
    score_markers: ScoreMarkers
    tie: Tie


# --------------------------------------------------------------------------------------- board.toml
class CoatsOfArms(Sourced):
    total: int
    squares: tuple[tuple[int, int], ...]
    row_ends: tuple[int, ...]


class Board(Sourced):
    columns: int
    rows: int
    coats_of_arms: CoatsOfArms

    def squares(self) -> list[tuple[int, int]]:
        """Every square as (column, row), 1-based, row 1 at the bottom."""
        return [(c, r) for r in range(1, self.rows + 1) for c in range(1, self.columns + 1)]


# --------------------------------------------------------------------------------------- cards.toml
class Deck(Sourced):
    per_colour: dict[PlayerCount, int]


class EndCard(Sourced):
    count: int
    bottom: int
    shuffled_in: dict[PlayerCount, Literal["setup", "first-reshuffle"]]


class Print(Sourced):
    """Where the print colours and symbols come from."""


class Colour(schema.Colour):
    symbol: str


class CardsFile(Table):
    deck: Deck
    end_card: EndCard
    print: Print
    colour: tuple[Colour, ...]


# --------------------------------------------------------------------------------------- tiles.toml
def _check_shape(rows: tuple[str, ...], bricks: int | None) -> str | None:
    bad = bad_letters(rows, "BW.")
    if bad:
        return f"shape: unknown letter(s) {bad!r} (use B = brick, W = window, . = empty)"
    cells = read_rows(rows)
    if not cells:
        return "shape: no squares"
    if not is_connected(cells):
        return "shape: squares are not all joined by their sides"
    n = sum(1 for ch in cells.values() if ch == BRICK)
    if bricks is not None and n != bricks:
        return f"shape: {n} brick squares, a coloured tile has exactly {bricks}"
    return None


class Tile(Table):
    """One coloured facade tile design (its copies are in `Copies`)."""

    colour: str
    shape: tuple[str, ...]

    def check(self):
        return _check_shape(self.shape, bricks=1)

    @property
    def id(self) -> str:
        return f"{self.colour}-{self.size}"

    @property
    def cells(self) -> dict[tuple[int, int], str]:
        """(column, row from the top) -> "B" or "W"."""
        return read_rows(self.shape)

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def brick(self) -> tuple[int, int]:
        return next(c for c, ch in self.cells.items() if ch == BRICK)

    @property
    def windows(self) -> int:
        return self.size - 1

    def squares_up(self) -> dict[tuple[int, int], str]:
        """(column offset, row offset) with rows growing upwards, lowest row 0, as on the board."""
        h = len(self.shape)
        return {(x, h - 1 - y): ch for (x, y), ch in self.cells.items()}

    def orientations(self, rotate: bool = True, flip: bool = True) -> list[Shape]:
        return orientations(self.cells, rotate, flip)


class Copies(Sourced):
    by_size: dict[str, dict[PlayerCount, int]]

    def of(self, size: int, players: int) -> int:
        return self.by_size[str(size)][str(players)]  # type: ignore[index]


class WhiteTiles(Sourced):
    count: int
    shape: tuple[str, ...]

    def check(self):
        problem = _check_shape(self.shape, bricks=0)
        if problem:
            return problem
        if len(read_rows(self.shape)) != 1:
            return "shape: a white tile is one square"


class TilesFile(Table):
    copies: Copies
    white: WhiteTiles
    tile: tuple[Tile, ...]


# ----------------------------------------------------------------------------------- abilities.toml
class Ability(Table):
    id: str
    name: str
    action: Literal["draw", "build", "turn"]
    text: str
    starting: bool = False
    cards: int = 0                 # cards taken with it (draw abilities)
    adjacent: bool = True          # must the cards taken be next to each other in the harbour
    adjacent_source: Source = "reference"
    discount: int = 0
    recolour: bool = False
    both_actions: bool = False


class Abilities(Sourced):
    per_player: int


class CoatAction(Table):
    id: str
    name: str
    text: str
    flips: Literal["all", "one"] | None = None
    flips_source: Source | None = None


class CoatOfArms(Sourced):
    action: tuple[CoatAction, ...]


class AbilitiesFile(Table):
    abilities: Abilities
    ability: tuple[Ability, ...]
    coat_of_arms: CoatOfArms


# --------------------------------------------------------------------------------------------- game
class ShinBikkuriMan(GameFile):
    """Everything the generator draws and the rules engine checks for Shin Bikkuri Man."""

    board: Board
    deck: Deck
    end_card: EndCard
    colours: tuple[Colour, ...]
    copies: Copies
    white: WhiteTiles
    tiles: tuple[Tile, ...]
    abilities: tuple[Ability, ...]
    ability_copies: Abilities
    coat_actions: tuple[CoatAction, ...]
    print_source: Source = "house"

    # -- look-ups (id -> item)
    colour = by_id("colours")
    tile = by_id("tiles")
    ability = by_id("abilities")
    coat_action = by_id("coat_actions")

    @property
    def coat_squares(self) -> tuple[tuple[int, int], ...]:
        return self.board.coats_of_arms.squares

    @property
    def coat_rows(self) -> tuple[int, ...]:
        return self.board.coats_of_arms.row_ends

    def tile_copies(self, tile_id: str, players: int) -> int:
        """Copies of a coloured tile in play with `players` players."""
        return self.copies.of(self.tile[tile_id].size, players)

    def cards_per_colour(self, players: int) -> int:
        return self.deck.per_colour[str(players)]  # type: ignore[index]

    def starting_hand(self, seat: int) -> int:
        """Cards dealt at setup to the player in `seat` (1 = first player)."""
        return self.starting_hands.by_seat[seat - 1]

    def end_card_shuffled_in(self, players: int) -> str:
        return self.end_card.shuffled_in[str(players)]  # type: ignore[index]

    def components(self) -> list[Component]:
        hi = self.players[1]
        rows = [Component("player-board", "board", hi, self.board.source, "Player board")]
        for t in self.tiles:
            rows.append(Component("facade-tile", t.id, self.copies.of(t.size, hi), self.copies.source,
                                  f"{self.colour[t.colour].name} {t.size}-square tile"))
        rows.append(Component("facade-tile", "white-1", self.white.count, self.white.source,
                              "White one-square tile"))
        most = max(self.deck.per_colour.values())
        for c in self.colours:
            rows.append(Component("card", c.id, most, self.deck.source, f"{c.name} card"))
        rows.append(Component("card", "end", self.end_card.count, self.end_card.source, "End card"))
        for n in range(1, hi + 1):
            rows.append(Component("score-marker", str(n), self.score_markers.per_player,
                                  self.score_markers.source, f"Score marker {n} (player board {n})"))
        for a in self.abilities:
            rows.append(Component("ability-tile", a.id, self.ability_copies.per_player * hi,
                                  self.ability_copies.source, a.name))
        return rows


def load(folder: Path) -> ShinBikkuriMan:
    files, ctx = read_files(folder, {"game": GameFile, "board": Board, "cards": CardsFile,
                                     "tiles": TilesFile, "abilities": AbilitiesFile})
    game, board, cards = files["game"], files["board"], files["cards"]
    tiles, abilities = files["tiles"], files["abilities"]

    _check_game(game, ctx["game"])
    _check_board(board, ctx["board"])
    _check_cards(cards, game, ctx["cards"])
    _check_tiles(tiles, cards, game, ctx["tiles"])
    _check_abilities(abilities, ctx["abilities"])
    return ShinBikkuriMan(
        **field_values(game, GameFile), board=board, deck=cards.deck,
        end_card=cards.end_card,
        colours=cards.colour, copies=tiles.copies, white=tiles.white, tiles=tiles.tile,
        abilities=abilities.ability, ability_copies=abilities.abilities,
        coat_actions=abilities.coat_of_arms.action, print_source=cards.print.source)


def _player_counts(game: GameFile) -> set[str]:
    lo, hi = game.players
    return {str(n) for n in range(lo, hi + 1)}


def _check_game(game: GameFile, ctx: Ctx) -> None:
    lo, hi = game.players
    if not 1 <= lo <= hi:
        raise ctx.at("players").fail(f"{game.players} is not a range of player counts")
    t = game.turn
    expect_total(t.harbour, RULES_HARBOUR, ctx.at("turn").at("harbour"), "harbour cards")
    expect_total(t.hand_limit, RULES_HAND_LIMIT, ctx.at("turn").at("hand_limit"), "hand limit")
    if not 1 <= t.take <= t.harbour:
        raise ctx.at("turn").at("take").fail(f"{t.take} cards cannot be taken from a harbour of {t.harbour}")
    if len(game.starting_hands.by_seat) != hi:
        raise ctx.at("starting_hands").at("by_seat").fail(
            f"{len(game.starting_hands.by_seat)} seats, the game has up to {hi} players")
    for i, n in enumerate(game.starting_hands.by_seat):
        if not 0 <= n <= t.hand_limit:
            raise ctx.at("starting_hands").at("by_seat").at(i).fail(
                f"{n} cards is not within the hand limit of {t.hand_limit}")
    expect_total(game.end.points, RULES_POINTS, ctx.at("end").at("points"), "points to win")


def _check_board(board: Board, ctx: Ctx) -> None:
    if (board.columns, board.rows) != REFERENCE_BOARD:
        raise ctx.fail(f"board is {board.columns} x {board.rows}, the reference says "
                       f"{REFERENCE_BOARD[0]} x {REFERENCE_BOARD[1]}")
    coats = board.coats_of_arms
    cctx = ctx.at("coats_of_arms")
    expect_total(coats.total, RULES_COATS_OF_ARMS, cctx.at("total"), "coats of arms")
    expect_total(len(coats.squares) + len(coats.row_ends), coats.total, cctx, "coats on squares and row ends")
    seen = set()
    for i, (c, r) in enumerate(coats.squares):
        if not (1 <= c <= board.columns and 1 <= r <= board.rows):
            raise cctx.at("squares").at(i).fail(
                f"[{c}, {r}] is not a square of the {board.columns} x {board.rows} board")
        if (c, r) in seen:
            raise cctx.at("squares").at(i).fail(f"[{c}, {r}] is listed twice")
        seen.add((c, r))
    for i, r in enumerate(coats.row_ends):
        if not 1 <= r <= board.rows:
            raise cctx.at("row_ends").at(i).fail(f"row {r} is not on the board (1..{board.rows})")
    if len(set(coats.row_ends)) != len(coats.row_ends):
        raise cctx.at("row_ends").fail("a row is listed twice")


def _check_cards(cards: CardsFile, game: GameFile, ctx: Ctx) -> None:
    unique_ids(cards.colour, ctx.at("colour"))
    expect_count(cards.colour, REFERENCE_COLOURS, ctx.at("colour"), "colours", says="the reference has")
    counts = _player_counts(game)
    for key, table in (("deck.per_colour", cards.deck.per_colour),
                       ("end_card.shuffled_in", cards.end_card.shuffled_in)):
        if set(table) != counts:
            raise Ctx(ctx.file, key).fail(f"player counts {sorted(table)}, the game is for {sorted(counts)}")
    for n, per in cards.deck.per_colour.items():
        if per < 1:
            raise ctx.at("deck").at("per_colour").at(n).fail("at least one card of each colour")
    total_cards = min(cards.deck.per_colour.values()) * len(cards.colour)
    if cards.end_card.bottom > total_cards:
        raise ctx.at("end_card").at("bottom").fail(f"{cards.end_card.bottom} is more cards than the deck holds")
    if cards.end_card.count != 1:
        raise ctx.at("end_card").at("count").fail("there is one end card")


def _check_tiles(tiles: TilesFile, cards: CardsFile, game: GameFile, ctx: Ctx) -> None:
    colours = {c.id for c in cards.colour}
    tctx = ctx.at("tile")
    seen: dict[tuple[str, int], int] = {}
    for i, t in enumerate(tiles.tile):
        expect_ref(t.colour, colours, tctx.at(i).at("colour"), "colour (see cards.toml)")
        if t.size not in REFERENCE_TILE_SIZES:
            raise tctx.at(i).at("shape").fail(f"{t.size} squares, tiles have {REFERENCE_TILE_SIZES}")
        if (t.colour, t.size) in seen:
            raise tctx.at(i).at("shape").fail(
                f"a second {t.colour} {t.size}-square tile (first at tile[{seen[t.colour, t.size]}])")
        seen[t.colour, t.size] = i
    for colour in sorted(colours):
        for n in REFERENCE_TILE_SIZES:
            if (colour, n) not in seen:
                raise tctx.fail(f"no {colour} {n}-square tile")
    copies = tiles.copies
    cctx = ctx.at("copies").at("by_size")
    if set(copies.by_size) != {str(n) for n in REFERENCE_TILE_SIZES}:
        raise cctx.fail(f"sizes {sorted(copies.by_size)}, tiles have {list(REFERENCE_TILE_SIZES)}")
    counts = _player_counts(game)
    for n, table in copies.by_size.items():
        if set(table) != counts:
            raise cctx.at(n).fail(f"player counts {sorted(table)}, the game is for {sorted(counts)}")
        for players, k in table.items():
            if k < 1:
                raise cctx.at(n).at(players).fail("at least one copy of each tile is used")
    hi = str(game.players[1])
    total = sum(copies.by_size[str(t.size)][hi] for t in tiles.tile)
    expect_total(total, REFERENCE_COLOURED_TILES, cctx, f"coloured tiles with {hi} players")
    expect_total(tiles.white.count, REFERENCE_WHITE_TILES, ctx.at("white").at("count"), "white tiles")


def _check_abilities(abilities: AbilitiesFile, ctx: Ctx) -> None:
    actx = ctx.at("ability")
    unique_ids(abilities.ability, actx)
    expect_count(abilities.ability, REFERENCE_ABILITIES, actx, "ability tiles", says="the reference has")
    if sum(a.starting for a in abilities.ability) != 1:
        raise actx.fail("exactly one ability is the starting tile every player has")
    for i, a in enumerate(abilities.ability):
        if a.action == "draw" and a.cards < 1:
            raise actx.at(i).at("cards").fail("a draw ability says how many cards are taken")
    unique_ids(abilities.coat_of_arms.action, ctx.at("coat_of_arms").at("action"))
