"""Shin Bikkuri Man's rules (Copenhagen rules) as pure Python: `RULES`, the game's contract.Rules.

Sources: ../shared/rules/shin-bikkuri-man.txt (the Board Game Arena game help), the component facts
and edge cases of ../shared/reference/shin-bikkuri-man.md, and the canonical data in
assets/shin-bikkuri-man/ (`data` = generator.canon.load("shin-bikkuri-man")): harbour size, cards
taken, hand limit, starting hands, tile shapes and copies, costs, scoring, the coats of arms, the
abilities and the end card are all read from `data`.

Modules: facade (cost and row/column points), geometry (the façade notation of API.md, every
placement of every tile, support, coats of arms, scoring), engine (set-up, deck, harbour and every
move), legal (legal-move lists), views (result, hidden information, history lines, page hints),
calc (the two calculators of API.md), named (the table's deck with cards named when paid).

Options: {"deck": "table" | "companion", "cards": "named-when-paid" | "entered", "start_player": 0}
  chance_modes: "table" = {"deck": "table", "cards": "named-when-paid"} (the real deck is used; the
  companion keeps the harbour's spaces, the hands' sizes and the deck's count, and a card's colour is
  named only when it is paid or discarded: nothing dealt or revealed is typed in), "companion" =
  {"deck": "companion"} (the companion shuffles from the seed kept in the state, deals and refills;
  replaying gives the same cards). "cards": "entered" (and "cards" absent, as in every table made
  before the option: their logs replay state for state) is the first table-deck way: the table
  enters the starting hands, the harbour and each refill. The new-table page's "Our own deck" sends
  "named-when-paid" (a box below it asks for "entered"); "cards" with the companion's deck is refused.

State (plain JSON)
------------------
  game, mode, seed (companion mode), phase "deal" | "turn" | "discard" | "coats" | "refill" | "over",
  turn, start_player, current (whose turn), done (["take"], ["build"]: actions taken this turn),
  both (Both Actions declared this turn), coats (coat-of-arms actions pending),
  harbour [colour] (space 0 first), deck (companion: the order, "end" = the end card; table: the
  content; named when paid: the count), end_in_deck, shuffles (discards made a new deck), draws
  (cards revealed from the deck),
  discard {colour: n}, supply {tile id: copies left, "white-1": white tiles left},
  abilities_left {ability: tiles left in the box},
  players [{name, hand {colour: n}, facade [9 strings, API.md notation, top row first], points,
            abilities {ability id: "ready" | "used"}}],
  deal (table mode set-up: {hands [bool], harbour bool}, else null), ended ("points" | "end-card"),
  last (what the last move did, for the pages).
  Named when paid besides: cards "named-when-paid", harbour ["?", …] (a card whose colour the
  companion does not know), each hand {"?": n}, discard exact (every card in it was named),
  end_window (the refill just made could have revealed the end card), no "owed".

Moves ("player" = the seat index; squares are [column, row], row 1 at the bottom)
---------------------------------------------------------------------------------
  {"type": "take", "player": 0, "spaces": [2, 3], "abilities": ["any-cards"]?}   harbour spaces from 0
  {"type": "discard", "player": 0, "cards": ["red", "blue"]}                    down to the hand limit
  {"type": "build", "player": 0, "tile": "red-4", "squares": [[1, 1], [2, 1], [1, 2], [2, 2]],
     "brick": [1, 1], "abilities": ["construction-discount", "change-of-colours"]?,
     "recolour": "blue"?, "pay": {"red": 2, "blue": 1}?}
  {"type": "special-tile", "player": 0, "square": [3, 2]}          coat-of-arms action: a white tile
  {"type": "take-ability", "player": 0, "ability": "both-actions"}  coat-of-arms action
  {"type": "reactivate", "player": 0}                               coat-of-arms action
  {"type": "decline", "player": 0}                     forgo the coat-of-arms actions still pending
  {"type": "end-turn", "player": 0}           after one action declared with Both Actions, or stuck
  table mode: {"type": "deal-hand", "player": 1, "cards": [...]}, {"type": "fill-harbour",
  "cards": [7 colours]}, {"type": "refill", "cards": [colours in the order revealed, "end" stops]}.
  {"type": "correct-card", "player": 1, "was": "red", "now": "blue"}   table mode, at any time
  named when paid: no deal-hand, fill-harbour, refill or correct-card; {"type": "end-card"} (a table
  move) while "end_window"; a build's "pay" names its cards (default: the cost in the tile's colour),
  a discard names its colours as before.
  "abilities": "both-actions" goes with the turn's first action (take or build).

Decisions where the texts are silent (what Copenhagen players expect)
---------------------------------------------------------------------
  * The harbour: after cards are taken the remaining cards slide together towards space 0 (their
    order kept) and the empty spaces at the end are refilled from the deck at the end of the turn
    (after a Both Actions build too). Adjacency is by space number; no wrap-around.
  * Table mode: the engine keeps the deck's content (all cards minus the hands, the harbour and
    the discard pile) for its bookkeeping, but judges every entry (starting hands, the harbour,
    refills) on PUBLIC information only (issue 26: a seat's answers depend only on what that seat
    may know; the deck's content would give away the starting hands): a card is refused when the
    harbour, the discard pile and the cards of the same entry already hold every card of its
    colour; the number of cards is checked before any colour. A card that only a hand rules out
    is accepted, recorded as "owed" and shown as a conflict ("conflicts" in public_view) to the
    host (every one, with the hands holding that colour) and to a seat whose own hand with the
    harbour and the discard pile holds more of the colour than the game has; "correct-card" (a
    card of a hand set right, at any time) or an undo of the wrong entry fixes it. The deck count
    everyone sees counts owed cards as drawn; the legal lists sample from the public pool.
    The end card may be entered only when it is in the deck and at most `bottom` (10) coloured
    cards are left in it (it was shuffled into the bottom cards); when only the end card is left,
    it must be entered.
    When the deck is empty the discards become the new deck (the engine does it, as the table
    does; cards owed by a conflict stay in the bookkeeping); the first reshuffle adds the end card
    with 3-4 players.
  * The table's deck, cards named when paid (issue 23: at a real table the colours matter only when
    cards are paid, so nothing revealed is typed in):
    - Set-up: nothing is entered; the harbour is 7 spaces, each starting hand its size (2, 3, 3, 4
      in turn order), the deck the game's cards less those.
    - A take moves cards from spaces to the hand by count, the rest slide towards space 0 as in the
      game, and at the end of the turn the empty spaces are refilled by themselves: the deck's count
      goes down by the cards laid out (it is exact: every card's move is known, only not its colour).
    - A build names its payment ("pay"; the page presets the tile's own colour and count, so that
      costs no tap; another colour only with Change of Colours, a tap each as before). A discard
      names its colours (a tap a card, as the entered way's discard did).
    - Checks stay on public information: a payment or a discard is refused when the hand is smaller
      than the cards named, when the discard pile (the only cards whose colour is public: every card
      in it was named) and the cards named would hold more of a colour than the game has, or where
      the rules forbid it (the tile's colour, Change of Colours). A card named wrongly that no check
      can see is the table's to set right with undo; no hand is ever known, so none can conflict.
    - The reshuffle stays exact: when a card must be revealed and the deck's count is 0, the discard
      pile becomes the deck (its count known), and the first one adds the end card with 3-4 players,
      into its bottom cards.
    - The end card stays exact: it lies among the bottom `bottom` (10) cards, so it can come up only
      at a reveal made while at most 10 coloured cards are left with it. A refill during which that
      was so opens "end_window": the page offers "The END card came up" (one tap, the table's move
      "end-card", any seat or the host), which ends the game as the entered way's refill did. The
      next move closes the window (the end card did not come up); to claim it afterwards, undo back
      to the refill. When only the end card is left, the refill reveals it by itself: the game ends.
      A refill that could not show it needs nothing. (A refill entry only for the end card would
      have cost a tap in every turn of the last ten cards.)
    - Hands are not secrets the companion holds (secret_paths is empty): every seat sees the same
      sizes, and what any seat is answered cannot depend on another seat's cards.
  * The end card ends the game when it is revealed during a refill: no card is revealed after it,
    the harbour is not refilled, nobody takes another turn; the winner has most points.
  * 12 points end the game at once, on the tile (coloured or white) that reaches them, before any
    coat-of-arms action of that turn (reference). The winner has most points (only the player who
    reached 12 can have 12 or more).
  * Tie-break: fewest empty squares (reference); a tie after that is a shared victory (house).
  * Support: at least one square of the tile on row 1 or directly above a square already covered
    (overhangs allowed, data `overhang`); white tiles follow the same rule. "Tiles may be rotated
    and flipped when placed" (reference; data `rotate`, `flip`); the move gives the squares the
    tile covers and where its brick is.
  * The calculators (calc): a board that cannot occur is refused (422) by /score and /place alike:
    a brick of a colour whose tiles have none (a white brick "W"; /place refuses to lay one). Other
    façades the notation can write are scored as written (a square covered is a square covered).
  * Same-colour discount: a square of the new tile shares a side with a square of that colour.
    It and Construction Discount add up; a cost never goes below 0. White tiles cost nothing.
  * Coats of arms: each square coat covered and each marked row completed (rows 2, 4, 6, right
    end) by a tile gives one action; a white tile placed by an action that covers or completes one
    gives another. The actions are taken one at a time; "decline" forgoes those left; when none of
    the three is possible (no white tile fits or is left, every ability type held, none used) the
    remaining actions lapse by themselves, so the game never locks (reference edge case).
  * Reactivate turns every used ability face up (data `flips = "all"`; with "one", the move names it).
  * Abilities: used once each until reactivated. An ability named in a move that changes nothing
    is not spent: Any Cards when the cards are next to each other anyway (reference), Construction
    Discount on a tile that already costs 0, Change of Colours when no card of the other colour is
    paid. Any Cards and Additional Card combine (3 cards from anywhere); with Additional Card alone
    the 3 cards lie next to each other (data, house). Change of Colours: the move names the colour
    `recolour` whose cards count as the tile's colour; the payment mixes both colours as the player
    says (`pay`) or by default the tile's colour first. Both Actions is declared with the first
    action; the other action may follow (in either order) or the player ends the turn; it is spent
    only when the second action is taken. A player with an empty hand can still take cards, so
    Change of Colours never locks (reference edge case).
  * Hand limit: checked right after taking cards; the player discards at once (a "discard" move)
    before doing anything else; discards go face up to the discard pile.
  * Tiles and white tiles are a shared supply counted by player count (data); ability tiles: one
    of each type per player in the box.
  * Undo: in companion mode a move that revealed cards from the deck (a refill at the end of the
    turn) is a reveal (`reveals`): a seat cannot undo it, the host can (the same cards come again:
    the seed's order); in table mode any move can be undone (named when paid too: nothing is
    hidden from anyone, an undo takes back the counts).
"""
from __future__ import annotations

