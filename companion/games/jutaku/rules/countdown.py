"""Tokyo Jutaku's Countdown mode: how long each floor may take. Pure functions of `data`
(generator.canon.load("jutaku"))."""
from __future__ import annotations

from generator.canon.jutaku import Jutaku


def seconds_for(data: Jutaku, floor: int) -> int:
    """Time for building floor `floor` (1 = the first floor); every floor past the list takes the
    further floors' time."""
    c = data.countdown
    if floor < 1:
        raise ValueError(f"floor {floor}: floors are counted from 1")
    if floor <= len(c.floor_seconds):
        return c.floor_seconds[floor - 1]
    return c.further_floor_seconds


# ------------------------------------------------------------------------------- the Countdown engine
# State: {"game": "jutaku", "mode": "countdown", "phase": "ready" | "floor" | "count" | "over",
#  "floor": k (1 = the first floor, 0 before it), "floor_seconds": [60, 45, 30, 15] (the last for
#  every further floor), "timer": clock record | None, "supply": pieces left in the middle,
#  "players": [{"name", "floors": [pieces added on each floor], "out": bool, "entered": n | None}]}

from companion.games import clock  # noqa: E402
from companion.games.contract import Actors, IllegalMove, Legal, NOBODY, leaders, result, score_row  # noqa: E402
from companion.games.words import count  # noqa: E402

from .common import is_int, name, player_of  # noqa: E402


def default_seconds(data: Jutaku) -> list[int]:
    c = data.countdown
    return list(c.floor_seconds) + [c.further_floor_seconds]


def floor_ms(state: dict, floor: int) -> int:
    secs = state["floor_seconds"]
    return 1000 * secs[min(floor, len(secs)) - 1]


def setup(data: Jutaku, players: list[str], o: dict, seed: int) -> dict:
    return {"game": "jutaku", "mode": "countdown", "chance": o["chance"], "seed": seed,
            "phase": "ready", "floor": 0, "floor_seconds": list(o["floor_seconds"]), "timer": None,
            "supply": data.contents.pieces, "last": None,
            "players": [{"name": n, "floors": [], "out": False, "entered": None} for n in players]}


def _copy(state: dict) -> dict:
    return {**state, "players": [dict(p, floors=list(p["floors"])) for p in state["players"]]}


def _left(state: dict) -> int:
    """Pieces still in the middle, less those entered for the floor being built."""
    return state["supply"] - sum(p["entered"] or 0 for p in state["players"])


def validate(state: dict, move: dict, ctx) -> list[str]:
    t, phase = move["type"], state["phase"]
    if phase == "over":
        return ["the game is over"]
    if t == "begin":
        return [] if phase == "ready" else ["the floors are already being built"]
    if t == "end-floor":
        return [] if phase == "floor" else ["no floor is being built against the clock"]
    if t != "pieces":
        return [f"{t} is not a move of Countdown (begin, pieces, end-floor)"]
    if phase not in ("floor", "count"):
        return ["press begin first"]
    p = player_of(state, move)
    if p is None:
        return [f"player must be a seat of this table (0 to {len(state['players']) - 1})"]
    pl = state["players"][p]
    if pl["out"]:
        return [f"{pl['name']} is out: they added no piece on a floor"]
    if pl["entered"] is not None:
        return [f"{pl['name']} has entered this floor's pieces already"]
    n = move.get("pieces")
    if not is_int(n) or n < 0:
        return ["pieces must be a whole number, 0 or more (0 = you are out)"]
    if n > _left(state):
        return [f"only {count(_left(state), 'piece')} {'is' if _left(state) == 1 else 'are'} left in the middle"]
    return []


def apply(state: dict, move: dict, ctx) -> dict:
    s = _copy(state)
    s["last"] = None
    t = move["type"]
    if t == "begin":
        return _start_floor(s, 1, ctx.now_ms)
    if t == "end-floor":
        return _close(s, ctx.now_ms)
    s["players"][move["player"]]["entered"] = move["pieces"]
    if all(p["out"] or p["entered"] is not None for p in s["players"]):
        return _settle(s, ctx.now_ms)
    return s


def _start_floor(s: dict, floor: int, now_ms: int) -> dict:
    s["phase"], s["floor"] = "floor", floor
    s["timer"] = clock.start(floor_ms(s, floor), now_ms)
    return s


