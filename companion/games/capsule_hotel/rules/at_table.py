"""Tokyo Capsule Hotel at the table: the turn cues (contract.Rules.table_facts), pure.

The round track is public: the round, how many are left after it, and the last round (the game
ends after its income, if no loans phase has ended it before).
"""
from __future__ import annotations


def table_facts(data, state: dict) -> dict:
    if state.get("phase") == "over":
        return {}
    total, r = data.rounds.count, state["round"]
    return {"last_round": r >= total,
            "counts": [{"label": f"Rounds left after round {r}", "n": max(0, total - r)}]}
