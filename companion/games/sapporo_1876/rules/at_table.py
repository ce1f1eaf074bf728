"""Sapporo 1876 at the table: the turn cues (contract.Rules.table_facts), pure.

The tracks are public: how many harvests and settlements are still to come before the end (the
game ends after the turn of the last one), and the last stretch once one is left.
"""
from __future__ import annotations


def table_facts(ix, state: dict) -> dict:
    if state.get("phase") in ("over", "tiles"):
        return {}
    left = max(0, ix.data.end.events - state["events"])
    facts = {"last_round": left <= 1,
             "counts": [{"label": "Harvests and settlements before the end", "n": left}]}
    if left == 1:
        facts["last_round_note"] = "The next harvest or settlement ends the game after that turn."
    elif left == 0:
        facts["last_round_note"] = "This is the last turn."
    return facts
