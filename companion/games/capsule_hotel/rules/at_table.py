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


def setup_steps(data, state: dict) -> list[dict]:
    """The set-up, step by step, until the starting loans are chosen (contract.Rules.setup_steps):
    the rules text's first steps, the starting lots as the companion drew who claims which (a house
    rule, game.toml [setup]), then the secret loans entered on the phones."""
    if state.get("round") != 1 or state.get("phase") != "loans":
        return []
    names = [p["name"] for p in state["players"]]
    claims = [(land_id, names[land["owner"]]) for land_id, land in sorted(state["lands"].items())
              if land.get("start") and land.get("owner") is not None]
    claimed = {who for _, who in claims}
    without = [n for n in names if n not in claimed]
    lots = "; ".join(f"{who} starting lot {land_id[1:]}" for land_id, who in claims)
    coupons = (f" {', '.join(without)} claims none and takes {data.setup.no_starting_lot_coupons} "
               "coupons instead." if without else "")
    chosen = set(state.get("loan_choices") or {})
    amounts = ", ".join(f"{o.amount:,}" for o in data.loan.option)
    return [
        {"title": "Map, ledgers and boards",
         "text": "Put a map sheet in the middle with the round expenses board, the franchise income "
                 "board and the capsule board beside it. Each player takes a player ledger and a "
                 "seal.", "input": None, "done": False},
        {"title": "Starting lots",
         "text": f"Each player outlines their starting lot on the map in their colour: {lots}."
                 f"{coupons} The starting lots nobody claims are not in play.",
         "input": None, "done": False},
        {"title": "Starting loans",
         "text": f"Each player chooses a loan ({amounts} yen) on their own phone, in secret: the "
                 "loans are shown together once everyone has chosen. Write yours on your ledger.",
         "input": "choose-loan", "done": len(chosen) >= len(names)},
    ]
