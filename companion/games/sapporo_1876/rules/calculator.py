"""Sapporo 1876's final-scoring calculator (POST /api/sapporo-1876/score, API.md), pure.

The request's numbers are turned into one player's end-of-game state and scored by the engine's own
final scoring (engine.final_breakdown), so the calculator and the table agree by construction.

    calculate(ix, body) -> (reasons, {"points", "breakdown"} | None)

`body` has been type-checked by the web layer (whole numbers, booleans, lists of strings: a field of
the wrong JSON type is its 400); `reasons` (a 422) say what cannot occur in the game or which further
field a held influential person needs. What cannot occur comes from the data (`limits`): a number
below 0; a column or council column with more spaces than it has; more workers than a player's 9,
the set-up pioneer counted (it never leaves its column, even where no column is given); more
workers out of the private academy than the 3 of the worker area and those its tiers can have
educated (absent `second_tier` / `top_tier`: not educated, as scored; the tiers are educated from
the lowest up); building tiles other than the 1 bought at set-up plus up to the 6 of the main
board; more influential persons than the 6 laid out. The common supply is unlimited, so fame, yen
and resources have no upper limit. Fields (API.md, and the further ones its OpenAPI part names):
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


def limits(ix: E.Index) -> dict[str, int]:
    """What one player's end-of-game board can hold, from the data (the calculator page's steppers
    use them too)."""
    d = ix.data
    return {"workers": min(c.workers for c in d.colours),            # a player's workers
            "free_pioneers": d.setup.free_pioneers,                  # never leave their columns
            "workers_in_area": min(c.workers for c in d.colours) - d.setup.free_pioneers,
            "buildings_min": d.setup.buildings_bought,               # bought at set-up, never lost
            "buildings": d.setup.buildings_bought + d.setup.buildings_on_board,
            "persons": d.setup.persons_on_board}


def _academy(ix: E.Index, academy: dict) -> tuple[list[str], int, int]:
    """(reasons, fewest, most) workers educated, from the tiers said to be (or not be) educated."""
    tiers = ix.tiers
    # second_tier and top_tier are API.md's fields (absent: not educated, as they are scored);
    # lower_tier is optional (absent: not said)
    flags = [academy.get("lower_tier"), bool(academy.get("second_tier")), bool(academy.get("top_tier"))]
    reasons = []
    if academy.get("top_tier") and not academy.get("second_tier"):
        reasons.append("the academy is educated from the lowest tier up: the top tier cannot be "
                       "done before the second tier")
    elif (academy.get("top_tier") or academy.get("second_tier")) and flags[0] is False:
        reasons.append("the academy is educated from the lowest tier up: the lowest tier is done "
                       "before the tiers above it")
    done = 0                                   # tiers surely complete, from the lowest
    for i, f in enumerate(flags):
        if f or any(flags[i + 1:]):
            done = i + 1
    first_open = next((i for i, f in enumerate(flags) if f is False and i >= done), None)
    fewest = ix.tier_end[done - 1] if done else 0
    most = ix.academy_size if first_open is None else \
        (ix.tier_end[first_open - 1] if first_open else 0) + tiers[first_open].workers - 1
    return reasons, fewest, max(fewest, most)


def calculate(ix: E.Index, body: dict) -> tuple[list[str], dict | None]:
    d = ix.data
    lim = limits(ix)
    reasons: list[str] = []
    academy = body.get("academy") or {}
    pio = body.get("pioneering") or {}
    council = body.get("council") or {}
    persons = list(body.get("persons") or [])
    n_cols = len(ix.columns)
    height = {c: len(ix.col[c].spaces) for c in ix.columns}
    columns = pio.get("columns")

    # -- numbers below 0 cannot occur ---------------------------------------------------------------
    numbers = [(k, body.get(k)) for k in ("fame", "yen", "resources", "buildings", "workers_in_area")]
    numbers += [(f"pioneering.{k}", pio.get(k)) for k in ("top", "second")]
    numbers += [(f"pioneering.columns.{k}", v) for k, v in (columns or {}).items()]
    numbers += [(f"council.{k}", v) for k, v in council.items()]
    numbers += [(f"resources_by_kind.{k}", v) for k, v in (body.get("resources_by_kind") or {}).items()]
    negative = [k for k, v in numbers if v is not None and v < 0]
    if negative:
        return [f"{k}: {dict(numbers)[k]} is below 0; nothing in the game can be fewer than none"
                for k in negative], None

    if isinstance(columns, dict) and "top" not in pio and "second" not in pio:
        # only the columns given: the top / second-from-top counts follow from them
        top = sum(1 for c, v in columns.items() if c in height and v == height[c])
        second = sum(1 for c, v in columns.items() if c in height and v == height[c] - 1)
    else:
        top, second = pio.get("top", 0) or 0, pio.get("second", 0) or 0

    # -- what cannot occur ------------------------------------------------------------------------
    r, _, educated_most = _academy(ix, academy)
    reasons += r
    if top + second > n_cols:
        reasons.append(f"{top} + {second} pioneering columns: a personal board has {n_cols}")
    if columns is not None:
        bad = [c for c in columns if c not in ix.col]
        if bad:
            reasons.append(f"pioneering.columns: {bad[0]!r} is not a column ({', '.join(ix.columns)})")
        elif any(v > height[c] for c, v in columns.items()):
            c = next(c for c, v in columns.items() if v > height[c])
            reasons.append(f"pioneering.columns: the {ix.col[c].name.lower()} has {height[c]} spaces")
        elif (sum(1 for c, v in columns.items() if v == height[c]) != top
              or sum(1 for c, v in columns.items() if v == height[c] - 1) != second):
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
    if len(persons) > lim["persons"]:
        reasons.append(f"{len(persons)} influential persons: only {lim['persons']} are laid out")
    by_kind = body.get("resources_by_kind")
    if by_kind is not None:
        if any(r not in ix.resources for r in by_kind):
            reasons.append(f"resources_by_kind: the resources are {', '.join(ix.resources)}")
        elif sum(by_kind.values()) != (body.get("resources") or 0):
            reasons.append("resources_by_kind does not add up to resources")
    # the workers out of the private academy: those that start in the worker area and those
    # educated; among them the set-up pioneer, who never leaves its column
    on_council = sum(council.get(c) or 0 for c in ix.council if c in ix.ccol)
    pioneers = max(lim["free_pioneers"],
                   len([v for v in columns.values() if v]) if isinstance(columns, dict) else top + second)
    in_area = body.get("workers_in_area") or 0
    out = d.setup.workers_in_area + educated_most
    if on_council + pioneers + in_area > out:
        where = f"a player has {lim['workers']} workers" if on_council + pioneers + in_area > lim["workers"] \
            else (f"at most {out} workers are out of the private academy ({d.setup.workers_in_area} start "
                  f"in the worker area, at most {educated_most} educated as the academy's tiers say)")
        reasons.append(f"{on_council} on the city council + {pioneers} in pioneering columns (the set-up "
                       f"pioneer never leaves its column) + {in_area} in the worker area: {where}")
    b = body.get("buildings")
    if b is not None and not lim["buildings_min"] <= b <= lim["buildings"]:
        reasons.append(f"{b} building tiles: a player buys {lim['buildings_min']} at set-up and can invest "
                       f"in the {d.setup.buildings_on_board} on the main board, so holds "
                       f"{lim['buildings_min']} to {lim['buildings']}")
    if reasons:
        return reasons, None

    # -- the fields the persons held need ------------------------------------------------------------
    for pid in persons:
        rule = ix.person[pid].scoring
        need = _NEEDS.get(rule.counter)
        if rule.counter == "pioneering-columns" and (rule.columns or any(rule.min_space < h - 1
                                                                         for h in height.values())):
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
            c = next(order)
            columns[c] = height[c]
        for _ in range(second):
            c = next(order)
            columns[c] = height[c] - 1
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
