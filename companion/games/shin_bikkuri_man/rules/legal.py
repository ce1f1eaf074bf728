"""Shin Bikkuri Man: the moves legal now (each one accepted as it is by `validate`).

Complete lists where they are small (taking cards, discarding, coat-of-arms actions, plain builds);
a sample where the choices multiply (builds with abilities and payment mixes, the cards a table may
enter): `complete` is then False.
"""
from __future__ import annotations

from itertools import combinations

from . import engine as en
from . import named as nm
from .geometry import WHITE_TILE


def legal_moves(ix, state: dict) -> tuple[list[dict], bool]:
    phase = state["phase"]
    if phase == "over":
        return [], True
    if phase == "deal":
        return _deal(ix, state), False
    if phase == "refill":
        return _refill(ix, state), False
    p = state["current"]
    named = nm.is_named(state)
    if phase == "discard":
        return (nm.discards(ix, state, p) if named else _discards(ix, state, p)), True
    if phase == "coats":
        return _coats(ix, state, p), True
    moves: list[dict] = []
    complete = True
    if "take" not in state["done"]:
        moves += _takes(ix, state, p)
    if "build" not in state["done"]:
        builds = nm.builds(ix, state, p, en.ready) if named else en.builds(ix, state, p)
        moves += builds
        if any(a == "ready" for a in state["players"][p]["abilities"].values()):
            complete = False
    if state["done"] or not moves:
        moves.append({"type": "end-turn", "player": p})
    if named and state.get("end_window"):
        moves.append({"type": "end-card"})
    return moves, complete


_ready = en.ready


def _takes(ix, state: dict, p: int) -> list[dict]:
    n = len(state["harbour"])
    if not n:
        return []
    out = []
    both = [[]] + ([[ix.both]] if _ready(state, p, ix.both) and not state["done"] else [])
    k = min(ix.take, n)
    for extra in both:
        for i in range(n - k + 1):
            out.append(_take(p, list(range(i, i + k)), extra))
    if _ready(state, p, ix.any_cards):
        for combo in combinations(range(n), k):
            if not en._is_run(list(combo)):
                out.append(_take(p, list(combo), [ix.any_cards]))
    if _ready(state, p, ix.extra_card):
        k3 = min(ix.ability[ix.extra_card].cards, n)
        for i in range(n - k3 + 1):
            out.append(_take(p, list(range(i, i + k3)), [ix.extra_card]))
        if _ready(state, p, ix.any_cards):
            for combo in combinations(range(n), k3):
                if not en._is_run(list(combo)):
                    out.append(_take(p, list(combo), [ix.any_cards, ix.extra_card]))
    return out


def _take(p: int, spaces: list[int], abilities: list[str]) -> dict:
    m = {"type": "take", "player": p, "spaces": spaces}
    if abilities:
        m["abilities"] = list(abilities)
    return m


def _discards(ix, state: dict, p: int) -> list[dict]:
    hand = state["players"][p]["hand"]
    extra = en.hand_size(hand) - ix.hand_limit
    cards = [c for c in ix.colours for _ in range(hand[c])]
    seen = set()
    out = []
    for combo in combinations(cards, extra):
        if combo not in seen:
            seen.add(combo)
            out.append({"type": "discard", "player": p, "cards": list(combo)})
    return out


def _coats(ix, state: dict, p: int) -> list[dict]:
    out = []
    if state["supply"][WHITE_TILE] > 0:
        for pm in ix.geo.legal_placements(ix.geo.cells(state["players"][p]["facade"]), WHITE_TILE):
            out.append({"type": "special-tile", "player": p, "square": list(pm.squares[0])})
    for a in en.abilities_to_take(ix, state, p):
        out.append({"type": "take-ability", "player": p, "ability": a})
    used = en.used_abilities(state, p)
    if used:
        if ix.reactivate and ix.reactivate.flips == "one":
            out += [{"type": "reactivate", "player": p, "ability": a} for a in used]
        else:
            out.append({"type": "reactivate", "player": p})
    out.append({"type": "decline", "player": p})
    return out


def _deck_sample(ix, deck: list[str], k: int, first: str | None = None) -> list[str]:
    left = {c: deck.count(c) for c in ix.colours}
    out = []
    order = ([first] if first else []) + ix.colours
    i = 0
    while len(out) < k:
        progress = False
        for c in order[i % len(order):] + order[:i % len(order)]:
            if left.get(c, 0) > 0 and len(out) < k:
                out.append(c)
                left[c] -= 1
                progress = True
                break
        i += 1
        if not progress:
            break
    return out


def _public_deck(ix, state: dict) -> list[str]:
    """The cards that may be in the deck on public information (engine.public_pool): listings
    never read the deck's bookkeeping, which the hands determine."""
    return [c for c, n in en.public_pool(ix, state).items() for _ in range(max(0, n))]


def _deal(ix, state: dict) -> list[dict]:
    out = []
    deal = state["deal"]
    n = len(state["players"])
    deck = _public_deck(ix, state)
    if not deal["harbour"]:
        out.append({"type": "fill-harbour", "cards": _deck_sample(ix, deck, ix.harbour)})
    for p, done in enumerate(deal["hands"]):
        if not done:
            seat = (p - state["start_player"]) % n + 1
            k = ix.data.starting_hand(seat)
            out.append({"type": "deal-hand", "player": p,
                        "cards": _deck_sample(ix, deck, k, ix.colours[(p + 2) % len(ix.colours)])})
    return out


def _refill(ix, state: dict) -> list[dict]:
    """A few refills the deck may allow on public information (each colour first in turn), and the
    end card where it may come."""
    missing = ix.harbour - len(state["harbour"])
    out = []
    sim = {"deck": list(state["deck"]), "discard": dict(state["discard"]), "shuffles": state["shuffles"],
           "end_in_deck": state["end_in_deck"], "mode": en.TABLE, "players": state["players"], "seed": None,
           "owed": list(en.owed(state)), "harbour": list(state["harbour"])}
    if not en.deck_count(sim) and not sim["end_in_deck"] and sum(sim["discard"].values()):
        en._reshuffle(ix, sim)
    if en.end_possible(ix, sim):
        out.append({"type": "refill", "cards": [en.END]})
    coloured = _public_deck(ix, sim)
    for first in ix.colours:
        if first not in coloured:
            continue
        cards = _deck_sample(ix, coloured, min(missing, en.deck_count(sim)), first)
        if len(cards) < missing:
            # the deck runs out: the discards come back (and perhaps the end card)
            if sim["end_in_deck"]:
                cards.append(en.END)
            else:
                rest = {c: sim["discard"][c] for c in ix.colours}
                for c in ix.colours:
                    while rest[c] and len(cards) < missing:
                        cards.append(c)
                        rest[c] -= 1
        m = {"type": "refill", "cards": cards}
        if m not in out:
            out.append(m)
    if not out:
        out.append({"type": "refill", "cards": [en.END] if sim["end_in_deck"] else []})
    return out
