"""Shin Bikkuri Man with the table's deck, cards named when paid ({"deck": "table", "cards":
"named-when-paid"}, the default for new table-deck tables): the companion keeps the harbour's spaces,
the hands' SIZES and the deck's COUNT, and learns a card's colour only when it goes face up to the
discard pile (a payment, a hand-limit discard). Nothing revealed from the deck is typed in, except
the end card (one tap, "end-card", when the refill could have shown it).

State in this way of play (see the package docstring for the rest): "cards" = "named-when-paid",
harbour [UNKNOWN, …] (one per card lying in a space), each hand {UNKNOWN: n}, deck = the number of
coloured cards in it (an int), discard {colour: n} exactly (every card in it was named),
"end_window": the last refill could have revealed the end card (the table says if it did).
"""
from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any, Iterator

from companion.games.words import count

NAMED, ENTERED = "named-when-paid", "entered"
CARDS_WAYS = (NAMED, ENTERED)
UNKNOWN = "?"     # a card whose colour the companion does not know (it lies face down or in a hand)


def is_named(state: dict) -> bool:
    return state.get("cards") == NAMED


def setup(ix, state: dict) -> None:
    """The table deals (nothing is entered): the harbour's 7 spaces and each starting hand's size."""
    data = ix.data
    n = len(state["players"])
    start = state["start_player"]
    total = data.cards_per_colour(n) * len(ix.colours)
    state["cards"] = NAMED
    state["phase"] = "turn"
    state["deal"] = None
    state.pop("owed", None)
    state["harbour"] = [UNKNOWN] * ix.harbour
    dealt = ix.harbour
    for k in range(n):
        p = (start + k) % n
        size = data.starting_hand(k + 1)
        state["players"][p]["hand"] = {UNKNOWN: size}
        dealt += size
    state["deck"] = total - dealt
    state["end_window"] = False


def hand_size(state: dict, p: int) -> int:
    return sum(state["players"][p]["hand"].values())


def per(ix, state: dict) -> int:
    return ix.data.cards_per_colour(len(state["players"]))


def named_reasons(ix, state: dict, cards: dict, what: str) -> list[str]:
    """Public checks of cards named going to the discard pile: no more of a colour than the game has
    beside those already in the discard pile (the only cards whose colour is public)."""
    n = per(ix, state)
    for c, k in cards.items():
        if k and state["discard"][c] + k > n:
            held = state["discard"][c]
            return [f"the game has {n} {c} cards and {held} {'is' if held == 1 else 'are'} in the "
                    f"discard pile already: {count(k, c + ' card')} cannot be {what}"]
    return []


def discard(ix, state: dict, move: dict, act: bool, cards_list) -> list[str]:
    p = move["player"]
    cards = move.get("cards")
    reasons = cards_list(ix, cards, "cards")
    if reasons:
        return reasons
    extra = hand_size(state, p) - ix.hand_limit
    if len(cards) != extra:
        return [f"discard {count(extra, 'card')} to keep {ix.hand_limit}, not {len(cards)}"]
    by = {c: cards.count(c) for c in ix.colours}
    reasons = named_reasons(ix, state, by, "discarded")
    if reasons or not act:
        return reasons
    state["players"][p]["hand"][UNKNOWN] -= len(cards)
    for c in cards:
        state["discard"][c] += 1
    return []


