"""Tokyo Capsule Hotel's rules as pure Python (no Flask, no I/O): `RULES`, the game's contract.Rules.

Sources: ../shared/rules/capsule-hotel.it.txt (the only rulebook, Italian; English terms from
capsule-hotel.glossary.md) and the canonical data in assets/capsule-hotel/ (every amount is read
from `data`; ledger.py holds the arithmetic, income.py the Income phase, engine.py the moves).

The companion is the ledger of the table: each player's yen, coupons (worth 500 when purchasing,
never yen, never debt), loan, interest (10 % of the loan per round) and total debt (loan + interest x
round), with every entry (who made it and why) in `entries`. The map stays on paper: the companion
records only what income needs (lots with owners and subdivisions, hotels with colour, capsules and
land area, buildings, vending machines, cemeteries), never geometry.

Rounds and phases
-----------------
Round 1..8, each: mark the round (coupon rounds give each player a coupon) > loans > purchase/barter
> income. Round 1's loans phase: every player chooses a loan at once and in secret
("choose-loan"; hidden from the others by public_view until everyone has chosen, then revealed
together; the 4,000 loan brings a coupon). From round 2 the loans phase is automatic: if anyone's yen
repays their total debt the game ends at once; otherwise after round 8's income it ends. Result:
yen left after repaying the debt (negative = net debt), the most wins; ties share the victory.

Purchase/barter, in real time (Actors "all"): at the phase start every seal enters the queue by yen,
fewest first (ties: a random first player among the tied, then clockwise = seat order). Moves:
"leave-queue", "join-queue" (at the back; not while bartering; it declines a proposal received),
"start-count" (another player starts the count of declare_seconds, 5 by default, on the head of the
queue: the game timer "count"; at expiry the head's seal is removed; the expired timer stays in `timers`
until the next count starts or the phase ends), "declare" (the head says which kind of purchase it
makes: "devi dichiarare prontamente quale singolo Acquisto stai effettuando"; it stops the count, and no
count may start on a head who has declared), "purchase" (the head only, completing the purchase: "Dopo
aver dichiarato che cosa stai Acquistando, completa il tuo Acquisto", without the clock; of the declared
kind, or, without a declaration, declared and completed at once; one item; its price in yen and coupons;
the round expenses marker never moves back: a cemetery moves it not at all; the purchase that reaches or
passes the purchase limit is completed, then the queue empties and no new barter starts), "pass" (final
for the round), "propose-barter" / "confirm-barter" / "cancel-barter" (a two-sided transfer both players
confirm: yen, coupons, capsules, land with everything on it, a new subdivision; promises are notes,
never enforced). The phase ends when everyone passed, or once the limit was reached and no barter is
open.

Income: the bonus dice of every building that rolls (side A; Park on side B too) are rolled by the
companion (chance mode "companion", seeded) or entered from real dice ("roll", mode "table"), then
"pay-income" books each hotel's income (income.py) and the coupon faces, and the next round starts.

Moves (JSON; "player" is the seat making the move)
----------------------------------------------------
    {"type": "choose-loan", "player": 0, "amount": 6000}
    {"type": "withdraw-loan", "player": 0}               (before the reveal: choose again)
    {"type": "leave-queue"|"join-queue"|"pass", "player": 1}
    {"type": "start-count", "player": 1, "head": 0}      (head: optional, the seat counted on)
    {"type": "declare", "player": 0, "item": "lot"|"capsules"|"vending-machine"|"cemetery"|
     "entrance"|"building"}                            (the kind; the purchase that follows is of it)
    {"type": "purchase", "player": 0, "item": "lot", "board": "lot-4000", "adjoins": ["S1"]}
    {"type": "purchase", "player": 0, "item": "capsules", "colour": "green"}      (all of a colour)
    {"type": "purchase", "player": 0, "item": "capsules", "colour": "pink", "count": 4}
    {"type": "purchase", "player": 0, "item": "vending-machine"|"cemetery", "land": "S1"}
    {"type": "purchase", "player": 0, "item": "entrance", "land": "S1", "colour": "green",
     "capsules": 3, "floors": 2}                      (floors: needed with the tallest hotel variant)
    {"type": "purchase", "player": 0, "item": "building", "building": "coin-laundry", "land": "L1",
     "side": "A"|"B", "colour": "blue", "capsules": 2}    (side: attraction cards, buyer chooses)
    every purchase may add "coupons": n (each pays 500 of the price)
    {"type": "propose-barter", "player": 0, "with": 1, "give": {offer}, "get": {offer}}
        offer = {"yen", "coupons", "capsules": {colour: n}, "lands": [ids], "promise": "text",
                 "subdivision": {"of": land, "hotels": [ids], "buildings": [ids], "vending": n,
                                 "cemeteries": n}}          (the new subdivision goes to the other)
    {"type": "confirm-barter"|"cancel-barter", "player": 1, "barter": "X1"}
    {"type": "roll", "building": "B2", "face": 3}        (table dice: index into the building's faces)
    {"type": "pay-income"}
    {"type": "golden-rule-penalty", "hotel": "H4"}      (a correction entry, see below)
    {"type": "correction", "player": 2, "yen": -500, "coupons": 0, "note": "why"}
Ids: starting lots S1..S4, purchased lots L1.., subdivisions D1.., hotels H1.., buildings B1..,
barters X1...

Options: {"dice": "table"|"companion", "attraction_cards": "off"|"buyer-chooses"|"all-side-b",
"tallest_hotel": bool, "outside_money": bool, "declare_seconds": 1-30 (default: data, 5)}.

Decisions where the Italian text is silent
-------------------------------------------
  * Setup (house, game.toml): each player claims one starting lot in an order drawn from the seed;
    a player left without one takes the data's coupons. The random first player among tied seals is
    drawn by the companion from the seed in both chance modes (there is no physical die for it).
  * A sealed loan may be taken back ("withdraw-loan", the page's Change) and chosen again until the
    reveal; the loans are revealed when the last player has chosen, and from then on they are final:
    that choice is a reveal (reveals()), which only the host may undo (issue 26), and so is a move
    after which the companion rolls the bonus dice or draws the first of tied seals.
  * A player's holdings change only by their own seat or the host (sender_reasons, 403): a
    correction takes that player's token, a golden-rule penalty the hotel owner's, a bonus die the
    building owner's ("the building's owner rolls"); a die once entered is changed only by the host
    (or an undo). No correction takes a balance below 0 (the penalty, too, "paga tutto ciò che ha").
    A seat may send the golden-rule penalty only on a hotel that breaks the rule in the companion's
    record; the host may rule it on any hotel (the table's ruling).
  * sealed(): round 1's loans, who has sealed while they are chosen, then the reveal ("Aki ¥8,000 ·
    Ben ¥6,000") until round 1's income is paid (one reveal per game; the ledger keeps the loans).
  * Coupons pay at most the price (no change is given); a cemetery (negative price) takes none.
  * The 5-second count may be started by any other seat (or the host) while nobody counts and the
    head has not declared; the head's declaration, purchase, leaving or passing stops it. At its end
    the companion removes the head's seal itself (the rules let the counter do it). A count names the
    head it counts on ("head"): sent when another seat is at the head by then, it is refused.
  * A declaration names the kind of purchase (a lot, capsules, a vending machine, a cemetery, an
    entrance with its hotel, a building); the details (which lot board, colour, land) come with the
    purchase that completes it. It is final: a purchase of another kind is refused, and a head who
    cannot complete it leaves the queue (the declaration goes with the seal). A purchase sent with
    no declaration before it declares and completes at once.
  * Simultaneous phases (phase()): round 1's loans (["loans", 1], until the reveal) and each round's
    purchase/barter (["queue", round], until the income): seats' moves within one commute.
  * A player may be party to one open barter at a time; passing withdraws your open barter;
    holdings are checked again at confirmation. "purché in quel momento tu non stia Barattando":
    the player who proposed a barter is bartering and cannot join the queue until it is confirmed or
    abandoned; the player who merely received the proposal is not bartering and may join the queue
    at any time, which declines the proposal ("Barattare: ... ognuna delle parti coinvolte deve avere
    il proprio Sigillo del giocatore davanti a sé"; a rival cannot hold a player out of the queue).
  * The golden rule counts each land area's own pieces (a subdivision's pieces are not its parent's):
    the rules check "sia per la Suddivisione ... sia per la porzione rimanente". The cemetery limit
    (5) and the deduction count the whole lot, subdivisions included.
  * Passing a whole land area moves only that area; subdivisions inside it are separate areas.
  * Golden-rule-broken penalty (a correction entry): 1,000 x the hotel's capsules x the Income phases
    since it was built, at most the owner's yen; the hotel then earns nothing until a vending machine
    or cemetery is bought on its land area (the companion's record is what shows the rule met).
  * Tallest hotel variant: the height in floors is entered with the hotel. The text's floor rule ("non
    puoi costruire più piani di quante Capsule abbia il tuo Hotel al piano più basso") gives 1 to
    (capsules + 1) // 2 floors (f floors need f capsules on the ground floor and one on each floor
    above); pink's exception is "un'unica pila alta almeno 4 piani", one capsule per floor, so a
    pink hotel of 4 or more capsules may also stand exactly as tall as its capsules (5 pink: 1 to 3
    floors, or 5; never 4: neither one stack nor within the ground-floor limit). On a Coin Laundry
    (the ground floor itself) 1 to its capsules. engine.allowed_floors.
  * Park side B on a starting lot: "una Rendita attrazione extra di 500円 viene assegnata a tutti gli
    altri Lotti adiacenti al Lotto che contiene il Park": the Park's own lot never gets the +500, a
    starting lot included (it earns the Park's die roll as before). With the Park on a starting lot (or
    on a subdivision of one) a claimed starting lot is always beside it (the lots are claimed in
    the order of the 2 x 2 block, each sharing a side with one claimed before), so "tutti i piccoli
    Lotti iniziali quadrati in gioco" get +500: every OTHER claimed starting lot, the diagonal one
    too, and every purchased lot sharing part of a side with the Park's lot. Unclaimed starting
    lots are out of play and get nothing.
  * Outside money variant: the ledger is the same; the pages show it as the money to hold.
  * The round's income with no hotel is 0 and still recorded per round in the result.
"""
from __future__ import annotations

