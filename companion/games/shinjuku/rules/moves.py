"""Every move: checking it (reasons a player understands) and applying it to a copy of the state.

Each handler `(ix, state, move, act) -> reasons` first checks everything; only when the move is
legal and `act` is true does it change `state` (which is then always a private copy, see
ShinjukuRules.apply). The move format is described in the package docstring.

A turn has no "end turn" move: "Choose any two of the following actions (must be different
actions)" — the turn ends by itself after the second action, or at once after Income, which is
always possible (it draws what it can, possibly nothing), so two actions always are.
"""
from __future__ import annotations


from . import cards as cd
from . import setup as su
from . import state as st
from .index import Index, with_article
from .movement import simulate

ACTIONS = ("open-store", "expand-track", "upgrade-store", "income", "move-customers")
ACTION_WORDS = {
    "open-store": "opened a store",
    "expand-track": "expanded your track",
    "upgrade-store": "upgraded a store",
    "income": "drawn income",
    "move-customers": "moved customers",
}

#: which move types each phase accepts
PHASE_MOVES = {
    "deal": ("deal-hand", "seed-ward", "place-matsuri", "fill-queue"),
    "place": ("place-customers",),
    "matsuri": ("move-matsuri",),
    "actions": ACTIONS,
    "bonus": ("income", "decline-income"),
    "over": (),
}
#: moves a player may make whatever the phase and whoever's turn it is (not once the game is over)
ANY_TIME = ("correct-card",)
ALL_MOVES = tuple(dict.fromkeys(t for ts in PHASE_MOVES.values() for t in ts)) + ANY_TIME

#: fields each move type may carry (besides "type" and "player")
FIELDS = {
    "deal-hand": ("cards",),
    "seed-ward": ("ward", "customers"),
    "place-matsuri": ("ward",),
    "fill-queue": ("cards", "customers"),
    "place-customers": ("card", "customers"),
    "move-matsuri": ("ward",),
    "open-store": ("card", "station", "goods"),
    "expand-track": ("connection", "second", "card"),
    "upgrade-store": ("card", "station", "customer"),
    "income": ("cards",),
    "move-customers": ("card", "path", "take"),
    "decline-income": (),
    "correct-card": ("was", "now"),
}

#: the reason given for the "end-turn" move of earlier versions (logs, old pages)
NO_END_TURN = ("There is no end-turn move: \"Choose any two of the following actions (must be different "
               "actions)\". The turn ends by itself after the second action, or at once after Income, "
               "which is always possible.")


def expected(ix: Index, state: dict) -> str:
    """One sentence: what the table is waiting for."""
    phase = state["phase"]
    who = st.player_name(state, state["current"])
    if phase == "deal":
        d = state["deal"]
        todo = []
        missing = [st.player_name(state, p) for p, done in enumerate(d["hands"]) if not done]
        if missing:
            todo.append("the hands of " + ", ".join(missing))
        if len(d["seeded"]) < ix.seed_wards:
            left = ix.seed_wards - len(d["seeded"])
            todo.append(f"{left} more starting ward{'' if left == 1 else 's'} with {'its' if left == 1 else 'their'} "
                        "customers")
        if not d["matsuri"]:
            todo.append("the Matsuri ward")
        if not d["queue"]:
            todo.append("the customer queue")
        return "The game is being set up: enter " + "; ".join(todo) + "."
    if phase == "place":
        return f"{who} starts the turn by placing the customers from the head of the queue."
    if phase == "matsuri":
        return f"{who} moves the Matsuri from {ix.wname(state['matsuri'])} to a neighbouring ward."
    if phase == "actions":
        if state["actions"]:
            return f"{who} takes a second action, different from the first (Income is always possible)."
        return f"{who} takes two different actions (Income ends the turn at once)."
    if phase == "bonus":
        names = ", ".join(st.player_name(state, p) for p in state["bonus"])
        return f"Waiting for {names} to take or decline the Income their track earned."
    return "The game is over."


