"""Declare, then complete, on two phones (390x844 and 360x740) in real Chromium (issue 20).

The rules: "Non appena il tuo Sigillo raggiunge la testa della coda, devi dichiarare prontamente quale
singolo Acquisto stai effettuando. Se non lo fai, un altro giocatore può avvisarti e poi contare 5
secondi ad alta voce" and "Dopo aver dichiarato che cosa stai Acquistando, completa il tuo Acquisto".

Aki and Ben are in the queue (every seal enters it when the purchase phase starts); Ben counts on Aki;
at the head Aki declares with one tap, in view without scrolling, and the count stops on both phones;
Aki then completes the purchase without the clock. Ben prepared his purchase while he waited: at the
head one tap declares it, and the form to complete is already filled. The server clock is frozen
(FakeClock), so the count can only stop, never run out, while the phones act: no wall-clock timing.
"""
from __future__ import annotations

import os


from phones import open_phone, require_chromium, server_fixture

sync_api = require_chromium()

from companion.testing import FakeClock  # noqa: E402

from . import live  # noqa: E402

SHOTS = os.environ.get("CAPSULE_SHOTS")      # a folder: save screenshots there to look at


server = server_fixture("declare", CLOCK=FakeClock())


def api(server, path, body=None, token=None):
    """The answer's JSON; a refusal fails the test."""
    status, answer = live.call(server, path, body, token)
    assert status < 400, (path, status, answer)
    return answer


def phone(browser, size):
    ctx, page, errors = open_phone(browser, size)        # wait_for_function evaluates strings in the page
    return ctx, page, errors


def in_view(page, selector):
    """The element is wholly on the screen as it is now (no scrolling)."""
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def settled(page, selector):
    """`selector` comes into view (no scrolling by the test) once the page has laid itself out again:
    the pinned bar changes height as the calls in it change."""
    page.wait_for_function("""sel => { const b = document.querySelector(sel); if (!b) return false;
        const r = b.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }""",
                           arg=selector, timeout=3000)


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name + ".png"))


def count_shown(page):
    """The count on this phone: the pinned bar's clock and this page's own line."""
    return page.locator("[data-timer=count].running").count() > 0 or page.locator("#count").is_visible()


def test_declare_in_one_tap_then_complete_and_a_prepared_purchase(server, browser):
    made = api(server, "/api/tables", {"game": "capsule-hotel", "players": ["Aki", "Ben"],
                                        "options": {"dice": "companion", "declare_seconds": 7}})
    code, host = made["code"], made["host_token"]
    seq = 0
    for p, amount in ((0, 6000), (1, 8000)):
        seq = api(server, f"/api/tables/{code}/moves", {"expected_seq": seq, "move": {
            "type": "choose-loan", "player": p, "amount": amount}}, host)["seq"]
    assert api(server, f"/api/tables/{code}")["state"]["queue"] == [0, 1]     # fewest yen first
    ctx1, aki, e1 = phone(browser, (390, 844))
    ctx2, ben, e2 = phone(browser, (360, 740))
    try:
        for page, name in ((aki, "Aki"), (ben, "Ben")):
            page.goto(f"{server.url}/t/{code}/board")
            page.locator("#seat-buttons button", has_text=name).click()
            page.wait_for_function("window.tkLink && tkLink.table && tkLink.mode === 'live'", timeout=10_000)
            page.evaluate("scrollTo(0, 0)")
        # Ben, waiting, prepares his purchase: yellow capsules
        prep = ben.locator("#purchase")
        prep.locator("#purchase-h", has_text="Prepare your purchase").wait_for(timeout=3000)
        assert "2nd in the queue" in ben.locator("#purchase-note").inner_text()
        assert not ben.locator("#buy").is_visible()            # not at the head: nothing to send yet
        ben.locator("#purchase-form select").first.select_option("capsules")
        ben.locator("#purchase-form select").nth(1).select_option("yellow")
        # Ben counts on Aki: 7 seconds (the table's option), on both phones
        ben.locator("#start-count", has_text="Count 7 s on Aki").click()
        aki.locator("#declare-say", has_text="Ben is counting").wait_for(timeout=3000)
        ben.locator("#count", has_text="Ben counts on Aki").wait_for(timeout=3000)
        assert count_shown(aki) and count_shown(ben)
        # Aki's call is on the screen as it is, without scrolling: one tap declares
        # the call and the count are marked for the pinned bar, which shows them at the top
        assert aki.locator("#pinbar #declare-box[data-pin]").count() == 1
        assert ben.locator("#pinbar #count[data-pin]").count() == 1
        aki.evaluate("scrollTo(0, 0)")
        assert in_view(aki, "#declare-box button[data-kind=capsules]")
        shot(aki, "declare-call-390")
        aki.locator("#declare-box button[data-kind=capsules]").click()
        aki.locator("#declare-box").wait_for(state="hidden", timeout=3000)
        state = api(server, f"/api/tables/{code}")["state"]
        assert state["declared"] == {"player": 0, "item": "capsules"} and state["count"] is None
        # the count stops on both phones
        for page in (aki, ben):
            page.wait_for_function("!document.querySelector('[data-timer=count].running')", timeout=3000)
            page.locator("#count").wait_for(state="hidden", timeout=3000)
        ben.locator("#queue li.head", has_text="completing: Capsules").wait_for(timeout=3000)
        # Aki completes it, without the clock: every purchase of the declared kind is one button in
        # view (issue 23: declare, then one tap), the form still there for the details
        aki.locator("#purchase-h", has_text="Complete your purchase: Capsules").wait_for(timeout=3000)
        assert aki.locator("#purchase-form select").count() >= 1
        white = """#purchase-options button[data-move='{"item":"capsules","colour":"white"}']"""
        settled(aki, white)
        assert "White ×6" in aki.locator(white).inner_text() and "1,500 ¥" in aki.locator(white).inner_text()
        shot(aki, "complete-390")
        ben.evaluate("scrollTo(0, document.documentElement.scrollHeight)")     # reading the ledgers
        aki.locator(white).click()
        ben.locator("#ledger-0", has_text="6 White").wait_for(timeout=3000)
        # Ben is at the head now: his prepared purchase is declared with one tap, in view where he is
        ben.locator("#declare-box #declare", has_text="I declare: Capsules").wait_for(timeout=3000)
        assert ben.evaluate("scrollY") > 1000 and in_view(ben, "#declare-box #declare")
        shot(ben, "declare-prepared-360")
        ben.locator("#declare-box #declare").click()
        ben.locator("#purchase-h", has_text="Complete your purchase: Capsules").wait_for(timeout=3000)
        assert ben.locator("#purchase-form select").first.input_value() == "yellow"      # already filled
        settled(ben, "#buy")            # once the page and the pinned bar above it have settled
        shot(ben, "complete-prepared-360")
        ben.locator("#buy").click()
        aki.locator("#ledger-1", has_text="4 Yellow").wait_for(timeout=3000)
        state = api(server, f"/api/tables/{code}")["state"]
        assert state["players"][1]["capsules"] == {"yellow": 4}
        assert state["players"][0]["capsules"] == {"white": 6}
        for page, width in ((aki, 390), (ben, 360)):
            assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert e1 == [] and e2 == []
    finally:
        ctx1.close()
        ctx2.close()
