"""Sapporo 1876's board page as a game screen (issue 23 point 1), in real Chromium on a 390 x 844 phone:
the player's holdings and the moves at hand without scrolling (the action spots at the start of a turn,
the action's choices with their cheapest payment), the other payments a tap away, nothing left behind
once a move went in, a refusal that goes with its step, one h1, no axe-core violation, text targets at
least 44 px tall; on 360 x 740 too."""
from __future__ import annotations

import json
import random

import pytest

from phones import open_phone, request as api, require_chromium, server_fixture  # noqa: E402

sync_api = require_chromium()
pytest.importorskip("axe_playwright_python")

from axe_playwright_python.sync_playwright import Axe  # noqa: E402


server = server_fixture("sapporo-screen", threads=8)



def table_at(server, want, seed=4):
    """A table played by the API (seeded random moves, actions rather than nothing) until `want(state,
    needs)`; Aki's seat token."""
    made = api(server, "POST", "/api/tables", {"game": "sapporo-1876", "players": ["Aki", "Ben"],
                                               "options": {"tiles": "companion"}, "seed": seed})
    code, host = made["code"], made["host_token"]
    aki = api(server, "POST", f"/api/tables/{code}/seats", {"player": 0}, host)["token"]
    rng = random.Random(seed)
    for _ in range(300):
        t = api(server, "GET", f"/api/tables/{code}")
        if want(t["state"], t["needs"]):
            return code, host, aki, t
        moves = server.app.extensions["tokyo"].games["sapporo-1876"].rules.legal_moves(t["state"]).moves
        moves = [m for m in moves if m["type"] != "pass"] or moves
        api(server, "POST", f"/api/tables/{code}/moves", {"expected_seq": t["seq"], "move": rng.choice(moves)}, host)
    raise AssertionError("no such step in the game")


def phone(browser, server, code, token, size=(390, 844)):
    ctx, page, errors = open_phone(browser, size)
    page.goto(server.url + "/join")
    page.evaluate("([code, token]) => localStorage.setItem('tk.tables', JSON.stringify("
                  "{[code]: {game: 'sapporo-1876', player: 0, token, at: 1}}))", [code, token])
    page.goto(f"{server.url}/t/{code}/board")
    page.wait_for_function("window.tkTable && tkTable.table && tkTable.table.needs", timeout=15_000)
    page.locator("#moves button").first.wait_for(timeout=15_000)
    return page, errors


IN_VIEW = """sel => [...document.querySelectorAll(sel)].map(e => {
  const r = e.getBoundingClientRect(); return [r.top >= 0 && r.bottom <= innerHeight, e.textContent.trim()]; })"""

# every visible text target of the page (buttons, links, summaries): its height and text
TARGETS = """() => [...document.querySelectorAll('main a, main button, main summary')].filter(e => {
  if (e.closest('details:not([open]) > :not(summary)') || e.closest('[hidden]')) return false;
  const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
  .map(e => [Math.round(e.getBoundingClientRect().height), e.textContent.trim().slice(0, 40)])"""


def checks(page):
    assert page.locator("h1").count() == 1
    violations = Axe().run(page).response["violations"]
    assert violations == [], [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations]
    small = [t for t in page.evaluate(TARGETS) if t[0] < 44]
    assert small == [], small
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_the_start_of_a_turn_fits_one_screen(server, browser):
    code, host, aki, t = table_at(server, lambda s, n: s["phase"] == "move" and s["current"] == 0
                                  and s["turn"] >= 2)
    for size in ((390, 844), (360, 740)):
        page, errors = phone(browser, server, code, aki, size)
        assert page.evaluate("scrollY") == 0
        # the holdings and every action spot the pawn can go to, without scrolling
        assert all(ok for ok, _ in page.evaluate(IN_VIEW, "#holdings"))
        spots = page.evaluate(IN_VIEW, "#moves .spot-btn")
        assert len(spots) == 4 and all(ok for ok, _ in spots), spots
        pawn_here = page.locator("#moves .spot-btn.here")
        assert pawn_here.count() == 1 and pawn_here.evaluate("e => e.tagName") == "DIV"   # not a choice
        holdings = page.locator("#holdings").inner_text()
        me = t["state"]["players"][0]
        assert "Aki" in holdings and f"{me['yen']} yen" in holdings
        checks(page)
        assert errors == []
        page.context.close()


