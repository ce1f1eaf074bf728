"""/api/games and /api/tables/…: create tables, claim seats, read them, list legal moves, append
moves, undos and timer actions.

Who is asking comes from `Authorization: Bearer <token>` only (never from the URL): the host token
of POST /api/tables, or a seat token of POST …/seats. Writes without one are 401; a seat token acting
for another seat is 403 (tables.py decides, since it depends on the move).
"""
from __future__ import annotations

import re
import unicodedata

from flask import Blueprint, Response, current_app, jsonify, request

from ..tables import codes
from . import reading
from ..live import sse, streams
from ..errors import ApiError
from .security import absolute
from ..services import services
from ..tables.service import Claimed, StaleSeat, fingerprint
from ..tables.timers import check_request

bp = Blueprint("api_tables", __name__, url_prefix="/api")

MAX_NAME = 24
#: What a player name may not contain: control characters, line and paragraph separators, and the
#: invisible formatting characters (zero-width space, bidi marks, embeddings, overrides and
#: isolates, zero-width non-joiner, word joiner, BOM) that make two names look alike or garble a
#: page (the zero-width joiner only inside an emoji: name_problem). Everything else is
#: allowed (emoji newer than this Python's Unicode tables too; lone surrogates never get past
#: reading.body). The OpenAPI document publishes PLAYER_NAME itself, so the contract and the check
#: cannot drift apart. A name is first NFKC-normalised with its whitespace runs collapsed to one
#: space, then checked (its length too, as it will be shown).
NOT_IN_NAME = ("\\x00-\\x1f\\x7f-\\x9f\\u00ad\\u061c\\u180e\\u200b\\u200c\\u200e\\u200f\\u2028-\\u202e"
               "\\u2060-\\u206f\\ufeff\\ufff9-\\ufffb")
PLAYER_NAME = f"^[^{NOT_IN_NAME}]*[^\\s{NOT_IN_NAME}][^{NOT_IN_NAME}]*$"
_PLAYER_NAME = re.compile(PLAYER_NAME)


#: Letters that render as nothing: Hangul fillers, the blank Braille pattern, tag characters.
INVISIBLE = set("\u115f\u1160\u3164\uffa0\u2800") | {chr(c) for c in range(0xE0000, 0xE0080)}
#: Private-use and not-yet-assigned code points count as drawing something (an emoji newer than this
#: Python's Unicode tables is unassigned here).
VISIBLE = ("Co", "Cn")
#: At most this many combining marks on one letter (Vietnamese stacks two; "Zalgo" stacks dozens).
MAX_MARKS = 3


def name_problem(name: str) -> str | None:
    """Why a player name cannot be shown to the table, or None: it needs a visible character
    (a letter, digit, punctuation or symbol that draws something), and no pile of combining marks."""
    if not any(unicodedata.category(ch) in VISIBLE or unicodedata.category(ch)[0] in "LNPS"
               and ch not in INVISIBLE for ch in name):
        return "has no visible character"
    if any(ch in INVISIBLE for ch in name):
        return "holds an invisible character (a Hangul filler, a blank Braille pattern or a tag)"
    for i, ch in enumerate(name):
        # the zero-width joiner belongs between emoji (a family, a flag); between letters it only
        # makes a name that looks like another
        if ch == "\u200d" and any(0 <= j < len(name) and unicodedata.category(name[j])[0] in "LNM"
                                   for j in (i - 1, i + 1)):
            return "holds a zero-width joiner between letters"
    run = 0
    for ch in name:
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        if run > MAX_MARKS:
            return f"stacks more than {MAX_MARKS} combining marks on one letter"
    return None


@bp.get("/games")
def games():
    return jsonify({"games": [{"id": g.id, "name": g.name, "players": list(g.players),
                               "playable": g.playable} for g in services().games.values()]})


@bp.post("/tables")
def create():
    body = reading.body()
    game = body.get("game")
    if not isinstance(game, str) or not game:
        raise ApiError(400, "game must be a game id (GET /api/games lists them).")
    players = body.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ApiError(400, "players must be a list of names.")
    bad = f"Each player name must be 1 to {MAX_NAME} characters, not only spaces, without control " \
          "or invisible formatting characters."
    if any(len(p) > 4 * MAX_NAME or not _PLAYER_NAME.fullmatch(p) for p in players):
        raise ApiError(400, bad)                # (as typed: a line break is not a space to collapse)
    players = [unicodedata.normalize("NFKC", " ".join(p.split())) for p in players]
    if any(len(p) > MAX_NAME or not _PLAYER_NAME.fullmatch(p) for p in players):
        raise ApiError(400, bad)
    for p in players:
        problem = name_problem(p)
        if problem:
            raise ApiError(400, f"The player name {p[:MAX_NAME]!r} {problem}.")
    options = reading.obj(body.get("options", {}), "options")
    seed = reading.integer(body, "seed", required=False, maximum=2**128 - 1)   # replays a known shuffle
    status, response = services().tables.create(
        game, players, options, seed, lambda code: absolute("pages.table", code=code),
        reading.idempotency_key(), reading.request_fingerprint(body))
    return answer(response, status)


