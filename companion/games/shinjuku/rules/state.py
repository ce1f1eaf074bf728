"""The state document and the small operations every move uses: copying, drawing ward cards and
customers (from the seeded deck and bag, or as entered by the table), the customer queue, and the
end of a turn.

The state is plain JSON (see the package docstring for its fields). Lists that are multisets
(hands, customers in a ward, collected customers, the discard pile, and in "table" mode the deck
and the bag) are kept sorted, in data order, so two states reached the same way compare equal
and serialise identically.
"""
from __future__ import annotations

import marshal
import random
from collections import Counter

from .index import Index

COMPANION = "companion"   # the companion is the deck and the bag (seeded, ordered lists in the state)
TABLE = "table"           # the physical deck and bag; players enter what they drew
# table mode, what the companion knows of a hand ("hands" option)
NAMED = "named"           # nothing: players keep their hands, a card is named when it is played
ENTERED = "entered"       # every card: each card that enters a hand is entered (the old table mode)

PHASES = ("deal", "place", "matsuri", "actions", "bonus", "over")


def deep_copy(value):
    """A deep copy of plain JSON (marshal round trip: exact for dict/list/str/int/bool/None)."""
    return marshal.loads(marshal.dumps(value))


#: the state's containers that clone copies one level down
_BY_SHAPE = frozenset(("players", "queue", "wards", "stations", "tracks"))
#: fields the moves only ever replace (state["last"] = {...}, state["deck"] = a new list, ...;
#: the reshuffle helpers too: _mark_reshuffled), never change in place: shared by clone
_REPLACED = frozenset(("last", "owed", "deck", "discard", "bag", "bonus_stack", "actions", "bonus"))
#: the state's scalar fields (numbers, strings, None, True/False): nothing to copy
_SCALARS = frozenset(("game", "mode", "seed", "shuffles", "phase", "turn", "round", "start_player",
                      "current", "final_round", "matsuri", "hands", "deck_count", "discard_unnamed"))
_NOT_DEEP = _BY_SHAPE | _REPLACED | _SCALARS


def clone(state: dict) -> dict:
    """A copy of a state that a move may change in place without touching `state`, made along its
    known shape (apply copies the state for every move); any other container field (the table's
    set-up record "deal"), and any state not of that shape, is copied whole by `deep_copy`.

    What the moves only ever replace, never change in place, is shared with `state`: "last",
    "owed", the deck, the discard pile, the bag, the bonus stack, "actions" and "bonus"; a player's
    hand, stores, customers and bonus tokens (me["stores"] = a new dict, ...); a ward's customers
    (wards[w] = a new list), a station's store (stations[s] = a new dict) and a queue slot
    (queue[i] = a new dict); the dicts and lists holding them are copied. A move that
    changed one of those in place would change the state it was applied to (the rules tests check
    that every input is left as it was: tests/test_move_cost_shinjuku_clone.py and _rules.py)."""
    try:
        new = state.copy()
        for k in state.keys() - _NOT_DEEP:
            v = state[k]
            if isinstance(v, (dict, list)):
                new[k] = deep_copy(v)
        new["players"] = [p.copy() for p in state["players"]]
        new["queue"] = state["queue"][:]
        new["wards"] = state["wards"].copy()
        new["stations"] = state["stations"].copy()
        new["tracks"] = state["tracks"].copy()
    except (KeyError, TypeError, AttributeError):
        return deep_copy(state)
    return new


def named(state: dict) -> bool:
    """Table mode with hidden hands ("hands": "named"): the companion tracks how many cards each
    hand holds and how many the deck holds, never which; a card is named when it is played."""
    return state.get("hands") == NAMED


def hand_size(state: dict, p: int) -> int:
    """How many cards player `p` holds (a number everyone at the table sees)."""
    pl = state["players"][p]
    return pl["hand_size"] if pl.get("hand") is None else len(pl["hand"])


def player_name(state: dict, p) -> str:
    try:
        return state["players"][p]["name"]
    except (IndexError, KeyError, TypeError):
        return f"player {p}"


# ---------------------------------------------------------------------------------------------
# Ward cards

def owed(state: dict) -> list[str]:
    """Table mode: cards entries took that the deck's bookkeeping did not hold (the entry conflicts
    with a hand: a card entered that cannot be in the deck). Hidden from all but the host; see
    conflicts()."""
    return state.get("owed") or []


