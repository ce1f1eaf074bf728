"""Tokyo Capsule Hotel's state and moves (see the package docstring for the state and the moves).

Every function is pure: `validate_*` return reasons, `apply_*` take a deep copy of the state made by
the caller and change it in place.
"""
from __future__ import annotations

import random
from typing import Any

from companion.games.words import count
from generator.canon.capsule_hotel import PINK, CapsuleHotel

from . import income as _income
from . import ledger

PHASES = ("loans", "purchase", "income", "over")
ITEMS = ("lot", "capsules", "vending-machine", "cemetery", "entrance", "building")
#: each kind of purchase as a history line names it ("Aki declares a purchase: a lot.")
ITEM_WORDS = {"lot": "a lot", "capsules": "capsules", "vending-machine": "a vending machine",
              "cemetery": "a cemetery", "entrance": "an entrance and a hotel", "building": "a building"}
FLOWS = ("loan", "income", "purchases", "cemeteries", "barter", "penalties", "corrections")
CARD_MODES = ("off", "buyer-chooses", "all-side-b")


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def yen(n: int) -> str:
    return f"{n:,} yen" if n >= 0 else f"−{-n:,} yen"


def name(state: dict, seat: Any) -> str:
    if is_int(seat) and 0 <= seat < len(state["players"]):
        return state["players"][seat]["name"]
    return "the table"


# ------------------------------------------------------------------------------------ set-up

def starting_lot_adjacency(data: CapsuleHotel) -> dict[int, list[int]]:
    """Which starting lots share part of a side (from their corners on the map sheet)."""
    side, corners = data.starting_lots.side, data.starting_lots.corners
    adj: dict[int, list[int]] = {i: [] for i in range(len(corners))}
    for i, (x, y) in enumerate(corners):
        for j, (u, v) in enumerate(corners):
            if i == j:
                continue
            touch_x = abs(x - u) == side and abs(y - v) < side
            touch_y = abs(y - v) == side and abs(x - u) < side
            if touch_x or touch_y:
                adj[i].append(j)
    return adj


def setup(data: CapsuleHotel, players: list[str], options: dict, seed: int) -> dict:
    n = len(players)
    rng = random.Random(f"{seed}:setup")
    order = list(range(n))
    rng.shuffle(order)
    lands: dict[str, dict] = {}
    per = data.setup.starting_lots_per_player
    adj = starting_lot_adjacency(data)
    claimed: dict[int, int] = {}
    k = 0
    for seat in order:
        for _ in range(per):
            if k < data.starting_lots.count:
                claimed[k] = seat
                k += 1
    for i, seat in claimed.items():
        lands[f"S{i + 1}"] = {"kind": "lot", "owner": seat, "parent": None, "start": True,
                              "board": "start", "vending": 0, "cemeteries": 0,
                              "adjoins": [f"S{j + 1}" for j in adj[i] if j in claimed]}
    state = {
        "game": "capsule-hotel", "seed": seed, "options": dict(options), "round": 1, "phase": "loans",
        "players": [{"name": p, "yen": 0, "coupons": 0, "loan": None, "capsules": {}, "seal": "front",
                     "flows": {f: 0 for f in FLOWS}, "income_by_round": [], "spent": []}
                    for p in players],
        "loan_choices": {}, "queue": [], "count": None, "declared": None, "count_expired": None,
        "expenses": 0,
        "limit": ledger.purchase_limit(data, n), "limit_reached": False, "passed_all": False,
        "barters": [], "lands": lands, "hotels": [], "buildings": [],
        "supply": {"capsules": {c.id: c.for_sale for c in data.capsules},
                   "entrances": data.inventory.entrances, "vending": data.inventory.vending_machines,
                   "buildings": {b.id: b.count for b in data.buildings}},
        "cards": {}, "rolls": {}, "income": None, "incomes_done": 0, "tallest": None,
        "entries": [], "next": {"lot": 1, "sub": 1, "hotel": 1, "building": 1, "barter": 1},
        "claim_order": order, "tie_orders": [], "ended": None, "loans_check": None, "last": None,
    }
    for seat in order:
        if seat not in claimed.values() and data.setup.no_starting_lot_coupons:
            entry(state, seat, 0, data.setup.no_starting_lot_coupons, "no starting lot left to claim",
                  None, "setup")
    mark_round(data, state, None)
    return state