def test_an_action_its_cheapest_payment_and_the_others_a_tap_away(server, browser):
    def rich(s, n):
        return s["phase"] == "action" and s["acting"] == 0 and s["current"] == 0 and any(
            len(o.get("payments") or []) >= 2 for o in n["options"])
    code, host, aki, t = table_at(server, rich)
    page, errors = phone(browser, server, code, aki)
    option = next(o for o in t["needs"]["options"] if len(o.get("payments") or []) >= 2)
    key = {k: v for k, v in option["move"].items() if k != "pay"}
    buttons = page.locator("#moves button[data-key]").evaluate_all(
        "bs => bs.map(b => [b.dataset.key, b.textContent, b.getBoundingClientRect().bottom <= innerHeight])")
    main = [(text, seen) for k, text, seen in buttons if json.loads(k) == key]
    assert len(main) == 1, (key, buttons)
    text, in_view = main[0]
    cheapest = option["payments"][0]
    names = {r["id"]: r["name"] for r in json.loads(page.locator("#page-data").inner_text())["board"]["resources"]}
    for unit, n in cheapest.items():                     # the cheapest payment is on the button itself
        assert f"{n} {'yen' if unit == 'yen' else names[unit]}" in text, (text, cheapest)
    checks(page)
    # "Other ways": the next cheapest payment and any mix, one tap away; none shown before
    alt = page.locator("#moves [data-pay-alt]:visible")
    assert alt.count() == 0
    page.locator("#moves button.other-ways:visible, #moves button.other-ways-all:visible").first.click()
    assert page.locator("#moves [data-pay-alt]:visible").count() >= 1
    assert page.locator("#moves summary:visible", has_text="Pay otherwise").count() >= 1
    # a payment that does not add up is refused with the reasons; the refusal goes with its step
    page.locator("#moves summary:visible", has_text="Pay otherwise").first.click()
    page.locator("#moves button.pay-other:visible").first.click()
    page.locator("#msg.bad").wait_for(timeout=10_000)
    seq = api(server, "GET", f"/api/tables/{code}")["seq"]
    assert seq == t["seq"]
    # the cheapest, one tap: the move goes in, and the page says nothing more ("Done." is gone)
    page.locator("#moves button[data-key]").first.click()
    page.wait_for_function(f"tkTable.table.seq > {seq}", timeout=10_000)
    page.locator("#msg").wait_for(state="hidden", timeout=10_000)
    assert page.locator("#msg").inner_text() == ""
    # Ben's step 5: Aki's phone says whose move it is (her building tiles meanwhile below it)
    page.locator("#move-h", has_text="Ben's move").wait_for(timeout=10_000)
    assert errors == []


def test_start_player_by_name_on_the_new_table_page(server, browser):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto(server.url + "/new/sapporo-1876")
    labels = page.locator("#start-player label")
    assert labels.all_inner_texts() == ["Player 1", "Player 2"]      # the names the fields stand for
    page.locator("#p0").fill("Chie")
    page.locator("#p1").fill("Dan")
    assert labels.all_inner_texts() == ["Chie", "Dan"]
    page.locator("#p1").fill("")
    assert labels.all_inner_texts() == ["Chie", "Player 2"]
    assert [h for h, _ in page.evaluate(TARGETS) if h < 44] == []
    ctx.close()


def test_a_usable_building_tile_is_one_tap_at_the_start_of_a_turn(server, browser):
    """A building tile the player can use now is a button of its own under the action spots (no
    group to open first), with the spots and holdings still on the first screen; one tap uses it."""
    def usable(s, n):
        return s["phase"] == "move" and s["current"] == 0 and any(
            o["move"]["type"] == "use-building" for o in n["options"])
    code, host, aki, t = table_at(server, usable, seed=1)
    option = next(o for o in t["needs"]["options"] if o["move"]["type"] == "use-building")
    page, errors = phone(browser, server, code, aki)
    assert all(ok for ok, _ in page.evaluate(IN_VIEW, "#holdings"))
    assert all(ok for ok, _ in page.evaluate(IN_VIEW, "#moves .spot-btn"))
    key = {k: v for k, v in option["move"].items() if k != "pay"}
    tile = [b for b in page.locator("#moves button[data-key]").all()
            if json.loads(b.get_attribute("data-key")) == key]
    assert len(tile) == 1 and tile[0].is_visible()
    assert tile[0].evaluate("b => !b.closest('details') && b.getBoundingClientRect().bottom <= innerHeight")
    checks(page)
    tile[0].click()
    page.wait_for_function(f"tkTable.table.seq > {t['seq']}", timeout=10_000)
    after = api(server, "GET", f"/api/tables/{code}")["state"]["players"][0]
    assert any(b["id"] == option["move"]["tile"] and b["worker"] for b in after["buildings"])
    assert errors == []
