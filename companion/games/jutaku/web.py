"""Tokyo Jutaku's web part: the live table page (the 6 x 6 map, the round clock, "stop!", confirm /
reject, movement; Countdown's floor clock; Izakaya's sealed bids and actions), the two calculators
(pages and API.md's POST /api/jutaku/score and /api/jutaku/izakaya), the pages behind the printed
site cards' and reference cards' QR codes, its part of the OpenAPI document.

Routes: /jutaku/score, /jutaku/izakaya, POST /api/jutaku/score, POST /api/jutaku/izakaya; the live
page is served at the generic /t/<code>/board through `WEB.board`.
"""
from __future__ import annotations

from flask import abort, jsonify, render_template

from generator import symbols

from ... import codes, jsonapi
from ...errors import ApiError
from ...openapi import error_responses
from ...services import services
from ...webgame import Calculator, GameWeb, blueprint

GAME = "jutaku"
bp = blueprint(GAME, __name__)
REFERENCES = {"jutaku": "Tokyo Jutaku", "countdown": "Countdown", "bottle-bonus": "Bottle Bonus",
              "izakaya": "Izakaya"}


def _game():
    game = services().games.get(GAME)
    if game is None or game.data is None or not game.playable:
        raise ApiError(404, "Tokyo Jutaku is not available in this companion.")
    return game


def _page_game():
    game = services().games.get(GAME)
    if game is None or game.data is None or not game.playable:
        abort(404)
    return game


# -- the live page ---------------------------------------------------------------------------------

def board_data(data) -> dict:
    """What the live page draws, from the canonical data: the map, the cards' two faces, the
    architects' and drinks' colours, the Izakaya stock."""
    labels = {c.id: c.label for c in data.components() if c.kind == "site-card"}
    return {
        "size": list(data.map.size), "centre": [list(p) for p in data.map.centre],
        "sites": {s.id: {"label": labels[s.id], "district": s.district, "pos": list(s.position),
                         "white": {"req": s.white.requirement, "yen": s.white.yen, "plan": list(s.white.plan)},
                         "blue": {"req": s.blue.requirement, "yen": s.blue.yen, "plan": list(s.blue.plan)}}
                  for s in data.sites},
        "districts": {d.id: {"name": d.name, "kanji": d.kanji, "hex": d.hex} for d in data.districts},
        "architects": {a.id: {"name": a.name, "hex": a.hex, "number": a.number} for a in data.architects},
        "drinks": {d.id: {"name": d.name, "hex": d.hex, "text": d.text, "when": d.when} for d in data.drinks},
        "metro": {c.id: {"name": c.name, "hex": c.hex, "symbol": getattr(c, "symbol", None),
                         # the printed symbol's outline in a unit circle (None: a circle), as the kit draws it
                         "shape": symbols.unit(c.symbol) if getattr(c, "symbol", None) else None}
                  for c in data.izakaya.metro.colour},
        "coin": data.izakaya.coin,
    }


def board(game, table: dict):
    return render_template("jutaku/board.html", table=table, game=game,
                           code_display=codes.display(table["code"]), board=board_data(game.data))


# -- calculators -----------------------------------------------------------------------------------

@bp.get("/jutaku/score")
def score_page():
    game = _page_game()
    data = game.data
    return render_template("jutaku/score.html", game=game, board=board_data(data),
                           districts=data.districts, sites_in=data.sites_in)


@bp.get("/jutaku/izakaya")
def izakaya_page():
    game = _page_game()
    iz = game.data.izakaya
    return render_template("jutaku/izakaya.html", game=game, drinks=game.data.drinks,
                           prices=iz.start_price, example=iz.example, coin=iz.coin,
                           example_sum=sum(iz.example.values[d] for d in iz.example.drinks))


@bp.post("/api/jutaku/score")
def score_api():
    game = _game()
    body = jsonapi.body()
    sites = body.get("sites")
    if not isinstance(sites, list) or any(not isinstance(s, str) for s in sites):
        raise ApiError(400, "sites must be a list of site card ids, e.g. [\"meguro-1\"].")
    reasons, total, rows = game.rules.site_value(sites)
    if reasons:
        raise ApiError(422, "These are not completed site cards of Tokyo Jutaku.", reasons)
    return jsonify({"yen": total, "sites": rows})


