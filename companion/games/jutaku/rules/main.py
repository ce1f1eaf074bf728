"""Tokyo Jutaku's main game and its Bottle Bonus variant: the map, real-time building rounds, "stop!",
confirm / reject, movement, drinks and their powers, the end. Pure; see __init__.py for the state,
the moves and the decisions taken where the rules text is silent."""
from __future__ import annotations

import random

from companion.games import clock
from companion.games.contract import Actors, Legal, NOBODY, leaders, score_row
from companion.games.contract import result as make_result
from companion.games.words import count

from .common import is_int, key, name, player_of, unkey, yen

PHASES = ("start", "ready", "building", "check", "draw", "grab", "move", "over")
DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))


# ------------------------------------------------------------------------------------------ setup
def setup(rules, players: list[str], o: dict, seed: int) -> dict:
    data = rules.data
    box = {d.id: data.drink_info.per_colour for d in data.drinks} if o["bottle_bonus"] else {}
    return {
        "game": "jutaku", "mode": "jutaku", "bottle_bonus": o["bottle_bonus"], "chance": o["chance"],
        "seed": seed, "side": o["side"], "round_ms": o["round_seconds"] * 1000,
        "phase": "start", "round": 0, "timer": None, "round_started_ms": None,
        "map": {key(s.position): s.id for s in sorted(data.sites, key=lambda s: (s.position[1], s.position[0]))},
        "players": [{"name": n, "architect": data.architects[i].id, "at": None, "site": None,
                     "side": o["side"], "kept": [], "drinks": {}, "blue": 0, "blue_active": False}
                    for i, n in enumerate(players)],
        "stops": [], "verdicts": {}, "checks": 0, "completed": [], "movers": [], "mover": 0,
        "box": box, "draws": 0, "offer": None, "grabbed": {}, "powers": [], "last": None,
        # the face a card lies on where it differs from the map's side (a card flipped by a black
        # drink and left behind), and the cards flipped at this table (their backs have been seen)
        "turned": {}, "flipped": [],
        # Bottle Bonus: the seats holding a drink spent before the round who have said they are ready
        # (spent what they wish, or pass): the round begins when the last of them is
        "readied": [],
    }


def copy(state: dict) -> dict:
    s = dict(state)
    s["map"] = dict(state["map"])
    s["players"] = [dict(p, kept=list(p["kept"]), drinks=dict(p["drinks"])) for p in state["players"]]
    s["stops"], s["verdicts"] = list(state["stops"]), dict(state["verdicts"])
    s["completed"], s["movers"] = list(state["completed"]), list(state["movers"])
    s["box"], s["grabbed"], s["powers"] = dict(state["box"]), dict(state["grabbed"]), list(state["powers"])
    s["offer"] = list(state["offer"]) if state["offer"] is not None else None
    s["turned"], s["flipped"] = dict(state.get("turned", {})), list(state.get("flipped", []))
    s["readied"] = list(state.get("readied", []))
    return s


READY_WHENS = ("before-building", "before-round")


def deciding(rules, state: dict) -> list[int]:
    """Bottle Bonus, before a round: the seats that hold a drink they may spend now (black, white,
    blue) and have not said they are ready. Begin! waits for them (a seat's Begin! is refused
    while any is deciding; the host may begin anyway); the last one's Ready begins the round."""
    if state["phase"] != "ready" or not state.get("bottle_bonus"):
        return []
    ready = set(state.get("readied", []))
    return sorted({m["player"] for m in _spends(rules, state, lambda p: True, READY_WHENS)} - ready)


def face_up(state: dict, site: str) -> str:
    """The side a card on the map lies on: the map's, unless it was flipped and left behind."""
    return state.get("turned", {}).get(site, state["side"])


def take(state: dict, pl: dict, k: str) -> None:
    """`pl` takes the card on square k, on the face it lies on (in a copy of the state)."""
    site = state["map"][k]
    pl["at"], pl["site"] = k, site
    pl["side"] = state["turned"].pop(site, state["side"])
    state["map"][k] = None


