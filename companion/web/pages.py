"""The HTML pages every game shares: home, new table, join, table, board twin, kit downloads.

Pages are thin: they render a skeleton with the facts the server knows, and static/*.js does the
rest through the JSON API (the same one scripts use). A game's own pages (its board twin, its
calculators) live in its web.py; these pages find them through `game.web` and never name a game.
"""
from __future__ import annotations

from flask import (Blueprint, Response, abort, current_app, redirect, render_template, request,
                   send_from_directory, url_for)

from generator.bundle import bundled

from ..tables import codes
from . import kits, qr
from ..errors import ApiError
from .security import absolute
from ..services import services

bp = Blueprint("pages", __name__)

#: finished plays listed on the home page
RECENT_PLAYS = 10


@bp.get("/")
def home():
    s = services()
    return render_template("home.html", games=list(s.games.values()),
                           kits=kits.listing(current_app.config["OUTPUT_DIR"]),
                           plays=s.tables.plays(limit=RECENT_PLAYS))


@bp.app_template_filter("bgstats")
def bgstats_filter(play: dict) -> str:
    """{{ play|bgstats }}: the link that opens the play in BG Stats (api_plays.bgstats_link)."""
    from .api_plays import bgstats_link
    return bgstats_link(play)


@bp.get("/plays")
def plays():
    return render_template("plays.html", plays=services().tables.plays(), bgstats=True)


@bp.get("/new/<game_id>")
def new_table(game_id):
    game = services().games.get(game_id)
    if game is None or not game.playable:
        abort(404)
    return render_template("new_table.html", game=game,
                           options_template=game.web.options_template if game.web else None)


@bp.get("/join")
def join():
    typed = request.args.get("code")
    if typed is None:
        return render_template("join.html", problem=None, typed="")
    code = codes.normalize(typed)
    if code and services().tables.exists(code):
        return redirect(url_for("pages.table", code=code))
    problem = (f"No table has the code “{typed}”. Check it with the person who started the table."
               if code else "A table code is 8 letters and digits, like ABCD-1234.")
    return render_template("join.html", problem=problem, typed=typed), 404


def table_or_404(code: str) -> dict:
    """The table (as anyone may see it), or the friendly 404 page naming the code."""
    canonical = codes.normalize(code)
    if canonical is None:
        raise ApiError(404, f"“{code}” is not a table code: a code is 8 letters and digits, "
                            "like ABCD-1234.")
    return services().tables.get(canonical)


@bp.get("/t/<code>")
def table(code):
    t = table_or_404(code)
    if t["code"] != code:
        return redirect(url_for("pages.table", code=t["code"]))
    game = services().games[t["game"]]
    web = game.web
    return render_template("table.html", table=t, game=game, code_display=codes.display(t["code"]),
                           join_url=absolute("pages.table", code=t["code"]),
                           board=bool(web and web.board),
                           calculators=web.calculators if web else ())


@bp.get("/t/<code>/board")
def board(code):
    t = table_or_404(code)
    game = services().games[t["game"]]
    if game.web is None or game.web.board is None:
        abort(404)
    return game.web.board(game, t)


@bp.get("/t/<code>/qr.svg")
def table_qr(code):
    t = table_or_404(code)
    svg = qr.svg(absolute("pages.table", code=t["code"]))
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "max-age=3600"})


#: The project's own Noto Sans JP subset (assets/fonts, SIL OFL): the pages' kanji show on a phone or
#: computer without a Japanese font too (app.css loads it only for the Japanese characters).
FONTS = ("NotoSansJP-Kit-Regular.ttf", "NotoSansJP-Kit-Bold.ttf", "OFL.txt")


@bp.get("/fonts/<name>")
def font(name):
    if name not in FONTS:
        abort(404)
    response = send_from_directory(bundled("assets") / "fonts", name, max_age=31536000)
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


@bp.get("/kits/<path:name>")
def kit_file(name):
    return send_from_directory(current_app.config["OUTPUT_DIR"], name, as_attachment=False)