def _player(ix: Index, state: dict, move: dict, mtype: str) -> tuple[int | None, list[str]]:
    p = move.get("player")
    n = len(state["players"])
    if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < n:
        return None, [f"Say which player makes the move (\"player\": 0 to {n - 1})."]
    phase = state["phase"]
    if phase == "bonus":
        if p not in state["bonus"]:
            return None, [f"{st.player_name(state, p)} has no Income to take now. " + expected(ix, state)]
    elif p != state["current"]:
        return None, [f"It is {st.player_name(state, state['current'])}'s turn, "
                      f"not {st.player_name(state, p)}'s."]
    return p, []


def check_shape(ix: Index, state: dict, move) -> tuple[str | None, list[str]]:
    if not isinstance(move, dict):
        return None, ["A move is an object with a \"type\", e.g. {\"type\": \"income\", \"player\": 0}."]
    mtype = move.get("type")
    if mtype == "end-turn":
        return None, [NO_END_TURN]
    if not isinstance(mtype, str) or mtype not in ALL_MOVES:
        return None, [f"Unknown move type {mtype!r} (known: {', '.join(ALL_MOVES)})."]
    extra = sorted((k for k in move if k not in ("type", "player") + FIELDS[mtype]), key=repr)
    if extra:
        return None, [f"{with_article(mtype, capital=True)} move has no field {extra[0]!r}."]
    phase = state["phase"]
    if mtype in ANY_TIME and phase != "over":
        return mtype, []
    if mtype not in PHASE_MOVES[phase]:
        if phase == "over":
            return None, ["The game is over."]
        return None, [f"{with_article(mtype, capital=True)} move is not possible now. " + expected(ix, state)]
    return mtype, []


def run(ix: Index, state: dict, move, act: bool) -> list[str]:
    mtype, reasons = check_shape(ix, state, move)
    if reasons:
        return reasons
    if mtype == "correct-card":
        return correct_card(ix, state, move, act)
    if state["phase"] == "deal":
        return DEAL[mtype](ix, state, move, act)
    p, reasons = _player(ix, state, move, mtype)
    if reasons:
        return reasons
    if mtype in ACTIONS and state["phase"] == "actions" and mtype in state["actions"]:
        return [f"You have already {ACTION_WORDS[mtype]} this turn; the two actions must be different."]
    if act:
        state["last"] = {"move": mtype, "player": p}
    return HANDLERS[mtype](ix, state, move, p, act)


def _table_only(state: dict, move: dict, fields: tuple[str, ...]) -> list[str]:
    if state["mode"] == st.COMPANION:
        given = [f for f in fields if f in move]
        if given:
            return [f"The companion draws for this table; leave out {given[0]!r}."]
    return []


# ---------------------------------------------------------------------------------------------
# Start of turn

