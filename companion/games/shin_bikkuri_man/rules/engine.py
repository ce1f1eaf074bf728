"""Shin Bikkuri Man: set-up, the deck and the harbour, and every move (validate and apply at once).

`run(ix, state, move, act)` checks a move and, when `act` is true and it is legal, changes `state`
in place (the caller passes a copy). See the package docstring for the state and the moves.
"""
from __future__ import annotations

import copy
import random
from typing import Any

from companion.games.contract import IllegalMove
from companion.games.words import count

from . import facade
from . import named as _named
from .geometry import WHITE_TILE, geometry_of

TABLE, COMPANION = "table", "companion"
END = "end"   # the end card (Copenhagen's mermaid) as a card id


class Index:
    """Lookups derived from the data once."""

    def __init__(self, data: Any):
        self.data = data
        self.geo = geometry_of(data)
        self.colours = [c.id for c in data.colours]
        self.colour_name = {c.id: c.name for c in data.colours}
        self.ability_ids = [a.id for a in data.abilities]
        self.ability = data.ability
        self.starting = [a.id for a in data.abilities if a.starting]
        self.tile_ids = [t.id for t in data.tiles]
        self.harbour = data.turn.harbour
        self.take = data.turn.take
        self.hand_limit = data.turn.hand_limit
        self.end_points = data.end.points
        self.draw_abilities = [a.id for a in data.abilities if a.action == "draw"]
        self.build_abilities = [a.id for a in data.abilities if a.action == "build"]
        self.turn_abilities = [a.id for a in data.abilities if a.action == "turn"]
        self.any_cards = next((a.id for a in data.abilities if a.action == "draw" and not a.adjacent), None)
        self.extra_card = next((a.id for a in data.abilities if a.action == "draw" and a.adjacent
                                and a.cards > self.take), None)
        self.discount = next((a.id for a in data.abilities if a.discount), None)
        self.recolour = next((a.id for a in data.abilities if a.recolour), None)
        self.both = next((a.id for a in data.abilities if a.both_actions), None)
        self.reactivate = data.coat_action.get("reactivate")

    def tile_name(self, tid: str) -> str:
        if tid == WHITE_TILE:
            return "white tile"
        t = self.data.tile[tid]
        return f"{self.colour_name[t.colour].lower()} {t.size}-square tile"


# ------------------------------------------------------------------------------------------ state
def clone(state: dict) -> dict:
    return copy.deepcopy(state)


def name(state: dict, p: Any) -> str:
    try:
        return state["players"][p]["name"]
    except (IndexError, KeyError, TypeError):
        return f"player {p}"


def hand_size(hand: dict) -> int:
    return sum(hand.values())


def options_of(options: Any) -> tuple[list[str], str, int]:
    reasons, mode, start, _ = options_all(options)
    return reasons, mode, start


def options_all(options: Any) -> tuple[list[str], str, int, str]:
    """(reasons, deck, start_player, cards). "cards" absent means "entered": how every table made
    before the option existed was played, so their logs replay exactly."""
    reasons = []
    if not isinstance(options, dict):
        return ["options must be a JSON object"], TABLE, 0, _named.ENTERED
    mode = options.get("deck", TABLE)
    if mode not in (TABLE, COMPANION):
        reasons.append('"deck" is "table" (you deal the real cards) or "companion"')
    start = options.get("start_player", 0)
    if not isinstance(start, int) or isinstance(start, bool):
        reasons.append('"start_player" is a seat index')
        start = 0
    cards = options.get("cards", _named.ENTERED)
    if cards not in _named.CARDS_WAYS:
        reasons.append('"cards" is "named-when-paid" (colours named only when cards are paid or '
                       'discarded) or "entered" (every card revealed is entered)')
        cards = _named.ENTERED
    elif "cards" in options and mode == COMPANION:
        reasons.append('"cards" is an option of the table\'s deck ("deck": "table"): the companion '
                       "deals every card itself")
    unknown = sorted(set(options) - {"deck", "start_player", "cards"})
    if unknown:
        reasons.append(f"unknown option {unknown[0]!r}; the options are deck, cards and start_player")
    return reasons, mode, start, cards


def validate_options(ix: Index, players: Any, options: Any) -> list[str]:
    lo, hi = ix.data.players
    reasons = []
    if not isinstance(players, list) or not lo <= len(players) <= hi:
        reasons.append(f"{ix.data.name} is for {lo} to {hi} players")
    more, _, start = options_of(options)
    reasons += more
    if isinstance(players, list) and not 0 <= start < max(1, len(players)):
        reasons.append('"start_player" must be one of the seats')
    return reasons


