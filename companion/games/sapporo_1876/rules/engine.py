"""Sapporo 1876: the engine behind RULES (see the package docstring for the state, the moves and
the decisions). Pure functions of the bound data (`Index`) and plain-JSON states."""
from __future__ import annotations

import copy
import itertools
import random
from typing import Any

from companion.games.words import count
from generator.canon.sapporo_1876 import ANY, FAME, YEN, Sapporo

from . import fame as _fame
from . import spots as _spots

TABLE, COMPANION = "table", "companion"
ACTION_MOVES = ("educate", "pioneer", "invest", "appoint")


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Index:
    """Look-ups derived once from the data."""

    def __init__(self, data: Sapporo):
        self.data = data
        self.resources = [r.id for r in data.resources]
        self.res_name = {r.id: r.name for r in data.resources}
        self.spots = [s.id for s in data.action_spots]
        self.spot = data.action_spot
        self.adjacent = data.adjacent
        self.columns = [c.id for c in data.pioneering.column]
        self.col = data.pioneer_column
        self.council = [c.id for c in data.council]
        self.ccol = data.council_column
        self.tiers = list(data.academy.tier)
        self.academy_size = data.academy.workers
        #: worker index (0 = the first educated) -> tier index
        self.worker_tier = [i for i, t in enumerate(self.tiers) for _ in range(t.workers)]
        self.tier_end = list(itertools.accumulate(t.workers for t in self.tiers))
        self.persons = [p.id for p in data.persons]
        self.buildings = [b.id for b in data.building_tiles]
        self.person = data.person
        self.building = data.building_tile
        self.tile_name = {**{p.id: p.name for p in data.persons},
                          **{b.id: b.name for b in data.building_tiles}}
        self.colours = [c.id for c in data.colours]
        self.colour_name = {c.id: c.name for c in data.colours}
        s = data.setup
        self.n_persons, self.n_buildings, self.n_beside = (s.persons_on_board, s.buildings_on_board,
                                                           s.buildings_beside_board)

    def tile_cost(self, tile: str) -> int:
        return self.person[tile].cost if tile in self.person else self.building[tile].cost

    def spot_values(self, spot: str) -> dict[str, int]:
        return dict(self.spot[spot].ap)


# --------------------------------------------------------------------------- payments

def payment_value(ix: Index, pay: dict, values: dict[str, int]) -> int:
    return sum(n * (ix.data.action_points.yen if k == YEN else values.get(k, 0)) for k, n in pay.items())


def check_payment(ix: Index, pl: dict, pay: Any, values: dict[str, int], cost: int,
                  what: str) -> list[str]:
    """Why `pay` does not pay `cost` AP for `what` (values: resource -> AP here; yen at face value)."""
    if cost == 0 and pay in (None, {}):
        return []
    if not isinstance(pay, dict):
        return [f"\"pay\" must be an object of what is paid, e.g. {{\"yen\": 2}}; {what} costs {cost} AP"]
    reasons, total = [], 0
    for k, n in pay.items():
        if not _int(n) or n < 0:
            reasons.append(f"pay: {k!r} must be a whole number of 0 or more")
            continue
        if n == 0:
            continue
        if k == YEN:
            if n > pl["yen"]:
                reasons.append(f"you have {pl['yen']} yen, not {n}")
            v = ix.data.action_points.yen
        elif k in values:
            if n > pl["resources"].get(k, 0):
                reasons.append(f"you have {pl['resources'].get(k, 0)} {ix.res_name[k]}, not {n}")
            v = values[k]
        else:
            takes = " and ".join(f"{ix.res_name[r]} ({a} AP)" for r, a in values.items())
            reasons.append(f"{ix.res_name.get(k, repr(k))} cannot be paid here: this action takes "
                           f"{takes}, and banknotes at face value")
            continue
        total += n * v
    if reasons:
        return reasons
    if total < cost:
        return [f"the payment is worth {total} AP; {what} costs {cost} AP"]
    # more is accepted: "Resources and banknotes can be paid in any combination and in any number"
    # ... "Leftover AP cannot be carried over to the next action, and no change is given."
    return []


