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

FACE_KEYS = ("yen", "no_cemetery", "coupon", "coupons")


def _face_words(f: dict) -> str:
    parts = [f"{f['yen']:,} yen"] if f["yen"] else []
    if f["coupons"] is None:
        parts += ["a coupon"] if f["coupon"] else []
    elif f["coupons"]:
        parts.append(f"{f['coupons']} coupon" + ("s" if f["coupons"] > 1 else ""))
    if f["no_cemetery"]:
        parts.append("no cemetery")
    return " + ".join(parts) or "a blank face"


def _fits(f: dict, face) -> bool:
    """A face as sent ({yen, no_cemetery, coupon | coupons}) is this face of a bonus die."""
    if f["yen"] != face.yen or f["no_cemetery"] != face.no_cemetery:
        return False
    if f["coupons"] is not None:
        return f["coupons"] == face.coupons
    return f["coupon"] == (face.coupons > 0)


def _buildings_for(data: CapsuleHotel, faces: list[dict]) -> bool:
    """Whether each face rolled can come from a different building of the box (a building rolls its
    die once per Income phase): a matching of faces to the box's buildings (augmenting paths)."""
    kinds = [b for b in data.buildings for _ in range(b.count)]
    can = [[i for i, b in enumerate(kinds) if any(_fits(f, face) for face in b.faces)] for f in faces]
    held: dict[int, int] = {}

    def place(j: int, seen: set) -> bool:
        for i in can[j]:
            if i not in seen:
                seen.add(i)
                if i not in held or place(held[i], seen):
                    held[i] = j
                    return True
        return False

    return all(place(j, set()) for j in range(len(faces)))


def calculator(data: CapsuleHotel, body) -> tuple[int, list[str], dict | None]:
    """POST /api/capsule-hotel/income (API.md): (status, reasons, answer). 400 = malformed (a field
    missing or of the wrong JSON type); 422 = numbers that cannot occur in the game, with every
    reason. The limits come from the data: the lots a map sheet holds, the cemeteries a lot holds,
    the seats, the capsules of each colour in play (the box's less the one on the franchise income
    board), the hotels the entrances and Coin Laundries open, the faces of the bonus dice and one
    roll per building of the box. Each lot's faces are the bonus dice rolled for its buildings."""
    def bad(msg):
        return 400, [msg], None

    if not isinstance(body, dict) or not isinstance(body.get("lots"), list):
        return bad("send {\"lots\": [{\"id\", \"cemeteries\", \"faces\": [...], \"hotels\": [...]}, ...]}")
    lots = body["lots"]
    if len(lots) > data.most_lots:
        return 422, [f"{len(lots)} lots; a map sheet holds at most {data.most_lots} (its "
                     f"{data.starting_lots.count} starting lots and as many lots as the smallest lot "
                     "board outlines in the rest of it)"], None
    lands, hotels, faces_of, seen_lots, seen_hotels, reasons = {}, [], {}, set(), set(), []
    all_faces: list[dict] = []
    most_cem = data.income.max_cemeteries_per_lot
    seats = data.players[1]
    rolls = sum(b.count for b in data.buildings)
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
        if not _is_int(cem):
            return bad(f"{where}.cemeteries must be a whole number")
        if not 0 <= cem <= most_cem:
            reasons.append(f"{lid}: {cem} cemeteries; a lot holds 0 to {most_cem}")
        faces = lot.get("faces", [])
        if not isinstance(faces, list):
            return bad(f"{where}.faces must be a list of faces")
        parsed = []
        for j, f in enumerate(faces):
            fw = f"{where}.faces[{j}]"
            if not isinstance(f, dict) or set(f) - set(FACE_KEYS):
                return bad(f"{fw} must be {{yen, no_cemetery, coupon}} (or coupons: n)")
            y = f.get("yen", 0)
            if not _is_int(y):
                return bad(f"{fw}.yen must be a whole number")
            for k in ("no_cemetery", "coupon"):
                if not isinstance(f.get(k, False), bool):
                    return bad(f"{fw}.{k} must be true or false")
            n = f.get("coupons")
            if n is not None and not _is_int(n):
                return bad(f"{fw}.coupons must be a whole number")
            face = {"yen": y, "no_cemetery": f.get("no_cemetery", False), "coupon": f.get("coupon", False),
                    "coupons": n, "where": f"{lid}: face {j + 1}"}
            if n is not None and "coupon" in f and f["coupon"] != (n > 0):
                reasons.append(f"{lid}: face {j + 1} says coupon {str(f['coupon']).lower()} and coupons {n}")
            elif not any(_fits(face, d) for b in data.buildings for d in b.faces):
                reasons.append(f"{lid}: face {j + 1} ({_face_words(face)}) is on no bonus die")
            else:
                all_faces.append(face)
            parsed.append(face)
        faces_of[lid] = parsed
        hs = lot.get("hotels", [])
        if not isinstance(hs, list):
            return bad(f"{where}.hotels must be a list of hotels")
        lands[lid] = {"kind": "lot", "owner": None, "parent": None, "vending": 0,
                      "cemeteries": min(max(cem, 0), most_cem)}
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
            if not _is_int(owner):
                return bad(f"{hw}.owner must be a seat number")
            if not isinstance(colour, str):
                return bad(f"{hw}.colour must be a capsule colour ({', '.join(data.capsule)})")
            if not _is_int(caps):
                return bad(f"{hw}.capsules must be a whole number")
            if not 0 <= owner < seats:
                reasons.append(f"{hid}: seat {owner}; the game has seats 0-{seats - 1}")
            if colour not in data.capsule:
                reasons.append(f"{hid}: {colour!r} is not a capsule colour ({', '.join(data.capsule)})")
                continue
            if caps < 1:
                reasons.append(f"{hid}: {caps} capsules; a hotel has 1 capsule at least")
                continue
            hotels.append({"id": hid, "land": lid, "colour": colour, "capsules": caps, "owner": owner})
    total = sum(len(hs.get("hotels", [])) for hs in lots)
    if total > data.most_hotels:
        reasons.append(f"{total} hotels; the box opens at most {data.most_hotels} (one per entrance and one "
                       "on each Coin Laundry)")
    for c in data.capsules:
        used = sum(h["capsules"] for h in hotels if h["colour"] == c.id)
        if used > c.for_sale:
            reasons.append(f"{used} {c.name.lower()} capsules in hotels; {c.for_sale} are in play ({c.count} in "
                           "the box, one of them on the franchise income board)")
    if len(all_faces) > rolls:
        reasons.append(f"{len(all_faces)} bonus dice faces; the box has {rolls} buildings, each rolling its bonus "
                       "die once in the Income phase")
    elif all_faces and not _buildings_for(data, all_faces):
        reasons.append("these faces need more buildings of a kind than the box has (" + ", ".join(
            f"{b.count} {b.name}" for b in data.buildings) + "), each rolling its bonus die once")
    if reasons:
        return 422, reasons, None
    franchises = franchise_table(data, lands, hotels)
    out_hotels, players, out_lots = [], {}, []
    for lid in lands:
        fs = faces_of[lid]
        attraction = sum(f["yen"] for f in fs)
        no_cem = any(f["no_cemetery"] for f in fs)
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
                         "coupons": sum(f["coupons"] if f["coupons"] is not None else int(f["coupon"])
                                        for f in fs)})
    return 200, [], {"franchise": {c: f["income"] for c, f in franchises.items()},
                     "hotels": out_hotels, "lots": out_lots,
                     "players": [{"player": p, "income": v} for p, v in sorted(players.items())]}


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)
