"""The HTML pages: home, new table, join, table, the game's board twin, calculators, kit downloads.

Pages are thin: they render a skeleton with the facts the server knows, and static/*.js does the
rest through the JSON API (the same one scripts use).
"""
from __future__ import annotations

from flask import (Blueprint, Response, abort, current_app, redirect, render_template, request,
                   send_from_directory, url_for)

from . import codes, kits, qr
from .errors import ApiError
from .services import services

bp = Blueprint("pages", __name__)

#: game id -> template of its board twin (each action entered by tapping)
BOARD_TWINS = {"shinjuku": "play/shinjuku_board.html"}
#: game id -> (endpoint, label) of its calculator page
CALCULATORS = {"shinjuku": ("pages.shinjuku_score", "Scoring calculator")}


@bp.get("/")
def home():
    s = services()
    return render_template("home.html", games=list(s.games.values()), calculators=CALCULATORS,
                           kits=kits.listing(current_app.config["OUTPUT_DIR"]))


@bp.get("/new/<game_id>")
def new_table(game_id):
    game = services().games.get(game_id)
    if game is None or not game.playable:
        abort(404)
    return render_template("new_table.html", game=game)


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


def _table_or_404(code: str) -> dict:
    """The table, or the friendly 404 page naming the code (ApiError renders as HTML here)."""
    canonical = codes.normalize(code)
    if canonical is None:
        raise ApiError(404, f"“{code}” is not a table code: a code is 8 letters and digits, "
                            "like ABCD-1234.")
    return services().tables.get(canonical)


@bp.get("/t/<code>")
def table(code):
    t = _table_or_404(code)
    if t["code"] != code:
        return redirect(url_for("pages.table", code=t["code"]))
    game = services().games[t["game"]]
    return render_template("table.html", table=t, game=game, code_display=codes.display(t["code"]),
                           join_url=url_for("pages.table", code=t["code"], _external=True),
                           board=t["game"] in BOARD_TWINS, calculator=CALCULATORS.get(t["game"]))


@bp.get("/t/<code>/board")
def board(code):
    t = _table_or_404(code)
    if t["game"] not in BOARD_TWINS:
        abort(404)
    game = services().games[t["game"]]
    from .shinjuku_map import map_version
    # The page never waits for the map's first drawing (a few seconds): the script fetches it.
    map_url = url_for("pages.shinjuku_map", v=map_version(game.data))
    return render_template(BOARD_TWINS[t["game"]], table=t, game=game, map_url=map_url,
                           code_display=codes.display(t["code"]), board=shinjuku_board_data(game.data))


def shinjuku_board_data(data) -> dict:
    """What the board twin's buttons need, from the canonical data (wards, stations, links, tokens)."""
    links: dict[str, list] = {s.id: [] for s in data.stations}
    for c in data.connections:
        a, b = c.stations
        links[a].append([b, c.id])
        links[b].append([a, c.id])
    return {
        "wards": [{"id": w.id, "name": w.name, "kanji": w.kanji, "number": w.number,
                   "stations": [s.id for s in data.stations_in[w.id]]} for w in data.wards],
        "stations": {s.id: {"name": s.name, "kanji": s.kanji, "ward": s.ward, "sakura": s.sakura,
                            "links": links[s.id]} for s in data.stations},
        "goods": [{"id": t.id, "name": t.name} for t in data.customers.type],
        "tokens": [{"id": c.id, "label": c.label} for c in data.components() if c.kind == "customer"],
        "connections": {c.id: list(c.stations) for c in data.connections},
        "colours": {c.id: c.hex for c in data.pieces.colour},
        "colour_names": {c.id: c.name for c in data.pieces.colour},
        "hand_size": data.rules.hand_size, "seed_customers": data.rules.seed_customers_per_ward,
        "queue_slots": len(data.rules.queue_slots), "queue_start": data.rules.queue_start_customers,
        "cards_as_wild": data.rules.cards_as_wild,
    }


@bp.get("/shinjuku/map.svg")
def shinjuku_map():
    """The board twin's static map (companion/shinjuku_map.py), drawn once per process. Once drawn,
    the board page asks for it with ?v=<etag>: that URL never changes content, so phones keep it;
    without (or with an old) v, it is revalidated by ETag. Gzipped when the phone accepts it."""
    game = services().games.get("shinjuku")
    if game is None or game.data is None:
        abort(404)
    from .shinjuku_map import map_svg, map_svg_gzip
    svg, etag = map_svg(game.data)
    cache = "public, max-age=31536000, immutable" if request.args.get("v") == etag else "no-cache"
    headers = {"ETag": f'"{etag}"', "Cache-Control": cache, "Vary": "Accept-Encoding"}
    if request.if_none_match.contains(etag):
        return Response(status=304, headers=headers)
    if "gzip" in request.accept_encodings:
        headers["Content-Encoding"] = "gzip"
        return Response(map_svg_gzip(game.data), mimetype="image/svg+xml", headers=headers)
    return Response(svg, mimetype="image/svg+xml", headers=headers)


@bp.get("/t/<code>/qr.svg")
def table_qr(code):
    t = _table_or_404(code)
    svg = qr.svg(url_for("pages.table", code=t["code"], _external=True))
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "max-age=3600"})


@bp.get("/shinjuku/score")
def shinjuku_score():
    game = services().games.get("shinjuku")
    if game is None or game.data is None:
        abort(404)
    from .api_calculators import shinjuku_limits
    most, most_wild = shinjuku_limits(game.data)
    return render_template("calc/shinjuku_score.html", game=game, types=game.data.customers.type,
                           most=most, most_wild=most_wild)


@bp.get("/kits/<path:name>")
def kit_file(name):
    return send_from_directory(current_app.config["OUTPUT_DIR"], name, as_attachment=False)
