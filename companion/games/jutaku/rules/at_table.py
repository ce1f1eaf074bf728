"""Tokyo Jutaku at the table: the turn cues (contract.Rules.table_facts), pure.

Main game: the site cards still on the map, the drinks left in the box (Bottle Bonus), and the last
round once a player holds one card short of the end (completing one more ends the game). Izakaya:
the final round once the supply runs short. Countdown shows its floor clock itself.
"""
from __future__ import annotations


def table_facts(data, state: dict) -> dict:
    if state.get("phase") == "over":
        return {}
    mode = state.get("mode")
    if mode == "izakaya":
        return {"last_round": bool(state.get("final"))}
    if mode == "countdown" or "map" not in state:
        return {}
    end = data.rules.end_sites
    counts = [{"label": "Site cards left on the map",
               "n": sum(1 for v in state["map"].values() if v)}]
    if state.get("box"):
        counts.append({"label": "Drinks left in the box", "n": sum(state["box"].values())})
    close = [p["name"] for p in state["players"] if len(p.get("kept") or ()) >= end - 1]
    facts = {"last_round": bool(close), "counts": counts}
    if close:
        facts["last_round_note"] = (f"{', '.join(close)} {'has' if len(close) == 1 else 'have'} "
                                    f"{end - 1} site cards: one more completed ends the game.")
    return facts