def leave(state: dict, pl: dict) -> None:
    """`pl`'s card goes back on its square as it lies: a card a black drink flipped stays flipped."""
    site = pl["site"]
    state["map"][pl["at"]] = site
    if pl["side"] != state["side"]:
        state["turned"][site] = pl["side"]


# -------------------------------------------------------------------------------------------- map
def available(state: dict) -> set[str]:
    """Map squares ("c,r") holding a site card nobody holds: where an architect may go."""
    return {k for k, site in state["map"].items() if site is not None}


def reachable(rules, state: dict, frm: str, steps: int | None = None) -> set[str]:
    """Squares an architect at `frm` reaches in up to `steps` orthogonal moves. A move goes to the next
    square in its direction that holds a card: gaps (the centre, cards taken) are passed through."""
    steps = rules.data.rules.move if steps is None else steps
    cols, rows = rules.data.map.size
    cards = available(state)
    seen, frontier = set(), {unkey(frm)}
    for _ in range(steps):
        nxt = set()
        for c, r in frontier:
            for dc, dr in DIRS:
                x, y = c + dc, r + dr
                while 0 <= x < cols and 0 <= y < rows and key((x, y)) not in cards:
                    x, y = x + dc, y + dr
                if 0 <= x < cols and 0 <= y < rows:
                    nxt.add((x, y))
        seen |= nxt
        frontier = nxt
    seen.discard(unkey(frm))
    return {key(p) for p in seen}


def destinations(rules, state: dict, p: int) -> tuple[set[str], bool]:
    """Where player p may move by the movement rules, and whether that is the fallback (no card in
    reach: any available card)."""
    pl = state["players"][p]
    near = reachable(rules, state, pl["at"]) if pl["at"] else set()
    if near:
        return near, False
    return available(state) - {pl["at"]}, True


def perimeter(rules) -> set[str]:
    return {key(p) for p in rules.data.perimeter()}


def side_of(rules, site: str, side: str):
    return rules.data.site[site].side(side)


def total_yen(state: dict, p: int, bonus: int) -> int:
    pl = state["players"][p]
    return sum(k["yen"] for k in pl["kept"]) + bonus * pl["blue"]


