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


def izakaya_steps(data, state: dict) -> list[dict]:
    """Izakaya's set-up at a table that draws, until the turn order drawn is entered (its "Setup")."""
    iz = data.izakaya
    n, size = len(state["players"]), state["size"]
    names = {d.id: d.name.lower() for d in data.drinks}
    prices = ", ".join(f"{names.get(d, d)} {p:,}" for d, p in iz.start_price.items())
    return [
        {"title": "The grid",
         "text": f"Shuffle the site cards and lay a {size} × {size} grid, {iz.side} side up"
                 + (", the centre card flipped to its blue side: it cannot be claimed" if state.get("blocked")
                    else "") + ". Put one more card, blue side up, to the left of the grid (the site "
                 "claiming spot), the Jutaku pieces above the grid and an architect token beside them.",
         "input": None, "done": False},
        {"title": "Drinks and coins",
         "text": f"Lay the {len(iz.stock.order)} colour stock cards in a row below the grid, each with a "
                 "crate of its drinks below it, and a shape stock card face down at the right of the row. "
                 f"Coins on the colour cards, in yen: {prices}.",
         "input": None, "done": False},
        {"title": "Players",
         "text": f"Each of the {n} players takes {iz.pyramids} pyramids, {iz.discs} discs of one colour "
                 f"and {iz.start_yen:,} yen.",
         "input": None, "done": False},
        {"title": "Turn order",
         "text": "Using the players' remaining disc, draw them 1 at a time: that is the turn order. Enter "
                 "it on the board page.",
         "input": "turn-order", "done": False},
    ]


def setup_steps(data, state: dict) -> list[dict]:
    """The main game's set-up ("Starting the Game"), step by step, until someone says "begin"
    (contract.Rules.setup_steps); Izakaya's at a table that draws until the turn order drawn is
    entered; Countdown sets up as its page shows."""
    if state.get("mode") == "izakaya" and state.get("phase") == "order":
        return izakaya_steps(data, state)
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
