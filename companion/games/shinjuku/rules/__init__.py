"""Shinjuku's rules as pure Python (no Flask, no I/O): `RULES` for the companion.

Sources: ../shared/rules/shinjuku.txt (the rules) and the canonical data in assets/shinjuku/
(`data` = generator.canon.load("shinjuku")). Every number (hand size, income, seed wards, queue
slots, supplies, set points, card and customer counts, bonus tokens) is read from `data`.

Modules: index (lookups derived from data), state (copying, draws, the queue, turn end), setup
(options, initial state, table-mode deal), cards (playing cards, wild cards), movement (Move
Customers paths), moves (validate/apply of every move), scoring (best_sets, final score), legal
(legal-move lists), views (ward page, what to enter next, hidden information, history lines).

RULES (the engine contract of companion/games/__init__.py, plus helpers)
-------------------------------------------------------------------------
    setup(data, players, options, seed) -> state
    validate_options(data, players, options) -> [reason]
    validate(data, state, move) -> [reason]          empty = legal; never raises, any input
    apply(data, state, move) -> new state            never mutates `state`; ValueError if illegal
    score(data, state) -> {"final", "players": [{player, name, colour, customers {type: n},
                           tokens {token: n}, wild, sets, by_size {"4": {sets, points_each,
                           points}, ...}, points}], "leaders": [player...]}
    best_sets(customers {type: n}, wild) -> (points, sets)       the calculator's partition
    calculator(data, body) -> (reasons, {"points", "sets"})      POST /api/shinjuku/score
    legal_moves(data, state, kinds=None, max_paths=16) -> [move]  (kinds: only these actions;
                           one move per distinct target, see legal.py for the reductions)
    ward_view(data, ward, state=None, player=None) -> dict       the ward page
    needs(data, state) -> {"phase", "prompt", "players", "moves", "enter"?, ...}
    public_view(data, state, viewer=None) -> state without hidden information
    public_move(data, move, viewer=None) -> a logged move without hidden information
    current_player(data, state), describe(data, state, move), can_undo(data, state, move)
                           (the optional hooks of companion/catalog.py)

Options: {"deck": "table" | "companion", "start_player": 0, "colours": ["red", "blue"]}
  * "table" (default): the physical deck and bag are used; players enter what they drew.
  * "companion": the companion is the deck and the bag: at setup the deck and the bag are shuffled
    from the seed into ordered lists kept in the state; draws take from the front; a reshuffle of
    the discard pile uses a generator seeded from (seed, number of reshuffles). So replaying the
    moves from setup gives exactly the same state, and an undo (a replay) is exact.
  Hands are tracked in both modes (in table mode every card that enters a hand is entered: the
  dealt hand, income draws; the card taken from queue space ① is known), so the engine checks that
  a played card is in hand and knows how many cards Income draws. In table mode the engine knows
  which cards can still be drawn (72 minus hands, queue and what it saw discarded) and refuses an
  entry that cannot be (a 5th Minato card); a card found only in the discard pile means the table
  reshuffled it into a new deck.
  Hidden information: in companion mode the state holds the seed, the deck order and the bag order,
  and in both modes every hand. Send phones public_view(data, state, viewer) (seed, deck order,
  other hands and their draws removed), never the raw state.

State (plain JSON; multisets kept sorted in data order)
-------------------------------------------------------
    game "shinjuku", mode "table"|"companion", seed, shuffles (reshuffles so far)
    phase "deal" | "place" | "matsuri" | "actions" | "bonus" | "over"
    turn (1, 2, ...), round, start_player, current (whose turn), actions (action types taken this
    turn), bonus (players still to answer a track-income bonus), final_round (the final customer
    has left the queue: the game ends when the turn comes back to the start player)
    players [{name, colour, hand [ward], stores {goods: n in supply}, department_stores, track,
              customers [token], bonus_tokens [value]}]
    matsuri (ward), queue [{card, customers [token]}] (head ① first, then ②, ③, ④)
    wards {ward: [token]} (customers waiting in each ward), stations {station: {owner, kind
    "store"|"department-store", goods (or null)}}, tracks {connection id: owner (null = neutral)}
    deck [ward], discard [ward], bag [token], bonus_stack [value] (upgrade bonus tokens left)
    deal (table mode while setting up: {hands [bool], seeded [ward], matsuri bool, queue bool}, else null)
    last (what the last move did: cards drawn, customers placed, deliveries, ...; for the UI)
  Ids: wards and stations by their data ids; a connection id is its two station ids, sorted,
  joined by "--" ("nakano--shinjuku"); a customer token is its type ("food") or, when marked "2",
  type + "-2" ("food-2").

Move format (JSON objects; "player" is the index of the player making the move)
--------------------------------------------------------------------------------
  "card" (a card played) is a ward id, or a list of three ward ids played together as one wild.

  Table-mode set-up (phase "deal", any order; then the start player's turn begins):
    {"type": "deal-hand", "player": 1, "cards": ["ota", "kita", "ota", "chuo"]}
    {"type": "seed-ward", "ward": "minato", "customers": ["food", "books-2"]}      x4, different wards
    {"type": "place-matsuri", "ward": "taito"}
    {"type": "fill-queue", "cards": [①, ②, ③, ④], "customers": ["food", "clothing"]}
  Each turn:
    {"type": "place-customers", "player": 0}                                         (companion mode)
    {"type": "place-customers", "player": 0, "card": "ota", "customers": ["food"]}    (table mode:
        the card drawn for ④ and as many customers as were placed; fewer when the bag runs out;
        "card" left out when no card is left). Skipped automatically when the queue is empty.
    {"type": "move-matsuri", "player": 0, "ward": "chuo"}                             a neighbour
    then up to two different actions:
    {"type": "open-store", "player": 0, "card": "chiyoda", "station": "tokyo", "goods": "food"}
    {"type": "expand-track", "player": 0, "connection": ["shinjuku", "nakano"]}
    {"type": "expand-track", "player": 0, "connection": ["shinjuku", "nakano"],
        "second": ["nakano", "koenji"], "card": "nakano"}      (card matches either end of the first)
    {"type": "upgrade-store", "player": 0, "station": "shibuya", "card": "shibuya", "customer": "food-2"}
    {"type": "income", "player": 0}                        (table mode: + "cards": [drawn ward ids];
                                                            may be left out when nothing can be drawn)
    {"type": "move-customers", "player": 0, "card": "shinjuku",
        "path": ["shinjuku", "yoyogi", "shibuya"], "take": {"shibuya": "food-2"}}   ("take" optional)
    {"type": "end-turn", "player": 0}                      (end the turn with fewer than 2 actions)
  After a move that used other players' track (phase "bonus"), each of them answers:
    {"type": "income", "player": 2}  (table mode + "cards")   or   {"type": "decline-income", "player": 2}
  Connections may also be given by id ("nakano--shinjuku"). The turn ends by itself after the
  second action, or at once after Income.

Decisions where the rules are silent (a player's natural reading)
------------------------------------------------------------------
  * Seed cards, re-drawn duplicates and the Matsuri card go to the discard pile (as the designer's
    simulator does). Queue cards are drawn onto ④ first, ① last.
  * "Next available (empty) card" counts from the head ①: a customer of a type not yet in the
    queue goes on the empty card nearest to ①. (So the cards holding customers are always ①..k.)
  * An empty deck is refilled by shuffling the discard pile. If both are empty (every card in a
    hand), nothing is drawn: Income draws what it can, ④ stays without a card; a customer that
    finds no card goes back into the bag.
  * Place customers when the queue holds no customers at all (once the bag is empty): the step is
    skipped. (If cards ran out and left a card-less gap in the queue, ① may be empty while later
    cards hold customers: the step still happens, placing nothing, so the queue keeps moving.)
  * End: when a placement leaves the queue without customers (the bag is empty; or, if every
    card is in a hand, drawn customers found no card to sit on and went back to the bag), the
    final round starts; the game ends when the turn would pass to the start player with the queue
    empty. A customer an upgrade puts back in the queue is still placed at the start of the next
    turn; if the queue is not empty when the turn would pass to the start player, the queue has
    not been emptied yet and play goes on (to the start player again), so turns stay equal.
  * A player may end the turn with fewer than two actions ("end-turn"). Income draws up to 4 cards
    (data: income_hand), or 1 with 4 or more in hand, and ends the turn even as the first action.
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
  * Scoring ties are shared ("leaders" lists every player with the top score).
  * Companion mode: a move that drew from the deck or bag cannot be undone (can_undo), so a
    player cannot look at the next cards and choose again; table mode can undo any move.
"""
from __future__ import annotations

