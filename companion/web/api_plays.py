"""The records of finished plays: GET /api/plays (JSON) and GET /api/plays.csv (a spreadsheet).

A play is recorded by the move that ends its game (tables.py) and forgotten again if that move is
undone: players, each score with its breakdown, the winners, when it started and ended.
"""
from __future__ import annotations

import csv
import io
import json
from datetime import datetime, timezone
from urllib.parse import quote

from flask import Blueprint, Response, jsonify, request

from ..errors import ApiError
from ..services import services

bp = Blueprint("api_plays", __name__, url_prefix="/api")

MAX_PLAYS = 1000


def _game_filter() -> str | None:
    game = request.args.get("game")
    if game is not None and game not in services().games:
        raise ApiError(404, f"There is no game {game[:40]!r}.")
    return game


@bp.get("/plays")
def plays():
    found = services().tables.plays(_game_filter(), MAX_PLAYS)
    if request.args.get("table"):
        found = [p for p in found if p["code"] == request.args["table"]]
    return jsonify({"plays": [dict(p, bgstats=bgstats_link(p)) for p in found]})


#: BG Stats' documented "push plays from other apps" link (../shared/reference/companion-practices.md)
BGSTATS = "https://app.bgstatsapp.com/createPlay.html?data="


def places(play: dict) -> dict[int, int]:
    """Each player's place (1 = first; shared places share the number, the next one skips): the
    winners first (the game's own tie-breaks chose them), then by score, highest first."""
    winners = set(play.get("winners") or [])
    key = {s["player"]: (s["player"] in winners, s["score"]) for s in play.get("scores") or []}
    return {p: 1 + sum(1 for q in key.values() if q > k) for p, k in key.items()}


def bgstats_play(play: dict, start_player: int | None = None) -> dict:
    """The play as BG Stats' import reads it: playDate (local wall time is unknown here: UTC),
    durationMin, game {name, highestWins, noPoints, sourceGameId}, players [{name, score, winner,
    rank, startPlayer, sourcePlayerId}]."""
    rank, winners = places(play), set(play.get("winners") or [])
    started = datetime.fromtimestamp(play["started_ms"] / 1000, timezone.utc)
    return {"playDate": started.strftime("%Y-%m-%d %H:%M:%S"),
            "durationMin": max(1, round(play["duration_ms"] / 60000)),
            "comments": f"Tokyo table kit, table {play['code']}",
            "game": {"name": play["game_name"], "highestWins": True, "noPoints": False,
                     "sourceGameId": play["game"]},
            "players": [{"name": s["name"], "score": s["score"], "winner": s["player"] in winners,
                         "rank": rank[s["player"]], "startPlayer": s["player"] == start_player,
                         "sourcePlayerId": f"{play['code']}-{s['player']}"}
                        for s in play.get("scores") or []]}


def bgstats_link(play: dict) -> str:
    """The link that opens BG Stats' import dialog with this play (the start player is the table's
    option "start_player" where the game has one; otherwise none is named)."""
    table = services().tables.exists(play["code"])
    start = (table.options or {}).get("start_player") if table else None
    data = bgstats_play(play, start if isinstance(start, int) and not isinstance(start, bool) else None)
    return BGSTATS + quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")


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


# ---------------------------------------------------------------------------------- the game's chart
#: the most points a chart carries (a long game keeps every n-th change, and the last)
MAX_POINTS = 120
_charts: dict[tuple[str, int], dict] = {}


@bp.get("/plays/<code>/chart")
def chart(code):
    """How a finished play went, where the game keeps a running score in its public state: each
    player's number under the result's unit (state.players[i][unit], e.g. yen, fame or points)
    after each round where the state counts rounds, else
    after each move that changed one. A game without such a number has no chart ("points": [])."""
    from . import reading
    code = reading.table_code(code)
    tables = services().tables
    table = tables.exists(code)
    if table is None:
        raise ApiError(404, f"There is no table {code}.")
    seq = tables.seq(code)
    if (code, seq) not in _charts:
        if len(_charts) > 64:
            _charts.clear()
        _charts[(code, seq)] = series(tables, table, seq)
    return jsonify(_charts[(code, seq)])


def series(tables, table, seq: int) -> dict:
    from ..tables.service import View
    game = tables.games[table.game]
    with tables.store.read() as tx:
        events = tx.events(table.code, 0, seq)
        view = View(0, game.setup(table.players, table.options, table.seed), {}, ())
        result = tables._view(tx, table, seq).result(game)
        if result is None:
            raise ApiError(422, "The game is not over: its chart comes with its result.")
        unit = result.get("unit")
        found = {0: view}
        samples = [(0, game.public_view(view.state, None))]
        for e in events:
            view = tables._replay_events(tx, table, view, [e], found)
            found[e.seq] = view
            if e.kind in ("move", "undo", "expire"):
                samples.append((e.seq, game.public_view(view.state, None)))
    points = []
    for at, state in samples:
        players = state.get("players") if isinstance(state, dict) else None
        if not isinstance(players, list) or len(players) != len(table.players):
            return {"unit": unit, "x": None, "points": []}
        values = [p.get(unit) if isinstance(p, dict) else None for p in players]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return {"unit": unit, "x": None, "points": []}
        rnd = state.get("round")
        points.append({"seq": at, "round": rnd if isinstance(rnd, int) else None, "values": values})
    by_round = bool(points) and all(p["round"] is not None for p in points)
    if by_round:
        # the value at the end of each round (the last sample of that round number)
        last: dict[int, dict] = {}
        for p in points:
            last[p["round"]] = p
        points = [last[r] for r in sorted(last)]
    else:
        kept = []
        for p in points:
            if not kept or p["values"] != kept[-1]["values"]:
                kept.append(p)
        points = kept
    if len(points) > MAX_POINTS:
        step = -(-len(points) // MAX_POINTS)
        points = points[::step] + ([points[-1]] if (len(points) - 1) % step else [])
    if len(points) < 2 or all(p["values"] == points[0]["values"] for p in points):
        points = []
    return {"unit": unit, "x": "round" if by_round else "move", "points": points}