# ----------------------------------------------------------------------------------------- validate
def validate(rules, state: dict, move: dict, ctx) -> list[str]:
    t, phase = move["type"], state["phase"]
    if phase == "over":
        return ["the game is over"]
    n = len(state["players"])
    if t == "begin":
        if phase != "ready":
            return [_not_now(phase, "begin a round")]
        waiting = deciding(rules, state)
        if waiting and getattr(ctx, "seat", "host") != "host":
            return [f"{_and([name(state, p) for p in waiting])} {'is' if len(waiting) == 1 else 'are'} still "
                    "deciding whether to spend a drink before the round: the round begins when "
                    "they tap Ready (or the host begins it)"]
        return []
    if t == "draw-drinks":
        if phase != "draw":
            return [_not_now(phase, "enter the drinks drawn")]
        if state["chance"] != "table":
            return ["the companion draws the drinks at this table"]
        drinks = move.get("drinks")
        want = _draw_count(state)
        if not isinstance(drinks, list) or any(not isinstance(d, str) for d in drinks):
            return ["drinks must be a list of drink colours"]
        if len(drinks) != want:
            return [f"{name(state, state['completed'][0])} draws {count(want, 'drink')}, one per other player"]
        bad = [d for d in drinks if d not in rules.data.drink]
        if bad:
            return [f"{bad[0]!r} is not a drink colour ({', '.join(rules.data.drink)})"]
        for d in set(drinks):
            if drinks.count(d) > state["box"].get(d, 0):
                return [f"the box holds only {count(state['box'].get(d, 0), d + ' drink')}"]
        return []
    p = player_of(state, move)
    if p is None:
        return [f"player must be a seat of this table (0 to {n - 1})"]
    pl = state["players"][p]
    if t == "start":
        if phase != "start":
            return [_not_now(phase, "place a starting architect")]
        if pl["at"] is not None:
            return [f"{pl['name']} has placed their architect already"]
        site = move.get("site")
        k = _square_of(state, site)
        if k is None:
            return [f"{site!r} is not a site card on the map"]
        if k not in perimeter(rules):
            return ["architects start on a site card of the outer perimeter of the map"]
        if "architect" in move:
            a = move["architect"]
            ids = [x.id for x in rules.data.architects]
            if a not in ids:
                return [f"architect must be one of the tokens: {', '.join(str(x) for x in ids)}"]
            holder = next((i for i, q in enumerate(state["players"]) if q["architect"] == a), None)
            if holder is not None and holder != p and state["players"][holder]["at"] is not None:
                return [f"{name(state, holder)} has placed that architect already"]
        return []
    if t == "stop":
        if phase not in ("building", "check"):
            return [_not_now(phase, "call stop")]
        if phase == "check" and state["verdicts"]:
            first = name(state, state["stops"][0])
            return [f"too late to call stop: the check of {first}'s building is under way (a verdict is "
                    "given); if it fails, everyone builds on and you may call stop then"]
        if pl["site"] is None:
            return [f"{pl['name']} has no site card to build on"]
        if p in state["stops"]:
            return [f"{pl['name']} has called stop already; the building is being checked"]
        need = side_of(rules, pl["site"], pl["side"])
        reasons = []
        for field, want, word in (("floors", need.height, "storey"), ("pieces", need.pieces, "piece")):
            if field in move and move[field] is not None:
                got = move[field]
                if not is_int(got) or got < 0:
                    reasons.append(f"{field} must be a whole number")
                elif got != want:
                    reasons.append(f"the card asks for {count(want, word)} ({need.requirement}), not {got}")
        return reasons
    if t == "verdict":
        if phase != "check":
            return [_not_now(phase, "confirm or reject a building")]
        b = move.get("builder")
        if not is_int(b) or b not in state["stops"]:
            return ["builder must be a player who called stop"]
        if str(b) in state["verdicts"]:
            return [f"{name(state, b)}'s building has been judged already"]
        if not isinstance(move.get("ok"), bool):
            return ["ok must be true (the building meets the card) or false"]
        if p == b and n > 1:
            return ["another player checks a building, not its builder"]
        return []
    if t == "grab":
        if phase != "grab":
            return [_not_now(phase, "grab a drink")]
        if p == state["completed"][0] or str(p) in state["grabbed"]:
            return [f"{pl['name']} does not grab now"]
        if "drink" not in move:
            return ["drink: a colour that came out of the machine, or null to grab nothing"]
        d = move["drink"]
        if d is None:
            return []
        left = list(state["offer"])
        for taken in state["grabbed"].values():
            if taken is not None:
                left.remove(taken)
        if d not in left:
            return [f"no {d!r} drink came out of the machine" + (f" (left: {', '.join(left)})" if left else "")]
        return []
    if t == "ready":
        if phase != "ready" or not state.get("bottle_bonus"):
            return [_not_now(phase, "say you are ready") if phase != "ready"
                    else "Ready is for Bottle Bonus's drinks before a round: press Begin!"]
        if p not in deciding(rules, state):
            if p in state.get("readied", []):
                return [f"{pl['name']} is ready already"]
            return [f"{pl['name']} holds no drink to spend before the round"]
        return []
    if t == "spend":
        d = move.get("drink")
        drink = rules.data.drink.get(d) if isinstance(d, str) else None
        if drink is None:
            return [f"{d!r} is not a drink colour ({', '.join(rules.data.drink)})"]
        if pl["drinks"].get(d, 0) < 1:
            return [f"{pl['name']} has no {d} drink"]
        if drink.when in ("before-building", "before-round") and phase != "ready":
            return [f"a {d} drink is spent before the round begins"]
        if drink.when == "during-round" and phase != "building":
            return [f"a {d} drink is spent during a building round"]
        if drink.when == "move-phase":
            return [f"a {d} drink is spent with a move (\"purple\": true)"]
        if drink.power == "flip-site" and pl["site"] is None:
            return [f"{pl['name']} has no site card to flip"]
        if drink.power == "win-bonus" and pl["blue_active"]:
            return [f"{pl['name']} has a {d} drink in play this round already"]
        return []
    if t in ("move", "stay"):
        if phase != "move":
            return [_not_now(phase, "move an architect")]
        current = state["movers"][state["mover"]]
        if p != current:
            return [f"it is {name(state, current)}'s turn to move"]
        if t == "stay":
            return [] if pl["site"] is not None else \
                [f"{pl['name']} completed a building and must move to a new site card"]
        k = _square_of(state, move.get("site"))
        if k is None:
            return [f"{move.get('site')!r} is not a site card free on the map"]
        purple = move.get("purple", False)
        if not isinstance(purple, bool):
            return ["purple must be true or false"]
        if purple:
            if pl["drinks"].get("purple", 0) < 1:
                return [f"{pl['name']} has no purple drink"]
            return []
        dests, _ = destinations(rules, state, p)
        if k not in dests:
            return [f"{move.get('site')} is more than {rules.data.rules.move} spaces away (orthogonally, "
                    "gaps passed through)"]
        return []
    return [f"{t} is not a move of the main game"]


