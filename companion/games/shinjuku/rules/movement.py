"""The Move Customers action: checking a path, delivering customers to stores, and listing paths.

A path is a list of station ids. It starts at a station of the ward whose customers move, each next
station is joined to the previous one by built track (anyone's, or the pre-built neutral link), and
no station appears twice. The starting station is visited too (a path of one station is allowed).

At every station of the path that has a store matching one of the customers still travelling,
the store's owner takes one such customer (a store: its goods type; a department store: any type).
When several customers match, the move's "take" says which ({station: customer id}); otherwise the
default is: for the mover's own store a "2" customer first, for another player's store a single
customer first, and between types the data order (food, clothing, books, electronics).
Customers left at the end join the customers in the ward of the last station.
Other players whose track was used may each take one Income action (never the mover, never for the
neutral link).
"""
from __future__ import annotations

from .index import Index


def matching(ix: Index, store: dict, remaining: list[str]) -> list[str]:
    if store["kind"] == "department-store":
        return list(remaining)
    return [c for c in remaining if ix.token[c][0] == store["goods"]]


def _default_pick(ix: Index, candidates: list[str], own: bool) -> str:
    def key(token: str):
        goods, value = ix.token[token]
        return (-value if own else value, ix.type_pos[goods])
    return min(candidates, key=key)


def simulate(ix: Index, state: dict, p: int, path, take) -> tuple[dict | None, list[str]]:
    """Check a path and work out what happens. Returns (outcome, reasons); outcome has
    "ward", "deliveries" [{station, owner, customer}], "leftovers", "to" (ward), "tracks", "bonus"."""
    if not isinstance(path, list) or not path or not all(isinstance(s, str) for s in path):
        return None, ["Give the path as a list of station ids, starting in the ward whose customers "
                      "move (\"path\": [\"shinjuku\", \"yoyogi\"])."]
    unknown = [s for s in path if s not in ix.station_ward]
    if unknown:
        return None, [f"There is no station called {unknown[0]!r}."]
    if len(set(path)) != len(path):
        again = next(s for i, s in enumerate(path) if s in path[:i])
        return None, [f"The path visits {ix.sname(again)} twice; no station may be visited more than once."]
    if take is None:
        take = {}
    if not isinstance(take, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                             for k, v in take.items()):
        return None, ["\"take\" maps stations to the customer their store takes "
                      "({\"shibuya\": \"food-2\"})."]
    for s in take:
        if s not in path:
            return None, [f"\"take\" names {ix.sname(s)}, which is not on the path."]

    ward = ix.station_ward[path[0]]
    customers = state["wards"][ward]
    if not customers:
        return None, [f"There are no customers in {ix.wname(ward)} to move."]

    tracks = []
    for a, b in zip(path, path[1:]):
        cid = ix.conn_by_pair.get(frozenset((a, b)))
        if cid is None:
            return None, [f"{ix.sname(a)} and {ix.sname(b)} are not connected on the map."]
        if cid not in state["tracks"]:
            return None, [f"There is no track between {ix.sname(a)} and {ix.sname(b)} yet."]
        tracks.append(cid)

    remaining = list(customers)
    deliveries = []
    for s in path:
        store = state["stations"].get(s)
        candidates = matching(ix, store, remaining) if store else []
        if not candidates:
            if s in take:
                what = "no store" if not store else "no matching customer"
                return None, [f"Nobody is taken at {ix.sname(s)} ({what} there when the customers pass)."]
            continue
        if s in take:
            if take[s] not in candidates:
                offer = ", ".join(ix.tname(c) for c in dict.fromkeys(candidates))
                return None, [f"The store at {ix.sname(s)} cannot take {ix.tname(take[s])} there "
                              f"(it can take: {offer})."]
            pick = take[s]
        else:
            pick = _default_pick(ix, candidates, store["owner"] == p)
        remaining.remove(pick)
        deliveries.append({"station": s, "owner": store["owner"], "customer": pick})

    owners = {state["tracks"][c] for c in tracks}
    n = len(state["players"])
    bonus = [q for q in ((p + i) % n for i in range(1, n)) if q in owners]
    return {"ward": ward, "deliveries": deliveries, "leftovers": ix.sort_tokens(remaining),
            "to": ix.station_ward[path[-1]], "tracks": tracks, "bonus": bonus}, []


def paths_from(ix: Index, state: dict, start: str, limit: int) -> list[list[str]]:
    """Simple paths along built track from `start` (including [start]), shortest first, at most `limit`."""
    built = state["tracks"]
    out: list[list[str]] = [[start]]
    frontier = [[start]]
    while frontier and len(out) < limit:
        nxt = []
        for path in frontier:
            for other, cid in ix.adjacency[path[-1]]:
                if cid in built and other not in path:
                    new = path + [other]
                    out.append(new)
                    nxt.append(new)
                    if len(out) >= limit:
                        return out
        frontier = nxt
    return out
