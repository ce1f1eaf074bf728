"""Shin Bikkuri Man's web part: the board twin, the two calculators of API.md (score and place) with
the calculator page, the pages behind the printed QR codes (player boards and ability tiles), its
part of the OpenAPI document and the warm-up that draws the twin's façade.

Routes: /shin-bikkuri-man/calculator (page), /shin-bikkuri-man/facade.svg (the printed board's
façade grid drawn by the generator, for the twin and the calculator), POST /api/shin-bikkuri-man/score,
POST /api/shin-bikkuri-man/place; the board twin at the generic /t/<code>/board through `WEB.board`.
"""
from __future__ import annotations

from flask import render_template

from ...web import reading
from ...web.openapi import error_responses, ref
from ...web.game import Calculator, GameBlueprint, GameWeb, calculated, svg_response
from ..words import count
from . import twin

GAME = "shin-bikkuri-man"
bp = GameBlueprint(GAME, __name__, "Shin Bikkuri Man")



def page_data(game) -> dict:
    """What the pages' scripts need from the canonical data (colours, patterns, tiles, abilities)."""
    data, geo = game.data, game.rules.geometry
    return {
        "columns": data.board.columns, "rows": data.board.rows,
        "colours": [{"id": c.id, "name": c.name, "hex": c.hex, "symbol": c.symbol,
                     "letter": geo.letter[c.id]} for c in data.colours]
                   + [{"id": "white", "name": "White", "hex": "#ffffff", "symbol": "none", "letter": "w"}],
        "tiles": [{"id": t.id, "colour": t.colour, "size": t.size,
                   "cells": [[x, y, ch] for (x, y), ch in sorted(t.squares_up().items())]}
                  for t in data.tiles],
        "abilities": [{"id": a.id, "name": a.name, "text": a.text, "action": a.action, "discount": a.discount}
                      for a in data.abilities],
        "take": data.turn.take, "same_colour_discount": data.building.same_colour_discount,
        "coat_squares": [list(s) for s in data.coat_squares], "coat_rows": list(data.coat_rows),
        "hand_limit": data.turn.hand_limit, "harbour": data.turn.harbour, "end_points": data.end.points,
        "starting_hands": list(data.starting_hands.by_seat),
        "cards_per_colour": {n: data.cards_per_colour(n) for n in range(data.players[0], data.players[1] + 1)},
        "rotate": data.building.rotate, "flip": data.building.flip,
        "facade_url": twin.url(),
    }


# -- the board twin ------------------------------------------------------------------------------

def board(game, table: dict):
    return bp.board_page("shin-bikkuri-man/board.html", game, table, page=page_data(game))


@bp.get("/shin-bikkuri-man/facade.svg")
def facade_svg():
    """The façade grid of the printed player board (coats of arms, row ends), drawn by the
    generator; cached for good under ?v=<etag>."""
    game = bp.game(page=True, playable=False)
    return svg_response(*twin.facade_svg(game.data))


# -- the calculators -----------------------------------------------------------------------------

@bp.get("/shin-bikkuri-man/calculator")
def calculator_page():
    game = bp.game(page=True)
    return render_template("shin-bikkuri-man/calculator.html", game=game, page=page_data(game),
                           seat=None)


@bp.post("/api/shin-bikkuri-man/score")
def score_api():
    game = bp.game()
    return calculated(*game.rules.score_board(reading.body()), "This façade cannot occur in the game.")


@bp.post("/api/shin-bikkuri-man/place")
def place_api():
    game = bp.game()
    return calculated(*game.rules.place(reading.body()), "The tile may not go there.")


# -- the pages behind the printed QR codes -----------------------------------------------------------

def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def board_facts(data) -> str:
    """What the printed player board is, from the data: "5 columns, 9 rows, coats of arms at (3, 3),
    … and (4, 9), and at the right end of rows 2, 4 and 6" (squares as (column, row))."""
    parts = [count(data.board.columns, "column"), count(data.board.rows, "row")]
    coats = []
    if data.coat_squares:
        coats.append("at " + _and([f"({c},\u00a0{r})" for c, r in data.coat_squares]))   # no break inside
    if data.coat_rows:
        rows = [str(r) for r in data.coat_rows]
        coats.append(f"at the right end of {'row' if len(rows) == 1 else 'rows'} {_and(rows)}")
    if coats:
        parts.append("coats of arms " + ", and ".join(coats))
    return ", ".join(parts)


def player_board(game, board_id: str, joined: dict | None) -> dict | None:
    """A player board n (1..4): at a joined table, that seat's façade, score and abilities as this
    phone may see them; without a table, the free scoring calculator."""
    hi = game.data.players[1]
    if not board_id.isascii() or not board_id.isdigit() or not 1 <= int(board_id) <= hi:
        return None
    n = int(board_id)
    seat = None
    if joined and n <= len(joined["players"]):
        state = joined["state"]
        viewer = joined["me"] if not joined["host"] else "host"
        view = game.rules.public_view(state, viewer)
        pl = view["players"][n - 1]
        seat = {"player": n - 1, "name": pl["name"], "facade": pl["facade"], "points": pl["points"],
                "abilities": pl["abilities"], "hand": pl.get("hand"), "hand_size": pl.get("hand_size"),
                "mine": joined["me"] == n - 1, "score": game.rules.score_of(pl["facade"])}
    return {"component": next(c for c in game.data.components() if c.kind == "player-board"),
            "board_number": n, "seat": seat, "page": page_data(game), "board_facts": board_facts(game.data)}


