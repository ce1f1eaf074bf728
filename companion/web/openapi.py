"""GET /api/openapi.json: the OpenAPI 3.1 description of every route, and a small validator.

The generic part is written here by hand (the stable part follows API.md word for word); each game
adds its own paths and schemas (GameWeb.openapi) and its moves come from its table of move types
(contract.MoveType: fields, labels, who may send them). The tests check the document against the
app both ways (every documented path and method is routed, every route is documented) and validate
real responses against the schemas with `validate` below.
"""
from __future__ import annotations

import copy
from typing import Any

from flask import Blueprint, jsonify

from . import reading
from ..tables import timers
from .api_tables import MAX_NAME, PLAYER_NAME
from ..services import services

bp = Blueprint("openapi", __name__, url_prefix="/api")

MAX_SEQ = 2**53           # reading.integer's default maximum (expected_seq)
MAX_SINCE = 10**15 - 1    # since / Last-Event-ID: at most 15 digits (api_tables._after)


def ref(name: str) -> dict:
    """A reference to a schema of the document's components."""
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict, description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _html(description: str) -> dict:
    return {"description": description, "content": {"text/html": {"schema": {"type": "string"}}}}


ERR = {
    400: _json(ref("Error"), "Malformed request (not JSON, wrong types, missing fields)."),
    401: _json(ref("Error"), "No token, or not one of this table's (Authorization: Bearer …)."),
    403: _json(ref("Error"), "The token may not do this (another seat's move), or the request "
                              "comes from a page of another site (Origin)."),
    404: _json(ref("Error"), "Unknown table code, game or component."),
    409: _json(ref("Conflict"), "expected_seq is not the table's current seq."),
    413: _json(ref("Error"), "Request body over 64 KB."),
    415: _json(ref("Error"), "The body is not sent as Content-Type: application/json."),
    422: _json(ref("Unprocessable"), "Illegal under the rules, or Idempotency-Key reused with "
                                      "another body."),
    503: _json(ref("Error"), "The server is busy (its database stayed locked, or could not "
                              "commit): nothing was written; retry (Retry-After)."),
}
CODE = {"name": "code", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1},
        "description": "The table's join code (case, spaces and dashes ignored)."}
PLAYER = {"name": "player", "in": "query", "required": False,
          "schema": {"type": "integer", "minimum": 0, "maximum": 99},
          "description": "Only this player's moves (and the table's). Needs that seat's token or "
                         "the host's (403 otherwise): legal moves can show a hand."}
AUTH = [{"seat": []}]


def error_responses(*codes: int) -> dict:
    """The documented error answers, for a game's own paths."""
    return {str(k): ERR[k] for k in codes}
IDEMPOTENCY = {"name": "Idempotency-Key", "in": "header", "required": False,
               "schema": {"type": "string", "minLength": 1, "maxLength": 200,
                          "pattern": reading.KEY.pattern},
               "description": "One key per user action, reused on retry: the same key and body "
                              "return the stored response and append nothing (answered before "
                              "expected_seq is checked); the same key with another body is a 422."}


def _body(schema: str) -> dict:
    return {"required": True, "content": {"application/json": {"schema": ref(schema)}}}


#: OpenAPI links: what a response tells the next request (used by stateful fuzzers such as
#: schemathesis to walk create -> read -> write -> write ...).
_CODE_FROM_PATH = {"code": "$request.path.code"}


def _links(code: dict) -> dict:
    return {
        "ReadTable": {"operationId": "getTable", "parameters": code},
        "PollEvents": {"operationId": "getEvents", "parameters": code},
        "PlayMove": {"operationId": "playMove", "parameters": code,
                     "requestBody": {"expected_seq": "$response.body#/seq"}},
        "Undo": {"operationId": "undo", "parameters": code,
                 "requestBody": {"expected_seq": "$response.body#/seq"}},
        "StartTimer": {"operationId": "timer", "parameters": code,
                       "requestBody": {"expected_seq": "$response.body#/seq", "timer": "round",
                                       "action": "start", "seconds": 30}},
        "PauseTimer": {"operationId": "timer", "parameters": code,
                       "requestBody": {"expected_seq": "$response.body#/seq", "timer": "round",
                                       "action": "pause"}},
    }


