"""The pages every game shares, as a thumb and an eye meet them (issue 23 point 1): "names wherever a
seat is chosen; no native dialogs; a one-line sticky bar; text targets at least 44 px".

- No script of the companion calls the browser's confirm(), alert() or prompt() (read in the files),
  and walking the shared pages' flows on two phones (start a table, join by its code, take a seat,
  take a seat over, give it up, watch, a timer, a move, its undo) never opens one (seen by the page).
- Every link, button and fold's summary shown on the shared pages is at least 44 px tall on a
  390 x 844 phone: "← Table", "CSV", "All plays", the seat buttons, the pinned bar's.
- Seats are chosen by the names typed: a game's start-player choice on the new-table page lists the
  names as they are typed; the table page's seat buttons carry the names.
- The pinned bar (a running timer, the "enable sound" button) is one line on a 360 x 740 phone: under
  a tenth of the screen's height.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from phones import api, needs_chromium

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "companion").rglob("*.js"))
#: confirm( / alert( / prompt( called bare or on window / globalThis / self (not a method of one's own: x.prompt())
DIALOG = re.compile(r"(?:^|[^\w.$]|\b(?:window|globalThis|self)\s*\.\s*)(confirm|alert|prompt)\s*\(")

#: Scripts of a game's own that still call one, by path: what remains (its game's files, not these).
DIALOGS_LEFT: dict[str, str] = {}


def without_comments(js: str) -> str:
    """The script without its // and /* */ comments (strings kept: a dialog call is never in one here)."""
    js = re.sub(r"/\*.*?\*/", " ", js, flags=re.S)
    return re.sub(r"(^|[^:\\\"'])//[^\n]*", r"\1", js)


def test_the_pattern_finds_every_way_of_calling_a_dialog():
    calls = ["if (confirm('Pass?')) go();", "window.alert(x)", "const n = prompt ('How many?')",
             "x => globalThis.confirm(x)", "self.prompt('?')"]
    assert all(DIALOG.search(c) for c in calls)
    fine = ["main.prompt(state)", "s.confirm(x)", "// confirm('no')", "renderPrompt(x)", "confirmed(x)"]
    assert not any(DIALOG.search(without_comments(c)) for c in fine)


@pytest.mark.parametrize("path", [pytest.param(p, marks=[pytest.mark.xfail(strict=True, reason=DIALOGS_LEFT[p])]
                                               if p in DIALOGS_LEFT else []) for p in SCRIPTS])
def test_no_script_opens_a_native_dialog(path):
    text = without_comments((ROOT / path).read_text(encoding="utf-8"))
    found = [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in DIALOG.finditer(text)]
    assert found == [], f"{path} calls the browser's own dialog (line, call): {found}"


# ------------------------------------------------------------------------------------------ in a browser
SIZE = (390, 844)
SMALL = (360, 740)
TAP = 44


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    pytest.importorskip("playwright.sync_api")
    pytest.importorskip("companion.games.shinjuku")
    from companion import create_app
    from companion.testing import ServerThread
    from testgames import COUNTER, SEALED_BID
    app = create_app({"DATA_DIR": tmp_path_factory.mktemp("targets"), "SSE_HEARTBEAT_S": 2, "SSE_PER_CLIENT": 32,
                      "EXTRA_GAMES": {"counter": COUNTER, "sealed-bid": SEALED_BID}})
    with ServerThread(app, threads=16) as s:
        yield s



def new_table(server, game, players, options=None):
    """(code, host token, seat 0's token)."""
    t = api(server, "/api/tables", {"game": game, "players": players, "options": options or {}})
    return t["code"], t["host_token"], api(server, f"/api/tables/{t['code']}/seats", {"player": 0})["token"]


def send(server, code, token, move):
    seq = api(server, f"/api/tables/{code}")["seq"]
    return api(server, f"/api/tables/{code}/moves", {"expected_seq": seq, "move": move}, token)


def start_timer(server, code, token, name, seconds=600):
    seq = api(server, f"/api/tables/{code}")["seq"]
    api(server, f"/api/tables/{code}/timers", {"expected_seq": seq, "timer": name, "action": "start",
                                               "seconds": seconds}, token)


