"""What a game's web part (companion/games/<pkg>/web.py) gives the generic companion: `GameWeb`.

The generic pages, scan pages, OpenAPI document and start-up never name a game: they ask each game's
`WEB` for its Blueprint (its own pages and calculators, templates in templates/<game>/, static files
in static/<game>/), its board twin, its calculators, its /q handlers, its part of the OpenAPI
document, the options part of the new-table form and its warm-up.

`GameBlueprint` is the Blueprint a game's web part starts from, with what every game's views repeat:
the game looked up (a JSON 404 for the API, a page 404 for pages), the board page rendered with the
table's code, a calculator's answer (400 / 422 / JSON), an SVG drawn once and cached by its ETag.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Callable

from flask import Blueprint, Response, abort, jsonify, render_template, request

from ..errors import ApiError
from ..services import services
from ..tables import codes

#: /q/<game>/<kind>/<id> handler: (game, item id, joined table or None) -> template context or None
ScanHandler = Callable[[Any, str, "dict | None"], "dict | None"]


@dataclasses.dataclass(frozen=True)
class Calculator:
    endpoint: str            # the calculator page's endpoint, "<game>.<view function>"
    label: str               # its link text


@dataclasses.dataclass(frozen=True)
class GameWeb:
    blueprint: Blueprint
    #: the board twin of a table: (game, table as GET /api/tables shows it) -> response; None: none
    board: Callable[[Any, dict], Any] | None = None
    calculators: tuple[Calculator, ...] = ()
    #: kind -> handler of /q/<game>/<kind>/<id> (kinds without one get the generic component page)
    scan: dict[str, ScanHandler] = dataclasses.field(default_factory=dict)
    #: this game's part of the OpenAPI document: {"paths": {...}, "schemas": {...}}
    openapi: dict = dataclasses.field(default_factory=dict)
    #: template included in the new-table form (the game's options), or None
    options_template: str | None = None
    #: work done once at server start (in a background thread), e.g. drawing the board twin's map
    warm_up: Callable[[Any], None] | None = None


class GameBlueprint(Blueprint):
    """The Blueprint of a game's web part (`import_name`: its web module's __name__), with the
    templates/ and static/ folders beside web.py; static files (static/<game>/…) are served under
    /static/games/<game>/<game>/…, so a page links them with url_for("<game>.static", filename=…).
    `name` is the game's name as a refusal says it ("<name> is not available in this companion.")."""

    def __init__(self, game_id: str, import_name: str, name: str):
        super().__init__(game_id, import_name, template_folder="templates")
        if (Path(self.root_path) / "static").is_dir():
            self.static_folder = "static"
            self.static_url_path = f"/static/games/{game_id}"
        self.game_id, self.game_name = game_id, name

    def game(self, *, page: bool = False, playable: bool = True):
        """This game as the catalog holds it, or a 404: JSON for the API (it names the game), the
        friendly page for a page (`page=True`). `playable=False` also serves a game whose rules are
        missing (its data alone: a calculator page, the printed board's drawing)."""
        game = services().games.get(self.game_id)
        if game is None or game.data is None or (playable and not game.playable):
            if page:
                abort(404)
            raise ApiError(404, f"{self.game_name} is not available in this companion.")
        return game

    @staticmethod
    def board_page(template: str, game, table: dict, **context):
        """The board twin of `table` (as GET /api/tables shows it), with its code as people read it."""
        return render_template(template, table=table, game=game, code_display=codes.display(table["code"]),
                               **context)


def calculated(bad: list[str], impossible: list[str], answer: dict, refusal: str):
    """A calculator's answer (API.md): the first of `bad` as a 400 (the request is malformed), else
    `impossible` as a 422 with every reason under the sentence `refusal`, else the answer."""
    if bad:
        raise ApiError(400, bad[0])
    if impossible:
        raise ApiError(422, refusal, impossible)
    return jsonify(answer)


def svg_response(svg: str, etag: str, gzipped: Callable[[], bytes] | None = None) -> Response:
    """A drawing that changes only with the data: cached for good under ?v=<etag>, else revalidated
    by its ETag; `gzipped()` (the same drawing compressed) is sent to a phone that accepts gzip."""
    cache = "public, max-age=31536000, immutable" if request.args.get("v") == etag else "no-cache"
    headers = {"ETag": f'"{etag}"', "Cache-Control": cache}
    if gzipped is not None:
        headers["Vary"] = "Accept-Encoding"
    if request.if_none_match.contains(etag):
        return Response(status=304, headers=headers)
    if gzipped is not None and "gzip" in request.accept_encodings:
        headers["Content-Encoding"] = "gzip"
        return Response(gzipped(), mimetype="image/svg+xml", headers=headers)
    return Response(svg, mimetype="image/svg+xml", headers=headers)
