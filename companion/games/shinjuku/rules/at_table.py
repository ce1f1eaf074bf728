"""Shinjuku at the table: the turn cues (contract.Rules.table_facts) and the set-up walked step by
step (contract.Rules.setup_steps), pure, from the state and the game's data (Index).

Facts are what anyone at the table can see on the real table: how many cards the deck holds (not
which), the customer tokens left in the bag, the upgrade bonus tokens left, and whether this is the
final round (the rules: once the last customer has left the bag and the queue, play goes on until
the turn comes back to the start player).

The set-up follows the rules text ("Per-player Setup", "General Setup") in its order; in table-deck
mode the steps that draw ask for what was drawn (the deal moves), in companion mode they say what
the companion drew.
"""
from __future__ import annotations

from . import state as st
from .index import Index

STEPS_TABLE = ("deal-hand", "seed-ward", "place-matsuri", "fill-queue")


def table_facts(ix: Index, state: dict) -> dict:
    if state.get("phase") == "over":
        return {}
    counts = [{"label": "Cards left in the deck", "n": st.deck_size(state)},
              {"label": "Customers left in the bag", "n": len(state["bag"])},
              {"label": "Upgrade bonus tokens left", "n": len(state["bonus_stack"])}]
    facts = {"last_round": bool(state.get("final_round")), "counts": counts}
    if facts["last_round"]:
        start = state["players"][state["start_player"]]["name"]
        facts["last_round_note"] = f"The game ends before {start}'s next turn."
    return facts


def _started(state: dict) -> bool:
    """The first turn has been played (or the table deal is over and a turn move was made)."""
    if state["phase"] == "deal":
        return False
    return bool(state.get("last")) and state["last"].get("move") not in STEPS_TABLE


def setup_steps(ix: Index, state: dict) -> list[dict]:
    if _started(state) or state.get("phase") == "over":
        return []
    table = state["mode"] == st.TABLE
    deal = state.get("deal") or {}
    names = [p["name"] for p in state["players"]]
    n = len(names)
    p0 = state["players"][0]
    stores = sum(p0["stores"].values())
    colours = ", ".join(f"{p['name']} {p['colour']}" for p in state["players"])
    start = names[state["start_player"]]

    dealt = state["phase"] != "deal"          # the table deal is over: every entry is made

    def step(title, text, move=None, done=False):
        return {"title": title, "text": text, "input": move if table else None,
                "done": bool(done) or dealt}

    steps = [step(
        "Colours and pieces",
        f"Each of the {n} players takes the pieces of their colour ({colours}): {stores} stores, "
        f"{p0['department_stores']} department stores and {p0['track']} track pieces.")]
    if table:
        steps.append(step(
            "Cards, bag and bonus tokens",
            f"Shuffle the {len(ix.full_deck)} ward cards into a face-down deck. Put all "
            f"{len(ix.full_bag)} customer tokens in the bag and shake it. Stack the "
            f"{len(ix.bonus_values)} upgrade bonus tokens beside the board."))
        hands = deal.get("hands") or [True] * n
        if st.named(state):
            steps.append({**step(
                "Deal the hands",
                f"Deal {ix.hand_size} cards to each player, face down. Keep your hand in your hand: "
                "it is never entered. You name a card on the board page when you play it."),
                "input": None, "done": dealt})
        else:
            steps.append(step(
                "Deal the hands",
                f"Deal {ix.hand_size} cards to each player. Each player enters their hand on the board "
                "page (the host's phone may enter every hand).", "deal-hand", all(hands)))
        steps.append(step(
            "Starting customers",
            f"Draw ward cards until you have {ix.seed_wards} different wards (draw again on a "
            f"duplicate). Draw {ix.seed_customers} customers from the bag for each of them and put "
            "them in that ward; the cards go to the discard pile. Enter each ward and its customers.",
            "seed-ward", len(deal.get("seeded") or ()) >= ix.seed_wards))
        steps.append(step(
            "The Matsuri",
            "Draw one more ward card and put the Matsuri token in that ward; discard the card. "
            "Enter the ward.", "place-matsuri", deal.get("matsuri")))
        steps.append(step("Start player", f"{start} takes the Start Player token and plays first."))
        steps.append(step(
            "The customer queue",
            f"Draw {ix.slots} ward cards onto the queue spaces, ④ first and ① last. Then draw "
            f"{ix.queue_start} customers from the bag: a customer whose type is already in the queue "
            "goes on that card, any other on the next empty card. Enter the cards and the customers.",
            "fill-queue", deal.get("queue")))
    else:
        seeded = ", ".join(f"{ix.wname(w)} ({', '.join(ix.tname(t) for t in toks)})"
                           for w, toks in state["wards"].items() if toks)
        steps.append(step(
            "Pieces the companion keeps",
            "The companion is the deck and the bag: leave the ward cards and customers in the box "
            f"or use them to show what it draws. Stack the {len(ix.bonus_values)} upgrade bonus "
            "tokens beside the board."))
        steps.append(step(
            "Hands",
            f"The companion dealt {ix.hand_size} cards to each player: each phone with a seat shows "
            "its own hand."))
        steps.append(step(
            "Starting customers",
            f"Put these customers on the map: {seeded}." if seeded else
            "The companion placed the starting customers: the board page shows them."))
        if state.get("matsuri"):
            steps.append(step("The Matsuri",
                              f"Put the Matsuri token in {ix.wname(state['matsuri'])}."))
        steps.append(step("Start player", f"{start} takes the Start Player token and plays first."))
        queue = " · ".join(
            f"{'①②③④⑤⑥'[i] if i < 6 else i + 1} {ix.wname(q['card'])}"
            + (f" ({', '.join(ix.tname(t) for t in q['customers'])})" if q["customers"] else "")
            for i, q in enumerate(state["queue"]) if q.get("card"))
        steps.append(step("The customer queue",
                          f"Lay out the queue as the companion drew it: {queue}." if queue else
                          "The companion filled the queue: the board page shows it."))
    return steps
