"""Listing legal moves, for the UI's choices, random playouts and tests.

`legal_moves` returns moves that `validate` accepts, one per distinct choice of target, reduced in
three ways so the list stays short (the list is then marked incomplete):
  * cards: each distinct matching card of the hand, or (only when no single card matches) one
    three-card wild made of the first three cards of the hand;
  * move paths: at most `max_paths` paths per starting station, shortest first, with the default
    choice of which customer each store takes;
  * table mode: moves that carry drawn cards or customers are filled with one possible draw (cards
    that can still be drawn as far as public information and the drawing player's own hand go:
    never the other hands, so a seat's list tells nothing of them); the UI asks the players what
    they really drew. Named hands ("hands": "named"): a card played stands for any ward a hand may
    hold (not every copy public), and Income and the deal carry no cards.
The list is never empty while the game runs (Income is always possible in the actions phase), and
since every turn drains the bag (see the package docstring), choosing any listed move again and
again always reaches the end of the game.
"""
from __future__ import annotations

from . import cards as cd
from . import moves as mv
from . import state as st
from .index import Index
from .movement import paths_from


def _sample_cards(ix: Index, state: dict, k: int, deck_only: bool = False, own=None,
                  offset: int = 0) -> list[str]:
    """k cards that may be drawn as far as public information (and `own`, the drawing player's
    hand) goes, from `offset` on in the sorted pool: a listing never reads the other hands."""
    pool = ix.sort_cards(list(st.public_pool(ix, state, deck_only, own).elements()))
    if not pool:
        return []
    start = offset % len(pool)
    return (pool[start:] + pool[:start])[:k]


def legal_moves(ix: Index, state: dict, kinds=None, max_paths: int = 16) -> tuple[list[dict], bool]:
    """(moves, complete): the legal moves (of the types in `kinds`, if given) and whether the list
    holds every legal move rather than a sample."""
    phase = state["phase"]
    table = state["mode"] == st.TABLE
    out: list[dict] = []
    if phase == "over":
        return out, True
    if phase == "deal":
        d = state["deal"]
        wards = list(st.public_pool(ix, state, deck_only=True))     # in data order
        for p, done in enumerate(d["hands"]):
            if not done:       # each seat its own slice of the pool: fewer clashes in playouts
                out.append({"type": "deal-hand", "player": p, "cards": _sample_cards(
                    ix, state, ix.hand_size, deck_only=True, offset=(2 * p + 1) * ix.hand_size)})
        if len(d["seeded"]) < ix.seed_wards:
            tokens = state["bag"][:ix.seed_customers]
            for w in wards:
                if w not in d["seeded"]:
                    out.append({"type": "seed-ward", "ward": w, "customers": tokens})
        if not d["matsuri"]:
            for w in wards:
                out.append({"type": "place-matsuri", "ward": w})
        if not d["queue"]:
            out.append({"type": "fill-queue", "cards": _sample_cards(ix, state, ix.slots, True),
                        "customers": state["bag"][:ix.queue_start]})
        return _only(out, kinds), False                      # every entry is one possible draw

    p = state["current"]
    if phase == "place":
        m = {"type": "place-customers", "player": p}
        complete = True
        if table:
            if st.card_pool(state) and st.named(state):
                m["card"] = _sample_cards(ix, state, 1, deck_only=state["deck_count"] > 0,
                                          offset=state["turn"])[0]
                complete = False
            elif st.card_pool(state):
                m["card"] = _sample_cards(ix, state, 1, own=state["players"][p]["hand"],
                                          offset=state["turn"])[0]
                complete = False
            m["customers"] = state["bag"][:len(state["queue"][0]["customers"])]
            complete = complete and not m["customers"]
        return _only([m], kinds), complete
    if phase == "matsuri":
        return _only([{"type": "move-matsuri", "player": p, "ward": w}
                      for w in ix.neighbours[state["matsuri"]]], kinds), True
    if phase == "bonus":
        complete = True
        for q in state["bonus"]:
            m = {"type": "income", "player": q}
            if table and not st.named(state):
                m["cards"] = _sample_cards(ix, state, mv.income_count(ix, state, q)[1],
                                           own=state["players"][q]["hand"], offset=state["turn"] + q)
                complete = complete and not m["cards"]
            out += [m, {"type": "decline-income", "player": q}]
        return _only(out, kinds), complete

    # actions: two different actions; Income is always possible (it draws what it can)
    done = state["actions"]
    want = [a for a in mv.ACTIONS if a not in done and (kinds is None or a in kinds)]
    me = state["players"][p]
    complete = st.hand_size(state, p) < ix.cards_as_wild or ix.cards_as_wild <= 1   # else: triples sampled
    if "open-store" in want:
        goods = [g for g in ix.goods if me["stores"][g] > 0]
        if goods:
            for s in ix.station_ids:
                if s in state["stations"]:
                    continue
                for c in cd.options(ix, state, p, [ix.station_ward[s]]):
                    for g in goods:
                        out.append({"type": "open-store", "player": p, "card": c, "station": s, "goods": g})
    if "expand-track" in want and me["track"] >= 1:
        built = state["tracks"]
        for cid in ix.connection_ids:
            if cid in built:
                continue
            out.append({"type": "expand-track", "player": p, "connection": cid})
            if me["track"] >= 2:
                a, b = ix.conn_ends[cid]
                ends = list(dict.fromkeys([ix.station_ward[a], ix.station_ward[b]]))
                cards = cd.options(ix, state, p, ends)
                if not cards:
                    continue
                for s in (a, b):
                    for _, cid2 in ix.adjacency[s]:
                        if cid2 != cid and cid2 not in built:
                            for c in cards:
                                out.append({"type": "expand-track", "player": p, "connection": cid,
                                            "second": cid2, "card": c})
    if "upgrade-store" in want and me["department_stores"] >= 1:
        for s, store in state["stations"].items():
            if store["owner"] != p or store["kind"] != "store" or s not in ix.sakura:
                continue
            tokens = [t for t in dict.fromkeys(me["customers"]) if ix.token[t][0] == store["goods"]]
            for c in (cd.options(ix, state, p, [ix.station_ward[s]]) if tokens else []):
                for t in tokens:
                    out.append({"type": "upgrade-store", "player": p, "station": s, "card": c, "customer": t})
    if "income" in want:
        m = {"type": "income", "player": p}
        if table and not st.named(state):
            m["cards"] = _sample_cards(ix, state, mv.income_count(ix, state, p)[1],
                                       own=me["hand"], offset=state["turn"])
            complete = complete and not m["cards"]
        out.append(m)
    if "move-customers" in want:
        for w in ix.ward_ids:
            if not state["wards"][w]:
                continue
            if st.hand_size(state, p):
                complete = False    # paths capped, stores take the default customer (judged on
                #                     the hand's size, which everyone sees, not on its cards)
            cards = cd.options(ix, state, p, [w])
            if not cards:
                continue
            for s in ix.stations_in[w]:
                for path in paths_from(ix, state, s, max_paths):
                    for c in cards:
                        out.append({"type": "move-customers", "player": p, "card": c, "path": path})
    return out, complete


def _only(moves: list[dict], kinds) -> list[dict]:
    return moves if kinds is None else [m for m in moves if m["type"] in kinds]
