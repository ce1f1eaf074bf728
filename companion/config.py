"""Every setting of the companion, in one place.

`create_app(config)` starts from DEFAULTS and overrides them with `config`; the command line
(`python -m companion`) fills DATA_DIR, THREADS and friends from its options.
"""
from __future__ import annotations

import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: The name the companion advertises with --lan (mDNS): phones open http://tokyo-kit.local:<port>.
MDNS_NAME = "tokyo-kit"


class ServerClock:
    """Server time in Unix epoch milliseconds (what `GET /api/time` answers), read off the monotonic
    clock from the wall-clock time at start: within a run it never jumps back (an NTP step or a
    changed system clock would otherwise move every timer's deadline)."""

    def __init__(self):
        self._epoch_ns = time.time_ns()
        self._mono_ns = time.monotonic_ns()

    def __call__(self) -> int:
        return (self._epoch_ns + time.monotonic_ns() - self._mono_ns) // 1_000_000


DEFAULTS: dict = {
    # Where the SQLite database lives; None = the Flask instance folder.
    "DATA_DIR": None,
    # postgresql://user:password@host/db: the hosted companion's database (several workers may
    # share it; companion/store/postgres.py). None: SQLite in DATA_DIR.
    "DATABASE_URL": None,
    # The address phones use, e.g. "http://192.168.1.20:5000": a table's url and join QR are built
    # from it, never from a request's Host header. None: the request's own host (tests).
    "BASE_URL": None,
    # Other addresses of the companion's own pages whose writes are accepted (Origin), beside
    # BASE_URL and loopback: with --lan, the LAN address beside the .local name.
    "ALLOWED_ORIGINS": (),
    # Request bodies above this get 413 (API.md: 64 KB).
    "MAX_CONTENT_LENGTH": 64 * 1024,
    # POST …/moves, GET /api/tables/<code> and GET …/legal answered by the lane (companion/web/lane.py:
    # the same answers without Flask's request machinery). False: by the Flask views, as the rest.
    "LANE": True,
    # Callable returning epoch ms (None: a ServerClock made by create_app). Tests inject a fake
    # clock to decide timer expiry deterministically.
    "CLOCK": None,
    # Waitress task threads (the live streams of the companion's own server hold none).
    "THREADS": 32,
    # Requests the app works on at once per process (companion.serve.server.Admission); the others wait
    # their turn in the server's threads. None: all of them.
    "REQUESTS_AT_ONCE": 8,
    # Live streams served by the companion's own server leave waitress for one asyncio loop per
    # process (companion/live/streams.py): at most this many at once per process (fewer when the process
    # may not open that many files); more get 503 and the page falls back to polling.
    "LIVE_MAX_STREAMS": 2000,
    # Under any other WSGI server (and for HEAD) each stream holds a thread: at most this many at
    # once, so that ordinary requests always find a free thread.
    "SSE_MAX_STREAMS": 24,
    # Live streams one client address may hold (a phone needs one; a laptop with a few tabs more).
    "SSE_PER_CLIENT": 4,
    # Connections one client address may hold at once (companion.serve.server). Behind a reverse proxy
    # every phone comes from the proxy's address: raise both (--connections-per-address,
    # --streams-per-address).
    "CONNECTIONS_PER_ADDRESS": 24,
    # A comment line this often keeps proxies and phones from dropping an idle stream and frees the
    # thread of a phone that went away (the write fails).
    "SSE_HEARTBEAT_S": 15.0,
    # A stream ends after this long; the browser reconnects with Last-Event-ID (nothing is lost).
    "SSE_MAX_S": 300.0,
    # Milliseconds the browser waits before reconnecting a dropped stream.
    "SSE_RETRY_MS": 1000,
    # A snapshot of the derived state is stored every this many events (replay starts there).
    "SNAPSHOT_EVERY": 50,
    # Derived views kept in memory per table (the latest ones; undo usually finds its state here).
    "VIEW_CACHE_DEPTH": 16,
    # SQLite busy timeout in milliseconds.
    "BUSY_TIMEOUT_MS": 10_000,
    # Where the generator writes the printable kits (the home page lists output/manifest.json).
    "OUTPUT_DIR": REPO / "output",
    # Extra games {id: companion.catalog.Game}, added to those found in companion.games (tests).
    "EXTRA_GAMES": {},
    # Cookie that remembers the table this phone joined (for the /q/ pages).
    "TABLE_COOKIE": "tk_table",
}