def _write(op: str, summary: str, request: str, result: str) -> dict:
    ok = _json(ref(result), "Appended; the table after it (or the stored answer of a replayed "
                             "Idempotency-Key).")
    ok["links"] = _links(_CODE_FROM_PATH)
    return {"post": {"operationId": op, "summary": summary, "security": AUTH,
                     "parameters": [CODE, IDEMPOTENCY],
                     "requestBody": _body(request),
                     "responses": {"200": ok, **error_responses(400, 401, 403, 404, 409, 413, 415,
                                                                422, 503)}}}


PREFER = {"name": "Prefer", "in": "header", "required": False, "schema": {"type": "string"},
          "description": "`return=minimal` (RFC 7240): an accepted move is answered {\"seq\": n} alone, "
                         "with `Preference-Applied: return=minimal`, the state neither derived nor "
                         "sent (the phone's own page reads the whole table after its move anyway). "
                         "Errors, 409 included, are answered whole."}


def _move() -> dict:
    op = _write("playMove", "Play a move (validated by the game's rules).", "MoveRequest", "StateResult")
    post = op["post"]
    post["parameters"] = [*post["parameters"], PREFER]
    post["responses"]["200"]["content"]["application/json"]["schema"] = {
        "oneOf": [ref("StateResult"), ref("SeqResult")]}
    post["responses"]["200"]["headers"] = {"Preference-Applied": {
        "description": "`return=minimal` when the answer is the seq alone.", "schema": {"type": "string"}}}
    return op


def _page(summary: str, params: list[str] = (), not_found: bool = True,
          redirect: str | None = None) -> dict:
    responses = {"200": _html(summary)}
    if redirect:
        responses["302"] = {"description": redirect}
    if not_found:
        responses["404"] = _html("A friendly page saying what was not found.")
    return {"get": {"summary": summary, "tags": ["pages"],
                    "parameters": [{"name": p, "in": "path", "required": True,
                                    "schema": {"type": "string"}} for p in params],
                    "responses": responses}}