def place_customers(ix: Index, state: dict, move: dict, p: int, act: bool) -> list[str]:
    """Take ①'s customers to the ward of its card and the card into the hand; slide the queue;
    draw a card for ④; add as many customers as were placed (fewer once the bag runs out).

    When no card can be drawn for ④ (the deck and the discard pile are both empty: every other
    card is in a hand), the card just taken from ① goes back on ④ instead of into the hand, so the
    queue never loses a card and can always take the customers drawn (see the package docstring)."""
    reasons = _table_only(state, move, ("card", "customers"))
    if reasons:
        return reasons
    head = state["queue"][0]
    placed = list(head["customers"])
    ward = head["card"]
    pool = st.card_pool(state)                 # cards that can be drawn for ④
    want_customers = min(len(placed), len(state["bag"]))
    if state["mode"] == st.TABLE:
        card = move.get("card")
        if pool == 0:
            if card is not None:
                return [f"The deck and the discard pile are empty: the {ix.wname(ward)} card taken from "
                        f"① goes back on ④ (leave out \"card\")."]
        else:
            if not isinstance(card, str):
                return ["Enter the ward card drawn for queue space ④ (\"card\": a ward id)."]
            if st.named(state):
                reasons = st.check_face_up(ix, state, [card], 1, "card for queue space ④")
            else:
                reasons = st.check_entered_cards(ix, state, [card], 1, "card for queue space ④",
                                                 own=state["players"][p]["hand"])
        reasons = reasons or st.check_entered_customers(
            ix, state, move.get("customers", []), want_customers,
            f"customers drawn from the bag (as many as were placed: {len(placed)})")
    if reasons or not act:
        return reasons

    if placed:
        state["wards"][ward] = ix.sort_tokens(state["wards"][ward] + placed)
    state["queue"] = state["queue"][1:]
    if pool:
        st.add_to_hand(ix, state, p, [ward])
        if state["mode"] == st.COMPANION:
            (new,) = st.draw_cards(ix, state, 1)
        elif st.named(state):
            (new,) = st.take_face_up(state, [move["card"]])
        else:
            (new,) = st.take_entered_cards(ix, state, [move["card"]])
    else:
        new = ward                               # nothing to draw: ①'s card goes back on ④
    if state["mode"] == st.COMPANION:
        drawn = st.draw_customers(state, len(placed))
    else:
        drawn = st.take_entered_customers(state, list(move.get("customers", [])))
    state["queue"].append({"card": new, "customers": []})
    for token in drawn:
        st.queue_add(ix, state, token)
    state["last"].update({"ward": ward, "placed": placed, "card_taken": ward if pool else None,
                          "queue_card": new, "customers_drawn": drawn})
    # "When the last customer is drawn from the bag, play continues until the customer queue is
    # emptied": the final round starts once the bag is empty and the queue holds no customer.
    if not state["bag"] and not st.queue_customers(state) and not state["final_round"]:
        state["final_round"] = True
        state["last"]["final_round"] = True
    state["phase"] = "matsuri"
    return []


def move_matsuri(ix: Index, state: dict, move: dict, p: int, act: bool) -> list[str]:
    ward = move.get("ward")
    here = state["matsuri"]
    options = ix.neighbours[here]
    if ward not in options:
        where = ", ".join(ix.wname(w) for w in options)
        if isinstance(ward, str) and ward in ix.ward_name:
            return [f"{ix.wname(ward)} is not next to {ix.wname(here)}; the Matsuri can move to: {where}."]
        return [f"Say where the Matsuri goes (\"ward\"): one of {where}."]
    if not act:
        return []
    state["matsuri"] = ward
    state["last"].update({"from": here, "ward": ward})
    state["phase"] = "actions"
    state["actions"] = []
    return []


# ---------------------------------------------------------------------------------------------
# Actions

def open_store(ix: Index, state: dict, move: dict, p: int, act: bool) -> list[str]:
    station = move.get("station")
    if not isinstance(station, str) or station not in ix.station_ward:
        return ["Say at which station the store opens (\"station\": a station id)."]
    if station in state["stations"]:
        owner = st.player_name(state, state["stations"][station]["owner"])
        return [f"{ix.sname(station)} already has a store ({owner}'s); open it at an empty station."]
    goods = move.get("goods")
    if not isinstance(goods, str) or goods not in ix.stores_by_type:
        return [f"Say what the store sells (\"goods\": one of {', '.join(ix.stores_by_type)})."]
    me = state["players"][p]
    if me["stores"][goods] < 1:
        return [f"You have no {ix.type_name.get(goods, goods)} store left."]
    ward = ix.station_ward[station]
    cards, reasons = cd.check_play(ix, state, p, move.get("card"), [ward])
    if reasons or not act:
        return reasons
    cd.spend(ix, state, p, cards)
    me["stores"] = {**me["stores"], goods: me["stores"][goods] - 1}   # (new records: clone shares them)
    state["stations"][station] = {"owner": p, "kind": "store", "goods": goods}
    state["stations"] = dict(sorted(state["stations"].items()))
    state["last"].update({"station": station, "goods": goods, "cards": cards})
    state["actions"] = state["actions"] + ["open-store"]
    st.after_action(ix, state)
    return []


