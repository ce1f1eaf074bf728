"""Sapporo 1876's final-scoring calculator (POST /api/sapporo-1876/score, API.md), pure.

The request's numbers are turned into one player's end-of-game state and scored by the engine's own
final scoring (engine.final_breakdown), so the calculator and the table agree by construction.

    calculate(ix, body) -> (reasons, {"points", "breakdown"} | None)

`body` has been type-checked by the web layer (whole numbers >= 0, booleans, lists of strings);
`reasons` (a 422) say what cannot occur in the game or which further field a held influential person
needs. Fields (API.md, and the further ones its OpenAPI part names):
    fame, academy {second_tier, top_tier, lower_tier?}, pioneering {top, second, columns?
    {column: space reached, 0-5}}, council {left, middle, right}, yen, resources,
    resources_by_kind? {resource: n}, persons [ids], buildings? (tiles owned), workers_in_area?
"""
from __future__ import annotations

from typing import Any

from . import engine as E

#: person counters -> the further field they need when it cannot be derived from API.md's fields
_NEEDS = {"resources": "resources_by_kind", "pioneering-spaces": "pioneering.columns",
          "building-tiles": "buildings", "workers-in-area": "workers_in_area"}


def calculate(ix: E.Index, body: dict) -> tuple[list[str], dict | None]:
    d = ix.data
    reasons: list[str] = []
    academy = body.get("academy") or {}
    pio = body.get("pioneering") or {}
    council = body.get("council") or {}
    persons = list(body.get("persons") or [])
    n_cols, n_spaces = len(ix.columns), len(ix.col[ix.columns[0]].spaces)
    columns = pio.get("columns")
    if isinstance(columns, dict) and "top" not in pio and "second" not in pio:
        # only the columns given: the top / second-from-top counts follow from them
        top = sum(1 for v in columns.values() if v == n_spaces)
        second = sum(1 for v in columns.values() if v == n_spaces - 1)
    else:
        top, second = pio.get("top", 0) or 0, pio.get("second", 0) or 0

    # -- what cannot occur ------------------------------------------------------------------------
    if academy.get("top_tier") and not academy.get("second_tier"):
        reasons.append("the academy is educated from the lowest tier up: the top tier cannot be "
                       "done before the second tier")
    if top + second > n_cols:
        reasons.append(f"{top} + {second} pioneering columns: a personal board has {n_cols}")
    if columns is not None:
        bad = [c for c in columns if c not in ix.col]
        if bad:
            reasons.append(f"pioneering.columns: {bad[0]!r} is not a column ({', '.join(ix.columns)})")
        elif any(v > n_spaces for v in columns.values()):
            reasons.append(f"pioneering.columns: a column has {n_spaces} spaces")
        elif (sum(1 for v in columns.values() if v == n_spaces) != top
              or sum(1 for v in columns.values() if v == n_spaces - 1) != second):
            reasons.append("pioneering.columns does not agree with pioneering.top and pioneering.second")
    for c in ix.council:
        if (council.get(c) or 0) > len(ix.ccol[c].spaces):
            reasons.append(f"{council.get(c)} workers in the {ix.ccol[c].name.lower()}: it has "
                           f"{len(ix.ccol[c].spaces)} spaces")
    unknown = [c for c in council if c not in ix.ccol]
    if unknown:
        reasons.append(f"council: {unknown[0]!r} is not a column ({', '.join(ix.council)})")
    bad = [p for p in persons if p not in ix.person]
    if bad:
        reasons.append(f"persons: {bad[0]!r} is not an influential person ({', '.join(ix.persons)})")
    if len(set(persons)) != len(persons):
        reasons.append("persons: each influential person tile exists once")
    if len(persons) > d.setup.persons_on_board:
        reasons.append(f"{len(persons)} influential persons: only {d.setup.persons_on_board} are laid out")
    by_kind = body.get("resources_by_kind")
    if by_kind is not None:
        if any(r not in ix.resources for r in by_kind):
            reasons.append(f"resources_by_kind: the resources are {', '.join(ix.resources)}")
        elif sum(by_kind.values()) != (body.get("resources") or 0):
            reasons.append("resources_by_kind does not add up to resources")
    placed = sum(council.get(c) or 0 for c in ix.council) + (
        len([v for v in columns.values() if v]) if columns else top + second)
    per_player = d.colours[0].workers
    if placed + (body.get("workers_in_area") or 0) > per_player:
        reasons.append(f"more than the {per_player} workers a player has on the council, in "
                       "pioneering columns and in the worker area")
    if body.get("buildings") is not None and body["buildings"] > len(ix.buildings):
        reasons.append(f"{body['buildings']} building tiles: the game has {len(ix.buildings)}")
    if reasons:
        return reasons, None

    # -- the fields the persons held need ------------------------------------------------------------
    for pid in persons:
        rule = ix.person[pid].scoring
        need = _NEEDS.get(rule.counter)
        if rule.counter == "pioneering-columns" and (rule.columns or rule.min_space < n_spaces - 1):
            need = "pioneering.columns"
        if rule.counter == "academy-tiers" and not academy.get("second_tier"):
            need = None if "lower_tier" in academy else "academy.lower_tier"
        if need is None:
            continue
        head, _, tail = need.partition(".")
        given = (pio.get(tail) if head == "pioneering" else academy.get(tail) if head == "academy"
                 else body.get(head))
        if given is None:
            reasons.append(f"{ix.person[pid].name} scores from {need.replace('_', ' ')}: give \"{need}\"")
    if reasons:
        return reasons, None

    # -- one player's end-of-game state, scored by the engine -------------------------------------------
    if columns is None:
        order = iter(ix.columns)
        columns = {}
        for _ in range(top):
            columns[next(order)] = n_spaces
        for _ in range(second):
            columns[next(order)] = n_spaces - 1
    tiers = 3 if academy.get("top_tier") else 2 if academy.get("second_tier") else \
        1 if academy.get("lower_tier") else 0
    resources = {r: 0 for r in ix.resources}
    if by_kind:
        resources.update(by_kind)
    else:
        resources[ix.resources[0]] = body.get("resources") or 0
    state = {
        "council": {c: [0] * (council.get(c) or 0) + [None] * (len(ix.ccol[c].spaces) - (council.get(c) or 0))
                    for c in ix.council},
        "players": [{
            "name": "", "fame": body.get("fame") or 0, "yen": body.get("yen") or 0,
            "resources": resources, "educated": ix.tier_end[tiers - 1] if tiers else 0,
            "pioneer": {c: columns.get(c, 0) for c in ix.columns}, "persons": persons,
            "buildings": [{"id": "", "worker": False}] * (body.get("buildings") or 0),
            "area": body.get("workers_in_area") or 0}],
    }
    rows = E.final_breakdown(ix, state, 0)
    return [], {"points": sum(v for _, v in rows),
                "breakdown": [{"label": label, "value": v} for label, v in rows]}


def example_body() -> dict[str, Any]:
    """The rules' final scoring example (9 + 9 + 3 + 7 + 21 + 1) as a calculator request."""
    return {"fame": 0, "academy": {"second_tier": True, "top_tier": True},
            "pioneering": {"top": 1, "second": 2, "columns": {"wheat": 4, "sheep": 5, "cattle": 4}},
            "council": {"left": 2, "middle": 1, "right": 1}, "yen": 1, "resources": 2,
            "persons": ["b-ryan", "e-dunn"]}
