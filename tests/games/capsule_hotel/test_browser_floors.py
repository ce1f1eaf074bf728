"""The tallest hotel variant on a phone (390x844 and 360x740, real Chromium; issue 21): the purchase
form names the heights the hotel may have, from the rules' floor rule ("non puoi costruire più piani
di quante Capsule abbia il tuo Hotel al piano più basso ... purché siano costruiti in un'unica pila alta
almeno 4 piani"): 5 pink capsules stand 1 to 3 floors high, or 5 (the refusal of 4: test_rules_audit)."""
from __future__ import annotations

import json

import pytest

from phones import open_phone, require_chromium, server_fixture

sync_api = require_chromium()

from .live import Table, call as api  # noqa: E402


server = server_fixture("floors", threads=8)


@pytest.mark.parametrize("size", [(390, 844), (360, 740)])
def test_the_floors_field_names_the_heights_five_pink_capsules_allow(server, browser, size):
    table = Table(server, {"tallest_hotel": True})
    code, tokens, move = table.code, table.tokens, table.move

    move({"type": "choose-loan", "player": 0, "amount": 10000})
    s = move({"type": "choose-loan", "player": 1, "amount": 10000})[2]
    head = s["queue"][0]
    s = move({"type": "purchase", "player": head, "item": "capsules", "colour": "pink", "count": 5})[2]
    s = move({"type": "leave-queue", "player": s["queue"][0]})[2]
    s = move({"type": "join-queue", "player": head})[2]
    move({"type": "declare", "player": head, "item": "entrance"})
    ctx, page, errors = open_phone(browser, size, bypass_csp=False)
    try:
        page.goto(server.url + "/")
        seats = {code: {"game": "capsule-hotel", "player": head, "token": tokens[head]}}
        page.evaluate(f"localStorage.setItem('tk.tables', JSON.stringify({json.dumps(seats)}))")
        page.goto(server.url + f"/t/{code}/board")
        page.locator("#purchase-form").get_by_text("Floors (1 to 3, or 5)").wait_for(timeout=10_000)
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("size", [(390, 844), (360, 740)])
def test_a_player_asked_to_barter_joins_the_queue_from_the_phone(server, browser, size):
    """"purché in quel momento tu non stia Barattando": Ben, who only received Aki's proposal, is not
    bartering; his phone says joining the queue declines it, and one tap does."""
    table = Table(server, {})
    code, tokens, move = table.code, table.tokens, table.played

    for p in (0, 1):
        move({"type": "choose-loan", "player": p, "amount": 6000})
    for p in (0, 1):
        move({"type": "leave-queue", "player": p})
    move({"type": "propose-barter", "player": 0, "with": 1, "give": {"yen": 500}, "get": {"promise": "a lot later"}})
    ctx, page, errors = open_phone(browser, size, bypass_csp=False)
    try:
        page.goto(server.url + "/")
        seats = {code: {"game": "capsule-hotel", "player": 1, "token": tokens[1]}}
        page.evaluate(f"localStorage.setItem('tk.tables', JSON.stringify({json.dumps(seats)}))")
        page.goto(server.url + f"/t/{code}/board")
        barter = page.locator('#barters [data-barter="X1"]')
        barter.get_by_text("Joining the queue declines it.").wait_for(timeout=10_000)
        page.locator("#join").click()
        page.locator('#barters [data-barter="X1"]').wait_for(state="detached", timeout=5_000)
        state = api(server, f"/api/tables/{code}")[1]["state"]
        assert state["queue"] == [1] and state["barters"] == []
        assert errors == []
    finally:
        ctx.close()
