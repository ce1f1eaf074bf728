"""The purchase queue in two real headless browsers (Debian's chromium), phone-sized: each phone takes
a seat on the live ledger page and chooses its loan in secret; one phone starts the 5-second count
on the head of the queue and the other sees it within a second; at the deadline (an injected clock)
the server removes the head's seal on both phones; a barter proposed on one phone is confirmed on
the other and both ledgers move."""
from __future__ import annotations

import json
import os
import urllib.request

import pytest

from phones import open_phone, require_chromium  # noqa: E402

sync_api = require_chromium()

from companion import create_app  # noqa: E402
from companion.testing import FakeClock, ServerThread  # noqa: E402

SHOTS = os.environ.get("CAPSULE_SHOTS")      # a folder: save screenshots there to look at


@pytest.fixture(scope="module")
def clock():
    return FakeClock()


@pytest.fixture(scope="module")
def server(tmp_path_factory, clock):
    app = create_app({"DATA_DIR": tmp_path_factory.mktemp("capsule"), "SSE_HEARTBEAT_S": 2, "CLOCK": clock})
    with ServerThread(app, threads=16) as s:
        yield s



def phone(browser):
    ctx, page, errors = open_phone(browser)
    return ctx, page, errors


def post(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name + ".png"), full_page=True)


def test_two_phones_share_the_purchase_queue_and_the_count(server, browser, clock):
    code = post(server.url + "/api/tables", {"game": "capsule-hotel", "players": ["Aki", "Ben"],
                                             "options": {"dice": "companion"}})["code"]
    ctx1, aki, e1 = phone(browser)
    ctx2, ben, e2 = phone(browser)
    try:
        for page, name in ((aki, "Aki"), (ben, "Ben")):
            page.goto(f"{server.url}/t/{code}/board")
            page.locator("#seat-buttons button", has_text=name).click()
            page.wait_for_function("window.tkLink && tkLink.table && tkLink.mode === 'live'", timeout=10_000)
        shot(aki, "loans")
        aki.locator("#loan-buttons button", has_text="6,000").click()
        ben.locator('#sealed li[data-seat="0"]', has_text="Aki sealed ✓").wait_for(timeout=3000)
        ben.locator("#loan-buttons button", has_text="8,000").click()
        # revealed together: Aki has fewer yen, so Aki's seal heads the queue
        for page in (aki, ben):
            page.locator("#queue li.head", has_text="Aki").wait_for(timeout=3000)
        # only the head purchases; Ben, waiting, may prepare his purchase but not send it
        assert aki.locator("#buy").is_visible() and not ben.locator("#buy").is_visible()
        shot(aki, "queue-head")
        ben.locator("#start-count").click()
        aki.locator("#declare-say", has_text="Ben is counting").wait_for(timeout=1000)     # within a second
        ben.locator("#count", has_text="Ben counts on Aki").wait_for(timeout=1000)
        # counted down from the server's deadline (the page's clock runs on from the frozen fake one)
        # in the pinned bar (companion/static/pinned.js draws every running timer)
        face = aki.locator("[data-timer=count]").inner_text()
        assert any(f"0:0{n}" in face for n in range(6)), face
        shot(aki, "count")
        clock.advance(5000)          # the deadline: the server removes Aki's seal
        for page in (aki, ben):
            page.locator("#queue li.head", has_text="Ben").wait_for(timeout=3000)
        aki.locator("#count").wait_for(state="hidden", timeout=1000)
        aki.locator("#join").wait_for(timeout=1000)
        # Ben purchases the yellow capsules at the head of the queue; Aki sees the ledger entry
        ben.locator("#purchase-form select").first.select_option("capsules")
        ben.locator("#purchase-form select").nth(1).select_option("yellow")
        ben.locator("#buy").click()
        aki.locator("#ledger-1 .ch-yen", has_text="7,000").wait_for(timeout=3000)
        shot(ben, "after-purchase")
        # a barter both phones confirm: Aki gives 500 yen for Ben's promise
        aki.locator("#propose summary").click()
        aki.locator("#propose-form fieldset").nth(0).locator("input[type=number]").first.fill("500")
        aki.locator("#propose-form fieldset").nth(0).locator("input[type=number]").first.dispatch_event("change")
        promise = aki.locator("#propose-form fieldset").nth(1).locator("input[type=text]")
        promise.fill("a Park next to your lot")
        aki.locator("#propose-send").click()
        ben.locator(".ch-barter button.confirm").click()
        aki.locator("#ledger-0 .ch-yen", has_text="5,500").wait_for(timeout=3000)
        ben.locator("#ledger-1 .ch-yen", has_text="7,500").wait_for(timeout=3000)
        shot(aki, "after-barter")
        # Aki rejoins the queue and buys the 3,000 lot board next to a starting lot
        aki.locator("#join").click()
        aki.locator("#purchase").wait_for(timeout=3000)
        aki.locator("#purchase-form select").first.select_option("lot")
        aki.locator("#purchase-form select").nth(1).select_option("lot-3000")
        assert aki.locator("#purchase-form input[type=checkbox]").count() == 2      # S1, S2
        shot(aki, "lot-form")
        aki.locator("#buy").click()
        ben.locator("#ledger-0 .ch-yen", has_text="2,500").wait_for(timeout=3000)
        ben.locator("#map", has_text="L1").wait_for(timeout=3000)
        assert e1 == [] and e2 == []
    finally:
        ctx1.close()
        ctx2.close()