def card_pool(state: dict) -> int:
    """Cards that can still be drawn: the deck, then the discard pile reshuffled. A number anyone
    at the table knows (72 minus the hands, the queue and the discard pile), whatever the hands
    hold: cards owed by a conflicting entry are counted as drawn."""
    if named(state):
        return state["deck_count"] + len(state["discard"]) + state.get("discard_unnamed", 0)
    return len(state["deck"]) + len(state["discard"]) - len(owed(state))


def deck_size(state: dict) -> int:
    """Cards in the deck as the table sees it (the owed cards counted as drawn)."""
    if named(state):
        return state["deck_count"]
    return max(0, len(state["deck"]) - len(owed(state)))


def public_pool(ix: Index, state: dict, deck_only: bool = False, own=None) -> Counter:
    """The cards that may still be drawn as far as PUBLIC information goes (table mode): every
    card of the game less the queue's (and, for the deck alone, the discard pile's), less `own`
    (the hand of the player whose entry it is, which that player knows). Other hands are not
    subtracted: what they hold is theirs, and a refusal that counted them would tell it."""
    out = Counter(q["card"] for q in state["queue"] if q.get("card"))
    if deck_only:
        out.update(state["discard"])
    if own:
        out.update(own)
    return Counter({c: n - out[c] for c, n in ix.card_counts.items() if n > out[c]})


def _reshuffle(ix: Index, state: dict) -> None:
    """The deck is empty: the discard pile becomes the deck (shuffled by the seed in companion mode)."""
    cards = ix.sort_cards(state["discard"])
    state["discard"] = []
    if state["mode"] == COMPANION:
        state["shuffles"] += 1
        random.Random(f"shinjuku:{state['seed']}:{state['shuffles']}").shuffle(cards)
    state["deck"] = cards
    _mark_reshuffled(state)


def _mark_reshuffled(state: dict) -> None:
    """"last" says the discard pile was reshuffled: a new dict, never a change in place ("last"
    may be the state's the move was applied to: clone shares it)."""
    last = state.setdefault("last", {})
    if "reshuffled" not in last:
        state["last"] = {**last, "reshuffled": True}


def draw_hidden(state: dict, n: int) -> int:
    """Named hands: up to `n` cards drawn face down from the deck into a hand (the discard pile
    reshuffled into the deck when the deck is empty, as at the table): how many were drawn."""
    k = min(n, card_pool(state))
    for _ in range(k):
        if not state["deck_count"]:
            _reshuffle_named(state)
        state["deck_count"] -= 1
    return k


def _reshuffle_named(state: dict) -> None:
    state["deck_count"] += len(state["discard"]) + state.get("discard_unnamed", 0)
    state["discard"] = []
    state["discard_unnamed"] = 0
    _mark_reshuffled(state)


def take_face_up(state: dict, cards: list[str]) -> list[str]:
    """Named hands: cards drawn face up (the queue, the starting wards, the Matsuri) and entered:
    each leaves the deck (the discard pile reshuffled first when the deck is empty)."""
    for _ in cards:
        if not state["deck_count"]:
            _reshuffle_named(state)
        state["deck_count"] -= 1
    return list(cards)


def check_face_up(ix: Index, state: dict, cards, expected: int, what: str) -> list[str]:
    """Named hands: cards drawn face up must be `expected` ward ids the deck can hold, on public
    information: while the deck holds cards a card comes from it, so not every copy may be in the
    queue or the discard pile (nor among the other cards of this entry); once it is empty the
    discard pile is the deck (a card may then be any not in the queue)."""
    return check_entered_cards(ix, state, cards, expected, what, deck_only=state["deck_count"] > 0)


def draw_cards(ix: Index, state: dict, n: int) -> list[str]:
    """Companion mode: draw up to `n` cards from the top of the deck (reshuffling when needed)."""
    drawn = []
    for _ in range(n):
        if not state["deck"]:
            if not state["discard"]:
                break
            _reshuffle(ix, state)
        drawn.append(state["deck"][0])
        state["deck"] = state["deck"][1:]       # (a new list: clone shares the deck)
    return drawn


