"""Shinjuku's rules as pure Python (no Flask, no I/O): `RULES`, the game's contract.Rules.

Sources: ../shared/rules/shinjuku.txt (the rules) and the canonical data in assets/shinjuku/
(`data` = generator.canon.load("shinjuku")). Every number (hand size, income, seed wards, queue
slots, supplies, set points, card and customer counts, bonus tokens) is read from `data`.
The companion binds the rules to the data once: `rules = RULES(data)` builds the Index (index.py)
that every call uses.

Modules: index (lookups derived from data), state (copying, draws, the queue, turn end), setup
(options, initial state, table-mode deal), cards (playing cards, wild cards), movement (Move
Customers paths), moves (validate/apply of every move), scoring (best_sets, scores, the result),
legal (legal-move lists), views (ward page, what to enter next, hidden information, history
lines), playout (seeded random players for tests and benchmarks).

The contract (companion/games/contract.py) and the helpers the web layer may call
---------------------------------------------------------------------------------
    setup(players, options, seed) -> state          raises ValueError (IllegalMove) on bad options
    validate_options(players, options) -> [reason]
    legal_moves(state, player=None, *, kinds=None, max_paths=16) -> Legal(moves, complete)
    validate(state, move, ctx=Ctx()) -> [reason]    empty = legal; never raises, whatever `move` is
    apply(state, move, ctx=Ctx()) -> new state       never mutates `state`; IllegalMove if illegal
    actors(state) -> Actors                          "one" (a turn), "several" (track bonus answers),
                                                     "all" (table-mode set-up), "none" (over)
    result(state) -> None | {"winners", "unit": "points", "scores": [...]}   (scoring.result)
    public_view(state, viewer) / public_move(move, viewer)    viewer: seat, None, contract.HOST
    secret_paths(state, seat) -> [path]              the seat's hand (and the cards it just drew)
    describe(state, move) -> str, reveals(state, move) -> [reason], mover(move) -> seat | None
    needs(state) -> {"phase", "prompt", "players", "moves", "enter"?, "wards"?, "actions_left"?,
                     "income_cards"?}               what the table must do next (works on a view)
  helpers:
    ward_view(ward, state=None, player=None) -> dict             the ward page (views.ward_view)
    best_sets(customers {type: n}, wild=0) -> (points, sets)    the best partition into sets
    calculator(body) -> (reasons, {"points", "sets"} | None)     POST /api/shinjuku/score
    limits() -> ({type: most customers}, most wild tokens)       what the calculator accepts
    score(state) -> {"final", "players": [...], "leaders"}       the scoring at any moment

Options: {"deck": "table" | "companion", "hands": "named" | "entered", "start_player": 0,
          "colours": ["red", "blue"]}
  (chance_modes: "table" = {"deck": "table", "hands": "named"}, "companion" = {"deck": "companion"},
   "table-entered" = {"deck": "table", "hands": "entered"})
  * "table" (default): the physical deck and bag are used; players enter what they drew.
  * "hands" (table deck only): what the companion knows of a hidden hand.
    - "named" (the new-table page's default, and chance_modes["table"]): players keep their hands
      as at a real table. Nothing drawn face down into a hand is entered (the deal, Income, a track
      bonus's Income); a card is named when it is played. Only what is drawn face up is entered:
      the starting wards and their customers, the Matsuri's ward, the queue's cards and customers,
      the card drawn for queue space ④ and the customers placed.
    - "entered" (the table mode before; also what a table whose options have no "hands" gets):
      every card that enters a hand is entered (as described below).
    Decisions for "named" (the rules text is silent; a real table's reading):
    * Option absent = "entered": a table's log is replayed from its stored options, so a table
      created before the option existed replays exactly as it did (the same states). New tables get
      "named" from the new-table page (and chance_modes), not from the option's absence; an API
      client that leaves it out gets "entered".
    * State: "hands": "named"; each player's "hand" is null and "hand_size" counts its cards;
      "deck_count" counts the deck ("deck" stays []); the discard pile is a public list as in the
      other modes (less the unnamed wilds' cards, counted in "discard_unnamed"). deck_count +
      discard pile + discard_unnamed + queue cards + every hand_size = the game's 72 cards.
    * The deal: the hands are dealt at set-up by count (hand_size each, the deck that many less);
      the deal phase waits only for the face-up entries (starting wards, Matsuri, queue); deal-hand
      is refused. A duplicate starting ward is not entered (it goes back under the deck).
    * A card named at play is checked on public information only: the hand holds at least as many
      cards as are played, and for each ward named, the public cards (the queue's cards and the
      discard pile: every card played, the starting wards', the Matsuri's) plus the copies named
      are at most the game's copies. The companion does not remember which hand took which queue
      card from space ① (it tracks sizes, not cards: the hand may have played it since). Matching
      (the ward, a wild by the Matsuri or a store, three cards as one) is as in the other modes.
    * Three cards played as one wild match any ward, so they need not be named: "card": 3 plays
      three cards of the hand unnamed (the pages' one tap); they go to the discard pile as
      "discard_unnamed" (a count: they come back with the pile at a reshuffle). The public check
      then counts only the named cards of the pile, so it can only accept more, never refuse a
      card a hand really holds. Naming the three (a list of three ward ids) is accepted too.
    * A face-up card entered (④, the set-up's) must be one the deck can hold: while the deck holds
      cards, not every copy may be in the queue or the discard pile (nor among the entry's other
      cards). The discard pile is reshuffled into the deck only when the deck is empty and a card
      is drawn (face up or down), as at the table; then any card not in the queue may come.
    * Income draws by count: min(the rules' number, deck + discard pile), the discard pile
      reshuffled when the deck runs out mid-draw; the move carries no "cards" (a "cards" field is
      refused), and "last" says "drawn_count". The companion holds no card of any hand, so
      secret_paths is empty and every seat sees the same state; every move can be undone.
    * correct-card is refused (no card of a hand was entered); a wrong face-up entry is undone.
    * The pages offer, to play a card, the wards a hand may hold (as checked above); once the
      station, path or track is tapped, the card of its ward is chosen for the player (a guess at
      the hand: the move plays after a longer moment, 3 s, so a player holding another card taps
      it first) beside the wild ones and the three as one wild; Income and the deal ask for no card.
  * "companion": the companion is the deck and the bag: at setup the deck and the bag are shuffled
    from the seed into ordered lists kept in the state; draws take from the front; a reshuffle of
    the discard pile uses a generator seeded from (seed, number of reshuffles). So replaying the
    moves from setup gives exactly the same state, and an undo (a replay) is exact.
  Hands are tracked in every mode but named hands (with "hands": "entered" every card that enters
  a hand is entered: the dealt hand, income draws; the card taken from queue space ① is known),
  so the engine checks that a played card is in hand and knows how many cards Income draws. In
  table mode (hands entered) the engine keeps
  the deck's content (72 minus hands, queue and discard pile) for the host and the owner's
  bookkeeping, but judges every entry on PUBLIC information only (issue 26: a seat's answers
  depend only on what that seat may know): an entry is refused when the public cards (the queue,
  the discard pile) and, for a player's own draw, that player's own hand leave no room for it (a
  5th Minato card with one in the queue and four in the discard pile); a card that only another
  hand rules out is accepted, recorded as "owed", and shown as a conflict ("conflicts" in
  public_view) to the host (every one, with the hands holding that ward) and to a seat whose own
  hand and the public cards hold more of the ward than the game has. The correction move
  (correct-card) or an undo of the wrong entry fixes it. Counts everyone sees (cards left in the
  deck, how many Income draws) count owed cards as drawn, so they never depend on a hand. The
  legal lists fill drawn cards from the public pool (less the drawing player's own hand), and the
  table reshuffles the discard pile when the deck is publicly empty or a card entered can only
  have come from the discard pile.
  Hidden information: in companion mode the state holds the seed, the deck order and the bag order,
  and in both modes every hand. Send phones public_view(state, viewer) (seed, deck, bag order,
  other hands and their draws removed; contract.HOST sees every hand), never the raw state.

State (plain JSON; multisets kept sorted in data order)
-------------------------------------------------------
    game "shinjuku", mode "table"|"companion", seed, shuffles (reshuffles so far)
    phase "deal" | "place" | "matsuri" | "actions" | "bonus" | "over"
    turn (1, 2, ...), round, start_player, current (whose turn), actions (action types taken this
    turn), bonus (players still to answer a track-income bonus), final_round (the bag is empty and
    the final customer has left the queue: the game ends when the turn comes back to the start
    player with the queue empty)
    players [{name, colour, hand [ward], stores {goods: n in supply}, department_stores, track,
              customers [token], bonus_tokens [value]}]
    matsuri (ward), queue [{card, customers [token]}] (head ① first, then ②, ③, ④; once dealt,
    every space always holds a card)
    wards {ward: [token]} (customers waiting in each ward), stations {station: {owner, kind
    "store"|"department-store", goods (or null)}}, tracks {connection id: owner (null = neutral)}
    deck [ward], discard [ward], bag [token], bonus_stack [value] (upgrade bonus tokens left)
    deal (table mode while setting up: {hands [bool], seeded [ward], matsuri bool, queue bool}, else null)
    last (what the last move did: cards drawn, customers placed, deliveries, ...; for the UI)
  Ids: wards and stations by their data ids; a connection id is its two station ids, sorted,
  joined by "--" ("nakano--shinjuku"); a customer token is its type ("food") or, when marked "2",
  type + "-2" ("food-2").

Move format (JSON objects; "player" is the index of the player making the move; move_types below
is the same table with field schemas, labels and who may send each)
-------------------------------------------------------------------------------------------------
  "card" (a card played) is a ward id, or a list of three ward ids played together as one wild
  (named hands also: 3, three cards as one wild, not named).

  Table-mode set-up (phase "deal", any order; then the start player's turn begins; named hands:
  no deal-hand):
    {"type": "deal-hand", "player": 1, "cards": ["ota", "kita", "ota", "chuo"]}
    {"type": "seed-ward", "ward": "minato", "customers": ["food", "books-2"]}      x4, different wards
    {"type": "place-matsuri", "ward": "taito"}
    {"type": "fill-queue", "cards": [①, ②, ③, ④], "customers": ["food", "clothing"]}
  Each turn:
    {"type": "place-customers", "player": 0}                                         (companion mode)
    {"type": "place-customers", "player": 0, "card": "ota", "customers": ["food"]}    (table mode:
        the card drawn for ④ and as many customers as were placed; fewer when the bag runs out;
        "card" left out when no card is left to draw). Skipped automatically when the queue is empty.
    {"type": "move-matsuri", "player": 0, "ward": "chuo"}                             a neighbour
    then two different actions (the turn ends by itself after the second, or at once after Income):
    {"type": "open-store", "player": 0, "card": "chiyoda", "station": "tokyo", "goods": "food"}
    {"type": "expand-track", "player": 0, "connection": ["shinjuku", "nakano"]}
    {"type": "expand-track", "player": 0, "connection": ["shinjuku", "nakano"],
        "second": ["nakano", "koenji"], "card": "nakano"}      (card matches either end of the first)
    {"type": "upgrade-store", "player": 0, "station": "shibuya", "card": "shibuya", "customer": "food-2"}
    {"type": "income", "player": 0}                        (table mode, hands entered: + "cards":
                                                            [drawn ward ids]; may be left out when
                                                            nothing can be drawn; named hands: none)
    {"type": "move-customers", "player": 0, "card": "shinjuku",
        "path": ["shinjuku", "yoyogi", "shibuya"], "take": {"shibuya": "food-2"}}   ("take" optional)
  After a move that used other players' track (phase "bonus"), each of them answers:
    {"type": "income", "player": 2}  (table mode + "cards")   or   {"type": "decline-income", "player": 2}
  Connections may also be given by id ("nakano--shinjuku"). There is no "end-turn" move.
  Who may send a move (ctx.seat): the seat named by its "player", or the host; the set-up entries
  seed-ward, place-matsuri and fill-queue belong to the table (any seat); a dealt hand
  (deal-hand) names its player, so a seat may enter its own hand and the host any hand.

Decisions where the rules are silent (a player's natural reading)
------------------------------------------------------------------
  * Seed cards, re-drawn duplicates and the Matsuri card go to the discard pile (as the designer's
    simulator does). Queue cards are drawn onto ④ first, ① last.
  * "Next available (empty) card" counts from the head ①: a customer of a type not yet in the
    queue goes on the empty card nearest to ①. (So the cards holding customers are always ①..k.)
  * An empty deck is refilled by shuffling the discard pile (the text says nothing of an empty
    deck). If both are empty (every other card is in a hand), Income draws what it can (possibly
    nothing), and the card just taken from queue space ① goes back on ④ instead of into the hand:
    "Draw a new card and place it on ④" needs a card, and that card is the only one not in a hand.
    Why this reading: the queue then always has its four cards, one for each customer type, so
    every customer drawn from the bag finds a place ("place the new customer on the card with the
    matching customer ... Otherwise ... on the next available (empty) card"). Leaving ④ without a
    card (the earlier reading) sent customers who found no card back to the bag; once the queue
    was empty no placement drew any more ("Add customers to the queue equal to the number that
    were just placed"), and the game ended with customers still in the bag, against the text.
  * Place customers when the queue holds no customers at all (the bag is empty): the step is
    skipped (there is nothing to place, and no card is taken).
  * End: "When the last customer is drawn from the bag, play continues until the customer queue is
    emptied. The player that places the final customer from the queue finishes their turn and play
    continues until the player with the Start Player Token." The final round starts when a
    placement leaves the bag and the queue both empty (the queue only empties once the bag is
    empty, see above); the game ends when the turn would pass to the start player with the queue
    empty. A customer an upgrade puts back in the queue is still placed at the start of the next
    turn; if the queue is not empty when the turn would pass to the start player, the queue has
    not been emptied yet and play goes on (to the start player again), so turns stay equal.
    So every game ends, whatever legal moves are chosen: while the bag holds customers, every
    turn places at least one (customers sit on ①..k, and each placement draws as many as it
    places), and afterwards the queue drains, refilled only by upgrades, which are finite.
  * Turns: "Choose any two of the following actions (must be different actions)". There is no way
    to end a turn early: the turn ends after the second different action, or at once after Income
    ("Your turn ends immediately after taking this action, even if you had one more action
    available"), also when Income is the first action. Income is always possible (it draws up to
    4 cards (data: income_hand), or 1 with 4 or more in hand, or what is left), so a player can
    always complete a turn.
  * Open Store and Upgrade need a store/department store left in the supply; an upgraded store
    goes back to its owner's supply. The upgrade bonus token is claimed automatically (it can only
    help); each token is one wild customer in scoring (its stack value is kept for display only).
  * Upgrade: only one's own store; the customer spent comes from the player's collected customers
    and must be of the store's type; it goes to the customer queue by the queue rule.
  * Expand Track: the first segment may be anywhere on the map; the second shares a station with
    the first; the card matches the ward of either end of the first segment.
  * Move Customers: the ward must have customers; the path starts at any station of that ward,
    and that station's store, if any, serves too; each store on the path must take one matching
    customer when it can. "take" chooses which; by default a "2" first for the mover's own store,
    a single first for another player's, then types in data order. The ward of the card is the
    ward of the path's first station. Track bonus: other owners of used track, in turn order from
    the mover's left, each answer once; the neutral Shinjuku-Yoyogi link earns nobody.
  * Wild: a card is wild when its ward is the Matsuri ward or the player has a store or department
    store in its ward, judged when played; three cards of any wards always make one wild card.
  * Winners: the text has no tie-break ("victory goes to the player that can create the most
    sets", scored in points), so every player with the top score wins (a shared victory).
  * Companion mode: a move that drew from the deck or bag is a reveal (reveals): a seat cannot undo
    it, so a player cannot look at the next cards and choose again; the host can (the same cards
    come again: the draw is the seed's). Table mode can undo any move.
"""
from __future__ import annotations