def _close(s: dict, now_ms: int) -> dict:
    s["timer"] = None
    if all(p["out"] or p["entered"] is not None for p in s["players"]):
        return _settle(s, now_ms)
    s["phase"] = "count"
    return s


def _settle(s: dict, now_ms: int) -> dict:
    """Everyone has entered the floor: a player who added none is out; the rest build the next."""
    out = []
    for p in s["players"]:
        if p["out"]:
            continue
        p["floors"].append(p["entered"])
        s["supply"] -= p["entered"]
        if p["entered"] == 0:
            p["out"] = True
            out.append(p["name"])
        p["entered"] = None
    s["last"] = {"floor": s["floor"], "out": out}
    s["timer"] = None
    if all(p["out"] for p in s["players"]):
        s["phase"] = "over"
        return s
    return _start_floor(s, s["floor"] + 1, now_ms)


def on_expire(state: dict, name_: str, ctx) -> dict:
    rec = state["timer"]
    if name_ != "floor" or state["phase"] != "floor" or not rec or rec["status"] != clock.RUNNING:
        raise IllegalMove([f"no running timer {name_!r}"])
    s = _close(_copy(state), ctx.now_ms)
    if s["phase"] == "count":
        s["timer"] = clock.expire(rec)          # stays expired until the next floor starts a clock
    return s


def describe_expiry(state: dict, after: dict) -> str:
    """"Time! Floor 2 is over: …" and who must enter what now (contract.describe_expiry)."""
    floor = state["floor"]
    waiting = [p["name"] for p in after["players"] if not p["out"] and p["entered"] is None]
    if after["phase"] != "count" or not waiting:
        return f"Time! Floor {floor} is over."
    who = waiting[0] if len(waiting) == 1 else ", ".join(waiting[:-1]) + " and " + waiting[-1]
    return (f"Time! Floor {floor} is over: {who}, enter the pieces you added on it (0 pieces puts you "
            "out of the game).")


def prompt(state: dict) -> str:
    phase = state["phase"]
    if phase == "ready":
        return "Everyone takes a site card. Press Begin! to start floor 1."
    if phase == "floor":
        return f"Floor {state['floor']}: build as many pieces as you can!"
    if phase == "count":
        return f"Time! Enter the pieces you added on floor {state['floor']}."
    return "Everyone is out."


def phase_key(state: dict):
    """One floor's entries, while its clock runs and after it (contract.phase): ["floor", n]."""
    return ["floor", state["floor"]] if state["phase"] in ("floor", "count") else None


def timers(state: dict) -> dict:
    return {"floor": state["timer"]} if state["timer"] else {}


def legal(state: dict, player=None) -> Legal:
    phase = state["phase"]
    if phase == "over":
        return Legal([])
    if phase == "ready":
        return Legal([{"type": "begin"}] if player is None else [])
    moves = []
    top = min(_left(state), 8)
    for p, pl in enumerate(state["players"]):
        if not pl["out"] and pl["entered"] is None and player in (None, p):
            moves += [{"type": "pieces", "player": p, "pieces": k} for k in range(top + 1)]
    if phase == "floor" and player is None:
        moves.append({"type": "end-floor"})
    return Legal(moves, complete=top == _left(state))


def actors(state: dict) -> Actors:
    if state["phase"] == "ready":
        return Actors("all", tuple(range(len(state["players"]))))
    if state["phase"] in ("floor", "count"):
        return Actors("all", tuple(p for p, pl in enumerate(state["players"])
                                   if not pl["out"] and pl["entered"] is None))
    return NOBODY


def result_of(state: dict):
    if state["phase"] != "over":
        return None
    rows = [score_row(p, pl["name"], [(f"Floor {i}", n) for i, n in enumerate(pl["floors"], 1)]
                      or [("No floor", 0)], floors=sum(1 for n in pl["floors"] if n))
            for p, pl in enumerate(state["players"])]
    return result(leaders(rows), "pieces", rows)


def describe(state: dict, move: dict) -> str:
    t = move.get("type")
    if t == "begin":
        return f"Countdown begins: floor 1, {state['floor_seconds'][0]} s."
    if t == "end-floor":
        return f"Floor {state['floor']} ends early."
    n = move.get("pieces")
    return f"{name(state, move['player'])} added {n} piece{'s' if n != 1 else ''} on floor {state['floor']}" + \
        (" and is out." if n == 0 else ".")