def move(server, code, token, m):
    seq = json.loads(urllib.request.urlopen(f"{server.url}/api/tables/{code}").read())["seq"]
    req = urllib.request.Request(f"{server.url}/api/tables/{code}/moves", method="POST",
                                 data=json.dumps({"expected_seq": seq, "move": m}).encode(),
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def test_setup_walk_leads_to_the_secret_loan_and_the_loans_check_shows(server, browser):
    """"Enter it now" on the set-up walk's loan step opens the ledger at the loan choice, choosing
    nothing for the player; from round 2 every phone shows the loans phase's check (yen vs debt)."""
    made = post(server.url + "/api/tables", {"game": "capsule-hotel", "players": ["Aki", "Ben"],
                                             "options": {"dice": "companion"}})
    code, host = made["code"], made["host_token"]
    ctx, page, errors = phone(browser)
    try:
        page.goto(server.url + "/join")
        page.evaluate("([code, host]) => localStorage.setItem('tk.tables', JSON.stringify("
                      "{[code]: {game: 'capsule-hotel', player: 0, host, at: 1}}))", [code, host])
        page.goto(f"{server.url}/t/{code}")
        walk = page.locator("#setup-walk")
        walk.get_by_text("Step 1 of 3").wait_for(timeout=10_000)
        walk.get_by_role("button", name="Next").click()
        walk.get_by_role("button", name="Next").click()
        assert walk.locator(".walk-title").inner_text() == "Starting loans"
        walk.get_by_role("link", name="Enter it now").click()
        page.wait_for_url("**/board?enter=choose-loan")
        page.wait_for_function("scrollY > 0 && (r => r.top > -1 && r.top < 120)"      # (sub-pixel)
                               "(document.querySelector('#loans').getBoundingClientRect())", timeout=5_000)
        assert page.locator("#loan-buttons button", has_text="6,000").is_visible()
        shot(page, "enter-loan")
        state = json.loads(urllib.request.urlopen(f"{server.url}/api/tables/{code}").read())["state"]
        assert state["phase"] == "loans" and state["loan_choices"] == {}          # nothing chosen for Aki
        for p, amount in ((0, 6000), (1, 8000)):
            move(server, code, host, {"type": "choose-loan", "player": p, "amount": amount})
        for p in (0, 1):
            move(server, code, host, {"type": "pass", "player": p})
        move(server, code, host, {"type": "pay-income"})
        check = page.locator("#loans-check")
        check.wait_for(timeout=3_000)
        assert check.inner_text().startswith("Loans phase of round 2: nobody can repay their debt yet")
        assert "Aki 6,000 ¥ of 7,200 ¥" in check.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, "loans-check")
        # round 3's loans phase: Aki can repay 6,000 + 3 x 600, so the game ends there, on every phone
        move(server, code, host, {"type": "correction", "player": 0, "yen": 1800, "note": "a hotel's income"})
        for p in (0, 1):
            move(server, code, host, {"type": "pass", "player": p})
        move(server, code, host, {"type": "pay-income"})
        page.locator("#prompt", has_text="The game is over: loans phase of round 3: Aki can repay "
                                         "(7,800 yen against a debt of 7,800 yen).").wait_for(timeout=3_000)
        assert check.inner_text().startswith("Loans phase of round 3: Aki can repay: the game ends.")
        page.locator("#result").wait_for(timeout=3_000)
        shot(page, "loans-end")
        assert errors == []
    finally:
        ctx.close()