@bp.get("/tables/<code>")
def table(code):
    return _json(read_table(services().tables, code, request.headers.get("Authorization")))


def read_table(tables, code: str, authorization: str | None) -> str:
    """GET /api/tables/<code>'s JSON text, from the URL's code and the Authorization header (the
    Flask view and the lane, lane.py, both answer a read with it)."""
    code = reading.table_code(code)
    return tables.get_text(code, who_of(tables, code, authorization))


@bp.get("/tables/<code>/legal")
def legal(code):
    return _json(read_legal(services().tables, code, request.headers.get("Authorization"),
                            request.args.get("player")))


def read_legal(tables, code: str, authorization: str | None, player: str | None) -> str:
    """GET …/legal's JSON text, from the URL's code, the Authorization header and the `player` query
    argument (None: absent); the Flask view and the lane both answer with it."""
    code = reading.table_code(code)
    who = who_of(tables, code, authorization)
    seat = None
    if player is not None:
        seat = reading.digits(player, 2)
        if seat is None:
            raise ApiError(400, "player must be a player's index (0, 1, …).")
    return tables.legal_text(code, who, seat)


@bp.post("/tables/<code>/seats")
def claim_seat(code):
    code = reading.table_code(code)
    body = reading.body()
    player = reading.integer(body, "player", maximum=99)
    status, response = services().tables.claim_seat(code, player, _who(code))
    return answer(response, status)


@bp.delete("/tables/<code>/seats/<int:player>")
def release_seat(code, player):
    code = reading.table_code(code)
    who = _who(code, required=True)
    return jsonify(services().tables.release_seat(code, player, who))


@bp.post("/tables/<code>/moves")
def move(code):
    minimal = wants_minimal(request.headers.get("Prefer"))
    status, response = play_move(services().tables, code, reading.body, request.path,
                                 request.headers.get("Authorization"),
                                 request.headers.get("Idempotency-Key"), minimal)
    return answer(response, status, preference_applied(minimal, status))


#: RFC 7240's preference for an answer without the resource: a move answered {"seq": n} alone,
#: and the header that says the preference was applied.
MINIMAL = "return=minimal"
APPLIED = {"Preference-Applied": MINIMAL}


def preference_applied(minimal: bool, status: int) -> dict | None:
    """The headers a move's answer adds: Preference-Applied on an accepted move asked for minimal."""
    return APPLIED if minimal and status == 200 else None


def wants_minimal(prefer: str | None) -> bool:
    """Whether a `Prefer` header asks for return=minimal (among its comma-separated preferences)."""
    return prefer is not None and any(p.split(";")[0].strip().lower() == MINIMAL
                                      for p in prefer.split(","))


def play_move(tables, code: str, read_body, path: str, authorization: str | None,
              idempotency_key: str | None, minimal: bool = False) -> tuple[int, dict]:
    """POST /api/tables/<code>/moves, from the URL's code, the body (`read_body()`, read after the
    code is checked), the request's path and its headers (Authorization, Idempotency-Key and
    whether Prefer asks for return=minimal): (status, response), or an ApiError.
    The Flask view and the lane (lane.py) both answer a move with it."""
    code = reading.table_code(code)
    body = read_body()
    expected = reading.integer(body, "expected_seq")
    move = reading.obj(body.get("move"), "move")
    key = reading.scoped_key(idempotency_key, authorization)
    request_fp = fingerprint("POST", path, body)
    who = who_of(tables, code, authorization, required=True, write=True)
    try:
        return tables.move(code, expected, move, key, request_fp, who, minimal)
    except (StaleSeat, ApiError):
        if not isinstance(who, Claimed):
            raise
        # the seat as this worker remembered its token, and the move was not appended as it stood:
        # nothing was written; what the answer says (a 409's state, a refusal's reasons) goes only
        # to a token read afresh
        return tables.move(code, expected, move, key, request_fp,
                           who_of(tables, code, authorization, required=True), minimal)


@bp.post("/tables/<code>/undo")
def undo(code):
    code = reading.table_code(code)
    body = reading.body()
    expected = reading.integer(body, "expected_seq")
    status, response = services().tables.undo(code, expected, reading.idempotency_key(),
                                               reading.request_fingerprint(body),
                                               _who(code, required=True))
    return answer(response, status)


@bp.post("/tables/<code>/walk")
def walk_to(code):
    """The set-up walk-through's step for every phone (companion/tables/walk.py)."""
    from ..tables import walk
    code = reading.table_code(code)
    body = reading.body()
    expected = reading.integer(body, "expected_seq")
    step = reading.integer(body, "step", maximum=walk.MAX_STEPS)
    extra = sorted(set(body) - {"expected_seq", "step"})
    if extra:
        raise ApiError(400, f"A walk request has expected_seq and step only, not {extra[0][:40]!r}.")
    status, response = walk.walk(services().tables, code, expected, step, reading.idempotency_key(),
                                 reading.request_fingerprint(body), _who(code, required=True))
    return answer(response, status)