def _connection(ix: Index, value, label: str) -> tuple[str | None, list[str]]:
    if isinstance(value, str) and value in ix.conn_ends:
        return value, []
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(s, str) for s in value)):
        return None, [f"Give the {label} as its two stations (e.g. [\"nakano\", \"koenji\"])."]
    a, b = value
    for s in (a, b):
        if s not in ix.station_ward:
            return None, [f"There is no station called {s!r}."]
    if a == b:
        return None, [f"A track segment joins two different stations ({ix.sname(a)} is given twice)."]
    cid = ix.conn_by_pair.get(frozenset((a, b)))
    if cid is None:
        return None, [f"{ix.sname(a)} and {ix.sname(b)} are not connected on the map."]
    return cid, []


def _conn_words(ix: Index, cid: str) -> str:
    a, b = ix.conn_ends[cid]
    return f"{ix.sname(a)}–{ix.sname(b)}"


def expand_track(ix: Index, state: dict, move: dict, p: int, act: bool) -> list[str]:
    me = state["players"][p]
    first, reasons = _connection(ix, move.get("connection"), "track (\"connection\")")
    if reasons:
        return reasons
    if first in state["tracks"]:
        return [f"There is already track on {_conn_words(ix, first)}; build on an empty connection."]
    if me["track"] < 1:
        return ["You have no track left."]
    second = cards = None
    if move.get("second") is not None:
        second, reasons = _connection(ix, move["second"], "second segment (\"second\")")
        if reasons:
            return reasons
        if second == first:
            return ["The second segment must be on another connection than the first."]
        if second in state["tracks"]:
            return [f"There is already track on {_conn_words(ix, second)}; build on an empty connection."]
        if not set(ix.conn_ends[first]) & set(ix.conn_ends[second]):
            return [f"The second segment must be connected to the first: {_conn_words(ix, second)} "
                    f"does not touch {_conn_words(ix, first)}."]
        if me["track"] < 2:
            return ["You have only one track segment left."]
        ends = list(dict.fromkeys(ix.station_ward[s] for s in ix.conn_ends[first]))
        if move.get("card") is None:
            return ["A second segment costs a card matching either end of the first segment "
                    "(\"card\")."]
        cards, reasons = cd.check_play(ix, state, p, move.get("card"), ends)
        if reasons:
            return reasons
    elif move.get("card") is not None:
        return ["A card is spent only for a second segment; add \"second\" or leave out \"card\"."]
    if not act:
        return []
    built = [first] + ([second] if second else [])
    for cid in built:
        state["tracks"][cid] = p
        me["track"] -= 1
    state["tracks"] = dict(sorted(state["tracks"].items()))
    if cards:
        cd.spend(ix, state, p, cards)
    state["last"].update({"tracks": built, "cards": cards or []})
    state["actions"] = state["actions"] + ["expand-track"]
    st.after_action(ix, state)
    return []