def _not_now(phase: str, what: str) -> str:
    words = {"start": "the architects are being placed", "ready": "the round has not begun",
             "building": "everyone is building", "check": "a building is being checked",
             "draw": "the drinks are being drawn", "grab": "the drinks are being grabbed",
             "move": "the architects are moving"}
    return f"cannot {what} now: {words.get(phase, phase)}"


def _square_of(state: dict, site) -> str | None:
    if not isinstance(site, str):
        return None
    for k, s in state["map"].items():
        if s == site:
            return k
    return None


def _draw_count(state: dict) -> int:
    return min(len(state["players"]) - 1, sum(state["box"].values()))


# -------------------------------------------------------------------------------------------- apply
def apply(rules, state: dict, move: dict, ctx) -> dict:
    s = copy(state)
    t = move["type"]
    s["last"] = None
    if t == "begin":
        return _begin(s, ctx)
    if t == "draw-drinks":
        return _offer(s, list(move["drinks"]))
    p = move["player"]
    pl = s["players"][p]
    if t == "start":
        k = _square_of(s, move["site"])
        a = move.get("architect")
        if a is not None and a != pl["architect"]:
            for q in s["players"]:             # a token not placed yet changes hands
                if q["architect"] == a:
                    q["architect"] = pl["architect"]
            pl["architect"] = a
        take(s, pl, k)
        if all(q["at"] is not None for q in s["players"]):
            s["phase"] = "ready"
        return s
    if t == "stop":
        s["stops"].append(p)
        if s["phase"] == "building":
            s["phase"] = "check"
            if s["timer"] and s["timer"]["status"] == clock.RUNNING:
                s["timer"] = clock.pause(s["timer"], ctx.now_ms)
        return s
    if t == "verdict":
        s["verdicts"][str(move["builder"])] = move["ok"]
        if len(s["verdicts"]) == len(s["stops"]):
            return _resolve(rules, s, ctx)
        return s
    if t == "grab":
        s["grabbed"][str(p)] = move.get("drink")
        if move.get("drink") is not None:
            pl["drinks"][move["drink"]] = pl["drinks"].get(move["drink"], 0) + 1
        if len(s["grabbed"]) == len(s["players"]) - 1:
            left = list(s["offer"])
            for taken in s["grabbed"].values():
                if taken is not None:
                    left.remove(taken)
            for d in left:                       # drinks nobody grabbed go back into the box
                s["box"][d] += 1
            s["last"] = {"grabbed": dict(s["grabbed"]), "returned": left}
            s["phase"], s["offer"], s["grabbed"] = "move", None, {}
        return s
    if t == "spend":
        d = move["drink"]
        _spend(s, p, d)
        power = rules.data.drink[d].power
        if power == "flip-site":
            pl["side"] = "blue" if pl["side"] == "white" else "white"
            if pl["site"] not in s["flipped"]:
                s["flipped"].append(pl["site"])          # its back is seen now, by everyone
        if power == "win-bonus":
            pl["blue_active"] = True
            s["box"][d] -= 1                      # held beside the cards until the round is decided
        s["powers"].append({"player": p, "drink": d, "round": s["round"] + (1 if s["phase"] == "ready" else 0)})
        return s
    if t == "ready":
        s["readied"].append(p)
        if not deciding(rules, s):
            return _begin(s, ctx)                 # the last drink holder is ready: the round begins
        return s
    if t == "stay":
        return _next_mover(s)
    if t == "move":
        k = _square_of(s, move["site"])
        if move.get("purple"):
            _spend(s, p, "purple")
        if pl["site"] is not None and pl["at"] is not None:
            leave(s, pl)                          # a card left behind goes back on its square
        take(s, pl, k)
        return _next_mover(s)
    raise AssertionError(t)


