"""Shin Bikkuri Man: the result, what players may see, history lines and page hints."""
from __future__ import annotations

from companion.games import contract
from companion.games.contract import HOST

from . import engine as en
from . import named as nm
from .geometry import WHITE_TILE


def score_breakdown(ix, facade_rows: list[str]) -> tuple[list[tuple[str, int]], int, dict]:
    """The breakdown of a façade's points (rows and columns, all windows or with a brick), its
    empty squares and the full score record."""
    cells = ix.geo.cells(facade_rows)
    s = ix.geo.score(cells)
    rows_w = sum(r["points"] for r in s["rows"] if r["windows"])
    rows_b = sum(r["points"] for r in s["rows"] if not r["windows"])
    cols_w = sum(c["points"] for c in s["columns"] if c["windows"])
    cols_b = sum(c["points"] for c in s["columns"] if not c["windows"])
    breakdown = [("Rows with a brick", rows_b), ("Rows all windows", rows_w),
                 ("Columns with a brick", cols_b), ("Columns all windows", cols_w)]
    return breakdown, ix.geo.empty_squares(cells), s


def result(ix, state: dict) -> dict | None:
    if state.get("phase") != "over":
        return None
    scores = []
    for p, pl in enumerate(state["players"]):
        breakdown, empty, _ = score_breakdown(ix, pl["facade"])
        scores.append(contract.score_row(p, pl["name"], breakdown, empty_squares=empty))
    winners = contract.leaders(scores, lambda s: -s["empty_squares"])
    out = contract.result(winners, "points", scores)
    out["ended"] = state.get("ended")
    return out


def public_view(ix, state: dict, viewer=None) -> dict:
    """The state as `viewer` may see it: no seed, the deck as its size only, and other players'
    hands as their sizes (HOST sees every hand). Table mode: "conflicts" (engine.conflicts) lists
    entries that cannot all be right as this viewer may know it, and "owed" (its bookkeeping) is
    the host's only."""
    view = en.clone(state)
    view["seed"] = None
    view["deck"] = None
    view["deck_size"] = en.deck_count(state)
    if state.get("mode") == en.TABLE:
        view["owed"] = list(en.owed(state)) if viewer == HOST else None
        view["conflicts"] = en.conflicts(ix, state, viewer)
    else:
        view.pop("owed", None)
    for p, pl in enumerate(view["players"]):
        pl["hand_size"] = en.hand_size(pl["hand"])
        if p != viewer and viewer != HOST:
            pl["hand"] = None
    return view


def public_move(ix, move: dict, viewer=None) -> dict:
    """A logged move as `viewer` may see it: a starting hand entered for another seat is hidden, and
    which cards another seat's correction swapped."""
    if (viewer != HOST and isinstance(move, dict) and move.get("type") == "deal-hand"
            and isinstance(move.get("cards"), list) and move.get("player") != viewer):
        return {**move, "cards": len(move["cards"])}
    if (viewer != HOST and isinstance(move, dict) and move.get("type") == "correct-card"
            and move.get("player") != viewer):
        return {**move, "was": None, "now": None}
    return move


def secret_paths(state: dict, seat: int) -> list[tuple]:
    if nm.is_named(state):        # cards named when paid: the companion never learns a hand
        return []
    return [("players", seat, "hand")]


def _cards(ix, cards) -> str:
    if not isinstance(cards, list):
        return "cards"
    return ", ".join("the end card" if c == en.END else c for c in cards) or "no card"


def describe(ix, state: dict, move: dict) -> str:
    t = move.get("type")
    who = en.name(state, move.get("player"))
    named = move.get("abilities") if isinstance(move.get("abilities"), list) else []
    abil = [ix.ability[a].name for a in named if isinstance(a, str) and a in ix.ability]
    using = f" (using {', '.join(abil)})" if abil else ""
    if t == "deal-hand":
        return f"{who}'s starting hand is entered"
    if t == "correct-card":      # (the history is public: which cards, only the hand knows)
        return f"{who} corrects a card entered in their hand"
    if t == "fill-harbour":
        return f"The harbour is laid out: {_cards(ix, move.get('cards'))}"
    if t == "refill":
        return f"The harbour is refilled: {_cards(ix, move.get('cards'))}"
    if t == "take":
        sp = move.get("spaces") or []
        cards = [state["harbour"][s] for s in sp if isinstance(s, int) and 0 <= s < len(state["harbour"])]
        if nm.is_named(state):
            where = " and ".join(str(s + 1) for s in sp if isinstance(s, int))
            return f"{who} takes {len(cards)} cards from the harbour (spaces {where}){using}"
        return f"{who} takes {_cards(ix, cards)} from the harbour{using}"
    if t == "discard":
        return f"{who} discards {_cards(ix, move.get('cards'))} down to the hand limit"
    if t == "build":
        tid = move.get("tile")
        name = ix.tile_name(tid) if isinstance(tid, str) and tid in ix.tile_ids else "a tile"
        sq = move.get("squares") or []
        where = ", ".join(f"({s[0]}, {s[1]})" for s in sq if isinstance(s, list) and len(s) == 2)
        rec = f", paying {move['recolour']} as its colour" if move.get("recolour") else ""
        if nm.is_named(state) and isinstance(tid, str) and tid in ix.tile_ids:
            pay = move.get("pay")
            if not isinstance(pay, dict):
                try:
                    after = en.clone(state)
                    pay = {} if en.run(ix, after, move, act=True) else (after["last"] or {}).get("paid")
                except Exception:  # noqa: BLE001 - a history line never fails
                    pay = None
            if isinstance(pay, dict):
                paid = ", ".join(f"{k} {c}" for c, k in pay.items() if isinstance(k, int) and k)
                rec = f", paying {paid or 'nothing'}"
        return f"{who} builds a {name} on {where}{using}{rec}"
    if t == "special-tile":
        s = move.get("square") or ["?", "?"]
        return f"{who} places a white tile on ({s[0]}, {s[1]}) (coat of arms)"
    if t == "take-ability":
        a = move.get("ability")
        name = ix.ability[a].name if isinstance(a, str) and a in ix.ability else a
        return f"{who} takes the {name} ability (coat of arms)"
    if t == "reactivate":
        return f"{who} turns their used abilities face up (coat of arms)"
    if t == "decline":
        return f"{who} forgoes the remaining coat-of-arms actions"
    if t == "end-turn":
        return f"{who} ends the turn"
    if t == "end-card":
        return "The end card came up in the refill: the game ends"
    return str(t)


def needs(ix, state: dict) -> dict:
    phase = state["phase"]
    out = {"phase": phase, "prompt": en.expected(ix, state), "moves": list(en.PHASE_MOVES[phase])}
    if phase in ("turn", "discard", "coats"):
        out["players"] = [state["current"]]
    else:
        out["players"] = []
    if phase == "refill":
        out["enter"] = {"cards": ix.harbour - len(state["harbour"])}
    if phase == "coats":
        out["coats"] = state["coats"]
    if nm.is_named(state):
        out["cards"] = nm.NAMED
        out["end_window"] = bool(state.get("end_window"))
        if out["end_window"]:
            out["table_moves"] = ["end-card"]
    deck = state.get("deck_size") if state.get("deck") is None else en.deck_count(state)
    out["deck_size"] = deck
    out["last_cards"] = bool(state.get("end_in_deck")) and deck is not None \
        and deck <= ix.data.end_card.bottom
    return out


def supply_view(ix, state: dict) -> list[dict]:
    return [{"tile": t, "left": state["supply"][t], "name": ix.tile_name(t)}
            for t in ix.tile_ids + [WHITE_TILE]]