def test_income_is_shown_per_lot_and_per_hotel_on_every_phone(server, browser):
    """The income phase "led" on the page (the rules advise one player to announce each lot's hotels in
    turn): each lot with its attraction income and cemetery deduction, each hotel's franchise income
    and income, as the rules compute them; then "Pay the income" books them on both ledgers."""
    made = post(server.url + "/api/tables", {"game": "capsule-hotel", "players": ["Aki", "Ben"],
                                             "options": {"dice": "companion"}})
    code, host = made["code"], made["host_token"]
    for p in (0, 1):
        move(server, code, host, {"type": "choose-loan", "player": p, "amount": 10000})
    state = lambda: json.loads(urllib.request.urlopen(f"{server.url}/api/tables/{code}").read())["state"]  # noqa: E731
    s = state()
    head = s["queue"][0]
    land = next(k for k, v in s["lands"].items() if v["owner"] == head)
    for m in ({"item": "capsules", "colour": "yellow"}, {"item": "vending-machine", "land": land},
              {"item": "entrance", "land": land, "colour": "yellow", "capsules": 4}):
        if state()["queue"][:1] != [head]:
            move(server, code, host, {"type": "join-queue", "player": head})
            while state()["queue"][0] != head:
                other = state()["queue"][0]
                move(server, code, host, {"type": "leave-queue", "player": other})
        move(server, code, host, {"type": "purchase", "player": head, **m})
    for p in (0, 1):
        move(server, code, host, {"type": "pass", "player": p})
    s = state()
    assert s["phase"] == "income" and len(s["hotels"]) == 1
    (lot,) = [lot for lot in s["income"]["lots"] if lot["hotels"]]
    (hotel,) = lot["hotels"]
    ctx, page, errors = phone(browser)
    try:
        page.goto(f"{server.url}/t/{code}/board")
        box = page.locator("#income-lots")
        box.locator("h3", has_text=f"Lot {lot['lot']}").wait_for(timeout=10_000)
        assert f"attraction {lot['attraction']:,} ¥" in box.inner_text()
        row = box.locator("tr", has_text=hotel["id"])
        cells = row.locator("td").all_inner_texts()
        assert cells[0].endswith("4 Yellow")          # the franchise named, not told by its swatch alone
        assert cells[1] == ["Aki", "Ben"][head]
        assert cells[2] == f"{hotel['franchise']:,} ¥" and cells[3] == f"{hotel['income']:,} ¥"
        # the figure shown is the rules' formula: franchise + attraction - deduction, floor, cap
        from companion.games.capsule_hotel.rules import ledger
        from generator import canon
        assert hotel["income"] == ledger.hotel_income(canon.load("capsule-hotel"), hotel["franchise"],
                                                      lot["attraction"], lot["cemeteries"], 4, lot["no_cemetery"])
        assert hotel["franchise"] == 100 * (1 + 1)          # 1 yellow hotel on the map + 1 lot holding it
        shot(page, "income")
        before = s["players"][head]["yen"]
        move(server, code, host, {"type": "pay-income"})
        page.locator(f"#ledger-{head} .ch-yen", has_text=f"{before + hotel['income']:,}").wait_for(timeout=3_000)
        shot(page, "after-income")
        assert errors == []
    finally:
        ctx.close()
