"""Sapporo 1876's rules, pure (no Flask, no I/O, importable on its own): `RULES`, the game's
contract.Rules.

Sources: ../shared/rules/sapporo-1876.txt and the canonical data in assets/sapporo-1876/
(`data` = generator.canon.load("sapporo-1876")); every number (AP, costs, tracks, fame) is the data's.
Modules: spots (AP of a payment, harvest gains), fame (settlement and final-scoring arithmetic),
engine (setup, actions, buildings, the turn, scoring), this module (the contract, moves, legal
moves, views, history lines).

Options: {"tiles": "table" | "companion", "start_player": 0, "colours": ["black", "white"]}
  chance_modes: "table" = {"tiles": "table"}: the table shuffles the tiles and enters the six persons,
  six buildings and four buildings beside the board it laid out (one "lay-out-tiles" move);
  "companion" = {"tiles": "companion"}: the companion shuffles them from the seed at setup. Every tile
  is laid out face up, so nothing is hidden and the seed is not kept in the state.

State (plain JSON)
------------------
    game, mode, phase "tiles" | "buy" | "place" | "move" | "action" | "returns" | "end" | "over"
    start_player, current (the active player), acting (who answers now in buy/place/action), turn
    pawn (action spot id or null), notes {spot: 1-yen notes on it}
    harvest / settlement (spaces the markers advanced from their start rows), events (harvests and
    settlements so far), pending ("harvest" | "settlement" | null: this turn's step 6)
    returns [seats still to take workers back from building tiles after this harvest, in order]
    persons [6 ids, null where taken], buildings [6 ids, null where taken], beside [4 ids, at setup]
    council {column: [seat | null per space, bottom first]}
    players [{name, colour, yen, resources {id: n}, area (workers in the worker area), educated
              (academy workers educated, lowest tier first), pioneer {column: space reached, 0 = none},
              persons [ids], buildings [{id, worker}], fame (gained during the game)}]
    history [{event, turn, gains | fame}]   last (what the last pawn move did, for the pages)
    turn_ended (the seat whose turn just ended by itself; only until the next move)

needs(state) (the board twin's hints): {"phase", "players", "prompt", "moves", "options": [{"move",
"text", and for actions "cost", "payments" (the cheapest, each minimal), "values" (AP per resource
here)}], "preview": the final scoring as if the game ended now, per player (`score`)}. The options
are a sample of the legal moves (legal_moves is a sample while the game runs: payments and step
orders are many; the empty list of a finished game is complete).

Moves ("player" = the seat making it; "pay" = {"<resource id>" | "yen": n})
------------------------------------------------------------------------------
  {"type": "lay-out-tiles", "persons": [6], "buildings": [6], "beside": [4]}            table mode, set-up
  {"type": "buy-building", "player": p, "tile": id}         set-up, non-start player first, in yen only
  {"type": "place-pioneer", "player": p, "column": c}        set-up, start player first, different columns
  {"type": "move-pawn", "player": p, "spot": id}             step 1 (steps 2 and 3 follow by themselves)
  {"type": "educate", "player": p, "workers": n, "fame": k, "bonus": resource, "pay": {...}}
  {"type": "pioneer", "player": p, "steps": [column, ...], "pay": {...}}   one entry per space advanced
  {"type": "invest", "player": p, "tile": id, "pay": {...}}
  {"type": "appoint", "player": p, "column": c, "space": i (0 = bottom), "pay": {...}}
  {"type": "pass", "player": p}                              perform no action (steps 4 and 5)
  {"type": "use-building", "player": p, "tile": id, "give": resource, "take": resource,
      "action": {fields of the action above, with "pay"}}    the active player, at any step of their turn
  {"type": "return-workers", "player": p, "tiles": [ids]}    harvest: the first free, each other 1 yen
  {"type": "end-turn", "player": p}                          step 7, once the active player is done

Decisions where the text is silent
----------------------------------
  * Payments: yen is kept as one number (change is free at any time), so a 5-yen note is 5 yen. Any
    payment that covers the cost is accepted, more than it included ("can be paid in any
    combination and in any number"; "no change is given", "Unused AP is lost"): the AP over the
    cost are lost (engine.overpaid; the board page warns before such a payment is sent, and the
    history line says how many were lost). The payments the companion suggests are the cheapest,
    each minimal (no unit could be left out).
  * "At any time during your turn, you can place 1 worker from your worker area on a building
    tile": the active player may use building tiles at every step of their turn: before moving the
    pawn, during their own action, during the other player's action (step 5), during a harvest's
    returns and at the end of the turn (step 7). "The player who is not the active player cannot
    place workers on building tiles, even during step 5": the other player never may. The turn
    waits only on whoever must answer (actors); the active player's building moves are listed
    beside. The action step a tile gives may be left out ("action" absent: only the yen is gained).
  * Makomanai Farm and Kotoni Village ("perform one Pioneer action ... in either the rice bale or
    the cattle column"): one of the tile's two columns per use, as many spaces up it as are paid
    (the data's `columns` of the action step).
  * An action step may be passed ("pass"): the text says each player performs the action, but a
    player may be unable to (no workers, nothing affordable), and performing nothing is allowed.
  * Educating several workers: the tier bonus is gained as each tier is completed; the lowest tier's
    bonus (house: 1 resource of your choice) is chosen with "bonus". Fame for 3 AP only once the
    academy is empty, which may happen within the same action.
  * Investing: a taken tile leaves its space empty (nothing is replenished).
  * Harvest: income is gained by itself; then each player with a worker on a building tile returns
    workers with "return-workers" (at least one, the free one; each further one 1 yen), the active
    player first (the rules' order when players dispute it). A player without such a worker is
    skipped.
  * A turn with nothing left to do ends by itself: step 7 is skipped when the active player can
    place no worker on a building tile (none in the worker area, every tile taken, or none whose
    price they can pay), on reaching it and after each tile used in it. An "end-turn" the active
    player sends right after (a log written before step 7 ended by itself after a tile's use or
    when no tile was payable) is accepted and changes nothing (`turn_ended`, kept until the next
    move), so every stored game replays exactly.
  * Settlement 1-1 ties are broken by the higher space (the text); with three spaces per column no
    other tie can occur (the data checks it).
  * The end: after step 7 of the turn of the 5th harvest or settlement. Ties: the last active player.
  * Set-up: the mandatory purchase cannot be impossible (every building costs at most the 4 yen each
    player starts with, which the data checks), so there is no move to skip it. The 2 tiles left
    beside the board go back to the box once the start player has bought.
  * Table mode: the laid-out tiles are entered in one move ("lay-out-tiles", any seat of the table);
    a tile may not be entered twice (a building on the board cannot also lie beside it).
  * House data the engine relies on (marked in assets/sapporo-1876/): the AP of three action spots,
    the tracks' lengths and icon rows, council costs, academy costs and the lowest tier's bonus,
    the pioneering spaces, tile names, prices and the eight influential persons the rules do not
    describe. Every worked example of the rules holds with them (tests/games/sapporo_1876/).
  * The preview (`score`, needs()["preview"], the personal boards' QR page) is the final scoring
    applied to the current state: what each player would have if the game ended now.
"""
from __future__ import annotations

