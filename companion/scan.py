"""/q/<game>/<kind>/<id>: the page a printed QR code opens, with or without a table.

Handlers are registered per (game, kind). A handler returns the template context for the scanned
component, or None when there is no such component (friendly 404 naming what was scanned). The
page template is chosen by name, most specific first, so a game can plug in its own:

    <game>/<kind>.html        e.g. templates/shinjuku/ward.html (a game's own page)
    scan/<game>-<kind>.html   the companion's page for that kind
    scan/component.html       the generic page: what it is, how many, where to go next

The phone remembers the table it joined (cookie TABLE_COOKIE, set by the table page); when that
table plays this game, handlers get it (`joined`) and can show its live view of the component.
"""
from __future__ import annotations

from typing import Callable

from flask import Blueprint, current_app, render_template, request, url_for

from . import codes, jsonapi
from .catalog import Game
from .errors import ApiError
from .services import services

bp = Blueprint("scan", __name__)

Handler = Callable[[Game, str, "dict | None"], "dict | None"]
HANDLERS: dict[tuple[str, str], Handler] = {}


def handler(game: str, kind: str):
    def register(fn: Handler) -> Handler:
        HANDLERS[game, kind] = fn
        return fn
    return register


def generic(game: Game, item_id: str, joined: dict | None) -> dict | None:
    """Any component the game's canonical data lists."""
    kind = request.view_args["kind"]
    for c in _components(game):
        if c.kind == kind and c.id == item_id:
            return {"component": c}
    return None


def _components(game: Game) -> list:
    try:
        return game.data.components() if game.data is not None else []
    except Exception:  # noqa: BLE001 - a game whose data is half-written
        return []


def joined_table(game: Game) -> dict | None:
    """The table this phone joined (cookies set by the table page), if it plays `game`:
    {"code", "players", "me" (this phone's player index or None), "state" (whole state)}."""
    cookies = request.cookies
    code = codes.normalize(cookies.get(current_app.config["TABLE_COOKIE"], ""))
    if not code:
        return None
    try:
        row, state = services().tables.state(code)
    except ApiError:
        return None
    me = jsonapi.digits(cookies.get(current_app.config["TABLE_COOKIE"] + "_player"), 2)
    me = me if me is not None and me < len(row.players) else None
    return {"code": row.code, "players": row.players, "me": me, "state": state} \
        if row.game == game.id else None


@bp.get("/q/<game>/<kind>/<id>")
def scanned(game, kind, id):  # noqa: A002 - the names of API.md's /q/<game>/<kind>/<id>
    game_id, item_id = game, id
    game = services().games.get(game_id)
    what = {"game": game_id, "kind": kind, "id": item_id,
            "game_name": game.name if game else None}
    if game is None:
        return render_template("scan/not_found.html", what=what,
                               problem=f"This companion does not know a game called “{game_id}”."), 404
    joined = joined_table(game)
    context = HANDLERS.get((game_id, kind), generic)(game, item_id, joined)
    if context is None:
        return render_template("scan/not_found.html", what=what,
                               problem=f"{game.name} has no {kind.replace('-', ' ')} “{item_id}”."), 404
    templates = [f"{game_id}/{kind}.html", f"scan/{game_id}-{kind}.html", "scan/component.html"]
    return render_template(templates, game=game, kind=kind, item_id=item_id, what=what,
                           joined=joined, table_url=url_for("pages.table", code=joined["code"])
                           if joined else None, **context)


# The games' own scan pages register here.
from . import scan_shinjuku  # noqa: E402,F401
