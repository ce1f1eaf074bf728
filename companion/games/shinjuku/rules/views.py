"""Read-only helpers for the web layer: the ward page, what to enter next, a player's view of the
state (hidden information removed), one-line move descriptions, who may act, undo policy."""
from __future__ import annotations

from companion.games.contract import HOST

from . import cards as cd
from . import moves as mv
from . import state as st
from .index import Index, with_article
from .movement import simulate


def ward_view(ix: Index, ward: str, state: dict | None = None, player: int | None = None) -> dict:
    """The ward page: its stations (sakura flag, connections), neighbours and copies in the deck;
    with a state also the stores, track owners and customers there, whether the Matsuri is there,
    and for which players a card of this ward is wild (and why)."""
    if ward not in ix.ward_name:
        raise KeyError(ward)
    w = ix.data.ward[ward]
    stations = []
    for sid in ix.stations_in[ward]:
        s = ix.data.station[sid]
        conns = []
        for other, cid in ix.adjacency[sid]:
            c = {"connection": cid, "station": other, "name": ix.sname(other),
                 "ward": ix.station_ward[other], "prebuilt": cid in ix.prebuilt}
            if state is not None:
                c["built"] = cid in state["tracks"]
                c["owner"] = state["tracks"].get(cid)
            conns.append(c)
        row = {"id": sid, "name": s.name, "kanji": s.kanji, "sakura": s.sakura, "connections": conns}
        if state is not None:
            row["store"] = state["stations"].get(sid)
        stations.append(row)
    view = {"ward": ward, "number": w.number, "name": w.name, "kanji": w.kanji, "colour": w.colour,
            "cards": w.cards,
            "neighbours": [{"id": n, "name": ix.wname(n)} for n in w.neighbours],
            "stations": stations}
    if state is not None:
        view["customers"] = list(state["wards"][ward])
        view["matsuri"] = state["matsuri"] == ward
        view["wild"] = [{"player": p, "name": pl["name"], "wild": bool(why), "why": why}
                        for p, pl in enumerate(state["players"])
                        for why in [cd.wild_reasons(ix, state, p, ward)]]
        if isinstance(player, int) and not isinstance(player, bool) and 0 <= player < len(state["players"]):
            why = cd.wild_reasons(ix, state, player, ward)
            view["wild_for_player"] = bool(why)
            view["wild_why"] = why
            hand = state["players"][player].get("hand")      # None in another player's public view
            view["in_hand"] = hand.count(ward) if isinstance(hand, list) else None
    return view


def _pool(state: dict) -> int:
    if state["deck"] is None:
        return state.get("deck_size", 0) + len(state["discard"]) + state.get("discard_unnamed", 0)
    return st.card_pool(state)


def _income(ix: Index, state: dict, p: int) -> int:
    pl = state["players"][p]
    hand = len(pl["hand"]) if pl.get("hand") is not None else pl.get("hand_size", 0)
    return min(ix.income_hand - hand if hand < ix.income_hand else 1, _pool(state))


def needs(ix: Index, state: dict) -> dict:
    """What the table must do next: phase, who may move, and (table mode) what to enter.
    Works on the full state and on a public_view."""
    phase = state["phase"]
    out = {"phase": phase, "prompt": mv.expected(ix, state), "moves": list(mv.PHASE_MOVES[phase])}
    if st.named(state):                 # named hands: no hand is entered at the deal
        out["moves"] = [m for m in out["moves"] if m != "deal-hand"]
    if phase in ("place", "matsuri", "actions"):
        out["players"] = [state["current"]]
    elif phase == "bonus":
        out["players"] = list(state["bonus"])
    else:
        out["players"] = []
    table = state["mode"] == st.TABLE
    if phase == "place" and table:
        placed = len(state["queue"][0]["customers"])
        out["enter"] = {"cards": min(1, _pool(state)),
                        "customers": min(placed, len(state["bag"]))}
    if phase == "matsuri":
        out["wards"] = list(ix.neighbours[state["matsuri"]])
    if phase in ("actions", "bonus"):
        out["actions_left"] = [a for a in mv.ACTIONS if a not in state["actions"]] if phase == "actions" else ["income"]
        if table:
            out["income_cards"] = {str(p): _income(ix, state, p) for p in out["players"]}
    return out