def ability(game, ability_id: str, joined: dict | None) -> dict | None:
    a = game.data.ability.get(ability_id)
    if a is None:
        return None
    when = {"draw": "when you take cards", "build": "when you buy a tile",
            "turn": "with the first action of your turn"}[a.action]
    mine = None
    if joined and joined["me"] is not None:
        pl = joined["state"]["players"][joined["me"]]
        mine = pl["abilities"].get(a.id, "not held")
    everyone = []
    if joined:
        everyone = [{"name": pl["name"], "status": pl["abilities"].get(a.id, "not held")}
                    for pl in joined["state"]["players"]]
    component = next(c for c in game.data.components() if c.kind == "ability-tile" and c.id == a.id)
    return {"component": component, "ability": a, "when": when, "mine": mine, "everyone": everyone,
            "reactivate": game.data.coat_action.get("reactivate")}


# -- OpenAPI ---------------------------------------------------------------------------------------


_BOARD = {"type": "array", "minItems": 9, "maxItems": 9,
          "items": {"type": "string", "minLength": 5, "maxLength": 5},
          "description": "9 strings of 5 characters, top row (row 9) first: . empty, r y g b p w a "
                         "window of that colour, upper case a brick"}
_SQUARE = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
           "description": "[column, row]: column 1 at the left, row 1 at the bottom"}

OPENAPI = {
    "schemas": {
        "ShinBikkuriManScoreRequest": {"type": "object", "required": ["board"],
                                       "properties": {"board": _BOARD}},
        "ShinBikkuriManScoreResult": {"type": "object", "required": ["points", "rows", "columns"], "properties": {
            "points": {"type": "integer"},
            "rows": {"type": "array", "items": {"type": "object", "properties": {
                "row": {"type": "integer"}, "points": {"type": "integer"}}}},
            "columns": {"type": "array", "items": {"type": "object", "properties": {
                "column": {"type": "integer"}, "points": {"type": "integer"}}}}}},
        "ShinBikkuriManPlaceRequest": {"type": "object", "required": ["board", "tile"], "properties": {
            "board": _BOARD,
            "tile": {"type": "object", "required": ["colour", "squares"], "properties": {
                "colour": {"type": "string", "description": "r, y, g, b, p or w (white)"},
                "squares": {"type": "array", "items": _SQUARE},
                "brick": {"oneOf": [_SQUARE, {"type": "null"}]}}},
            "construction_discount": {"type": "boolean"}}},
        "ShinBikkuriManPlaceResult": {"type": "object",
                                      "required": ["cost", "coats_of_arms", "points", "board"], "properties": {
            "cost": {"type": "integer", "description": "cards (white tiles cost none)"},
            "coats_of_arms": {"type": "integer"}, "points": {"type": "integer"}, "board": _BOARD,
            "tile": {"type": "string", "description": "the tile id that lies there (\"red-4\")"},
            "touches_same_colour": {"type": "boolean"}}},
    },
    "paths": {
        "/api/shin-bikkuri-man/score": {"post": {
            "operationId": "shinBikkuriManScore", "tags": ["calculators"],
            "summary": "Shin Bikkuri Man: the points of a façade (completed rows and columns).",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": ref("ShinBikkuriManScoreRequest")}}},
            "responses": {"200": {"description": "Points, completed rows and columns.",
                                  "content": {"application/json": {"schema": ref("ShinBikkuriManScoreResult")}}},
                          **error_responses(400, 404, 413, 415, 422)}}},
        "/api/shin-bikkuri-man/place": {"post": {
            "operationId": "shinBikkuriManPlace", "tags": ["calculators"],
            "summary": "Shin Bikkuri Man: what placing a tile costs, earns and scores, or why it may not go there.",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": ref("ShinBikkuriManPlaceRequest")}}},
            "responses": {"200": {"description": "Cost, coats of arms, points and the façade after.",
                                  "content": {"application/json": {"schema": ref("ShinBikkuriManPlaceResult")}}},
                          **error_responses(400, 404, 413, 415, 422)}}},
        "/shin-bikkuri-man/calculator": {"get": {
            "summary": "Shin Bikkuri Man façade calculator (points, and what a tile costs and earns).",
            "tags": ["pages"], "responses": {"200": {"description": "HTML", "content": {
                "text/html": {"schema": {"type": "string"}}}}}}},
        "/shin-bikkuri-man/facade.svg": {"get": {
            "summary": "The printed player board's façade grid as SVG (?v=<etag> makes it cacheable for good).",
            "tags": ["pages"],
            "parameters": [{"name": "v", "in": "query", "required": False, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "SVG", "content": {"image/svg+xml": {"schema": {"type": "string"}}}},
                          "304": {"description": "Not modified (If-None-Match)."},
                          "404": {"description": "This companion has no Shin Bikkuri Man data.",
                                  "content": {"text/html": {"schema": {"type": "string"}}}}}}},
    },
}


def warm_up(game) -> None:
    if game.data is not None:
        twin.facade_svg(game.data)


WEB = GameWeb(
    blueprint=bp,
    board=board,
    calculators=(Calculator("shin-bikkuri-man.calculator_page", "Façade calculator"),),
    scan={"board": player_board, "ability": ability},
    openapi=OPENAPI,
    options_template="shin-bikkuri-man/options.html",
    warm_up=warm_up,
)