@bp.get("/tables/<code>/walk")
def walk_read(code):
    from ..tables import walk
    return jsonify(walk.read(services().tables, reading.table_code(code)))


@bp.post("/tables/<code>/timers")
def timer(code):
    code = reading.table_code(code)
    body = reading.body()
    expected = reading.integer(body, "expected_seq")
    name, action, seconds = body.get("timer"), body.get("action"), body.get("seconds")
    kind, seat = body.get("clock"), body.get("seat")
    problem = check_request(name, action, seconds, kind, seat)
    if problem:
        raise ApiError(400, problem[0].upper() + problem[1:] + ".")
    status, response = services().tables.timer(code, expected, name, action, seconds,
                                                reading.idempotency_key(),
                                                reading.request_fingerprint(body),
                                                _who(code, required=True),
                                                extra={"clock": kind, "seat": seat})
    return answer(response, status)


@bp.get("/tables/<code>/events")
def events(code):
    code = reading.table_code(code)
    after = _after()
    viewer = _who(code)
    s = services()
    current = s.tables.seq(code)          # (404 for an unknown table, before any stream starts)
    if after > current:
        raise ApiError(409, f"The table is at {current}; there are no events after {after} yet. Start "
                            "again from the table's seq.", seq=current)
    if request.accept_mimetypes.best_match(["text/event-stream", "application/json"]) == \
            "application/json":
        events, seq = s.tables.events(code, after, viewer)
        return jsonify({"events": events, "seq": seq})
    client = request.remote_addr or ""
    handoff = request.environ.get(streams.HANDOFF)       # (the companion's own server, GET)
    kind = sse.HANDED if handoff else sse.THREAD
    if not s.hub.try_open(client, kind):
        raise ApiError(503, "Too many live connections; poll with Accept: application/json instead.")
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    if handoff:
        # the stream server sends the body; this response gives the status and the headers
        handoff(streams.Follow(s.hub, client, code, after, viewer))
        return Response(iter(()), mimetype="text/event-stream", headers=headers)
    cfg = current_app.config
    body = sse.stream(s.tables, s.hub, code, after, viewer, s.clock, heartbeat_s=cfg["SSE_HEARTBEAT_S"],
                       max_s=cfg["SSE_MAX_S"], retry_ms=cfg["SSE_RETRY_MS"])
    response = Response(body, mimetype="text/event-stream", headers=headers)
    response.call_on_close(lambda: s.hub.close(client))   # freed however the stream ends
    return response


def _after() -> int:
    """`Last-Event-ID` (a reconnecting browser) wins over `since` (the page's first connection);
    each must be a sequence number when present (a browser never sends an empty Last-Event-ID)."""
    values = [reading.digits(raw, 15) for raw in (request.headers.get("Last-Event-ID"),
                                                   request.args.get("since")) if raw is not None]
    if None in values:
        raise ApiError(400, "since and Last-Event-ID must be a sequence number (0 or more).")
    return values[0] if values else 0


def answer(response: dict, status: int, headers: dict | None = None) -> Response:
    """The response as JSON: its text as serialised when it was stored, if it was."""
    text = getattr(response, "text", None)
    if text is None:
        return jsonify(response), status, headers
    reply = Response(text + "\n", status=status, mimetype="application/json")   # (as jsonify ends)
    if headers:
        reply.headers.update(headers)
    return reply


def _json(text: str) -> Response:
    return Response(text + "\n", mimetype="application/json")


def _who(code: str, required: bool = False):
    """HOST, the seat index, or None: what the request's `Authorization: Bearer` token proves at
    this table (who_of)."""
    return who_of(services().tables, code, request.headers.get("Authorization"), required)


def who_of(tables, code: str, header: str | None, required: bool = False, write: bool = False):
    """HOST, the seat index, or None: what the `Authorization` header's bearer token proves at table
    `code`. A token that is not this table's is 401 (so is none at all, when `required`).
    `write`: for a move, which checks a remembered seat itself (Tables.who, Claimed)."""
    token = None
    if header is not None:
        scheme, _, token = header.partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token or len(token) > 200:
            raise ApiError(401, "Authorization must be \"Bearer <token>\" with the token this "
                                "table gave (the host's or a seat's).")
    if token is None:
        if required and not tables.exists(code):
            raise ApiError(404, f"There is no table with the code {codes.display(code)}; check the "
                                "code and try again.")
        if required:
            raise ApiError(401, "Send this table's host or seat token (Authorization: Bearer …): "
                                "a phone gets one when it starts the table or takes a seat.")
        return None
    who = tables.who(code, token, write=write)
    if who is None:
        raise ApiError(401, "This token is not one of this table's (the seat may have been handed "
                            "to another phone); take a seat again.")
    return who