def upgrade_store(ix: Index, state: dict, move: dict, p: int, act: bool) -> list[str]:
    me = state["players"][p]
    station = move.get("station")
    if not isinstance(station, str) or station not in ix.station_ward:
        return ["Say which store you upgrade (\"station\": a station id)."]
    store = state["stations"].get(station)
    if store is None or store["owner"] != p:
        return [f"You have no store at {ix.sname(station)}."]
    if store["kind"] != "store":
        return [f"The store at {ix.sname(station)} is already a department store."]
    if station not in ix.sakura:
        return [f"{ix.sname(station)} has no sakura (department store) mark; only stores at those "
                f"stations can be upgraded."]
    if me["department_stores"] < 1:
        return ["You have no department store left."]
    token = move.get("customer")
    goods = store["goods"]
    if not isinstance(token, str) or token not in ix.token:
        return [f"Say which of your {ix.type_name[goods]} customers you spend (\"customer\": "
                f"\"{goods}\" or \"{goods}-2\")."]
    if ix.token[token][0] != goods:
        return [f"The store at {ix.sname(station)} sells {ix.type_name[goods]}; spend "
                f"{with_article(ix.type_name[goods])} customer, not {ix.tname(token)}."]
    if token not in me["customers"]:
        return [f"You have no {ix.tname(token)} customer to spend."]
    cards, reasons = cd.check_play(ix, state, p, move.get("card"), [ix.station_ward[station]])
    if reasons or not act:
        return reasons
    cd.spend(ix, state, p, cards)
    customers = list(me["customers"])    # (new records: clone shares them with the state before)
    customers.remove(token)
    me["customers"] = customers
    st.queue_add(ix, state, token)
    me["stores"] = {**me["stores"], goods: me["stores"][goods] + 1}
    me["department_stores"] -= 1
    state["stations"][station] = {"owner": p, "kind": "department-store", "goods": None}
    bonus = None
    if state["bonus_stack"]:
        bonus, state["bonus_stack"] = state["bonus_stack"][0], state["bonus_stack"][1:]
        me["bonus_tokens"] = me["bonus_tokens"] + [bonus]
    state["last"].update({"station": station, "customer": token, "cards": cards, "bonus_token": bonus})
    state["actions"] = state["actions"] + ["upgrade-store"]
    st.after_action(ix, state)
    return []


def income_count(ix: Index, state: dict, p: int) -> tuple[int, int]:
    """(cards the Income action draws, cards that can actually be drawn)."""
    hand = st.hand_size(state, p)
    n = ix.income_hand - hand if hand < ix.income_hand else 1
    return n, min(n, st.card_pool(state))


def income(ix: Index, state: dict, move: dict, p: int, act: bool) -> list[str]:
    reasons = _table_only(state, move, ("cards",))
    if reasons:
        return reasons
    n, k = income_count(ix, state, p)
    if st.named(state):
        # the cards go face down into the hand: nobody enters them (how many is public)
        if move.get("cards") is not None:
            return ["At this table the cards drawn stay in the hand unseen: leave out \"cards\" "
                    f"(the companion counts them: {k} card{'s' if k != 1 else ''})."]
        if not act:
            return []
        drawn_n = st.draw_hidden(state, n)
        state["players"][p]["hand_size"] += drawn_n
        state["last"].update({"drawn_count": drawn_n})
        _income_taken(ix, state, p)
        return []
    if state["mode"] == st.TABLE:
        # Nothing left to draw: "cards" may be left out (as "customers" when the bag is empty).
        cards = [] if k == 0 and move.get("cards") is None else move.get("cards")
        reasons = st.check_entered_cards(ix, state, cards, k,
                                         f"cards drawn as income ({n} for a hand of "
                                         f"{len(state['players'][p]['hand'])})",
                                         own=state["players"][p]["hand"])
    if reasons or not act:
        return reasons
    if state["mode"] == st.COMPANION:
        drawn = st.draw_cards(ix, state, n)
    else:
        drawn = st.take_entered_cards(ix, state, move.get("cards") or [])
    st.add_to_hand(ix, state, p, drawn)
    state["last"].update({"drawn": ix.sort_cards(drawn)})
    _income_taken(ix, state, p)
    return []


def _income_taken(ix: Index, state: dict, p: int) -> None:
    """Income is over: a track bonus answered (the bonus phase), or the turn's action."""
    if state["phase"] == "bonus":
        state["last"]["bonus"] = True
        state["bonus"] = _without(state["bonus"], p)
    else:
        state["actions"] = state["actions"] + ["income"]
    st.after_action(ix, state)


def _without(items: list, item) -> list:
    """A new list: `items` less the first `item` (the state's lists are never changed in place:
    clone shares them with the state before the move)."""
    rest = list(items)
    rest.remove(item)
    return rest