def public_view(ix: Index, state: dict, viewer=None) -> dict:
    """The state as `viewer` may see it: a seat index, None (a spectator) or HOST (the phone passed
    around the table: every hand). Hidden from everyone: the seed and the deck (its order in
    companion mode; in table mode its content, which with the discard pile and the queue would
    give away the hands), "deck_size" instead; the bag's order (its content is public: every
    drawn customer is on the table), so it is sorted. Hidden from all but HOST and their own seat:
    the hands (their sizes stay, "hand_size") and the cards drawn into them. Table mode:
    "conflicts" (state.conflicts) lists entries that cannot all be right as this viewer may know
    it (the host: every one; a seat: its own hand against the public cards; a spectator: none),
    and "owed" (its bookkeeping) is the host's only.

    A new dict for every part it changes; the rest is shared with `state` (states are never
    changed in place: apply makes a new one), which spares a deep copy on every read."""
    view = dict(state)
    view["seed"] = None
    view["deck"] = None
    view["deck_size"] = st.deck_size(state)
    if state.get("mode") == st.TABLE:
        view["owed"] = list(st.owed(state)) if viewer == HOST else None
        view["conflicts"] = st.conflicts(ix, state, viewer)
    view["bag"] = ix.sorted_bag(state["bag"])
    everyone = viewer == HOST
    view["players"] = [{**pl, "hand_size": st.hand_size(state, p),
                        "hand": pl["hand"] if everyone or p == viewer else None}
                       for p, pl in enumerate(state["players"])]
    last = state.get("last")
    if last and "drawn" in last and last.get("player") != viewer and viewer != HOST:
        view["last"] = {**last, "drawn": len(last["drawn"])}   # drawn into a hand: only how many
    return view


#: Moves whose "cards" are drawn into the mover's hand (table mode): private to that player.
PRIVATE_CARDS = ("deal-hand", "income")


def public_move(ix: Index, move: dict, viewer=None) -> dict:
    """A logged move as `viewer` may see it: cards drawn into another player's hand become their
    number, as public_view does for the hand itself (HOST sees them)."""
    if (viewer != HOST and isinstance(move, dict) and move.get("type") in PRIVATE_CARDS
            and isinstance(move.get("cards"), list) and move.get("player") != viewer):
        return {**move, "cards": len(move["cards"])}
    if (viewer != HOST and isinstance(move, dict) and move.get("type") == "correct-card"
            and move.get("player") != viewer):
        return {**move, "was": None, "now": None}     # which cards a hand holds is its own
    return move


