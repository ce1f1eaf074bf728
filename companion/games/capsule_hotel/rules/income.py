"""Tokyo Capsule Hotel's Income phase, pure: attraction income per lot, then each hotel's income.

`compute(data, tables, rolls, side_of)` works on a plain description of the map (what income needs,
never geometry), so the same function pays the Income phase of a table and answers the calculator
POST /api/capsule-hotel/income:

    lands     {land id: {"kind": "lot"|"sub", "owner": seat|None, "parent": id|None, "start": bool,
                         "vending": n, "cemeteries": n, "adjoins": [lot ids]}}
    hotels    [{"id", "land", "colour", "capsules", "withheld": bool}]
    buildings [{"id", "kind" (building id), "land", "side": "A"|"B"|None}]
    rolls     {building instance id: face index (into the building's `faces`)} for the dice rolled

Per hotel: franchise income (100 x (hotels of its colour on the map + lots holding one)) + its lot's
attraction income - the cemetery deduction (100 per cemetery in the lot, none after a no-cemetery
face or with a Sweets Buffet on side B), never below 100 by the deduction, then capped at
1,000 x its capsules (ledger.hotel_income). Coupons: each coupon face to the building's owner.
"""
from __future__ import annotations

from generator.canon.capsule_hotel import CapsuleHotel

from . import ledger


def root(lands: dict, land: str) -> str:
    seen = 0
    while lands[land].get("parent") is not None and seen < 1000:
        land = lands[land]["parent"]
        seen += 1
    return land


def side_effects(data: CapsuleHotel, kind: str, side: str | None) -> tuple:
    """The effects a building applies in the Income phase: side B's effects when its card shows B."""
    b = data.building[kind]
    if side == "B" and b.card is not None:
        return b.card.side_b
    return b.effects


def rolls_die(data: CapsuleHotel, kind: str, side: str | None) -> bool:
    return any(e.effect == "roll-bonus-die" for e in side_effects(data, kind, side))


def franchise_table(data: CapsuleHotel, lands: dict, hotels: list) -> dict[str, dict]:
    """{colour: {"hotels", "lots", "income"}} for every colour with a hotel on the map."""
    out: dict[str, dict] = {}
    for h in hotels:
        f = out.setdefault(h["colour"], {"hotels": 0, "lots": set()})
        f["hotels"] += 1
        f["lots"].add(root(lands, h["land"]))
    return {c: {"hotels": f["hotels"], "lots": len(f["lots"]),
                "income": ledger.franchise_income(data, f["hotels"], len(f["lots"]))}
            for c, f in sorted(out.items())}


def franchise_income_of(data: CapsuleHotel, lands: dict, hotels: list, colour: str) -> int:
    f = franchise_table(data, lands, hotels).get(colour)
    return f["income"] if f else 0


