"""/q/<game>/<kind>/<id>: the page a printed QR code opens, with or without a table.

A game's web part registers a handler per kind (GameWeb.scan). A handler returns the template
context for the scanned component, or None when there is no such component (friendly 404 naming
what was scanned). Kinds without a handler get the generic page of any component the game's data
lists. The page template is chosen by name, most specific first, so a game can plug in its own:

    <game>/scan-<kind>.html   the game's page for that kind (in its templates/<game>/)
    scan/component.html       the generic page: what it is, how many, where to go next

/q: the same pages by the short code printed under every QR code (generator.qr.short_code, e.g.
"K7Q4M"), typed by a player whose phone cannot scan. Codes are known for every game's kit (built in
memory once) and for the QR codes listed in output/manifest.json.

The phone remembers the table it joined (cookie TABLE_COOKIE, set by the table page) and its seat
token (cookie TABLE_COOKIE + "_token"); when that table plays this game, handlers get it (`joined`)
and can show its live view of the component, as that seat may see it.
"""
from __future__ import annotations

import json
import logging
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, current_app, redirect, render_template, request, url_for

from generator.qr import SHORT_LENGTH, normalize_short_code, qr_path, short_code

from ..tables import codes
from ..catalog import Game
from ..errors import ApiError
from ..games.contract import HOST
from ..services import services

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


@lru_cache(maxsize=1)
def kit_targets() -> dict[str, str]:
    """{short code: "/q/<game>/<kind>/<id>"} for every QR code of every game's kit (drawn nowhere:
    only the kits' lists of components are made)."""
    from generator.build import qr_codes
    from generator.kits import games_with_kits, make_kit
    from generator.kits.base import KitContext

    targets: dict[str, str] = {}
    for game in games_with_kits():
        try:
            payloads = [q["payload"] for q in qr_codes(game, make_kit(game, KitContext()))]
        except Exception:  # noqa: BLE001 - a game whose kit does not build: its codes are unknown
            logging.getLogger(__name__).exception("the QR codes of %s's kit are unknown", game)
            continue
        for payload in payloads:
            targets.setdefault(short_code(payload), qr_path(payload))
    return targets


def manifest_targets(output: Path) -> dict[str, str]:
    """{short code: path} of the QR codes output/manifest.json lists (the kits built here)."""
    try:
        qrs = json.loads((Path(output) / "manifest.json").read_text(encoding="utf-8"))["qr"]
        payloads = [q["payload"] for q in qrs if isinstance(q.get("payload"), str)]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
    return {short_code(p): qr_path(p) for p in payloads if "/q/" in p}


def resolve(typed: str) -> tuple[str | None, str | None]:
    """(the page of the QR code whose short code was typed, None) or (None, what is wrong)."""
    code = normalize_short_code(typed)
    if not code:
        return None, f"Type the {SHORT_LENGTH} letters and digits printed under the QR code."
    if len(code) != SHORT_LENGTH:
        return None, (f"“{typed.strip()}” has {len(code)} letters and digits; a code under a QR code "
                      f"has {SHORT_LENGTH}, like K7Q4M.")
    path = manifest_targets(current_app.config["OUTPUT_DIR"]).get(code) or kit_targets().get(code)
    if path is None:
        return None, (f"No printed QR code has the code “{code}”. Check the {SHORT_LENGTH} characters "
                      "under the QR code (0 is zero; there is no letter O, I, L or U).")
    return path, None


@bp.get("/q")
def typed():
    """The short code typed: off to the page its QR code opens, or the form again with why not."""
    text = request.args.get("code")
    if text is None:
        return render_template("scan/typed.html", problem=None, typed="")
    path, problem = resolve(text)
    if path is not None:
        return redirect(path, code=303)
    return render_template("scan/typed.html", problem=problem, typed=text), 404
