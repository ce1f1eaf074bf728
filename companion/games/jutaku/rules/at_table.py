"""Tokyo Jutaku at the table: the turn cues (contract.Rules.table_facts), pure.

Main game: the site cards still on the map, the drinks left in the box (Bottle Bonus) and the
players one card short of the end; never "last round" (a round is never known to be the last
before its check: main.could_be_last says it could be). Izakaya: the final action phase once the yen
bid reaches the threshold. Countdown shows its floor clock itself.
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
    # "Once a player finishes their fourth site card, the game ends": no round is known to be the
    # last before its check (a building may fail it, a timed round may run out), so the main game
    # never raises the "Last round!" banner; its prompt and board page say when a round could be
    # the last (main.could_be_last).
    close = sum(1 for p in state["players"] if len(p.get("kept") or ()) >= end - 1)
    if close:
        counts.append({"label": f"Players one site card from the end ({end} ends the game)", "n": close})
    return {"last_round": False, "counts": counts}


def setup_steps(data, state: dict) -> list[dict]:
    """The main game's set-up ("Starting the Game"), step by step, until someone says "begin"
    (contract.Rules.setup_steps); Countdown and Izakaya set up as their pages show."""
    if state.get("mode") != "jutaku" or state.get("phase") not in ("start", "ready") \
            or state.get("round"):                      # "ready" again before each later round
        return []
    n_sites = len(state["map"])
    side = "blue" if state.get("side") == "blue" else "white"
    placed = [p["name"] for p in state["players"] if p.get("site")]
    waiting = [p["name"] for p in state["players"] if not p.get("site")]
    steps = [
        {"title": "The map",
         "text": f"Lay the {n_sites} site cards in a 6 × 6 grid, {side} side up, grouped by their "
                 "locations in Tokyo, and put the wooden building pieces where the 4 centre cards "
                 "would be.", "input": None, "done": False},
        {"title": "Architects",
         "text": "Each player chooses an architect token and puts it on a site card at the edge of "
                 "the map, then takes that card (the token stays). Enter where each architect went"
                 + (f" (still to enter: {', '.join(waiting)})." if waiting and placed else "."),
         "input": "start", "done": not waiting},
    ]
    if state.get("bottle_bonus"):
        steps.append({"title": "Bottle Bonus",
                      "text": "Keep the drink bottles in their box beside the map: after each round "
                              "the companion's board page says which come out.",
                      "input": None, "done": False})
    timed = state.get("round_ms")
    steps.append({"title": "Begin!",
                  "text": "Someone says “begin” (tap it on the board page) and everyone builds at once"
                          + (f", against a clock of {timed // 60000}:{timed // 1000 % 60:02d} per round."
                             if timed else "."),
                  "input": "begin", "done": False})
    return steps