def _begin(s: dict, ctx) -> dict:
    s["phase"], s["round"] = "building", s["round"] + 1
    s["stops"], s["verdicts"], s["checks"], s["readied"] = [], {}, 0, []
    s["round_started_ms"] = ctx.now_ms
    s["timer"] = clock.start(s["round_ms"], ctx.now_ms) if s["round_ms"] else None
    return s


def _spend(s: dict, p: int, d: str) -> None:
    pl = s["players"][p]
    pl["drinks"][d] -= 1
    if not pl["drinks"][d]:
        del pl["drinks"][d]
    s["box"][d] = s["box"].get(d, 0) + 1           # a spent drink goes back into the box


def _resolve(rules, s: dict, ctx) -> dict:
    """Every stopped building has its verdict: complete the good ones, or build on."""
    ok = [b for b in s["stops"] if s["verdicts"][str(b)]]
    s["last"] = {"verdicts": dict(s["verdicts"]), "completed": ok}
    if not ok:
        s["phase"], s["stops"], s["verdicts"] = "building", [], {}
        s["checks"] = s.get("checks", 0) + 1            # a new stretch of building: a new phase key
        if s["timer"] and s["timer"]["status"] == clock.PAUSED:
            s["timer"] = clock.resume(s["timer"], ctx.now_ms)
        return s
    bonus = _blue_yen(rules)
    for b in ok:
        pl = s["players"][b]
        face = side_of(rules, pl["site"], pl["side"])
        pl["kept"].append({"site": pl["site"], "side": pl["side"], "yen": face.yen, "round": s["round"]})
        pl["site"] = None
    return _end_round(rules, s, ok, bonus)


def _blue_yen(rules) -> int:
    return next((d.yen for d in rules.data.drinks if d.power == "win-bonus"), 0)


def _end_round(rules, s: dict, completed: list[int], bonus: int) -> dict:
    blue = next((d.id for d in rules.data.drinks if d.power == "win-bonus"), None)
    for i, pl in enumerate(s["players"]):
        if pl["blue_active"]:
            pl["blue_active"] = False
            if i in completed:
                pl["blue"] += 1                  # kept beside the site cards: +200 at the end
            else:
                s["box"][blue] = s["box"].get(blue, 0) + 1
    s["timer"], s["stops"], s["verdicts"], s["powers"] = None, [], {}, []
    s["completed"] = sorted(completed, key=lambda b: (-total_yen(s, b, bonus), completed.index(b)))
    if any(len(pl["kept"]) >= rules.data.rules.end_sites for pl in s["players"]):
        s["phase"] = "over"
        return s
    n = len(s["players"])
    if not completed:                            # a timed round ran out: nobody moves
        s["phase"], s["movers"] = "ready", []
        return s
    first = s["completed"][0]
    s["movers"], s["mover"] = [(first + i) % n for i in range(n)], 0
    if s["bottle_bonus"] and _draw_count(s) > 0:
        if s["chance"] == "companion":
            pool = sorted(d for d, c in s["box"].items() for _ in range(c))
            rng = random.Random(f"{s['seed']}:drinks:{s['draws']}")
            return _offer(s, rng.sample(pool, _draw_count(s)))
        s["phase"] = "draw"
        return s
    s["phase"] = "move"
    return s


