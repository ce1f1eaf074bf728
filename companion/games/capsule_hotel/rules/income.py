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
    "withheld"}]}], "franchises": {...}, "by_owner": {"seat": yen}, "coupons": {"seat": n} (seats as strings: plain JSON),
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
        near = {l for l in lots if l != park_lot and (
            l in lands[park_lot].get("adjoins", ()) or park_lot in lands[l].get("adjoins", ()))}
        if as_one and any(lands[l].get("start") for l in near):
            near |= {l for l in lots if lands[l].get("start") and l != park_lot}
        for l in sorted(near):
            attraction[l] += amount
            parts[l].append({"building": None, "name": "Park (side B): adjacent lot", "yen": amount,
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
                amount = ledger.hotel_income(data, fr, attraction[lid], min(cem[lid], data.income.max_cemeteries_per_lot),
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