def entry(state: dict, seat: int, yen_: int, coupons: int, why: str, by: Any, flow: str | None) -> None:
    """Book `yen_` and `coupons` to `seat` with who made the entry and why."""
    p = state["players"][seat]
    p["yen"] += yen_
    p["coupons"] += coupons
    if flow and yen_:
        p["flows"][flow] += yen_
    state["entries"].append({"n": len(state["entries"]) + 1, "round": state["round"],
                             "phase": state["phase"], "seat": seat, "yen": yen_, "coupons": coupons,
                             "balance": p["yen"], "why": why, "by": by})


def mark_round(data: CapsuleHotel, state: dict, by: Any) -> None:
    """Phase 1: tick the round; a round showing the coupon symbol gives each player coupons."""
    if state["round"] in data.rounds.coupon_rounds:
        for seat in range(len(state["players"])):
            entry(state, seat, 0, data.rounds.coupons_per_coupon_round,
                  f"round {state['round']}: coupon on the round track", by, None)


def debt(data: CapsuleHotel, p: dict, round_: int) -> int:
    return ledger.debt(data, p["loan"] or 0, round_)


# ------------------------------------------------------------------------------------ phases

def start_purchase(data: CapsuleHotel, state: dict) -> None:
    """Every seal enters the queue by yen (fewest first); ties: a random first player among the
    tied, then clockwise (seat order) from them."""
    n = len(state["players"])
    rng = random.Random(f"{state['seed']}:{state['round']}:ties")
    groups: dict[int, list[int]] = {}
    for s, p in enumerate(state["players"]):
        groups.setdefault(p["yen"], []).append(s)
    queue, ties = [], []
    for amount in sorted(groups):
        g = groups[amount]
        if len(g) > 1:
            first = rng.choice(g)
            g = sorted(g, key=lambda s: (s - first) % n)
            ties.append({"yen": amount, "first": first, "order": g})
        queue += g
    for p in state["players"]:
        p["seal"] = "queue"
    state.update(phase="purchase", queue=queue, count=None, declared=None, count_expired=None, expenses=0,
                 limit_reached=False, barters=[], rolls={}, income=None)
    state["tie_orders"].append({"round": state["round"], "ties": ties})


def maybe_end_purchase(data: CapsuleHotel, state: dict) -> None:
    everyone_passed = all(p["seal"] == "pass" for p in state["players"])
    if everyone_passed or (state["limit_reached"] and not state["barters"]):
        state["passed_all"] = everyone_passed
        start_income(data, state)


def rolling_buildings(data: CapsuleHotel, state: dict) -> list[dict]:
    return [b for b in state["buildings"] if _income.rolls_die(data, b["kind"], b.get("side"))]


def start_income(data: CapsuleHotel, state: dict) -> None:
    for p in state["players"]:
        if p["seal"] != "pass":
            p["seal"] = "front"
    state.update(phase="income", queue=[], count=None, declared=None, count_expired=None, barters=[],
                 rolls={})
    if state["options"].get("dice") == "companion":
        for b in rolling_buildings(data, state):
            faces = data.building[b["kind"]].rolled_faces
            rng = random.Random(f"{state['seed']}:{state['round']}:{b['id']}")
            face = faces[rng.randrange(len(faces))]
            state["rolls"][b["id"]] = data.building[b["kind"]].faces.index(face)
    state["income"] = income_now(data, state)


def income_now(data: CapsuleHotel, state: dict) -> dict:
    return _income.compute(data, state["lands"], state["hotels"], state["buildings"], state["rolls"])


def pay_income(data: CapsuleHotel, state: dict, by: Any) -> None:
    res = income_now(data, state)
    r = state["round"]
    for lot in res["lots"]:
        for h in lot["hotels"]:
            if h["owner"] is not None and (h["income"] or h["withheld"]):
                why = (f"income of hotel {h['id']} ({data.capsule[h['colour']].name}, "
                       f"{h['capsules']} capsules) in lot {lot['lot']}")
                if h["withheld"]:
                    why += ": none, the golden rule is broken there"
                entry(state, h["owner"], h["income"], 0, why, by, "income")
    for c in res["coupon_parts"]:
        entry(state, c["owner"], 0, c["coupons"], c["why"], by, None)
    for s, p in enumerate(state["players"]):
        p["income_by_round"].append(res["by_owner"].get(str(s), 0))
    state["income"] = res
    state["incomes_done"] += 1
    if r >= data.rounds.count:
        state["phase"] = "over"
        state["ended"] = {"round": r, "why": f"the end of round {r}"}
        return
    state["round"] = r + 1
    state["phase"] = "loans"
    mark_round(data, state, by)
    loans_check(data, state)