from typing import Any

from companion.games import contract
from companion.games.contract import Actors, Ctx, Field, IllegalMove, Legal, MoveType

from . import at_table as _at_table
from . import calc as _calc
from . import engine as _en
from . import legal as _legal
from . import named as _named
from . import views as _views

__all__ = ["RULES", "ShinBikkuriManRules"]

_PLAYER = Field("player", {"type": "integer", "minimum": 0}, "the seat index of the player making the move")
_SQUARE = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
           "description": "[column, row], column 1 at the left, row 1 at the bottom"}
_COLOURS = {"type": "array", "items": {"type": "string"}, "description": "card colour ids (\"red\", …)"}
_ABILITIES = Field("abilities", {"type": "array", "items": {"type": "string"}},
                   "ability tiles used with this action (face-up ones)", required=False)

MOVE_TYPES = (
    MoveType("deal-hand", "Enter a starting hand", (_PLAYER, Field("cards", _COLOURS, "the cards dealt")),
             doc="Table mode, set-up: the hand a player was dealt (a seat enters its own; the host any)."),
    MoveType("fill-harbour", "Lay out the harbour", (Field("cards", _COLOURS, "the harbour cards, space 0 first"),),
             who="table", doc="Table mode, set-up: the face-up harbour cards."),
    MoveType("take", "Take cards", (
        _PLAYER, Field("spaces", {"type": "array", "items": {"type": "integer", "minimum": 0}},
                       "harbour spaces (0 = the first), next to each other"), _ABILITIES),
             doc="Take one harbour card and the one next to it (no wrap-around)."),
    MoveType("discard", "Discard down to the hand limit", (_PLAYER, Field("cards", _COLOURS, "the cards discarded")),
             doc="Right after taking cards, when the hand holds more than the limit."),
    MoveType("build", "Build a tile", (
        _PLAYER, Field("tile", {"type": "string"}, "a coloured tile id, colour-size (\"red-4\")"),
        Field("squares", {"type": "array", "items": _SQUARE}, "the squares the tile covers"),
        Field("brick", {"oneOf": [_SQUARE, {"type": "null"}]}, "the square of its brick"),
        _ABILITIES,
        Field("recolour", {"type": "string"}, "with Change of Colours: the colour whose cards count "
              "as the tile's", required=False),
        Field("pay", {"type": "object", "additionalProperties": {"type": "integer"}},
              "the cards paid by colour (default: the tile's colour first)", required=False)),
             doc="Buy one tile, pay its cost in cards and place it on a supported spot of your façade."),
    MoveType("special-tile", "Place a white tile", (_PLAYER, Field("square", _SQUARE, "where it goes")),
             doc="Coat-of-arms action: a white one-square tile on a supported square."),
    MoveType("take-ability", "Take an ability tile", (
        _PLAYER, Field("ability", {"type": "string"}, "an ability type you do not have")),
             doc="Coat-of-arms action: a new ability tile, face up."),
    MoveType("reactivate", "Turn abilities face up", (
        _PLAYER, Field("ability", {"type": "string"}, "only when one tile is turned: which", required=False)),
             doc="Coat-of-arms action: your used ability tiles become usable again."),
    MoveType("decline", "Forgo coat-of-arms actions", (_PLAYER,),
             doc="Give up the coat-of-arms actions still pending."),
    MoveType("end-turn", "End the turn", (_PLAYER,),
             doc="After one action declared with Both Actions (or when no action is possible)."),
    MoveType("correct-card", "Correct a card", (
        _PLAYER, Field("was", {"type": "string"}, "the card colour entered by mistake, still in the hand"),
        Field("now", {"type": "string"}, "the colour really dealt (one that can still be in the deck)")),
             doc="Table mode, at any time: a card entered wrongly into a hand is set right (also what "
                 "fixes a conflict the page shows); nothing played since is undone."),
    MoveType("end-card", "The end card came up", (), who="table",
             doc="Table's deck, cards named when paid: the end card came up in the refill just made "
                 "(only then: the page offers it while the refill could have shown it); the game ends."),
    MoveType("refill", "Refill the harbour", (
        Field("cards", {"type": "array", "items": {"type": "string"}},
              "the cards revealed, in order; \"end\" for the end card (it ends the game)"),),
             who="table", doc="Table mode, end of a turn: the cards that fill the harbour's empty spaces."),
)

