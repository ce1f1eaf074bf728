"""Jutaku's game screen (issue 23 point 1) on phone-sized windows in a real headless Chromium: the map's
text is 12 px at least and the whole map is on the first screen when the architects start; the mover's
targets are on screen without scrolling; one h1, no axe-core violation, tap targets 44 px tall; a wrong
drink drawn is taken out alone; Izakaya's action panel is in view under the grid on your turn, with the
grid's labels 12 px on screen; Countdown's count is one tap."""
from __future__ import annotations

import pytest

from phones import require_chromium, server_fixture  # noqa: E402

sync_api = require_chromium()

from .live import SIZES, api, phone, play, table  # noqa: E402

# every text of the map (its cards' name, requirement, yen; a held card's; the token's number), in px
MAP_TEXT_PX = """() => [...document.querySelectorAll('#map .jt-cell, #map .jt-cell *')]
  .filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
  .map((e) => parseFloat(getComputedStyle(e).fontSize))"""
# the grid's labels as they come out on the screen: SVG font size times the drawing's scale
GRID_TEXT_PX = """() => [...document.querySelectorAll('#grid svg text')]
  .map((t) => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a)"""
# buttons of the game's own parts shorter than 44 px (the map's squares and the grid aside: their own size)
LOW_TARGETS = """() => [...document.querySelectorAll(
  '#controls button, #after-map button, #call button, #checks button, #act button, #bid-box button, #stop')]
  .filter((b) => b.offsetParent && b.getBoundingClientRect().height < 44)
  .map((b) => b.textContent.trim() + ' ' + b.getBoundingClientRect().height)"""
IN_VIEW = """(sel) => [...document.querySelectorAll(sel)].every((e) => { const r = e.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; })"""


server = server_fixture("jutaku-screen")


def state(server, code):
    return api(server, f"/api/tables/{code}")["state"]


def wait_for_seq(server, code, seq, timeout_s=15.0):
    """The table has reached step `seq` (a tap's move is in)."""
    import time
    end = time.monotonic() + timeout_s
    while api(server, f"/api/tables/{code}")["seq"] < seq:
        assert time.monotonic() < end, f"the table never reached step {seq}"
        time.sleep(0.05)


def settle(page, seq=None):
    """The page shows step `seq` (the table's latest by default) and has stopped moving."""
    if seq is not None:
        page.wait_for_function(f"tkTable.table && tkTable.table.seq >= {seq}", timeout=5_000)
    page.wait_for_function("""() => new Promise((ok) => { const y = scrollY;
      setTimeout(() => ok(scrollY === y), 400); })""", timeout=5_000)


def axe_violations(page):
    from axe_playwright_python.sync_playwright import Axe
    return [f"{v['id']} {[n['target'] for n in v['nodes']][:3]}" for v in Axe().run(page).response["violations"]]


@pytest.mark.parametrize("size", SIZES, ids=[str(w) for w, _ in SIZES])
def test_the_map_is_legible_and_on_the_first_screen(server, browser, size, tmp_path):
    code, host, tokens = table(server, ["Aki", "Ben", "Chie"], {"bottle_bonus": True})
    ctx, page, errors = phone(browser, server, code, 0, tokens[0], size)
    try:
        page.locator("#map button.jt-cell.target").first.wait_for(timeout=5_000)
        settle(page)
        sizes = page.evaluate(MAP_TEXT_PX)
        assert len(sizes) > 90 and min(sizes) >= 12, min(sizes)          # 11.2 px before
        # nothing of a card cut off: its requirement fits its square
        assert page.evaluate("[...document.querySelectorAll('#map .req')].every((e) => "
                             "e.scrollWidth <= e.clientWidth + 1)")
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        if size == (390, 844):                  # the whole map, every starting card, on the first screen
            assert page.evaluate("scrollY") == 0
            assert page.evaluate(IN_VIEW, "#map"), page.locator("#map").bounding_box()
        assert page.locator("h1").count() == 1
        assert page.evaluate(LOW_TARGETS) == []
        if size == (390, 844):
            assert axe_violations(page) == []
        page.screenshot(path=str(tmp_path / f"start-{size[0]}.png"))
        # the start is one tap on the map (the seat's own architect token)
        page.locator("#map button.jt-cell[data-site='suginami-1']").click()
        page.wait_for_function("tkTable.table.state.players[0].at !== null", timeout=5_000)
        assert state(server, code)["players"][0]["site"] == "suginami-1"
        assert errors == [] and page.dialogs == []
    finally:
        ctx.close()