from typing import Any

from companion.games import contract
from companion.games.contract import Actors, Ctx, Field, IllegalMove, Legal, MoveType

from . import at_table as _at_table
from . import legal as _legal
from . import moves as _moves
from . import scoring as _scoring
from . import setup as _setup
from . import state as _state
from . import views as _views
from .index import Index

__all__ = ["RULES", "ShinjukuRules"]

# ---------------------------------------------------------------------------------------------
# The table of moves (contract.MoveType): OpenAPI schemas, the pages' labels, who may send each.
# Schemas name no game fact (the ids and counts are the data's; the reasons explain them).

_WARD = {"type": "string", "description": "a ward id, e.g. \"shinjuku\""}
_WARDS = {"type": "array", "items": _WARD}
_TOKENS = {"type": "array", "items": {"type": "string",
                                      "description": "a customer token: its type, + \"-2\" if marked 2"}}
_CARD = {"oneOf": [_WARD, {**_WARDS, "minItems": 1},
                   {"type": "integer", "description": "named hands: 3, three cards as one wild, not named"}],
         "description": "a ward card of your hand, or a list of three cards played together as one wild"}
_CONNECTION = {"oneOf": [{"type": "string", "description": "a connection id, e.g. \"nakano--shinjuku\""},
                         {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2,
                          "description": "its two station ids"}]}
