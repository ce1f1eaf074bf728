"""Tokyo Jutaku's web part: the live table page (the 6 x 6 map, the round clock, "stop!", confirm /
reject, movement; Countdown's floor clock; Izakaya's sealed bids and actions), the two calculators
(pages and API.md's POST /api/jutaku/score and /api/jutaku/izakaya), the pages behind the printed
site cards' and reference cards' QR codes, its part of the OpenAPI document.

Routes: /jutaku/score, /jutaku/izakaya, POST /api/jutaku/score, POST /api/jutaku/izakaya; the live
page is served at the generic /t/<code>/board through `WEB.board`.
"""
from __future__ import annotations

from flask import jsonify, render_template

from generator import symbols

from ...web import reading
from ...errors import ApiError
from ...web.openapi import error_responses, ref
from ...web.game import Calculator, GameBlueprint, GameWeb

GAME = "jutaku"
bp = GameBlueprint(GAME, __name__, "Tokyo Jutaku")
REFERENCES = {"jutaku": "Tokyo Jutaku", "countdown": "Countdown", "bottle-bonus": "Bottle Bonus",
              "izakaya": "Izakaya"}




# -- the live page ---------------------------------------------------------------------------------

def board_data(data, side: str | None = None) -> dict:
    """What a page draws, from the canonical data: the map, the cards' faces, the architects' and
    drinks' colours, the Izakaya stock. With `side` (the live page of a table) only the face each
    card lies on at the table's start: "Players cannot look at the back side before deciding to flip
    or not", so a back reaches the page with the table's state once a black drink flipped the card
    (JutakuRules.public_view's "faces"); without it (the calculator) both faces."""
    labels = {c.id: c.label for c in data.components() if c.kind == "site-card"}
    sides = (side,) if side else ("white", "blue")
    return {
        "size": list(data.map.size), "centre": [list(p) for p in data.map.centre],
        "sites": {s.id: {"label": labels[s.id], "district": s.district, "pos": list(s.position),
                         **{f: {"req": s.side(f).requirement, "yen": s.side(f).yen, "plan": list(s.side(f).plan)}
                            for f in sides}}
                  for s in data.sites},
        "districts": {d.id: {"name": d.name, "kanji": d.kanji, "hex": d.hex} for d in data.districts},
        "architects": {a.id: {"name": a.name, "hex": a.hex, "number": a.number} for a in data.architects},
        "drinks": {d.id: {"name": d.name, "hex": d.hex, "text": d.text, "when": d.when} for d in data.drinks},
        "metro": {c.id: {"name": c.name, "hex": c.hex, "symbol": getattr(c, "symbol", None),
                         # the printed symbol's outline in a unit circle (None: a circle), as the kit draws it
                         "shape": symbols.unit(c.symbol) if getattr(c, "symbol", None) else None}
                  for c in data.izakaya.metro.colour},
        "coin": data.izakaya.coin,
        "end_sites": data.rules.end_sites,
    }


def board(game, table: dict):
    state = table.get("state") or {}
    side = state.get("side") if state.get("mode") == "jutaku" else game.data.izakaya.side
    return bp.board_page("jutaku/board.html", game, table,
                         board=board_data(game.data, side if side in ("white", "blue") else "white"))


# -- calculators -----------------------------------------------------------------------------------

@bp.get("/jutaku/score")
def score_page():
    game = bp.game(page=True)
    data = game.data
    return render_template("jutaku/score.html", game=game, board=board_data(data),
                           districts=data.districts, sites_in=data.sites_in,
                           blue_yen=next((d.yen for d in data.drinks if d.power == "win-bonus"), 0))


@bp.get("/jutaku/izakaya")
def izakaya_page():
    game = bp.game(page=True)
    iz = game.data.izakaya
    return render_template("jutaku/izakaya.html", game=game, drinks=game.data.drinks,
                           prices=iz.start_price, example=iz.example, coin=iz.coin,
                           example_sum=sum(iz.example.values[d] for d in iz.example.drinks))


