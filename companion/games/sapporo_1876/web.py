"""Sapporo 1876's web part: the board twin (main board and both personal boards, the moves with
their cheapest payments, the final-score preview), the final-scoring calculator (page and API), the
pages behind the printed tiles' and personal boards' QR codes, its OpenAPI part.

Routes: /sapporo-1876/score (page), POST /api/sapporo-1876/score (API.md), POST
/api/sapporo-1876/tables/<code>/plan (the board's move builder: a move's cost and payments before it is
sent); the board twin is served
at the generic /t/<code>/board through `WEB.board`; scans: /q/sapporo-1876/building-tile/<id>,
/q/sapporo-1876/influential-person/<id>, /q/sapporo-1876/personal-board/<colour>.
"""
from __future__ import annotations

from flask import jsonify, render_template

from ...tables import codes
from ...web import reading
from ...errors import ApiError
from ...web.openapi import error_responses, ref
from ...services import services
from ...web.game import Calculator, GameBlueprint, GameWeb
from .rules import engine as E
from .rules import fame as F

GAME = "sapporo-1876"
bp = GameBlueprint(GAME, __name__, "Sapporo 1876")



def board_data(data) -> dict:
    """What the board twin draws, from the canonical data."""
    return {
        "spots": [{"id": s.id, "name": s.name, "action": s.action, "background": s.background,
                   "ap": dict(s.ap), "position": list(s.position)} for s in data.action_spots],
        "resources": [{"id": r.id, "name": r.name, "hex": r.hex} for r in data.resources],
        "colours": {c.id: {"name": c.name, "hex": c.hex} for c in data.colours},
        "council": [{"id": c.id, "name": c.name, "spaces": list(c.spaces), "higher": c.higher,
                     "lower": c.lower, "final": c.final_per_worker} for c in data.council],
        "harvest": {"spaces": data.harvest_track.spaces, "icons": list(data.harvest_track.icons)},
        "settlement": {"spaces": data.settlement_track.spaces, "icons": list(data.settlement_track.icons)},
        "tiers": [{"name": t.name, "workers": t.workers, "cost": t.cost, "fame": t.final_fame}
                  for t in data.academy.tier],
        "academy": {"when_empty_ap": data.academy.when_empty_ap, "when_empty_fame": data.academy.when_empty_fame},
        "columns": [{"id": c.id, "name": c.name, "costs": [s.cost for s in c.spaces]}
                    for c in data.pioneering.column],
        "tiles": {**{p.id: {"name": p.name, "cost": p.cost, "text": p.text, "kind": "person"}
                     for p in data.persons},
                  **{b.id: {"name": b.name, "cost": b.cost, "text": b.text, "kind": "building"}
                     for b in data.building_tiles}},
        "events": data.end.events,
        "buildings": {b.id: _building_choices(b) for b in data.building_tiles},
    }


def _building_choices(tile) -> dict:
    """What the move builder asks for when a building tile is used: the resource paid ("give") or
    gained ("take") where the tile says "of your choice", and the action it gives (its columns)."""
    action = next((s for s in tile.effects if s.effect == "action"), None)
    return {"give": any(s.effect == "pay" and s.resource == E.ANY for s in tile.effects),
            "take": any(s.effect == "gain" and s.resource == E.ANY for s in tile.effects),
            "yen": sum(s.amount for s in tile.effects if s.effect == "gain" and s.resource == E.YEN),
            "action": None if action is None else {"action": action.action, "ap": action.resource_ap,
                                                   "columns": list(action.columns)}}


# -- the board twin ------------------------------------------------------------------------------

def board(game, table: dict):
    return bp.board_page("sapporo-1876/board.html", game, table, board=board_data(game.data))


@bp.post("/api/sapporo-1876/tables/<code>/plan")
def plan_api(code: str):
    """The board's move builder: what the move being built costs, its cheapest payments and what is
    still wrong with it (nothing is written)."""
    game = bp.game()
    body = reading.body()
    move = body.get("move")
    if not isinstance(move, dict):
        raise ApiError(400, "Send {\"move\": {…}}: the move being built, as POST …/moves takes it.")
    row, state = services().tables.state(codes.normalize(code))
    if row.game != GAME:
        raise ApiError(404, f"Table {codes.display(row.code)} does not play Sapporo 1876.")
    return jsonify(game.rules.plan(state, move))


# -- the calculator ---------------------------------------------------------------------------------

def _flag(obj: dict, name: str) -> bool | None:
    v = obj.get(name)
    if v is None:
        return None
    if not isinstance(v, bool):
        raise ApiError(400, f"{name} must be true or false.")
    return v


def _or_empty(body: dict, name: str, empty=None):
    value = body.get(name)
    return ({} if empty is None else empty) if value is None else value


def _whole(obj: dict, name: str, label: str | None = None) -> int | None:
    """A whole number (any sign: what cannot occur, below 0 or more than the box holds, is the
    calculator's 422), or None when absent; anything else is malformed (400)."""
    v = obj.get(name)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise ApiError(400, f"{label or name} must be a whole number.")
    return v


