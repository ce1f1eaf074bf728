"""Options, the initial state, and the table-mode deal moves.

Options (all optional):
    "deck":         "table" (default: the physical deck and bag; players enter what they drew)
                    or "companion" (the companion shuffles the deck and the bag from the seed)
    "start_player": index of the player with the Start Player token (default 0)
    "colours":      one colour id per player, all different (default: the data's colours in order)

Companion mode deals everything at setup (in the order of the rules text: hands, the 4 seeded wards,
the Matsuri, the queue) and the game starts with the start player's turn. Table mode starts in the
"deal" phase: the players enter their hands, the seeded wards, the Matsuri ward and the queue
(moves "deal-hand", "seed-ward", "place-matsuri", "fill-queue", in any order), then play begins.
"""
from __future__ import annotations

import random

from companion.games.contract import IllegalMove

from . import state as st
from .index import Index

OPTION_KEYS = ("deck", "hands", "start_player", "colours")


def validate_options(ix: Index, players, options) -> list[str]:
    reasons = []
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        return ["Players are a list of names."]
    if not ix.min_players <= len(players) <= ix.max_players:
        reasons.append(f"Shinjuku is for {ix.min_players} to {ix.max_players} players "
                       f"({len(players)} given).")
    if any(not p.strip() for p in players):
        reasons.append("Every player needs a name.")
    if len({p.strip().casefold() for p in players}) != len(players):
        reasons.append("Two players have the same name; give each player a different name.")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        return reasons + ["Options are an object, e.g. {\"deck\": \"companion\"}."]
    for key in options:
        if key not in OPTION_KEYS:
            reasons.append(f"Unknown option {key!r} (known: {', '.join(OPTION_KEYS)}).")
    deck = options.get("deck", st.TABLE)
    if deck not in (st.TABLE, st.COMPANION):
        reasons.append("Option \"deck\" is \"table\" (you draw from the real deck and bag) or "
                       "\"companion\" (the companion draws for you).")
    if "hands" in options:
        hands = options["hands"]
        if hands not in (st.NAMED, st.ENTERED):
            reasons.append("Option \"hands\" is \"named\" (keep your hand, name a card when you play "
                           "it) or \"entered\" (enter every card that enters a hand).")
        elif hands == st.NAMED and deck != st.TABLE:
            reasons.append("Option \"hands\": \"named\" is for the table's own deck (\"deck\": "
                           "\"table\"); the companion's deck knows every hand.")
    sp = options.get("start_player", 0)
    if isinstance(sp, bool) or not isinstance(sp, int) or not 0 <= sp < max(len(players), 1):
        reasons.append(f"Option \"start_player\" is a player number from 0 to {max(len(players) - 1, 0)}.")
    if "colours" in options:
        colours = options["colours"]
        if (not isinstance(colours, list) or len(colours) != len(players)
                or not all(isinstance(c, str) and c in ix.colours for c in colours)):
            reasons.append(f"Option \"colours\" lists one colour per player, from: {', '.join(ix.colours)}.")
        elif len(set(colours)) != len(colours):
            reasons.append("Two players cannot have the same colour.")
    return reasons


def setup(ix: Index, players: list[str], options: dict | None, seed: int) -> dict:
    options = options or {}
    reasons = validate_options(ix, players, options)
    if isinstance(seed, bool) or not isinstance(seed, int):
        reasons.append("The seed is a whole number.")
    if reasons:
        raise IllegalMove(reasons)
    mode = options.get("deck", st.TABLE)
    colours = options.get("colours") or ix.colours[:len(players)]
    start = options.get("start_player", 0)
    state = {
        "game": "shinjuku",
        "mode": mode,
        "seed": seed,
        "shuffles": 0,
        "phase": "deal",
        "turn": 1,
        "round": 1,
        "start_player": start,
        "current": start,
        "actions": [],
        "bonus": [],
        "final_round": False,
        "players": [{
            "name": name,
            "colour": colour,
            "hand": [],
            "stores": dict(ix.stores_by_type),
            "department_stores": ix.department_stores,
            "track": ix.track,
            "customers": [],
            "bonus_tokens": [],
        } for name, colour in zip(players, colours)],
        "matsuri": None,
        "queue": [{"card": None, "customers": []} for _ in range(ix.slots)],
        "wards": {w: [] for w in ix.ward_ids},
        "stations": {},
        "tracks": {cid: None for cid in ix.prebuilt},
        "deck": list(ix.full_deck),
        "discard": [],
        "bag": ix.sort_tokens(ix.full_bag),
        "bonus_stack": list(ix.bonus_values),
        "deal": {"hands": [False] * len(players), "seeded": [], "matsuri": False, "queue": False},
        "owed": [],            # table mode: cards entries took that the deck did not hold (state.owed)
        "last": {},
    }
    if mode == st.COMPANION:
        _deal_companion(ix, state)
    elif options.get("hands") == st.NAMED:
        _deal_named(ix, state)
    return state


def _deal_named(ix: Index, state: dict) -> None:
    """Named hands: the hands are dealt face down at the table and never entered; the companion
    counts them (each hand its hand_size, the deck the rest). The deal phase waits only for what is
    drawn face up: the starting wards, the Matsuri and the queue."""
    state["hands"] = st.NAMED
    for pl in state["players"]:
        pl["hand"] = None
        pl["hand_size"] = ix.hand_size
    state["deck"] = []
    state["deck_count"] = len(ix.full_deck) - ix.hand_size * len(state["players"])
    state["discard_unnamed"] = 0         # cards of wilds played without naming them ("card": 3)
    state["deal"]["hands"] = [True] * len(state["players"])