def setup(ix: Index, players: list[str], options: dict, seed: int) -> dict:
    reasons = validate_options(ix, players, options)
    if reasons:
        raise IllegalMove(reasons)
    _, mode, start, cards_way = options_all(options)
    n = len(players)
    data = ix.data
    per = data.cards_per_colour(n)
    cards = [c for c in ix.colours for _ in range(per)]
    end_now = data.end_card_shuffled_in(n) == "setup"
    state = {
        "game": data.id, "mode": mode, "seed": seed if mode == COMPANION else None,
        "phase": "deal" if mode == TABLE else "turn",
        "turn": 1, "start_player": start, "current": start,
        "done": [], "both": False, "coats": 0,
        "harbour": [], "deck": [], "end_in_deck": False, "shuffles": 0, "draws": 0,
        "discard": {c: 0 for c in ix.colours},
        "supply": {**{t: data.tile_copies(t, n) for t in ix.tile_ids}, WHITE_TILE: data.white.count},
        "abilities_left": {a: data.ability_copies.per_player * n for a in ix.ability_ids},
        "players": [], "deal": None, "ended": None, "last": None,
        "owed": [],     # table mode: cards entries took that the deck did not hold (conflicts)
    }
    for name_ in players:
        state["players"].append({
            "name": name_, "hand": {c: 0 for c in ix.colours}, "facade": ix.geo.empty(), "points": 0,
            "abilities": {a: "ready" for a in ix.starting}})
        for a in ix.starting:
            state["abilities_left"][a] -= 1
    if mode == COMPANION:
        rng = random.Random(seed)
        rng.shuffle(cards)
        state["deck"] = cards
        if end_now:
            _shuffle_in_end(ix, state, rng)
        for _ in range(ix.harbour):
            state["harbour"].append(_draw(ix, state))
        for k in range(n):
            p = (start + k) % n
            for _ in range(data.starting_hand(k + 1)):
                state["players"][p]["hand"][_draw(ix, state)] += 1
    else:
        state["deck"] = cards            # table mode: the deck's content (its order is unknown)
        state["end_in_deck"] = end_now
        state["deal"] = {"hands": [False] * n, "harbour": False}
        if cards_way == _named.NAMED:
            _named.setup(ix, state)
    return state


def _shuffle_in_end(ix: Index, state: dict, rng: random.Random) -> None:
    """The end card shuffled into the bottom cards of the (companion's) deck."""
    deck = state["deck"]
    k = min(ix.data.end_card.bottom, len(deck))
    bottom = deck[len(deck) - k:] + [END]
    rng.shuffle(bottom)
    state["deck"] = deck[:len(deck) - k] + bottom
    state["end_in_deck"] = True


def _reshuffle(ix: Index, state: dict) -> None:
    """The discard pile becomes the new deck (the end card joins it on the first reshuffle when the
    player count says so)."""
    pile = [c for c in ix.colours for _ in range(state["discard"][c])]
    state["discard"] = {c: 0 for c in ix.colours}
    state["shuffles"] += 1
    first = state["shuffles"] == 1
    end_now = first and ix.data.end_card_shuffled_in(len(state["players"])) == "first-reshuffle"
    if state["mode"] == COMPANION:
        rng = random.Random(f"{state['seed']}:{state['shuffles']}")
        rng.shuffle(pile)
        state["deck"] = pile
        if end_now:
            _shuffle_in_end(ix, state, rng)
    else:
        # the cards the bookkeeping still holds while the table's count is 0 are the ones owed
        # (conflicting entries): they stay with the new deck until a correction settles them
        state["deck"] = [c for c in state["deck"] if c != END] + pile
        if end_now:
            state["end_in_deck"] = True


def _draw(ix: Index, state: dict) -> str | None:
    """Companion mode: the top card of the deck (reshuffling the discards when it is empty)."""
    if not state["deck"]:
        _reshuffle(ix, state)
    if not state["deck"]:
        return None
    state["draws"] += 1
    card = state["deck"].pop(0)
    if card == END:
        state["end_in_deck"] = False
    return card


def owed(state: dict) -> list[str]:
    """Table mode: cards entries took that the deck's bookkeeping did not hold (the entry conflicts
    with a hand). Hidden from all but the host; see conflicts()."""
    return state.get("owed") or []


def deck_count(state: dict) -> int:
    """Coloured cards left in the deck, as the table counts them (cards owed by a conflicting
    entry counted as drawn): a number everyone knows, whatever the hands hold."""
    if isinstance(state["deck"], int):        # cards named when paid: the deck is a count
        return state["deck"]
    return max(0, sum(1 for c in state["deck"] if c != END) - len(owed(state)))


def public_pool(ix: Index, state: dict, also: Any = ()) -> dict:
    """Table mode: {colour: cards that may still be in the deck} on PUBLIC information only: the
    game's cards of the colour less those in the harbour, the discard pile and `also` (cards
    being entered). The hands are not subtracted: a refusal that counted them would tell what a
    starting hand holds (a conflict with a hand is shown to its owner and the host instead)."""
    per = ix.data.cards_per_colour(len(state["players"]))
    pool = {c: per - state["harbour"].count(c) - state["discard"][c] for c in ix.colours}
    for c in also:
        if c in pool:
            pool[c] -= 1
    return pool