SCHEMAS: dict[str, Any] = {
    "Error": {"type": "object", "required": ["error"],
              "properties": {"error": {"type": "string"},
                             "reasons": {"type": "array", "items": {"type": "string"}}}},
    "Unprocessable": {"type": "object", "required": ["error", "reasons"],
                      "properties": {"error": {"type": "string"},
                                     "reasons": {"type": "array", "items": {"type": "string"}}}},
    "Conflict": {"type": "object", "required": ["error", "seq"],
                 "properties": {"error": {"type": "string"}, "seq": {"type": "integer", "minimum": 0},
                                "state": {"description": "The current state."},
                                "timers": {"type": "array", "items": ref("Timer")}}},
    "Time": {"type": "object", "required": ["now_ms"],
             "properties": {"now_ms": {"type": "integer",
                                       "description": "Server time, Unix epoch milliseconds."}}},
    "GameList": {"type": "object", "required": ["games"], "properties": {"games": {
        "type": "array", "items": {"type": "object", "required": ["id", "name", "players", "playable"],
                                   "properties": {"id": {"type": "string"}, "name": {"type": "string"},
                                                  "players": {"type": "array",
                                                              "items": {"type": "integer"}},
                                                  "playable": {"type": "boolean"}}}}}},
    "CreateTable": {"type": "object", "required": ["game", "players"], "properties": {
        "game": {"type": "string", "minLength": 1,
                 "description": "A game id (GET /api/games lists them; an unknown one is a 404)."},
        "players": {"type": "array", "items": {
            "type": "string", "minLength": 1, "maxLength": MAX_NAME, "pattern": PLAYER_NAME,
            "description": "Not only spaces; no control or invisible formatting characters; at "
                           "least one visible character (Hangul fillers, the blank Braille pattern "
                           "and tag characters are invisible); at most 3 combining marks on a "
                           "letter. Runs of spaces become one and the name is NFKC-normalised first: the rules and the "
                           "length apply to the name as it will be shown (´ becomes a space and a "
                           "combining accent: alone, it has no visible character). The number of "
                           "players and duplicate names (ignoring case) are the game's to refuse "
                           "(422)."}},
        "options": {"type": "object", "description": "Game options (see each game's engine)."},
        "seed": {"type": ["integer", "null"], "minimum": 0, "maximum": 2**128 - 1,
                 "description": "Replays a known shuffle: the game's chance from this seed instead of "
                                "128 fresh random bits. The table then says so to every phone "
                                "(`replay`: true). Absent or null: a random, secret shuffle."}}},
    "CreatedTable": {"type": "object",
                     "required": ["code", "game", "players", "seq", "url", "host_token"],
                     "properties": {"code": {"type": "string"}, "game": {"type": "string"},
                                    "players": {"type": "array", "items": {"type": "string"}},
                                    "seq": {"type": "integer", "enum": [0]},
                                    "url": {"type": "string", "description": "Absolute URL of the "
                                                                             "table page."},
                                    "host_token": {"type": "string", "description": "Acts for "
                                                   "every seat; keep it secret (send it as "
                                                   "Authorization: Bearer)."},
                                    "state": {}, "timers": {"type": "array", "items": ref("Timer")},
                                    "turn": {"type": ["integer", "null"]},
                                    "replay": {"type": "boolean"}}},
    "Table": {"type": "object",
              "required": ["code", "game", "players", "seq", "state", "timers", "result"],
              "properties": {"code": {"type": "string"}, "game": {"type": "string"},
                             "players": {"type": "array", "items": {"type": "string"}},
                             "seq": {"type": "integer", "minimum": 0},
                             "state": {"description": "The game's state as the request's token "
                                                      "may see it (without one: what everyone "
                                                      "may see)."},
                             "timers": {"type": "array", "items": ref("Timer")},
                             "turn": {"type": ["integer", "null"],
                                      "description": "Index of the player whose turn it is, when "
                                                     "exactly one player may act."},
                             "actors": {"type": "object", "required": ["mode", "seats"],
                                        "description": "Who may act now: one seat, several (each "
                                                       "answers), all at once, or none.",
                                        "properties": {"mode": {"type": "string", "enum": [
                                            "one", "several", "all", "none"]},
                                                       "seats": {"type": "array",
                                                                 "items": {"type": "integer"}}}},
                             "needs": {"type": ["object", "null"],
                                       "description": "What the table must do next (the game's "
                                                      "rules: phase, prompt, allowed moves)."},
                             "result": {"anyOf": [{"type": "null"}, ref("Result")]},
                             "facts": {"type": "object", "description": "Turn cues every phone "
                                       "may see (the game's rules, where they know them).",
                                       "properties": {
                                           "last_round": {"type": "boolean"},
                                           "counts": {"type": "array", "items": {
                                               "type": "object", "required": ["label", "n"],
                                               "properties": {"label": {"type": "string"},
                                                              "n": {"type": "integer"}}}}}},
                             "setup": {"type": "array", "description": "While the game is being "
                                       "set up: its physical set-up, step by step ([] once it "
                                       "runs).", "items": {
                                           "type": "object", "required": ["title", "text"],
                                           "properties": {"title": {"type": "string"},
                                                          "text": {"type": "string"},
                                                          "input": {"type": ["string", "null"]},
                                                          "done": {"type": "boolean"}}}},
                             "sealed": {"type": ["object", "null"], "description": "Sealed "
                                        "choices as the table sees them: who has sealed, and the "
                                        "last reveal (Rules.sealed); null where the game has none.",
                                        "properties": {
                                            "label": {"type": "string"},
                                            "seats": {"type": "array", "items": {
                                                "type": "object", "required": ["seat", "sealed"],
                                                "properties": {"seat": {"type": "integer"},
                                                               "sealed": {"type": "boolean"}}}},
                                            "reveal": {"type": ["object", "null"]}}},
                             "options": {"type": "object"},
                             "replay": {"type": "boolean", "description": "The creator chose the "
                                        "seed: a known shuffle is replayed."},
                             "seats": {"type": "array", "items": {
                                 "type": "object", "required": ["player", "name", "claimed"],
                                 "properties": {"player": {"type": "integer"},
                                                "name": {"type": "string"},
                                                "claimed": {"type": "boolean"}}}},
                             "you": {"type": "object", "properties": {
                                 "host": {"type": "boolean"},
                                 "player": {"type": ["integer", "null"]}}}}},
    "Result": {"type": "object", "required": ["winners", "unit", "scores"],
               "description": "The end of the game: the winners (several = a shared victory), "
                              "the unit of the scores and each player's score with a breakdown "
                              "that adds up to it.",
               "properties": {"winners": {"type": "array", "items": {"type": "integer"}},
                              "unit": {"type": "string"},
                              "scores": {"type": "array", "items": {
                                  "type": "object", "required": ["player", "name", "score",
                                                                 "breakdown"],
                                  "properties": {"player": {"type": "integer"},
                                                 "name": {"type": "string"},
                                                 "score": {"type": "integer"},
                                                 "breakdown": {"type": "array", "items": {
                                                     "type": "object",
                                                     "required": ["label", "value"],
                                                     "properties": {"label": {"type": "string"},
                                                                    "value": {"type": "integer"}}}}}}}}},
    "Legal": {"type": "object", "required": ["seq", "moves", "complete"],
              "properties": {"seq": {"type": "integer"},
                             "moves": {"type": "array", "items": {"type": "object"},
                                       "description": "Each accepted as it is by POST …/moves."},
                             "complete": {"type": "boolean",
                                          "description": "False where the list is a sample of a "
                                                         "larger set (every path, every amount)."}}},
    "SeatRequest": {"type": "object", "required": ["player"],
                    "properties": {"player": {"type": "integer", "minimum": 0, "maximum": 99}}},
    "Seat": {"type": "object", "required": ["player", "token"],
             "properties": {"player": {"type": "integer"}, "name": {"type": "string"},
                            "token": {"type": "string", "description": "Acts for this seat; "
                                      "keep it secret (Authorization: Bearer)."}}},
    "SeatReleased": {"type": "object", "required": ["player", "claimed"],
                     "properties": {"player": {"type": "integer"}, "claimed": {"const": False}}},
    "PlayList": {"type": "object", "required": ["plays"], "properties": {"plays": {
        "type": "array", "items": {"type": "object", "required": [
            "code", "game", "players", "winners", "unit", "scores", "started_ms", "ended_ms",
            "duration_ms"], "properties": {
            "code": {"type": "string"}, "game": {"type": "string"},
            "game_name": {"type": "string"},
            "players": {"type": "array", "items": {"type": "string"}},
            "winners": {"type": "array", "items": {"type": "integer"}},
            "unit": {"type": ["string", "null"]},
            "scores": {"type": "array", "items": {"type": "object"}},
            "started_ms": {"type": "integer"}, "ended_ms": {"type": "integer"},
            "duration_ms": {"type": "integer"}, "seq": {"type": "integer"},
            "bgstats": {"type": "string", "description": "BG Stats' push link "
                        "(https://app.bgstatsapp.com/createPlay.html?data=…): opens the play in "
                        "BG Stats' import dialog."}}}}}},
    "WalkRequest": {"type": "object", "required": ["expected_seq", "step"], "additionalProperties": False,
                    "properties": {"expected_seq": ref("Seq"),
                                   "step": {"type": "integer", "minimum": 0, "maximum": 99,
                                            "description": "The step every phone shows now (0 = the "
                                                           "first; the number of steps = done)."}}},
    "Walk": {"type": "object", "required": ["seq", "step", "steps", "playing"], "properties": {
        "seq": {"type": "integer"}, "step": {"type": "integer"},
        "steps": {"type": "array", "items": {"type": "object"}},
        "playing": {"type": "boolean", "description": "Play has begun: the steps are those of the "
                                                      "set-up, all done, kept to read."}}},
    "Timer": {"type": "object", "required": ["name", "status", "deadline_ms", "remaining_ms"],
              "properties": {"name": {"type": "string"},
                             "status": {"type": "string",
                                        "enum": ["idle", "running", "paused", "expired"]},
                             "deadline_ms": {"type": ["integer", "null"],
                                             "description": "Server epoch ms while running (and "
                                                            "when it expired)."},
                             "remaining_ms": {"type": "integer"},
                             "duration_ms": {"type": "integer"},
                             "owner": {"type": "string", "enum": ["table", "game"]},
                             "kind": {"type": "string", "enum": ["chess"],
                                      "description": "A chess clock (absent: a countdown); its "
                                                     "status and times are the running seat's."},
                             "seat": {"type": "integer",
                                      "description": "Chess clock: the seat whose time runs."},
                             "clocks": {"type": "array", "items": {
                                 "type": "object", "required": ["seat", "remaining_ms", "flagged"],
                                 "properties": {"seat": {"type": "integer"},
                                                "remaining_ms": {"type": "integer"},
                                                "flagged": {"type": "boolean"}}},
                                 "description": "Chess clock: every seat's time left."}}},
    "MoveRequest": {"type": "object", "required": ["expected_seq", "move"],
                    "properties": {"expected_seq": ref("Seq"),
                                   "move": {"type": "object",
                                            "description": "A move in the game's format."}}},
    "UndoRequest": {"type": "object", "required": ["expected_seq"],
                    "properties": {"expected_seq": ref("Seq")}},
    "TimerRequest": {
        "type": "object", "required": ["expected_seq", "timer", "action"],
        "properties": {"expected_seq": ref("Seq"),
                       "timer": {"type": "string", "minLength": 1, "maxLength": 40,
                                 "pattern": timers.NAME.pattern},
                       "action": {"type": "string", "enum": list(timers.ACTIONS)},
                       "seconds": {"type": ["number", "null"],
                                   "description": "Required with start (from "
                                                  f"{timers.MIN_SECONDS} to {timers.MAX_SECONDS}); "
                                                  "absent or null otherwise."},
                       "clock": {"type": "string", "enum": list(timers.CLOCKS),
                                 "description": "With start: \"chess\" starts a chess clock, one "
                                                "countdown of `seconds` per seat; default "
                                                "\"countdown\"."},
                       "seat": {"type": "integer", "minimum": 0,
                                "description": "Chess clock: with start, the seat whose time runs "
                                               "first (default 0); with pass, the seat to pass to "
                                               "(default the next seat with time left)."}},
        "oneOf": [
            {"properties": {"action": {"const": "start"},
                            "seconds": {"type": "number", "minimum": timers.MIN_SECONDS,
                                        "maximum": timers.MAX_SECONDS}},
             "required": ["seconds"]},
            {"properties": {"action": {"enum": [a for a in timers.ACTIONS if a != "start"]},
                            "seconds": {"type": "null"}}}]},
    "Seq": {"type": "integer", "minimum": 0, "maximum": MAX_SEQ,
            "description": "The table's seq the request was made against (a JSON number; 3.0 "
                           "counts as 3)."},
    "SeqResult": {"type": "object", "required": ["seq"], "additionalProperties": False,
                  "properties": {"seq": {"type": "integer", "minimum": 1}}},
    "StateResult": {"type": "object", "required": ["seq", "state"],
                    "properties": {"seq": {"type": "integer"}, "state": {}}},
    "TimersResult": {"type": "object", "required": ["seq", "timers"],
                     "properties": {"seq": {"type": "integer"},
                                    "timers": {"type": "array", "items": ref("Timer")}}},
    "Event": {"type": "object", "required": ["seq", "kind", "at_ms", "summary"], "properties": {
        "seq": {"type": "integer", "minimum": 1},
        "kind": {"type": "string", "enum": ["move", "undo", "timer", "expire"]},
        "at_ms": {"type": "integer"}, "summary": {"type": "string"},
        "move": {"type": "object", "description": "kind move: the move."},
        "undoes": {"type": "integer", "description": "kind undo: the seq of the undone move."},
        "timer": {"type": "string"}, "action": {"type": "string"}, "seconds": {"type": "number"},
        "clock": {"type": "string", "description": "kind timer: \"chess\" for a chess clock."},
        "seat": {"type": "integer", "description": "kind timer: a chess clock's seat."},
        "seats": {"type": "integer", "description": "kind timer: a chess clock's seats."},
        "owner": {"type": "string", "enum": ["table", "game"],
                  "description": "kind expire: whose timer ran out."},
        "deadline_ms": {"type": "integer", "description": "kind expire: when it ran out."}}},
    "SseEvent": {
        "description": "One Server-Sent Event of the stream (its schema describes each event): a "
                       "numbered event of the log (id = seq, data = an Event), or an unnumbered "
                       "`table` event (data = the whole Table). The stream starts with a `retry:` "
                       "line and sends `: heartbeat` comments while idle.",
        "type": "object", "required": ["data"],
        "properties": {"id": {"type": "string", "pattern": "^[0-9]+$"},
                       "event": {"type": "string", "enum": ["message", "table"]},
                       "retry": {"type": "integer"},
                       "data": {"type": "string", "contentMediaType": "application/json",
                                "contentSchema": {"anyOf": [ref("Event"), ref("Table")]}}}},
    "EventList": {"type": "object", "required": ["events", "seq"],
                  "properties": {"events": {"type": "array", "items": ref("Event")},
                                 "seq": {"type": "integer"}}},
    "Count": {"type": ["integer", "null"], "minimum": 0, "maximum": 10_000},
}