def check_entered_cards(ix: Index, state: dict, cards, expected: int, what: str,
                        deck_only: bool = False, own=None) -> list[str]:
    """Table mode: `cards` must be `expected` ward ids that can be in the deck (or discard pile),
    judged on public information (public_pool): a card that only another hand rules out is
    accepted and shows up as a conflict to the host and to that hand's owner (conflicts)."""
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        return [f"Enter the {what}: {expected} ward id{'s' if expected != 1 else ''} "
                f"(\"cards\": [\"chiyoda\", …])."]
    unknown = sorted({c for c in cards if c not in ix.card_counts})
    if unknown:
        return [f"There is no ward called {unknown[0]!r}."]
    if len(cards) != expected:
        if expected == 0:
            return ["No card can be drawn now (the deck and the discard pile are empty), so enter none."]
        return [f"Enter exactly {expected} {what} ({len(cards)} given)."]
    pool = public_pool(ix, state, deck_only, own)
    for c, n in sorted(Counter(cards).items()):
        if n > pool[c]:
            where = "the queue" + (" and the discard pile" if deck_only else "") \
                + (" and your hand" if own else "")
            return [f"That would be more {ix.wname(c)} cards than there are: the game has "
                    f"{ix.card_counts[c]}, and {ix.card_counts[c] - pool[c]} of them "
                    f"{'is' if ix.card_counts[c] - pool[c] == 1 else 'are'} in {where}."]
    return []


def take_entered_cards(ix: Index, state: dict, cards: list[str]) -> list[str]:
    """Table mode: remove entered cards from the deck. The table reshuffles the discard pile into a
    new deck when the deck is empty, or when a card entered can only have come from the discard
    pile; both are judged on public information (so whether it happened tells nobody anything
    about a hand). A card the deck's bookkeeping does not hold (it is in a hand: the entry
    conflicts with a secret) is recorded as owed."""
    owed_ = list(owed(state))
    for c in cards:
        queued = sum(1 for q in state["queue"] if q.get("card") == c)
        publicly_in_deck = ix.card_counts[c] - queued - state["discard"].count(c)
        if state["discard"] and (publicly_in_deck <= 0 or len(state["deck"]) <= len(owed_)):
            state["deck"] = ix.sort_cards(state["deck"] + state["discard"])
            state["discard"] = []
            _mark_reshuffled(state)
        if c in state["deck"]:
            deck = list(state["deck"])          # (a new list: clone shares the deck)
            deck.remove(c)
            state["deck"] = deck
        else:
            owed_ = ix.sort_cards(owed_ + [c])
    if owed_ or "owed" in state:
        state["owed"] = owed_
    return list(cards)


def return_card(ix: Index, state: dict, card: str) -> None:
    """Table mode: a card entered by mistake goes back among the cards to draw (settling an owed
    card first)."""
    owed_ = list(owed(state))
    if card in owed_:
        owed_.remove(card)
        state["owed"] = owed_
    else:
        state["deck"] = ix.sort_cards(state["deck"] + [card])


def conflicts(ix: Index, state: dict, viewer) -> list[dict]:
    """Table mode: entries that cannot all be right, as `viewer` may know them. The host (contract
    HOST) sees every owed card and whose hands hold that ward; a seat sees a conflict only where
    its own hand and the public cards (queue, discard pile) hold more of a ward than the game has,
    so the list tells a seat nothing of another hand. Fixed with the correction move (a card of
    the hand set right) or by undoing the wrong entry."""
    if state.get("mode") != TABLE or named(state):
        return []
    out = []
    if viewer == "host":
        for c, n in sorted(Counter(owed(state)).items()):
            holders = [p for p, pl in enumerate(state["players"]) if c in pl["hand"]]
            out.append({"card": c, "over": n, "players": holders,
                        "text": f"{n} {ix.wname(c)} card{'s' if n != 1 else ''} more than the game has "
                                f"{'was' if n == 1 else 'were'} entered; hands holding one: "
                                + (", ".join(player_name(state, p) for p in holders) or "none")
                                + ". Correct the wrong card (or undo the wrong entry)."})
        return out
    if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < len(state["players"]):
        return []
    public = Counter(q["card"] for q in state["queue"] if q.get("card")) + Counter(state["discard"])
    hand = Counter(state["players"][viewer]["hand"])
    for c in sorted(hand):
        over = public[c] + hand[c] - ix.card_counts[c]
        if over > 0:
            out.append({"card": c, "over": over, "players": [viewer],
                        "text": f"Your hand holds {hand[c]} {ix.wname(c)} card{'s' if hand[c] != 1 else ''} "
                                f"and {public[c]} {'is' if public[c] == 1 else 'are'} in the queue or "
                                f"the discard pile, but the game has only {ix.card_counts[c]}: correct "
                                "the card entered in your hand, or ask the host."})
    return out


