"""/q/<game>/<kind>/<id>: the page a printed QR code opens, with or without a table.

A game's web part registers a handler per kind (GameWeb.scan). A handler returns the template
context for the scanned component, or None when there is no such component (friendly 404 naming
what was scanned). Kinds without a handler get the generic page of any component the game's data
lists. The page template is chosen by name, most specific first, so a game can plug in its own:

    <game>/scan-<kind>.html   the game's page for that kind (in its templates/<game>/)
    scan/component.html       the generic page: what it is, how many, where to go next

The phone remembers the table it joined (cookie TABLE_COOKIE, set by the table page) and its seat
token (cookie TABLE_COOKIE + "_token"); when that table plays this game, handlers get it (`joined`)
and can show its live view of the component, as that seat may see it.
"""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, request, url_for

from . import codes
from .catalog import Game
from .errors import ApiError
from .games.contract import HOST
from .services import services

bp = Blueprint("scan", __name__)


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
    {"code", "players", "me" (the seat this phone's token holds, or None), "host" (bool),
    "state" (the whole state: handlers show only what `me` may see)}."""
    cookies = request.cookies
    name = current_app.config["TABLE_COOKIE"]
    code = codes.normalize(cookies.get(name, ""))
    if not code:
        return None
    tables = services().tables
    try:
        row, state = tables.state(code)
        who = tables.who(code, cookies.get(name + "_token") or None)
    except ApiError:
        return None
    if row.game != game.id:
        return None
    return {"code": row.code, "players": row.players, "me": who if isinstance(who, int) else None,
            "host": who == HOST, "state": state}


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
    handlers = game.web.scan if game.web else {}
    context = handlers.get(kind, generic)(game, item_id, joined)
    if context is None:
        return render_template("scan/not_found.html", what=what,
                               problem=f"{game.name} has no {kind.replace('-', ' ')} “{item_id}”."), 404
    templates = [f"{game_id}/scan-{kind}.html", "scan/component.html"]
    return render_template(templates, game=game, kind=kind, item_id=item_id, what=what,
                           joined=joined, table_url=url_for("pages.table", code=joined["code"])
                           if joined else None, **context)