import copy
from companion.games import clock
from companion.games.contract import (HOST, NOBODY, Actors, Ctx, Field, IllegalMove, Legal, MoveType,
                                      Rules, leaders, result, score_row, seat_index)
from generator.canon.capsule_hotel import PINK
from companion.games.words import count

from . import engine as E
from . import at_table as _at_table
from . import ledger

INT = {"type": "integer"}
SEAT = Field("player", {"type": "integer", "minimum": 0}, "the seat making the move")
OFFER = {"type": "object", "properties": {
    "yen": {"type": "integer", "minimum": 0}, "coupons": {"type": "integer", "minimum": 0},
    "capsules": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1}},
    "lands": {"type": "array", "items": {"type": "string"}}, "promise": {"type": "string"},
    "subdivision": {"type": "object"}}}

TABLE_MOVES = {"roll", "pay-income", "golden-rule-penalty", "correction"}


class CapsuleHotelRules(Rules):
    id = "capsule-hotel"
    move_types = (
        MoveType("choose-loan", "Choose the loan", (SEAT, Field("amount", INT, "yen, one of the ledger's loans")),
                 doc="round 1, secret and simultaneous; revealed when everyone has chosen"),
        MoveType("withdraw-loan", "Change my sealed loan", (SEAT,),
                 doc="round 1, before the reveal: takes your sealed loan back to choose again"),
        MoveType("declare", "Declare a purchase", (
            SEAT, Field("item", {"enum": list(E.ITEMS)}, "the kind of purchase declared")),
                 doc="the head of the queue says which single purchase it makes: the count stops, "
                     "and the purchase is completed after it (a purchase of that kind), without the clock"),
        MoveType("purchase", "Purchase", (
            SEAT, Field("item", {"enum": list(E.ITEMS)}, "what is bought"),
            Field("board", {"type": "string"}, "lot: the lot board", required=False),
            Field("adjoins", {"type": "array", "items": {"type": "string"}},
                  "lot: the lots it shares part of a side with", required=False),
            Field("colour", {"type": "string"}, "capsules / hotel colour", required=False),
            Field("count", INT, "pink capsules bought", required=False),
            Field("land", {"type": "string"}, "the land area it is placed on", required=False),
            Field("capsules", INT, "capsules of the hotel", required=False),
            Field("floors", INT, "hotel height (tallest hotel variant)", required=False),
            Field("building", {"type": "string"}, "building id", required=False),
            Field("side", {"enum": ["A", "B"]}, "attraction card side", required=False),
            Field("coupons", INT, "coupons paying part of the price", required=False)),
                 doc="the head of the purchase queue buys one item: after a declaration, of the kind "
                     "declared; without one, it declares and completes at once"),
        MoveType("start-count", "Start the count", (
            SEAT, Field("head", INT, "the head of the queue counted on (refused if another seat is "
                                     "at the head by then)", required=False)),
                 doc="another player counts declare_seconds (5 by default) on the head of the queue, "
                     "who has not declared; at expiry the head's seal is removed from the queue"),
        MoveType("leave-queue", "Leave the queue", (SEAT,)),
        MoveType("join-queue", "Join the queue", (SEAT,), doc="at the back; not while bartering"),
        MoveType("pass", "Pass", (SEAT,), doc="final for the round"),
        MoveType("propose-barter", "Propose a barter", (
            SEAT, Field("with", INT, "the other player"), Field("give", OFFER, "what you give"),
            Field("get", OFFER, "what you get")), doc="both seals in front of their players"),
        MoveType("confirm-barter", "Confirm the barter", (SEAT, Field("barter", {"type": "string"}, "barter id")),
                 doc="the other player confirms: the transfer happens"),
        MoveType("cancel-barter", "Abandon the barter", (SEAT, Field("barter", {"type": "string"}, "barter id"))),
        MoveType("roll", "Enter a bonus die", (Field("building", {"type": "string"}, "building id"),
                                               Field("face", INT, "index of the face rolled")), who="table"),
        MoveType("pay-income", "Pay the income", who="table", doc="books every hotel's income; next round"),
        MoveType("golden-rule-penalty", "Golden rule broken: penalty", (
            Field("hotel", {"type": "string"}, "the hotel that should not have been built"),), who="table"),
        MoveType("correction", "Correction entry", (
            Field("player", INT, "whose ledger"), Field("yen", INT, "yen added (negative: taken)"),
            Field("coupons", INT, "coupons added (negative: taken)", required=False),
            Field("note", {"type": "string"}, "why")), who="table"),
    )
    chance_modes = {"table": {"dice": "table"}, "companion": {"dice": "companion"}}
    options_doc = {
        "dice": "table | companion: real bonus dice entered, or the companion rolls them",
        "attraction_cards": "off | buyer-chooses | all-side-b: the attraction card variant",
        "tallest_hotel": "true: the tallest hotel variant (hotel heights entered)",
        "outside_money": "true: the outside money variant (money tokens; the ledger still counts)",
        "declare_seconds": "the count on the head of the purchase queue (default 5)",
    }

    def __init__(self, data):
        super().__init__(data)
        self.loan_amounts = [o.amount for o in data.loan.option]

    # ---------------------------------------------------------------------- options, set-up
    def validate_options(self, players, options):
        if not isinstance(options, dict):
            return ["options must be an object"]
        reasons = [f"unknown option {k!r}" for k in sorted(set(options) - set(self.options_doc), key=str)]
        lo, hi = self.data.players
        if not isinstance(players, list) or not lo <= len(players) <= hi:
            reasons.append(f"{lo} to {hi} players")
        if options.get("dice", "table") not in ("table", "companion"):
            reasons.append("dice must be table or companion")
        if options.get("attraction_cards", "off") not in E.CARD_MODES:
            reasons.append("attraction_cards must be off, buyer-chooses or all-side-b")
        for k in ("tallest_hotel", "outside_money"):
            if not isinstance(options.get(k, False), bool):
                reasons.append(f"{k} must be true or false")
        ds = options.get("declare_seconds", self.data.purchase.declare_seconds)
        if not E.is_int(ds) or not 1 <= ds <= 30:
            reasons.append("declare_seconds must be a whole number from 1 to 30")
        return reasons

    def setup(self, players, options, seed):
        reasons = self.validate_options(list(players), dict(options))
        if reasons:
            raise IllegalMove(reasons)
        o = {"dice": "table", "attraction_cards": "off", "tallest_hotel": False, "outside_money": False,
             "declare_seconds": self.data.purchase.declare_seconds, **options}
        return E.setup(self.data, list(players), o, seed)

    # ---------------------------------------------------------------------- validate / apply
    def validate(self, state, move, ctx=Ctx()):
        try:
            return self._validate(state, move, ctx)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            return [f"the move could not be understood ({type(exc).__name__})"]

    def _validate(self, state, move, ctx):
        reasons = self.unknown_type(move)
        if reasons:
            return reasons
        t = move["type"]
        if state["phase"] == "over":
            return ["the game is over"]
        n = len(state["players"])
        if t not in TABLE_MOVES or t == "correction":
            p = seat_index(move.get("player"), n)
            if p is None:
                return [f"player must be a seat of this table (0 to {n - 1})"]
        reasons = self.sender_reasons(state, move, ctx)
        if reasons:
            return reasons
        phase = state["phase"]
        if t == "choose-loan":
            if phase != "loans":
                return ["the loan is chosen once, in round 1"]
            if str(p) in state["loan_choices"]:
                return [f"{E.name(state, p)} has chosen a loan already"]
            if move.get("amount") not in self.loan_amounts or isinstance(move.get("amount"), bool):
                return ["amount must be one of " + ", ".join(E.yen(a) for a in self.loan_amounts)]
            return []
        if t == "withdraw-loan":
            if phase != "loans" or str(p) not in state["loan_choices"]:
                return [f"{E.name(state, p)} has no sealed loan to change (the loans are revealed "
                        "together once everyone has chosen; after that they are final)"]
            return []
        if t == "correction":
            y, c = move.get("yen"), move.get("coupons", 0)
            if not E.is_int(y) or not E.is_int(c):
                return ["yen and coupons must be whole numbers"]
            if state["players"][p]["coupons"] + c < 0:
                return ["coupons would go below 0"]
            if state["players"][p]["yen"] + y < 0:
                return [f"{E.name(state, p)} has {E.yen(state['players'][p]['yen'])}: a balance never goes "
                        f"below 0 (even the golden-rule penalty takes only what the player has)"]
            if not isinstance(move.get("note"), str) or not move["note"].strip():
                return ["note: say why the correction is made"]
            return []
        if t == "golden-rule-penalty":
            h = next((h for h in state["hotels"] if h["id"] == move.get("hotel")), None)
            if h is None:
                return ["hotel must be a hotel of the map (H1, H2, …)"]
            if h["withheld"]:
                return [f"{h['id']} is already withheld from income"]
            kept = E.golden_kept(self.data, state, h)
            if kept and not (isinstance(ctx, Ctx) and ctx.seat == HOST):
                return [f"{h['id']} keeps the golden rule in the companion's record ({kept}): only the "
                        "host may rule a penalty on it"]
            return []
        if t in ("roll", "pay-income"):
            if phase != "income":
                return ["the bonus dice and the income come in the income phase"]
            if t == "pay-income":
                missing = [b["id"] for b in E.rolling_buildings(self.data, state) if b["id"] not in state["rolls"]]
                return [f"enter the bonus die of {', '.join(missing)} first"] if missing else []
            if state["options"].get("dice") == "companion":
                return ["the companion rolls the bonus dice at this table"]
            b = next((b for b in E.rolling_buildings(self.data, state) if b["id"] == move.get("building")), None)
            if b is None:
                return ["building must be a building that rolls its bonus die this round"]
            faces = self.data.building[b["kind"]].faces
            f = move.get("face")
            if not E.is_int(f) or not 0 <= f < len(faces):
                return [f"face: 0 to {len(faces) - 1}"]
            if b["id"] in state["rolls"] and not (isinstance(ctx, Ctx) and ctx.seat == HOST):
                return [f"the bonus die of {b['id']} is entered already (face {state['rolls'][b['id']]}): "
                        "only the host may change it (or undo the entry)"]
            return []
        if phase != "purchase":
            return ["this is done in the purchase/barter phase"]
        pl = state["players"][p]
        if pl["seal"] == "pass":
            return [f"{pl['name']} has passed this round"]
        if t == "pass":
            return []
        if t == "leave-queue":
            return [] if p in state["queue"] else [f"{pl['name']}'s seal is not in the queue"]
        if t == "join-queue":
            if p in state["queue"]:
                return [f"{pl['name']}'s seal is in the queue already"]
            if state["limit_reached"]:
                return ["the purchase limit is reached: no more purchases this round"]
            b = E.bartering(state, p)
            if b:
                return [f"{pl['name']} is bartering (proposed {b['id']} to {E.name(state, b['to'])}): "
                        "finish or abandon the barter first"]
            return []
        declared = state.get("declared")
        if t == "start-count":
            if not state["queue"]:
                return ["the queue is empty"]
            head = state["queue"][0]
            if "head" in move and move["head"] != head:
                return [f"{E.name(state, move['head'])} is no longer at the head of the queue: "
                        f"{E.name(state, head)} is"]
            if head == p:
                return ["another player counts on the head of the queue"]
            if declared:
                return [f"{E.name(state, head)} has declared a purchase: no count now"]
            if state["count"] is not None:
                return ["the count is running already"]
            return []
        if t == "declare":
            if not state["queue"] or state["queue"][0] != p:
                return [f"only the head of the queue declares a purchase; {pl['name']} is not at the head"]
            if declared:
                return [f"{pl['name']} has declared {E.ITEM_WORDS[declared['item']]} already: "
                        "complete that purchase, or leave the queue"]
            if move.get("item") not in E.ITEMS:
                return ["item must be one of " + ", ".join(E.ITEMS)]
            return []
        if t == "purchase":
            if not state["queue"] or state["queue"][0] != p:
                return [f"only the head of the queue purchases; {pl['name']} is not"]
            if declared and declared["item"] != move.get("item"):
                return [f"{pl['name']} declared {E.ITEM_WORDS[declared['item']]}: complete that "
                        f"purchase (item {declared['item']!r}), or leave the queue"]
            reasons, _ = E.plan_purchase(self.data, state, move)
            return reasons
        if t == "propose-barter":
            if state["limit_reached"]:
                return ["the purchase limit is reached: no new barter this round"]
            q = seat_index(move.get("with"), n)
            if q is None or q == p:
                return ["with must be another seat of this table"]
            for s in (p, q):
                if state["players"][s]["seal"] != "front":
                    return [f"{E.name(state, s)}'s seal must be in front of them (not queued, not passed)"]
                if E.in_barter(state, s):
                    return [f"{E.name(state, s)} is in a barter already"]
            return (E.check_offer(self.data, state, p, move.get("give"), "give")
                    or E.check_offer(self.data, state, q, move.get("get"), "get"))
        if t in ("confirm-barter", "cancel-barter"):
            b = next((b for b in state["barters"] if b["id"] == move.get("barter")), None)
            if b is None:
                return ["barter must be an open barter"]
            if t == "cancel-barter":
                return [] if p in (b["from"], b["to"]) else [f"{pl['name']} is not in barter {b['id']}"]
            if p != b["to"]:
                return [f"{E.name(state, b['to'])} confirms barter {b['id']}"]
            return (E.check_offer(self.data, state, b["from"], b["give"], "give")
                    or E.check_offer(self.data, state, b["to"], b["get"], "get"))
        return ["unknown move"]

    def mover(self, move):
        if not isinstance(move, dict) or move.get("type") in TABLE_MOVES:
            return None
        player = move.get("player")
        return player if E.is_int(player) else None

    def holder(self, state, move):
        """The seat whose holdings a table move changes: a correction's player, the owner of the
        hotel a golden-rule penalty is on, the owner of the building whose bonus die is entered
        ("the building's owner rolls"); None for other moves (or ids not on the map)."""
        if not isinstance(move, dict) or not isinstance(state, dict):
            return None
        t = move.get("type")
        if t == "correction":
            return seat_index(move.get("player"), len(state["players"]))
        land = None
        if t == "golden-rule-penalty":
            land = next((h["land"] for h in state["hotels"] if h["id"] == move.get("hotel")), None)
        elif t == "roll":
            land = next((b["land"] for b in state["buildings"] if b["id"] == move.get("building")), None)
        ld = state["lands"].get(land) if isinstance(land, str) else None
        return ld["owner"] if ld else None

    def sender_reasons(self, state, move, ctx):
        """Contract's (a seat's moves: that seat or the host), and a player's holdings change only by
        their own seat or the host: a correction takes that player's token or the host's, a
        golden-rule penalty its hotel owner's or the host's, a bonus die its building owner's or the
        host's (the rules: the building's owner rolls)."""
        reasons = super().sender_reasons(state, move, ctx)
        if reasons or not isinstance(ctx, Ctx) or ctx.seat == HOST:
            return reasons
        owner = self.holder(state, move)
        if owner is None or ctx.seat == owner:
            return []
        who = E.name(state, owner)
        what = {"correction": f"a correction of {who}'s ledger",
                "golden-rule-penalty": f"a golden-rule penalty on {who}'s hotel",
                "roll": f"the bonus die of {who}'s building"}[move["type"]]
        return [f"Only {who} (or the host) may enter {what}: a player's holdings change only by "
                "their own phone or the host's."]

    def reveals(self, state, move):
        """Round 1's last loan choice reveals every loan ("ogni giocatore sceglie simultaneamente …
        Quando tutti hanno scelto, rivelate"); a move that ends the purchase phase where the companion
        rolls the bonus dice (chance mode "companion") shows their faces; a move after which the
        companion draws the first player among tied seals shows that draw. A seat cannot undo these
        (it would choose again knowing them); the host can. Each roll depends only on the seed, the
        round and the building, so a purchase the host undoes and replaces gets the same faces: fine
        for the host, whose undo is the table's ruling, not a second chance at the dice."""
        try:
            after = self.apply(state, move, Ctx())
        except (IllegalMove, KeyError, TypeError, ValueError, AttributeError, IndexError):
            return []
        reasons = []
        if state["phase"] == "loans" and state["loan_choices"] and not after["loan_choices"] \
                and after["phase"] != "loans":
            reasons.append(f"{E.name(state, move.get('player'))}'s choice revealed every loan: "
                           + _loans_text(after))
        if state["phase"] == "purchase" and after["phase"] == "income" and after["rolls"] \
                and state["options"].get("dice") == "companion":
            reasons.append("the companion rolled the bonus dice of "
                           + ", ".join(sorted(after["rolls"])) + " when the purchase phase ended")
        if len(after["tie_orders"]) > len(state["tie_orders"]) and after["tie_orders"][-1]["ties"]:
            reasons.append("the companion drew who goes first among the tied seals "
                           + ", ".join(E.name(after, t["first"]) for t in after["tie_orders"][-1]["ties"]))
        return reasons

    def sealed(self, state):
        """Round 1's loans: while they are chosen, who has sealed a choice (never an amount); once
        revealed, the reveal (every loan) until round 1 ends (its income paid). There is one reveal
        per game; after round 1 each loan stays in the ledger, so the banner is news for round 1
        only. Works on a full state or a public view: it reads only who has chosen and, after the
        reveal, the loans every phone sees."""
        if state.get("round") != 1 or state.get("phase") == "over":
            return None
        if state["phase"] == "loans":
            return {"label": "loans", "seats": [{"seat": i, "sealed": str(i) in state["loan_choices"]}
                                                for i in range(len(state["players"]))], "reveal": None}
        if any(p["loan"] is None for p in state["players"]):
            return None
        return {"label": "loans", "seats": [], "reveal": {
            "id": "loans-1", "title": "Loans revealed", "text": _loans_text(state),
            "values": [{"seat": i, "value": p["loan"], "text": _yen(p["loan"])}
                       for i, p in enumerate(state["players"])]}}

    def apply(self, state, move, ctx=Ctx()):
        reasons = self.validate(state, move, ctx)
        if reasons:
            raise IllegalMove(reasons)
        s = copy.deepcopy(state)
        s["last"] = None
        data, t, by = self.data, move["type"], ctx.seat if isinstance(ctx, Ctx) else None
        p = move.get("player")
        if t == "withdraw-loan":
            del s["loan_choices"][str(p)]
        elif t == "choose-loan":
            s["loan_choices"][str(p)] = move["amount"]
            if len(s["loan_choices"]) == len(s["players"]):
                E.reveal_loans(data, s, by)
        elif t == "correction":
            E.entry(s, p, move["yen"], move.get("coupons", 0), f"correction: {move['note'].strip()}", by,
                    "corrections")
        elif t == "golden-rule-penalty":
            h = next(h for h in s["hotels"] if h["id"] == move["hotel"])
            owner = s["lands"][h["land"]]["owner"]
            phases = s["incomes_done"] - h["built_after_incomes"]
            due = data.income.golden_rule_penalty * h["capsules"] * phases
            pay = max(0, min(due, s["players"][owner]["yen"])) if owner is not None else 0
            h["withheld"] = True
            if owner is not None:
                E.entry(s, owner, -pay, 0, f"golden rule broken by hotel {h['id']}: penalty "
                        f"{E.yen(due)} ({count(h['capsules'], 'capsule')} x {count(phases, 'income phase')})"
                        + ("" if pay == due else f", paid all {E.yen(pay)}"), by, "penalties")
        elif t == "roll":
            s["rolls"][move["building"]] = move["face"]
            s["income"] = E.income_now(data, s)
        elif t == "pay-income":
            E.pay_income(data, s, by)
        elif t == "pass":
            b = E.in_barter(s, p)
            if b:
                s["barters"].remove(b)
            E.seal_to_front(s, p)
            s["players"][p]["seal"] = "pass"
            E.maybe_end_purchase(data, s)
        elif t == "leave-queue":
            E.seal_to_front(s, p)
        elif t == "join-queue":
            asked = E.in_barter(s, p)           # a proposal to p: joining the queue declines it
            if asked:
                s["barters"].remove(asked)
            s["queue"].append(p)
            s["players"][p]["seal"] = "queue"
            if asked:
                s["last"] = {"declined": asked["id"], "by": p}
        elif t == "start-count":
            s["count"] = {"by": p, "head": s["queue"][0],
                          "timer": clock.start(s["options"]["declare_seconds"] * 1000, ctx.now_ms)}
            s["count_expired"] = None
        elif t == "declare":
            s["declared"] = {"player": p, "item": move["item"]}
            s["count"] = None
        elif t == "purchase":
            _, plan = E.plan_purchase(data, s, move)
            E.apply_purchase(data, s, move, plan, by)
            E.after_purchase(data, s, p)
        elif t == "propose-barter":
            bid = f"X{s['next']['barter']}"
            s["next"]["barter"] += 1
            s["barters"].append({"id": bid, "from": p, "to": move["with"],
                                 "give": _clean_offer(move["give"]), "get": _clean_offer(move["get"])})
        elif t == "cancel-barter":
            s["barters"] = [b for b in s["barters"] if b["id"] != move["barter"]]
            E.maybe_end_purchase(data, s)
        elif t == "confirm-barter":
            b = next(b for b in s["barters"] if b["id"] == move["barter"])
            E.give(data, s, b["from"], b["to"], b["give"], by, b["id"])
            E.give(data, s, b["to"], b["from"], b["get"], by, b["id"])
            s["barters"].remove(b)
            s["last"] = {"barter": b}
            s.setdefault("barters_done", []).append({"round": s["round"], **b})
            E.maybe_end_purchase(data, s)
        return s

    # ---------------------------------------------------------------------- timers
    def timers(self, state):
        """The count while it runs; once it ran out, the expired record until the next count starts
        (or the purchase phase ends): API.md's "an expired timer stays expired"."""
        c = state.get("count") or state.get("count_expired")
        return {"count": c["timer"]} if c else {}

    def on_expire(self, state, name, ctx):
        c = state.get("count")
        if name != "count" or c is None or state["phase"] != "purchase":
            raise IllegalMove([f"no running timer {name!r}"])
        s = copy.deepcopy(state)
        head = c["head"]
        s["count"] = None
        if s["queue"] and s["queue"][0] == head:
            E.seal_to_front(s, head)
        s["last"] = {"count_expired": head, "by": c["by"]}
        s["count_expired"] = {**c, "timer": clock.expire(c["timer"])}
        return s

    def describe_expiry(self, before, name, after):
        """"se non dichiari un Acquisto prima che arrivi a 5, il giocatore che ha contato può rimuovere
        il tuo Sigillo … facendoti perdere l'azione di Acquisto": who lost the purchase, who removed
        the seal, and who is at the head now."""
        c = before.get("count") if isinstance(before, dict) else None
        if name != "count" or not c:
            return f"Time is up: {name}."
        head, by = E.name(before, c["head"]), E.name(before, c["by"])
        text = (f"Time! {head} declared no purchase: {by} takes {head}'s seal off the queue "
                f"({head} may join again at the back).")
        queue = after.get("queue") or []
        if after.get("phase") == "purchase":
            text += f" {E.name(after, queue[0])} is at the head now." if queue else " The queue is empty."
        return text

    def phase(self, state):
        """Round 1's loans, chosen at once until the reveal; the purchase queue of a round (every
        seat acts in real time until the income): their moves commute within the phase."""
        if state.get("phase") == "loans":
            return ["loans", state["round"]]
        if state.get("phase") == "purchase":
            return ["queue", state["round"]]
        return None

    # ---------------------------------------------------------------------- what the companion asks
    def actors(self, state):
        ph = state["phase"]
        n = len(state["players"])
        if ph == "over":
            return NOBODY
        if ph == "loans":
            return Actors("all", tuple(p for p in range(n) if str(p) not in state["loan_choices"]))
        if ph == "purchase":
            return Actors("all", tuple(p for p in range(n) if state["players"][p]["seal"] != "pass"))
        return Actors("all", tuple(range(n)))

    def legal_moves(self, state, player=None):
        if state["phase"] == "over":
            return Legal([])
        moves = _legal(self, state)
        if player is not None:
            moves = [m for m in moves if self.mover(m) == player]
        return Legal(moves, complete=False)

    def public_view(self, state, viewer=None):
        """The loan choices stay sealed until revealed (each player sees their own); no seed."""
        choices = {k: (v if viewer == HOST or str(viewer) == k else "sealed")
                   for k, v in state["loan_choices"].items()}
        return {**state, "loan_choices": choices, "seed": None}

    def public_move(self, move, viewer=None):
        if isinstance(move, dict) and move.get("type") == "choose-loan" and viewer != HOST \
                and viewer != move.get("player"):
            return {**move, "amount": "sealed"}
        return move

    def secret_paths(self, state, seat):
        return [("loan_choices", str(seat))] if str(seat) in state["loan_choices"] else []

    def describe(self, state, move):
        t = move.get("type")
        who = E.name(state, move.get("player"))
        if t == "choose-loan":
            return f"{who} chooses a loan (sealed)."
        if t == "withdraw-loan":
            return f"{who} takes back their sealed loan to choose again."
        if t == "purchase":
            return f"{who} purchases: {move.get('item')}" + "".join(
                f", {k} {move[k]}" for k in ("board", "colour", "count", "building", "land", "capsules", "coupons")
                if k in move) + "."
        if t == "propose-barter":
            return f"{who} proposes a barter to {E.name(state, move.get('with'))}."
        if t == "confirm-barter":
            return f"{who} confirms barter {move.get('barter')}."
        if t == "cancel-barter":
            return f"{who} abandons barter {move.get('barter')}."
        if t == "join-queue":
            asked = E.in_barter(state, move.get("player")) if E.is_int(move.get("player")) else None
            if asked and asked["to"] == move.get("player"):
                return (f"{who} joins the queue, declining barter {asked['id']} from "
                        f"{E.name(state, asked['from'])}.")
            return f"{who} joins the queue."
        if t == "start-count":
            seconds = (state.get("options") or {}).get("declare_seconds", self.data.purchase.declare_seconds)
            queue = state.get("queue") or []
            head = E.name(state, queue[0]) if queue else "the head of the queue"
            return f"{who} counts {count(seconds, 'second')} on {head}: declare a purchase before the end."
        if t == "declare":
            item = move.get("item")
            return f"{who} declares a purchase: {E.ITEM_WORDS.get(item, item) if isinstance(item, str) else item}."
        if t == "roll":
            return f"Bonus die of {move.get('building')}: face {move.get('face')}."
        if t == "pay-income":
            return f"Income of round {state['round']} paid."
        if t == "correction":
            return (f"Correction for {who}: {move.get('yen')} yen, {move.get('coupons', 0)} coupons "
                    f"({move.get('note')}).")
        if t == "golden-rule-penalty":
            return f"Golden rule broken by {move.get('hotel')}: penalty."
        return f"{who}: {self.move_type(t).label.lower() if self.move_type(t) else t}."

    def table_facts(self, state):
        return _at_table.table_facts(self.data, state)

    def setup_steps(self, state):
        return _at_table.setup_steps(self.data, state)

    def needs(self, state):
        """The phase, a prompt, the seats that may act and the move types of the phase (works on a
        public view)."""
        ph = state["phase"]
        players = list(self.actors(state).seats)
        if ph == "loans":
            return {"phase": "loans", "prompt": "Round 1: every player chooses a loan on their phone (secret).",
                    "players": players, "moves": ["choose-loan", "withdraw-loan"]}
        if ph == "purchase":
            head = state["queue"][0] if state["queue"] else None
            declared = state.get("declared")
            prompt = (f"Round {state['round']}: {E.name(state, head)} declares a purchase (head of the queue)."
                      if head is not None else f"Round {state['round']}: join the queue, barter or pass.")
            if declared and head is not None:
                prompt = (f"Round {state['round']}: {E.name(state, head)} completes the purchase of "
                          f"{E.ITEM_WORDS[declared['item']]}.")
            if state["limit_reached"]:
                prompt = f"Round {state['round']}: the purchase limit is reached; finish the open barters."
            return {"phase": "purchase", "prompt": prompt, "players": players, "head": head,
                    "moves": ["declare", "purchase", "start-count", "leave-queue", "join-queue", "pass",
                              "propose-barter", "confirm-barter", "cancel-barter", "correction",
                              "golden-rule-penalty"]}
        if ph == "income":
            return {"phase": "income", "prompt": f"Round {state['round']}: roll the bonus dice, then pay the income.",
                    "players": players, "moves": ["roll", "pay-income", "correction", "golden-rule-penalty"]}
        return None

    def result(self, state):
        if state["phase"] != "over":
            return None
        r = state["round"]
        rows = []
        for s, p in enumerate(state["players"]):
            loan = p["loan"] or 0
            it = ledger.interest(self.data, loan)
            f = p["flows"]
            parts = [("Loan received", f["loan"])]
            parts += [(f"Income round {i + 1}", v) for i, v in enumerate(p["income_by_round"])]
            parts += [("Purchases", f["purchases"]), ("Cemeteries bought", f["cemeteries"]),
                      ("Barter", f["barter"]), ("Golden rule penalties", f["penalties"]),
                      ("Corrections", f["corrections"]),
                      ("Loan repaid", -loan), (f"Interest ({r} rounds x {it:,})", -it * r)]
            rows.append(score_row(s, p["name"], parts, yen=p["yen"], debt=loan + it * r, loan=loan,
                                  coupons=p["coupons"]))
        return result(leaders(rows), "yen", rows)

    # ---------------------------------------------------------------------- helpers for web and tests
    def income_report(self, state):
        return E.income_now(self.data, state)

    def ledger_view(self, state, seat):
        """One player's ledger: yen, coupons, loan, interest, debt, and their entries."""
        p = state["players"][seat]
        loan = p["loan"]
        it = ledger.interest(self.data, loan) if loan else 0
        return {"seat": seat, "name": p["name"], "yen": p["yen"], "coupons": p["coupons"], "loan": loan,
                "interest": it, "round": state["round"],
                "debt": (loan + it * state["round"]) if loan else None,
                "net": (p["yen"] - loan - it * state["round"]) if loan else None,
                "capsules": p["capsules"], "seal": p["seal"],
                "lands": E.owned(state, seat),
                "entries": [e for e in state["entries"] if e["seat"] == seat]}