def _counts(value, name: str) -> dict[str, int]:
    """An object of whole numbers (council, pioneering.columns, resources_by_kind)."""
    obj = reading.obj(value, name)
    out = {}
    for k in obj:
        v = _whole(obj, k, f"{name}.{k}")
        if v is None:
            raise ApiError(400, f"{name}.{k} must be a whole number.")
        out[str(k)] = v
    return out


def read_calculator(body: dict) -> dict:
    """The calculator request, type-checked (400 for what is malformed: a field of the wrong JSON
    type); its numbers are the calculator's to judge (422 for what cannot occur)."""
    out: dict = {"fame": _whole(body, "fame") or 0}
    academy = reading.obj(_or_empty(body, "academy"), "academy")
    out["academy"] = {k: v for k in ("second_tier", "top_tier", "lower_tier")
                      if (v := _flag(academy, k)) is not None}
    pio = reading.obj(_or_empty(body, "pioneering"), "pioneering")
    out["pioneering"] = {k: v for k in ("top", "second")
                         if (v := _whole(pio, k, f"pioneering.{k}")) is not None}
    if pio.get("columns") is not None:
        out["pioneering"]["columns"] = _counts(pio["columns"], "pioneering.columns")
    out["council"] = _counts(_or_empty(body, "council"), "council")
    for k in ("yen", "resources"):
        out[k] = _whole(body, k) or 0
    for k in ("buildings", "workers_in_area"):
        if body.get(k) is not None:
            out[k] = _whole(body, k)
    if body.get("resources_by_kind") is not None:
        out["resources_by_kind"] = _counts(body["resources_by_kind"], "resources_by_kind")
    persons = _or_empty(body, "persons", [])
    if not isinstance(persons, list) or not all(isinstance(p, str) for p in persons):
        raise ApiError(400, "persons must be a list of influential person ids.")
    out["persons"] = persons
    return out


@bp.get("/sapporo-1876/score")
def score_page():
    game = bp.game(page=True)
    from .rules import calculator
    return render_template("sapporo-1876/score.html", game=game, board=board_data(game.data),
                           persons=game.data.persons, limits=calculator.limits(game.rules.ix))


@bp.post("/api/sapporo-1876/score")
def score_api():
    game = bp.game()
    body = read_calculator(reading.body())
    reasons, result = game.rules.calculator(body)
    if reasons:
        raise ApiError(422, "These numbers cannot be scored in Sapporo 1876.", reasons)
    return jsonify(result)


# -- the pages behind the printed QR codes -----------------------------------------------------------

def _component(kind: str, item_id: str):
    data = services().games[GAME].data
    return next(c for c in data.components() if c.kind == kind and c.id == item_id)


def _owner(joined, tile_id: str) -> str | None:
    if not joined:
        return None
    st = joined["state"]
    for pl in st.get("players", []):
        if tile_id in pl.get("persons", []) or any(b.get("id") == tile_id for b in pl.get("buildings", [])):
            return pl["name"]
    if tile_id in (st.get("persons") or []) or tile_id in (st.get("buildings") or []):
        return "on the main board"
    return "not in this game"


def person_tile(game, tile_id: str, joined: dict | None) -> dict | None:
    p = game.data.person.get(tile_id)
    if p is None:
        return None
    scores = None
    if joined and joined["state"].get("players") and _owner(joined, tile_id) != "not in this game":
        st = joined["state"]
        scores = [{"name": pl["name"],
                   "points": F.person_fame(p.scoring, E.counter(game.rules.ix, st, i, p.scoring))}
                  for i, pl in enumerate(st["players"])]
    return {"tile": p, "kind_name": "Influential person", "owner": _owner(joined, tile_id),
            "component": _component("influential-person", tile_id),
            "when": "At the end of the game, its owner gains:", "scores": scores}


def building_tile(game, tile_id: str, joined: dict | None) -> dict | None:
    b = game.data.building_tile.get(tile_id)
    if b is None:
        return None
    worker = None
    if joined:
        for pl in joined["state"].get("players", []):
            for x in pl.get("buildings", []):
                if x.get("id") == tile_id:
                    worker = x.get("worker")
    return {"tile": b, "kind_name": "Building tile", "owner": _owner(joined, tile_id), "worker": worker,
            "component": _component("building-tile", tile_id),
            "when": "At any time during your own turn (the other player's action included), place a worker "
                    "from your worker area on it, once until a harvest frees it:", "scores": None}


def personal_board(game, colour: str, joined: dict | None) -> dict | None:
    c = next((c for c in game.data.colours if c.id == colour), None)
    if c is None:
        return None
    preview = seat = None
    if joined and joined["state"].get("players"):
        st = joined["state"]
        seat = next((i for i, pl in enumerate(st["players"]) if pl.get("colour") == colour), None)
        if seat is not None:
            preview = game.rules.score(st)[seat]
    return {"colour": c, "preview": preview, "seat": seat,
            "component": {"label": f"{c.name} personal board", "count": 1, "source": "rules"}}