def phone(browser, server, size=SIZE, seats=None):
    """A phone-sized page holding `seats` ({code: {game, player, token | host}}); it records its
    errors and the browser's own dialogs (dismissed, never accepted)."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, is_mobile=True, has_touch=True,
                              bypass_csp=True)      # wait_for_function evaluates strings
    page = ctx.new_page()
    page.errors, page.dialogs = [], []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: (page.dialogs.append(f"{d.type}: {d.message}"), d.dismiss()))
    if seats:
        page.goto(server.url + "/join")
        page.evaluate("s => localStorage.setItem('tk.tables', JSON.stringify(s))", seats)
    return page


def live(page):
    page.wait_for_function("window.tkAtTable && tkAtTable.table", timeout=15_000)


#: every link, button and fold's summary the page shows: [what, its words, height, width]
MEASURE = """(scope) => [...document.querySelectorAll(scope)].filter((e) => {
  const r = e.getBoundingClientRect(), s = getComputedStyle(e);
  return r.width > 1 && r.height > 1 && s.visibility !== "hidden" && !e.closest("[hidden], .sr-only");
}).map((e) => { const r = e.getBoundingClientRect();
  const words = (e.innerText || e.getAttribute("aria-label") || "").trim().replace(/\\s+/g, " ");
  return [e.tagName.toLowerCase(), words.slice(0, 50),
          Math.round(r.height * 10) / 10, Math.round(r.width)]; })"""
ALL = "a, button, summary"
#: what a game's board page shares with every game (board_base.html, at_table.html, pinned.js)
BOARD_SHARED = ("header a, main > p:first-of-type a, #seat button, #pinbar button, #timers-card > summary, "
                "#result a, #result button, #result summary")


def short_targets(page, scope=ALL):
    return [t for t in page.evaluate(MEASURE, scope) if t[2] < TAP]


@needs_chromium
def test_every_text_target_of_the_shared_pages_is_44_px_tall(server, browser):
    shinjuku, host, seat = new_table(server, "shinjuku", ["Aki", "Ben"], {"deck": "table"})
    done, _, done_seat = finished_play(server)
    start_timer(server, shinjuku, host, "Turn timer")
    mine = {shinjuku: {"game": "shinjuku", "player": 0, "token": seat},
            done: {"game": "sealed-bid", "player": 0, "token": done_seat}}
    pages = [("new", "/"), ("new", "/join"), ("new", "/join?code=ZZZZ-ZZZZ"), ("new", "/plays"), ("new", "/q"),
             ("new", "/q?code=AAAAA"), ("new", "/q/shinjuku/nothing/x"), ("new", "/t/ZZZZZZZZ"),
             ("new", f"/t/{shinjuku}"), ("seat", "/"), ("seat", f"/t/{shinjuku}"), ("seat", f"/t/{done}"),
             ("watcher", f"/t/{shinjuku}")]
    pages += [("new", f"/new/{g}") for g in ("shinjuku", "shin-bikkuri-man", "capsule-hotel", "sapporo-1876",
                                             "jutaku", "counter")]
    phones = {"new": phone(browser, server), "seat": phone(browser, server, seats=mine),
              "watcher": phone(browser, server, seats={shinjuku: {"game": "shinjuku", "player": -1, "token": None}})}
    short, measured = [], 0
    try:
        for role, path in pages:
            page = phones[role]
            page.goto(server.url + path)
            if path.startswith("/t/") and path != "/t/ZZZZZZZZ":
                live(page)
            page.wait_for_timeout(200)
            measured += len(page.evaluate(MEASURE, ALL))
            short += [(role, path, *t) for t in short_targets(page)]
        # a board page: what every game's board shares (the way back, "Who are you?", the pinned bar)
        page = phones["seat"]
        page.goto(server.url + f"/t/{shinjuku}/board")
        live(page)
        page.locator("#pinbar .pin-face").wait_for(timeout=10_000)
        back = page.locator("main a", has_text="← Table")
        assert back.bounding_box()["height"] >= TAP
        short += [("seat", "board", *t) for t in short_targets(page, BOARD_SHARED)]
        for p in phones.values():
            assert p.errors == [] and p.dialogs == [], (p.errors, p.dialogs)
    finally:
        for p in phones.values():
            p.context.close()
    assert measured > 100          # the pages were drawn: seats, timers, plays, games...
    assert short == [], "targets under 44 px tall (role, page, element, words, height, width):\n" + \
        "\n".join(map(str, short))


def finished_play(server):
    """A sealed-bid table (tests/testgames.py) played to its end: (code, host token, seat 0's token)."""
    code, host, seat = new_table(server, "sealed-bid", ["Aki", "Ben", "Chie"], {"rounds": 1})
    for move in ({"type": "start-round", "prize": 3}, {"type": "bid", "player": 0, "amount": 4},
                 {"type": "bid", "player": 1, "amount": 0}, {"type": "bid", "player": 2, "amount": 0}):
        send(server, code, host, move)
    assert api(server, f"/api/tables/{code}")["result"]
    return code, host, seat


@needs_chromium
def test_the_shared_flows_never_open_a_native_dialog(server, browser):
    """Two phones walk the table page's flows; a take-over is asked and answered in the page (its
    question and buttons as thumb-sized and free of axe-core violations as the rest)."""
    try:
        from axe_playwright_python import sync_playwright as axe
    except ImportError:
        axe = None
    aki = phone(browser, server)
    ben = phone(browser, server)
    try:
        # Aki starts a table on the new-table page, Ben joins it by its code
        aki.goto(server.url + "/new/counter")
        aki.locator("#p0").fill("Aki")
        aki.locator("#p1").fill("Ben")
        aki.get_by_role("button", name="Start the table").click()
        aki.wait_for_url(re.compile(r"/t/[0-9A-Z]{8}$"))
        code = aki.url.rsplit("/", 1)[1]
        live(aki)
        assert [b.inner_text() for b in aki.locator("#seat-buttons button").all()] == ["Aki", "Ben", "Just watching"]
        aki.get_by_role("button", name="Invite players: QR code and table code").click()
        aki.locator("#invite .joincode").wait_for()
        aki.locator("#seat-buttons button", has_text="Aki").click()
        aki.locator("#whoami", has_text="You are Aki.").wait_for()

        ben.goto(server.url + "/join")
        ben.locator("#code").fill(code[:4].lower() + "-" + code[4:])
        ben.get_by_role("button", name="Join").click()
        ben.wait_for_url(re.compile(f"/t/{code}$"))
        live(ben)
        ben.locator("#seat-buttons button", has_text="Ben").click()
        ben.locator("#whoami", has_text="You are Ben.").wait_for()

        # a move typed on Aki's phone, undone with two taps in the page
        aki.locator("#move-form").evaluate("f => f.closest('details').open = true")
        aki.locator("#move").fill('{"type": "add", "player": 0, "add": 2}')
        aki.get_by_role("button", name="Send move").click()
        aki.locator("#move-msg.good").wait_for()
        aki.locator("#undo:not([disabled])").click()
        aki.locator("#undo", has_text="Tap again").wait_for()
        aki.locator("#undo").click()
        aki.wait_for_function("tkTable.table.state.count === 0", timeout=10_000)

        # a timer from the presets
        aki.locator("#timer button", has_text="0:30").click()
        aki.locator("#pinbar .pin-face").wait_for(timeout=10_000)

        # Aki gives up her seat and, as the phone that started the table, takes over Ben's: asked in
        # the page, "Keep it" first, then yes
        aki.get_by_role("button", name="Give up this seat").click()
        aki.locator("#seat-buttons button", has_text="Ben (take over)").click()
        ask = aki.locator("#seat-ask")
        ask.get_by_text("Another phone holds Ben's seat. Take it over? That phone can then only watch.").wait_for()
        assert aki.evaluate("document.activeElement.id") == "seat-ask-yes"     # the yes is one tap away
        assert short_targets(aki, "#seat button, #seat-ask button") == []
        if axe is not None:
            found = axe.Axe().run(aki).response["violations"]
            assert found == [], [(v["id"], [n["target"] for n in v["nodes"]]) for v in found]
        ask.get_by_role("button", name="Keep it").click()
        ask.wait_for(state="hidden")
        assert aki.locator("#seat").is_visible() and "You are" not in aki.locator("#whoami").inner_text()
        aki.locator("#seat-buttons button", has_text="Ben (take over)").click()
        ask.get_by_role("button", name="Take over Ben's seat").click()
        aki.locator("#whoami", has_text="You are Ben.").wait_for()
        assert api(server, f"/api/tables/{code}")["seats"][1]["claimed"]

        # at the next move Ben's phone is told, forgets the void seat and offers the seats again
        host = json.loads(aki.evaluate("localStorage.getItem('tk.tables')"))[code]["host"]
        send(server, code, host, {"type": "add", "player": 0, "add": 1})
        ben.locator(".banner", has_text="Ben's seat was taken over by another phone").wait_for(timeout=10_000)
        ben.locator("#seat-buttons button", has_text="Ben (taken)").wait_for()
        ben.locator("#seat-buttons button", has_text="Just watching").click()
        ben.locator("#whoami", has_text="You are watching.").wait_for()
        for p in (aki, ben):
            assert p.dialogs == [], p.dialogs
            assert p.errors == [], p.errors
    finally:
        aki.context.close()
        ben.context.close()


@needs_chromium
def test_a_seat_chosen_on_the_new_table_page_is_chosen_by_the_names_typed(server, browser):
    """new_table.js names the seats of a game's options as they are typed: a <select data-seats>
    lists the names, an element marked data-seat-name="1" says the second name."""
    page = phone(browser, server)
    try:
        page.goto(server.url + "/new/counter")
        page.locator("#create").evaluate("""f => f.querySelector("#names").after(Object.assign(
            document.createElement("div"), {innerHTML: '<select data-seats id="who">'
              + '<option value="0">first player</option><option value="1">second player</option></select>'
              + '<span data-seat-name="1" id="second">Player 2</span>'}))""")
        choice = page.locator("#who")
        options = lambda: [o.inner_text() for o in choice.locator("option").all()]  # noqa: E731
        page.locator("#p0").fill("Aki")
        assert options() == ["Aki", "Player 2"]               # a blank field's name is its "Player n"
        page.locator("#p1").fill("Ben")
        assert options() == ["Aki", "Ben"] and page.locator("#second").inner_text() == "Ben"
        choice.select_option(label="Ben")
        page.locator("#p1").fill("Benjamin")                   # a name retyped keeps the choice
        assert options() == ["Aki", "Benjamin"] and choice.evaluate("s => s.value") == "1"
        page.get_by_role("button", name="+ Player").click()      # a third player joins the choices
        page.locator("#p2").fill("Chie")
        assert options() == ["Aki", "Benjamin", "Chie"]
        page.get_by_role("button", name="− Player").click()
        assert options() == ["Aki", "Benjamin"] and choice.evaluate("s => s.value") == "1"
        assert page.dialogs == [] and page.errors == []
    finally:
        page.context.close()


@needs_chromium
def test_the_start_player_is_chosen_by_name(server, browser):
    """Sapporo 1876's "who starts" on its new-table page (its own options) offers the names typed,
    and the table starts with the one chosen."""
    page = phone(browser, server)
    try:
        page.goto(server.url + "/new/sapporo-1876")
        page.locator("#p0").fill("Aki")
        page.locator("#p1").fill("Benjamin")
        form = page.locator("#create").inner_text().lower()
        assert "first player" not in form and "second player" not in form
        radio = page.get_by_role("radio", name="Benjamin", exact=True)
        if radio.count():
            radio.check()
        else:
            page.locator("#create select[data-seats]").select_option(label="Benjamin")
        page.get_by_role("button", name="Start the table").click()
        page.wait_for_url(re.compile(r"/t/[0-9A-Z]{8}$"))
        code = page.url.rsplit("/", 1)[1]
        table = api(server, f"/api/tables/{code}")
        assert table["players"] == ["Aki", "Benjamin"]
        assert table["state"]["start_player"] == 1
        # the table page offers the seats by the same names
        live(page)
        seats = [b.inner_text() for b in page.locator("#seat-buttons button").all()]
        assert seats == ["Aki", "Benjamin", "Just watching"]
        assert page.dialogs == [] and page.errors == []
    finally:
        page.context.close()


@needs_chromium
@pytest.mark.parametrize("where", ["table", "board"])
def test_the_pinned_bar_is_one_line_on_a_small_phone(server, browser, where):
    code, host, seat = new_table(server, "shinjuku", ["Aki", "Ben"], {"deck": "table"})
    start_timer(server, code, host, "Time for the turn")
    page = phone(browser, server, SMALL, seats={code: {"game": "shinjuku", "player": 0, "token": seat}})
    try:
        page.goto(server.url + f"/t/{code}" + ("/board" if where == "board" else ""))
        live(page)
        bar = page.locator("#pinbar")
        face = bar.locator(".pin-face")
        face.wait_for(timeout=10_000)
        sound = bar.get_by_role("button", name="Tap to enable sound")
        assert sound.is_visible()                     # the sound prompt is in the bar too, beside the clock
        page.wait_for_function("""() => new Promise(ok => {
          const bar = document.querySelector('#pinbar'), h = bar.getBoundingClientRect().height;
          setTimeout(() => ok(bar.getBoundingClientRect().height === h), 300); })""",
                               timeout=10_000)        # (the bar as it settles, not mid-layout)
        height = bar.bounding_box()["height"]
        assert height < SMALL[1] * 0.10, f"the pinned bar is {height} px tall on a {SMALL} phone"
        # one line: the sound button, the timer's name and its clock side by side
        middles = [b["y"] + b["height"] / 2 for b in (sound.bounding_box(), face.bounding_box(),
                                                     bar.locator(".pin-name").bounding_box())]
        assert max(middles) - min(middles) < 20, middles
        assert float(face.evaluate("n => parseFloat(getComputedStyle(n).fontSize)")) >= 28
        page.screenshot(path=f"/tmp/targets-pinned-{where}-360.png")
        assert page.dialogs == [] and page.errors == []
    finally:
        page.context.close()