def izakaya_request(game, body: dict) -> tuple[dict, list[dict]]:
    """Reads and checks the Izakaya calculator's body: (prices, buildings); 400 for wrong types,
    422 for what cannot occur in the game."""
    data = game.data
    iz, colours = data.izakaya, list(data.drink)
    raw = jsonapi.obj(body.get("prices", {}), "prices")
    buildings = body.get("buildings")
    if not isinstance(buildings, list):
        raise ApiError(400, "buildings must be a list of {\"floors\": n, \"drinks\": [colour, ...]}.")
    reasons = []
    all_coins = sum(iz.start_prices)
    prices = dict(iz.start_price)
    for colour, value in raw.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise ApiError(400, f"prices.{colour} must be a whole number of yen.")
        if colour not in colours:
            reasons.append(f"{colour!r} is not a drink colour ({', '.join(colours)})")
        elif value < 0 or value % iz.coin or value > all_coins:
            reasons.append(f"{colour}: {value} yen is not a price the stock cards can show (0 to "
                           f"{all_coins:,} in {iz.coin}-yen coins)")
        else:
            prices[colour] = value
    out = []
    for i, b in enumerate(buildings):
        b = jsonapi.obj(b, f"buildings[{i}]")
        floors = jsonapi.integer(b, "floors", maximum=10_000)
        drinks = b.get("drinks", [])
        if not isinstance(drinks, list) or any(not isinstance(d, str) for d in drinks):
            raise ApiError(400, f"buildings[{i}].drinks must be a list of drink colours.")
        if floors > data.contents.pieces:
            reasons.append(f"buildings[{i}]: {floors} floors need more than the {data.contents.pieces} pieces")
        if len(drinks) > 4:
            reasons.append(f"buildings[{i}]: a site card has 4 corners, so at most 4 drinks touch it")
        bad = [d for d in drinks if d not in colours]
        if bad:
            reasons.append(f"buildings[{i}]: {bad[0]!r} is not a drink colour ({', '.join(colours)})")
        out.append({"floors": floors, "drinks": drinks})
    if sum(prices[c] for c in colours) > all_coins:
        reasons.append(f"the stock cards hold {all_coins:,} yen in all (coins only move between them); "
                       f"these prices add up to {sum(prices[c] for c in colours):,}")
    if reasons:
        raise ApiError(422, "These buildings or prices cannot occur in Izakaya.", reasons)
    return prices, out


@bp.post("/api/jutaku/izakaya")
def izakaya_api():
    game = _game()
    prices, buildings = izakaya_request(game, jsonapi.body())
    pays = game.rules.izakaya_pay(prices, buildings)
    return jsonify({"yen": sum(pays), "buildings": [{"yen": p} for p in pays]})


# -- the pages behind the printed QR codes -----------------------------------------------------------

def site_card(game, site_id: str, joined: dict | None) -> dict | None:
    """A site card: both faces' requirements explained and, at a joined table, where it is now."""
    data = game.data
    site = data.site.get(site_id)
    if site is None:
        return None
    component = next(c for c in data.components() if c.kind == "site-card" and c.id == site_id)
    where = None
    if joined:
        try:
            where = site_status(game, joined["state"], site_id)
        except Exception:  # noqa: BLE001 - a help, never a reason to fail the page
            where = None
    faces = []
    for name in ("white", "blue"):
        face = site.side(name)
        faces.append({"side": name, "requirement": face.requirement, "height": face.height,
                      "pieces": face.pieces, "yen": face.yen, "borders": len(face.borders),
                      "plan": face.plan, "source": face.source})
    return {"component": component, "site": site, "district": data.district[site.district], "faces": faces,
            "where": where, "header_rows": data.card.header_rows}


def site_status(game, state: dict, site_id: str) -> str:
    """Where a site card is at a table, in a sentence."""
    mode = state.get("mode")
    if mode == "jutaku":
        for pl in state["players"]:
            if pl["site"] == site_id:
                return f"{pl['name']} is building on it ({pl['side']} side)."
            for k in pl["kept"]:
                if k["site"] == site_id:
                    return f"{pl['name']} completed it for ¥{k['yen']:,}."
        return "It is on the map, free."
    if mode == "izakaya":
        for k, s in state.get("cards", {}).items():
            if s == site_id:
                owner = state["owners"].get(k)
                return ("It is in the grid, claimed by " + state["players"][owner]["name"] + "."
                        if owner is not None else "It is in the grid, unclaimed.")
        return "It is not in this table's grid."
    return "Countdown uses the card's whole surface: any card will do."