PATHS: dict[str, Any] = {
    "/api/openapi.json": {"get": {"operationId": "openapi", "summary": "This document.",
                                  "responses": {"200": _json({"type": "object"}, "OpenAPI 3.1.")}}},
    "/api/time": {"get": {"operationId": "time", "summary": "The server clock.", "tags": ["clock"],
                          "responses": {"200": _json(ref("Time"), "Now.")}}},
    "/api/games": {"get": {"operationId": "games",
                           "summary": "The games of the kit and whether tables can be played.",
                           "responses": {"200": _json(ref("GameList"), "Games.")}}},
    "/api/tables": {"post": {
        "operationId": "createTable",
        "summary": "Create a table (not an event: its seq is 0).", "tags": ["tables"],
        "parameters": [dict(IDEMPOTENCY, description="Optional: a retried create makes one table.")],
        "requestBody": _body("CreateTable"),
        "responses": {"201": dict(_json(ref("CreatedTable"), "Created."),
                                  links=_links({"code": "$response.body#/code"})),
                      **error_responses(400, 403, 404, 413, 415, 422, 503)}}},
    "/api/tables/{code}": {"get": {
        "operationId": "getTable",
        "summary": "A table: players, seq, state (as the token may see it), timers, result.",
        "tags": ["tables"], "parameters": [CODE],
        "responses": {"200": dict(_json(ref("Table"), "The table."),
                                  links=_links(_CODE_FROM_PATH)),
                      **error_responses(400, 401, 404)}}},
    "/api/tables/{code}/legal": {"get": {
        "operationId": "getLegal",
        "summary": "The moves legal now that the token may send (the host: everyone's). Without a "
                   "token: every seat's moves while no seat holds a secret; once one does (a hand, "
                   "a sealed bid), 401.",
        "tags": ["tables"], "parameters": [CODE, PLAYER],
        "responses": {"200": _json(ref("Legal"), "Legal moves."),
                      **error_responses(400, 401, 403, 404, 422)}}},
    "/api/tables/{code}/seats": {"post": {
        "operationId": "claimSeat",
        "summary": "Claim a free seat (no token needed), or, with the host token, hand a claimed "
                   "seat to a new phone (the old token is void).", "tags": ["seats"],
        "parameters": [CODE], "requestBody": _body("SeatRequest"),
        "responses": {"201": _json(ref("Seat"), "The seat's token."),
                      **error_responses(400, 401, 403, 404, 413, 415),
                      "409": _json(ref("Conflict"), "The seat is taken (only the host can hand "
                                                     "it over).")}}},
    "/api/tables/{code}/seats/{player}": {"delete": {
        "operationId": "releaseSeat", "security": AUTH,
        "summary": "Give a seat up (its own token or the host's), so another phone can claim it.",
        "tags": ["seats"],
        "parameters": [CODE, {"name": "player", "in": "path", "required": True,
                              "schema": {"type": "integer", "minimum": 0}}],
        "responses": {"200": _json(ref("SeatReleased"), "The seat is free."),
                      **error_responses(401, 403, 404)}}},
    "/api/plays": {"get": {
        "operationId": "plays", "summary": "Records of finished plays, newest first (?game=…).",
        "tags": ["plays"],
        "parameters": [{"name": "game", "in": "query", "required": False,
                        "schema": {"type": "string"}},
                       {"name": "table", "in": "query", "required": False,
                        "schema": {"type": "string"}, "description": "Only this table's play."}],
        "responses": {"200": _json(ref("PlayList"), "Plays."), "404": ERR[404]}}},
    "/api/plays/{code}/chart": {"get": {
        "operationId": "playChart", "tags": ["plays"], "parameters": [CODE],
        "summary": "How a finished play went: each player's running number under the result's "
                   "unit, where the game's public state keeps one (state.players[i][unit]), by "
                   "round where the state counts rounds, else by move; points is empty otherwise.",
        "responses": {"200": _json({"type": "object", "required": ["unit", "x", "points"], "properties": {
            "unit": {"type": ["string", "null"]}, "x": {"type": ["string", "null"], "enum": ["round", "move", None]},
            "points": {"type": "array", "items": {"type": "object", "required": ["seq", "values"], "properties": {
                "seq": {"type": "integer"}, "round": {"type": ["integer", "null"]},
                "values": {"type": "array", "items": {"type": "integer"}}}}}}}, "The chart's points."),
            **error_responses(400, 404, 422)}}},
    "/api/plays.csv": {"get": {
        "operationId": "playsCsv", "summary": "The same records as a CSV spreadsheet.",
        "tags": ["plays"],
        "parameters": [{"name": "game", "in": "query", "required": False,
                        "schema": {"type": "string"}}],
        "responses": {"200": {"description": "CSV", "content": {"text/csv": {
            "schema": {"type": "string"}}}}, "404": ERR[404]}}},
    "/api/tables/{code}/moves": _move(),
    "/api/tables/{code}/undo": _write("undo", "Undo the latest move not yet undone (itself an "
                                      "event).", "UndoRequest", "StateResult"),
    "/api/tables/{code}/walk": {
        **_write("walk", "Move the table's set-up walk-through to a step: every phone shows that "
                         "step (a `walk` event, outside the game; not undoable).",
                 "WalkRequest", "Walk"),
        "get": {"operationId": "getWalk", "tags": ["tables"], "parameters": [CODE],
                "summary": "The set-up steps and the step the table's walk-through is at (after "
                           "play began: the set-up's steps, kept to read).",
                "responses": {"200": _json(ref("Walk"), "The walk."), "404": ERR[404]}}},
    "/api/tables/{code}/timers": _write("timer", "Start, pause, resume or reset a timer.",
                                        "TimerRequest", "TimersResult"),
    "/api/tables/{code}/events": {"get": {
        "operationId": "getEvents",
        "summary": "The table's events after `since` / Last-Event-ID: Server-Sent Events (id = seq; "
                   "an unnumbered `table` event carries the whole table after each batch and at "
                   "each timer expiry), or JSON with Accept: application/json.",
        "tags": ["tables"],
        "parameters": [CODE,
                       {"name": "since", "in": "query", "required": False,
                        "schema": {"type": "integer", "minimum": 0, "maximum": MAX_SINCE}},
                       {"name": "Last-Event-ID", "in": "header", "required": False,
                        "schema": {"type": "integer", "minimum": 0, "maximum": MAX_SINCE}}],
        "responses": {"200": {"description": "Events in order.",
                              "content": {"application/json": {"schema": ref("EventList")},
                                          "text/event-stream": {"schema": ref("SseEvent")}}},
                      "400": ERR[400], "401": ERR[401], "404": ERR[404],
                      "409": _json(ref("Conflict"), "since / Last-Event-ID is beyond the table's "
                                                     "seq (an impossible cursor): start again from "
                                                     "`seq`."),
                      "503": _json(ref("Error"), "Too many live streams: poll with JSON.")}}},
    # HTML pages
    "/": _page("Home: games, printed kits, join a table, the latest plays.", not_found=False),
    "/plays": _page("Every finished play (players, scores, winners), with JSON and CSV downloads.",
                    not_found=False),
    "/join": _page("Join a table by typed code (?code=…).",
                   redirect="The code is a table's: to its page."),
    "/new/{game_id}": _page("Start a table of a game.", ["game_id"]),
    "/t/{code}": _page("A table: players, whose turn, timer, history, undo, join QR.", ["code"],
                       redirect="The code was typed loosely (case, dashes): to its canonical address."),
    "/t/{code}/board": _page("The game's board twin: each action entered by tapping.", ["code"]),
    "/t/{code}/qr.svg": {"get": {"summary": "The join QR code of a table.", "tags": ["pages"],
                                 "parameters": [CODE],
                                 "responses": {"200": {"description": "SVG", "content": {
                                     "image/svg+xml": {"schema": {"type": "string"}}}},
                                     "404": _html("Unknown table.")}}},
    "/manifest.webmanifest": {"get": {
        "summary": "The web app manifest: the companion installs to a phone's home screen.",
        "tags": ["pages"], "responses": {"200": {"description": "The manifest.", "content": {
            "application/manifest+json": {"schema": {"type": "object"}}}}}}},
    "/sw.js": {"get": {
        "summary": "The service worker: pages, scripts and fonts open with no connection once loaded.",
        "tags": ["pages"], "responses": {"200": {"description": "JavaScript.", "content": {
            "text/javascript": {"schema": {"type": "string"}}}}}}},
    "/icons/{size}.png": {"get": {
        "summary": "The app's icon (192 or 512 px).", "tags": ["pages"],
        "parameters": [{"name": "size", "in": "path", "required": True, "schema": {"type": "integer"}}],
        "responses": {"200": {"description": "PNG", "content": {"image/png": {"schema": {
                          "type": "string", "format": "binary"}}}},
                      "404": _html("No icon of that size.")}}},
    "/fonts/{name}": {"get": {
        "summary": "The pages' Japanese font (the project's Noto Sans JP subset) and its licence.",
        "tags": ["pages"],
        "parameters": [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}],
        "responses": {"200": {"description": "The file.", "content": {"*/*": {"schema": {
                          "type": "string", "format": "binary"}}}},
                      "404": _html("No such font.")}}},
    "/kits/{name}": {"get": {
        "summary": "A file of the printed kits in output/ (name may contain /).", "tags": ["pages"],
        "parameters": [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}],
        "responses": {"200": {"description": "The file (PDF, SVG, PNG, ZIP, …).",
                              "content": {"*/*": {"schema": {"type": "string",
                                                             "format": "binary"}}}},
                      "404": _html("No such file (names never leave output/).")}}},
    "/q/{game}/{kind}/{id}": _page("The page for a scanned component (with or without a table).",
                                   ["game", "kind", "id"]),
    "/q": {"get": {
        "summary": "Type the short code printed under a QR code (e.g. K7Q4M): without `code` the form.",
        "tags": ["pages"],
        "parameters": [{"name": "code", "in": "query", "required": False, "schema": {"type": "string"},
                        "description": "The short code; case, spaces and dashes are forgiven."}],
        "responses": {"200": _html("The form."),
                      "303": {"description": "To the page the QR code opens, /q/{game}/{kind}/{id}."},
                      "404": _html("The form again, saying the code is unknown or misshaped.")}}},
}