def conflicts(ix: Index, state: dict, viewer: Any) -> list[dict]:
    """Table mode: entries that cannot all be right, as `viewer` may know them. The host sees every
    owed card and the hands holding that colour; a seat sees a conflict only where its own hand,
    the harbour and the discard pile hold more of a colour than the game has (so it learns nothing
    of another hand); a spectator none. Fixed with "correct-card" (or an undo of the wrong entry)."""
    if state.get("mode") != TABLE or _named.is_named(state):
        return []
    per = ix.data.cards_per_colour(len(state["players"]))
    out = []
    if viewer == "host":
        for c in ix.colours:
            n = owed(state).count(c)
            if n:
                holders = [p for p, pl in enumerate(state["players"]) if pl["hand"].get(c)]
                out.append({"card": c, "over": n, "players": holders,
                            "text": f"{count(n, c + ' card')} more than the game's {per} "
                                    f"{'was' if n == 1 else 'were'} entered; hands holding {c}: "
                                    + (", ".join(name(state, p) for p in holders) or "none")
                                    + ". Correct the wrong card (or undo the wrong entry)."})
        return out
    if not _int(viewer) or not 0 <= viewer < len(state["players"]):
        return []
    hand = state["players"][viewer]["hand"]
    for c in ix.colours:
        public = state["harbour"].count(c) + state["discard"][c]
        over = public + hand.get(c, 0) - per
        if hand.get(c, 0) and over > 0:
            out.append({"card": c, "over": over, "players": [viewer],
                        "text": f"Your hand holds {count(hand[c], c + ' card')} and {public} "
                                f"{'is' if public == 1 else 'are'} in the harbour or the discard "
                                f"pile, but the game has {per}: correct the card entered in your "
                                "hand, or ask the host."})
    return out


def end_possible(ix: Index, state: dict) -> bool:
    """Table mode: may the next card revealed be the end card (it is in the bottom cards)?"""
    return state["end_in_deck"] and deck_count(state) <= ix.data.end_card.bottom


# -------------------------------------------------------------------------------------- the turn
def _end_turn(ix: Index, state: dict) -> None:
    """The turn is over: the harbour slides together and is refilled (companion: from the deck;
    table: the table enters the cards), then the next player's turn."""
    state["coats"] = 0
    state["done"] = []
    state["both"] = False
    if _named.is_named(state):
        if _named.refill(ix, state) == "end-card":
            _game_over(state, "end-card")
        else:
            _next_player(state)
        return
    missing = ix.harbour - len(state["harbour"])
    if missing and state["mode"] == TABLE and (deck_count(state) or state["end_in_deck"]
                                               or sum(state["discard"].values())):
        state["phase"] = "refill"
        return
    revealed = []
    while state["mode"] == COMPANION and len(state["harbour"]) < ix.harbour:
        card = _draw(ix, state)
        if card is None:
            break
        revealed.append(card)
        if card == END:
            break
        state["harbour"].append(card)
    if revealed:
        state["last"] = {**(state.get("last") or {}), "revealed": revealed}
    if END in revealed:
        _game_over(state, "end-card")
        return
    _next_player(state)


def _next_player(state: dict) -> None:
    n = len(state["players"])
    state["current"] = (state["current"] + 1) % n
    state["turn"] += 1
    state["phase"] = "turn"


def _game_over(state: dict, why: str) -> None:
    state["phase"] = "over"
    state["ended"] = why
    state["coats"] = 0


def _after_action(ix: Index, state: dict) -> None:
    """After a take (hand within the limit) or a build (coat-of-arms actions done)."""
    if state["phase"] == "over":
        return
    if state["both"] and len(state["done"]) < 2:
        state["phase"] = "turn"           # Both Actions: the other action may follow
        return
    _end_turn(ix, state)


# ------------------------------------------------------------------------------------------ moves
PLAYER_MOVES = ("take", "discard", "build", "special-tile", "take-ability", "reactivate",
                "decline", "end-turn", "deal-hand", "correct-card")
TABLE_MOVES = ("fill-harbour", "refill", "end-card")
ENTRY_MOVES = ("deal-hand", "fill-harbour", "refill", "correct-card")   # not when cards are named
ANY_TIME = ("correct-card",)        # a player's own, whatever the phase and whose turn it is
PHASE_MOVES = {
    "deal": ("deal-hand", "fill-harbour"),
    "turn": ("take", "build", "end-turn"),
    "discard": ("discard",),
    "coats": ("special-tile", "take-ability", "reactivate", "decline"),
    "refill": ("refill",),
    "over": (),
}


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def run(ix: Index, state: dict, move: Any, act: bool) -> list[str]:
    if not isinstance(move, dict):
        return ['a move must be a JSON object with a "type"']
    mtype = move.get("type")
    handler = HANDLERS.get(mtype) if isinstance(mtype, str) else None
    if handler is None:
        return [f"unknown move type {mtype!r}; the moves of this game are: {', '.join(HANDLERS)}"]
    phase = state["phase"]
    if phase == "over":
        return ["the game is over"]
    if _named.is_named(state):
        if mtype in ENTRY_MOVES:
            return [f"“{mtype}” is not a move at this table: the cards revealed are not entered (a "
                    "card's colour is named when it is paid or discarded)"]
        if mtype == "end-card":
            return handler(ix, state, move, act)
        if act:
            state["end_window"] = False      # any move after a refill: the end card did not come up
    elif mtype == "end-card":
        return _named.end_card_reasons(ix, state)
    if mtype not in PHASE_MOVES[phase] and mtype not in ANY_TIME:
        return [f"“{mtype}” is not a move now: {expected(ix, state)}"]
    if mtype in TABLE_MOVES:
        return handler(ix, state, move, act)
    p = move.get("player")
    if not _int(p) or not 0 <= p < len(state["players"]):
        return ['"player" must be the seat index of a player at this table']
    if mtype in ANY_TIME:
        return handler(ix, state, move, act)
    if phase != "deal" and p != state["current"]:
        return [f"it is {name(state, state['current'])}'s turn, not {name(state, p)}'s"]
    return handler(ix, state, move, act)