def overpaid(ix: Index, pay: Any, values: dict[str, int], cost: int) -> int:
    """AP a valid payment gives beyond `cost` (lost: no change is given); the pages warn of it."""
    if not isinstance(pay, dict):
        return 0
    return max(0, payment_value(ix, {k: n for k, n in pay.items() if _int(n)}, values) - cost)


def payments(ix: Index, pl: dict, values: dict[str, int], cost: int, limit: int = 5) -> list[dict]:
    """The cheapest payments of `cost` AP the player can make (least AP wasted, then fewest yen,
    then fewest tokens), each minimal (no unit could be left out)."""
    if cost <= 0:
        return [{}]
    kinds = [k for k in values if pl["resources"].get(k, 0) > 0]
    ranges = [range(min(pl["resources"][k], -(-cost // values[k])) + 1) for k in kinds]
    found = []
    for counts in itertools.product(*ranges):
        ap = sum(c * values[k] for c, k in zip(counts, kinds))
        yen = max(0, cost - ap)
        if yen > pl["yen"]:
            continue
        pay = {k: c for k, c in zip(kinds, counts) if c}
        if yen:
            pay[YEN] = yen
        total = ap + yen
        units = [values[k] for k in pay if k != YEN] + ([1] if yen else [])
        if units and total - min(units) >= cost:
            continue
        found.append((total - cost, yen, sum(counts), sorted(pay.items()), pay))
    found.sort(key=lambda f: f[:4])
    return [f[4] for f in found[:limit]]


# --------------------------------------------------------------------------- setup

def validate_options(ix: Index, players: list, options: Any) -> list[str]:
    lo, hi = ix.data.players
    reasons = []
    if not isinstance(players, list) or not lo <= len(players) <= hi:
        reasons.append(f"{ix.data.name} is for {lo} players" if lo == hi else f"{lo}-{hi} players")
    if not isinstance(options, dict):
        return reasons + ["options must be an object"]
    tiles = options.get("tiles", TABLE)
    if tiles not in (TABLE, COMPANION):
        reasons.append("tiles: \"table\" (you shuffle and lay out the tiles and enter them) or "
                       "\"companion\" (the companion shuffles and draws them)")
    sp = options.get("start_player", 0)
    if not _int(sp) or not 0 <= sp < max(1, len(players) if isinstance(players, list) else 1):
        reasons.append("start_player: the seat index of the start player (the one who most recently "
                       "visited Sapporo)")
    cols = options.get("colours")
    if cols is not None:
        if (not isinstance(cols, list) or len(cols) != len(players or []) or len(set(map(str, cols))) != len(cols)
                or any(c not in ix.colours for c in cols)):
            reasons.append(f"colours: one of {', '.join(ix.colours)} per player, all different")
    unknown = set(options) - {"tiles", "start_player", "colours"}
    if unknown:
        reasons.append(f"unknown options: {', '.join(sorted(map(str, unknown)))}")
    return reasons


def setup(ix: Index, players: list[str], options: dict, seed: int) -> dict:
    from companion.games.contract import IllegalMove
    reasons = validate_options(ix, players, options)
    if reasons:
        raise IllegalMove(reasons)
    d = ix.data
    mode = options.get("tiles", TABLE)
    start = options.get("start_player", 0)
    colours = options.get("colours") or ix.colours[:len(players)]
    state = {
        "game": d.id, "mode": mode, "phase": "tiles", "start_player": start, "current": start,
        "acting": None, "turn": 0, "pawn": None,
        "notes": {s: d.setup.notes_on_action_spots for s in ix.spots},
        "harvest": 0, "settlement": 0, "events": 0, "pending": None, "returns": [],
        "history": [],
        "persons": [], "buildings": [], "beside": [],
        "council": {c: [None] * len(ix.ccol[c].spaces) for c in ix.council},
        "players": [{
            "name": name, "colour": colours[i], "yen": d.setup.yen,
            "resources": {r: d.setup.resources.get(r, 0) for r in ix.resources},
            "area": d.setup.workers_in_area, "educated": 0,
            "pioneer": {c: 0 for c in ix.columns}, "persons": [], "buildings": [],
            "fame": d.setup.score, "log": []} for i, name in enumerate(players)],
        "last": None,
    }
    if mode == COMPANION:
        rng = random.Random(seed)
        persons = list(ix.persons)
        rng.shuffle(persons)
        buildings = list(ix.buildings)
        rng.shuffle(buildings)
        _lay_out(ix, state, persons[:ix.n_persons], buildings[:ix.n_buildings],
                 buildings[ix.n_buildings:ix.n_buildings + ix.n_beside])
    return state


def _lay_out(ix: Index, state: dict, persons, buildings, beside) -> None:
    state["persons"], state["buildings"], state["beside"] = list(persons), list(buildings), list(beside)
    state["phase"] = "buy"
    state["acting"] = _other(state, state["start_player"])    # the non-start player buys first


def _other(state: dict, p: int) -> int:
    return (p + 1) % len(state["players"])


# --------------------------------------------------------------------------- actions

def action_values(ix: Index, state: dict, building_ap: int | None) -> dict[str, int]:
    if building_ap:
        return {r: building_ap for r in ix.resources}
    return ix.spot_values(state["pawn"])


def plan_action(ix: Index, state: dict, p: int, action: str, spec: dict,
                columns: tuple[str, ...] = ()) -> tuple[list[str], int, list]:
    """(reasons, AP cost, effects) of an action spec for player p; effects are applied by `_effect`."""
    pl = state["players"][p]
    d = ix.data
    if action == "educate":
        n, k = spec.get("workers", 0), spec.get("fame", 0)
        if not _int(n) or n < 0 or not _int(k) or k < 0:
            return ["workers and fame are whole numbers of 0 or more"], 0, []
        left = ix.academy_size - pl["educated"]
        if n > left:
            return [f"only {count(left, 'worker')} left in your private academy"], 0, []
        if n == 0 and k == 0:
            return ["educate at least one worker (or, with the academy empty, buy fame)"], 0, []
        if k and n < left:
            return [f"{d.academy.when_empty_ap} AP for {d.academy.when_empty_fame} fame only once the "
                    f"private academy is empty ({count(left - n, 'worker')} would still be in it)"], 0, []
        cost, effects, done = 0, [], pl["educated"]
        bonus_needed = False
        for i in range(done, done + n):
            t = ix.worker_tier[i]
            cost += ix.tiers[t].cost
            if i + 1 == ix.tier_end[t]:
                for step in ix.tiers[t].bonus:
                    if step.resource == ANY:
                        bonus_needed = True
                    effects.append(("step", step))
        cost += k * d.academy.when_empty_ap
        effects.insert(0, ("educate", n))
        if k:
            effects.append(("fame", k * d.academy.when_empty_fame))
        reasons = []
        if bonus_needed and spec.get("bonus") not in ix.resources:
            reasons.append(f"\"bonus\": the resource of your choice that completing the tier gives "
                           f"({', '.join(ix.resources)})")
        return reasons, cost, effects
    if action == "pioneer":
        steps = spec.get("steps")
        if not isinstance(steps, list) or not steps:
            return ["\"steps\": the columns to pioneer, one entry per space advanced (e.g. "
                    "[\"wheat\", \"wheat\"])"], 0, []
        if columns and len(set(map(str, steps))) > 1:
            # the tile: "perform one Pioneer action for yourself only, in either the rice bale or
            # the cattle column": one of its columns per use (as many spaces up it as are paid)
            names = " or the ".join(ix.col[c].name.lower() for c in columns if c in ix.col)
            return [f"this building pioneers in either the {names}, one of them per use"], 0, []
        pos = dict(pl["pioneer"])
        area, cost = pl["area"], 0
        for c in steps:
            if c not in ix.col:
                return [f"{c!r} is not a pioneering column ({', '.join(ix.columns)})"], 0, []
            if columns and c not in columns:
                return [f"this building pioneers only the {' or '.join(columns)} column"], 0, []
            spaces = ix.col[c].spaces
            if pos[c] == 0:
                if area <= 0:
                    return [f"no worker in your worker area to start the {ix.col[c].name}"], 0, []
                area -= 1
            elif pos[c] >= len(spaces):
                return [f"your worker in the {ix.col[c].name} is on its top space"], 0, []
            cost += spaces[pos[c]].cost
            pos[c] += 1
        return [], cost, [("pioneer", steps)]
    if action == "invest":
        tile = spec.get("tile")
        on_board = [t for t in state["persons"] + state["buildings"] if t]
        if not isinstance(tile, str) or tile not in on_board:
            on = ", ".join(on_board) or "none left"
            return [f"\"tile\": a tile on the main board ({on})"], 0, []
        return [], ix.tile_cost(tile), [("invest", tile)]
    if action == "appoint":
        col, space = spec.get("column"), spec.get("space")
        if col not in ix.ccol:
            return [f"\"column\": a city council column ({', '.join(ix.council)})"], 0, []
        n = len(ix.ccol[col].spaces)
        if not _int(space) or not 0 <= space < n:
            return [f"\"space\": 0 (bottom) to {n - 1} (top)"], 0, []
        if state["council"][col][space] is not None:
            return ["that council space already has a worker"], 0, []
        if pl["area"] <= 0:
            return ["no worker in your worker area to appoint"], 0, []
        return [], ix.ccol[col].spaces[space], [("appoint", col, space)]
    return [f"unknown action {action!r}"], 0, []


def _pay(ix: Index, pl: dict, pay: dict | None) -> None:
    for k, n in (pay or {}).items():
        if k == YEN:
            pl["yen"] -= n
        else:
            pl["resources"][k] -= n


def _gain(pl: dict, what: str, n: int) -> None:
    if what == YEN:
        pl["yen"] += n
    elif what == FAME:
        pl["fame"] += n
    else:
        pl["resources"][what] += n


def _effects(ix: Index, state: dict, p: int, effects: list, spec: dict) -> None:
    pl = state["players"][p]
    for e in effects:
        if e[0] == "educate":
            pl["educated"] += e[1]
            pl["area"] += e[1]
        elif e[0] == "step":
            step = e[1]
            what = spec.get("bonus") if step.resource == ANY else step.resource
            _gain(pl, what, step.amount) if step.effect == "gain" else _gain(pl, what, -step.amount)
        elif e[0] == "fame":
            pl["fame"] += e[1]
        elif e[0] == "pioneer":
            for c in e[1]:
                if pl["pioneer"][c] == 0:
                    pl["area"] -= 1
                pl["pioneer"][c] += 1
        elif e[0] == "invest":
            tile = e[1]
            if tile in state["persons"]:
                state["persons"][state["persons"].index(tile)] = None   # its space stays empty
                pl["persons"].append(tile)
            else:
                state["buildings"][state["buildings"].index(tile)] = None
                pl["buildings"].append({"id": tile, "worker": False})
        elif e[0] == "appoint":
            state["council"][e[1]][e[2]] = p
            pl["area"] -= 1


def check_action(ix: Index, state: dict, p: int, action: str, spec: dict, building_ap: int | None,
                 columns=(), label: str = "") -> tuple[list[str], list]:
    reasons, cost, effects = plan_action(ix, state, p, action, spec, columns)
    if reasons:
        return reasons, []
    values = action_values(ix, state, building_ap)
    reasons = check_payment(ix, state["players"][p], spec.get("pay"), values, cost,
                            label or f"this {action}")
    return reasons, effects


# --------------------------------------------------------------------------- buildings

def check_building(ix: Index, state: dict, p: int, move: dict) -> tuple[list[str], Any]:
    """Why player p may not use a building tile now; else a function applying it to a copy."""
    pl = state["players"][p]
    tile = move.get("tile")
    owned = [b for b in pl["buildings"] if b["id"] == tile]
    if not owned:
        return [f"\"tile\": one of your building tiles ({', '.join(b['id'] for b in pl['buildings']) or 'none'})"], None
    if owned[0]["worker"]:
        return [f"{ix.tile_name[tile]} already has a worker on it (a harvest frees it)"], None
    if pl["area"] <= 0:
        return ["no worker in your worker area to place on the tile"], None
    sim = copy.deepcopy(state)
    spl = sim["players"][p]
    next(b for b in spl["buildings"] if b["id"] == tile)["worker"] = True
    spl["area"] -= 1
    for step in ix.building[tile].effects:
        if step.effect == "action":
            spec = move.get("action")
            if spec in (None, {}):
                continue                    # the action may be left out (nothing bought)
            if not isinstance(spec, dict):
                return ["\"action\": an object with what the action does and \"pay\""], None
            reasons, effects = check_action(ix, sim, p, step.action, spec, step.resource_ap, step.columns,
                                            f"the {ix.tile_name[tile]}'s {step.action}")
            if reasons:
                return reasons, None
            _pay(ix, spl, spec.get("pay"))
            _effects(ix, sim, p, effects, spec)
            continue
        what = step.resource
        if what == ANY:
            key = "give" if step.effect == "pay" else "take"
            what = move.get(key)
            if what not in ix.resources:
                return [f"\"{key}\": the resource you {'pay' if key == 'give' else 'gain'} "
                        f"({', '.join(ix.resources)})"], None
        if step.effect == "pay":
            have = spl["yen"] if what == YEN else spl["resources"][what]
            if have < step.amount:
                name = "yen" if what == YEN else ix.res_name[what]
                return [f"{ix.tile_name[tile]} needs {step.amount} {name}; you have {have}"], None
            _gain(spl, what, -step.amount)
        else:
            _gain(spl, what, step.amount)
    return [], sim


# --------------------------------------------------------------------------- the turn

def can_use_buildings(ix: Index, state: dict, p: int) -> bool:
    """Whether player p can place a worker on one of their building tiles now: a worker in the worker
    area, a tile without one, and what the tile takes paid (its action may be left out; a resource
    "of your choice" may be any the player has)."""
    pl = state["players"][p]
    if pl["area"] <= 0:
        return False
    for b in pl["buildings"]:
        if b["worker"]:
            continue
        for give in ix.resources:
            if not check_building(ix, state, p, {"tile": b["id"], "give": give, "take": ix.resources[0]})[0]:
                return True
    return False


def move_pawn(ix: Index, state: dict, spot: str) -> None:
    p = state["current"]
    pl = state["players"][p]
    taken = state["notes"][spot]
    pl["yen"] += taken
    state["notes"][spot] = 0
    for a in ix.adjacent[spot]:
        state["notes"][a] += ix.data.turn.notes_on_adjacent_spots
    state["pawn"] = spot
    bg = ix.spot[spot].background
    track = ix.data.track(bg)
    key = "harvest" if track is ix.data.harvest_track else "settlement"
    state[key] += 1
    state["pending"] = key if state[key] in track.icons else None
    state["phase"] = "action"
    state["acting"] = p
    state["last"] = {"player": p, "spot": spot, "notes": taken, "advanced": key, "event": state["pending"]}


def after_action(ix: Index, state: dict) -> None:
    if state["acting"] == state["current"]:
        state["acting"] = _other(state, state["current"])
        return
    event = state["pending"]
    state["acting"] = None
    if event == "harvest":
        gains = []
        for pl in state["players"]:
            got: dict[str, int] = {}
            for c, pos in pl["pioneer"].items():
                for what, n in _spots.harvest_gain(ix.data, c, pos).items():
                    got[what] = got.get(what, 0) + n
                    _gain(pl, what, n)
            gains.append(got)
        state["returns"] = [q for q in (state["current"], _other(state, state["current"]))
                            if any(b["worker"] for b in state["players"][q]["buildings"])]
        state["history"].append({"event": "harvest", "turn": state["turn"], "gains": gains})
        if state["returns"]:
            state["phase"] = "returns"
            return
    elif event == "settlement":
        got = settle(ix, state)
        for q, pl in enumerate(state["players"]):
            pl["fame"] += sum(got[q].values())
        state["history"].append({"event": "settlement", "turn": state["turn"], "fame": got})
    finish_event(ix, state)


def settle(ix: Index, state: dict) -> list[dict[str, int]]:
    got = [{c: 0 for c in ix.council} for _ in state["players"]]
    for c in ix.council:
        a = [i + 1 for i, s in enumerate(state["council"][c]) if s == 0]
        b = [i + 1 for i, s in enumerate(state["council"][c]) if s == 1]
        fa, fb = _fame.settle_column(ix.data, c, a, b)
        got[0][c], got[1][c] = fa, fb
    return got


def finish_event(ix: Index, state: dict) -> None:
    if state["pending"]:
        state["events"] += 1
    state["pending"] = None
    state["phase"] = "end"
    end_if_done(ix, state)


def end_if_done(ix: Index, state: dict) -> None:
    """Step 7 with nothing left to do (the active player can place no worker on a building tile):
    the turn ends by itself. `turn_ended` remembers it until the next move, so that a log written
    before the turn ended by itself in this case (its "end-turn" right after) still replays."""
    if state["phase"] == "end" and not can_use_buildings(ix, state, state["current"]):
        p = state["current"]
        end_turn(ix, state)
        state["turn_ended"] = p


def end_turn(ix: Index, state: dict) -> None:
    if state["events"] >= ix.data.end.events:
        state["phase"] = "over"
        state["acting"] = None
        return
    state["current"] = _other(state, state["current"])
    state["turn"] += 1
    state["phase"] = "move"


# --------------------------------------------------------------------------- scoring

def counter(ix: Index, state: dict, p: int, rule) -> int:
    pl = state["players"][p]
    c = rule.counter
    if c == "leftover-items":
        return pl["yen"] + sum(pl["resources"].values())
    if c == "resources":
        return sum(n for r, n in pl["resources"].items() if not rule.resources or r in rule.resources)
    if c == "pioneering-columns":
        return sum(1 for col, pos in pl["pioneer"].items()
                   if (not rule.columns or col in rule.columns) and pos >= rule.min_space)
    if c == "pioneering-spaces":
        return sum(pl["pioneer"].values())
    if c == "council-workers":
        return sum(1 for col, sp in state["council"].items() if not rule.columns or col in rule.columns
                   for s in sp if s == p)
    if c == "council-columns":
        return sum(1 for sp in state["council"].values() if p in sp)
    if c == "academy-tiers":
        return sum(1 for e in ix.tier_end if pl["educated"] >= e)
    if c == "building-tiles":
        return len(pl["buildings"])
    if c == "influential-persons":
        return len(pl["persons"])
    if c == "workers-in-area":
        return pl["area"]
    raise ValueError(c)


def final_breakdown(ix: Index, state: dict, p: int) -> list[tuple[str, int]]:
    """[(label, fame)]: the fame gained during the game, then each element of the final scoring."""
    d, pl = ix.data, state["players"][p]
    tiers = sum(1 for e in ix.tier_end if pl["educated"] >= e)
    rows = [("Fame during the game", pl["fame"]),
            ("Private academy", _fame.academy_fame(d, tiers)),
            ("Pioneering columns", sum(_fame.pioneering_fame(d, c, pos) for c, pos in pl["pioneer"].items()
                                       if pos))]
    for t in pl["persons"]:
        rows.append((ix.tile_name[t], _fame.person_fame(ix.person[t].scoring,
                                                        counter(ix, state, p, ix.person[t].scoring))))
    council = {c: sum(1 for s in sp if s == p) for c, sp in state["council"].items()}
    rows.append(("City council", _fame.council_fame(d, council)))
    rows.append(("Leftover banknotes and resources",
                 _fame.leftover_fame(d, pl["yen"] + sum(pl["resources"].values()))))
    return rows
