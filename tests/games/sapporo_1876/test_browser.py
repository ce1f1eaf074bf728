"""A whole game of Sapporo 1876 in a real headless browser (Debian's chromium) on two phone-sized
pages: each phone takes its seat on the board twin and taps the moves the engine suggests (with
their cheapest payments) until the end screen shows the winner; the other phone sees every change.
Also the calculator page in the browser."""
from __future__ import annotations

import os


from phones import open_phone, require_chromium, server_fixture  # noqa: E402

sync_api = require_chromium()


SHOTS = os.environ.get("SAPPORO_SHOTS")      # a folder: save screenshots there to look at them


server = server_fixture("sapporo-browser")


def phone(browser, bypass_csp=True):
    """A phone-sized page; wait_for_function evaluates strings, which the companion's Content-Security-
    Policy forbids: tests using it bypass the policy, the others keep it (the pages work under it)."""
    ctx, page, errors = open_phone(browser, bypass_csp=bypass_csp)
    return ctx, page, errors


def test_a_whole_game_on_two_phones(server, browser):
    import json
    import urllib.request
    req = urllib.request.Request(server.url + "/api/tables", method="POST", data=json.dumps(
        {"game": "sapporo-1876", "players": ["Aki", "Ben"], "options": {"tiles": "companion"}, "seed": 8}
    ).encode(), headers={"Content-Type": "application/json"})
    code = json.loads(urllib.request.urlopen(req).read())["code"]
    pages, errors = [], []
    for seat in (0, 1):
        ctx, page, errs = phone(browser)
        errors.append(errs)
        page.goto(server.url + f"/t/{code}/board")
        page.locator("#seat-buttons button").nth(seat).click()
        page.wait_for_function("window.tkTable && tkTable.table && tkTable.mode === 'live'", timeout=20_000)
        pages.append(page)
    if SHOTS:
        pages[0].screenshot(path=f"{SHOTS}/sapporo-board-start.png", full_page=True)
    moves, refused = 0, False
    for _ in range(400):
        now = json.loads(urllib.request.urlopen(server.url + f"/api/tables/{code}").read())
        seq = now["seq"]
        if now["result"]:
            break
        page = pages[now["needs"]["players"][0]]
        page.wait_for_function(f"tkTable.table.seq === {seq}", timeout=15_000)
        buttons = page.locator("#moves button:not([disabled])")
        buttons.first.wait_for(timeout=15_000)
        ways = page.locator("#moves button.other-ways:visible, #moves button.other-ways-all:visible")
        if not refused and ways.count():
            # the other ways to pay a tap away: a payment that does not add up is refused with the
            # engine's reasons, nothing changes
            ways.first.click()
            page.locator("#moves summary:visible", has_text="Pay otherwise").first.click()
            page.locator("#moves button.pay-other:visible").first.click()
            page.locator("#msg.bad", has_text="AP").wait_for(timeout=15_000)
            assert page.evaluate("tkTable.table.seq") == seq
            refused = True
            if SHOTS:
                page.screenshot(path=f"{SHOTS}/sapporo-board-action.png", full_page=True)
        buttons.first.click()
        for p in pages:      # both phones see the move
            p.wait_for_function(f"tkTable.table.seq > {seq}", timeout=15_000)
        moves += 1
    for p in pages:
        p.locator("#result").wait_for(state="visible", timeout=15_000)
        text = p.locator("#result").inner_text()
        assert "wins" in text and "fame" in text
        assert p.evaluate("document.documentElement.scrollWidth") <= 390
    if SHOTS:
        pages[1].screenshot(path=f"{SHOTS}/sapporo-board-end.png", full_page=True)
    assert moves > 30 and refused
    assert errors == [[], []]


