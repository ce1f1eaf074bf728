"""Playing ward cards: which cards a move names, whether they are in hand, and whether they match.

A move names the card it spends in "card": one ward id ("chiyoda"), or a list of three ward ids
played together as one wild card (["ota", "ota", "kita"]). A one-item list is the same as the
string.

A single card matches a ward when it is that ward's card, or when it is wild for the player:
  - the player has a store or a department store in the card's ward, or
  - the card's ward is where the Matsuri is now.
Three cards played together always match (any three cards, wild or not).
"""
from __future__ import annotations

from collections import Counter

from . import state as st
from .index import Index, with_article

_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}

#: named hands: a card of a wild played without its ward named ("card": 3, three cards as one wild)
UNNAMED = "?"


def _n(n: int) -> str:
    return _WORDS.get(n, str(n))


def parse_card(ix: Index, value) -> tuple[list[str] | None, list[str]]:
    """(cards, reasons). `cards` is a list of 1 or `cards_as_wild` ward ids."""
    n = ix.cards_as_wild
    if isinstance(value, str):
        cards = [value]
    elif isinstance(value, list) and all(isinstance(c, str) for c in value) and len(value) in (1, n):
        cards = list(value)
    elif value is None:
        return None, ["Say which card you play (\"card\": a ward id, or a list of three ward ids "
                      "played together as one wild card)."]
    else:
        return None, [f"Play one card, or {_n(n)} cards together as one wild card "
                      f"(\"card\": \"chiyoda\" or [\"ota\", \"ota\", \"kita\"])."]
    unknown = sorted({c for c in cards if c not in ix.card_counts})
    if unknown:
        return None, [f"There is no ward card called {unknown[0]!r}."]
    return cards, []


def public_cards(state: dict) -> Counter:
    """The ward cards everyone sees: the queue's and the discard pile (played, seed and Matsuri
    cards)."""
    return Counter(q["card"] for q in state["queue"] if q.get("card")) + Counter(state["discard"])


def named_reasons(ix: Index, state: dict, p: int, cards: list[str]) -> list[str]:
    """Named hands: the cards named can be in the hand as far as PUBLIC information goes: the hand
    holds that many cards, and the public cards (queue, discard pile) leave a copy of each."""
    size = st.hand_size(state, p)
    if size < len(cards):
        return [f"{st.player_name(state, p)}'s hand holds only {size} card{'s' if size != 1 else ''}: "
                f"{'one card' if len(cards) == 1 else f'{_n(len(cards))} cards'} cannot be played from it."]
    public = public_cards(state)
    for c, n in sorted(Counter(c for c in cards if c != UNNAMED).items()):
        total = ix.card_counts[c]
        if public[c] + n > total:
            return [f"That cannot be {with_article(ix.wname(c))} card: the game has {total}, and "
                    f"{public[c]} {'is' if public[c] == 1 else 'are'} in the queue or the discard pile"
                    + (f", so at most {total - public[c]} can be in a hand." if total > public[c]
                       else ", so none is in a hand.")]
    return []


def in_hand(ix: Index, state: dict, p: int, cards: list[str]) -> list[str]:
    if st.named(state):
        return named_reasons(ix, state, p, cards)
    hand = Counter(state["players"][p]["hand"])
    for c, n in sorted(Counter(cards).items()):
        if hand[c] < n:
            have = hand[c]
            if have == 0:
                return [f"You have no {ix.wname(c)} card in your hand."]
            return [f"You have only {have} {ix.wname(c)} card{'s' if have > 1 else ''} in your hand."]
    return []


def wards_with_store(state: dict, p: int, ix: Index) -> set[str]:
    return {ix.station_ward[s] for s, store in state["stations"].items() if store["owner"] == p}


def is_wild(ix: Index, state: dict, p: int, card: str, _stores: set[str] | None = None) -> bool:
    """Is a single card of ward `card` wild for player `p` right now?"""
    if card == state["matsuri"]:
        return True
    stores = _stores if _stores is not None else wards_with_store(state, p, ix)
    return card in stores


