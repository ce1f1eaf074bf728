"""Tokyo Jutaku's rules, pure (no Flask, no I/O, importable on its own): `RULES`, one contract.Rules
for the main game, Bottle Bonus, Countdown and Izakaya.

Sources: ../shared/rules/jutaku.txt and the canonical data in assets/jutaku/ (`data` =
generator.canon.load("jutaku")): the map, the site cards' requirements and yen, the end at the 4th
card, the movement of 2, the drinks and their powers, Countdown's 60 / 45 / 30 / 15 s, Izakaya's
grids, prices, discs, thresholds and tie-break are all read from `data`.

Why one class with a `mode` option: a table is one game id (`jutaku`, one QR code scheme, one kit,
one page); the variants share the site cards, the pieces and the seats, and a table chooses its
variant when it is created, as it chooses Shinjuku's deck. The engines are separate modules (main.py
for Jutaku + Bottle Bonus, countdown.py, izakaya.py) behind this one RULES, which dispatches on
state["mode"]; Bottle Bonus is the main game plus an option, as the text says ("plays exactly as
TOKYO JUTAKU does. After each round ends ...").

Options (validate_options; every one optional)
  mode          "jutaku" (default) | "countdown" | "izakaya"
  bottle_bonus  false (default) | true                       main game only
  chance        "table" (default) | "companion"           who draws the Bottle Bonus drinks, and
                (Izakaya) who shuffles the grid and draws the first turn order
  side          "white" (default) | "blue"                  main game: the side the map lies on
  round_seconds 0 (default: no limit, as the rules) .. 3600  main game: a time limit per round
  floor_seconds [60, 45, 30, 15] (default, the rules)        Countdown: floor 1, 2, ...; the last
                                                              value for every further floor
  chance_modes: "table" = {"chance": "table", "bottle_bonus": true}, "companion" = {"chance":
  "companion", "bottle_bonus": true} (Bottle Bonus is where the main game has chance).

Main game (main.py): state
  phase "start" (architects placed) | "ready" | "building" | "check" | "draw" | "grab" | "move" | "over"
  map {"c,r": site id | null (taken)}, players [{name, architect, at "c,r", site (held card), side,
  kept [{site, side, yen, round}], drinks {colour: n}, blue (blue drinks kept), blue_active}],
  stops [seat in the order they called], verdicts {seat: bool}, checks (checks failed this round),
  completed, movers, mover, turned {site: side} (cards on the map lying on the other side than the
  map's: flipped by a black drink and left behind), flipped [sites a black drink flipped here],
  box {colour: n} (drinks in the box), offer (drinks out of the machine), grabbed, powers (spent
  this round), timer (the round's clock record when round_seconds > 0), round_started_ms.
  Moves: {"type": "start", "player", "site", "architect"?} (a perimeter card; everyone at once; "each
         player chooses one architect token": a token held by a player who has not placed yet is
         swapped with yours, one already placed is refused)
         {"type": "begin"} (the table: "begin!"; starts the round's clock; in Bottle Bonus a seat's
         Begin! waits for every player holding a drink to spend before the round: they spend or tap
         {"type": "ready", "player"}, and the last one's Ready begins the round; the host may begin)
         {"type": "stop", "player", "floors"?, "pieces"?} (counts, when given, must match the card)
         {"type": "verdict", "player" (the checker), "builder", "ok": bool}
         {"type": "draw-drinks", "drinks": [colour, ...]} (table chance), {"type": "grab", "player",
         "drink": colour | null}, {"type": "spend", "player", "drink"}
         {"type": "move", "player", "site", "purple"?: true}, {"type": "stay", "player"}
Countdown (countdown.py): phase "ready" | "floor" (the clock runs) | "count" | "over";
  {"type": "begin"}, {"type": "pieces", "player", "pieces": n} (added on this floor; 0 = out),
  {"type": "end-floor"} (the table ends the floor early). Timer "floor".
Izakaya (izakaya.py): phase "order" (table chance: {"type": "turn-order", "order": [seats]}, the table's)
  | "bid" | "actions" | "over"; {"type": "bid", "player", "amount"}
  (secret until all have bid; sent again before then, it replaces the sealed bid),
  then in turn order, 3 discs each: {"type": "bottle", "player",
  "drink", "corner": [x, y]}, {"type": "price", "player", "from", "to"}, {"type": "claim", "player",
  "edge": [[c, r], [c, r]], "site": [c, r]}, {"type": "build", "player", "site": [c, r],
  "building": 0 | 1, "floors": n (the building's floors with the new piece)}, {"type": "pass", "player"}.

Simultaneous phases (`phase`, API.md "Simultaneous phases"): the key stays the same while seats act
at once and their moves commute, and changes with the phase: ["start"] (architects placed),
["ready", round] (drinks spent before "begin"), ["building", round, checks] (a stretch of building
and the stops said at the same time; a failed check starts a new stretch), ["grab", draw],
Countdown ["floor", n] (the floor's entries, during and after its clock), Izakaya ["bid", n] (the
sealed bids of action phase n). Moving, the draw and Izakaya's actions take turns: None.

Decisions where the text is silent
  Main game
  * Checking: "Everyone pauses ... and checks". A stop pauses the round (and its clock, if timed).
    "If multiple players say 'stop' at the same time, all successfully-built site cards are
    completed": a stop is accepted while building, and during the check only until its first
    verdict. Stops that reach the companion before anyone has judged a building were said at the
    same time as the first (the check has not begun: the table is still pausing) and are all
    checked together; once a verdict is given the check is under way, everyone has paused, and a
    new stop is refused ("too late"): a player who calls it then never completes that round. When
    every building checked is rejected, everyone builds on and may call stop again. A verdict is
    given by any other player (or the host phone); a solo player judges their own. Counts sent
    with "stop" are checked against the card at once; the verdict covers what a phone cannot see
    (borders, overhangs, touching pieces). All rejected: everyone builds on. At least one
    confirmed: the round ends, every confirmed builder keeps the card (its yen on the side it was
    built on), the rejected ones keep building next round.
  * Movement: every player moves once, clockwise, starting with the builder (with several, the one
    with most yen after the round; equal yen: who called stop first). A step goes to the next
    square in its direction that holds a card (gaps: the centre, taken cards, squares where an
    architect stands, are passed through); up to 2 steps, turning allowed, never diagonal. A
    player who did not complete may stay (keep their card); one who moves puts their card back on
    its square. If no card is within reach, any free card may be chosen.
  * The rules give no time limit to a round; `round_seconds` adds one. When it runs out, nobody
    completed: everyone keeps their card and the next round begins without movement. The clock
    (timer "round") then stays in `timers` as "expired" until the next "begin" starts it again; a
    round a confirmed building ends takes its clock away with it.
  * The end: checked when a round's verdicts are in; ties share the victory.
  Bottle Bonus
  * With several builders in a round, the one who moves first draws the drinks (one per other
    player, fewer if the box runs short). Drinks nobody grabs and drinks spent go back in the box;
    a blue drink is set aside when spent and kept (+200 yen at the end) if its owner completes a
    building that round. Black, white and blue are spent before "begin", mint and red during the
    round, purple with a move ("purple": true: any free card). A player holds any number of drinks;
    "grab" names its drink, null for none.
  * Black: "Players cannot look at the back side before deciding to flip or not". The pages show a
    card's face up only; both faces once a black drink flipped it at this table (public_view's
    "faces", faces_seen) or the game is over. A flipped card left behind goes back on the map as it
    lies (`turned`), and whoever takes it builds that face.
  * The end can never be foreseen: a round "could be the last" once someone holds 3 cards (their
    building may fail the check, a timed round may run out), so the prompt says so, never "last round".
  Countdown
  * Each player enters the pieces they added on the floor; when all active players have, the
    floor ends early and the next starts at once; when the clock runs out, those who have not
    entered do so (the "floor" timer stays "expired" meanwhile). The 69 pieces are shared: no entry
    beyond what is left in the middle.
  Izakaya
  * Table chance: the grid's cards are not entered (each card may hold 2 buildings); the first turn
    order is drawn at the table ("Using players' remaining disc, randomly draw them 1 at a time, and
    create the turn order") and entered by any phone of the table before the first bids (phase
    "order"). Companion chance: the companion deals the grid and draws the order.
  * Ties in bidding swap places: tied players take their previous order reversed.
  * The threshold counts the pile of all yen bid so far; once met, one more action phase, then the
    end. House: the game also ends after an action phase when no piece, drink spot or claimable
    site is left (bids of 0 could otherwise go on for ever). A player passes only when no action
    is possible. The price spot takes one disc per phase (house data, izakaya.toml).
  * A line of 3 claim discs across a row or down a column of cards (only 4 x 4 and 5 x 5 grids are
    wide enough) earns one free build at once (or pass to let it go), each line once. The lines are
    scored, not the order the discs went down: a disc that completes two lines at once (four in a
    row, the middle one last) earns two free pieces (`bonus_left`), placed or let go one by one.
  * Scoring: only claimed cards pay; each building on it: floors x the market prices of the drinks
    on its four corners; plus the yen kept. Ties: most yen kept; still tied, shared.
"""
from __future__ import annotations

