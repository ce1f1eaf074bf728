"""Capsule Hotel's game screen (issue 23 point 1) on phones in real Chromium: Aki at 390x844, Ben at
360x740, and the host's phone.

A purchase is two taps on the screen as it is (declare the kind, then the purchase's own button, its
price on it) with the player's holdings in view; Pass asks on the page (Keep playing, or Yes), never in a
native dialog; a seal out of the queue reads "Not in the queue: Aki (can join)", not "Aki in front";
"Pay the income" waits until every bonus die is in; the host changes one entered die alone; the page has
one h1, no axe-core violation, text targets at least 44 px tall, and no sideways scrolling. The new-table
page's attraction-card choices fit their dropdown."""
from __future__ import annotations

import json
import os

import pytest

from phones import require_chromium, server_fixture

sync_api = require_chromium()

from axe_playwright_python.sync_playwright import Axe  # noqa: E402


from . import live  # noqa: E402

SHOTS = os.environ.get("CAPSULE_SHOTS")      # a folder: save screenshots there to look at


server = server_fixture("screen")


def api(server, path, body=None, token=None):
    status, answer = live.call(server, path, body, token)
    assert status < 400, (path, status, answer)
    return answer


def phone(browser, server, size, code, seat):
    """A phone holding `seat` (a dict of tk.tables' entry) at table `code`, on its board page."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, is_mobile=True, has_touch=True,
                              bypass_csp=True)        # wait_for_function evaluates strings in the page
    page = ctx.new_page()
    page.errors, page.dialogs = [], []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.goto(server.url + "/join")
    page.evaluate("s => localStorage.setItem('tk.tables', JSON.stringify(s))", {code: seat})
    page.goto(f"{server.url}/t/{code}/board")
    page.wait_for_function("window.tkLink && tkLink.table && tkLink.mode === 'live'", timeout=10_000)
    return ctx, page


def in_view(page, selector):
    """The element is wholly on the screen as it is now (no scrolling)."""
    box = page.locator(selector).first.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def settled(page, selector):
    page.wait_for_function("""sel => { const b = document.querySelector(sel); if (!b) return false;
        const r = b.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }""",
                           arg=selector, timeout=15_000)


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name + ".png"))


def small_targets(page):
    """Visible buttons, links and fold summaries of the game's own sections shorter than 44 px."""
    return page.evaluate("""() => [...document.querySelectorAll(
        '#mine, #loans, #queue-section, #barter, #income, #corrections, #ledgers')].flatMap((s) =>
        [...s.querySelectorAll('button, a, summary')]).filter((e) => e.offsetParent !== null)
        .map((e) => [e.textContent.trim().slice(0, 40), e.getBoundingClientRect().height])
        .filter(([, h]) => h < 44)""")


def violations(page):
    found = Axe().run(page).response["violations"]
    return [f"{v['id']} at {n['target']}" for v in found for n in v["nodes"]]


def option(kind_move):
    return "#purchase-options button[data-move='" + json.dumps(kind_move, separators=(",", ":")) + "']"