def compute(data: CapsuleHotel, lands: dict, hotels: list, buildings: list, rolls: dict) -> dict:
    """{"lots": [{"lot", "owner", "attraction", "attraction_parts", "cemeteries", "deduction",
    "no_cemetery", "hotels": [{"id", "owner", "colour", "capsules", "franchise", "income",
    "withheld"}]}], "franchises": {...}, "by_owner": {"seat": yen}, "coupons": {"seat": n}
    (seats as strings: plain JSON),
    "coupon_parts": [...]}"""
    franchises = franchise_table(data, lands, hotels)
    lots = [lid for lid, land in lands.items() if land.get("parent") is None]
    attraction = {lid: 0 for lid in lots}
    parts: dict[str, list] = {lid: [] for lid in lots}
    no_cem = {lid: False for lid in lots}
    coupons: dict[int, int] = {}
    coupon_parts: list = []
    park_lots: list[str] = []
    for b in buildings:
        lot = root(lands, b["land"])
        kind, side = b["kind"], b.get("side")
        effects = side_effects(data, kind, side)
        name = data.building[kind].name
        owner = lands[b["land"]].get("owner")
        for e in effects:
            if e.effect == "attraction-income":
                attraction[lot] += e.amount
                parts[lot].append({"building": b["id"], "name": name, "yen": e.amount, "fixed": True})
            elif e.effect == "ignore-cemetery-deduction":
                no_cem[lot] = True
            elif e.effect == "adjacent-lots-attraction-income":
                park_lots.append((lot, e.amount, e.starting_lots_as_one))
            elif e.effect == "roll-bonus-die":
                face_i = rolls.get(b["id"])
                if face_i is None:
                    continue
                face = data.building[kind].faces[face_i]
                attraction[lot] += face.yen
                parts[lot].append({"building": b["id"], "name": name, "yen": face.yen, "face": face_i,
                                   "coupons": face.coupons, "no_cemetery": face.no_cemetery})
                if face.no_cemetery:
                    no_cem[lot] = True
                if face.coupons and owner is not None:
                    coupons[str(owner)] = coupons.get(str(owner), 0) + face.coupons
                    coupon_parts.append({"owner": owner, "coupons": face.coupons, "building": b["id"],
                                         "why": f"{name}: coupon face"})
    for park_lot, amount, as_one in park_lots:
        near = {ld for ld in lots if ld != park_lot and (
            ld in lands[park_lot].get("adjoins", ()) or park_lot in lands[ld].get("adjoins", ()))}
        if as_one and any(lands[ld].get("start") for ld in near):
            near |= {ld for ld in lots if lands[ld].get("start") and ld != park_lot}
        for ld in sorted(near):
            attraction[ld] += amount
            parts[ld].append({"building": None, "name": "Park (side B): adjacent lot", "yen": amount,
                             "fixed": True})
    cem = {lid: 0 for lid in lots}
    for lid, land in lands.items():
        cem[root(lands, lid)] += land.get("cemeteries", 0)
    by_owner: dict[int, int] = {}
    out_lots = []
    for lid in lots:
        rows = []
        for h in hotels:
            if root(lands, h["land"]) != lid:
                continue
            owner = lands[h["land"]].get("owner")
            fr = franchises[h["colour"]]["income"]
            if h.get("withheld"):
                amount = 0
            else:
                amount = ledger.hotel_income(data, fr, attraction[lid],
                                             min(cem[lid], data.income.max_cemeteries_per_lot),
                                             h["capsules"], no_cemetery=no_cem[lid])
            rows.append({"id": h["id"], "owner": owner, "colour": h["colour"], "capsules": h["capsules"],
                         "land": h["land"], "franchise": fr, "income": amount,
                         "withheld": bool(h.get("withheld"))})
            if owner is not None:
                by_owner[str(owner)] = by_owner.get(str(owner), 0) + amount
        deduction = 0 if no_cem[lid] else ledger.cemetery_deduction(
            data, min(cem[lid], data.income.max_cemeteries_per_lot))
        out_lots.append({"lot": lid, "owner": lands[lid].get("owner"), "attraction": attraction[lid],
                         "attraction_parts": parts[lid], "cemeteries": cem[lid], "deduction": deduction,
                         "no_cemetery": no_cem[lid], "hotels": rows})
    return {"lots": out_lots, "franchises": franchises, "by_owner": by_owner, "coupons": coupons,
            "coupon_parts": coupon_parts}


# ------------------------------------------------------------------------------ the calculator

MAX_LOTS, MAX_FACES, MAX_HOTELS, MAX_YEN = 60, 12, 200, 100_000


