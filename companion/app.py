"""The companion's app factory.

`create_app(config)` builds the app: one event store (SQLite in DATA_DIR, or PostgreSQL at
DATABASE_URL for the hosted companion's several workers: companion/store/postgres.py), the games of the registry
(companion.catalog), the generic blueprints (api_tables, api_clock, api_plays, openapi, pages, scan)
and each game's own Blueprint (its web.py), the timer-expiry scheduler and the error handlers.
`python -m companion` serves it with waitress (see companion/serve/cli.py).
"""
from __future__ import annotations

from pathlib import Path

from flask import Flask

from . import catalog
from .web import error_pages, reach, security
from .config import DEFAULTS, ServerClock
from .tables.expiry import Expiry, SharedExpiry
from .live.sse import Hub
from .services import Services
from .store.sqlite import Store
from .tables.service import Tables


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(DEFAULTS)
    app.config.from_mapping(config or {})
    app.json.sort_keys = False
    app.json.ensure_ascii = False

    if app.config["DATABASE_URL"]:
        from .store.postgres import PgStore
        store = PgStore(app.config["DATABASE_URL"])
    else:
        data_dir = Path(app.config["DATA_DIR"] or app.instance_path)
        store = Store(data_dir / "companion.sqlite3", app.config["BUSY_TIMEOUT_MS"])
    games = catalog.discover(app.config["EXTRA_GAMES"])
    clock = app.config["CLOCK"] or ServerClock()
    hub = Hub(app.config["SSE_MAX_STREAMS"], app.config["SSE_PER_CLIENT"])
    tables = Tables(store, games, clock, hub.notify, app.config["SNAPSHOT_EVERY"],
                    app.config["VIEW_CACHE_DEPTH"])
    expiry = Expiry(tables, clock) if store.single_writer else SharedExpiry(tables, clock, store)
    tables.on_due = expiry.schedule
    hub.on_stop(expiry.stop)
    if not store.single_writer:
        share_changes(app, store, hub, expiry)
    app.extensions["tokyo"] = Services(store, tables, hub, games, clock, expiry)

    from .web import api_clock, api_plays, api_tables, app_shell, openapi, pages, scan
    for module in (api_tables, api_clock, api_plays, openapi, pages, scan, app_shell):
        app.register_blueprint(module.bp)
    for game in games.values():
        if game.web is not None:
            app.register_blueprint(game.web.blueprint)
    error_pages.register(app)
    security.register(app)
    reach.register(app)
    if app.config["LANE"]:
        from .web.lane import Lane
        app.wsgi_app = Lane(app, app.wsgi_app)   # (moves and reads skip Flask's request machinery)
    tables.load_deadlines()   # timers that were running when the server stopped
    return app


def share_changes(app: Flask, store, hub: Hub, expiry: SharedExpiry) -> None:
    """Several workers over one database: every worker's `notify(code)` is called for every write
    of any worker to a table its live streams follow (LISTEN/NOTIFY, companion/live/pg_fanout.py),
    its timer scheduler is poked for every deadline any worker sets, and it runs."""
    from .live.pg_fanout import Listener

    def notify(code: str | None) -> None:
        if code is not None:
            hub.notify(code)     # this worker's live streams of the table look again
        else:
            hub.notify_all()     # (changes may have been missed: every stream looks again)

    listener = Listener(store.url, notify, on_gone=hub.stop, on_deadline=expiry.poke,
                        followed=hub.followed)
    hub.on_follow(listener.poke)     # (before start: a stream may follow a table at once)
    app.extensions["tokyo.listener"] = listener
    listener.start()
    hub.on_stop(listener.stop)
    hub.on_stop(store.close)
    expiry.start()