def test_a_purchase_in_two_taps_pass_on_the_page_and_the_income_after_the_dice(server, browser):
    made = api(server, "/api/tables", {"game": "capsule-hotel", "players": ["Aki", "Ben"],
                                        "options": {"dice": "table"}})
    code, host = made["code"], made["host_token"]
    tokens = [api(server, f"/api/tables/{code}/seats", {"player": p})["token"] for p in range(2)]
    seq = 0
    for p, amount in ((0, 6000), (1, 8000)):
        seq = api(server, f"/api/tables/{code}/moves", {"expected_seq": seq, "move": {
            "type": "choose-loan", "player": p, "amount": amount}}, host)["seq"]
    state = lambda: api(server, f"/api/tables/{code}")["state"]       # noqa: E731
    assert state()["queue"] == [0, 1]                                   # fewest yen first
    ctxs = []
    try:
        c1, aki = phone(browser, server, (390, 844), code, {"game": "capsule-hotel", "player": 0, "token": tokens[0]})
        c2, ben = phone(browser, server, (360, 740), code, {"game": "capsule-hotel", "player": 1, "token": tokens[1]})
        c3, hst = phone(browser, server, (390, 844), code, {"game": "capsule-hotel", "player": None, "host": host})
        ctxs = [c1, c2, c3]
        assert aki.locator("h1").count() == 1
        # Aki at the head: her holdings and the call on the first screen, no scrolling
        aki.locator("#mine", has_text="6,000 ¥").wait_for(timeout=15_000)
        aki.evaluate("scrollTo(0, 0)")
        assert in_view(aki, "#mine") and in_view(aki, "#declare-box button[data-kind=capsules]")
        assert not in_view(aki, "#ledgers")                 # the ledger of everyone is below, not in the way
        shot(aki, "screen-head-390")
        # tap 1: declare capsules; tap 2: the white capsules, their price on the button, in view
        aki.locator("#declare-box button[data-kind=capsules]").click()
        white = option({"item": "capsules", "colour": "white"})
        settled(aki, white)
        assert "White ×6" in aki.locator(white).inner_text() and "1,500 ¥" in aki.locator(white).inner_text()
        for n in (1, 2, 3):                                    # a few pink capsules: a button each, no stepping
            assert aki.locator(option({"item": "capsules", "colour": "pink", "count": n})).count() == 1
        assert in_view(aki, "#mine")
        shot(aki, "screen-declared-390")
        assert violations(aki) == []
        assert small_targets(aki) == []
        aki.locator(white).click()
        ben.locator("#queue li.head", has_text="Ben").wait_for(timeout=15_000)
        assert state()["players"][0]["capsules"] == {"white": 6}
        # the seal out of the queue, in words that do not read "ahead"
        ben.locator("#queue", has_text="Not in the queue: Aki (can join)").wait_for(timeout=15_000)
        assert "in front" not in ben.locator("#queue").inner_text()
        aki.locator("#join").wait_for(timeout=15_000)
        for page in (aki, ben):                                 # one Pass on a page, never a hidden second
            assert page.locator("#pass").count() == 1 and page.locator("[id]").evaluate_all(
                "els => els.length === new Set(els.map((e) => e.id)).size")
        # Ben (360 x 740): a building that rolls its die, in two taps, on his only land (preset)
        ben.evaluate("scrollTo(0, 0)")
        assert in_view(ben, "#declare-box button[data-kind=building]")
        ben.locator("#declare-box button[data-kind=building]").click()
        land = next(k for k, v in state()["lands"].items() if v["owner"] == 1)
        park = option({"item": "building", "building": "park", "land": land})
        settled(ben, park)
        assert ben.locator(f"#purchase-options button[data-opt=land][data-val={land}][aria-pressed=true]").count() == 1
        shot(ben, "screen-declared-360")
        ben.locator(park).click()
        aki.locator("#ledger-1", has_text="4,000 ¥").wait_for(timeout=15_000)
        # Aki joins again and, at the head, passes: the question is on the page
        aki.locator("#join").click()
        aki.locator("#declare-box #pass").wait_for(timeout=15_000)
        aki.locator("#declare-box #pass").click()
        aki.locator("#pass-yes").wait_for(timeout=15_000)
        assert in_view(aki, "#pass-yes") and in_view(aki, "#pass-no")
        shot(aki, "screen-pass-ask-390")
        aki.locator("#pass-no").click()                         # Keep playing: nothing sent
        aki.locator("#declare-box button[data-kind=lot]").wait_for(timeout=15_000)
        assert state()["players"][0]["seal"] == "queue"
        aki.locator("#declare-box #pass").click()
        aki.locator("#pass-yes").click()
        ben.locator("#queue", has_text="Aki (passed)").wait_for(timeout=15_000)
        assert state()["players"][0]["seal"] == "pass"
        # Ben passes too (out of the queue: the Pass under the queue's title)
        ben.locator("#queue-actions #pass").click()
        ben.locator("#pass-yes").click()
        # the income: Pay waits for the Park's die, entered on its owner's phone
        aki.locator("#income").wait_for(timeout=15_000)
        assert aki.locator("#pay").is_disabled()
        assert "Enter the bonus die of Park B1 first" in aki.locator("#pay-note").inner_text()
        assert aki.locator("#rolls button").count() == 0          # Ben's building: Ben (or the host) enters it
        ben.locator("#rolls button", has_text="1,000 ¥").click()
        aki.wait_for_function("!document.getElementById('pay').disabled", timeout=15_000)
        assert state()["rolls"] == {"B1": 1}
        assert ben.locator("#rolls [data-change]").count() == 0   # a seat does not change an entered die
        # the host changes that one entry alone
        hst.locator("#rolls [data-change=B1]").click()
        hst.locator("#rolls button", has_text="2,000 ¥").click()
        ben.locator("#rolls", has_text="2,000 ¥").wait_for(timeout=15_000)
        assert state()["rolls"] == {"B1": 2}
        shot(aki, "screen-income-390")
        assert violations(aki) == []
        assert small_targets(aki) == []
        for page, width in ((aki, 390), (ben, 360), (hst, 390)):
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            assert page.dialogs == [], page.dialogs            # no native dialog anywhere
            assert page.errors == []
    finally:
        for c in ctxs:
            c.close()


@pytest.mark.parametrize("size", [(390, 844), (360, 740)])
def test_the_attraction_card_choices_fit_their_dropdown(server, browser, size):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    try:
        page.goto(server.url + "/new/capsule-hotel")
        # each option's text, in the select's own font, within the select less its padding and arrow
        over = page.evaluate("""() => {
            const s = document.getElementById('ch-cards'), cs = getComputedStyle(s);
            const c = document.createElement('canvas').getContext('2d');
            c.font = cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
            const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 24;
            return [...s.options].map((o) => [o.text, c.measureText(o.text).width, room])
                                 .filter(([, w, r]) => w > r); }""")
        assert over == []
    finally:
        ctx.close()


def test_the_income_calculator_removes_one_die_face_alone_and_labels_its_fields(server, browser):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    try:
        page.goto(server.url + "/capsule-hotel/income")
        pick = page.get_by_label("Add a die face rolled for lot 1")
        park = [t for t in pick.locator("option").all_inner_texts() if t.startswith("Park: ")]
        pick.select_option(label=park[1])
        page.get_by_label("Add a die face rolled for lot 1").select_option(label=park[2])
        page.get_by_role("button", name="Remove " + park[1]).click()        # the wrong one, alone
        faces = page.locator(".ch-faces li").all_inner_texts()
        assert len(faces) == 1 and park[2] in faces[0]
        page.locator("#out li").first.wait_for(timeout=15_000)
        assert violations(page) == []
    finally:
        ctx.close()
