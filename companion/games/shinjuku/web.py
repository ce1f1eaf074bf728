"""Shinjuku's web part: the board twin, the scoring calculator (page and API), the pages behind the
printed ward cards' and customer tokens' QR codes, its part of the OpenAPI document, and the warm-up
that draws the board twin's map at server start.

Routes: /shinjuku/map.svg, /shinjuku/score, POST /api/shinjuku/score (API.md); the board twin is
served at the generic /t/<code>/board through `WEB.board`.
"""
from __future__ import annotations

from flask import jsonify, render_template, url_for

from ...web import reading
from ...errors import ApiError
from ...web.openapi import error_responses, ref
from ...web.game import Calculator, GameBlueprint, GameWeb, svg_response
from . import board_twin

GAME = "shinjuku"
bp = GameBlueprint(GAME, __name__, "Shinjuku")



# -- the board twin ------------------------------------------------------------------------------

def board(game, table: dict):
    # The page never waits for the map's first drawing (a few seconds): the script fetches it.
    map_url = url_for("shinjuku.map_svg", v=board_twin.map_version(game.data))
    return bp.board_page("shinjuku/board.html", game, table, map_url=map_url,
                         board=dict(board_data(game.data), token_kinds=game.rules.ix.token))


def board_data(data) -> dict:
    """What the board twin's buttons need, from the canonical data (wards, stations, links, tokens)."""
    links: dict[str, list] = {s.id: [] for s in data.stations}
    for c in data.connections:
        a, b = c.stations
        links[a].append([b, c.id])
        links[b].append([a, c.id])
    return {
        "wards": [{"id": w.id, "name": w.name, "kanji": w.kanji, "number": w.number, "cards": w.cards,
                   "stations": [s.id for s in data.stations_in[w.id]]} for w in data.wards],
        "stations": {s.id: {"name": s.name, "kanji": s.kanji, "ward": s.ward, "sakura": s.sakura,
                            "links": links[s.id]} for s in data.stations},
        "goods": [{"id": t.id, "name": t.name} for t in data.customers.type],
        "tokens": [{"id": c.id, "label": c.label} for c in data.components() if c.kind == "customer"],
        "connections": {c.id: list(c.stations) for c in data.connections},
        "colours": {c.id: c.hex for c in data.pieces.colour},
        "colour_names": {c.id: c.name for c in data.pieces.colour},
        "colour_symbols": {c.id: c.symbol for c in data.pieces.colour if getattr(c, "symbol", None)},
        "hand_size": data.rules.hand_size, "seed_customers": data.rules.seed_customers_per_ward,
        "queue_slots": len(data.rules.queue_slots), "queue_start": data.rules.queue_start_customers,
        "cards_as_wild": data.rules.cards_as_wild,
    }


@bp.get("/shinjuku/map.svg")
def map_svg():
    """The board twin's static map, drawn once per process. Once drawn, the board page asks for it
    with ?v=<etag>: that URL never changes content, so phones keep it; without (or with an old) v,
    it is revalidated by ETag. Gzipped when the phone accepts it."""
    game = bp.game(page=True, playable=False)
    svg, etag = board_twin.map_svg(game.data)
    return svg_response(svg, etag, lambda: board_twin.map_svg_gzip(game.data))


# -- the scoring calculator ------------------------------------------------------------------------

def limits(data) -> tuple[dict[str, int], int]:
    """Most customers of each type one player can hold ("2" tokens count twice), most wild tokens."""
    most = {t.id: t.single + 2 * t.double for t in data.customers.type}
    return most, data.upgrade_bonus.count


@bp.get("/shinjuku/score")
def score_page():
    game = bp.game(page=True, playable=False)
    most, most_wild = limits(game.data)
    return render_template("shinjuku/score.html", game=game, types=game.data.customers.type,
                           most=most, most_wild=most_wild)


@bp.post("/api/shinjuku/score")
def score_api():
    game = bp.game()
    body = reading.body()
    customers = reading.obj(body.get("customers"), "customers")
    most, most_wild = limits(game.data)
    unknown = sorted(set(customers) - set(most))
    if unknown:
        raise ApiError(400, f"{unknown[0]!r} is not a customer type; use {', '.join(most)}.")
    counts = {kind: reading.integer(customers, kind, required=False, maximum=10_000) or 0
              for kind in most}
    wild = reading.integer(body, "wild", required=False, maximum=10_000) or 0
    reasons = [f"{n} {kind} customers is more than the game has ({most[kind]}, counting each "
               "“2” token as two)" for kind, n in counts.items() if n > most[kind]]
    if wild > most_wild:
        reasons.append(f"{wild} upgrade bonus tokens is more than the game has ({most_wild})")
    if reasons:
        raise ApiError(422, "These counts are not possible in Shinjuku.", reasons)
    points, sets = game.rules.best_sets(counts, wild)
    return jsonify({"points": points, "sets": [list(s) for s in sets]})


