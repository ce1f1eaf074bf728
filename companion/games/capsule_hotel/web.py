"""Tokyo Capsule Hotel's web part: the live ledger and purchase queue (the board twin at
/t/<code>/board), the income calculator (page and API), the pages behind the printed QR codes
(player ledgers, round expenses board, franchise income board, attraction cards) and its part of
the OpenAPI document.

Routes: /capsule-hotel/income, POST /api/capsule-hotel/income (API.md); /q/capsule-hotel/ledger/<n>
(n = 1..5), /q/capsule-hotel/queue/round-expenses-board, /q/capsule-hotel/franchise/
franchise-income-board, /q/capsule-hotel/attraction/<card id>.
"""
from __future__ import annotations

from flask import render_template

from ...web import reading
from ...web.openapi import error_responses, ref
from ...web.game import Calculator, GameBlueprint, GameWeb, calculated
from .rules import income as _income
from .rules import ledger as _ledger

GAME = "capsule-hotel"
bp = GameBlueprint(GAME, __name__, "Tokyo Capsule Hotel")



def page_data(data) -> dict:
    """What the pages' scripts need from the canonical data."""
    return {
        "loans": [{"amount": o.amount, "coupons": o.coupons,
                   "interest": _ledger.interest(data, o.amount)} for o in data.loan.option],
        "lot_boards": [{"id": b.id, "name": b.name, "price": b.price} for b in data.lot_boards],
        "colours": [{"id": c.id, "name": c.name, "hex": c.hex, "pattern": c.pattern,
                     "price": None if c.id == "pink" else _ledger.capsule_price(data, c.id)}
                    for c in data.capsules],
        "buildings": [{"id": b.id, "name": b.name, "cost": b.cost, "card": b.card.id if b.card else None,
                       "laundry": any(e.effect == "hotel-on-building" for e in b.effects),
                       "faces": [{"yen": f.yen, "coupons": f.coupons, "no_cemetery": f.no_cemetery,
                                  "times": f.times} for f in b.faces]} for b in data.buildings],
        "prices": {"vending": data.purchase.vending_machine, "cemetery": data.purchase.cemetery,
                   "entrance": data.purchase.entrance, "pink_first": data.purchase.pink_first,
                   "pink_each": data.purchase.pink_each_further, "coupon": data.money.coupon_value},
        "thresholds": list(data.franchise.coupon_thresholds),
        "max_cemeteries": data.income.max_cemeteries_per_lot,
        "rounds": data.rounds.count,
        "interest_percent": data.loan.interest_percent,
        "penalty": data.income.golden_rule_penalty,
        "pink_tower_min": data.construction.pink_tower_min_floors,
    }


# -- the live ledger and purchase queue ------------------------------------------------------------

def board(game, table: dict):
    return bp.board_page("capsule-hotel/ledger.html", game, table, board=page_data(game.data))


# -- the income calculator ---------------------------------------------------------------------------

@bp.get("/capsule-hotel/income")
def income_page():
    game = bp.game(page=True, playable=False)
    return render_template("capsule-hotel/income.html", game=game, board=page_data(game.data))


@bp.post("/api/capsule-hotel/income")
def income_api():
    game = bp.game()
    body = reading.body()
    status, reasons, answer = _income.calculator(game.data, body)
    return calculated(reasons if status == 400 else [], reasons if status == 422 else [], answer,
                      "This map is not possible in Tokyo Capsule Hotel.")


# -- the pages behind the printed QR codes -------------------------------------------------------------

def _view(game, joined):
    if not joined:
        return None
    try:
        return game.rules.public_view(joined["state"], "host" if joined.get("host") else joined["me"])
    except Exception:  # noqa: BLE001 - a view is a help, never a reason to fail the page
        return None


def ledger_scan(game, item_id: str, joined: dict | None) -> dict | None:
    """A player ledger pad: /q/capsule-hotel/ledger/<n>, n = 1..5 (the seat n - 1)."""
    if not item_id.isdigit() or not 1 <= int(item_id) <= game.data.inventory.player_ledger_pads:
        return None
    seat = int(item_id) - 1
    state = _view(game, joined)
    view = None
    if state is not None and seat < len(state["players"]):
        try:
            view = game.rules.ledger_view(state, seat)
        except Exception:  # noqa: BLE001
            view = None
    return {"seat": seat, "number": int(item_id), "view": view, "board": page_data(game.data),
            "seat_missing": state is not None and seat >= len(state["players"])}


def queue_scan(game, item_id: str, joined: dict | None) -> dict | None:
    """The round expenses board: the purchase queue and limit."""
    if item_id != "round-expenses-board":
        return None
    state = _view(game, joined)
    seconds = game.data.purchase.declare_seconds
    if state is not None:           # the joined table's own count (the declare_seconds option)
        seconds = (state.get("options") or {}).get("declare_seconds", seconds)
    return {"state": state, "limits": dict(sorted(game.data.purchase_limit.by_players.items())),
            "seconds": seconds}