def _deal_companion(ix: Index, state: dict) -> None:
    rng = random.Random(state["seed"])
    rng.shuffle(state["deck"])
    rng.shuffle(state["bag"])
    for p in range(len(state["players"])):
        st.add_to_hand(ix, state, p, st.draw_cards(ix, state, ix.hand_size))
    seeded: list[str] = []
    while len(seeded) < ix.seed_wards:
        (ward,) = st.draw_cards(ix, state, 1)
        st.discard(ix, state, [ward])     # seed cards and re-drawn duplicates go to the discard pile
        if ward in seeded:
            continue
        seeded.append(ward)
        state["wards"][ward] = ix.sort_tokens(st.draw_customers(state, ix.seed_customers))
    (matsuri,) = st.draw_cards(ix, state, 1)
    st.discard(ix, state, [matsuri])
    state["matsuri"] = matsuri
    # Cards go onto ④ first and ① last; the queue list is head (①) first.
    cards = st.draw_cards(ix, state, ix.slots)
    state["queue"] = [{"card": c, "customers": []} for c in reversed(cards)]
    for token in st.draw_customers(state, ix.queue_start):
        st.queue_add(ix, state, token)
    state["deal"] = None
    state["phase"] = st.start_turn_phase(state)


# ---------------------------------------------------------------------------------------------
# Table-mode deal moves

def _check_face_up(ix: Index, state: dict, cards, n: int, what: str) -> list[str]:
    if st.named(state):
        return st.check_face_up(ix, state, cards, n, what)
    return st.check_entered_cards(ix, state, cards, n, what, deck_only=True)


def _take_face_up(ix: Index, state: dict, cards: list[str]) -> None:
    if st.named(state):
        st.take_face_up(state, cards)
    else:
        st.take_entered_cards(ix, state, cards)


def _deal_done(ix: Index, state: dict) -> None:
    d = state["deal"]
    if all(d["hands"]) and len(d["seeded"]) == ix.seed_wards and d["matsuri"] and d["queue"]:
        state["deal"] = None
        state["phase"] = st.start_turn_phase(state)


def deal_hand(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    p = move.get("player")
    if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < len(state["players"]):
        return [f"Say whose hand this is (\"player\": 0 to {len(state['players']) - 1})."]
    if st.named(state):
        return ["At this table hands are not entered: each player keeps the cards dealt and names a "
                "card when playing it."]
    if state["deal"]["hands"][p]:
        return [f"{st.player_name(state, p)}'s hand is already entered."]
    cards = move.get("cards")
    reasons = st.check_entered_cards(ix, state, cards, ix.hand_size, "cards of the hand", deck_only=True)
    if reasons or not act:
        return reasons
    st.take_entered_cards(ix, state, cards)
    st.add_to_hand(ix, state, p, cards)
    state["deal"]["hands"][p] = True
    state["last"] = {"move": "deal-hand", "player": p, "drawn": ix.sort_cards(cards)}
    _deal_done(ix, state)
    return []


def seed_ward(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    d = state["deal"]
    if len(d["seeded"]) >= ix.seed_wards:
        return [f"The {ix.seed_wards} starting wards are already entered."]
    ward = move.get("ward")
    if not isinstance(ward, str) or ward not in ix.card_counts:
        return ["Say which ward card was drawn (\"ward\": a ward id)."]
    if ward in d["seeded"]:
        return [f"{ix.wname(ward)} already has its starting customers; a duplicate card is put "
                f"aside and another card drawn."]
    reasons = _check_face_up(ix, state, [ward], 1, "card")
    reasons = reasons or st.check_entered_customers(ix, state, move.get("customers"), ix.seed_customers,
                                                    "customers drawn for this ward")
    if reasons or not act:
        return reasons
    _take_face_up(ix, state, [ward])
    st.discard(ix, state, [ward])
    tokens = st.take_entered_customers(state, move["customers"])
    state["wards"][ward] = ix.sort_tokens(state["wards"][ward] + tokens)
    d["seeded"].append(ward)
    state["last"] = {"move": "seed-ward", "ward": ward, "customers": ix.sort_tokens(tokens)}
    _deal_done(ix, state)
    return []


def place_matsuri(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    if state["deal"]["matsuri"]:
        return ["The Matsuri is already placed."]
    ward = move.get("ward")
    if not isinstance(ward, str) or ward not in ix.card_counts:
        return ["Say which ward card was drawn for the Matsuri (\"ward\": a ward id)."]
    reasons = _check_face_up(ix, state, [ward], 1, "card")
    if reasons or not act:
        return reasons
    _take_face_up(ix, state, [ward])
    st.discard(ix, state, [ward])
    state["matsuri"] = ward
    state["deal"]["matsuri"] = True
    state["last"] = {"move": "place-matsuri", "ward": ward}
    _deal_done(ix, state)
    return []


def fill_queue(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    if state["deal"]["queue"]:
        return ["The customer queue is already filled."]
    cards = move.get("cards")
    reasons = _check_face_up(ix, state, cards, ix.slots, "queue cards (head ① first)")
    reasons = reasons or st.check_entered_customers(ix, state, move.get("customers"), ix.queue_start,
                                                    "customers drawn for the queue")
    if reasons or not act:
        return reasons
    _take_face_up(ix, state, cards)
    state["queue"] = [{"card": c, "customers": []} for c in cards]
    for token in st.take_entered_customers(state, move["customers"]):
        st.queue_add(ix, state, token)
    state["deal"]["queue"] = True
    state["last"] = {"move": "fill-queue", "cards": list(cards), "customers": list(move["customers"])}
    _deal_done(ix, state)
    return []