def wild_reasons(ix: Index, state: dict, p: int, ward: str) -> list[str]:
    """Why a card of `ward` is wild for `p` ([] when it is not): "store", "matsuri"."""
    why = []
    if ward in wards_with_store(state, p, ix):
        why.append("store")
    if ward == state.get("matsuri"):
        why.append("matsuri")
    return why


def matches(ix: Index, state: dict, p: int, cards: list[str], targets) -> bool:
    """Do the played cards match one of the target wards?"""
    if len(cards) == ix.cards_as_wild and ix.cards_as_wild > 1:
        return True
    (card,) = cards
    return card in targets or is_wild(ix, state, p, card)


def mismatch(ix: Index, state: dict, p: int, cards: list[str], targets: list[str]) -> list[str]:
    if matches(ix, state, p, cards, targets):
        return []
    want = " or ".join(ix.wname(t) for t in targets)
    played = with_article(ix.wname(cards[0]), capital=True)
    return [f"{played} card does not match {want}: play {with_article(want)} card, a wild card "
            f"(the card of a ward where you have a store, or of the Matsuri ward, "
            f"{ix.wname(state['matsuri'])}), or {_n(ix.cards_as_wild)} cards together."]


def check_play(ix: Index, state: dict, p: int, value, targets: list[str]) -> tuple[list[str] | None, list[str]]:
    """Parse, check the hand, check the match. (cards, reasons). Named hands also take "card": 3 (the
    number of cards played as one wild): three cards, any, not named (they always match)."""
    if (st.named(state) and isinstance(value, int) and not isinstance(value, bool)
            and value == ix.cards_as_wild > 1):
        cards = [UNNAMED] * value
        reasons = in_hand(ix, state, p, cards)
        return (None, reasons) if reasons else (cards, [])
    cards, reasons = parse_card(ix, value)
    if reasons:
        return None, reasons
    reasons = in_hand(ix, state, p, cards) or mismatch(ix, state, p, cards, targets)
    return (None, reasons) if reasons else (cards, [])


def spend(ix: Index, state: dict, p: int, cards: list[str]) -> None:
    """Move played cards from the hand to the discard pile."""
    if st.named(state):
        state["players"][p]["hand_size"] -= len(cards)
        state["discard"] = ix.sort_cards(state["discard"] + [c for c in cards if c != UNNAMED])
        state["discard_unnamed"] = state.get("discard_unnamed", 0) + cards.count(UNNAMED)
        return
    hand = list(state["players"][p]["hand"])
    for c in cards:
        hand.remove(c)
    state["players"][p]["hand"] = hand
    state["discard"] = ix.sort_cards(state["discard"] + cards)


def options(ix: Index, state: dict, p: int, targets, limit_triples: bool = True) -> list:
    """Card choices for a move (for legal-move lists): each distinct single card of the hand that
    matches, and one three-card wild (the first three cards of the hand) when no single card does.
    Named hands: the hand is not known, so the wards a hand may hold (not every copy public) stand
    for it, and a wild is three of them (the first three of the public pool)."""
    if st.named(state):
        size = st.hand_size(state, p)
        if not size:
            return []
        public = public_cards(state)
        free = [c for c in ix.card_counts if public[c] < ix.card_counts[c]]
        stores = wards_with_store(state, p, ix)
        singles = [c for c in free if c in targets or c == state["matsuri"] or c in stores]
        if singles or size < ix.cards_as_wild:
            return singles
        return [ix.cards_as_wild]            # three cards as one wild, not named
    hand = state["players"][p]["hand"]
    stores = wards_with_store(state, p, ix)
    singles = [c for c in dict.fromkeys(hand)
               if c in targets or c == state["matsuri"] or c in stores]
    if singles or len(hand) < ix.cards_as_wild:
        return singles
    return [list(hand[:ix.cards_as_wild])]