_PLAYER = Field("player", {"type": "integer", "minimum": 0}, "the seat index of the player making the move")


def _f(name: str, schema: dict, doc: str, required: bool = True) -> Field:
    return Field(name, schema, doc, required)


MOVE_TYPES = (
    MoveType("deal-hand", "Enter a dealt hand", (
        _PLAYER, _f("cards", _WARDS, "the cards dealt to that player")), who="seat",
        doc="Table mode, set-up: the hand a player was dealt (a seat enters its own; the host any)."),
    MoveType("seed-ward", "Enter a starting ward", (
        _f("ward", _WARD, "the ward card drawn"),
        _f("customers", _TOKENS, "the customers drawn for it")), who="table",
        doc="Table mode, set-up: a ward drawn for the starting customers, with its customers."),
    MoveType("place-matsuri", "Place the Matsuri", (
        _f("ward", _WARD, "the ward card drawn for the Matsuri"),), who="table",
        doc="Table mode, set-up: where the Matsuri starts."),
    MoveType("fill-queue", "Fill the customer queue", (
        _f("cards", _WARDS, "the queue cards, head ① first"),
        _f("customers", _TOKENS, "the customers drawn for the queue")), who="table",
        doc="Table mode, set-up: the customer queue's cards and first customers."),
    MoveType("place-customers", "Place customers", (
        _PLAYER,
        _f("card", _WARD, "table mode: the card drawn for queue space ④ (none when no card is left)",
           required=False),
        _f("customers", _TOKENS, "table mode: the customers drawn, as many as were placed",
           required=False)),
        doc="Start of a turn: the customers of queue space ① go to its ward, its card to the hand."),
    MoveType("move-matsuri", "Move the Matsuri", (
        _PLAYER, _f("ward", _WARD, "a ward next to the Matsuri's")),
        doc="Start of a turn: the Matsuri moves to a neighbouring ward."),
    MoveType("open-store", "Open a store", (
        _PLAYER, _f("card", _CARD, "the card played, matching the station's ward"),
        _f("station", {"type": "string"}, "an empty station id"),
        _f("goods", {"type": "string"}, "what the store sells, e.g. \"food\"")),
        doc="Action: spend a ward card and open a store at an empty station of that ward."),
    MoveType("expand-track", "Expand track", (
        _PLAYER, _f("connection", _CONNECTION, "the first segment: an empty connection"),
        _f("second", _CONNECTION, "a second segment touching the first", required=False),
        _f("card", _CARD, "with a second segment: a card matching either end of the first",
           required=False)),
        doc="Action: one segment of track anywhere; a second, connected one for a card."),
    MoveType("upgrade-store", "Upgrade a store", (
        _PLAYER, _f("station", {"type": "string"}, "your store's station (a sakura station)"),
        _f("card", _CARD, "the card played, matching the station's ward"),
        _f("customer", {"type": "string"}, "one of your customers of the store's type")),
        doc="Action: a store becomes a department store; the customer goes to the queue."),
    MoveType("income", "Draw income", (
        _PLAYER, _f("cards", _WARDS, "table mode: the cards drawn", required=False)),
        doc="Action (ends the turn at once), or the track bonus: draw up to four cards, or one."),
    MoveType("move-customers", "Move customers", (
        _PLAYER, _f("card", _CARD, "the card played, matching the ward of the first station"),
        _f("path", {"type": "array", "items": {"type": "string"}, "minItems": 1},
           "the stations visited along built track, starting in the ward whose customers move"),
        _f("take", {"type": "object", "additionalProperties": {"type": "string"}},
           "station -> the customer its store takes, where there is a choice", required=False)),
        doc="Action: move a ward's customers along track to stores."),
    MoveType("decline-income", "Decline the track bonus", (_PLAYER,),
             doc="Track bonus: do not take the Income another player's move earned you."),
    MoveType("correct-card", "Correct a card", (
        _PLAYER, _f("was", _WARD, "the ward card entered by mistake, still in the hand"),
        _f("now", _WARD, "the ward card really drawn (one that can still be among the cards to draw)")),
        doc="Table mode, at any time: a card entered wrongly into a hand is set right; nothing "
            "played since is undone."),
)


