"""Shin Bikkuri Man at the table: the turn cues (contract.Rules.table_facts), pure.

What anyone at the table sees: how many cards the deck and the discard pile hold (not which), and
whether the end card can come up now (it is shuffled into the deck's bottom cards, so once that few
cards are left any refill may reveal it and end the game).
"""
from __future__ import annotations

from . import engine as _en
from . import named as _named


def table_facts(ix, state: dict) -> dict:
    if state.get("phase") == "over":
        return {}
    counts = [{"label": "Cards left in the deck", "n": _en.deck_count(state)},
              {"label": "Cards in the discard pile", "n": sum(state["discard"].values())}]
    facts = {"last_round": False, "counts": counts}
    if state.get("deal") is None and _en.end_possible(ix, state):
        facts["last_round"] = True
        facts["last_round_note"] = (f"The end card is among the last {ix.data.end_card.bottom} "
                                    "cards: any refill may end the game.")
    return facts


def setup_steps(ix, state: dict) -> list[dict]:
    """The set-up, step by step, while no turn has been played (contract.Rules.setup_steps)."""
    last = state.get("last") or {}
    if state.get("phase") == "over" or state.get("turn", 1) > 1 or state.get("done") \
            or (last.get("type") or last.get("move")) not in (None, "deal-hand", "fill-harbour"):
        return []
    data = ix.data
    table = state["mode"] == _en.TABLE
    named = _named.is_named(state)          # the table deals; nothing is entered
    deal = state.get("deal") or {}
    dealt = state["phase"] != "deal" and not named
    names = [p["name"] for p in state["players"]]
    n, start = len(names), state["start_player"]
    per = data.cards_per_colour(n)
    colours = len(ix.colours)
    starting = ", ".join(a.name for a in data.abilities if a.starting)
    order = [(start + k) % n for k in range(n)]
    hands = ", ".join(f"{names[p]} {data.starting_hand(k + 1)}" for k, p in enumerate(order))
    end_when = data.end_card_shuffled_in(n)

    def step(title, text, move=None, done=False):
        return {"title": title, "text": text, "input": move if table and not named else None,
                "done": bool(done) or dealt}

    ability = f" and a starting ability tile ({starting})" if starting else ""
    steps = [step("Boards and tiles",
                  f"Each player takes a player board{ability}. "
                  "Sort the façade tiles by colour into the supply, with the white special tiles "
                  "and the other ability tiles beside them.")]
    if table:
        end = (f"Shuffle the end card into the bottom {data.end_card.bottom} cards."
               if end_when == "setup" else
               "Keep the end card aside: it joins the deck when the discards are first shuffled "
               f"into a new one (in its bottom {data.end_card.bottom} cards).")
        steps.append(step("The deck",
                          f"Use {per} cards of each of the {colours} colours ({per * colours} cards) "
                          f"and shuffle them into the deck. {end}"))
        if named:
            steps.append(step("The harbour",
                              f"Lay {ix.harbour} cards from the deck face up in a row: the harbour. "
                              "Nothing to enter: the companion counts the spaces, and a card's colour "
                              "is named only when it is paid or discarded."))
            steps.append(step("Starting hands",
                              f"Deal the starting hands in turn order: {hands} cards. Nothing to "
                              "enter: each player keeps their cards in hand."))
        else:
            steps.append(step("The harbour",
                              f"Lay {ix.harbour} cards from the deck face up in a row: the harbour. "
                              "Enter them in their order.", "fill-harbour", deal.get("harbour")))
            steps.append(step("Starting hands",
                              f"Deal the starting hands in turn order: {hands} cards. Each player "
                              "enters their hand (the host's phone may enter every hand).",
                              "deal-hand", all(deal.get("hands") or [False])))
    else:
        steps.append(step("The deck and the harbour",
                          f"The companion shuffled the deck, laid out the {ix.harbour}-card harbour and "
                          f"dealt the starting hands ({hands} cards): each phone with a seat shows "
                          "its own hand, the board page the harbour. Put the cards aside, or lay "
                          "them out as the companion shows them."))
    steps.append(step("First player", f"{names[start]} plays first."))
    return steps
