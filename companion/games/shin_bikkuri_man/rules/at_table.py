"""Shin Bikkuri Man at the table: the turn cues (contract.Rules.table_facts), pure.

What anyone at the table sees: how many cards the deck and the discard pile hold (not which), and
whether the end card can come up now (it is shuffled into the deck's bottom cards, so once that few
cards are left any refill may reveal it and end the game).
"""
from __future__ import annotations

from . import engine as _en


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