# -- the pages behind the printed QR codes -----------------------------------------------------------

def ward_card(game, ward_id: str, joined: dict | None) -> dict | None:
    """A ward card: its ward from the canonical data and, at a joined table, what is there now as
    this phone's seat may see it (the rules' ward view)."""
    data = game.data
    ward = data.ward.get(ward_id) if data is not None else None
    if ward is None:
        return None
    stations = data.stations_in[ward.id]
    view = None
    if joined:
        try:
            view = game.rules.ward_view(ward.id, joined["state"], joined["me"])
        except Exception:  # noqa: BLE001 - a view is a help, never a reason to fail the page
            view = None
    return {
        "ward": ward, "stations": stations,
        "neighbours": [data.ward[n] for n in ward.neighbours],
        "deck": data.deck.cards,
        "sakura_count": sum(1 for s in stations if s.sakura),
        "view": view,
        "token_names": {c.id: c.label for c in data.components() if c.kind == "customer"},
    }


def customer(game, token_id: str, joined: dict | None) -> dict | None:
    """A customer token: what it is, and the way to the scoring calculator."""
    found = [c for c in game.data.components() if c.kind == "customer" and c.id == token_id]
    if not found:
        return None
    return {"component": found[0], "customer_type": game.data.customer_type.get(token_id.removesuffix("-2")),
            "double": token_id.endswith("-2")}


# -- OpenAPI ---------------------------------------------------------------------------------------


OPENAPI = {
    "schemas": {
        "ShinjukuScoreRequest": {"type": "object", "required": ["customers"], "properties": {
            "customers": {"type": "object", "additionalProperties": False, "properties": {
                k: ref("Count") for k in ("food", "clothing", "books", "electronics")},
                "description": "Customers per type, a “2” token counting as two (missing or null "
                               "= 0). More than the game has is a 422."},
            "wild": dict(ref("Count"), description="Upgrade bonus tokens (missing or null = 0).")}},
        "ShinjukuScoreResult": {"type": "object", "required": ["points", "sets"], "properties": {
            "points": {"type": "integer"},
            "sets": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}}}},
    },
    "paths": {
        "/api/shinjuku/score": {"post": {
            "operationId": "shinjukuScore",
            "summary": "Shinjuku set scoring: the partition into sets of distinct types that scores "
                       "most.", "tags": ["calculators"],
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": ref("ShinjukuScoreRequest")}}},
            "responses": {"200": {"description": "Points and sets (wild tokens as \"wild\").",
                                  "content": {"application/json": {
                                      "schema": ref("ShinjukuScoreResult")}}},
                          **error_responses(400, 404, 413, 415, 422)}}},
        "/shinjuku/score": {"get": {"summary": "Shinjuku scoring calculator.", "tags": ["pages"],
                                    "responses": {"200": {"description": "HTML", "content": {
                                        "text/html": {"schema": {"type": "string"}}}}}}},
        "/shinjuku/map.svg": {"get": {
            "summary": "The Shinjuku board twin's map (?v=<etag> makes it cacheable for good).",
            "tags": ["pages"],
            "parameters": [{"name": "v", "in": "query", "required": False,
                            "schema": {"type": "string"}}],
            "responses": {"200": {"description": "SVG (gzipped when accepted)", "content": {
                              "image/svg+xml": {"schema": {"type": "string"}}}},
                          "304": {"description": "Not modified (If-None-Match)."},
                          "404": {"description": "This companion has no Shinjuku data.",
                                  "content": {"text/html": {"schema": {"type": "string"}}}}}}},
    },
}


def warm_up(game) -> None:
    """Draw the map twin now (in a child process), so the first phone to open a board page does
    not wait ~3 s and no request waits for the drawing meanwhile."""
    if game.data is not None:
        board_twin.draw_in_background(game.data)


WEB = GameWeb(
    blueprint=bp,
    board=board,
    calculators=(Calculator("shinjuku.score_page", "Scoring calculator"),),
    scan={"ward": ward_card, "customer": customer},
    openapi=OPENAPI,
    options_template="shinjuku/options.html",
    warm_up=warm_up,
)
