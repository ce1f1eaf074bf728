"""What a game's web part (companion/games/<pkg>/web.py) gives the generic companion: `GameWeb`.

The generic pages, scan pages, OpenAPI document and start-up never name a game: they ask each game's
`WEB` for its Blueprint (its own pages and calculators, templates in templates/<game>/, static files
in static/<game>/), its board twin, its calculators, its /q handlers, its part of the OpenAPI
document, the options part of the new-table form and its warm-up.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Callable

from flask import Blueprint

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


def blueprint(game_id: str, import_name: str) -> Blueprint:
    """The Blueprint of a game's web part (`import_name`: its web module's __name__), with the
    templates/ and static/ folders beside web.py; static files (static/<game>/…) are served under
    /static/games/<game>/<game>/…, so a page links them with url_for("<game>.static", filename=…)."""
    bp = Blueprint(game_id, import_name, template_folder="templates")
    if (Path(bp.root_path) / "static").is_dir():
        bp.static_folder = "static"
        bp.static_url_path = f"/static/games/{game_id}"
    return bp
