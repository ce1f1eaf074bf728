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


SETUP_PHASES = ("tiles", "buy", "place")


def setup_steps(ix, state: dict) -> list[dict]:
    """The set-up of the rulebook's "Setup", step by step, until the first turn
    (contract.Rules.setup_steps): the board, the tiles (entered in table mode, named in companion
    mode), each player's pieces, the building each buys and the first pioneer each places."""
    phase = state.get("phase")
    if phase not in SETUP_PHASES:
        return []
    s = ix.data.setup
    table = state["mode"] == "table"
    names = [p["name"] for p in state["players"]]
    start = state["start_player"]
    other = names[1 - start] if len(names) == 2 else "the other player"
    at = SETUP_PHASES.index(phase)
    resources = ", ".join(f"{n} {ix.res_name[r].lower()}" for r, n in s.resources.items() if n)
    colours = ", ".join(f"{p['name']} {ix.colour_name.get(p['colour'], p['colour']).lower()}"
                        for p in state["players"])

    notes = "a 1-yen note" if s.notes_on_action_spots == 1 else f"{s.notes_on_action_spots} 1-yen notes"
    workers = s.workers_in_area + ix.academy_size

    def step(title, text, move=None, done=False):
        return {"title": title, "text": text, "input": move, "done": bool(done)}

    steps = [step("The main board",
                  "Put the main board in the middle, the action pawn in the centre of the 4 action "
                  "spots, the harvest marker on the bottom row of its track and the settlement "
                  "marker on the top row of its track. Sort the banknotes and resources into the "
                  f"common supply and put {notes} on each action spot.")]
    if table:
        steps.append(step("The tiles",
                          f"Shuffle the influential persons and lay {s.persons_on_board} face up on "
                          f"the board's centre spaces; shuffle the building tiles and lay "
                          f"{s.buildings_on_board} face up on the spaces at the bottom and "
                          f"{s.buildings_beside_board} beside the board. The rest go back in the box. "
                          "Enter the tiles you laid out.", "lay-out-tiles", at > 0))
    else:
        def named(ids):
            return ", ".join(ix.tile_name.get(i, i) for i in ids)
        steps.append(step("The tiles",
                          f"Lay these out face up: persons {named(state['persons'])}; buildings on the "
                          f"board {named(state['buildings'])}; beside the board "
                          f"{named(state['beside'])}. The rest go back in the box."))
    steps.append(step("Each player's pieces",
                      f"Each player takes a personal board and the {workers} workers of their colour "
                      f"({colours}): {s.workers_in_area} on the worker area, the others on the "
                      f"private academy's spaces. Score markers on {s.score}; each player takes "
                      f"{s.yen} yen and {resources}."))
    steps.append(step("A building each",
                      f"{other} buys one of the buildings beside the board first, then "
                      f"{names[start]} (paid in yen only). The two left go back in the box.",
                      "buy-building", at > 1))
    steps.append(step("The first pioneers",
                      f"{names[start]} puts a worker on the bottom space of a pioneering column, free; "
                      f"then {other} in another column. Then {names[start]} starts.",
                      "place-pioneer", False))
    return steps