@bp.post("/api/jutaku/score")
def score_api():
    game = bp.game()
    body = reading.body()
    sites = body.get("sites")
    if not isinstance(sites, list) or any(not isinstance(s, str) for s in sites):
        raise ApiError(400, "sites must be a list of site card ids, e.g. [\"meguro-1\"].")
    blue = body.get("blue_drinks", 0)
    if blue is None:
        blue = 0
    if isinstance(blue, bool) or not isinstance(blue, int):
        raise ApiError(400, "blue_drinks must be a whole number (Bottle Bonus's blue drinks kept).")
    reasons, total, rows = game.rules.site_value(sites, blue)
    if reasons:
        raise ApiError(422, "These cannot be one player's completed site cards in Tokyo Jutaku.", reasons)
    return jsonify({"yen": total, "sites": rows, "blue_drinks": blue})


def izakaya_request(game, body: dict) -> tuple[dict, list[dict]]:
    """Reads and checks the Izakaya calculator's body: (prices, buildings); 400 for wrong types,
    422 for what cannot occur in the game."""
    data = game.data
    iz, colours = data.izakaya, list(data.drink)
    raw = reading.obj(body.get("prices", {}), "prices")
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
    pieces = data.contents.pieces
    # the most buildings a grid holds: its cards (the blue centre aside) with two site borders each
    borders = max(len(s.side(iz.side).borders) for s in data.sites)
    most = max(g.size ** 2 - int(g.blocked_centre) for g in iz.grids.values()) * borders
    if len(buildings) > most:
        reasons.append(f"{len(buildings)} buildings; the largest grid holds {most} (two on a card with "
                       "two site borders)")
    out = []
    for i, b in enumerate(buildings):
        b = reading.obj(b, f"buildings[{i}]")
        floors = b.get("floors")
        if isinstance(floors, bool) or not isinstance(floors, int):
            raise ApiError(400, f"buildings[{i}].floors must be a whole number.")
        drinks = b.get("drinks", [])
        if not isinstance(drinks, list) or any(not isinstance(d, str) for d in drinks):
            raise ApiError(400, f"buildings[{i}].drinks must be a list of drink colours.")
        if floors < 1:
            reasons.append(f"buildings[{i}]: {floors} floors; a building has 1 floor at least")
        elif floors > pieces:
            reasons.append(f"buildings[{i}]: {floors} floors need more than the {pieces} pieces")
        if len(drinks) > 4:
            reasons.append(f"buildings[{i}]: a site card has 4 corners, so at most 4 drinks touch it")
        bad = [d for d in drinks if d not in colours]
        if bad:
            reasons.append(f"buildings[{i}]: {bad[0]!r} is not a drink colour ({', '.join(colours)})")
        out.append({"floors": floors, "drinks": drinks})
    if sum(max(b["floors"], 0) for b in out) > pieces and all(0 < b["floors"] <= pieces for b in out):
        reasons.append(f"{sum(b['floors'] for b in out)} floors in all need more than the {pieces} pieces")
    total = sum(prices[c] for c in colours)
    if total != all_coins and not any("not a price" in r for r in reasons):
        reasons.append(f"the prices add up to {total:,} yen; the stock cards hold {all_coins:,} yen in all "
                       "(coins only move between them)")
    if reasons:
        raise ApiError(422, "These buildings or prices cannot occur in Izakaya.", reasons)
    return prices, out