from typing import Any

from companion.games import contract
from companion.games.contract import HOST, NOBODY, Actors, Ctx, Field, IllegalMove, Legal, MoveType

from . import countdown, izakaya, main
from . import at_table as _at_table
from .common import is_int, unkey

MODES = ("jutaku", "countdown", "izakaya")
INT = {"type": "integer"}
STR = {"type": "string"}
POS = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
_P = Field("player", INT, "the seat making the move")


def _f(name, schema, doc, required=True):
    return Field(name, schema, doc, required)


MOVE_TYPES = (
    MoveType("start", "Place your architect", (_P, _f("site", STR, "a site card on the outer perimeter"),
                                                _f("architect", STR, "the architect token chosen (default: the "
                                                   "seat's own)", required=False)),
             doc="Jutaku: choose an architect token and a starting site card on the perimeter (everyone at "
                 "once); a token another player has not placed yet changes hands with yours."),
    MoveType("begin", "Begin!", who="table", doc="Starts a building round (Jutaku) or the first floor "
             "(Countdown) and its clock."),
    MoveType("stop", "Stop!", (_P, _f("floors", INT, "storeys built (checked against the card)", False),
                               _f("pieces", INT, "pieces used (checked against the card)", False)),
             doc="Jutaku: I think my building is complete."),
    MoveType("verdict", "Confirm or reject", (_P, _f("builder", INT, "whose building"),
                                              _f("ok", {"type": "boolean"}, "true: it meets the card")),
             doc="Jutaku: another player's check of a stopped building."),
    MoveType("draw-drinks", "Enter the drinks drawn", (
        _f("drinks", {"type": "array", "items": STR}, "the colours drawn, one per other player"),),
        who="table", doc="Bottle Bonus, table chance."),
    MoveType("grab", "Grab a drink", (_P, _f("drink", {"type": ["string", "null"]}, "a colour, or null")),
             doc="Bottle Bonus: grab at most one of the drinks that came out."),
    MoveType("spend", "Spend a drink", (_P, _f("drink", STR, "black, white, mint, blue or red")),
             doc="Bottle Bonus: use a drink's one-time power."),
    MoveType("move", "Move your architect", (_P, _f("site", STR, "the site card moved to"),
                                             _f("purple", {"type": "boolean"},
                                                "spend a purple drink: any free card", False)),
             doc="Jutaku: up to 2 orthogonal spaces, gaps passed through."),
    MoveType("stay", "Keep your site card", (_P,), doc="Jutaku: a player who did not complete stays."),
    MoveType("ready", "Ready", (_P,), doc="Bottle Bonus, before a round: a player holding a drink to spend "
             "now has spent what they wish (or passes); the last one's Ready begins the round."),
    MoveType("pieces", "Pieces added", (_P, _f("pieces", {"type": "integer", "minimum": 0},
                                               "pieces added on this floor (0: you are out)")),
             doc="Countdown."),
    MoveType("end-floor", "End the floor", who="table", doc="Countdown: everyone is done early."),
    MoveType("turn-order", "Enter the turn order drawn", (
        _f("order", {"type": "array", "items": INT}, "every seat once, first to last"),),
        who="table", doc="Izakaya, table chance: the order drawn from the players' discs, 1 at a time, "
                         "before the first bids."),
    MoveType("bid", "Bid", (_P, _f("amount", {"type": "integer", "minimum": 0}, "yen, secret until all bid")),
             doc="Izakaya: the secret bid for turn order."),
    MoveType("bottle", "Coloured bottle", (_P, _f("drink", STR, "the stock card's colour"),
                                          _f("corner", POS, "[x, y] corner between cards")), doc="Izakaya."),
    MoveType("price", "Price adjustment", (_P, _f("from", STR, "colour losing 100 yen"),
                                          _f("to", STR, "colour gaining 100 yen")), doc="Izakaya."),
    MoveType("claim", "Site claiming", (_P, _f("edge", {"type": "array", "items": POS},
                                               "the two cards the disc lies between"),
                                       _f("site", POS, "the card the pyramid goes on")), doc="Izakaya."),
    MoveType("build", "Build", (_P, _f("site", POS, "[c, r]"),
                               _f("building", INT, "0, or 1 on a two-border card", False),
                               _f("floors", INT, "the building's floors with the new piece")), doc="Izakaya."),
    MoveType("pass", "Pass", (_P,), doc="Izakaya: no action is possible (or let a line bonus go)."),
)

