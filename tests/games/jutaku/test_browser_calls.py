"""Tokyo Jutaku's calls at a real table (issue 20), two phones (390 x 844 and 360 x 740) on one table in
headless Chromium: a STOP! tapped on one phone is in view on the other however far it was scrolled
(the generic pinned bar shows the page's `data-pin` calls), Countdown's entry of 0 pieces asks once
in the page, the architect token sits beside the requirement on the map, and a round whose clock ran
out says so (no drinks without Bottle Bonus)."""
from __future__ import annotations


import pytest

from phones import require_chromium, server_fixture  # noqa: E402

sync_api = require_chromium()

from . import live  # noqa: E402
from .live import api, play, table  # noqa: E402

PHONES = {"aki": (390, 844), "ben": (360, 740)}


server = server_fixture("jutaku-calls")


def phone(browser, server, code, seat, token, size):
    """A phone of `size` holding `seat`'s token on the table's board page (live.phone); dialogs (the
    browser's own confirm()) are recorded in page.dialogs, never accepted."""
    return live.phone(browser, server, code, seat, token, size)[1]


def in_view(page, locator) -> bool:
    """The element's whole box is inside the phone's screen as it is scrolled now."""
    box = locator.bounding_box()
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height \
        and box["x"] >= 0 and box["x"] + box["width"] <= width


def to_bottom(page) -> float:
    # scrolled again at every look: the page may still grow under the first scroll
    page.wait_for_function("(scrollTo(0, document.documentElement.scrollHeight), "
                           "scrollY + innerHeight >= document.documentElement.scrollHeight - 2)", timeout=5_000)
    return page.evaluate("scrollY")


def test_a_stop_on_one_phone_is_in_view_on_the_other_scrolled_to_the_bottom(server, browser):
    code, host, (aki_t, ben_t) = table(server, ["Aki", "Ben"], {})
    play(server, code, host, {"type": "start", "player": 0, "site": "suginami-1"})
    play(server, code, host, {"type": "start", "player": 1, "site": "taito-2"})
    aki = phone(browser, server, code, 0, aki_t, PHONES["aki"])
    ben = phone(browser, server, code, 1, ben_t, PHONES["ben"])
    try:
        # Begin! tapped on Aki's phone: Ben, scrolled to the bottom of his page, sees STOP!
        assert to_bottom(ben) > 150
        aki.get_by_role("button", name="Begin!").click()
        stop = ben.locator("#stop")
        stop.wait_for(state="visible", timeout=3_000)
        ben.wait_for_timeout(300)                      # let the page settle as a person would look
        assert in_view(ben, stop), stop.bounding_box()
        assert ben.evaluate("scrollY") > 150             # still down there: the call came to him
        # Aki scrolls to the bottom; Ben taps STOP!; Aki sees the call and Confirm / Reject
        assert to_bottom(aki) > 150
        stop.tap()
        call = aki.locator("#checks", has_text="Ben called stop!")
        call.wait_for(state="visible", timeout=3_000)
        confirm = aki.get_by_role("button", name="Confirm")
        reject = aki.get_by_role("button", name="Reject")
        confirm.wait_for(state="visible", timeout=2_000)
        aki.wait_for_timeout(300)
        for what in (aki.locator("#checks").get_by_text("Ben called stop!"), confirm, reject):
            assert in_view(aki, what), what.bounding_box()
        assert aki.evaluate("scrollY") > 150
        confirm.click()
        ben.wait_for_function("tkTable.table.state.phase === 'move'", timeout=3_000)
        assert api(server, f"/api/tables/{code}")["state"]["players"][1]["kept"][0]["site"] == "taito-2"
        assert not aki.errors and not ben.errors, aki.errors + ben.errors
    finally:
        aki.context.close()
        ben.context.close()