def _yen(n):
    return f"¥{n:,}"


def _loans_text(state):
    """"Aki ¥8,000 · Ben ¥6,000 · Chie ¥4,000": every loan, once revealed."""
    return " · ".join(f"{p['name']} {_yen(p['loan'])}" for p in state["players"])


def _clean_offer(o):
    out = {k: v for k, v in o.items() if v not in (0, "", [], {}, None)}
    if "promise" in out:
        out["promise"] = out["promise"].strip()
        if not out["promise"]:
            del out["promise"]
    return out


def _legal(rules, state):
    data, ph, n = rules.data, state["phase"], len(state["players"])
    moves = []
    if ph == "loans":
        for p in range(n):
            if str(p) not in state["loan_choices"]:
                moves += [{"type": "choose-loan", "player": p, "amount": a} for a in rules.loan_amounts]
            else:
                moves.append({"type": "withdraw-loan", "player": p})
        return moves
    if ph == "income":
        missing = [b for b in E.rolling_buildings(data, state) if b["id"] not in state["rolls"]]
        if missing:
            b = missing[0]
            return [{"type": "roll", "building": b["id"], "face": i}
                    for i in range(len(data.building[b["kind"]].faces))]
        return [{"type": "pay-income"}]
    for p in range(n):
        pl = state["players"][p]
        if pl["seal"] == "pass":
            continue
        moves.append({"type": "pass", "player": p})
        if p in state["queue"]:
            moves.append({"type": "leave-queue", "player": p})
        elif not state["limit_reached"] and not E.bartering(state, p):
            moves.append({"type": "join-queue", "player": p})
    if state["queue"]:
        head = state["queue"][0]
        if state["count"] is None:
            moves.append({"type": "start-count", "player": (head + 1) % n, "head": head})
        samples = _purchase_samples(rules, state, head)
        if not state.get("declared"):
            moves += [{"type": "declare", "player": head, "item": kind}
                      for kind in dict.fromkeys(m["item"] for m in samples)]
        moves += samples
    for b in state["barters"]:
        moves.append({"type": "confirm-barter", "player": b["to"], "barter": b["id"]})
        moves.append({"type": "cancel-barter", "player": b["from"], "barter": b["id"]})
    if not state["limit_reached"]:
        free = [p for p in range(n) if state["players"][p]["seal"] == "front" and not E.in_barter(state, p)]
        for a in free:
            for b in free:
                if a == b:
                    continue
                pa, pb = state["players"][a], state["players"][b]
                if pa["yen"] >= 500 and pb["coupons"]:
                    moves.append({"type": "propose-barter", "player": a, "with": b,
                                  "give": {"yen": 500}, "get": {"coupons": 1}})
                if pa["capsules"] and pb["yen"] >= 1000:
                    c = sorted(pa["capsules"])[0]
                    moves.append({"type": "propose-barter", "player": a, "with": b,
                                  "give": {"capsules": {c: 1}}, "get": {"yen": 1000}})
                lands = E.owned(state, a)
                if lands and pb["yen"] >= 2000:
                    moves.append({"type": "propose-barter", "player": a, "with": b,
                                  "give": {"lands": [lands[-1]]}, "get": {"yen": 2000}})
                break
    return [m for m in moves if not rules.validate(state, m)]