#: the table's moves (set-up entries): they belong to no seat
_TABLE_MOVES = frozenset(mt.name for mt in MOVE_TYPES if mt.who == "table")


class ShinjukuRules(contract.Rules):
    """Shinjuku's rules bound to its data (see the module docstring)."""

    id = "shinjuku"
    move_types = MOVE_TYPES
    chance_modes = {"table": {"deck": _state.TABLE, "hands": _state.NAMED},
                    "companion": {"deck": _state.COMPANION},
                    "table-entered": {"deck": _state.TABLE, "hands": _state.ENTERED}}
    options_doc = {
        "deck": "\"table\" (default): you draw from the real deck and bag and enter what you drew; "
                "\"companion\": the companion shuffles and draws for you.",
        "hands": "with the table's deck: \"named\" (the new-table page's choice): keep your hand and "
                 "name a card when you play it; \"entered\" (when left out, so older tables replay "
                 "as they did): enter every card drawn into a hand.",
                "start_player": "the seat index of the player with the Start Player token (default 0).",
        "colours": "one colour id per player, all different (default: the data's colours in order).",
    }

    def __init__(self, data: Any):
        super().__init__(data)
        self.ix = Index(data)
        self._moved: tuple | None = None      # the last Move Customers applied (describe)

    # ---- the contract ---------------------------------------------------------------------------
    def setup(self, players: list[str], options: dict, seed: int) -> dict:
        return _setup.setup(self.ix, players, options, seed)

    def validate_options(self, players: list[str], options: dict) -> list[str]:
        return _setup.validate_options(self.ix, players, options)

    def legal_moves(self, state: dict, player: int | None = None, *, kinds=None,
                    max_paths: int = 16) -> Legal:
        """Legal moves now (of the types in `kinds`, if given; at most `max_paths` move paths per
        starting station); with `player`, only the moves that seat may send (its own and the
        table's). `complete` is False where the list is a sample (see legal.py)."""
        moves, complete = _legal.legal_moves(self.ix, state, kinds, max_paths)
        if player is not None:
            moves = [m for m in moves if self.mover(m) in (None, player)]
        return Legal(moves, complete)

    def validate(self, state: dict, move: Any, ctx: Ctx = Ctx()) -> list[str]:
        return self.sender_reasons(state, move, ctx) or _moves.run(self.ix, state, move, act=False)

    def apply(self, state: dict, move: dict, ctx: Ctx = Ctx()) -> dict:
        reasons = self.sender_reasons(state, move, ctx)
        if reasons:
            raise IllegalMove(reasons)
        new = _state.clone(state)
        reasons = _moves.run(self.ix, new, move, act=True)
        if reasons:
            raise IllegalMove(reasons)
        if move["type"] == "move-customers":
            last = new["last"]
            # describe(state, move), which the server asks next, needs the same movement.simulate
            # outcome: kept for it, with what the outcome was worked out from (_applied_outcome)
            self._moved = (state, move, _moved_key(move),
                           {"deliveries": last["deliveries"], "leftovers": last["leftovers"], "to": last["to"]})
        return new

    def actors(self, state: dict) -> Actors:
        phase = state.get("phase")
        if phase == "over":
            return contract.NOBODY
        if phase == "deal":            # table mode: anyone enters the set-up, in any order
            return Actors("all", tuple(range(len(state["players"]))))
        if phase == "bonus":
            return Actors("several", tuple(state["bonus"]))
        return Actors("one", (state["current"],))

    def result(self, state: dict) -> dict | None:
        return _scoring.result(self.ix, state)

    def public_view(self, state: dict, viewer: contract.Viewer = None) -> dict:
        return _views.public_view(self.ix, state, viewer)

    def public_move(self, move: dict, viewer: contract.Viewer = None) -> dict:
        return _views.public_move(self.ix, move, viewer)

    def secret_paths(self, state: dict, seat: int) -> list[tuple]:
        """What only `seat` and the host may see: its hand, and the cards it just drew."""
        if _state.named(state):
            return []           # named hands: the companion holds no card of any hand
        paths = [("players", seat, "hand")]
        last = state.get("last") or {}
        if "drawn" in last and last.get("player") == seat:
            paths.append(("last", "drawn"))
        return paths

    def describe(self, state: dict, move: dict) -> str:
        return _views.describe(self.ix, state, move, self._applied_outcome(state, move))

    def _applied_outcome(self, state: dict, move: dict) -> dict | None:
        """The Move Customers outcome the last apply worked out, if that apply was of this very
        `move` (its path, take and player as they were then) on this very `state` (states are
        never changed in place); else None (describe works it out). One record for all threads:
        another thread's apply in between only costs the work again."""
        moved = self._moved
        if moved is not None and moved[0] is state and moved[1] is move and moved[2] == _moved_key(move):
            return moved[3]
        return None

    def reveals(self, state: dict, move: dict) -> list[str]:
        return _views.reveals(self.ix, state, move)

    def needs(self, state: dict) -> dict:
        return _views.needs(self.ix, state)

    def table_facts(self, state: dict) -> dict:
        return _at_table.table_facts(self.ix, state)

    def setup_steps(self, state: dict) -> list[dict]:
        return _at_table.setup_steps(self.ix, state)

    def mover(self, move: Any) -> int | None:
        """contract.Rules.mover (the move's "player"; None for the table's set-up entries), by a
        set lookup instead of a scan of move_types: it runs on every move validated."""
        if not isinstance(move, dict):
            return None
        mtype = move.get("type")
        if isinstance(mtype, str) and mtype in _TABLE_MOVES:
            return None
        player = move.get("player")
        return player if isinstance(player, int) and not isinstance(player, bool) else None

    # ---- helpers for the web layer, the UI and tests ----------------------------------------------
    def ward_view(self, ward: str, state: dict | None = None, player: int | None = None) -> dict:
        return _views.ward_view(self.ix, ward, state, player)

    def best_sets(self, customers: dict, wild: int = 0) -> tuple[int, list[list[str]]]:
        return _scoring.best_sets(customers, wild, self.ix.set_points, self.ix.types)

    def calculator(self, body: Any) -> tuple[list[str], dict | None]:
        return _scoring.calculator(self.ix, body)

    def limits(self) -> tuple[dict[str, int], int]:
        return _scoring.limits(self.ix)

    def score(self, state: dict) -> dict:
        return _scoring.score(self.ix, state)

    # ---- internals --------------------------------------------------------------------------------


def _moved_key(move: dict) -> tuple:
    """What of a Move Customers move its outcome depends on (with the state), as a value."""
    path, take = move.get("path"), move.get("take")
    return (move.get("player"), list(path) if isinstance(path, list) else path,
            dict(take) if isinstance(take, dict) else take)


RULES = ShinjukuRules
