"""Helpers for tests and benchmarks: a fake clock and a server in a thread (the tests' own games are
in tests/testgames.py)."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from .tables import codes

#: Debian's Chromium for the browser tests and benchmarks: the headless shell (package
#: chromium-headless-shell: the same Blink, built for headless use, as Playwright itself runs headless)
#: when installed, at about half the CPU of the full browser (/usr/bin/chromium) run headless.
CHROMIUM_HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"
CHROMIUM_BROWSER = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_path() -> str:
    """The Chromium to drive: $TK_CHROMIUM when set (e.g. /usr/bin/chromium, to run the browser tests in
    the full browser), else the headless shell when installed, else the full browser (which may be
    missing too: callers skip or say so)."""
    chosen = os.environ.get("TK_CHROMIUM")
    if chosen:
        return chosen
    return CHROMIUM_HEADLESS_SHELL if Path(CHROMIUM_HEADLESS_SHELL).exists() else CHROMIUM_BROWSER


def launch_chromium(playwright, **options):
    """Chromium launched by a Playwright (sync API) whose phones, its new contexts, do not install the
    companion's service worker unless one asks (`new_context(service_workers="allow")`, as the
    offline test does): each fresh context would fetch the whole app shell again for it, and the
    worker's fetch-and-refresh doubles every later request for a script or font."""
    browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS, **options)
    new_context = browser.new_context

    def phone_context(**kw):
        kw.setdefault("service_workers", "block")
        return new_context(**kw)
    browser.new_context = phone_context
    return browser



class FakeClock:
    """An injectable CLOCK (epoch ms) that moves only when told to."""

    def __init__(self, now_ms: int = 1_700_000_000_000):
        self.now_ms = now_ms
        self._lock = threading.Lock()
        self._listeners = []

    def __call__(self) -> int:
        with self._lock:
            return self.now_ms

    def advance(self, ms: int) -> None:
        with self._lock:
            self.now_ms += ms
        for listener in list(self._listeners):
            listener()

    def listen(self, callback) -> None:
        """`callback()` after every advance (the expiry scheduler wakes to look at its deadlines)."""
        self._listeners.append(callback)


class ServerThread:
    """The companion's real server (companion.serve.server) for `app` on 127.0.0.1 and a free port, in a
    background thread: `with ServerThread(app) as s: … s.url …`. Leaving the block (or `close()`)
    stops it all, whatever fails on the way: the app's live streams, timers and database listener
    (hub.stop), the server's sockets and threads, and the serving thread."""

    def __init__(self, app, threads: int = 16, **options):
        from .serve.server import create_server
        self.app = app
        self.server = create_server(app, host="127.0.0.1", port=0, threads=threads, **options)
        self.url = f"http://127.0.0.1:{self.server.effective_port}"
        self.thread = threading.Thread(target=self.server.run, name="test-server", daemon=True)
        self.closed = False

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            self.app.extensions["tokyo"].hub.stop()   # live streams end before their sockets close
            time.sleep(0.1)
        finally:
            try:
                self.server.close()
            finally:
                # the connections still open (a browser's keep-alive ones) are closed too: with the
                # request threads gone, a request on one would wait for an answer forever
                for channel in list(getattr(self.server, "_map", {}).values()):
                    try:
                        channel.close()
                    except Exception:  # noqa: BLE001 - closing what is closed already
                        pass
                self.server.task_dispatcher.shutdown(timeout=5)    # (its request threads)
                if self.thread.is_alive():
                    self.thread.join(timeout=5)


class TokenClient:
    """Mixed into Flask's test client: keeps the host token of each table it creates and sends it
    (Authorization: Bearer) with later requests to that table, unless a request names its own
    Authorization (or `auth=False`). Tests of seats and tokens pass their own."""

    _codes = re.compile(r"^/api/tables/([^/?]+)")

    def open(self, *args, **kwargs):
        auth = kwargs.pop("auth", True)
        url = args[0] if args and isinstance(args[0], str) else kwargs.get("path", "")
        headers = dict(kwargs.pop("headers", None) or {})
        found = self._codes.match(url)
        tokens = self.__dict__.setdefault("host_tokens", {})
        if auth and found and "Authorization" not in headers:
            token = tokens.get(codes.normalize(found.group(1)) or found.group(1))
            if token:
                headers["Authorization"] = f"Bearer {token}"
        response = super().open(*args, headers=headers, **kwargs)
        if url.rstrip("/") == "/api/tables" and response.status_code == 201:
            body = response.get_json(silent=True) or {}
            if "host_token" in body:
                tokens[body["code"]] = body["host_token"]
        return response


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on now (for a companion started as its own process)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def token_client(app):
    """A test client of `app` that acts as the host of every table it creates (TokenClient)."""
    from flask.testing import FlaskClient

    class Client(TokenClient, FlaskClient):
        pass
    app.test_client_class = Client
    return app.test_client()


def seat_headers(client, code: str, player: int) -> dict:
    """Claim seat `player` of table `code` through `client` (a token_client, asking as nobody): the
    Authorization header of the seat's token."""
    r = client.post(f"/api/tables/{code}/seats", json={"player": player}, auth=False)
    assert r.status_code == 201, r.get_json()
    return {"Authorization": f"Bearer {r.get_json()['token']}"}


def start_companion(port: int, data: Path, timeout_s: float = 30.0) -> subprocess.Popen:
    """`python -m companion --port P --data DIR` as its own process, once it answers GET /api/time
    (its stdout and stderr piped, as text); an AssertionError with its stderr if it does not."""
    proc = subprocess.Popen([sys.executable, "-m", "companion", "--port", str(port), "--data", str(data)],
                            cwd=Path(__file__).resolve().parents[1], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/time", timeout=1):
                return proc
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(f"the companion did not start: {proc.stderr.read()[-2000:]}") from None
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"the companion did not start within {timeout_s:g} s")