def _purchase_samples(rules, state, p):
    data = rules.data
    pl = state["players"][p]
    lands = E.owned(state, p)
    lots = [lid for lid, ld in state["lands"].items() if ld["parent"] is None]
    cands = []
    for board in data.lot_boards:
        if lots:
            cands.append({"item": "lot", "board": board.id, "adjoins": [lots[-1]]})
    for c in data.capsules:
        left = state["supply"]["capsules"][c.id]
        if left:
            cands.append({"item": "capsules", "colour": c.id, **({"count": 1} if c.id == PINK else {})})
    for land in lands[-2:]:
        cands.append({"item": "vending-machine", "land": land})
        cands.append({"item": "cemetery", "land": land})
        for colour, have in sorted(pl["capsules"].items()):
            cands.append({"item": "entrance", "land": land, "colour": colour, "capsules": have})
        for b in data.buildings:
            extra = {}
            mode = state["options"].get("attraction_cards")
            if b.card and mode == "buyer-chooses" and b.card.id not in state["cards"]:
                extra["side"] = "AB"[(state["round"] + len(state["buildings"])) % 2]
            if any(e.effect == "hotel-on-building" for e in b.effects) and pl["capsules"]:
                colour = sorted(pl["capsules"])[0]
                extra.update(colour=colour, capsules=min(2, pl["capsules"][colour]))
            cands.append({"item": "building", "building": b.id, "land": land, **extra})
    out = []
    for c in cands:
        if state["options"].get("tallest_hotel") and c.get("capsules"):
            c["floors"] = 1
        m = {"type": "purchase", "player": p, **c}
        reasons, plan = E.plan_purchase(data, state, m)
        if reasons and "cannot afford" in reasons[0] and pl["coupons"]:
            price = plan.get("price", 0)
            m["coupons"] = min(pl["coupons"], max(price, 0) // data.money.coupon_value)
            reasons, _ = E.plan_purchase(data, state, m)
        if not reasons:
            out.append(m)
    return out


RULES = CapsuleHotelRules