def _offer(s: dict, drinks: list[str]) -> dict:
    for d in drinks:
        s["box"][d] -= 1
    s["draws"] += 1
    s["offer"], s["grabbed"], s["phase"] = sorted(drinks), {}, "grab"
    return s


def _next_mover(s: dict) -> dict:
    s["mover"] += 1
    if s["mover"] >= len(s["movers"]):
        s["phase"], s["movers"], s["mover"], s["completed"] = "ready", [], 0, []
    return s


def on_expire(rules, state: dict, name_: str, ctx) -> dict:
    from companion.games.contract import IllegalMove
    rec = state["timer"]
    if name_ != "round" or state["phase"] != "building" or not rec or rec["status"] != clock.RUNNING:
        raise IllegalMove([f"no running timer {name_!r}"])
    s = copy(state)
    s["last"] = {"timeout": True}
    s = _end_round(rules, s, [], _blue_yen(rules))
    s["timer"] = clock.expire(rec)                 # stays expired until the next "begin" starts it
    return s


def describe_expiry(state: dict, after: dict) -> str:
    """"Time! Nobody finished round 2: …" and what the table does now (contract.describe_expiry)."""
    text = f"Time! Nobody finished round {state['round']}: everyone keeps their site card"
    blue = [name(state, i) for i, pl in enumerate(state["players"]) if pl["blue_active"]]
    if blue:
        text += (f" ({_and(blue)} {'loses' if len(blue) == 1 else 'lose'} the blue drink spent on it)")
    if after.get("bottle_bonus"):
        return text + ". Spend drinks if you wish, then press Begin! to start the round again."
    return text + ". Press Begin! to start the round again."


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def could_be_last(state: dict, end: int) -> str:
    """"Once a player finishes their fourth site card, the game ends": a round may be the last as
    soon as someone holds one card short, never surely (their building may fail the check, a timed
    round may run out), so the companion says it could be, and why; "" when it cannot be."""
    if state.get("phase") not in ("ready", "building", "check"):
        return ""
    close = [name(state, p) for p, pl in enumerate(state["players"]) if len(pl["kept"]) >= end - 1]
    if not close:
        return ""
    return (f"This could be the last round: {_and(close)} {'has' if len(close) == 1 else 'have'} "
            f"{count(end - 1, 'site card')}, and completing one more ends the game.")


def prompt(state: dict, end: int | None = None, waiting: list[int] = ()) -> str:
    """What the table does now, in a sentence (needs' "prompt"; the board page says the same), and
    whether the round could be the last (with `end`, the site cards that end the game); `waiting`:
    the seats still deciding on their drinks before a Bottle Bonus round (`deciding`)."""
    text = _prompt(state, waiting)
    note = could_be_last(state, end) if end else ""
    return f"{text} {note}" if note else text


def _prompt(state: dict, waiting: list[int] = ()) -> str:
    phase = state["phase"]
    if phase == "start":
        return "Each player chooses an architect token and a starting site card on the outer ring."
    if phase == "ready":
        last = state.get("last") or {}
        head = (f"Time! Nobody finished round {state['round']}: everyone keeps their site card. "
                if last.get("timeout") else "Ready? ")
        if state.get("bottle_bonus"):
            if waiting:
                who = _and([name(state, p) for p in waiting])
                return (head + f"Round {state['round'] + 1}: {who} may spend a drink now, then tap Ready; "
                        "the round begins when everyone holding one is ready.")
            return head + f"Round {state['round'] + 1}: press Begin! and everyone builds."
        return head + ("Press Begin! to start the round again." if last.get("timeout")
                       else "Press Begin! and everyone builds.")
    if phase == "building":
        return "Everyone builds! Press STOP! when your building meets your card."
    if phase == "check":
        who = _and([name(state, b) for b in state["stops"]])
        return f"{who} called stop! Check the building{'s' if len(state['stops']) > 1 else ''}: confirm or reject."
    if phase == "draw":
        return f"{name(state, state['completed'][0])} draws drinks from the box: enter them."
    if phase == "grab":
        return "Grab at most one drink from the machine."
    if phase == "move":
        return f"{name(state, state['movers'][state['mover']])} moves: up to 2 spaces, no diagonals."
    return "The game is over."