# -- OpenAPI ---------------------------------------------------------------------------------------


_COUNT = {"type": "integer", "minimum": 0}
OPENAPI = {
    "schemas": {
        "SapporoScoreRequest": {"type": "object", "properties": {
            "fame": dict(_COUNT, description="fame points gained during the game"),
            "academy": {"type": "object", "properties": {
                "second_tier": {"type": "boolean",
                                "description": "both workers of the second tier from the top educated"},
                "top_tier": {"type": "boolean", "description": "both workers of the top tier educated"},
                "lower_tier": {"type": "boolean", "description": "both workers of the lowest tier educated "
                               "(needed for W. Clark when second_tier is false)"}}},
            "pioneering": {"type": "object", "properties": {
                "top": dict(_COUNT, description="columns with a worker on the top space"),
                "second": dict(_COUNT, description="columns with a worker on the second space from the top"),
                "columns": {"type": "object", "additionalProperties": _COUNT,
                            "description": "column id -> space reached (1 = bottom, 0 = none): needed for "
                                           "E. Dunn, W. Wheeler and W. Brooks; without top and second "
                                           "they follow from it"}}},
            "council": {"type": "object", "additionalProperties": _COUNT,
                        "description": "workers per council column: left, middle, right"},
            "yen": dict(_COUNT, description="banknotes left, in yen"),
            "resources": dict(_COUNT, description="resource tokens left"),
            "resources_by_kind": {"type": "object", "additionalProperties": _COUNT,
                                  "description": "resource id -> tokens left (needed for D. Penhallow)"},
            "buildings": dict(_COUNT, description="building tiles owned (needed for H. Capron)"),
            "workers_in_area": dict(_COUNT, description="workers in the worker area (needed for H. Murahashi)"),
            "persons": {"type": "array", "items": {"type": "string"},
                        "description": "influential person tile ids held"}}},
        "SapporoPlan": {"type": "object", "required": ["reasons", "cost", "values", "payments", "pay_in"],
                        "properties": {
            "reasons": {"type": "array", "items": {"type": "string"},
                        "description": "what is still wrong with the move, payment aside (empty: it can be played)"},
            "cost": {"type": ["integer", "null"], "description": "AP the move costs (null: it is paid with nothing)"},
            "values": {"type": "object", "additionalProperties": {"type": "integer"},
                       "description": "AP of one unit of each resource accepted (yen: 1 AP each)"},
            "payments": {"type": "array", "items": {"type": "object", "additionalProperties": {"type": "integer"}},
                         "description": "the cheapest payments the player can make, each minimal"},
            "pay_in": {"enum": ["move", "action", None],
                       "description": "where \"pay\" goes: the move itself, or a building tile's \"action\""}}},
        "SapporoScoreResult": {"type": "object", "required": ["points", "breakdown"], "properties": {
            "points": {"type": "integer"},
            "breakdown": {"type": "array", "items": {"type": "object", "properties": {
                "label": {"type": "string"}, "value": {"type": "integer"}}}}}},
    },
    "paths": {
        "/api/sapporo-1876/score": {"post": {
            "operationId": "sapporoScore",
            "summary": "Sapporo 1876 final scoring: fame during the game plus academy, pioneering, "
                       "persons, council and leftovers.", "tags": ["calculators"],
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": ref("SapporoScoreRequest")}}},
            "responses": {"200": {"description": "Points and their breakdown.",
                                  "content": {"application/json": {"schema": ref("SapporoScoreResult")}}},
                          **error_responses(400, 404, 413, 415, 422)}}},
        "/api/sapporo-1876/tables/{code}/plan": {"post": {
            "operationId": "sapporoPlan",
            "summary": "Sapporo 1876: what a move being built costs (AP), its cheapest payments and "
                       "what is still wrong with it; nothing is written.", "tags": ["tables"],
            "parameters": [{"name": "code", "in": "path", "required": True, "schema": {"type": "string"}}],
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "required": ["move"], "properties": {"move": {"type": "object"}}}}}},
            "responses": {"200": {"description": "The plan.", "content": {"application/json": {
                "schema": ref("SapporoPlan")}}},
                          **error_responses(400, 404, 413, 415)}}},
        "/sapporo-1876/score": {"get": {"summary": "Sapporo 1876 final-scoring calculator.", "tags": ["pages"],
                                        "responses": {"200": {"description": "HTML", "content": {
                                            "text/html": {"schema": {"type": "string"}}}}}}},
    },
}


WEB = GameWeb(
    blueprint=bp,
    board=board,
    calculators=(Calculator("sapporo-1876.score_page", "Final-scoring calculator"),),
    scan={"influential-person": person_tile, "building-tile": building_tile,
          "personal-board": personal_board},
    openapi=OPENAPI,
    options_template="sapporo-1876/options.html",
)