def expected(ix: Index, state: dict) -> str:
    phase = state["phase"]
    who = name(state, state.get("current"))
    if phase == "deal":
        left = [name(state, p) for p, done in enumerate(state["deal"]["hands"]) if not done]
        parts = []
        if not state["deal"]["harbour"]:
            parts.append(f"the {ix.harbour} harbour cards")
        if left:
            parts.append("the starting hands of " + ", ".join(left))
        return "enter " + " and ".join(parts)
    if phase == "turn":
        if state["done"]:
            return f"{who} may {'build a tile' if 'take' in state['done'] else 'take cards'} or end the turn"
        return f"{who} takes cards or builds a tile"
    if phase == "discard":
        pl = state["players"][state["current"]]
        extra = hand_size(pl["hand"]) - ix.hand_limit if pl.get("hand") is not None else "some"
        return f"{who} discards {count(extra, 'card')} down to {ix.hand_limit}"
    if phase == "coats":
        return f"{who} takes {count(state['coats'], 'coat-of-arms action')}"
    if phase == "refill":
        return f"enter the {count(ix.harbour - len(state['harbour']), 'card')} that refill the harbour"
    return "the game is over"


# ---- deal (table mode) ----------------------------------------------------------------------------
def _cards_list(ix: Index, value: Any, what: str, allow_end: bool = False) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        return [f"{what} must be a list of card colours ({', '.join(ix.colours)})"]
    ok = set(ix.colours) | ({END} if allow_end else set())
    bad = [c for c in value if c not in ok]
    if bad:
        return [f"{bad[0]!r} is not a card; the cards are {', '.join(sorted(ok))}"]
    return []


def _from_deck(ix: Index, state: dict, cards: list[str], own: Any = ()) -> list[str]:
    """Table mode: can these cards come out of the deck, judged on public information (public_pool)
    and `own` (the cards of the entering player's own hand)?"""
    left = public_pool(ix, state, own)
    base = dict(left)
    per = ix.data.cards_per_colour(len(state["players"]))
    for c in cards:
        left[c] -= 1
        if left[c] < 0:
            return [f"there are {per} {c} cards and {per - base[c]} of them "
                    f"{'is' if per - base[c] == 1 else 'are'} in the harbour or the discard pile: "
                    f"{cards.count(c)} cannot come from the deck"]
    return []


def _take_from_deck(state: dict, cards: list[str]) -> None:
    """Take entered cards out of the deck's bookkeeping; a card it does not hold (it is in a hand:
    the entry conflicts with a secret) is recorded as owed."""
    deck, owed_ = list(state["deck"]), list(owed(state))
    for c in cards:
        if c in deck:
            deck.remove(c)
        else:
            owed_.append(c)
    state["deck"], state["owed"] = deck, sorted(owed_)


