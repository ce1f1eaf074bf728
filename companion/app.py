"""The companion's app factory.

`create_app(config)` builds the app: one SQLite event store in DATA_DIR, the games found in
companion.games, and one blueprint per area (api_tables, api_clock, api_calculators, openapi,
pages, scan). `python -m companion` serves it with waitress (see __main__.py).
"""
from __future__ import annotations

from pathlib import Path

from flask import Flask

from . import catalog, errors
from .config import DEFAULTS
from .live import Hub
from .services import Services
from .store import Store
from .tables import Tables


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(DEFAULTS)
    app.config.from_mapping(config or {})
    app.json.sort_keys = False
    app.json.ensure_ascii = False

    data_dir = Path(app.config["DATA_DIR"] or app.instance_path)
    store = Store(data_dir / "companion.sqlite3", app.config["BUSY_TIMEOUT_MS"])
    games = catalog.discover(app.config["EXTRA_GAMES"])
    clock = app.config["CLOCK"]
    hub = Hub(app.config["SSE_MAX_STREAMS"])
    tables = Tables(store, games, clock, hub.notify, app.config["SNAPSHOT_EVERY"],
                    app.config["VIEW_CACHE_DEPTH"])
    app.extensions["tokyo"] = Services(store, tables, hub, games, clock)

    from . import api_calculators, api_clock, api_tables, openapi, pages, scan
    for module in (api_tables, api_clock, api_calculators, openapi, pages, scan):
        app.register_blueprint(module.bp)
    errors.register(app)
    return app