def test_the_calculator_page(server, browser):
    ctx, page, errors = phone(browser)
    page.goto(server.url + "/sapporo-1876/score")
    page.locator("label.check", has_text="Second tier").locator("input").check()
    page.locator("label.check", has_text="Top tier").locator("input").check()
    page.locator("[data-field='council.right'] button[data-step='1']").click()
    page.wait_for_function("document.querySelector('#points').textContent === '18'", timeout=15_000)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/sapporo-score.png", full_page=True)
    # E. Dunn scores from the columns' spaces: sheep and cattle on the second space from the top
    page.locator("label.check", has_text="E. Dunn").locator("input").check()
    for col in ("sheep", "cattle"):
        for _ in range(4):
            page.locator(f"[data-field='pioneering.columns.{col}'] button[data-step='1']").click()
    page.wait_for_function("document.querySelector('#points').textContent === String(18 + 2 + 2 + 7)",
                           timeout=15_000)
    # "Workers in the private academy must always be educated starting from the lowest tier": the
    # top tier ticked ticked the tiers below it, and unticking the lowest unticks those above
    tier = lambda name: page.locator("label.check", has_text=name).locator("input")  # noqa: E731
    assert tier("Lowest tier").is_checked()
    # the steppers' limits come from the data: 1 building tile bought at set-up (mandatory) up to
    # 1 + the 6 on the main board; the worker area holds at most 9 - the set-up pioneer
    out = lambda field: page.locator(f"[data-field='{field}'] output")  # noqa: E731
    assert out("buildings").inner_text() == "1"
    page.locator("[data-field='buildings'] button[data-step='-1']").click()
    assert out("buildings").inner_text() == "1"
    for _ in range(9):
        page.locator("[data-field='buildings'] button[data-step='1']").click()
        page.locator("[data-field='workers_in_area'] button[data-step='1']").click()
    assert out("buildings").inner_text() == "7" and out("workers_in_area").inner_text() == "8"
    # 8 in the worker area + 1 on the council + the pioneers: more workers than a player has (422)
    page.locator("#msg").get_by_text("cannot be scored").wait_for(timeout=5_000)
    assert "9 workers" in page.locator("#msg").inner_text() and page.locator("#points").inner_text() == "–"
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/sapporo-score-refused.png", full_page=True)
    tier("Lowest tier").uncheck()
    assert not tier("Second tier").is_checked() and not tier("Top tier").is_checked()
    page.locator("#clear").click()
    assert out("buildings").inner_text() == "1"
    page.wait_for_function("document.querySelector('#points').textContent === '0'", timeout=15_000)
    assert errors == []


def test_table_mode_the_table_enters_its_tiles(server, browser):
    import json
    import urllib.request
    req = urllib.request.Request(server.url + "/api/tables", method="POST", data=json.dumps(
        {"game": "sapporo-1876", "players": ["Aki", "Ben"], "options": {"tiles": "table"}}).encode(),
        headers={"Content-Type": "application/json"})
    code = json.loads(urllib.request.urlopen(req).read())["code"]
    ctx, page, errors = phone(browser)
    page.goto(server.url + f"/t/{code}/board")
    page.locator("#seat-buttons button").nth(0).click()
    page.wait_for_function("window.tkTable && tkTable.table && tkTable.mode === 'live'", timeout=20_000)
    from generator import canon
    data = canon.load("sapporo-1876")
    persons = [p.name for p in data.persons][:6]
    buildings = [b.name for b in data.building_tiles]
    for group, names in (("persons", persons), ("buildings", buildings[:6]), ("beside", buildings[6:10])):
        for name in names:
            page.locator(f"fieldset[data-group={group}] label.check", has_text=name).locator("input").check()
    # a building already on the board cannot also be beside it
    assert page.locator("fieldset[data-group=beside] label.check", has_text=buildings[0]).locator(
        "input").is_disabled()
    page.locator("#lay-out").click()
    page.wait_for_function("tkTable.table.state.phase === 'buy'", timeout=15_000)
    assert page.evaluate("tkTable.table.state.beside.length") == 4
    assert errors == []


def test_new_table_form_with_the_games_options(server, browser):
    import json
    import urllib.request
    ctx, page, errors = phone(browser, bypass_csp=False)       # the real policy: no inline script
    csp = []
    page.on("console", lambda m: csp.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(server.url + "/new/sapporo-1876")
    page.locator("#p0").fill("Aki")
    page.locator("#p1").fill("Ben")
    page.get_by_text("The companion draws.").click()
    # the start player is chosen by the names just typed
    start = page.locator("#start-player label", has_text="Ben")
    assert start.count() == 1 and page.locator("#start-player label", has_text="Aki").count() == 1
    start.click()
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(lambda url: "/t/" in url, timeout=20_000)
    code = page.url.rsplit("/", 1)[1]
    state = json.loads(urllib.request.urlopen(server.url + f"/api/tables/{code}").read())["state"]
    assert state["mode"] == "companion" and state["start_player"] == 1 and len(state["beside"]) == 4
    page.goto(server.url + f"/t/{code}/board")
    page.locator("#moves button[data-type='buy-building']").first.wait_for(timeout=20_000)
    page.goto(server.url + "/sapporo-1876/score")
    page.locator("label.check", has_text="Top tier").locator("input").check()
    page.locator("label.check", has_text="Second tier").locator("input").check()
    page.locator("#points", has_text="9").wait_for(timeout=20_000)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/sapporo-score-csp.png", full_page=True)
    assert errors == [] and csp == []