def loans_check(data: CapsuleHotel, state: dict) -> None:
    """Phase 2 from round 2: "verificate la fine della partita". Nobody chooses here (the loan is
    taken once, in round 1; the FAQ: from then on the loans phase only checks the end): every
    player's yen (coupons never count) against their total debt with this round's interest; if one
    or more can repay it in full, the game ends at once. The check is kept in `loans_check` (each
    player's yen and debt) so that every phone shows why the game went on or ended."""
    r = state["round"]
    if r >= data.rounds.end_check_from:
        rows = [{"seat": s, "yen": p["yen"], "debt": debt(data, p, r), "can_repay": p["yen"] >= debt(data, p, r)}
                for s, p in enumerate(state["players"])]
        can = [row["seat"] for row in rows if row["can_repay"]]
        state["loans_check"] = {"round": r, "players": rows, "can_repay": can}
        if can:
            state["phase"] = "over"
            state["ended"] = {"round": r, "why": f"loans phase of round {r}: " + ", ".join(
                f"{name(state, row['seat'])} can repay ({yen(row['yen'])} against a debt of {yen(row['debt'])})"
                for row in rows if row["can_repay"]), "can_repay": can}
            return
    start_purchase(data, state)


def reveal_loans(data: CapsuleHotel, state: dict, by: Any) -> None:
    options = {o.amount: o for o in data.loan.option}
    for s, p in enumerate(state["players"]):
        amount = state["loan_choices"][str(s)]
        p["loan"] = amount
        entry(state, s, amount, options[amount].coupons, f"starting loan of {yen(amount)}", by, "loan")
    state["loan_choices"] = {}
    start_purchase(data, state)


# ------------------------------------------------------------------------------------ map look-ups

def owned(state: dict, seat: int) -> list[str]:
    return [lid for lid, ld in state["lands"].items() if ld["owner"] == seat]


def hotels_on(state: dict, land: str) -> list[dict]:
    return [h for h in state["hotels"] if h["land"] == land]


def lot_cemeteries(state: dict, lot: str) -> int:
    return sum(ld["cemeteries"] for lid, ld in state["lands"].items()
               if _income.root(state["lands"], lid) == lot)


def golden_waived(data: CapsuleHotel, state: dict, land: str) -> bool:
    lot = _income.root(state["lands"], land)
    return any(any(e.effect == "waive-golden-rule" for e in _income.side_effects(data, b["kind"], b.get("side")))
               for b in state["buildings"] if _income.root(state["lands"], b["land"]) == lot)


def golden_room(data: CapsuleHotel, state: dict, land: str, extra: int = 1) -> bool:
    """The golden rule with `extra` more hotels on `land`: hotels <= vending machines + cemeteries."""
    ld = state["lands"][land]
    return golden_waived(data, state, land) or \
        len(hotels_on(state, land)) + extra <= ld["vending"] + ld["cemeteries"]


def golden_kept(data: CapsuleHotel, state: dict, hotel: dict) -> str:
    """How `hotel` keeps the golden rule in the companion's record ("" if it breaks it): its land
    area's hotels against its vending machines and cemeteries, or a building waiving the rule."""
    land = hotel["land"]
    if golden_waived(data, state, land):
        return f"a building on its lot waives the golden rule for {land}"
    ld = state["lands"][land]
    hotels = len(hotels_on(state, land))
    if hotels <= ld["vending"] + ld["cemeteries"]:
        return (f"{count(hotels, 'hotel')} on {land}, {count(ld['vending'], 'vending machine')} and "
                f"{count(ld['cemeteries'], 'cemetery', 'cemeteries')}")
    return ""