DOCUMENT = {
    "openapi": "3.1.0",
    "security": [],
    "info": {"title": "Tokyo table kit companion", "version": "1.0",
             "description": "Tables, moves, undo, timers and live events for the Tokyo table kit. "
                            "Errors are JSON objects with at least `error`. No request gets a 500."},
    "paths": PATHS,
    "components": {"schemas": SCHEMAS, "securitySchemes": {"seat": {
        "type": "http", "scheme": "bearer",
        "description": "The host token (POST /api/tables) or a seat token (POST …/seats)."}}},
}


@bp.get("/openapi.json")
def document():
    return jsonify(served())


def served() -> dict:
    """DOCUMENT as this companion serves it: `game` lists the games it can play, each game adds
    its own paths and schemas, and a move is one of the games' move types."""
    return document_for(services().games.values())


def document_for(games) -> dict:
    doc = copy.deepcopy(DOCUMENT)
    schemas = doc["components"]["schemas"]
    playable = [g for g in games if g.playable]
    if playable:
        schemas["CreateTable"]["properties"]["game"]["enum"] = [g.id for g in playable]
    moves = []
    for game in playable:
        for mt in game.move_types:
            name = f"Move.{game.id}.{mt.name}"
            schemas[name] = dict(mt.schema(), **{"x-game": game.id})
            moves.append(ref(name))
        if game.web is not None:
            doc["paths"].update(copy.deepcopy(game.web.openapi.get("paths", {})))
            schemas.update(copy.deepcopy(game.web.openapi.get("schemas", {})))
    if moves:
        move = schemas["MoveRequest"]["properties"]["move"]
        move["description"] = ("A move of the table's game: one of its move types (x-who: \"seat\" "
                               "= only that player's token or the host's; \"table\" = any token "
                               "of the table).")
        move["anyOf"] = moves
    return doc