def calculator(data: CapsuleHotel, body) -> tuple[int, list[str], dict | None]:
    """POST /api/capsule-hotel/income (API.md): (status, reasons, answer). 400 = malformed,
    422 = not possible in the game; each lot's faces are the bonus dice rolled for its buildings."""
    def bad(msg):
        return 400, [msg], None

    if not isinstance(body, dict) or not isinstance(body.get("lots"), list):
        return bad("send {\"lots\": [{\"id\", \"cemeteries\", \"faces\": [...], \"hotels\": [...]}, ...]}")
    lots = body["lots"]
    if len(lots) > MAX_LOTS:
        return 422, [f"at most {MAX_LOTS} lots"], None
    lands, hotels, faces_of, seen_lots, seen_hotels, reasons = {}, [], {}, set(), set(), []
    most_cem = data.income.max_cemeteries_per_lot
    for i, lot in enumerate(lots):
        where = f"lots[{i}]"
        if not isinstance(lot, dict):
            return bad(f"{where} must be an object")
        lid = lot.get("id", f"lot {i + 1}")
        if not isinstance(lid, str) or not lid or len(lid) > 40:
            return bad(f"{where}.id must be a short text")
        if lid in seen_lots:
            return bad(f"{where}.id {lid!r} is used twice")
        seen_lots.add(lid)
        cem = lot.get("cemeteries", 0)
        if not _is_int(cem) or cem < 0:
            return bad(f"{where}.cemeteries must be a whole number, 0 or more")
        if cem > most_cem:
            reasons.append(f"{lid}: {cem} cemeteries; a lot holds at most {most_cem}")
        faces = lot.get("faces", [])
        if not isinstance(faces, list) or len(faces) > MAX_FACES:
            return bad(f"{where}.faces must be a list of up to {MAX_FACES} faces")
        parsed = []
        for j, f in enumerate(faces):
            if not isinstance(f, dict) or set(f) - {"yen", "no_cemetery", "coupon", "coupons"}:
                return bad(f"{where}.faces[{j}] must be {{yen, no_cemetery, coupon}}")
            y = f.get("yen", 0)
            if not _is_int(y) or not 0 <= y <= MAX_YEN:
                return bad(f"{where}.faces[{j}].yen must be a whole number 0-{MAX_YEN}")
            for k in ("no_cemetery", "coupon"):
                if not isinstance(f.get(k, False), bool):
                    return bad(f"{where}.faces[{j}].{k} must be true or false")
            parsed.append(f)
        faces_of[lid] = parsed
        hs = lot.get("hotels", [])
        if not isinstance(hs, list) or len(hs) > MAX_HOTELS:
            return bad(f"{where}.hotels must be a list of hotels")
        lands[lid] = {"kind": "lot", "owner": None, "parent": None, "vending": 0, "cemeteries": min(cem, most_cem)}
        for j, h in enumerate(hs):
            hw = f"{where}.hotels[{j}]"
            if not isinstance(h, dict):
                return bad(f"{hw} must be an object")
            hid, owner, colour, caps = h.get("id"), h.get("owner"), h.get("colour"), h.get("capsules")
            if not isinstance(hid, str) or not hid or len(hid) > 40:
                return bad(f"{hw}.id must be a short text")
            if hid in seen_hotels:
                return bad(f"{hw}.id {hid!r} is used twice")
            seen_hotels.add(hid)
            if not _is_int(owner) or owner < 0:
                return bad(f"{hw}.owner must be a seat number (0 or more)")
            if not isinstance(colour, str) or colour not in data.capsule:
                return bad(f"{hw}.colour must be one of {', '.join(data.capsule)}")
            if not _is_int(caps) or caps < 1:
                return bad(f"{hw}.capsules must be a whole number, 1 or more")
            if owner >= data.players[1]:
                reasons.append(f"{hid}: seat {owner}; the game has seats 0-{data.players[1] - 1}")
            if caps > data.capsule[colour].count:
                reasons.append(f"{hid}: {caps} {data.capsule[colour].name} capsules; the game has "
                               f"{data.capsule[colour].count}")
            hotels.append({"id": hid, "land": lid, "colour": colour, "capsules": caps, "owner": owner})
    if reasons:
        return 422, reasons, None
    franchises = franchise_table(data, lands, hotels)
    out_hotels, players, out_lots = [], {}, []
    for lid in lands:
        fs = faces_of[lid]
        attraction = sum(f.get("yen", 0) for f in fs)
        no_cem = any(f.get("no_cemetery") for f in fs)
        cem = lands[lid]["cemeteries"]
        deduction = 0 if no_cem else ledger.cemetery_deduction(data, cem)
        for h in hotels:
            if h["land"] != lid:
                continue
            fr = franchises[h["colour"]]["income"]
            amount = ledger.hotel_income(data, fr, attraction, cem, h["capsules"], no_cemetery=no_cem)
            out_hotels.append({"id": h["id"], "lot": lid, "owner": h["owner"], "colour": h["colour"],
                               "franchise": fr, "attraction": attraction, "deduction": deduction,
                               "income": amount, "capped": amount == data.income.capsule_cap * h["capsules"]
                               and fr + attraction - deduction > amount})
            players[h["owner"]] = players.get(h["owner"], 0) + amount
        out_lots.append({"id": lid, "attraction": attraction, "deduction": deduction, "no_cemetery": no_cem,
                         "coupons": sum(1 for f in fs if f.get("coupon"))})
    return 200, [], {"franchise": {c: f["income"] for c, f in franchises.items()},
                     "hotels": out_hotels, "lots": out_lots,
                     "players": [{"player": p, "income": v} for p, v in sorted(players.items())]}


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)