def pay_reasons(pay: Any, colour: str, cost: int, recolour: str | None, is_int, colours=None) -> list[str]:
    """What is wrong with a build's `pay` ({colour: cards}) for a `colour` tile costing `cost`, with
    Change of Colours counting `recolour` too, whatever the hand (both ways of keeping cards check it
    so); `colours`: the card colours, when a colour that is none is to be named as such."""
    if not isinstance(pay, dict) or not all(isinstance(k, str) and is_int(v) and v >= 0 for k, v in pay.items()):
        return ['pay is an object {colour: number of cards}']
    unknown = [c for c in pay if colours is not None and c not in colours]
    if unknown:
        return [f"{unknown[0]!r} is not a card colour ({', '.join(colours)})"]
    allowed = [colour] + ([recolour] if recolour else [])
    bad = [c for c, k in pay.items() if k and c not in allowed]
    if bad:
        return [f"{bad[0]} cards do not pay for a {colour} tile"
                + ("" if recolour else " (Change of Colours lets one colour count as another)")]
    if sum(pay.values()) != cost:
        return [f"the tile costs {count(cost, 'card')}, not {sum(pay.values())}"]
    return []


def payment(ix, state: dict, p: int, colour: str, cost: int, recolour: str | None, pay: Any,
            is_int) -> tuple[list[str], dict]:
    """The cards a build pays, named: `pay` as given, or `cost` cards of the tile's colour."""
    if pay is None:
        pay = {colour: cost} if cost else {}
    reasons = pay_reasons(pay, colour, cost, recolour, is_int, colours=ix.colours)
    if reasons:
        return reasons, {}
    have = hand_size(state, p)
    if cost > have:
        return [f"the tile costs {count(cost, 'card')}; the hand holds {have}"], {}
    paid = {c: k for c, k in pay.items() if k}
    return named_reasons(ix, state, paid, "paid"), paid


def pay_from_hand(state: dict, p: int, paid: dict) -> None:
    state["players"][p]["hand"][UNKNOWN] -= sum(paid.values())


def deck_count(state: dict) -> int:
    return state["deck"]


def end_possible(ix, state: dict) -> bool:
    return state["end_in_deck"] and state["deck"] <= ix.data.end_card.bottom


def reshuffle(ix, state: dict) -> None:
    """The discard pile becomes the new deck (its count is known); the end card joins it on the
    first reshuffle when the player count says so, into its bottom cards."""
    state["deck"] = sum(state["discard"].values())
    state["discard"] = {c: 0 for c in ix.colours}
    state["shuffles"] += 1
    if state["shuffles"] == 1 and ix.data.end_card_shuffled_in(len(state["players"])) == "first-reshuffle":
        state["end_in_deck"] = True


def refill(ix, state: dict) -> str | None:
    """End of a turn: the table refills the harbour's empty spaces from the deck; the companion
    counts them. Returns "end-card" when only the end card was left to reveal (the game ends), else
    None; "end_window" says whether the end card could have come up among the cards revealed."""
    missing = ix.harbour - len(state["harbour"])
    window = False
    got = 0
    while got < missing:
        if not state["deck"] and not state["end_in_deck"]:
            if not sum(state["discard"].values()):
                break                   # nothing left to reveal: the harbour stays short
            reshuffle(ix, state)
        if state["end_in_deck"] and not state["deck"]:
            state["end_in_deck"] = False          # only the end card is left: it comes up
            state["draws"] += got + 1
            state["last"] = {**(state.get("last") or {}), "refilled": got, "end": True}
            return "end-card"
        if end_possible(ix, state):
            window = True
        state["deck"] -= 1
        state["harbour"].append(UNKNOWN)
        got += 1
    state["draws"] += got
    state["end_window"] = window
    if got:
        state["last"] = {**(state.get("last") or {}), "refilled": got}
    return None


def end_card_reasons(ix, state: dict) -> list[str]:
    if not is_named(state):
        return ["the end card is entered with the refill at this table" if state.get("mode") == "table"
                else "the companion reveals the end card itself at this table"]
    if not state.get("end_window"):
        if state["end_in_deck"] and end_possible(ix, state):
            return ["the end card can come up only when the harbour is refilled (and then the game "
                    "ends before another move): undo the moves made since that refill first"
                    if state["done"] else
                    "the end card can come up only when the harbour is refilled: no refill since "
                    "the last move could have shown it"]
        if not state["end_in_deck"]:
            return ["the end card is not in the deck yet"
                    + ("" if ix.data.end_card_shuffled_in(len(state["players"])) == "setup"
                       else " (it is shuffled in when the discards first become the deck)")]
        return [f"the end card is among the bottom {ix.data.end_card.bottom} cards and "
                f"{state['deck']} cards are still in the deck: it could not have come up"]
    return []