def describe(ix: Index, state: dict, move: dict, outcome: dict | None = None) -> str:
    """One history line for `move` played on `state` (the state before the move). `outcome`: a
    Move Customers' movement.simulate outcome on `state`, when the caller has it (apply just
    worked it out: ShinjukuRules.describe); else it is worked out here."""
    if not isinstance(move, dict):
        return "?"
    t = move.get("type")
    who = st.player_name(state, move.get("player")) if "player" in move else "The table"

    def card_words() -> str:
        c = move.get("card")
        if isinstance(c, int) and not isinstance(c, bool):
            return " with three cards as one wild"
        if isinstance(c, list) and len(c) > 1:
            return " with three cards as one wild (" + ", ".join(ix.wname(x) for x in c) + ")"
        if isinstance(c, list) and c:
            c = c[0]
        return f" with {with_article(ix.wname(c))} card" if isinstance(c, str) else ""

    try:
        if t == "correct-card":     # (the history is public: which cards, only the hand knows)
            return f"{st.player_name(state, move.get('player'))} corrects a card entered in their hand."
        if t == "deal-hand":
            return f"{st.player_name(state, move.get('player'))}'s hand is dealt."
        if t == "seed-ward":
            return f"{ix.wname(move['ward'])} starts with " + ", ".join(ix.tname(c) for c in move["customers"]) + "."
        if t == "place-matsuri":
            return f"The Matsuri starts in {ix.wname(move['ward'])}."
        if t == "fill-queue":
            return "The customer queue is filled."
        if t == "place-customers":
            head = state["queue"][0]
            who_ = ", ".join(ix.tname(c) for c in head["customers"])
            if not _pool(state):
                return (f"{who} places {who_} in {ix.wname(head['card'])}; with no card left to draw, "
                        f"the card goes back on ④.")
            return f"{who} places {who_} in {ix.wname(head['card'])} and takes the card."
        if t == "move-matsuri":
            return f"{who} moves the Matsuri to {ix.wname(move['ward'])}."
        if t == "open-store":
            return (f"{who} opens {with_article(ix.type_name.get(move['goods'], move['goods']))} store at "
                    f"{ix.sname(move['station'])}{card_words()}.")
        if t == "expand-track":
            segs = [move["connection"]] + ([move["second"]] if move.get("second") else [])
            words = []
            for seg in segs:
                a, b = ix.conn_ends[seg] if isinstance(seg, str) else seg
                words.append(f"{ix.sname(a)}–{ix.sname(b)}")
            return f"{who} builds track {' and '.join(words)}{card_words() if move.get('second') else ''}."
        if t == "upgrade-store":
            return (f"{who} upgrades the store at {ix.sname(move['station'])} to a department store, "
                    f"spending {with_article(ix.tname(move['customer']))} customer{card_words()}.")
        if t == "income":
            bonus = " (track bonus)" if state.get("phase") == "bonus" else ""
            return f"{who} draws income{bonus}."
        if t == "decline-income":
            return f"{who} declines the track bonus income."
        if t == "move-customers":
            path = move["path"]
            route = (f"from {ix.sname(path[0])} to {ix.sname(path[-1])}" if len(path) > 1
                     else f"at {ix.sname(path[0])} only")
            line = (f"{who} moves the customers of {ix.wname(ix.station_ward[path[0]])} {route}"
                    f"{card_words()}.")
            if outcome is None:
                outcome, reasons = simulate(ix, state, move.get("player"), path, move.get("take"))
                if reasons:
                    return line
            return f"{line} {delivery_words(ix, state, outcome)}"
    except (KeyError, TypeError, ValueError, IndexError):
        pass
    return f"{who}: {t}"


def customer_words(ix: Index, token: str) -> str:
    """A token as the customers it counts as: "a food customer", "2 books customers"."""
    goods, value = ix.token.get(token, (token, 1))
    name = ix.type_name.get(goods, goods).lower()
    return f"{value} {name} customers" if value > 1 else with_article(f"{name} customer")


def delivery_words(ix: Index, state: dict, outcome: dict) -> str:
    """Who got what on a Move Customers (movement.simulate's outcome), for the history:
    "Aki's Ikebukuro store took 2 food customers. A books customer stays in Shinjuku."
    """
    took = []
    for d in outcome["deliveries"]:
        store = state["stations"][d["station"]]
        kind = "department store" if store["kind"] == "department-store" else "store"
        took.append(f"{st.player_name(state, d['owner'])}'s {ix.sname(d['station'])} {kind} took "
                    f"{customer_words(ix, d['customer'])}")
    words = ("; ".join(took) + ".") if took else "No store on the way took a customer."
    left: dict[str, int] = {}
    for token in outcome["leftovers"]:
        goods, value = ix.token.get(token, (token, 1))
        left[goods] = left.get(goods, 0) + value
    if left:
        groups = [(f"{n} {ix.type_name.get(g, g).lower()} customers" if n > 1
                   else with_article(f"{ix.type_name.get(g, g).lower()} customer")) for g, n in left.items()]
        verb = "stays" if sum(left.values()) == 1 else "stay"
        text = (groups[0] if len(groups) == 1 else ", ".join(groups[:-1]) + " and " + groups[-1])
        words += f" {text[:1].upper()}{text[1:]} {verb} in {ix.wname(outcome['to'])}."
    return words


def reveals(ix: Index, state: dict, move: dict) -> list[str]:
    """In companion mode a move that drew from the deck or the bag is a reveal: a seat undoing it
    would see the next cards and choose again, so only the host may take it back (the same cards
    come again: the draw is the seed's). In table mode every move can be undone (typos)."""
    if state.get("mode") != st.COMPANION or not isinstance(move, dict):
        return []
    t = move.get("type")
    if t in ("place-customers", "income"):
        return ["cards or customers were drawn from the companion's deck or bag"]
    return []