def reference(game, ref_id: str, joined: dict | None) -> dict | None:
    if ref_id not in REFERENCES:
        return None
    data = game.data

    class Ref:   # what scan/component.html shows
        label = f"Reference card: {REFERENCES[ref_id]}"
        count = 1
        source = "rules"
    return {"component": Ref, "ref": ref_id, "data": data,
            "seconds": list(data.countdown.floor_seconds) + [data.countdown.further_floor_seconds]}


# -- OpenAPI ---------------------------------------------------------------------------------------

def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _page(summary: str) -> dict:
    return {"get": {"summary": summary, "tags": ["pages"], "responses": {"200": {
        "description": "HTML", "content": {"text/html": {"schema": {"type": "string"}}}}}}}


OPENAPI = {
    "schemas": {
        "JutakuScoreRequest": {"type": "object", "required": ["sites"], "properties": {
            "sites": {"type": "array", "items": {"type": "string"},
                      "description": "Completed site card ids (\"meguro-1\"); \"<id>:blue\" for a card "
                                     "built on its blue side (white by default). Each card once."}}},
        "JutakuScoreResult": {"type": "object", "required": ["yen", "sites"], "properties": {
            "yen": {"type": "integer"},
            "sites": {"type": "array", "items": {"type": "object", "properties": {
                "site": {"type": "string"}, "side": {"type": "string"}, "requirement": {"type": "string"},
                "yen": {"type": "integer"}}}}}},
        "JutakuIzakayaRequest": {"type": "object", "required": ["buildings"], "properties": {
            "prices": {"type": "object", "additionalProperties": {"type": "integer"},
                       "description": "Drink colour -> market price in yen (colours left out: their "
                                      "starting price). The six prices add up to the coins there are."},
            "buildings": {"type": "array", "items": {"type": "object", "required": ["floors"], "properties": {
                "floors": {"type": "integer", "minimum": 0},
                "drinks": {"type": "array", "items": {"type": "string"}, "maxItems": 4,
                           "description": "the drinks on the card's corners"}}}}}},
        "JutakuIzakayaResult": {"type": "object", "required": ["yen", "buildings"], "properties": {
            "yen": {"type": "integer"},
            "buildings": {"type": "array", "items": {"type": "object", "required": ["yen"],
                                                     "properties": {"yen": {"type": "integer"}}}}}},
    },
    "paths": {
        "/api/jutaku/score": {"post": {
            "operationId": "jutakuScore", "summary": "Tokyo Jutaku: the yen of completed site cards.",
            "tags": ["calculators"],
            "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("JutakuScoreRequest")}}},
            "responses": {"200": {"description": "Total yen and each card.", "content": {
                "application/json": {"schema": _ref("JutakuScoreResult")}}},
                **error_responses(400, 404, 413, 415, 422)}}},
        "/api/jutaku/izakaya": {"post": {
            "operationId": "jutakuIzakaya",
            "summary": "Izakaya scoring: each building pays its floors x the prices of the drinks touching its card.",
            "tags": ["calculators"],
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": _ref("JutakuIzakayaRequest")}}},
            "responses": {"200": {"description": "Total yen and each building's payment.", "content": {
                "application/json": {"schema": _ref("JutakuIzakayaResult")}}},
                **error_responses(400, 404, 413, 415, 422)}}},
        "/jutaku/score": _page("Tokyo Jutaku site card calculator."),
        "/jutaku/izakaya": _page("Izakaya scoring calculator."),
    },
}


WEB = GameWeb(
    blueprint=bp,
    board=board,
    calculators=(Calculator("jutaku.score_page", "Site card yen calculator"),
                 Calculator("jutaku.izakaya_page", "Izakaya scoring calculator")),
    scan={"site-card": site_card, "reference": reference},
    openapi=OPENAPI,
    options_template="jutaku/options.html",
)