from . import legal as _legal
from . import moves as _moves
from . import scoring as _scoring
from . import setup as _setup
from . import state as _state
from . import views as _views
from .index import index as _index
from .scoring import best_sets

__all__ = ["RULES", "best_sets", "ShinjukuRules"]


class ShinjukuRules:
    id = "shinjuku"

    # ---- the engine contract ----
    def setup(self, data, players, options, seed) -> dict:
        return _setup.setup(_index(data), players, options, seed)

    def validate_options(self, data, players, options) -> list[str]:
        return _setup.validate_options(_index(data), players, options)

    def validate(self, data, state, move) -> list[str]:
        return _moves.run(_index(data), state, move, act=False)

    def apply(self, data, state, move) -> dict:
        new = _state.clone(state)
        reasons = _moves.run(_index(data), new, move, act=True)
        if reasons:
            raise ValueError(" ".join(reasons))
        return new

    def score(self, data, state) -> dict:
        return _scoring.score(_index(data), state)

    # ---- helpers for the web layer, the UI and tests ----
    @staticmethod
    def best_sets(customers: dict, wild: int = 0, points: dict | None = None,
                  types: list[str] | None = None):
        return best_sets(customers, wild, points, types)

    def calculator(self, data, body):
        return _scoring.calculator(_index(data), body)

    def legal_moves(self, data, state, kinds=None, max_paths: int = 16) -> list[dict]:
        return _legal.legal_moves(_index(data), state, kinds, max_paths)

    def ward_view(self, data, ward, state=None, player=None) -> dict:
        return _views.ward_view(_index(data), ward, state, player)

    def needs(self, data, state) -> dict:
        return _views.needs(_index(data), state)

    def public_view(self, data, state, viewer=None) -> dict:
        return _views.public_view(_index(data), state, viewer)

    def public_move(self, data, move, viewer=None) -> dict:
        return _views.public_move(_index(data), move, viewer)

    def current_player(self, data, state):
        return _views.current_player(_index(data), state)

    def describe(self, data, state, move) -> str:
        return _views.describe(_index(data), state, move)

    def can_undo(self, data, state, move) -> list[str]:
        return _views.can_undo(_index(data), state, move)


RULES = ShinjukuRules()