def test_zero_pieces_in_countdown_asks_once_in_the_page(server, browser):
    """"When a player fails to add any pieces in one of the timed rounds, their game is over": an
    Enter of 0 asks "0 pieces puts you out of the game. Sure?" in the page (never the browser's
    confirm()) before anything is sent."""
    code, host, (aki_t, ben_t) = table(server, ["Aki", "Ben"], {"mode": "countdown"})
    ben = phone(browser, server, code, 1, ben_t, PHONES["ben"])
    try:
        play(server, code, host, {"type": "begin"})
        enter = ben.get_by_role("button", name="Enter")
        enter.wait_for(timeout=3_000)
        seq = api(server, f"/api/tables/{code}")["seq"]
        enter.click()
        sure = ben.get_by_text("0 pieces puts you out of the game. Sure?")
        sure.wait_for(timeout=10_000)                 # (a loaded machine: the page may take seconds)
        assert in_view(ben, sure)
        assert api(server, f"/api/tables/{code}")["seq"] == seq            # nothing sent yet
        ben.get_by_role("button", name="No, go back").click()
        sure.wait_for(state="detached", timeout=2_000)
        # another phone's entry redraws the page: the question and the count are kept
        ben.get_by_role("button", name="Enter").click()
        sure.wait_for(timeout=2_000)
        play(server, code, host, {"type": "pieces", "player": 0, "pieces": 4})
        ben.locator("#players li", has_text="done this floor").wait_for(timeout=3_000)
        assert sure.is_visible()
        ben.get_by_role("button", name="Yes, I am out").click()
        ben.wait_for_function("tkTable.table.state.floor === 2", timeout=3_000)
        s = api(server, f"/api/tables/{code}")["state"]
        assert s["players"][1]["out"] and s["players"][1]["floors"] == [0]
        # a count above 0 is sent at once, without a question
        aki = phone(browser, server, code, 0, aki_t, PHONES["aki"])
        aki.get_by_role("button", name="+").click()
        aki.locator("#pieces-entry output", has_text="1").wait_for(timeout=5_000)
        aki.get_by_role("button", name="Enter").click()
        aki.wait_for_function("tkTable.table.state.floor === 3", timeout=10_000)   # (a loaded machine)
        assert api(server, f"/api/tables/{code}")["state"]["players"][0]["floors"] == [4, 1]
        assert not ben.dialogs and not aki.dialogs, ben.dialogs + aki.dialogs
        assert not ben.errors and not aki.errors, ben.errors + aki.errors
    finally:
        for ctx in list(browser.contexts):
            ctx.close()


@pytest.mark.parametrize("size", list(PHONES.values()), ids=["390", "360"])
def test_the_architect_token_sits_beside_the_requirement(server, browser, size):
    code, host, (aki_t, _) = table(server, ["Aki", "Ben"], {})
    play(server, code, host, {"type": "start", "player": 0, "site": "suginami-1"})      # 2.V
    play(server, code, host, {"type": "start", "player": 1, "site": "taito-2"})
    aki = phone(browser, server, code, 0, aki_t, size)
    try:
        for square in ("0,0", "5,0"):
            r, c = map(int, reversed(square.split(",")))
            cell = aki.locator("#map .jt-cell").nth(r * 6 + c)
            token, req = cell.locator(".jt-token"), cell.locator(".req")
            token.wait_for(timeout=3_000)
            for _ in range(40):         # the map is drawn anew on each update: measure one drawing
                t, q, box = token.bounding_box(), req.bounding_box(), cell.bounding_box()
                if None not in (t, q, box):
                    break
                aki.wait_for_timeout(50)
            overlap = not (t["x"] + t["width"] <= q["x"] or q["x"] + q["width"] <= t["x"]
                           or t["y"] + t["height"] <= q["y"] or q["y"] + q["height"] <= t["y"])
            assert not overlap, (square, t, q)
            for b in (t, q):                                # both inside the square, nothing cut off
                assert box["x"] <= b["x"] and b["x"] + b["width"] <= box["x"] + box["width"] + 0.5
                assert box["y"] <= b["y"] and b["y"] + b["height"] <= box["y"] + box["height"] + 0.5
            assert req.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
        assert not aki.errors, aki.errors
    finally:
        aki.context.close()


def test_a_round_whose_clock_ran_out_says_so_without_drinks(server, browser):
    code, host, (aki_t, _) = table(server, ["Aki", "Ben"], {"round_seconds": 1})
    play(server, code, host, {"type": "start", "player": 0, "site": "suginami-1"})
    play(server, code, host, {"type": "start", "player": 1, "site": "taito-2"})
    aki = phone(browser, server, code, 0, aki_t, PHONES["ben"])
    try:
        play(server, code, host, {"type": "begin"})
        aki.wait_for_function("tkTable.table.state.phase === 'ready' && tkTable.table.state.round === 1",
                              timeout=8_000)
        prompt = aki.locator("#prompt").inner_text()
        assert prompt.startswith("Time! Nobody finished round 1") and "Begin!" in prompt, prompt
        assert "drink" not in prompt.lower()
        timers = aki.evaluate("tkTable.table.timers.filter(t => t.owner === 'game').map(t => t.status)")
        assert timers == ["expired"]
        assert aki.locator("#clock-note").inner_text() == "time is up"
        assert not aki.errors, aki.errors
    finally:
        aki.context.close()