def decline_income(ix: Index, state: dict, move: dict, p: int, act: bool) -> list[str]:
    if act:
        state["bonus"] = _without(state["bonus"], p)
        st.after_action(ix, state)
    return []


def move_customers(ix: Index, state: dict, move: dict, p: int, act: bool) -> list[str]:
    outcome, reasons = simulate(ix, state, p, move.get("path"), move.get("take"))
    if reasons:
        return reasons
    cards, reasons = cd.check_play(ix, state, p, move.get("card"), [outcome["ward"]])
    if reasons or not act:
        return reasons
    cd.spend(ix, state, p, cards)
    state["wards"][outcome["ward"]] = []
    for d in outcome["deliveries"]:
        owner = state["players"][d["owner"]]
        owner["customers"] = ix.sort_tokens(owner["customers"] + [d["customer"]])
    to = outcome["to"]
    state["wards"][to] = ix.sort_tokens(state["wards"][to] + outcome["leftovers"])
    state["bonus"] = list(outcome["bonus"])
    state["last"].update({"cards": cards, "path": list(move["path"]), "ward": outcome["ward"],
                          "deliveries": outcome["deliveries"], "leftovers": outcome["leftovers"],
                          "to": to, "tracks": outcome["tracks"], "income_for": outcome["bonus"]})
    state["actions"] = state["actions"] + ["move-customers"]
    st.after_action(ix, state)
    return []


def correct_card(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    """Table mode: a card entered wrongly into a hand (a dealt hand, an income draw) is set right:
    "I entered Ota, it was Nakano". The wrong card goes back among the cards still to draw, the
    right one leaves them (it must be one that can still be there, judged on public information
    and this hand), and nothing played since is undone. A card already played is not corrected
    this way (undo is for that). It also fixes a conflict (state.conflicts): the wrong card
    settles the owed one."""
    if state["mode"] != st.TABLE:
        return ["The companion draws the cards at this table: there is nothing to correct."]
    if st.named(state):
        return ["At this table hands are not entered (a card is named when it is played): there is "
                "nothing to correct; a card entered for the queue is set right with undo."]
    n = len(state["players"])
    p = move.get("player")
    if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < n:
        return [f"Say whose hand it is (\"player\": 0 to {n - 1})."]
    was, now = move.get("was"), move.get("now")
    for field, value in (("was", was), ("now", now)):
        if not isinstance(value, str) or value not in ix.card_counts:
            return [f"Say which ward card {'was entered' if field == 'was' else 'it really is'} "
                    f"(\"{field}\": a ward id)."]
    if was == now:
        return [f"That is the same card ({ix.wname(was)}): nothing to correct."]
    hand = state["players"][p]["hand"]
    if was not in hand:
        return [f"{st.player_name(state, p)} has no {ix.wname(was)} card in hand to correct (a card "
                "already played is set right with undo)."]
    rest = list(hand)
    rest.remove(was)
    pool = st.public_pool(ix, state, own=rest)      # public information and this hand only
    if pool[now] < 1:
        return [f"It cannot have been {with_article(ix.wname(now))} card: all {ix.card_counts[now]} "
                f"are accounted for (in the queue and {st.player_name(state, p)}'s hand)."]
    if not act:
        return []
    hand = list(hand)                   # (a new hand: clone shares it with the state before)
    hand.remove(was)
    state["players"][p]["hand"] = hand
    st.return_card(ix, state, was)
    st.take_entered_cards(ix, state, [now])
    st.add_to_hand(ix, state, p, [now])
    return []


DEAL = {
    "deal-hand": su.deal_hand,
    "seed-ward": su.seed_ward,
    "place-matsuri": su.place_matsuri,
    "fill-queue": su.fill_queue,
}

HANDLERS = {
    "place-customers": place_customers,
    "move-matsuri": move_matsuri,
    "open-store": open_store,
    "expand-track": expand_track,
    "upgrade-store": upgrade_store,
    "income": income,
    "decline-income": decline_income,
    "move-customers": move_customers,
}
