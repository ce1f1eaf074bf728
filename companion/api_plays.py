"""The records of finished plays: GET /api/plays (JSON) and GET /api/plays.csv (a spreadsheet).

A play is recorded by the move that ends its game (tables.py) and forgotten again if that move is
undone: players, each score with its breakdown, the winners, when it started and ended.
"""
from __future__ import annotations

import csv
import io
from datetime import datetime, timezone

from flask import Blueprint, Response, jsonify, request

from .errors import ApiError
from .services import services

bp = Blueprint("api_plays", __name__, url_prefix="/api")

MAX_PLAYS = 1000


def _game_filter() -> str | None:
    game = request.args.get("game")
    if game is not None and game not in services().games:
        raise ApiError(404, f"There is no game {game[:40]!r}.")
    return game


@bp.get("/plays")
def plays():
    return jsonify({"plays": services().tables.plays(_game_filter(), MAX_PLAYS)})


@bp.get("/plays.csv")
def plays_csv():
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["ended (UTC)", "game", "table", "minutes", "players", "winners", "unit",
                     "scores"])
    for p in services().tables.plays(_game_filter(), MAX_PLAYS):
        names = p["players"]
        writer.writerow([cell(v) for v in (
            iso(p["ended_ms"]), p["game_name"], p["code"], round(p["duration_ms"] / 60000, 1),
            "; ".join(names), "; ".join(names[w] for w in p["winners"] if 0 <= w < len(names)),
            p["unit"], "; ".join(f"{s['name']} {s['score']}" for s in p["scores"]))])
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": "attachment; filename=plays.csv"})


#: A text cell a spreadsheet would read as a formula begins with one of these.
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def cell(value):
    """A CSV cell a spreadsheet shows as the text it is: one that would start a formula (a player
    named =HYPERLINK(…) or @SUM(…)) gets a leading apostrophe, as OWASP advises."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA) else value


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, timezone.utc).strftime("%Y-%m-%d %H:%M")