def phase_key(state: dict):
    """The simultaneous phase (contract.phase): architects placed at once; drinks spent before the
    round; one stretch of building with its stops (the check of stops called at the same time is
    part of it, so several stops at once are all accepted; a check that fails starts a new
    stretch); the grab. Moving is turn by turn, the draw is the table's: None."""
    phase = state["phase"]
    if phase == "start":
        return ["start"]
    if phase == "ready":
        return ["ready", state["round"]]
    if phase in ("building", "check"):
        return ["building", state["round"], state.get("checks", 0)]
    if phase == "grab":
        return ["grab", state["draws"]]
    return None


def timers(state: dict) -> dict:
    return {"round": state["timer"]} if state["timer"] else {}


# ------------------------------------------------------------------------------------- legal moves
def legal(rules, state: dict, player=None) -> Legal:
    phase, n = state["phase"], len(state["players"])
    def mine(p):
        return player is None or p == player
    moves: list[dict] = []
    if phase == "over":
        return Legal([])
    if phase == "start":
        free = sorted(perimeter(rules) & available(state))
        for p, pl in enumerate(state["players"]):
            if pl["at"] is None and mine(p):
                moves += [{"type": "start", "player": p, "site": state["map"][k]} for k in free]
    elif phase == "ready":
        waiting = deciding(rules, state)
        if player is None and not waiting:
            moves.append({"type": "begin"})
        moves += _spends(rules, state, mine, READY_WHENS)
        moves += [{"type": "ready", "player": p} for p in waiting if mine(p)]
    elif phase in ("building", "check"):
        for p, pl in enumerate(state["players"]):
            if pl["site"] is not None and p not in state["stops"] and not state["verdicts"] and mine(p):
                moves.append({"type": "stop", "player": p})
        if phase == "building":
            moves += _spends(rules, state, mine, ("during-round",))
        else:
            for b in state["stops"]:
                if str(b) in state["verdicts"]:
                    continue
                for p in range(n):
                    if (p != b or n == 1) and mine(p):
                        moves += [{"type": "verdict", "player": p, "builder": b, "ok": ok} for ok in (True, False)]
    elif phase == "draw":
        if player is None:
            want = _draw_count(state)
            pool = sorted(d for d, c in state["box"].items() for _ in range(c))
            seen = []
            for i in range(min(6, len(pool))):
                pick = sorted((pool[i * 7 % len(pool):] + pool[: i * 7 % len(pool)])[:want])
                if pick not in seen:
                    seen.append(pick)
            moves += [{"type": "draw-drinks", "drinks": d} for d in seen]
            return Legal(moves, complete=False)
    elif phase == "grab":
        left = list(state["offer"])
        for taken in state["grabbed"].values():
            if taken is not None:
                left.remove(taken)
        for p in range(n):
            if p != state["completed"][0] and str(p) not in state["grabbed"] and mine(p):
                moves += [{"type": "grab", "player": p, "drink": d} for d in sorted(set(left))]
                moves.append({"type": "grab", "player": p, "drink": None})
    elif phase == "move":
        p = state["movers"][state["mover"]]
        if mine(p):
            pl = state["players"][p]
            dests, _ = destinations(rules, state, p)
            moves += [{"type": "move", "player": p, "site": state["map"][k]} for k in sorted(dests)]
            if pl["drinks"].get("purple"):
                moves += [{"type": "move", "player": p, "site": state["map"][k], "purple": True}
                          for k in sorted(available(state) - dests)]
            if pl["site"] is not None:
                moves.append({"type": "stay", "player": p})
    return Legal(moves)