# -- a small JSON Schema validator (the subset used above) --------------------------------------
_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is(value: Any, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _TYPES[kind])


def validate(schema: dict, value: Any, doc: dict = DOCUMENT, path: str = "$") -> list[str]:
    """Problems of `value` against `schema` (empty when it conforms)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        return validate(doc["components"]["schemas"][name], value, doc, path)
    problems = []
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(_is(value, k) for k in kinds):
            return [f"{path}: expected {' or '.join(kinds)}, got {type(value).__name__}"]
    if "oneOf" in schema:
        fits = [i for i, sub in enumerate(schema["oneOf"]) if not validate(sub, value, doc, path)]
        if len(fits) != 1:
            problems.append(f"{path}: fits {len(fits)} of oneOf's {len(schema['oneOf'])} schemas, not one")
    if "const" in schema and value != schema["const"]:
        problems.append(f"{path}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        problems.append(f"{path}: {value!r} not in {schema['enum']}")
    if "minimum" in schema and _is(value, "number") and value < schema["minimum"]:
        problems.append(f"{path}: {value} < {schema['minimum']}")
    if isinstance(value, dict):
        for name in schema.get("required", []):
            if name not in value:
                problems.append(f"{path}: missing {name!r}")
        for name, sub in schema.get("properties", {}).items():
            if name in value:
                problems += validate(sub, value[name], doc, f"{path}.{name}")
        if schema.get("additionalProperties") is False:
            problems += [f"{path}: unexpected {name!r}" for name in value
                         if name not in schema.get("properties", {})]
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            problems += validate(schema["items"], item, doc, f"{path}[{i}]")
    return problems