def discard(ix: Index, state: dict, cards) -> None:
    state["discard"] = ix.sort_cards(state["discard"] + list(cards))


def add_to_hand(ix: Index, state: dict, p: int, cards) -> None:
    if state["players"][p]["hand"] is None:           # named hands: only how many
        state["players"][p]["hand_size"] += len(cards)
        return
    hand = state["players"][p]["hand"]
    state["players"][p]["hand"] = ix.sort_cards(hand + list(cards))


# ---------------------------------------------------------------------------------------------
# Customers

def draw_customers(state: dict, n: int) -> list[str]:
    """Companion mode: draw up to `n` customers from the bag."""
    k = min(n, len(state["bag"]))
    drawn, state["bag"] = state["bag"][:k], state["bag"][k:]
    return drawn


def check_entered_customers(ix: Index, state: dict, tokens, expected: int, what: str) -> list[str]:
    if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
        return [f"Enter the {what}: {expected} customer id{'s' if expected != 1 else ''} "
                f"(\"customers\": [\"food\", \"books-2\", …])."]
    unknown = sorted({t for t in tokens if t not in ix.token})
    if unknown:
        kinds = ", ".join(ix.token)
        return [f"{unknown[0]!r} is not a customer (one of: {kinds})."]
    if len(tokens) != expected:
        if expected == 0:
            return ["The bag is empty, so enter no customers."]
        return [f"Enter exactly {expected} {what} ({len(tokens)} given)."]
    bag = Counter(state["bag"])
    for t, n in sorted(Counter(tokens).items()):
        if n > bag[t]:
            return [f"The bag has only {bag[t]} {ix.tname(t)} customer{'s' if bag[t] != 1 else ''} left."]
    return []


def take_entered_customers(state: dict, tokens: list[str]) -> list[str]:
    bag = list(state["bag"])                    # (a new list: clone shares the bag)
    for t in tokens:
        bag.remove(t)
    state["bag"] = bag
    return list(tokens)


def queue_add(ix: Index, state: dict, token: str) -> None:
    """Add a customer to the queue: onto the card already holding its type, else onto the first
    empty card from the head ①. There always is one: the queue always holds its cards (see
    place-customers) and has a card for every customer type (Index checks the data)."""
    goods = ix.token[token][0]
    queue = state["queue"]
    for i, slot in enumerate(queue):      # (a new slot: clone shares the slots)
        if slot["customers"] and ix.token[slot["customers"][0]][0] == goods:
            queue[i] = {**slot, "customers": ix.sort_tokens(slot["customers"] + [token])}
            return
    for i, slot in enumerate(queue):
        if slot["card"] is not None and not slot["customers"]:
            queue[i] = {**slot, "customers": [token]}
            return
    raise AssertionError("the customer queue has no card for a customer")  # see the docstring


def queue_customers(state: dict) -> int:
    return sum(len(slot["customers"]) for slot in state["queue"])


# ---------------------------------------------------------------------------------------------
# Turns

def start_turn_phase(state: dict) -> str:
    """A turn starts by placing customers, unless the queue holds none (then that step is skipped)."""
    return "place" if queue_customers(state) else "matsuri"


def end_turn(state: dict) -> None:
    """Pass the turn on. Once the bag is empty and the final customer has left the queue
    ("final_round"), the game ends when the turn would come back to the start player, unless an
    upgrade has put a customer back in the queue (the queue is not emptied yet: play goes on, and
    the round of whoever places it is finished)."""
    n = len(state["players"])
    nxt = (state["current"] + 1) % n
    state["actions"] = []
    state["bonus"] = []
    if state["final_round"] and nxt == state["start_player"] and not queue_customers(state):
        state["phase"] = "over"
        return
    state["current"] = nxt
    state["turn"] += 1
    if nxt == state["start_player"]:
        state["round"] += 1
    state["phase"] = start_turn_phase(state)


def after_action(ix: Index, state: dict) -> None:
    """After an action (or a bonus income answer): wait for bonus incomes, else end the turn when
    both actions are taken ("Choose any two of the following actions") or the action was Income
    ("Your turn ends immediately after taking this action, even if you had one more action
    available"). There is no other way to end a turn."""
    if state["bonus"]:
        state["phase"] = "bonus"
        return
    state["phase"] = "actions"
    if "income" in state["actions"] or len(state["actions"]) >= ix.actions_per_turn:
        end_turn(state)