def card_side(data: CapsuleHotel, state: dict, kind: str, asked: Any) -> tuple[list[str], str | None]:
    """The attraction card side a newly bought building uses, or reasons."""
    mode = state["options"].get("attraction_cards", "off")
    b = data.building[kind]
    if b.card is None or mode == "off":
        if asked is not None:
            return [f"{b.name} takes no side" + ("" if b.card else ": it has no attraction card")
                    + (" (attraction cards are not in play)" if mode == "off" and b.card else "")], None
        return [], None
    if mode == "all-side-b":
        if asked not in (None, "B"):
            return ["every attraction card shows side B at this table"], None
        return [], "B"
    taken = state["cards"].get(b.card.id)
    if taken:
        if asked not in (None, taken):
            return [f"the {b.name} attraction card already shows side {taken}"], None
        return [], taken
    if asked not in ("A", "B"):
        return [f"choose side A or B of the {b.name} attraction card"], None
    return [], asked


# ------------------------------------------------------------------------------------ purchases

def allowed_floors(data: CapsuleHotel, colour: str, capsules: int, on_laundry: bool) -> list[int]:
    """The heights a hotel of `capsules` capsules may have. "non puoi costruire più piani di quante
    Capsule abbia il tuo Hotel al piano più basso": f floors need f capsules on the ground floor and
    one at least on each of the f - 1 above, so f <= (capsules + 1) // 2. Pink's exception: "purché
    siano costruiti in un'unica pila alta almeno 4 piani", one capsule per floor, so a single stack
    of 4 or more is exactly as tall as its capsules ("un'unica pila rosa di 4 o più piani"): 5 pink
    capsules stand 1 to 3 floors high, or 5, never 4. On a Coin Laundry ("la Coin Laundry stessa
    funge da piano terra") the capsules may all be stacked: 1 to capsules."""
    if on_laundry:
        return list(range(1, capsules + 1))
    heights = list(range(1, (capsules + 1) // 2 + 1))
    if colour == PINK and capsules >= data.construction.pink_tower_min_floors:
        heights.append(capsules)
    return heights


def floors_words(heights: list[int]) -> str:
    """"1 to 3, or 5" (the heights allowed, in words)."""
    run = heights
    tail = []
    while len(run) > 1 and run[-1] != run[-2] + 1:
        tail.insert(0, run[-1])
        run = run[:-1]
    text = f"1 to {run[-1]}" if len(run) > 1 else str(run[0])
    return text + "".join(f", or {t}" for t in tail)


def plan_purchase(data: CapsuleHotel, state: dict, move: dict) -> tuple[list[str], dict]:
    """Reasons the purchase is refused, or its plan {price, item, ...}."""
    p_i = move["player"]
    p = state["players"][p_i]
    item = move.get("item")
    plan: dict = {"item": item}
    if item not in ITEMS:
        return [f"item must be one of {', '.join(ITEMS)}"], plan
    land = move.get("land")
    need_land = item in ("vending-machine", "cemetery", "entrance", "building")
    if need_land:
        if not isinstance(land, str) or land not in state["lands"]:
            return ["land must be a land area of the map (a lot or subdivision id)"], plan
        if state["lands"][land]["owner"] != p_i:
            return [f"{p['name']} does not own {land}: a purchase is placed on your own land"], plan
    if item == "lot":
        board = move.get("board")
        if not isinstance(board, str) or board not in data.lot_board:
            return [f"board must be one of {', '.join(data.lot_board)}"], plan
        adj = move.get("adjoins")
        lots = [lid for lid, ld in state["lands"].items() if ld["parent"] is None]
        if not isinstance(adj, list) or not adj or not all(isinstance(a, str) and a in lots for a in adj) \
                or len(set(adj)) != len(adj):
            return ["adjoins: the lots the new lot shares part of a side with (at least one, "
                    "of " + ", ".join(lots) + ")"], plan
        plan.update(price=data.lot_board[board].price, board=board, adjoins=list(adj))
    elif item == "capsules":
        colour = move.get("colour")
        if not isinstance(colour, str) or colour not in data.capsule:
            return [f"colour must be one of {', '.join(data.capsule)}"], plan
        left = state["supply"]["capsules"][colour]
        if colour == PINK:
            n = move.get("count")
            if not is_int(n) or not 1 <= n <= left:
                return [f"count: 1 to {left} pink capsules" if left else "no pink capsules left"], plan
            plan.update(price=ledger.pink_capsule_cost(data, n), colour=colour, count=n)
        else:
            if "count" in move and move["count"] != left:
                return [f"a purchase of {data.capsule[colour].name} capsules takes all of them ({left})"], plan
            if not left:
                return [f"the {data.capsule[colour].name} capsules are sold"], plan
            plan.update(price=ledger.capsule_price(data, colour), colour=colour, count=left)
    elif item == "vending-machine":
        if state["supply"]["vending"] <= 0:
            return ["no vending machines left"], plan
        plan.update(price=data.purchase.vending_machine, land=land)
    elif item == "cemetery":
        lot = _income.root(state["lands"], land)
        if lot_cemeteries(state, lot) >= data.income.max_cemeteries_per_lot:
            return [f"lot {lot} holds {data.income.max_cemeteries_per_lot} cemeteries already"], plan
        plan.update(price=data.purchase.cemetery, land=land)
    elif item in ("entrance", "building"):
        kind = None
        if item == "building":
            kind = move.get("building")
            if not isinstance(kind, str) or kind not in data.building:
                return [f"building must be one of {', '.join(data.building)}"], plan
            if state["supply"]["buildings"][kind] <= 0:
                return [f"no {data.building[kind].name} left"], plan
            reasons, side = card_side(data, state, kind, move.get("side"))
            if reasons:
                return reasons, plan
            plan.update(price=data.building[kind].cost, building=kind, side=side, land=land)
        else:
            if state["supply"]["entrances"] <= 0:
                return ["no entrances left"], plan
            plan.update(price=data.purchase.entrance, land=land)
        laundry = next((e.max_capsules for e in (data.building[kind].effects if kind else ())
                        if e.effect == "hotel-on-building"), None)
        caps = move.get("capsules", 0 if kind else None)
        colour = move.get("colour")
        if item == "building" and laundry is None:
            if "capsules" in move or "colour" in move or "floors" in move:
                return [f"a {data.building[kind].name} holds no hotel"], plan
        else:
            low = 0 if item == "building" else 1
            top = laundry if item == "building" else 10 ** 6
            if not is_int(caps) or not low <= caps <= top:
                return [f"capsules: {low} to {top if item == 'building' else 'your'} capsules of one colour"
                        + (" on the Coin Laundry" if item == "building" else " for the hotel")], plan
            if caps:
                if not isinstance(colour, str) or colour not in data.capsule:
                    return [f"colour must be one of {', '.join(data.capsule)}"], plan
                have = p["capsules"].get(colour, 0)
                if have < caps:
                    return [f"{p['name']} has {have} {data.capsule[colour].name} capsules, not {caps}"], plan
                if not golden_room(data, state, land):
                    ld = state["lands"][land]
                    extras = count(ld["vending"] + ld["cemeteries"], "vending machine or cemetery",
                                   "vending machines and cemeteries")
                    return [f"golden rule of hotel placement: {land} has "
                            f"{count(len(hotels_on(state, land)), 'hotel')} and {extras}; buy one more first"], plan
                floors = move.get("floors")
                heights = allowed_floors(data, colour, caps, item == "building")
                if floors is not None or state["options"].get("tallest_hotel"):
                    if not is_int(floors) or floors not in heights:
                        why = (" (on the Coin Laundry)" if item == "building" else
                               f" ({caps} {data.capsule[colour].name.lower()} capsules: no more floors than "
                               "capsules on the ground floor" + (", or a single pink stack as tall as its "
                                                                  "capsules" if len(heights) > 1
                                                                  and heights[-1] == caps else "") + ")")
                        return [f"floors: {floors_words(heights)}{why}"
                                + (" - the tallest hotel variant needs the height"
                                   if floors is None else "")], plan
                plan.update(hotel={"colour": colour, "capsules": caps, "floors": floors})
            elif "colour" in move or move.get("floors") is not None:
                return ["no capsules: leave out colour and floors"], plan
    price = plan["price"]
    coupons = move.get("coupons", 0)
    if not is_int(coupons) or coupons < 0:
        return ["coupons: how many coupons pay part of the price (0 or more)"], plan
    value = data.money.coupon_value
    if coupons > p["coupons"]:
        return [f"{p['name']} has {p['coupons']} coupons, not {coupons}"], plan
    if coupons * value > max(price, 0):
        return [f"{coupons} coupons are worth {yen(coupons * value)}, more than the price "
                f"{yen(price)}"], plan
    pay = price - coupons * value
    if pay > p["yen"]:
        return [f"{p['name']} cannot afford {yen(price)}: {yen(p['yen'])} and "
                f"{p['coupons']} coupons"], plan
    plan.update(coupons=coupons, pay_yen=pay)
    return [], plan


def apply_purchase(data: CapsuleHotel, state: dict, move: dict, plan: dict, by: Any) -> None:
    p_i = move["player"]
    p = state["players"][p_i]
    item, price = plan["item"], plan["price"]
    r = state["round"]
    nxt = state["next"]
    what = ""
    if item == "lot":
        lid = f"L{nxt['lot']}"
        nxt["lot"] += 1
        state["lands"][lid] = {"kind": "lot", "owner": p_i, "parent": None, "start": False,
                               "board": plan["board"], "vending": 0, "cemeteries": 0,
                               "adjoins": plan["adjoins"]}
        what = f"lot {lid} ({data.lot_board[plan['board']].name})"
    elif item == "capsules":
        c = plan["colour"]
        state["supply"]["capsules"][c] -= plan["count"]
        p["capsules"][c] = p["capsules"].get(c, 0) + plan["count"]
        what = f"{plan['count']} {data.capsule[c].name} capsules"
    elif item == "vending-machine":
        state["supply"]["vending"] -= 1
        state["lands"][plan["land"]]["vending"] += 1
        what = f"a vending machine on {plan['land']}"
    elif item == "cemetery":
        state["lands"][plan["land"]]["cemeteries"] += 1
        what = f"a cemetery on {plan['land']}"
    else:
        bid = None
        if item == "building":
            kind = plan["building"]
            state["supply"]["buildings"][kind] -= 1
            bid = f"B{nxt['building']}"
            nxt["building"] += 1
            state["buildings"].append({"id": bid, "kind": kind, "land": plan["land"], "side": plan["side"],
                                       "round": r})
            b = data.building[kind]
            if plan["side"] and b.card and b.card.id not in state["cards"]:
                state["cards"][b.card.id] = plan["side"]
            bname = b.name
            if plan["side"] == "B" and b.card:
                bname = next((e.name for e in b.card.side_b if e.effect == "rename"), b.name)
            what = f"{bname} {bid} on {plan['land']}" + (f" (side {plan['side']})" if plan["side"] else "")
        else:
            state["supply"]["entrances"] -= 1
            what = f"an entrance on {plan['land']}"
    spent = max(price, 0)
    pay = plan["pay_yen"]
    flow = "cemeteries" if price < 0 else "purchases"
    entry(state, p_i, -pay, -plan["coupons"], f"purchase: {what}" + (
        f" ({yen(price)}: {count(plan['coupons'], 'coupon')} + {yen(pay)})" if plan["coupons"] else ""), by, flow)
    p["spent"].append({"round": r, "item": item, "price": price, "coupons": plan["coupons"], "what": what})
    if item == "building":
        for e in _income.side_effects(data, plan["building"], plan["side"]) if plan["side"] == "B" else ():
            if e.effect == "gain-coupons" and e.when == "purchase":
                entry(state, p_i, 0, e.amount, f"{data.building[plan['building']].name} side B: "
                      f"{count(e.amount, 'coupon')} once", by, None)
    if item in ("vending-machine", "cemetery"):
        # a discovered golden-rule breach on this land is mended by the next support bought there
        for h in hotels_on(state, plan["land"]):
            if h.get("withheld"):
                h["withheld"] = False
                break
    if plan.get("hotel"):
        build_hotel(data, state, p_i, plan, bid if item == "building" else None, by)
    state["expenses"] += spent
    if state["expenses"] >= state["limit"]:
        state["limit_reached"] = True
    state["last"] = {"purchase": what, "player": p_i, "price": price}


def build_hotel(data: CapsuleHotel, state: dict, p_i: int, plan: dict, on: str | None, by: Any) -> None:
    h = plan["hotel"]
    colour = h["colour"]
    before = _income.franchise_income_of(data, state["lands"], state["hotels"], colour)
    hid = f"H{state['next']['hotel']}"
    state["next"]["hotel"] += 1
    state["players"][p_i]["capsules"][colour] -= h["capsules"]
    if not state["players"][p_i]["capsules"][colour]:
        del state["players"][p_i]["capsules"][colour]
    first = not state["hotels"]
    state["hotels"].append({"id": hid, "land": plan["land"], "colour": colour, "capsules": h["capsules"],
                            "floors": h["floors"], "on": on or "entrance", "round": state["round"],
                            "built_after_incomes": state["incomes_done"], "withheld": False})
    after = _income.franchise_income_of(data, state["lands"], state["hotels"], colour)
    gained = ledger.franchise_coupons(data, before, after)
    if gained:
        owners = sorted({state["lands"][x["land"]]["owner"] for x in state["hotels"] if x["colour"] == colour}
                        - {None})
        for o in owners:
            entry(state, o, 0, gained, f"the {data.capsule[colour].name} franchise reached "
                  f"{yen(after)} of franchise income", by, None)
    if state["options"].get("tallest_hotel") and h["floors"]:
        tallest = state["tallest"]
        if first:
            state["tallest"] = {"hotel": hid, "floors": h["floors"], "seat": p_i}
        elif tallest is None or h["floors"] > tallest["floors"]:
            state["tallest"] = {"hotel": hid, "floors": h["floors"], "seat": p_i}
            entry(state, p_i, 0, data.variants.tallest_hotel_coupons,
                  f"tallest hotel variant: {hid} is the tallest ({h['floors']} floors)", by, None)


def seal_to_front(state: dict, seat: int) -> None:
    if seat in state["queue"]:
        head = state["queue"][0] == seat
        state["queue"].remove(seat)
        if head:
            state["count"] = None
            state["declared"] = None
    state["players"][seat]["seal"] = "front"


def after_purchase(data: CapsuleHotel, state: dict, seat: int) -> None:
    seal_to_front(state, seat)
    state["count"] = None
    state["declared"] = None
    if state["limit_reached"]:
        for s in list(state["queue"]):
            seal_to_front(state, s)
        state["queue"] = []
    maybe_end_purchase(data, state)


# ------------------------------------------------------------------------------------ barter

OFFER_KEYS = ("yen", "coupons", "capsules", "lands", "subdivision", "promise")


def in_barter(state: dict, seat: int) -> dict | None:
    """The open barter `seat` is party to (proposing it, or asked to confirm it), if any."""
    return next((b for b in state["barters"] if seat in (b["from"], b["to"])), None)


def bartering(state: dict, seat: int) -> dict | None:
    """The open barter `seat` proposed. "puoi rimettere il tuo Sigillo in fondo alla coda, purché in
    quel momento tu non stia Barattando": the player who proposed is bartering; one who merely
    receives a proposal is not (a rival cannot hold them out of the queue by proposing), and
    joining the queue declines it (a barter needs both seals in front of their players)."""
    return next((b for b in state["barters"] if b["from"] == seat), None)


def check_offer(data: CapsuleHotel, state: dict, seat: int, offer: Any, label: str) -> list[str]:
    """Reasons `seat` cannot give `offer` now."""
    if not isinstance(offer, dict):
        return [f"{label} must be an object with yen, coupons, capsules, lands, subdivision, promise"]
    bad = sorted(set(offer) - set(OFFER_KEYS), key=str)
    if bad:
        return [f"{label}: unknown key {bad[0]!r} (keys: {', '.join(OFFER_KEYS)})"]
    p = state["players"][seat]
    for key, have in (("yen", p["yen"]), ("coupons", p["coupons"])):
        v = offer.get(key, 0)
        if not is_int(v) or v < 0:
            return [f"{label}.{key} must be a whole number, 0 or more"]
        if v > have:
            return [f"{label}: {p['name']} has {have} {key}, not {v}"]
    caps = offer.get("capsules", {})
    if not isinstance(caps, dict):
        return [f"{label}.capsules must be {{colour: count}}"]
    for c, n in caps.items():
        if c not in data.capsule or not is_int(n) or n < 1:
            return [f"{label}.capsules: {c!r}: a colour and a count of 1 or more"]
        if p["capsules"].get(c, 0) < n:
            return [f"{label}: {p['name']} has {p['capsules'].get(c, 0)} {data.capsule[c].name} capsules"]
    lands = offer.get("lands", [])
    if not isinstance(lands, list) or len(set(map(str, lands))) != len(lands):
        return [f"{label}.lands must be a list of land ids"]
    for lid in lands:
        if not isinstance(lid, str) or lid not in state["lands"] or state["lands"][lid]["owner"] != seat:
            return [f"{label}: {p['name']} does not own land {lid!r}"]
    sub = offer.get("subdivision")
    if sub is not None:
        reasons = check_subdivision(data, state, seat, sub, label)
        if reasons:
            return reasons
        if sub["of"] in lands:
            return [f"{label}: {sub['of']} is given whole and subdivided at once"]
    promise = offer.get("promise", "")
    if not isinstance(promise, str) or len(promise) > 500:
        return [f"{label}.promise must be a note of up to 500 characters"]
    if not (offer.get("yen", 0) or offer.get("coupons", 0) or caps or lands or sub is not None
            or promise.strip()):
        return [f"{label}: each side of a barter must offer something (a promise counts)"]
    return []


def check_subdivision(data: CapsuleHotel, state: dict, seat: int, sub: Any, label: str) -> list[str]:
    if not isinstance(sub, dict) or set(sub) - {"of", "hotels", "buildings", "vending", "cemeteries"}:
        return [f"{label}.subdivision: {{of, hotels, buildings, vending, cemeteries}}"]
    of = sub.get("of")
    if not isinstance(of, str) or of not in state["lands"] or state["lands"][of]["owner"] != seat:
        return [f"{label}.subdivision.of: land {of!r} is not {name(state, seat)}'s to subdivide"]
    land = state["lands"][of]
    hotels, blds = sub.get("hotels", []), sub.get("buildings", [])
    if not isinstance(hotels, list) or not isinstance(blds, list):
        return [f"{label}.subdivision: hotels and buildings are lists of ids"]
    on_h = {h["id"] for h in hotels_on(state, of)}
    on_b = {b["id"] for b in state["buildings"] if b["land"] == of}
    if not all(isinstance(h, str) and h in on_h for h in hotels) or len(set(hotels)) != len(hotels):
        return [f"{label}.subdivision.hotels: hotels standing on {of}"]
    if not all(isinstance(b, str) and b in on_b for b in blds) or len(set(blds)) != len(blds):
        return [f"{label}.subdivision.buildings: buildings standing on {of}"]
    for key in ("vending", "cemeteries"):
        v = sub.get(key, 0)
        if not is_int(v) or not 0 <= v <= land[key]:
            return [f"{label}.subdivision.{key}: 0 to {land[key]} (those on {of})"]
    if not golden_waived(data, state, of):
        inside = len(hotels) <= sub.get("vending", 0) + sub.get("cemeteries", 0)
        rest = len(on_h) - len(hotels) <= land["vending"] - sub.get("vending", 0) + \
            land["cemeteries"] - sub.get("cemeteries", 0)
        if not (inside and rest):
            return [f"{label}.subdivision: the golden rule must hold in the subdivision and in what "
                    f"is left of {of}"]
    return []


def give(data: CapsuleHotel, state: dict, src: int, dst: int, offer: dict, by: Any, bid: str) -> None:
    a, b = state["players"][src], state["players"][dst]
    y, c = offer.get("yen", 0), offer.get("coupons", 0)
    if y or c:
        entry(state, src, -y, -c, f"barter {bid}: to {b['name']}", by, "barter")
        entry(state, dst, y, c, f"barter {bid}: from {a['name']}", by, "barter")
    for col, n in offer.get("capsules", {}).items():
        a["capsules"][col] -= n
        if not a["capsules"][col]:
            del a["capsules"][col]
        b["capsules"][col] = b["capsules"].get(col, 0) + n
    for lid in offer.get("lands", []):
        state["lands"][lid]["owner"] = dst
    sub = offer.get("subdivision")
    if sub is not None:
        sid = f"D{state['next']['sub']}"
        state["next"]["sub"] += 1
        of = state["lands"][sub["of"]]
        state["lands"][sid] = {"kind": "sub", "owner": dst, "parent": sub["of"], "start": False,
                               "board": None, "vending": sub.get("vending", 0),
                               "cemeteries": sub.get("cemeteries", 0), "adjoins": []}
        of["vending"] -= sub.get("vending", 0)
        of["cemeteries"] -= sub.get("cemeteries", 0)
        for h in state["hotels"]:
            if h["id"] in sub.get("hotels", []):
                h["land"] = sid
        for bl in state["buildings"]:
            if bl["id"] in sub.get("buildings", []):
                bl["land"] = sid
