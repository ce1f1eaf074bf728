"""What every browser test needs: Debian's Chromium, driven by Playwright, as a phone would open the pages.

    require_chromium, needs_chromium     skip (a module, a test) saying why when Chromium is missing
    module_browser, close_contexts       one Chromium per module (conftest's `browser`), its phones closed
    launch                               a Chromium of a test's own (no service worker unless asked)
    server_fixture                       one real companion per module (`server = server_fixture("name")`)
    one_test                             a test on that shared server and browser, its phones closed after it
    open_phone, seated_phone             a phone (context, page, its script errors); one joined to a table
    api, request                         the companion's JSON API called as a phone would
    TAP_TARGETS_JS, BOX_JS               what a finger can tap; an element's box
"""
from __future__ import annotations

import contextlib
import json
import os
import urllib.request

import pytest

from companion.testing import chromium_path
from companion.testing import launch_chromium as launch

#: Debian's Chromium: the headless shell when installed, else the full browser (companion.testing).
CHROMIUM = chromium_path()


#: For a module whose other tests need no browser: skip only the browser test when Chromium is missing.
needs_chromium = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                    reason=f"{CHROMIUM} is not installed (apt-get install chromium)")


def require_chromium():
    """Playwright's sync API; skips the calling test module (saying why) without Chromium or Playwright."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")


def module_browser():
    """Chromium launched once for the tests of a module (conftest's `browser` fixture), closed after
    them; each test opens contexts of its own (its phones) and closes them.

    Once per module, not per session: while Playwright's sync API is open it marks an asyncio loop
    as running on the main thread, which would break asyncio.run() in other modules' tests and any
    module that starts a Playwright of its own."""
    sync_api = require_chromium()
    with sync_api.sync_playwright() as p:
        browser = launch(p)
        try:
            yield browser
        finally:
            browser.close()


def close_contexts(browser) -> None:
    """Close every context (phone) a test opened on the module's browser."""
    for context in list(browser.contexts):
        context.close()


def server_fixture(folder: str, threads: int = 16, **config):
    """A test module's companion, `server = server_fixture("floors")`: one real server (ServerThread)
    for the module's tests, on a fresh data folder named `folder`, with live streams' heartbeats every
    2 s and `config` on top (e.g. SSE_PER_CLIENT=16 when many phones of a test share 127.0.0.1);
    `server.app` is its app, `server.client` a Flask test client of it. Started at the module's first
    test, stopped after its last."""
    @pytest.fixture(scope="module", name="server")
    def server(tmp_path_factory):
        from companion import create_app
        from companion.testing import ServerThread
        app = create_app({"DATA_DIR": tmp_path_factory.mktemp(folder), "SSE_HEARTBEAT_S": 2, **config})
        with ServerThread(app, threads=threads) as s:
            s.app, s.client = app, app.test_client()
            yield s
    return server


def request(server, method: str, path: str, body=None, token: str | None = None):
    """A JSON request to a test's companion (`server.url`) as the seat or host whose `token` is given;
    the answer's JSON (an HTTP error raises urllib's HTTPError)."""
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(server.url + path, data=None if body is None else json.dumps(body).encode(),
                                 headers=headers, method=method)
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def api(server, path: str, body=None, token: str | None = None):
    """`request`: GET without a body, POST with one."""
    return request(server, "GET" if body is None else "POST", path, body, token)


def open_phone(browser, size=(390, 844), *, bypass_csp: bool = True):
    """A phone: a new browser context of `size` (CSS px) with touch, and its page; returns (context,
    page, errors), `errors` collecting every uncaught script error of the page. The caller closes the
    context. `bypass_csp` lets a test evaluate strings in the page (wait_for_function)."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, is_mobile=True, has_touch=True,
                              bypass_csp=bypass_csp)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


#: What a finger can tap on a page at the default zoom: every visible button, link and fold of <main>,
#: as [its HTML's start, its height in CSS px].
TAP_TARGETS_JS = """() => [...document.querySelectorAll('main button, main a, main summary')]
  .filter(e => e.offsetParent !== null && !e.closest('.sr-only'))
  .map(e => { const r = e.getBoundingClientRect(); return [e.outerHTML.slice(0, 80), r.height]; })"""
#: The box of the element a CSS selector names: [top, bottom, left, right] in CSS px.
BOX_JS = """s => { const r = document.querySelector(s).getBoundingClientRect();
  return [r.top, r.bottom, r.left, r.right]; }"""


def seated_phone(browser, server, code: str, entry: dict, size=(390, 844), path: str = "/board"):
    """A phone that joined table `code` as `entry` says (tk.tables' entry: {"game", "player", "token"}
    or "host"), as the join page leaves it, on the table's page `path` ("/board", or "" for the table
    page); returns (context, page) with `page.errors` (uncaught script errors) and `page.dialogs` (native
    dialogs, dismissed)."""
    ctx, page, errors = open_phone(browser, size)
    page.errors, page.dialogs = errors, []
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.goto(server.url + "/")
    page.evaluate("([code, entry]) => localStorage.setItem('tk.tables', JSON.stringify({[code]: entry}))",
                  [code, {"at": 1, **entry}])
    page.goto(server.url + f"/t/{code}{path}")
    return ctx, page


@contextlib.contextmanager
def one_test(server, browser):
    """A test on a module's shared server and browser: `with one_test(server, browser) as s:` gives the
    server; every phone (browser context) the test opened is closed after it, even when it fails."""
    try:
        yield server
    finally:
        close_contexts(browser)