_TABLE_MOVES = frozenset(mt.name for mt in MOVE_TYPES if mt.who == "table")


class ShinBikkuriManRules(contract.Rules):
    """Shin Bikkuri Man's rules bound to its data (see the module docstring)."""

    id = "shin-bikkuri-man"
    move_types = MOVE_TYPES
    chance_modes = {"table": {"deck": _en.TABLE, "cards": _named.NAMED}, "companion": {"deck": _en.COMPANION}}
    options_doc = {
        "deck": "\"table\" (default): you deal the real cards and enter the harbour and its refills; "
                "\"companion\": the companion shuffles, deals and refills the harbour.",
        "cards": "with the table's deck: \"named-when-paid\" (the new tables' way): nothing revealed "
                 "from the deck is entered, a card's colour is named when it is paid or discarded; "
                 "\"entered\" (also when the option is absent: tables made before it): every card "
                 "dealt and revealed is entered.",
        "start_player": "the seat index of the first player (default 0).",
    }

    def __init__(self, data: Any):
        super().__init__(data)
        self.ix = _en.Index(data)

    # ---- the contract ---------------------------------------------------------------------------
    def setup(self, players: list[str], options: dict, seed: int) -> dict:
        return _en.setup(self.ix, players, options, seed)

    def validate_options(self, players: list[str], options: dict) -> list[str]:
        return _en.validate_options(self.ix, players, options)

    def legal_moves(self, state: dict, player: int | None = None) -> Legal:
        moves, complete = _legal.legal_moves(self.ix, state)
        if player is not None:
            moves = [m for m in moves if self.mover(m) in (None, player)]
        return Legal(moves, complete)

    def validate(self, state: dict, move: Any, ctx: Ctx = Ctx()) -> list[str]:
        return self.sender_reasons(state, move, ctx) or _en.run(self.ix, state, move, act=False)

    def apply(self, state: dict, move: dict, ctx: Ctx = Ctx()) -> dict:
        reasons = self.sender_reasons(state, move, ctx)
        if reasons:
            raise IllegalMove(reasons)
        new = _en.clone(state)
        reasons = _en.run(self.ix, new, move, act=True)
        if reasons:
            raise IllegalMove(reasons)
        return new

    def actors(self, state: dict) -> Actors:
        phase = state.get("phase")
        if phase == "over":
            return contract.NOBODY
        if phase in ("deal", "refill"):
            return Actors("all", tuple(range(len(state["players"]))))
        return Actors("one", (state["current"],))

    def result(self, state: dict) -> dict | None:
        return _views.result(self.ix, state)

    def public_view(self, state: dict, viewer: contract.Viewer = None) -> dict:
        return _views.public_view(self.ix, state, viewer)

    def public_move(self, move: dict, viewer: contract.Viewer = None) -> dict:
        return _views.public_move(self.ix, move, viewer)

    def secret_paths(self, state: dict, seat: int) -> list[tuple]:
        return _views.secret_paths(state, seat)

    def describe(self, state: dict, move: dict) -> str:
        return _views.describe(self.ix, state, move)

    def reveals(self, state: dict, move: dict) -> list[str]:
        """Companion mode: a move that revealed cards from the deck is a reveal: a seat cannot undo it
        (no peeking, then undo); the host can, and the same cards come again (the seed's order)."""
        if state.get("mode") != _en.COMPANION:
            return []
        try:
            after = self.apply(state, move, Ctx())
        except IllegalMove:
            return []
        if after["draws"] > state["draws"]:
            return ["this move revealed cards from the deck"]
        return []

    def table_facts(self, state: dict) -> dict:
        return _at_table.table_facts(self.ix, state)

    def setup_steps(self, state: dict) -> list[dict]:
        return _at_table.setup_steps(self.ix, state)

    def needs(self, state: dict) -> dict:
        return _views.needs(self.ix, state)

    def mover(self, move: Any) -> int | None:
        if not isinstance(move, dict):
            return None
        mtype = move.get("type")
        if isinstance(mtype, str) and mtype in _TABLE_MOVES:
            return None
        player = move.get("player")
        return player if isinstance(player, int) and not isinstance(player, bool) else None

    # ---- helpers for the web layer, the pages and tests ----------------------------------------------
    @property
    def geometry(self):
        return self.ix.geo

    def score_board(self, body: Any) -> tuple[list[str], list[str], dict | None]:
        """POST /api/shin-bikkuri-man/score: (malformed reasons, reasons it cannot occur,
        {"points", "rows", "columns"})."""
        return _calc.score(self.ix, body)

    def place(self, body: Any) -> tuple[list[str], list[str], dict | None]:
        """POST /api/shin-bikkuri-man/place: (malformed reasons, illegal reasons, result)."""
        return _calc.place(self.ix, body)

    def score_of(self, facade_rows: list[str]) -> dict:
        breakdown, empty, s = _views.score_breakdown(self.ix, facade_rows)
        return {**s, "breakdown": [{"label": k, "value": v} for k, v in breakdown], "empty": empty}

    def supply(self, state: dict) -> list[dict]:
        return _views.supply_view(self.ix, state)

    # ---- internals --------------------------------------------------------------------------------
RULES = ShinBikkuriManRules