def franchise_scan(game, item_id: str, joined: dict | None) -> dict | None:
    """The franchise income board: each franchise's income now and the coupon thresholds."""
    if item_id != "franchise-income-board":
        return None
    state = _view(game, joined)
    table = None
    if state is not None:
        table = _income.franchise_table(game.data, state["lands"], state["hotels"])
    return {"franchises": table, "colours": game.data.capsules, "state": state,
            "thresholds": game.data.franchise.coupon_thresholds,
            "unit": game.data.income.franchise_per_unit}


def attraction_scan(game, item_id: str, joined: dict | None) -> dict | None:
    """An attraction card: its side A and B effects, and at a joined table the side in play."""
    building = next((b for b in game.data.buildings if b.card and b.card.id == item_id), None)
    if building is None:
        return None
    state = _view(game, joined)
    side, mode = None, None
    if state is not None:
        mode = state["options"].get("attraction_cards", "off")
        side = state["cards"].get(item_id) or ("B" if mode == "all-side-b" else None)
    return {"building": building, "card": building.card, "side": side, "mode": mode,
            "die": game.data.die[building.die]}


# -- OpenAPI ---------------------------------------------------------------------------------------


_INT = {"type": "integer"}
OPENAPI = {
    "schemas": {
        "CapsuleHotelIncomeRequest": {
            "type": "object", "required": ["lots"],
            "description": "A field missing where required or of another JSON type is a 400. Numbers the "
                           "game cannot show are a 422 with every reason: more lots than a map sheet "
                           "holds, a negative number, more than 5 cemeteries in a lot, a seat past the "
                           "last, a hotel without capsules, more capsules of a colour in hotels than are "
                           "in play (the box's less the one on the franchise income board), more hotels "
                           "than the entrances and Coin Laundries open, a face no bonus die has, more "
                           "faces than buildings of the box roll.",
            "properties": {
            "lots": {"type": "array", "items": {"type": "object", "properties": {
                "id": {"type": "string"},
                "cemeteries": dict(_INT, description="cemeteries in the lot, subdivisions included (0-5)"),
                "faces": {"type": "array", "description": "the bonus dice faces rolled this round for the "
                          "lot's buildings (side A), one per building", "items": {"type": "object", "properties": {
                              "yen": _INT, "no_cemetery": {"type": "boolean"}, "coupon": {"type": "boolean"},
                              "coupons": dict(_INT, description="the coupons the face shows (Tokyo Spike: 2); "
                                                                "\"coupon\": true alone means at least one")}}},
                "hotels": {"type": "array", "items": {"type": "object",
                                                      "required": ["id", "owner", "colour", "capsules"],
                                                      "properties": {
                    "id": {"type": "string"}, "owner": dict(_INT, description="the seat, 0-4"),
                    "colour": {"type": "string"},
                    "capsules": dict(_INT, description="1 or more")}}}}}}}},
        "CapsuleHotelIncomeResult": {"type": "object", "required": ["franchise", "hotels", "players"],
                                     "properties": {
            "franchise": {"type": "object", "additionalProperties": {"type": "integer"},
                          "description": "franchise income by colour"},
            "hotels": {"type": "array", "items": {"type": "object", "required": ["id", "income"],
                                                  "properties": {"id": {"type": "string"},
                                                                 "income": {"type": "integer"}}}},
            "lots": {"type": "array", "items": {"type": "object"}},
            "players": {"type": "array", "items": {"type": "object", "required": ["player", "income"],
                                                   "properties": {"player": {"type": "integer"},
                                                                  "income": {"type": "integer"}}}}}},
    },
    "paths": {
        "/api/capsule-hotel/income": {"post": {
            "operationId": "capsuleHotelIncome",
            "summary": "Tokyo Capsule Hotel income: each hotel's income (franchise + attraction − "
                       "cemetery deduction, never below 100 by it, capped at 1,000 per capsule) and each "
                       "player's total.", "tags": ["calculators"],
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": ref("CapsuleHotelIncomeRequest")}}},
            "responses": {"200": {"description": "Incomes per hotel and per player.",
                                  "content": {"application/json": {
                                      "schema": ref("CapsuleHotelIncomeResult")}}},
                          **error_responses(400, 404, 413, 415, 422)}}},
        "/capsule-hotel/income": {"get": {"summary": "Tokyo Capsule Hotel income calculator.",
                                          "tags": ["pages"],
                                          "responses": {"200": {"description": "HTML", "content": {
                                              "text/html": {"schema": {"type": "string"}}}}}}},
    },
}


WEB = GameWeb(
    blueprint=bp,
    board=board,
    calculators=(Calculator("capsule-hotel.income_page", "Income calculator"),),
    scan={"ledger": ledger_scan, "queue": queue_scan, "franchise": franchise_scan,
          "attraction": attraction_scan},
    openapi=OPENAPI,
    options_template="capsule-hotel/options.html",
)