# ---- legal moves --------------------------------------------------------------------------------
def discards(ix, state: dict, p: int) -> list[dict]:
    extra = hand_size(state, p) - ix.hand_limit
    out = []
    for combo in combinations_with_replacement(ix.colours, extra):
        by = {c: combo.count(c) for c in ix.colours}
        if not named_reasons(ix, state, by, "discarded"):
            out.append({"type": "discard", "player": p, "cards": list(combo)})
    return out


def build_start(ix, state: dict, p: int, ready) -> tuple:
    """What a player's builds start from, whichever way the cards are kept: the façade's cells, its
    occupied squares, each colour's squares, the Construction Discount (0 unless ready), whether
    Change of Colours is ready and whether Both Actions is (and no action taken yet)."""
    geo = ix.geo
    cells = geo.cells(state["players"][p]["facade"])
    return (cells, geo.occupied(cells), {c: geo.colour_mask(cells, c) for c in ix.colours},
            ix.ability[ix.discount].discount if ready(state, p, ix.discount) else 0,
            ready(state, p, ix.recolour), ready(state, p, ix.both) and not state["done"])


def placements(ix, state: dict, p: int, occ, masks, unreachable) -> Iterator[tuple[str, int, dict]]:
    """Every place a tile left in the supply fits the façade, whichever way the cards are kept:
    (the tile's colour, its cost in cards with the same-colour discount, the build move). A tile for
    which `unreachable(colour, size)` holds (the hand could never pay it) is not tried."""
    geo, b = ix.geo, ix.data.building
    for tid in ix.tile_ids:
        if state["supply"][tid] <= 0:
            continue
        colour, size = geo.tile_colour[tid], geo.tile_size[tid]
        if unreachable(colour, size):
            continue
        for pm in geo.placements[tid]:
            if not geo.fits(occ, pm):
                continue
            touches = bool(pm.around & masks[colour])
            cost = max(0, size * b.cards_per_square - (b.same_colour_discount if touches else 0))
            yield colour, cost, {"type": "build", "player": p, "tile": tid,
                                 "squares": [list(s) for s in pm.squares],
                                 "brick": list(pm.brick) if pm.brick else None}


def builds(ix, state: dict, p: int, ready, sample: bool = False) -> list[dict]:
    """Builds paid in the tile's colour where the hand is big enough and the discard pile leaves room
    for the cards named; with abilities face up, a build each makes possible (one payment)."""
    have = hand_size(state, p)
    cells, occ, masks, disc, recolour, both = build_start(ix, state, p, ready)
    n = per(ix, state)
    out: list[dict] = []
    reach = have + disc + ix.data.building.same_colour_discount
    for colour, cost, base in placements(ix, state, p, occ, masks, lambda colour, size: reach < size):
        room = n - state["discard"][colour]
        if have >= cost and room >= cost:
            out.append(base)
            if sample:
                return out
            if both and len(out) % 7 == 1:
                out.append({**base, "abilities": [ix.both]})
            continue
        if disc and have >= cost - disc and room >= cost - disc:
            out.append({**base, "abilities": [ix.discount]})
            continue
        if recolour and have >= cost:
            for c in ix.colours:
                if c != colour and n - state["discard"][c] >= cost - min(cost, max(0, room)):
                    mine = min(cost, max(0, room))
                    pay = {k: v for k, v in ((colour, mine), (c, cost - mine)) if v}
                    out.append({**base, "abilities": [ix.recolour], "recolour": c, "pay": pay})
                    break
        if sample and out:
            return out
    return out