def _spends(rules, state, mine, whens) -> list[dict]:
    out = []
    for p, pl in enumerate(state["players"]):
        if not mine(p):
            continue
        for d, c in sorted(pl["drinks"].items()):
            drink = rules.data.drink[d]
            if c and drink.when in whens and not (drink.power == "flip-site" and pl["site"] is None) \
                    and not (drink.power == "win-bonus" and pl["blue_active"]):
                out.append({"type": "spend", "player": p, "drink": d})
    return out


def actors(state: dict, waiting: list[int] = ()) -> Actors:
    phase, n = state["phase"], len(state["players"])
    everyone = tuple(range(n))
    if phase == "start":
        return Actors("all", tuple(p for p, pl in enumerate(state["players"]) if pl["at"] is None))
    if phase == "ready" and waiting:
        return Actors("all", tuple(waiting))
    if phase in ("ready", "draw"):
        return Actors("all", everyone)
    if phase == "building":
        return Actors("all", tuple(p for p, pl in enumerate(state["players"]) if pl["site"] is not None))
    if phase == "check":
        return Actors("several", everyone)
    if phase == "grab":
        return Actors("all", tuple(p for p in everyone
                                   if p != state["completed"][0] and str(p) not in state["grabbed"]))
    if phase == "move":
        return Actors("one", (state["movers"][state["mover"]],))
    return NOBODY


# -------------------------------------------------------------------------------------------- result
def result(rules, state: dict):
    if state["phase"] != "over":
        return None
    bonus = _blue_yen(rules)
    rows = []
    for p, pl in enumerate(state["players"]):
        parts = [(f"{rules.site_label(k['site'])} ({k['side']}, {rules.requirement(k['site'], k['side'])})", k["yen"])
                 for k in pl["kept"]]
        if pl["blue"]:
            parts.append((f"Blue drinks kept ({pl['blue']} x {yen(bonus)})", pl["blue"] * bonus))
        rows.append(score_row(p, pl["name"], parts or [("No site card completed", 0)],
                              sites=len(pl["kept"])))
    return make_result(leaders(rows), "yen", rows)


# ------------------------------------------------------------------------------------------ describe
def describe(rules, state: dict, move: dict) -> str:
    t = move.get("type")
    if t == "begin":
        return f"Round {state['round'] + 1} begins: everyone builds!"
    if t == "draw-drinks":
        return f"Drinks drawn: {', '.join(move['drinks'])}."
    who = name(state, move["player"])
    if t == "start":
        a = next((x for x in rules.data.architects if x.id == move.get("architect")), None)
        return (f"{who} " + (f"takes architect {a.number} ({a.name}) and " if a else "")
                + f"starts on {rules.site_label(move['site'])}.")
    if t == "stop":
        pl = state["players"][move["player"]]
        return f"{who} calls stop! ({rules.site_label(pl['site'])}, {rules.requirement(pl['site'], pl['side'])})"
    if t == "verdict":
        return f"{who} {'confirms' if move['ok'] else 'rejects'} {name(state, move['builder'])}'s building."
    if t == "grab":
        return f"{who} grabs {'a ' + move['drink'] + ' drink' if move.get('drink') else 'nothing'}."
    if t == "spend":
        return f"{who} spends a {move['drink']} drink: {rules.data.drink[move['drink']].text}"
    if t == "stay":
        return f"{who} keeps their site card."
    if t == "ready":
        later = [p for p in deciding(rules, state) if p != move["player"]]
        return f"{who} is ready." + ("" if later else f" Round {state['round'] + 1} begins: everyone builds!")
    if t == "move":
        via = " (purple drink)" if move.get("purple") else ""
        return f"{who} moves to {rules.site_label(move['site'])}{via}."
    return t or "?"