@bp.post("/api/jutaku/izakaya")
def izakaya_api():
    game = bp.game()
    prices, buildings = izakaya_request(game, reading.body())
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
    where, up, shown, bottle = None, "white", ["white"], False
    if joined:
        try:
            state = joined["state"]
            where = site_status(game, state, site_id)
            if state.get("mode") == "jutaku":
                up, shown = game.rules.faces_seen(state, site_id)
                bottle = bool(state.get("bottle_bonus"))
        except Exception:  # noqa: BLE001 - a help, never a reason to fail the page
            where, up, shown, bottle = None, "white", ["white"], False
    # "Players cannot look at the back side before deciding to flip or not" (Bottle Bonus's black
    # drink): the face up is shown; the back only once flipped at the table (or the game is over).
    # At a Bottle Bonus table a back not yet seen is left out; elsewhere it waits behind a tap.
    faces = []
    for name in [up] + [x for x in ("white", "blue") if x != up]:
        face = site.side(name)
        if name not in shown and bottle:
            continue
        faces.append({"side": name, "requirement": face.requirement, "height": face.height,
                      "pieces": face.pieces, "yen": face.yen, "borders": len(face.borders),
                      "plan": face.plan, "source": face.source, "folded": name not in shown})
    return {"component": component, "site": site, "district": data.district[site.district], "faces": faces,
            "where": where, "header_rows": data.card.header_rows, "up": up,
            "back_hidden": bottle and len(shown) < 2}


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
        turned = state.get("turned", {}).get(site_id)
        return f"It is on the map, free ({turned} side up: a black drink flipped it)." if turned \
            else "It is on the map, free."
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


def _page(summary: str) -> dict:
    return {"get": {"summary": summary, "tags": ["pages"], "responses": {"200": {
        "description": "HTML", "content": {"text/html": {"schema": {"type": "string"}}}}}}}


OPENAPI = {
    "schemas": {
        "JutakuScoreRequest": {"type": "object", "required": ["sites"],
                               "description": "One player's completed cards. A wrong JSON type is a 400; "
                                              "what cannot occur is a 422 with reasons (more cards than end "
                                              "the game, a card twice, a negative count, more blue drinks "
                                              "than cards).",
                               "properties": {
            "sites": {"type": "array", "items": {"type": "string"},
                      "description": "Completed site card ids (\"meguro-1\"), at most as many as end the "
                                     "game; \"<id>:blue\" for a card built on its blue side (white by "
                                     "default). Each card once."},
            "blue_drinks": {"type": ["integer", "null"],
                            "description": "Bottle Bonus: blue drinks kept beside the site cards, each "
                                           "worth its yen (one per round won; missing or null = 0)."}}},
        "JutakuScoreResult": {"type": "object", "required": ["yen", "sites"], "properties": {
            "yen": {"type": "integer"}, "blue_drinks": {"type": "integer"},
            "sites": {"type": "array", "items": {"type": "object", "properties": {
                "site": {"type": "string"}, "side": {"type": "string"}, "requirement": {"type": "string"},
                "yen": {"type": "integer"}}}}}},
        "JutakuIzakayaRequest": {"type": "object", "required": ["buildings"], "properties": {
            "prices": {"type": "object", "additionalProperties": {"type": "integer"},
                       "description": "Drink colour -> market price in yen (colours left out: their "
                                      "starting price). The six prices add up to the coins laid on the stock "
                                      "cards at setup (coins only move between them); any other total "
                                      "is a 422."},
            "buildings": {"type": "array", "items": {"type": "object", "required": ["floors"], "properties": {
                "floors": {"type": "integer", "description": "1 or more; all floors together at most the "
                                                             "pieces of the box (more is a 422)"},
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
            "requestBody": {"required": True, "content": {"application/json": {"schema": ref("JutakuScoreRequest")}}},
            "responses": {"200": {"description": "Total yen and each card.", "content": {
                "application/json": {"schema": ref("JutakuScoreResult")}}},
                **error_responses(400, 404, 413, 415, 422)}}},
        "/api/jutaku/izakaya": {"post": {
            "operationId": "jutakuIzakaya",
            "summary": "Izakaya scoring: each building pays its floors x the prices of the drinks touching its card.",
            "tags": ["calculators"],
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": ref("JutakuIzakayaRequest")}}},
            "responses": {"200": {"description": "Total yen and each building's payment.", "content": {
                "application/json": {"schema": ref("JutakuIzakayaResult")}}},
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
