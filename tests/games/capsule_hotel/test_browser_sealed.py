"""Round 1's sealed loans on two phones at once (Aki 390x844, Ben 360x740, real Chromium; issue 26):
"ogni giocatore sceglie simultaneamente l'importo del proprio prestito … Quando tutti hanno scelto,
rivelate tutti i Registri dei giocatori". Every phone says who has sealed ("Aki sealed ✓ · Ben
choosing…") and never another seat's amount; your own amount stays shown with a Change until the
reveal; the reveal is a banner on every phone that stays until dismissed."""
from __future__ import annotations

import json

import pytest

from phones import require_chromium, server_fixture

sync_api = require_chromium()

from .live import Table, call as api  # noqa: E402

SIZES = {"Aki": (390, 844), "Ben": (360, 740)}


server = server_fixture("sealed", threads=8)


def shown_but_the_amount_buttons(page):
    """The page's text without the loan buttons (which list every amount)."""
    return page.evaluate("""() => { const m = document.querySelector('main').cloneNode(true);
        m.querySelector('#loan-buttons').remove(); return m.innerText; }""")


def test_sealed_loans_change_and_the_reveal_on_two_phones(server, browser):
    _, made = api(server, "/api/tables", {"game": "capsule-hotel", "players": ["Aki", "Ben", "Chie"],
                                          "options": {}})
    code = made["code"]
    tokens = [api(server, f"/api/tables/{code}/seats", {"player": p})[1]["token"] for p in range(3)]
    contexts, pages, errors = [], {}, []
    try:
        for seat, (who, (w, h)) in enumerate(SIZES.items()):
            ctx = browser.new_context(viewport={"width": w, "height": h}, is_mobile=True, has_touch=True)
            contexts.append(ctx)
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(server.url + "/")
            seats = {code: {"game": "capsule-hotel", "player": seat, "token": tokens[seat]}}
            page.evaluate(f"localStorage.setItem('tk.tables', JSON.stringify({json.dumps(seats)}))")
            page.goto(server.url + f"/t/{code}/board")
            page.locator('#sealed li[data-seat="0"]').get_by_text("Aki choosing…").wait_for(timeout=10_000)
            pages[who] = page
        aki, ben = pages["Aki"], pages["Ben"]

        # Aki seals 8,000: her phone shows it with a Change; Ben's says only that she has sealed
        aki.locator("#loan-buttons button", has_text="8,000").click()
        aki.locator("#loan-mine").get_by_text("8,000").wait_for(timeout=5_000)
        assert aki.locator("#loan-buttons").is_hidden()
        ben.locator('#sealed li[data-seat="0"]').get_by_text("Aki sealed ✓").wait_for(timeout=5_000)
        assert "8,000" not in shown_but_the_amount_buttons(ben)
        assert "Ben choosing…" in ben.locator("#sealed").inner_text()

        # Ben seals 6,000 after her, then Aki changes hers (not the latest move: still one tap)
        ben.locator("#loan-buttons button", has_text="6,000").click()
        aki.locator('#sealed li[data-seat="1"]').get_by_text("Ben sealed ✓").wait_for(timeout=5_000)
        assert "6,000" not in shown_but_the_amount_buttons(aki)
        aki.screenshot(path="/tmp/ch-sealed-aki-390.png")
        ben.screenshot(path="/tmp/ch-sealed-ben-360.png")
        aki.locator("#loan-change").click()
        aki.locator("#loan-buttons button", has_text="10,000").wait_for(state="visible", timeout=5_000)
        ben.locator('#sealed li[data-seat="0"]').get_by_text("Aki choosing…").wait_for(timeout=5_000)
        aki.locator("#loan-buttons button", has_text="10,000").click()
        aki.locator("#loan-mine").get_by_text("10,000").wait_for(timeout=5_000)

        # Chie's choice reveals every loan: a banner on both phones, until each dismisses it
        seq = api(server, f"/api/tables/{code}")[1]["seq"]
        status, body = api(server, f"/api/tables/{code}/moves", {"expected_seq": seq, "move": {
            "type": "choose-loan", "player": 2, "amount": 4000}}, tokens[2])
        assert status == 200, body
        text = "Aki ¥10,000 · Ben ¥6,000 · Chie ¥4,000"
        for page in (aki, ben):
            page.locator(".sealed-reveal").get_by_text(text).wait_for(timeout=5_000)
            assert page.locator("#loans").is_hidden() and page.locator(".sealed-seats").count() == 0
            assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
        ben.screenshot(path="/tmp/ch-reveal-ben-360.png")
        aki.screenshot(path="/tmp/ch-reveal-aki-390.png")
        # a later move (Ben passes) leaves the banner; Aki dismisses hers, Ben's stays
        seq = api(server, f"/api/tables/{code}")[1]["seq"]
        assert api(server, f"/api/tables/{code}/moves", {"expected_seq": seq, "move": {
            "type": "pass", "player": 1}}, tokens[1])[0] == 200
        aki.locator(".sealed-reveal button").click()
        aki.locator(".sealed-reveal").wait_for(state="detached", timeout=5_000)
        ben.locator("#queue li").first.wait_for(timeout=5_000)
        assert ben.locator(".sealed-reveal").get_by_text(text).is_visible()
        aki.reload()
        aki.locator("#queue li").first.wait_for(timeout=10_000)
        assert aki.locator(".sealed-reveal").count() == 0          # dismissed stays dismissed
        assert errors == []
    finally:
        for ctx in contexts:
            ctx.close()


@pytest.mark.parametrize("size", [(390, 844), (360, 740)])
def test_a_phone_offers_only_what_its_seat_may_change(server, browser, size):
    """"il proprietario di ciascun Edificio nel Lotto … tira il Dado bonus": the owner's phone has the
    die's faces, another seat's phone says who rolls; a seat corrects only its own ledger."""
    table = Table(server, {"dice": "table"}, seed=2)
    code, tokens, move = table.code, table.tokens, table.played

    for p in (0, 1):
        move({"type": "choose-loan", "player": p, "amount": 10000})
    state = api(server, f"/api/tables/{code}")[1]["state"]
    head = state["queue"][0]
    land = next(k for k, v in state["lands"].items() if v["owner"] == head)
    move({"type": "purchase", "player": head, "item": "building", "building": "coin-laundry", "land": land})
    for p in (0, 1):
        move({"type": "pass", "player": p})
    names = ["Aki", "Ben"]
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, is_mobile=True, has_touch=True)
    errors = []
    try:
        for seat in (head, 1 - head):
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(server.url + "/")
            seats = {code: {"game": "capsule-hotel", "player": seat, "token": tokens[seat]}}
            page.evaluate(f"localStorage.setItem('tk.tables', JSON.stringify({json.dumps(seats)}))")
            page.goto(server.url + f"/t/{code}/board")
            rolls = page.locator("#rolls")
            if seat == head:
                rolls.locator("button").first.wait_for(timeout=10_000)
            else:
                rolls.get_by_text(f"{names[head]} rolls its die and enters it.").wait_for(timeout=10_000)
                assert rolls.locator("button").count() == 0
                page.screenshot(path=f"/tmp/ch-roll-other-{size[0]}.png")
            page.locator("#corrections summary").click()
            who = page.locator("#correction-form select")
            assert who.is_disabled() and who.input_value() == str(seat)
            assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
            page.close()
        assert errors == []
    finally:
        ctx.close()