import copy
from typing import Any

from companion.games import contract
from companion.games.contract import HOST, Actors, Ctx, Field, IllegalMove, Legal, MoveType
from companion.games.words import count

from . import engine as E
from . import at_table as _at_table
from .engine import COMPANION, TABLE, Index

__all__ = ["RULES", "SapporoRules"]

_PLAYER = Field("player", {"type": "integer", "minimum": 0}, "the seat index of the player making the move")
_PAY = Field("pay", {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
             "what is paid: resource ids and \"yen\" with their numbers, e.g. {\"rice-bale\": 2, \"yen\": 4}",
             required=False)
_ID = {"type": "string"}
_IDS = {"type": "array", "items": _ID}


def _f(name, schema, doc, required=True):
    return Field(name, schema, doc, required)


_EDUCATE = (_f("workers", {"type": "integer", "minimum": 0}, "workers educated, lowest tier first", False),
            _f("fame", {"type": "integer", "minimum": 0}, "with the academy empty: times 3 AP buy 2 fame", False),
            _f("bonus", _ID, "the resource of your choice a completed tier's bonus gives", False))
_PIONEER = (_f("steps", _IDS, "the columns advanced, one entry per space (a new column starts at its bottom)"),)
_INVEST = (_f("tile", _ID, "an influential person or building tile on the main board"),)
_APPOINT = (_f("column", _ID, "a city council column id"),
            _f("space", {"type": "integer", "minimum": 0}, "the space in it, 0 = bottom"))

MOVE_TYPES = (
    MoveType("lay-out-tiles", "Lay out the tiles", (
        _f("persons", _IDS, "the influential persons on the main board's 6 spaces"),
        _f("buildings", _IDS, "the building tiles on the main board's 6 spaces"),
        _f("beside", _IDS, "the 4 building tiles beside the board")), who="table",
        doc="Table mode, set-up: the tiles the table shuffled and laid out."),
    MoveType("buy-building", "Buy a building", (_PLAYER, _f("tile", _ID, "one of the tiles beside the board")),
             doc="Set-up: buy one building tile beside the board with banknotes (mandatory)."),
    MoveType("place-pioneer", "Place a pioneer", (_PLAYER, _f("column", _ID, "a pioneering column")),
             doc="Set-up: a free worker on the bottom space of a pioneering column."),
    MoveType("move-pawn", "Move the action pawn", (_PLAYER, _f("spot", _ID, "an action spot id")),
             doc="Step 1: move the pawn to another spot; take its notes; notes and markers follow."),
    MoveType("educate", "Educate", (_PLAYER, *_EDUCATE, _PAY),
             doc="Agricultural College: educate workers from the lowest tier; fame when the academy is empty."),
    MoveType("pioneer", "Pioneer", (_PLAYER, *_PIONEER, _PAY),
             doc="Pioneer Village: advance workers in pioneering columns."),
    MoveType("invest", "Invest", (_PLAYER, *_INVEST, _PAY),
             doc="Foreign Residence: acquire one tile from the main board."),
    MoveType("appoint", "Appoint", (_PLAYER, *_APPOINT, _PAY),
             doc="Central City Hall: appoint a worker to an empty city council space."),
    MoveType("pass", "Do nothing", (_PLAYER,), doc="Perform no action in this action step."),
    MoveType("use-building", "Use a building", (
        _PLAYER, _f("tile", _ID, "one of your building tiles without a worker"),
        _f("give", _ID, "the resource paid where the tile says 'of your choice'", False),
        _f("take", _ID, "the resource gained where the tile says 'of your choice'", False),
        _f("action", {"type": "object"}, "the tile's action: its fields and \"pay\" (any resource 2 AP)",
           False)),
        doc="On your turn: place a worker from your worker area on a building tile for its effect."),
    MoveType("return-workers", "Take workers back", (
        _PLAYER, _f("tiles", _IDS, "building tiles to free: the first free, each other 1 yen")),
        doc="Harvest: take workers back from building tiles."),
    MoveType("end-turn", "End the turn", (_PLAYER,), doc="Step 7: the active player ends the turn."),
)
_TABLE_MOVES = frozenset(mt.name for mt in MOVE_TYPES if mt.who == "table")
#: the phases of a turn (steps 1 to 7), when the active player may use building tiles
_TURN_PHASES = ("move", "action", "returns", "end")
_ACTION_FIELDS = {"educate": ("workers", "fame", "bonus", "pay"), "pioneer": ("steps", "pay"),
                  "invest": ("tile", "pay"), "appoint": ("column", "space", "pay")}


class SapporoRules(contract.Rules):
    """Sapporo 1876's rules bound to its data (see the module docstring)."""

    id = "sapporo-1876"
    move_types = MOVE_TYPES
    chance_modes = {"table": {"tiles": TABLE}, "companion": {"tiles": COMPANION}}
    options_doc = {
        "tiles": "\"table\" (default): you shuffle and lay out the tiles and enter them; "
                 "\"companion\": the companion shuffles and draws them.",
        "start_player": "the seat index of the start player, who most recently visited Sapporo (default 0).",
        "colours": "one colour id per player, all different (default: black, white).",
    }

    def __init__(self, data: Any):
        super().__init__(data)
        self.ix = Index(data)

    # ---- the contract ---------------------------------------------------------------------------
    def setup(self, players, options, seed):
        return E.setup(self.ix, players, options, seed)

    def validate_options(self, players, options):
        return E.validate_options(self.ix, players, options)

    def validate(self, state, move, ctx=Ctx()):
        return self._run(state, move, ctx, act=False)[0]

    def apply(self, state, move, ctx=Ctx()):
        reasons, new = self._run(state, move, ctx, act=True)
        if reasons:
            raise IllegalMove(reasons)
        return new

    def actors(self, state):
        phase = state.get("phase")
        if phase == "over":
            return contract.NOBODY
        if phase == "tiles":
            return Actors("all", tuple(range(len(state["players"]))))
        if phase in ("buy", "place", "action"):
            return Actors("one", (state["acting"],))
        if phase == "returns":
            return Actors("one", (state["returns"][0],))
        return Actors("one", (state["current"],))

    def result(self, state):
        if state.get("phase") != "over":
            return None
        scores = [contract.score_row(p, pl["name"], E.final_breakdown(self.ix, state, p))
                  for p, pl in enumerate(state["players"])]
        last = state["current"]
        winners = contract.leaders(scores, lambda s: 1 if s["player"] == last else 0)
        return contract.result(winners, "fame", scores)

    def describe(self, state, move):
        text = _describe(self.ix, state, move)
        lost = self.overpaid(state, move)
        return f"{text} ({lost} AP lost: no change is given)" if lost else text

    def overpaid(self, state, move) -> int:
        """AP a move's payment gives beyond its cost (lost: "no change is given"); 0 when none or
        when the move cannot be read."""
        try:
            if not isinstance(move, dict):
                return 0
            if move.get("type") in E.ACTION_MOVES and isinstance(move.get("pay"), dict):
                pay, bare = move["pay"], {k: v for k, v in move.items() if k != "pay"}
            elif move.get("type") == "use-building" and isinstance(move.get("action"), dict) \
                    and isinstance(move["action"].get("pay"), dict):
                pay = move["action"]["pay"]
                bare = {**move, "action": {k: v for k, v in move["action"].items() if k != "pay"}}
            else:
                return 0
            plan = self.plan(state, bare)
            if plan["cost"] is None or not plan["values"]:
                return 0
            return E.overpaid(self.ix, pay, plan["values"], plan["cost"])
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            return 0

    def mover(self, move):
        if not isinstance(move, dict):
            return None
        if move.get("type") in _TABLE_MOVES:
            return None
        p = move.get("player")
        return p if isinstance(p, int) and not isinstance(p, bool) else None

    def table_facts(self, state):
        return _at_table.table_facts(self.ix, state)

    def setup_steps(self, state):
        return _at_table.setup_steps(self.ix, state)

    def needs(self, state):
        return _needs(self, state)

    def legal_moves(self, state, player=None):
        moves = _legal(self.ix, state)
        if player is not None:
            moves = [m for m in moves if self.mover(m) in (None, player)]
        # a sample (payments and step orders are many), except the empty list of a finished game
        return Legal(moves, complete=state.get("phase") == "over")

    # ---- helpers for the web layer --------------------------------------------------------------
    def score(self, state) -> list[dict]:
        """The final scoring as if the game ended now, per player (the preview)."""
        return [contract.score_row(p, pl["name"], E.final_breakdown(self.ix, state, p))
                for p, pl in enumerate(state["players"])]

    def calculator(self, body) -> tuple[list[str], dict | None]:
        """POST /api/sapporo-1876/score (API.md): calculator.calculate."""
        from . import calculator
        return calculator.calculate(self.ix, body)

    def payments(self, state, player, action_values, cost, limit=5):
        return E.payments(self.ix, state["players"][player], action_values, cost, limit)

    def cost(self, state, player, action, spec, building_tile=None) -> tuple[list[str], int]:
        """(reasons, AP cost) of an action for `player` (at the pawn's spot, or by a building)."""
        cols = ()
        if building_tile:
            step = next(s for s in self.ix.building[building_tile].effects if s.effect == "action")
            cols = step.columns
        reasons, cost, _ = E.plan_action(self.ix, state, player, action, spec, cols)
        return reasons, cost

    def plan(self, state, move) -> dict:
        """What a move being built on the board page would cost and how it could be paid, before it
        is sent: {"reasons": what is still wrong with it, payment aside (empty: it can be played with
        the first payment), "cost": AP or None (a move paid with nothing), "values": {unit: AP},
        "payments": the cheapest payments (each minimal), "pay_in": "move" | "action" (where "pay"
        goes: the move, or a building's "action") | None}. Pure; `move` may come from anyone."""
        out = {"reasons": [], "cost": None, "values": {}, "payments": [], "pay_in": None}
        reasons = self.unknown_type(move)
        if reasons:
            return {**out, "reasons": reasons}
        try:
            return _plan(self, state, move, out)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            return {**out, "reasons": [f"the move could not be understood ({type(exc).__name__})"]}

    # ---- internals --------------------------------------------------------------------------------
    def _run(self, state: dict, move: Any, ctx: Any, act: bool):
        reasons = self.unknown_type(move)
        if reasons:
            return reasons, None
        if isinstance(ctx, Ctx) and ctx.seat != HOST and not ctx.may_act_for(self.mover(move)):
            return ["Only that player (or the host) may make this move."], None
        try:
            return _step(self.ix, state, move, act)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            return [f"the move could not be understood ({type(exc).__name__})"], None


RULES = SapporoRules


# --------------------------------------------------------------------------- moves

def _player(state: dict, move: dict) -> tuple[list[str], int | None]:
    p = contract.seat_index(move.get("player"), len(state["players"]))
    if p is None:
        return [f"\"player\": a seat index 0-{len(state['players']) - 1}"], None
    return [], p


def _whose(state: dict, p: int, expected: int, what: str) -> list[str]:
    if p != expected:
        return [f"it is {state['players'][expected]['name']}'s turn to {what}, not "
                f"{state['players'][p]['name']}'s"]
    return []


def _step(ix: Index, state: dict, move: dict, act: bool) -> tuple[list[str], dict | None]:
    phase, t = state.get("phase"), move["type"]
    ended = state.get("turn_ended")
    if t == "end-turn" and ended is not None and move.get("player") == ended:
        # the turn has just ended by itself (nothing was left to do): a log written before it did so
        # ends it with this move, which now changes nothing
        if not act:
            return [], None
        new = copy.deepcopy(state)
        new.pop("turn_ended", None)
        return [], new
    if phase == "over":
        return ["the game is over"], None
    new = copy.deepcopy(state) if act else None
    if new is not None:
        new.pop("turn_ended", None)

    if t == "lay-out-tiles":
        if phase != "tiles":
            return ["the tiles are already laid out"], None
        persons, buildings, beside = move.get("persons"), move.get("buildings"), move.get("beside")
        reasons = []
        for name, got, n, known in (("persons", persons, ix.n_persons, ix.persons),
                                    ("buildings", buildings, ix.n_buildings, ix.buildings),
                                    ("beside", beside, ix.n_beside, ix.buildings)):
            if not isinstance(got, list) or len(got) != n or any(g not in known for g in got):
                reasons.append(f"\"{name}\": {n} tile ids ({', '.join(known)})")
        if reasons:
            return reasons, None
        if len(set(persons)) != len(persons) or len(set(buildings + beside)) != len(buildings + beside):
            return ["each tile can be laid out only once"], None
        if act:
            E._lay_out(ix, new, persons, buildings, beside)
        return [], new

    if phase == "tiles":
        return ["first lay out the tiles (\"lay-out-tiles\")"], None
    reasons, p = _player(state, move)
    if reasons:
        return reasons, None

    if t == "buy-building":
        if phase != "buy":
            return ["buildings are bought only at set-up"], None
        r = _whose(state, p, state["acting"], "buy a building")
        if r:
            return r, None
        tile = move.get("tile")
        if tile not in state["beside"]:
            return [f"\"tile\": one of the tiles beside the board ({', '.join(state['beside'])})"], None
        cost = ix.building[tile].cost
        if state["players"][p]["yen"] < cost:
            return [f"{ix.tile_name[tile]} costs {cost} yen; you have {state['players'][p]['yen']}"], None
        if act:
            pl = new["players"][p]
            pl["yen"] -= cost
            pl["buildings"].append({"id": tile, "worker": False})
            new["beside"].remove(tile)
            if p == new["start_player"]:
                new["beside"] = []                     # the other 2 go back to the box
                new["phase"] = "place"                 # the start player places first
            else:
                new["acting"] = E._other(new, p)
        return [], new

    if t == "place-pioneer":
        if phase != "place":
            return ["the free pioneer is placed only at set-up"], None
        r = _whose(state, p, state["acting"], "place a pioneer")
        if r:
            return r, None
        col = move.get("column")
        if col not in ix.col:
            return [f"\"column\": a pioneering column ({', '.join(ix.columns)})"], None
        if any(pl["pioneer"][col] for pl in state["players"]):
            return ["the other player chose that column: choose a different one"], None
        if act:
            pl = new["players"][p]
            pl["pioneer"][col] = 1
            pl["area"] -= 1
            if p == new["start_player"]:
                new["acting"] = E._other(new, p)
            else:
                new["acting"] = None
                new["phase"] = "move"
        return [], new

    if t == "use-building":
        # "At any time during your turn, you can place 1 worker from your worker area on a building
        # tile"; "The player who is not the active player cannot place workers on building tiles,
        # even during step 5": every step of the turn, for the active player only.
        if phase not in _TURN_PHASES:
            return ["building tiles are used during a turn, not at set-up"], None
        cur = state["current"]
        if p != cur:
            return [f"it is {state['players'][cur]['name']}'s turn: only the active player places workers on "
                    f"building tiles, not {state['players'][p]['name']}, even during step 5"], None
        reasons, sim = E.check_building(ix, state, p, move)
        if reasons:
            return reasons, None
        if act:
            sim.pop("turn_ended", None)
            E.end_if_done(ix, sim)          # step 7 with no tile left to use: the turn ends by itself
        return [], sim if act else None

    if t == "move-pawn":
        if phase != "move":
            return ["the action pawn moves only at the start of a turn"], None
        r = _whose(state, p, state["current"], "move the action pawn")
        if r:
            return r, None
        spot = move.get("spot")
        if spot not in ix.spot:
            return [f"\"spot\": an action spot ({', '.join(ix.spots)})"], None
        if spot == state["pawn"]:
            return ["the action pawn must move: it cannot stay on the same action spot"], None
        if act:
            E.move_pawn(ix, new, spot)
        return [], new

    if t in E.ACTION_MOVES or t == "pass":
        if phase != "action":
            return ["actions are performed in the action steps, after the pawn has moved"], None
        r = _whose(state, p, state["acting"], "perform the action")
        if r:
            return r, None
        if t != "pass":
            spot_action = ix.spot[state["pawn"]].action
            if t != spot_action:
                return [f"the action here ({ix.spot[state['pawn']].name}) is {spot_action}, not {t}"], None
            spec = {k: move[k] for k in _ACTION_FIELDS[t] if k in move}
            reasons, effects = E.check_action(ix, state, p, t, spec, None)
            if reasons:
                return reasons, None
            if act:
                E._pay(ix, new["players"][p], spec.get("pay"))
                E._effects(ix, new, p, effects, spec)
        if act:
            E.after_action(ix, new)
        return [], new

    if t == "return-workers":
        if phase != "returns":
            return ["workers come back from building tiles only at a harvest"], None
        r = _whose(state, p, state["returns"][0], "take workers back")
        if r:
            return r, None
        tiles = move.get("tiles")
        pl = state["players"][p]
        occupied = [b["id"] for b in pl["buildings"] if b["worker"]]
        if not isinstance(tiles, list) or not tiles or len(set(map(str, tiles))) != len(tiles) \
                or any(x not in occupied for x in tiles):
            return [f"\"tiles\": one or more of your building tiles with a worker ({', '.join(occupied)})"], None
        extra = (len(tiles) - ix.data.harvest.free_building_returns) * ix.data.harvest.building_return_cost
        if extra > pl["yen"]:
            return [f"freeing {len(tiles)} tiles costs {extra} yen (the first is free); you have {pl['yen']}"], None
        if act:
            npl = new["players"][p]
            npl["yen"] -= max(0, extra)
            for b in npl["buildings"]:
                if b["id"] in tiles:
                    b["worker"] = False
                    npl["area"] += 1
            new["returns"].pop(0)
            if not new["returns"]:
                E.finish_event(ix, new)
        return [], new

    if t == "end-turn":
        if phase != "end":
            return ["the turn ends after both players' actions (and the harvest or settlement)"], None
        r = _whose(state, p, state["current"], "end the turn")
        if r:
            return r, None
        if act:
            E.end_turn(ix, new)
        return [], new
    return [f"unknown move type {t!r}"], None


# --------------------------------------------------------------------------- the move builder

def _plan(rules: "SapporoRules", state: dict, move: dict, out: dict) -> dict:
    ix = rules.ix
    t = move["type"]
    p = contract.seat_index(move.get("player"), len(state["players"]))
    paid_action = t in E.ACTION_MOVES and state.get("pawn") and p is not None
    building = (t == "use-building" and p is not None and move.get("tile") in ix.building
                and isinstance(move.get("action"), dict) and move["action"])
    if not paid_action and not building:
        return {**out, "reasons": rules.validate(state, move)}
    pl = state["players"][p]
    if paid_action:
        spec = {k: move[k] for k in _ACTION_FIELDS[t] if k in move and k != "pay"}
        reasons, cost, _ = E.plan_action(ix, state, p, t, spec)
        values, pay_in = ix.spot_values(state["pawn"]), "move"
    else:
        step = next((s for s in ix.building[move["tile"]].effects if s.effect == "action"), None)
        if step is None:
            return {**out, "reasons": [f"{ix.tile_name[move['tile']]} gives no action"]}
        sim = copy.deepcopy(state)
        pl = sim["players"][p]
        pl["area"] -= 1
        for s in ix.building[move["tile"]].effects:
            if s.effect == "gain" and s.resource == E.YEN:
                pl["yen"] += s.amount
        spec = {k: v for k, v in move["action"].items() if k != "pay"}
        reasons, cost, _ = E.plan_action(ix, sim, p, step.action, spec, step.columns)
        values, pay_in = {r: step.resource_ap for r in ix.resources}, "action"
    if reasons:
        return {**out, "reasons": reasons, "values": values, "pay_in": pay_in}
    pays = E.payments(ix, pl, values, cost, limit=4)
    if not pays:
        return {**out, "reasons": [f"{cost} AP: your resources here and your yen do not add up to it"],
                "cost": cost, "values": values, "pay_in": pay_in}
    full = {**move, "pay": pays[0]} if pay_in == "move" else {**move, "action": {**move["action"], "pay": pays[0]}}
    return {"reasons": rules.validate(state, full), "cost": cost, "values": values, "payments": pays,
            "pay_in": pay_in}


# --------------------------------------------------------------------------- legal moves

def _action_options(ix: Index, state: dict, p: int, action: str, values, columns=(), cap=3) -> list[dict]:
    """A sample of legal specs (with the cheapest payment) of an action for p."""
    pl = state["players"][p]
    specs: list[dict] = []
    if action == "educate":
        left = ix.academy_size - pl["educated"]
        for n in range(1, min(left, 3) + 1):     # a choice of bonus where a tier with one is completed
            bonus = [None] if _no_bonus(ix, pl, {"workers": n}) else ix.resources
            specs += [{"workers": n, **({"bonus": b} if b else {})} for b in bonus]
        if left <= 1:
            specs += [{"workers": left, "fame": k} for k in (1, 2)]
    elif action == "pioneer":
        cols = [c for c in ix.columns if not columns or c in columns]
        for c in cols:
            specs.append({"steps": [c]})
            specs.append({"steps": [c, c]})
        started = [c for c in cols if pl["pioneer"][c]]
        specs += [{"steps": [a, b]} for i, a in enumerate(started) for b in started[i + 1:]]
    elif action == "invest":
        specs += [{"tile": t} for t in state["persons"] + state["buildings"] if t]
    elif action == "appoint":
        specs += [{"column": c, "space": i} for c in ix.council
                  for i, s in enumerate(state["council"][c]) if s is None]
    out = []
    for spec in specs:
        reasons, cost, _ = E.plan_action(ix, state, p, action, spec, columns)
        if reasons:
            continue
        pays = E.payments(ix, pl, values, cost, limit=1)
        if pays:
            out.append({**spec, "pay": pays[0]})
    return out


def _no_bonus(ix: Index, pl: dict, spec: dict) -> bool:
    done, n = pl["educated"], spec.get("workers", 0)
    return not any(i + 1 == ix.tier_end[ix.worker_tier[i]] and ix.tiers[ix.worker_tier[i]].bonus
                   for i in range(done, done + n))


def _building_options(ix: Index, state: dict, p: int) -> list[dict]:
    pl = state["players"][p]
    out = []
    if pl["area"] <= 0:
        return out
    for b in pl["buildings"]:
        if b["worker"]:
            continue
        tile = ix.building[b["id"]]
        base = {"type": "use-building", "player": p, "tile": b["id"]}
        takes = [None]
        for s in tile.effects:
            if s.effect != "action" and s.resource == E.ANY:
                if s.effect == "pay":
                    have = [r for r in ix.resources if pl["resources"][r] > 0]
                    base["give"] = have[0] if have else ix.resources[0]
                else:
                    takes = ix.resources          # one suggestion per resource of your choice
        cands = [{**base, **({"take": t} if t else {})} for t in takes]
        step = next((s for s in tile.effects if s.effect == "action"), None)
        if step is not None:
            sim = copy.deepcopy(state)
            spl = sim["players"][p]
            spl["area"] -= 1
            for s in tile.effects:
                if s.effect == "gain" and s.resource == E.YEN:
                    spl["yen"] += s.amount
            values = {r: step.resource_ap for r in ix.resources}
            for spec in _action_options(ix, sim, p, step.action, values, step.columns)[:4]:
                cands.append({**base, "action": spec})
        for m in cands:
            if not E.check_building(ix, state, p, m)[0]:
                out.append(m)
    return out


def _legal(ix: Index, state: dict) -> list[dict]:
    phase = state.get("phase")
    if phase == "over":
        return []
    if phase == "tiles":
        return [{"type": "lay-out-tiles", "persons": (ix.persons[k:] + ix.persons[:k])[:ix.n_persons],
                 "buildings": (ix.buildings[k:] + ix.buildings[:k])[:ix.n_buildings],
                 "beside": (ix.buildings[k:] + ix.buildings[:k])[ix.n_buildings:ix.n_buildings + ix.n_beside]}
                for k in (0, 3)]
    if phase == "buy":
        p = state["acting"]
        return [{"type": "buy-building", "player": p, "tile": t} for t in state["beside"]
                if ix.building[t].cost <= state["players"][p]["yen"]]
    if phase == "place":
        p = state["acting"]
        taken = {c for pl in state["players"] for c, v in pl["pioneer"].items() if v}
        return [{"type": "place-pioneer", "player": p, "column": c} for c in ix.columns if c not in taken]
    cur = state["current"]
    if phase == "move":
        return ([{"type": "move-pawn", "player": cur, "spot": s} for s in ix.spots if s != state["pawn"]]
                + _building_options(ix, state, cur))
    if phase == "action":
        p = state["acting"]
        action = ix.spot[state["pawn"]].action
        moves = [{"type": action, "player": p, **spec}
                 for spec in _action_options(ix, state, p, action, ix.spot_values(state["pawn"]))]
        moves.append({"type": "pass", "player": p})
        return moves + _building_options(ix, state, cur)    # during step 5 too
    if phase == "returns":
        p = state["returns"][0]
        pl = state["players"][p]
        occ = [b["id"] for b in pl["buildings"] if b["worker"]]
        out = [{"type": "return-workers", "player": p, "tiles": [t]} for t in occ]
        cost = ix.data.harvest.building_return_cost
        out += [{"type": "return-workers", "player": p, "tiles": occ[:k]} for k in range(2, len(occ) + 1)
                if (k - ix.data.harvest.free_building_returns) * cost <= pl["yen"]]
        return out + _building_options(ix, state, cur)
    if phase == "end":
        return [{"type": "end-turn", "player": cur}] + _building_options(ix, state, cur)
    return []


# --------------------------------------------------------------------------- text

def _pay_text(ix: Index, pay) -> str:
    if not pay:
        return ""
    parts = [f"{n} yen" if k == "yen" else f"{n} {ix.res_name.get(k, k)}" for k, n in pay.items() if n]
    return " for " + ", ".join(parts) if parts else ""


def _describe(ix: Index, state: dict, move: dict) -> str:
    try:
        t = move.get("type")
        name = state["players"][move["player"]]["name"] if "player" in move else "The table"
        if t == "lay-out-tiles":
            return "The tiles are laid out: " + ", ".join(ix.tile_name[x] for x in move["persons"])
        if t == "buy-building":
            return f"{name} buys {ix.tile_name[move['tile']]} ({ix.building[move['tile']].cost} yen)"
        if t == "place-pioneer":
            return f"{name} places a pioneer in the {ix.col[move['column']].name}"
        if t == "move-pawn":
            return f"{name} moves the action pawn to the {ix.spot[move['spot']].name}"
        if t == "educate":
            fame = f" and buys {move['fame']} × 2 fame" if move.get("fame") else ""
            bonus = f" (tier bonus: {ix.res_name[move['bonus']]})" if move.get("bonus") in ix.res_name else ""
            return (f"{name} educates {count(move.get('workers', 0), 'worker')}{fame}{bonus}"
                    f"{_pay_text(ix, move.get('pay'))}")
        if t == "pioneer":
            return f"{name} pioneers {', '.join(ix.col[c].name for c in move['steps'])}{_pay_text(ix, move.get('pay'))}"
        if t == "invest":
            return f"{name} invests in {ix.tile_name[move['tile']]}{_pay_text(ix, move.get('pay'))}"
        if t == "appoint":
            return (f"{name} appoints a worker to the {ix.ccol[move['column']].name.lower()}, space "
                    f"{move['space'] + 1}{_pay_text(ix, move.get('pay'))}")
        if t == "pass":
            return f"{name} performs no action"
        if t == "use-building":
            extra = [f"gives 1 {ix.res_name[move['give']]}"] if move.get("give") in ix.res_name else []
            extra += [f"takes 1 {ix.res_name[move['take']]}"] if move.get("take") in ix.res_name else []
            act = move.get("action")
            if isinstance(act, dict) and act:
                kind = next(s.action for s in ix.building[move["tile"]].effects if s.effect == "action")
                inner = _describe(ix, state, {**act, "type": kind, "player": move["player"]})
                extra.append("then " + inner.split(" ", 1)[1] if " " in inner else inner)
            return f"{name} uses {ix.tile_name[move['tile']]}" + (": " + ", ".join(extra) if extra else "")
        if t == "return-workers":
            return f"{name} takes workers back from {', '.join(ix.tile_name[x] for x in move['tiles'])}"
        if t == "end-turn":
            return f"{name} ends the turn"
    except (KeyError, TypeError, IndexError, AttributeError):
        pass
    return str(move.get("type", "?")) if isinstance(move, dict) else "?"


_PROMPTS = {
    "tiles": "Shuffle the tiles, lay out 6 persons, 6 buildings and 4 beside the board, and enter them.",
    "buy": "{name}: buy one building tile beside the board (banknotes only).",
    "place": "{name}: place a worker on the bottom space of a pioneering column (free).",
    "move": "{name}: move the action pawn (or use a building tile first).",
    "action": "{name}: perform the {action} action, or do nothing.",
    "returns": "{name}: harvest — take workers back from building tiles (the first is free, each more 1 yen).",
    "end": "{name}: use building tiles, or end the turn.",
    "over": "The game is over.",
}


def _building_payments(ix: Index, state: dict, m: dict) -> dict:
    """cost, payments and values of a building tile's action (any resource at its AP), the payment
    going in the move's "action" ("pay_in")."""
    p, tile = m["player"], ix.building[m["tile"]]
    step = next(s for s in tile.effects if s.effect == "action")
    sim = copy.deepcopy(state)
    spl = sim["players"][p]
    spl["area"] -= 1
    for s in tile.effects:
        if s.effect == "gain" and s.resource == E.YEN:
            spl["yen"] += s.amount
    spec = {k: v for k, v in m["action"].items() if k != "pay"}
    _, cost, _ = E.plan_action(ix, sim, p, step.action, spec, step.columns)
    values = {r: step.resource_ap for r in ix.resources}
    return {"cost": cost, "values": values, "pay_in": "action",
            "payments": E.payments(ix, spl, values, cost, limit=4)}


def _needs(rules: SapporoRules, state: dict) -> dict:
    ix = rules.ix
    phase = state.get("phase")
    actors = rules.actors(state)
    seat = actors.seats[0] if actors.mode == "one" else None
    action = ix.spot[state["pawn"]].name if state.get("pawn") else ""
    name = state["players"][seat]["name"] if seat is not None else ""
    legal = _legal(ix, state)
    options = []
    for m in legal:
        row = {"move": m, "text": _describe(ix, state, m)}
        if "pay" in m and m["type"] in E.ACTION_MOVES:
            spec = {k: v for k, v in m.items() if k not in ("type", "player", "pay")}
            _, cost, _ = E.plan_action(ix, state, m["player"], m["type"], spec)
            row["cost"] = cost
            row["payments"] = E.payments(ix, state["players"][m["player"]],
                                         ix.spot_values(state["pawn"]), cost, limit=4)
            row["values"] = ix.spot_values(state["pawn"])
        elif m["type"] == "use-building" and isinstance(m.get("action"), dict) and "pay" in m["action"]:
            row.update(_building_payments(ix, state, m))
        options.append(row)
    return {"phase": phase, "players": list(actors.seats),
            "prompt": _PROMPTS.get(phase, "").format(name=name, action=action),
            "moves": sorted({m["type"] for m in legal}), "options": options,
            "preview": rules.score(state)}