def test_the_movers_targets_are_on_screen_and_a_wrong_drink_is_taken_out_alone(server, browser):
    code, host, tokens = table(server, ["Aki", "Ben", "Chie"], {"bottle_bonus": True})
    for p, site in enumerate(("suginami-1", "taito-2", "setagaya-1")):
        play(server, code, host, {"type": "start", "player": p, "site": site})
    ctx, ben, errors = phone(browser, server, code, 1, tokens[1], (390, 844))
    try:
        seq = api(server, f"/api/tables/{code}")["seq"]
        ben.get_by_role("button", name="Begin!", exact=True).click()
        wait_for_seq(server, code, seq + 1)
        ben.locator("#stop").click()
        wait_for_seq(server, code, seq + 2)               # the stop is in before the verdict on it
        play(server, code, tokens[2], {"type": "verdict", "player": 2, "builder": 1, "ok": True})
        # Ben completed: he enters the 2 drinks drawn; a wrong one is taken out alone
        draw = ben.locator("#draw")
        draw.wait_for(timeout=5_000)
        for colour in ("black", "mint"):
            draw.locator(f"button.jt-drink[data-drink='{colour}']").click()
        assert draw.locator(".jt-drink:not([disabled])").count() == 0        # two drawn: no third
        ben.get_by_role("button", name="Take out Mint").click()
        assert [c.inner_text() for c in draw.locator(".jt-chip").all()] == ["Black ✕"]
        draw.locator("button.jt-drink[data-drink='red']").click()
        draw.get_by_role("button", name="Enter").click()
        ben.wait_for_function("tkTable.table.state.phase === 'grab'", timeout=5_000)
        assert state(server, code)["offer"] == ["black", "red"]
        play(server, code, tokens[0], {"type": "grab", "player": 0, "drink": "red"})
        play(server, code, tokens[2], {"type": "grab", "player": 2, "drink": None})
        # Ben moves first: every card he may move to is on his screen, as the page leaves it
        ben.wait_for_function("tkTable.table.state.phase === 'move'", timeout=5_000)
        ben.locator("#map button.jt-cell.target").first.wait_for(timeout=5_000)
        settle(ben)
        assert ben.locator("#map button.jt-cell.target").count() >= 2
        assert ben.evaluate(IN_VIEW, "#map button.jt-cell.target")
        assert ben.locator("h1").count() == 1 and axe_violations(ben) == []
        ben.locator("#map button.jt-cell.target").first.click()
        ben.wait_for_function("tkTable.table.state.mover === 1", timeout=5_000)
        assert errors == [] and ben.dialogs == []
    finally:
        ctx.close()


def test_izakaya_action_panel_is_under_the_grid_on_your_turn(server, browser, tmp_path):
    code, host, tokens = table(server, ["Aki", "Ben", "Chie", "Dan"], {"mode": "izakaya", "chance": "companion"})
    ctx, aki, errors = phone(browser, server, code, 0, tokens[0], (390, 844))
    try:
        aki.locator("#grid svg").wait_for(timeout=5_000)
        sizes = aki.evaluate(GRID_TEXT_PX)
        assert sizes and min(sizes) >= 12, min(sizes)              # 8.7-10.7 px before
        for p, amount in enumerate((300, 100, 0, 200)):           # Aki bids most: her turn first
            play(server, code, host, {"type": "bid", "player": p, "amount": amount})
        aki.locator("#act").wait_for(timeout=5_000)
        settle(aki)
        aki.locator("[data-pick='card:1,1']").click()
        settle(aki)
        # the card tapped and every button of what it offers on one screen, without scrolling by hand
        assert aki.evaluate(IN_VIEW, "[data-pick='card:1,1']")
        assert aki.evaluate(IN_VIEW, "#act button"), aki.locator("#act").bounding_box()
        assert aki.evaluate(LOW_TARGETS) == []
        assert aki.locator("h1").count() == 1 and axe_violations(aki) == []
        aki.screenshot(path=str(tmp_path / "izakaya-card.png"))
        aki.locator("#act").get_by_role("button", name="Claim · disc left").click()
        aki.wait_for_function("Object.keys(tkTable.table.state.owners).length === 1", timeout=5_000)
        assert state(server, code)["owners"] == {"1,1": 0}
        assert errors == [] and aki.dialogs == []
    finally:
        ctx.close()


def test_countdown_count_is_one_tap(server, browser):
    code, host, tokens = table(server, ["Aki", "Ben"], {"mode": "countdown"})
    ctx, aki, errors = phone(browser, server, code, 0, tokens[0], (360, 740))
    try:
        aki.get_by_role("button", name="Begin!", exact=True).click()
        entry = aki.locator("#pieces-entry")
        entry.locator("button[data-pieces='3']").click()
        assert entry.locator("output").inner_text() == "3"
        assert aki.evaluate(IN_VIEW, "#pieces-entry button[data-pieces], #pieces-entry button.wide")
        entry.get_by_role("button", name="Enter").click()
        aki.wait_for_function("tkTable.table.state.players[0].entered === 3", timeout=5_000)
        assert errors == [] and aki.dialogs == []
    finally:
        ctx.close()