MODE_MOVES = {
    "jutaku": {"start", "begin", "stop", "verdict", "draw-drinks", "grab", "spend", "move", "stay", "ready"},
    "countdown": {"begin", "pieces", "end-floor"},
    "izakaya": {"turn-order", "bid", "bottle", "price", "claim", "build", "pass"},
}


class JutakuRules(contract.Rules):
    id = "jutaku"
    move_types = MOVE_TYPES
    chance_modes = {"table": {"chance": "table", "bottle_bonus": True},
                    "companion": {"chance": "companion", "bottle_bonus": True}}
    options_doc = {
        "mode": "jutaku | countdown | izakaya (default jutaku)",
        "bottle_bonus": "true: the Bottle Bonus variant of the main game (default false)",
        "chance": "table | companion: who draws the drinks (and shuffles the Izakaya grid)",
        "side": "white | blue: the side the site cards lie on in the main game (default white)",
        "round_seconds": "a time limit per building round, 0 = none (the rules'; default 0)",
        "floor_seconds": "Countdown floor times in seconds, the last for every further floor "
                         "(default [60, 45, 30, 15])",
    }

    def __init__(self, data: Any):
        super().__init__(data)
        self._labels = {c.id: c.label for c in data.components() if c.kind == "site-card"}

    # -- options -----------------------------------------------------------------------------------
    def defaults(self) -> dict:
        return {"mode": "jutaku", "bottle_bonus": False, "chance": "table", "side": "white",
                "round_seconds": 0, "floor_seconds": countdown.default_seconds(self.data)}

    def validate_options(self, players: list[str], options: dict) -> list[str]:
        if not isinstance(options, dict):
            return ["options must be an object"]
        d = self.defaults()
        reasons = [f"unknown option {k!r} (options: {', '.join(d)})" for k in sorted(set(options) - set(d))]
        o = {**d, **options}
        if o["mode"] not in MODES:
            reasons.append(f"mode must be one of {', '.join(MODES)}")
            return reasons
        if not isinstance(o["bottle_bonus"], bool):
            reasons.append("bottle_bonus must be true or false")
        elif o["bottle_bonus"] and o["mode"] != "jutaku":
            reasons.append("Bottle Bonus is a variant of the main game (mode jutaku)")
        if o["chance"] not in ("table", "companion"):
            reasons.append("chance must be table or companion")
        if o["side"] not in ("white", "blue"):
            reasons.append("side must be white or blue")
        rs = o["round_seconds"]
        if not is_int(rs) or not 0 <= rs <= 3600:
            reasons.append("round_seconds must be a whole number from 0 (no limit) to 3600")
        fs = o["floor_seconds"]
        if not (isinstance(fs, list) and 1 <= len(fs) <= 20 and all(is_int(x) and 1 <= x <= 600 for x in fs)):
            reasons.append("floor_seconds must be a list of 1 to 20 whole numbers of seconds (1 to 600)")
        n = len(players) if isinstance(players, list) else 0
        lo, hi = self._players(o)
        if not lo <= n <= hi:
            reasons.append(f"{self._mode_name(o)} is for {lo} to {hi} players, not {n}")
        return reasons

    def _players(self, o: dict) -> tuple[int, int]:
        d = self.data
        if o["mode"] == "countdown":
            return d.countdown.players
        if o["mode"] == "izakaya":
            return d.izakaya.players
        return d.bottle_bonus.players if o.get("bottle_bonus") else d.players

    @staticmethod
    def _mode_name(o: dict) -> str:
        if o["mode"] == "jutaku":
            return "Bottle Bonus" if o.get("bottle_bonus") else "Tokyo Jutaku"
        return o["mode"].title()

    def setup(self, players: list[str], options: dict, seed: int) -> dict:
        reasons = self.validate_options(players, options)
        if reasons:
            raise IllegalMove(reasons)
        o = {**self.defaults(), **options}
        if o["mode"] == "countdown":
            return countdown.setup(self.data, players, o, seed)
        if o["mode"] == "izakaya":
            return izakaya.setup(self, players, o, seed)
        return main.setup(self, players, o, seed)

    # -- moves ---------------------------------------------------------------------------------------
    def validate(self, state: dict, move: Any, ctx: Ctx = Ctx()) -> list[str]:
        reasons = self.unknown_type(move)
        if reasons:
            return reasons
        mode = state["mode"]
        if move["type"] not in MODE_MOVES[mode]:
            return [f"{move['type']!r} is not a move of {mode} (its moves: {', '.join(sorted(MODE_MOVES[mode]))})"]
        if mode == "countdown":
            return countdown.validate(state, move, ctx)
        if mode == "izakaya":
            return izakaya.validate(self, state, move, ctx)
        return main.validate(self, state, move, ctx)

    def apply(self, state: dict, move: dict, ctx: Ctx = Ctx()) -> dict:
        reasons = self.validate(state, move, ctx)
        if reasons:
            raise IllegalMove(reasons)
        mode = state["mode"]
        if mode == "countdown":
            return countdown.apply(state, move, ctx)
        if mode == "izakaya":
            return izakaya.apply(self, state, move, ctx)
        return main.apply(self, state, move, ctx)

    def legal_moves(self, state: dict, player: int | None = None) -> Legal:
        mode = state["mode"]
        if mode == "countdown":
            return countdown.legal(state, player)
        if mode == "izakaya":
            return izakaya.legal(self, state, player)
        return main.legal(self, state, player)

    def actors(self, state: dict) -> Actors:
        mode = state["mode"]
        if mode == "countdown":
            return countdown.actors(state)
        if mode == "izakaya":
            return izakaya.actors(state)
        return main.actors(state, main.deciding(self, state))

    def timers(self, state: dict) -> dict:
        mode = state["mode"]
        if mode == "countdown":
            return countdown.timers(state)
        if mode == "jutaku":
            return main.timers(state)
        return {}

    def on_expire(self, state: dict, name: str, ctx: Ctx) -> dict:
        mode = state["mode"]
        if mode == "countdown":
            return countdown.on_expire(state, name, ctx)
        if mode == "jutaku":
            return main.on_expire(self, state, name, ctx)
        raise IllegalMove([f"Izakaya has no timer {name!r}"])

    def describe_expiry(self, before: dict, name: str, after: dict) -> str:
        if before["mode"] == "countdown":
            return countdown.describe_expiry(before, after)
        if before["mode"] == "jutaku":
            return main.describe_expiry(before, after)
        return super().describe_expiry(before, name, after)

    def phase(self, state: dict) -> Any:
        mode = state["mode"]
        if mode == "countdown":
            return countdown.phase_key(state)
        if mode == "izakaya":
            return izakaya.phase_key(state)
        return main.phase_key(state)

    def result(self, state: dict) -> dict | None:
        mode = state["mode"]
        if mode == "countdown":
            return countdown.result_of(state)
        if mode == "izakaya":
            return izakaya.result_of(self, state)
        return main.result(self, state)

    # -- views ---------------------------------------------------------------------------------------
    def public_view(self, state: dict, viewer: contract.Viewer = None) -> dict:
        """The seed never leaves the server; Izakaya's bids stay sealed until all have bid (each
        player sees their own, the host phone every bid)."""
        view = {**state, "seed": None}
        if state["mode"] == "izakaya":
            view = izakaya.hide_bids(view, viewer)
        if state["mode"] == "jutaku":
            # "Players cannot look at the back side before deciding to flip or not": the pages know
            # a card's other face only once a black drink flipped it at this table (both faces)
            view["faces"] = {site: self.faces(site) for site in state.get("flipped", [])}
        return view

    def faces(self, site: str) -> dict:
        """Both faces of a site card: {side: {"req", "yen", "plan"}}."""
        card = self.data.site[site]
        return {side: {"req": card.side(side).requirement, "yen": card.side(side).yen,
                       "plan": list(card.side(side).plan)} for side in ("white", "blue")}

    def faces_seen(self, state: dict, site: str) -> tuple[str | None, list[str]]:
        """At a main-game table: the face `site` shows now (where it lies, or as its holder builds on
        it) and the faces anyone may look at: the one up, both once it was flipped at this table or
        once the game is over; in Bottle Bonus never the back before ("Players cannot look at the
        back side before deciding to flip or not"). -> (side up, sides shown)."""
        up = None
        for pl in state["players"]:
            if pl["site"] == site:
                up = pl["side"]
            for k in pl["kept"]:
                if k["site"] == site:
                    up = k["side"]
        if up is None and site in state["map"].values():
            up = main.face_up(state, site)
        up = up or state["side"]
        if site in state.get("flipped", []) or state["phase"] == "over":
            return up, ["white", "blue"]
        return up, [up]

    def secret_paths(self, state: dict, seat: int) -> list[tuple]:
        return izakaya.secret_paths(state, seat) if state["mode"] == "izakaya" else []

    def public_move(self, move: dict, viewer: contract.Viewer = None) -> dict:
        if isinstance(move, dict) and move.get("type") == "bid" and viewer != HOST and viewer != move.get("player"):
            return {**move, "amount": "sealed"}
        return move

    def describe(self, state: dict, move: dict) -> str:
        mode = state["mode"]
        if mode == "countdown":
            return countdown.describe(state, move)
        if mode == "izakaya":
            return izakaya.describe(self, state, move)
        return main.describe(self, state, move)

    def can_undo(self, state: dict, move: dict) -> list[str]:
        return []

    def reveals(self, state: dict, move: dict) -> list[str]:
        """Izakaya: the bid that completes the bids reveals them all ("All reveal simultaneously").
        Bottle Bonus with the companion's chance: the move that ends a round with a winner (its last
        verdict) draws the drinks from the box. Nothing else shows what was hidden (Izakaya's grid
        and first order, drawn by the companion, are dealt at set-up, before any move)."""
        if not isinstance(move, dict) or not isinstance(state, dict):
            return []
        try:
            after = self.apply(state, move)
        except Exception:  # noqa: BLE001 - a move that cannot be applied reveals nothing
            return []
        if state.get("mode") == "izakaya":
            return izakaya.reveal_reasons(state, move, after)
        if state.get("mode") == "jutaku" and state.get("chance") == "companion" \
                and after.get("draws", 0) > state.get("draws", 0):
            drawn = ", ".join(after.get("offer") or []) or "none"
            return [f"it ended the round and the companion drew drinks from the box ({drawn})"]
        return []

    def sealed(self, state: dict) -> dict | None:
        return izakaya.sealed(state) if state.get("mode") == "izakaya" else None

    def table_facts(self, state: dict) -> dict:
        return _at_table.table_facts(self.data, state)

    def setup_steps(self, state: dict) -> list[dict]:
        return _at_table.setup_steps(self.data, state)

    def needs(self, state: dict) -> dict | None:
        a = self.actors(state)
        if state["mode"] == "jutaku":
            text = main.prompt(state, self.data.rules.end_sites, main.deciding(self, state))
        else:
            text = {"countdown": countdown.prompt, "izakaya": izakaya.prompt}[state["mode"]](state)
        return {"phase": state["phase"], "mode": state["mode"], "prompt": text, "players": list(a.seats),
                "moves": sorted({m["type"] for m in self.legal_moves(state).moves})}

    # -- helpers for the web layer -------------------------------------------------------------------
    def site_label(self, site: str) -> str:
        return self._labels.get(site, site)

    def requirement(self, site: str, side: str) -> str:
        return self.data.site[site].side(side).requirement

    def card_label(self, state: dict, card: str) -> str:
        site = state.get("cards", {}).get(card)
        c, r = unkey(card)
        where = f"row {r + 1}, column {c + 1}"
        return f"{self.site_label(site)} ({where})" if site else f"the card at {where}"

    def site_value(self, sites: list, blue_drinks: int = 0) -> tuple[list[str], int | None, list[dict]]:
        """POST /api/jutaku/score: the yen of one player's completed site cards, and Bottle Bonus's
        blue drinks kept (+200 each). A card is "<id>" (its white side) or "<id>:blue" /
        "<id>:white"; each card at most once. What cannot occur is a reason: more cards than end the
        game ("Once a player finishes their fourth site card, the game ends"), a negative count,
        more blue drinks than rounds won (one kept per round won, and a round won completes a card)
        or than the box holds. -> (reasons, yen, per card)."""
        end = self.data.rules.end_sites
        reasons, total, rows, seen = [], 0, [], set()
        if len(sites) > end:
            reasons.append(f"{len(sites)} site cards: the game ends when a player completes their "
                           f"{_ordinal(end)}, so a player holds {end} at most")
        blue = next((d for d in self.data.drinks if d.power == "win-bonus"), None)
        if blue_drinks < 0:
            reasons.append(f"blue_drinks: {blue_drinks}; a player keeps 0 or more")
        elif blue_drinks and blue is None:
            reasons.append("blue_drinks: there is no drink kept for yen in this game")
        elif blue_drinks > min(len(sites), self.data.drink_info.per_colour):
            reasons.append(f"{blue_drinks} blue drinks kept: one is kept per round won, a round won "
                           f"completes a site card ({len(sites)} here), and the box holds "
                           f"{self.data.drink_info.per_colour}")
        for s in sites:
            sid, _, side = s.partition(":") if isinstance(s, str) else ("", "", "")
            side = side or "white"
            if sid not in self.data.site or side not in ("white", "blue"):
                reasons.append(f"{s!r} is not a site card (ids like 'meguro-1', optionally ':blue')")
                continue
            if sid in seen:
                reasons.append(f"{sid!r} is listed twice; each site card is completed once")
                continue
            seen.add(sid)
            face = self.data.site[sid].side(side)
            rows.append({"site": sid, "side": side, "requirement": face.requirement, "yen": face.yen})
            total += face.yen
        if blue is not None:
            total += blue_drinks * blue.yen
        return reasons, (None if reasons else total), rows

    def izakaya_pay(self, prices: dict, buildings: list) -> list[int]:
        """POST /api/jutaku/izakaya: floors x the sum of the prices of the drinks touching each card."""
        return [b["floors"] * sum(prices[d] for d in b["drinks"]) for b in buildings]


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


RULES = JutakuRules

__all__ = ["RULES", "JutakuRules", "MOVE_TYPES", "NOBODY"]
