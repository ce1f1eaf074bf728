"""The new-table options pages of every game, under the companion's own Content-Security-Policy.

A game's option controls (its options.html, included by new_table.html) hand their values to
new_table.js through `window.tkOptions`, defined in the game's static options.js. An inline script
would be blocked by the policy (script-src 'self') and every option silently dropped: Tokyo Capsule
Hotel's page did exactly that (issue 20). So:
- no template of the companion has an inline script or an inline event handler;
- for every registered game, a real Chromium (390x844 and 360x740 phones, the policy kept) sets
  non-default options through the form, starts the table, and GET /api/tables/<code> answers those
  options (its "options" field: what the table was created with) and the state built from them.
"""
from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest

from companion.catalog import discover

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = sorted(p for p in (ROOT / "companion").rglob("*.html") if "templates" in p.parts)

SCRIPT_TAG = re.compile(r"<script\b([^>]*)>", re.I)
HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I | re.S)


def test_every_template_script_has_a_src_and_no_inline_handlers():
    """script-src 'self' runs only the companion's own files: a <script> without src (other than a
    JSON data block, which is not run) or an onclick="…" attribute would be blocked."""
    assert len(TEMPLATES) > 20, "the companion's templates were not found"
    inline, handlers = [], []
    for path in TEMPLATES:
        text = path.read_text(encoding="utf-8")
        for m in SCRIPT_TAG.finditer(text):
            attrs = m.group(1)
            if re.search(r"\bsrc\s*=", attrs) or re.search(r"type\s*=\s*[\"']application/(ld\+)?json", attrs):
                continue
            inline.append(f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}")
        for m in HANDLER.finditer(text):
            handlers.append(f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}")
    assert inline == [], f"inline scripts (blocked by the CSP): {inline}"
    assert handlers == [], f"inline event handlers (blocked by the CSP): {handlers}"


def test_the_check_finds_an_inline_script():
    """The pattern above is not blind: it catches today's kinds of mistakes."""
    assert SCRIPT_TAG.search("<script>\nwindow.tkOptions = 1;</script>").group(1) == ""
    assert HANDLER.search('<button type="button" onclick="go()">Go</button>')
    assert not HANDLER.search('<p>Put the money on the table.</p>')


# -- each game's form: what to set (on the page) and what must reach the server -------------------------

def _capsule(page):
    page.locator("input[name=ch-dice][value=companion]").check()
    page.locator("#ch-cards").select_option("all-side-b")
    page.locator("#ch-tallest").check()
    page.locator("#ch-outside").check()
    page.locator("#ch-seconds").fill("9")


def _jutaku(page):
    page.locator("input[name=jt-mode][value=jutaku]").check()
    page.locator("#jt-companion").check()
    page.locator("#jt-side").select_option("blue")
    page.locator("#jt-round").fill("240")


def _countdown(page):
    page.locator("input[name=jt-mode][value=countdown]").check()
    page.locator("#jt-floors").fill("50, 40, 20")


def _sapporo(page):
    page.locator("input[name=tiles][value=companion]").check()
    page.get_by_role("radio", name="Player 2", exact=True).check()     # who starts: by the name shown


def _deck(page):
    page.locator("input[name=deck][value=companion]").check()


CASES = {
    "capsule-hotel": (_capsule, {"dice": "companion", "attraction_cards": "all-side-b",
                                 "tallest_hotel": True, "outside_money": True, "declare_seconds": 9}),
    "jutaku": (_jutaku, {"mode": "jutaku", "chance": "companion", "side": "blue", "round_seconds": 240}),
    "jutaku/countdown": (_countdown, {"mode": "countdown", "floor_seconds": [50, 40, 20]}),
    "sapporo-1876": (_sapporo, {"tiles": "companion", "start_player": 1}),
    "shin-bikkuri-man": (_deck, {"deck": "companion"}),
    "shinjuku": (_deck, {"deck": "companion"}),
}
GAMES = sorted(g.id for g in discover().values() if g.playable)


def test_every_registered_game_has_an_options_case():
    """A game added later gets its options page tested too (add it to CASES)."""
    assert sorted({case.split("/")[0] for case in CASES}) == GAMES


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from phones import require_chromium
    require_chromium()
    from companion import create_app
    from companion.testing import ServerThread
    app = create_app({"DATA_DIR": tmp_path_factory.mktemp("options"), "SSE_HEARTBEAT_S": 2})
    with ServerThread(app, threads=8) as s:
        yield s


def _table(server, code):
    with urllib.request.urlopen(f"{server.url}/api/tables/{code}") as r:
        return json.loads(r.read())


@pytest.mark.parametrize("size", [(390, 844), (360, 740)], ids=["390", "360"])
@pytest.mark.parametrize("case", list(CASES))
def test_options_set_on_the_page_reach_the_table(server, browser, case, size):
    game_id = case.split("/")[0]
    fill, expected = CASES[case]
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, is_mobile=True,
                              has_touch=True)          # the policy is kept (no bypass_csp)
    page = ctx.new_page()
    errors, blocked = [], []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None)
    try:
        page.goto(f"{server.url}/new/{game_id}")
        page.locator("#names input").first.wait_for()
        fill(page)
        page.locator("#create button[type=submit]").click()
        page.wait_for_url(re.compile(r"/t/[^/]+$"), timeout=10_000)
        code = page.url.rstrip("/").rsplit("/", 1)[1]
        table = _table(server, code)
        got = {k: table["options"].get(k) for k in expected}
        assert got == expected, f"{case}: the options set on the page did not reach the table"
        assert table["game"] == game_id
        state = table["state"]
        # a game that keeps its options in the state (state["options"]) was set up with them
        kept = state.get("options") if isinstance(state.get("options"), dict) else {}
        for k, v in expected.items():
            if k in kept:
                assert kept[k] == v, (case, k, kept[k])
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        assert errors == [] and blocked == [], errors + blocked
    finally:
        ctx.close()
