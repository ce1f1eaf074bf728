"""Izakaya (2-5 players): secret bids for turn order, then an action phase of bottles, price moves,
site claims and builds, until the yen bid reaches the threshold; buildings pay floors x the drinks
touching their site card. Pure; the state, moves and decisions are in __init__.py.

Geometry: cards are [column, row] on an n x n grid; a corner spot (where drinks go) is [x, y] with
0 <= x, y <= n (card [c, r] has the corners [c, r], [c+1, r], [c, r+1], [c+1, r+1]); a claim disc
sits on the edge between two cards that share a side, written as the two cards.
"""
from __future__ import annotations

import random

from companion.games.contract import Actors, IllegalMove, Legal, NOBODY, leaders, result, score_row
from companion.games.words import count

from .common import as_pos, is_int, key, name, player_of, unkey, yen

ACTIONS = ("bottle", "price", "claim", "build", "pass")
MOVES = ("turn-order", "bid") + ACTIONS


# --------------------------------------------------------------------------------------------- setup
def setup(rules, players: list[str], o: dict, seed: int) -> dict:
    iz = rules.data.izakaya
    n = len(players)
    grid = iz.grid_for(n)
    size = grid.size
    blocked = key((size // 2, size // 2)) if grid.blocked_centre else None
    rng = random.Random(f"{seed}:izakaya")
    cards, action_card = {}, None
    if o["chance"] == "companion":
        deck = rng.sample(sorted(rules.data.site), size * size + 1)
        action_card = deck.pop()
        cards = {key((c, r)): deck[r * size + c] for r in range(size) for c in range(size)}
    order = list(range(n))
    if o["chance"] == "companion":
        rng.shuffle(order)
    return {
        "game": "jutaku", "mode": "izakaya", "chance": o["chance"], "seed": seed,
        "size": size, "blocked": blocked, "cards": cards, "action_card": action_card,
        # "Using players' remaining disc, randomly draw them 1 at a time, and create the turn order":
        # at a table that draws, it enters the order ("turn-order") before the first bids
        "phase": "order" if o["chance"] == "table" else "bid",
        "final": False, "phase_no": 1, "pile": 0, "threshold": iz.end_threshold(n),
        "order": order, "turn": 0, "bids": {}, "used": [], "price_uses": 0, "bonus": None, "bonus_left": 0,
        # from the data: drink spots by cards sharing them (best first), the line bonus, the discs
        # each action spot takes per action phase (0 = no limit)
        "spots": list(iz.drink_spots), "line": iz.line_bonus, "limits": {a.id: a.limit for a in iz.action},
        "prices": dict(iz.start_price), "crates": {d: rules.data.drink_info.per_colour for d in iz.stock.order},
        "corners": {}, "edges": {}, "owners": {}, "buildings": {}, "lines": [],
        "pieces_left": rules.data.contents.pieces, "last": None,
        "players": [{"name": nm, "colour": iz.metro.colour[i].id, "yen": iz.start_yen,
                     "discs": iz.claim_discs, "pyramids": iz.pyramids} for i, nm in enumerate(players)],
    }


def copy(state: dict) -> dict:
    s = dict(state)
    for k in ("bids", "prices", "crates", "corners", "edges", "owners"):
        s[k] = dict(state[k])
    s["buildings"] = {k: [dict(b) for b in v] for k, v in state["buildings"].items()}
    s["order"], s["used"], s["lines"] = list(state["order"]), list(state["used"]), list(state["lines"])
    s["spots"], s["limits"] = list(state["spots"]), dict(state["limits"])
    s["players"] = [dict(p) for p in state["players"]]
    return s


# ------------------------------------------------------------------------------------------ geometry
def cards_at(state: dict, x: int, y: int) -> int:
    """How many site cards share the corner spot [x, y]."""
    n = state["size"]
    cols = sum(1 for c in (x - 1, x) if 0 <= c < n)
    rows = sum(1 for r in (y - 1, y) if 0 <= r < n)
    return cols * rows


def corner_spots(state: dict) -> list[tuple[int, int]]:
    """Corner spots where a drink may go now: free, shared by 4 cards, or by 2 once every 4-card
    spot holds a drink (state["spots"], from the data); never a corner of one card only."""
    n = state["size"]
    free = [(x, y) for y in range(n + 1) for x in range(n + 1) if key((x, y)) not in state["corners"]]
    for shared in state["spots"]:
        tier = [p for p in free if cards_at(state, *p) == shared]
        if tier:
            return tier
    return []


def touching(state: dict, card: str) -> list[str]:
    """The drinks on the four corners of a card."""
    c, r = unkey(card)
    return [state["corners"][k] for k in (key((c, r)), key((c + 1, r)), key((c, r + 1)), key((c + 1, r + 1)))
            if k in state["corners"]]


def edge_key(a, b) -> str:
    a, b = sorted([tuple(a), tuple(b)])
    return f"{key(a)}|{key(b)}"


def all_edges(state: dict) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    n = state["size"]
    out = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                out.append(((c, r), (c + 1, r)))
            if r + 1 < n:
                out.append(((c, r), (c, r + 1)))
    return out


def claimable(state: dict, card: str) -> bool:
    return card != state["blocked"] and card not in state["owners"]


def borders_of(rules, state: dict, card: str) -> int:
    """Buildings a card can hold: its black site borders (2 at most where the card is not known)."""
    site = state["cards"].get(card)
    if site is None:
        return 2
    return len(rules.data.site[site].side(rules.data.izakaya.side).borders)


def new_lines(state: dict, p: int, edge: str) -> list[str]:
    """Straight lines of 3 of p's claim discs that `edge` completes (discs across one row or one
    column of cards, side by side), not yet rewarded."""
    mine = {k for k, q in state["edges"].items() if q == p} | {edge}
    (c1, r1), (c2, r2) = [unkey(x) for x in edge.split("|")]
    out = []
    if r1 == r2:       # a disc between two cards of a row: lines run along the row
        run = [(c, r1) for c in range(state["size"])]
    else:              # between two cards of a column: lines run down the column
        run = [(c1, r) for r in range(state["size"])]
    edges = [edge_key(run[i], run[i + 1]) for i in range(len(run) - 1)]
    size = state["line"]
    for i in range(len(edges) - size + 1):
        trio = edges[i:i + size]
        if edge in trio and all(e in mine for e in trio):
            line = "/".join(trio)
            if line not in state["lines"]:
                out.append(line)
    return out


def current(state: dict) -> int | None:
    if state["phase"] != "actions":
        return None
    if state["bonus"] is not None:
        return state["bonus"]
    return state["order"][state["turn"] % len(state["order"])]


# ------------------------------------------------------------------------------------------ validate
def validate(rules, state: dict, move: dict, ctx) -> list[str]:
    t, phase = move["type"], state["phase"]
    if phase == "over":
        return ["the game is over"]
    if t not in MOVES:
        return [f"{t} is not a move of Izakaya ({', '.join(MOVES)})"]
    if t == "turn-order":
        n = len(state["players"])
        if phase != "order":
            return ["the turn order drawn at the table is entered once, before the first bids"
                    + ("" if state["chance"] == "table" else " (the companion drew it at this table)")]
        order = move.get("order")
        if not (isinstance(order, list) and all(is_int(x) for x in order) and sorted(order) == list(range(n))):
            return [f"order must list every seat once, first to last: {n} seats from 0 to {n - 1}"]
        return []
    if phase == "order":
        return ["first enter the turn order drawn at the table (the players' discs, 1 at a time)"]
    p = player_of(state, move)
    if p is None:
        return [f"player must be a seat of this table (0 to {len(state['players']) - 1})"]
    pl = state["players"][p]
    if t == "bid":
        if phase != "bid":
            return ["bids are made at the start of a round, before the actions"]
        # a sealed bid may be changed until every bid is in (the coins are still in the hand):
        # sending a bid again replaces it; the last bid reveals them all
        a = move.get("amount")
        coin = rules.data.izakaya.coin
        if not is_int(a) or a < 0 or a % coin:
            return [f"a bid is a whole number of {coin}-yen coins (0 allowed)"]
        if a > pl["yen"]:
            return [f"{pl['name']} has only {yen(pl['yen'])}"]
        return []
    if phase != "actions":
        return ["everyone bids for turn order first"]
    cur = current(state)
    if p != cur:
        return [f"it is {name(state, cur)}'s turn"]
    if state["bonus"] is not None and t not in ("build", "pass"):
        return [f"{pl['name']} places the free piece of a line of 3 (build) or lets it go (pass)"]
    return _action_reasons(rules, state, p, move)


def _action_reasons(rules, state: dict, p: int, move: dict) -> list[str]:
    t, pl, n = move["type"], state["players"][p], state["size"]
    if t == "pass":
        if state["bonus"] is not None:
            return []
        if _possible(rules, state, p):
            return ["an action is possible: place the disc on one (pass only when none is)"]
        return []
    if t == "bottle":
        d = move.get("drink")
        if d not in state["crates"]:
            return [f"{d!r} is not a drink colour ({', '.join(state['crates'])})"]
        if not _free_spot(state, "bottle", state["used"].count(d)):
            return [f"a disc is on the {d} stock card already this action phase"]
        if state["crates"][d] < 1:
            return [f"the {d} crate is empty"]
        at = as_pos(move.get("corner"), n + 1, n + 1)
        if at is None:
            return [f"corner must be [x, y] with 0 <= x, y <= {n}"]
        if key(at) in state["corners"]:
            return ["a drink is on that corner already"]
        shared = cards_at(state, *at)
        if shared not in state["spots"]:
            return ["a drink never goes on an outside corner of a single card"]
        if at not in corner_spots(state):
            return ["every corner shared by " + " cards needs a drink before a corner shared by ".join(
                str(x) for x in state["spots"])]
        return []
    if t == "price":
        if not _free_spot(state, "price", state["price_uses"]):
            return ["the price adjustment spot is taken this action phase"]
        a, b = move.get("from"), move.get("to")
        if a not in state["prices"] or b not in state["prices"] or a == b:
            return ["from and to must be two different drink colours"]
        if state["prices"][a] < rules.data.izakaya.coin:
            return [f"no coin on the {a} stock card"]
        return []
    if t == "claim":
        e = move.get("edge")
        if not (isinstance(e, list) and len(e) == 2):
            return ["edge must be two site cards that share a side: [[c, r], [c, r]]"]
        a, b = as_pos(e[0], n, n), as_pos(e[1], n, n)
        if a is None or b is None or abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            return ["edge must be two site cards that share a side: [[c, r], [c, r]]"]
        if edge_key(a, b) in state["edges"]:
            return ["a disc is between those cards already"]
        site = as_pos(move.get("site"), n, n)
        if site not in (a, b):
            return ["the pyramid goes on one of the two cards beside the disc"]
        if key(site) == state["blocked"]:
            return ["the blue centre card cannot be claimed"]
        if key(site) in state["owners"]:
            return [f"{name(state, state['owners'][key(site)])} occupies that site card"]
        if pl["discs"] < 1 or pl["pyramids"] < 1:
            return [f"{pl['name']} has no claim disc or pyramid left"]
        return []
    if t == "build":
        if state["pieces_left"] < 1:
            return ["no piece is left in the supply"]
        site = as_pos(move.get("site"), n, n)
        if site is None:
            return [f"site must be a card [c, r] of the {n} x {n} grid"]
        if key(site) == state["blocked"]:
            return ["the blue centre card is not a building site"]
        b = move.get("building", 0)
        if not is_int(b) or not 0 <= b < borders_of(rules, state, key(site)):
            return ["building must be 0, or 1 on a card with two site borders"]
        have = state["buildings"].get(key(site), [])
        if b > len(have):
            return ["start building 0 on this card first"]
        floors_now = have[b]["floors"] if b < len(have) else 0
        f = move.get("floors")
        if not is_int(f) or f not in (max(1, floors_now), floors_now + 1):
            if not floors_now:
                return ["floors: a new building has 1 floor with its first piece"]
            return [f"floors: the building has {count(floors_now, 'floor')}; with the new piece it has "
                    f"{floors_now} (the piece on its top floor) or {floors_now + 1} (a new floor)"]
        return []
    return ["unknown action"]


def _free_spot(state: dict, action: str, uses: int) -> bool:
    limit = state["limits"].get(action, 0)
    return not limit or uses < limit


def _possible(rules, state: dict, p: int) -> bool:
    """Whether player p has any action but passing."""
    if _free_spot(state, "price", state["price_uses"]):
        return True
    return _supply_left(rules, state, p)


def _supply_left(rules, state: dict, p: int | None = None) -> bool:
    """A bottle, claim or build is possible (for p, or for anyone)."""
    if state["pieces_left"] > 0:
        return True
    if corner_spots(state) and any(c > 0 and _free_spot(state, "bottle", state["used"].count(d))
                                   for d, c in state["crates"].items()):
        return True
    who = range(len(state["players"])) if p is None else [p]
    if any(state["players"][q]["discs"] > 0 and state["players"][q]["pyramids"] > 0 for q in who):
        for a, b in all_edges(state):
            if edge_key(a, b) not in state["edges"] and (claimable(state, key(a)) or claimable(state, key(b))):
                return True
    return False


# --------------------------------------------------------------------------------------------- apply
def apply(rules, state: dict, move: dict, ctx) -> dict:
    s = copy(state)
    s["last"] = None
    t = move["type"]
    if t == "turn-order":
        s["order"], s["phase"] = list(move["order"]), "bid"
        s["last"] = {"order": list(move["order"])}
        return s
    p = move["player"]
    pl = s["players"][p]
    if t == "bid":
        s["bids"][str(p)] = move["amount"]
        if len(s["bids"]) == len(s["players"]):
            _reveal(s)
        return s
    free = s["bonus"] is not None
    if t == "bottle":
        d = move["drink"]
        s["crates"][d] -= 1
        s["corners"][key(move["corner"])] = d
        s["used"].append(d)
    elif t == "price":
        coin = rules.data.izakaya.coin
        s["prices"][move["from"]] -= coin
        s["prices"][move["to"]] += coin
        s["price_uses"] += 1
    elif t == "claim":
        ek = edge_key(*move["edge"])
        s["edges"][ek] = p
        s["owners"][key(move["site"])] = p
        pl["discs"] -= 1
        pl["pyramids"] -= 1
        lines = new_lines(state, p, ek)
        if lines:
            # each straight line of 3 earns one free piece, however the discs went down: four in a
            # row hold two lines, and two free pieces whether the middle disc goes last or not
            s["lines"] += lines
            s["bonus"], s["bonus_left"] = p, len(lines)
            s["last"] = {"line": p, "lines": len(lines)}
            return s                               # the free pieces come before the next turn
    elif t == "build":
        k, b = key(move["site"]), move.get("building", 0)
        have = s["buildings"].setdefault(k, [])
        if b == len(have):
            have.append({"floors": 0, "pieces": 0})
        have[b] = {"floors": move["floors"], "pieces": have[b]["pieces"] + 1}
        s["pieces_left"] -= 1
    if free:
        # a free piece placed (or let go) uses no action disc; once the last is placed or let go,
        # the turn passes on (the claim that earned them used the disc)
        s["bonus_left"] = s.get("bonus_left", 1) - 1
        if s["bonus_left"] > 0:
            return s
        s["bonus"], s["bonus_left"] = None, 0
    return _advance(rules, s)


def _reveal(s: dict) -> None:
    bids = {int(k): v for k, v in s["bids"].items()}
    prev = {p: i for i, p in enumerate(s["order"])}
    # highest bid first; tied players swap places (their earlier order reversed)
    s["order"] = sorted(bids, key=lambda p: (-bids[p], -prev[p]))
    for p, a in bids.items():
        s["players"][p]["yen"] -= a
    s["pile"] += sum(bids.values())
    s["last"] = {"bids": {str(p): a for p, a in sorted(bids.items())}, "order": list(s["order"])}
    # the last reveal stays known (the table's "sealed" view shows it until the next one)
    s["revealed"] = {"phase_no": s["phase_no"], **s["last"]}
    s["bids"] = {}
    if s["pile"] >= s["threshold"]:
        s["final"] = True
    s["phase"], s["turn"], s["used"], s["price_uses"], s["bonus"] = "actions", 0, [], 0, None


def _advance(rules, s: dict) -> dict:
    s["turn"] += 1
    n = len(s["players"])
    if s["turn"] < rules.data.izakaya.action_discs * n:
        return s
    if s["final"] or not _supply_left(rules, s):
        s["phase"] = "over"
        return s
    s["phase"], s["turn"], s["phase_no"] = "bid", 0, s["phase_no"] + 1
    return s


# ---------------------------------------------------------------------------------------- legal moves
def legal(rules, state: dict, player=None) -> Legal:
    phase = state["phase"]
    if phase == "over":
        return Legal([])
    coin = rules.data.izakaya.coin
    if phase == "order":
        if player is not None:
            return Legal([])
        n = len(state["players"])
        orders = [[(first + i) % n for i in range(n)] for first in range(n)]
        if n > 2:
            orders.append(list(reversed(range(n))))
        return Legal([{"type": "turn-order", "order": o} for o in orders], complete=n < 3)
    if phase == "bid":
        moves = []
        for p, pl in enumerate(state["players"]):
            if player in (None, p):
                moves += [{"type": "bid", "player": p, "amount": a} for a in range(0, pl["yen"] + 1, coin)]
        return Legal(moves)
    p = current(state)
    if player not in (None, p):
        return Legal([])
    moves = []
    n = state["size"]
    if state["bonus"] is None:
        spots = corner_spots(state)
        for d, c in state["crates"].items():
            if c and _free_spot(state, "bottle", state["used"].count(d)):
                moves += [{"type": "bottle", "player": p, "drink": d, "corner": list(at)} for at in spots[:3]]
        if _free_spot(state, "price", state["price_uses"]):
            cols = list(state["prices"])
            moves += [{"type": "price", "player": p, "from": a, "to": b} for a in cols for b in cols
                      if a != b and state["prices"][a] >= coin][:6]
        pl = state["players"][p]
        if pl["discs"] and pl["pyramids"]:
            claims = []
            for a, b in all_edges(state):
                if edge_key(a, b) in state["edges"]:
                    continue
                for site in (a, b):
                    if claimable(state, key(site)):
                        claims.append({"type": "claim", "player": p, "edge": [list(a), list(b)], "site": list(site)})
            moves += claims[:8]
    if state["pieces_left"]:
        builds = []
        for r in range(n):
            for c in range(n):
                k = key((c, r))
                if k == state["blocked"]:
                    continue
                have = state["buildings"].get(k, [])
                f = have[0]["floors"] if have else 0
                builds.append({"type": "build", "player": p, "site": [c, r], "building": 0, "floors": max(1, f)})
                if have:
                    builds.append({"type": "build", "player": p, "site": [c, r], "building": 0, "floors": f + 1})
        moves += builds[::max(1, len(builds) // 6)]
    if state["bonus"] is not None or not _possible(rules, state, p):
        moves.append({"type": "pass", "player": p})
    return Legal(moves, complete=False)


def actors(state: dict) -> Actors:
    if state["phase"] == "order":                 # the table enters the order drawn
        return Actors("all", tuple(range(len(state["players"]))))
    if state["phase"] == "bid":
        return Actors("all", tuple(p for p in range(len(state["players"])) if str(p) not in state["bids"]))
    if state["phase"] == "actions":
        return Actors("one", (current(state),))
    return NOBODY


# -------------------------------------------------------------------------------------------- scoring
def payments(state: dict, prices: dict | None = None) -> list[dict]:
    """Every claimed building's payment: floors x the sum of the prices of the drinks touching its
    card (at the market prices now)."""
    prices = state["prices"] if prices is None else prices
    out = []
    for k, owner in sorted(state["owners"].items()):
        drinks = touching(state, k)
        value = sum(prices[d] for d in drinks)
        for i, b in enumerate(state["buildings"].get(k, [])):
            out.append({"player": owner, "card": k, "building": i, "floors": b["floors"],
                        "drinks": drinks, "value": value, "yen": b["floors"] * value})
    return out


def result_of(rules, state: dict):
    if state["phase"] != "over":
        return None
    pays = payments(state)
    rows = []
    for p, pl in enumerate(state["players"]):
        parts = [("Yen kept", pl["yen"])]
        for pay in pays:
            if pay["player"] == p:
                drinks = " + ".join(f"{rules.data.drink[d].name} {yen(state['prices'][d])}" for d in pay["drinks"])
                parts.append((f"{rules.card_label(state, pay['card'])}"
                              f"{' (2nd building)' if pay['building'] else ''}: {count(pay['floors'], 'floor')} x "
                              + (f"({drinks})" if len(pay["drinks"]) > 1 else drinks or yen(0)), pay["yen"]))
        rows.append(score_row(p, pl["name"], parts, kept=pl["yen"]))
    return result(leaders(rows, lambda r: r["kept"]), "yen", rows)


def describe(rules, state: dict, move: dict) -> str:
    t = move.get("type")
    if t == "turn-order":
        return "Turn order drawn: " + ", ".join(name(state, p) for p in move["order"]) + "."
    who = name(state, move["player"])
    if t == "bid":
        if str(move["player"]) in state.get("bids", {}):
            return f"{who} changes their sealed bid."
        return f"{who} bids (sealed)."
    if t == "bottle":
        return f"{who} places a {move['drink']} drink on corner {move['corner']}."
    if t == "price":
        return f"{who} moves 100 yen from {move['from']} to {move['to']}."
    if t == "claim":
        return f"{who} claims {rules.card_label(state, key(move['site']))}."
    if t == "build":
        free = " a free piece" if state.get("bonus") is not None else ""
        return f"{who} builds{free} on {rules.card_label(state, key(move['site']))} ({count(move['floors'], 'floor')})."
    if state.get("bonus") is not None:
        return f"{who} lets a free piece go."
    return f"{who} passes."


def phase_key(state: dict):
    """The sealed bids of one round are simultaneous (contract.phase): ["bid", n]; actions take turns."""
    return ["bid", state["phase_no"]] if state["phase"] == "bid" else None


def prompt(state: dict) -> str:
    if state["phase"] == "order":
        return "Draw the players' discs 1 at a time and enter the turn order."
    if state["phase"] == "bid":
        return "Bid for turn order, in secret."
    if state["phase"] == "actions":
        cur = name(state, current(state))
        if state["bonus"] is not None:
            left = state.get("bonus_left", 1)
            return f"{cur}: a line of 3! Place {'a free piece' if left == 1 else f'{left} free pieces'}."
        return f"Actions: {cur}'s turn."
    return "The game is over."


def reveal_reasons(state: dict, move: dict, after: dict) -> list[str]:
    """The bid that completes the bids reveals them all ("All reveal simultaneously")."""
    if move.get("type") == "bid" and state["phase"] == "bid" and after["phase"] != "bid":
        r = after.get("revealed") or {}
        return [f"{name(state, move['player'])}'s bid was the last: it revealed every sealed bid ("
                + reveal_text(after, r) + ")"]
    return []


def reveal_text(state: dict, r: dict) -> str:
    """"Aki ¥500 · Ben ¥300 → Aki first" (then the others in order, with more than two)."""
    bids = r.get("bids", {})
    order = r.get("order", [])
    head = " · ".join(f"{name(state, int(p))} {yen(a)}" for p, a in sorted(bids.items(), key=lambda kv: int(kv[0])))
    tail = f"{name(state, order[0])} first" if order else ""
    if len(order) > 2:
        tail += ", then " + ", ".join(name(state, p) for p in order[1:])
    return f"{head} → {tail}" if tail else head


def sealed(state: dict) -> dict | None:
    """The bids as the table sees them: who has sealed (while bidding) and the last reveal."""
    r = state.get("revealed")
    if state["phase"] not in ("bid", "actions", "over") or (state["phase"] != "bid" and not r):
        return None
    seats = ([{"seat": p, "sealed": str(p) in state["bids"]} for p in range(len(state["players"]))]
             if state["phase"] == "bid" else [])
    reveal = None
    if r:
        values = [{"seat": int(p), "value": a, "text": yen(a)}
                  for p, a in sorted(r["bids"].items(), key=lambda kv: int(kv[0]))]
        reveal = {"id": f"bids-{r['phase_no']}-" + "-".join(f"{v['seat']}:{v['value']}" for v in values)
                  + "-" + "".join(str(p) for p in r["order"]),
                  "title": f"Bids revealed (round {r['phase_no']})",
                  "text": reveal_text(state, r), "values": values}
    return {"label": "bids", "seats": seats, "reveal": reveal}


def secret_paths(state: dict, seat: int) -> list[tuple]:
    return [("bids", str(seat))] if str(seat) in state.get("bids", {}) else []


def hide_bids(state: dict, viewer) -> dict:
    from companion.games.contract import HOST
    bids = {p: (a if viewer == HOST or str(viewer) == p else "sealed") for p, a in state["bids"].items()}
    return {**state, "bids": bids}


__all__ = ["IllegalMove"]