def deal_hand(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    p = move["player"]
    if state["deal"]["hands"][p]:
        return [f"{name(state, p)}'s starting hand is entered already"]
    cards = move.get("cards")
    reasons = _cards_list(ix, cards, "cards")
    if reasons:
        return reasons
    seat = (p - state["start_player"]) % len(state["players"]) + 1
    want = ix.data.starting_hand(seat)
    if len(cards) != want:
        return [f"{name(state, p)} is dealt {want} cards (seat {seat}), not {len(cards)}"]
    reasons = _from_deck(ix, state, cards)
    if reasons or not act:
        return reasons
    _take_from_deck(state, cards)
    for c in cards:
        state["players"][p]["hand"][c] += 1
    state["deal"]["hands"][p] = True
    state["last"] = {"type": "deal-hand", "player": p}
    _deal_done(state)
    return []


def fill_harbour(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    if state["deal"]["harbour"]:
        return ["the harbour is filled already"]
    cards = move.get("cards")
    reasons = _cards_list(ix, cards, "cards")
    if reasons:
        return reasons
    if len(cards) != ix.harbour:
        return [f"the harbour holds {ix.harbour} cards, not {len(cards)}"]
    reasons = _from_deck(ix, state, cards)
    if reasons or not act:
        return reasons
    _take_from_deck(state, cards)
    state["harbour"] = list(cards)
    state["deal"]["harbour"] = True
    state["last"] = {"type": "fill-harbour"}
    _deal_done(state)
    return []


def _deal_done(state: dict) -> None:
    if state["deal"]["harbour"] and all(state["deal"]["hands"]):
        state["deal"] = None
        state["phase"] = "turn"


def refill(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    """Table mode: the cards revealed into the harbour, in order (the end card stops it)."""
    cards = move.get("cards")
    reasons = _cards_list(ix, cards, "cards", allow_end=True)
    if reasons:
        return reasons
    sim = {"deck": list(state["deck"]), "discard": dict(state["discard"]), "shuffles": state["shuffles"],
           "end_in_deck": state["end_in_deck"], "mode": TABLE, "players": state["players"], "seed": None,
           "owed": list(owed(state)), "harbour": list(state["harbour"])}
    missing = ix.harbour - len(state["harbour"])
    if len(cards) > missing:             # (before any card is judged: the count is public)
        return [f"the harbour has {count(missing, 'empty space')}, not {len(cards)}"]
    got: list[str] = []
    for c in cards:
        if END in got:
            return ["no card is revealed after the end card: the game ends"]
        if not deck_count(sim) and not sim["end_in_deck"]:
            if not sum(sim["discard"].values()):
                return ["the deck and the discard pile are empty: no more cards can be revealed"]
            _reshuffle(ix, sim)
        if c == END:
            if not sim["end_in_deck"]:
                return ["the end card is not in the deck yet"
                        + ("" if ix.data.end_card_shuffled_in(len(state["players"])) == "setup"
                           else " (it is shuffled in when the discards first become the deck)")]
            if not end_possible(ix, sim):
                return [f"the end card is among the bottom {ix.data.end_card.bottom} cards: "
                        f"{deck_count(sim)} cards are still in the deck"]
            sim["end_in_deck"] = False
        else:
            if sim["end_in_deck"] and not deck_count(sim):
                return ["only the end card is left in the deck"]
            if public_pool(ix, sim, got)[c] < 1:
                per = ix.data.cards_per_colour(len(state["players"]))
                return [f"no {c} card can be in the deck now: the game has {per}, and "
                        f"{per - public_pool(ix, sim, got)[c]} are in the harbour, the discard pile "
                        "or this refill"]
            _take_from_deck(sim, [c])
        got.append(c)
    short = len(got) < missing and END not in got
    if short and (deck_count(sim) or sim["end_in_deck"] or sum(sim["discard"].values())):
        return [f"enter the {count(missing, 'card')} that refill the harbour (or the cards up to the end card)"]
    if len(got) > missing:
        return [f"the harbour has {count(missing, 'empty space')}, not {len(got)}"]
    if not act:
        return []
    state["deck"], state["discard"], state["owed"] = sim["deck"], sim["discard"], sim["owed"]
    state["shuffles"], state["end_in_deck"] = sim["shuffles"], sim["end_in_deck"]
    state["draws"] += len(got)
    state["harbour"] += [c for c in got if c != END]
    state["last"] = {"type": "refill", "revealed": got}
    if END in got:
        _game_over(state, "end-card")
    else:
        _next_player(state)
    return []


# ---- taking cards ---------------------------------------------------------------------------------
def _abilities(ix: Index, state: dict, p: int, move: dict, kinds: tuple[str, ...]) -> tuple[list[str], list[str]]:
    value = move.get("abilities", [])
    if value is None:
        value = []
    if not isinstance(value, list) or not all(isinstance(a, str) for a in value):
        return ["abilities must be a list of ability ids"], []
    if len(set(value)) != len(value):
        return ["an ability is listed twice"], []
    held = state["players"][p]["abilities"]
    for a in value:
        if a not in ix.ability:
            return [f"{a!r} is not an ability; they are {', '.join(ix.ability_ids)}"], []
        if ix.ability[a].action not in kinds:
            return [f"{ix.ability[a].name} is not used for this action"], []
        if a not in held:
            return [f"{name(state, p)} has no {ix.ability[a].name} tile"], []
        if held[a] != "ready":
            return [f"{ix.ability[a].name} is used: a coat-of-arms action turns it face up again"], []
    if ix.both in value and state["done"]:
        return [f"{ix.ability[ix.both].name} is declared with the turn's first action"], []
    return [], value


def _is_run(spaces: list[int]) -> bool:
    s = sorted(spaces)
    return all(b == a + 1 for a, b in zip(s, s[1:]))


def take(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    p = move["player"]
    if "take" in state["done"]:
        return ["cards are taken once a turn"]
    reasons, used = _abilities(ix, state, p, move, ("draw", "turn"))
    if reasons:
        return reasons
    spaces = move.get("spaces")
    harbour = state["harbour"]
    if (not isinstance(spaces, list) or not spaces or not all(_int(s) for s in spaces)
            or len(set(spaces)) != len(spaces)):
        return ["spaces must be a list of different harbour spaces (0 = the first)"]
    if any(not 0 <= s < len(harbour) for s in spaces):
        return [f"the harbour has spaces 0 to {len(harbour) - 1}"]
    count = ix.ability[ix.extra_card].cards if ix.extra_card in used else ix.take
    count = min(count, len(harbour))
    if len(spaces) != count:
        return [f"take {count} cards" + (f" with {ix.ability[ix.extra_card].name}" if ix.extra_card in used else "")
                + f", not {len(spaces)}"]
    run_ = _is_run(spaces)
    if not run_ and ix.any_cards not in used:
        return ["the cards taken must lie next to each other in the harbour (the last space is not "
                "next to the first)" + (f"; {ix.ability[ix.any_cards].name} takes them from anywhere"
                                        if ix.any_cards else "")]
    if not act:
        return []
    pl = state["players"][p]
    taken = [harbour[s] for s in sorted(spaces)]
    for c in taken:
        pl["hand"][c] += 1
    state["harbour"] = [c for i, c in enumerate(harbour) if i not in spaces]
    spent = [a for a in used if not (a == ix.any_cards and run_) and a != ix.both]
    if ix.both in used:
        state["both"] = True
    elif state["both"]:
        spent.append(ix.both)        # the second action of Both Actions
    for a in spent:
        pl["abilities"][a] = "used"
    state["done"].append("take")
    state["last"] = {"type": "take", "player": p, "cards": taken, "spent": spent}
    if hand_size(pl["hand"]) > ix.hand_limit:
        state["phase"] = "discard"
        return []
    _after_action(ix, state)
    return []


def discard(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    p = move["player"]
    pl = state["players"][p]
    cards = move.get("cards")
    reasons = _cards_list(ix, cards, "cards")
    if reasons:
        return reasons
    if _named.is_named(state):
        reasons = _named.discard(ix, state, move, act, _cards_list)
        if reasons or not act:
            return reasons
        state["last"] = {"type": "discard", "player": p, "cards": list(cards)}
        _after_action(ix, state)
        return []
    extra = hand_size(pl["hand"]) - ix.hand_limit
    if len(cards) != extra:
        return [f"discard {count(extra, 'card')} to keep {ix.hand_limit}, not {len(cards)}"]
    for c in set(cards):
        if cards.count(c) > pl["hand"][c]:
            return [f"{name(state, p)} holds only {count(pl['hand'][c], c + ' card')}"]
    if not act:
        return []
    for c in cards:
        pl["hand"][c] -= 1
        state["discard"][c] += 1
    state["last"] = {"type": "discard", "player": p, "cards": list(cards)}
    _after_action(ix, state)
    return []


# ---- building -------------------------------------------------------------------------------------
def cost_of(ix: Index, state: dict, p: int, ev, used: list[str]) -> int:
    tid = ev.placement.tile
    if tid == WHITE_TILE:
        return 0
    discount = ix.ability[ix.discount].discount if ix.discount in used else 0
    return facade.tile_cost(ix.data, tid, ev.touches_same_colour, discount)


def payment(ix: Index, hand: dict, colour: str, cost: int, recolour: str | None, pay: Any) -> tuple[list[str], dict]:
    """The cards paid: `pay` as given, or the tile's colour first, then the recoloured colour."""
    allowed = [colour] + ([recolour] if recolour else [])
    if pay is None:
        out = {}
        left = cost
        for c in allowed:
            k = min(left, hand.get(c, 0))
            if k:
                out[c] = k
            left -= k
        if left:
            have = sum(hand.get(c, 0) for c in allowed)
            return [f"the tile costs {count(cost, ' or '.join(allowed) + ' card')}; the hand holds {have}"], {}
        return [], out
    reasons = _named.pay_reasons(pay, colour, cost, recolour, _int)
    if reasons:
        return reasons, {}
    for c, k in pay.items():
        if k > hand.get(c, 0):
            return [f"the hand holds only {count(hand.get(c, 0), c + ' card')}"], {}
    return [], {c: k for c, k in pay.items() if k}


def build(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    p = move["player"]
    if "build" in state["done"]:
        return [f"only {ix.data.turn.tiles_per_turn} tile may be bought in a turn"]
    reasons, used = _abilities(ix, state, p, move, ("build", "turn"))
    if reasons:
        return reasons
    tid = move.get("tile")
    if tid not in ix.tile_ids:
        return [f"tile must be a coloured tile id such as {ix.tile_ids[0]!r} (colour-size)"]
    if state["supply"][tid] <= 0:
        return [f"no {ix.tile_name(tid)} is left"]
    reasons, squares, brick = ix.geo.read_squares(move.get("squares"), move.get("brick"))
    if reasons:
        return reasons
    reasons, placement = ix.geo.find(tid, squares, brick)
    if reasons:
        return reasons
    pl = state["players"][p]
    cells = ix.geo.cells(pl["facade"])
    reasons = ix.geo.why_not(ix.geo.occupied(cells), placement)
    if reasons:
        return reasons
    recolour = move.get("recolour")
    if ix.recolour in used:
        if recolour not in ix.colours or recolour == ix.geo.tile_colour[tid]:
            return [f"with {ix.ability[ix.recolour].name}, recolour names the colour of cards to use "
                    f"as {ix.geo.tile_colour[tid]}"]
    elif recolour is not None:
        return [f"recolour needs the {ix.ability[ix.recolour].name} ability"]
    else:
        recolour = None
    ev = ix.geo.evaluate(cells, placement)
    cost = cost_of(ix, state, p, ev, used)
    if _named.is_named(state):
        reasons, paid = _named.payment(ix, state, p, ix.geo.tile_colour[tid], cost, recolour,
                                       move.get("pay"), _int)
    else:
        reasons, paid = payment(ix, pl["hand"], ix.geo.tile_colour[tid], cost, recolour, move.get("pay"))
    if reasons or not act:
        return reasons
    full = cost_of(ix, state, p, ev, [])
    spent = []
    if ix.discount in used and cost < full:
        spent.append(ix.discount)
    if ix.recolour in used and paid.get(recolour):
        spent.append(ix.recolour)
    if ix.both in used:
        state["both"] = True
    elif state["both"]:
        spent.append(ix.both)
    for a in spent:
        pl["abilities"][a] = "used"
    if _named.is_named(state):
        _named.pay_from_hand(state, p, paid)
    else:
        for c, k in paid.items():
            pl["hand"][c] -= k
    for c, k in paid.items():
        state["discard"][c] += k
    state["supply"][tid] -= 1
    state["done"].append("build")
    _place(ix, state, p, ev)
    state["last"] = {"type": "build", "player": p, "tile": tid, "paid": paid, "spent": spent,
                     "coats": ev.coats, "points": ev.points,
                     "rows": [r for r, _ in ev.rows], "columns": [c for c, _ in ev.columns]}
    _after_build(ix, state, ev.coats)
    return []


def _place(ix: Index, state: dict, p: int, ev) -> None:
    pl = state["players"][p]
    pl["facade"] = ix.geo.rows_of(ev.cells)
    pl["points"] += ev.points


def _after_build(ix: Index, state: dict, coats: int) -> None:
    p = state["current"]
    if state["players"][p]["points"] >= ix.end_points:
        _game_over(state, "points")           # before this turn's coat-of-arms actions
        return
    state["coats"] += coats
    if state["coats"] and coat_actions_possible(ix, state, p):
        state["phase"] = "coats"
        return
    state["coats"] = 0
    _after_action(ix, state)


# ---- coat-of-arms actions ---------------------------------------------------------------------------
def white_fits(ix: Index, state: dict, p: int) -> bool:
    if state["supply"][WHITE_TILE] <= 0:
        return False
    return bool(ix.geo.legal_placements(ix.geo.cells(state["players"][p]["facade"]), WHITE_TILE))


def abilities_to_take(ix: Index, state: dict, p: int) -> list[str]:
    held = state["players"][p]["abilities"]
    return [a for a in ix.ability_ids if a not in held and state["abilities_left"][a] > 0]


def used_abilities(state: dict, p: int) -> list[str]:
    return [a for a, s in state["players"][p]["abilities"].items() if s == "used"]


def coat_actions_possible(ix: Index, state: dict, p: int) -> bool:
    return bool(white_fits(ix, state, p) or abilities_to_take(ix, state, p) or used_abilities(state, p))


def _coat_done(ix: Index, state: dict) -> None:
    state["coats"] -= 1
    p = state["current"]
    if state["coats"] > 0 and coat_actions_possible(ix, state, p):
        return
    state["coats"] = 0
    _after_action(ix, state)


def special_tile(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    p = move["player"]
    if state["supply"][WHITE_TILE] <= 0:
        return ["no white tile is left"]
    square = move.get("square")
    reasons, squares, _ = ix.geo.read_squares([square] if isinstance(square, list) else square, None)
    if reasons:
        return ["square must be [column, row] on the board"] if not isinstance(square, list) else reasons
    placement = ix.geo.by_key[WHITE_TILE][(squares, None)]
    pl = state["players"][p]
    cells = ix.geo.cells(pl["facade"])
    reasons = ix.geo.why_not(ix.geo.occupied(cells), placement)
    if reasons or not act:
        return reasons
    ev = ix.geo.evaluate(cells, placement)
    state["supply"][WHITE_TILE] -= 1
    _place(ix, state, p, ev)
    state["last"] = {"type": "special-tile", "player": p, "square": list(squares[0]),
                     "coats": ev.coats, "points": ev.points}
    if pl["points"] >= ix.end_points:
        _game_over(state, "points")
        return []
    state["coats"] += ev.coats          # a white tile that earns a coat of arms: another action
    _coat_done(ix, state)
    return []


def take_ability(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    p = move["player"]
    a = move.get("ability")
    if not isinstance(a, str) or a not in ix.ability:
        return [f"ability must be one of {', '.join(ix.ability_ids)}"]
    if a in state["players"][p]["abilities"]:
        return [f"{name(state, p)} has {ix.ability[a].name} already (one of each type)"]
    if state["abilities_left"][a] <= 0:
        return [f"no {ix.ability[a].name} tile is left"]
    if not act:
        return []
    state["abilities_left"][a] -= 1
    state["players"][p]["abilities"][a] = "ready"
    state["last"] = {"type": "take-ability", "player": p, "ability": a}
    _coat_done(ix, state)
    return []


def reactivate(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    p = move["player"]
    used = used_abilities(state, p)
    if not used:
        return [f"{name(state, p)} has no used ability tile to turn face up"]
    flips = ix.reactivate.flips if ix.reactivate else "all"
    which = move.get("ability")
    if flips == "one":
        if which not in used:
            return [f"ability must be one of the used tiles: {', '.join(used)}"]
        used = [which]
    elif which is not None and which not in used:
        return [f"{which!r} is not a used ability tile of {name(state, p)}"]
    if not act:
        return []
    for a in used:
        state["players"][p]["abilities"][a] = "ready"
    state["last"] = {"type": "reactivate", "player": p, "abilities": used}
    _coat_done(ix, state)
    return []


def decline(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    if not act:
        return []
    state["last"] = {"type": "decline", "player": move["player"], "forgone": state["coats"]}
    state["coats"] = 0
    _after_action(ix, state)
    return []


def end_turn(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    if not state["done"] and not stuck(ix, state):
        return ["take cards or build a tile first (a turn is one of them)"]
    if not act:
        return []
    state["last"] = {"type": "end-turn", "player": move["player"]}
    _end_turn(ix, state)
    return []


def ready(state: dict, p: int, a) -> bool:
    return a is not None and state["players"][p]["abilities"].get(a) == "ready"


def builds(ix, state: dict, p: int, sample: bool = False) -> list[dict]:
    """Plain builds (paid in the tile's colour) at every legal place; with abilities, the builds
    they make affordable (one payment each)."""
    pl = state["players"][p]
    hand = pl["hand"]
    cells, occ, masks, disc, recolour, both = _named.build_start(ix, state, p, ready)
    out: list[dict] = []

    def unreachable(colour: str, size: int) -> bool:
        others = max((hand[c] for c in ix.colours if c != colour), default=0) if recolour else 0
        return hand[colour] + others + disc + ix.data.building.same_colour_discount < size

    for colour, cost, base in _named.placements(ix, state, p, occ, masks, unreachable):
        have = hand[colour]
        if have >= cost:
            out.append(base)
            if sample:
                return out
            if both and len(out) % 7 == 1:
                out.append({**base, "abilities": [ix.both]})
            continue
        if disc and have >= cost - disc:
            out.append({**base, "abilities": [ix.discount]})
            continue
        if recolour:
            for c in ix.colours:
                if c != colour and hand[c] and have + hand[c] >= cost:
                    out.append({**base, "abilities": [ix.recolour], "recolour": c})
                    break
        if sample and out:
            return out
    return out


def stuck(ix: Index, state: dict) -> bool:
    """The current player can neither take cards nor build: the turn may be ended as it is."""
    if state["phase"] != "turn":
        return False
    if _named.is_named(state):
        return not state["harbour"] and not _named.builds(ix, state, state["current"], ready, sample=True)
    return not state["harbour"] and not builds(ix, state, state["current"], sample=True)


def end_card(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    """Cards named when paid: the table says the end card came up in the refill just made (the
    companion did not ask for the cards revealed): the game ends, nobody takes another turn."""
    reasons = _named.end_card_reasons(ix, state)
    if reasons or not act:
        return reasons
    state["end_in_deck"] = False
    state["end_window"] = False
    state["last"] = {"type": "end-card"}
    _game_over(state, "end-card")
    return []


def correct_card(ix: Index, state: dict, move: dict, act: bool) -> list[str]:
    """Table mode, at any time: a card entered wrongly into a hand (a starting hand) is set right:
    "I entered red, it was blue". The wrong card goes back among the cards to draw (settling an
    owed one: see conflicts), the right one leaves them (one that can still be there, judged on
    public information and this hand); nothing played since is undone."""
    if state["mode"] != TABLE:
        return ["the companion deals the cards at this table: there is nothing to correct"]
    p = move["player"]
    was, now = move.get("was"), move.get("now")
    for field, value in (("was", was), ("now", now)):
        if value not in ix.colours:
            return [f'"{field}" is a card colour ({", ".join(ix.colours)})']
    if was == now:
        return [f"that is the same card ({was}): nothing to correct"]
    hand = state["players"][p]["hand"]
    if not hand.get(was):
        return [f"{name(state, p)} holds no {was} card to correct (a card already paid or "
                "discarded is set right with undo)"]
    rest = [c for c in ix.colours for _ in range(hand[c])]
    rest.remove(was)
    if public_pool(ix, state, rest)[now] < 1:
        return [f"it cannot have been a {now} card: all {ix.data.cards_per_colour(len(state['players']))} "
                f"are in the harbour, the discard pile or {name(state, p)}'s hand"]
    if not act:
        return []
    hand[was] -= 1
    owed_ = list(owed(state))
    if was in owed_:
        owed_.remove(was)
        state["owed"] = owed_
    else:
        state["deck"] = list(state["deck"]) + [was]
    _take_from_deck(state, [now])
    hand[now] += 1
    return []


HANDLERS = {
    "deal-hand": deal_hand, "fill-harbour": fill_harbour,
    "take": take, "discard": discard, "build": build,
    "special-tile": special_tile, "take-ability": take_ability, "reactivate": reactivate,
    "decline": decline, "end-turn": end_turn, "refill": refill, "correct-card": correct_card,
    "end-card": end_card,
}
