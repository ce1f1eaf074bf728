"""Sapporo 1876's board page in a real headless Chromium at 390 x 844, under the companion's Content-
Security-Policy: a move the engine does not suggest (three pioneering spaces: the rules' 12-AP example)
entered part by part with the move builder, its cost and cheapest payment shown before it is sent; a
the set-up walk's "Enter it now" opening the board on the tiles to enter, with the final-score
preview already there."""
from __future__ import annotations

import os
import re


from phones import open_phone, request as api, require_chromium, server_fixture  # noqa: E402

sync_api = require_chromium()


SHOTS = os.environ.get("SAPPORO_SHOTS")      # a folder: save screenshots there to look at them


server = server_fixture("sapporo-builder", threads=8)



def host_phone(browser, server, made):
    ctx, page, errors = open_phone(browser, bypass_csp=False)
    page.goto(server.url + "/join")
    page.evaluate("([code, host]) => localStorage.setItem('tk.tables', JSON.stringify("
                  "{[code]: {game: 'sapporo-1876', player: 0, host, at: 1}}))", [made["code"], made["host_token"]])
    return page, errors


def test_a_move_outside_the_suggestions_is_built_part_by_part(server, browser):
    made = api(server, "POST", "/api/tables", {"game": "sapporo-1876", "players": ["Aki", "Ben"],
                                               "options": {"tiles": "companion"}, "seed": 1})
    code, host = made["code"], made["host_token"]
    t = api(server, "GET", f"/api/tables/{code}")
    while t["state"]["phase"] != "move":
        move = api(server, "GET", f"/api/tables/{code}/legal")["moves"][0]
        api(server, "POST", f"/api/tables/{code}/moves", {"expected_seq": t["seq"], "move": move}, host)
        t = api(server, "GET", f"/api/tables/{code}")
    api(server, "POST", f"/api/tables/{code}/moves", {"expected_seq": t["seq"], "move": {
        "type": "move-pawn", "player": 0, "spot": "pioneer-village"}}, host)
    t = api(server, "GET", f"/api/tables/{code}")
    wanted = {"type": "pioneer", "player": 0, "steps": ["wheat", "wheat", "wheat"]}
    assert not any({k: v for k, v in o["move"].items() if k != "pay"} == wanted for o in t["needs"]["options"])
    before = t["state"]["players"][0]

    page, errors = host_phone(browser, server, made)
    page.goto(f"{server.url}/t/{code}/board")
    builder = page.locator("details[data-builder='pioneer']")
    builder.locator("summary").click()
    for _ in range(3):
        builder.locator("[data-column='wheat']").click()
    builder.get_by_text("Spaces: Wheat, Wheat, Wheat").wait_for(timeout=3_000)
    cost = builder.locator("[data-cost]")
    cost.wait_for(timeout=5_000)
    assert cost.get_attribute("data-cost") == "12" and "Costs 12 AP" in cost.inner_text()
    pay = builder.locator(".pay-alt button").first
    assert pay.inner_text() == "Pay 2 Wheat + 1 Sheep + 4 yen"
    # a step too many: the builder says why before anything is sent
    builder.locator("[data-column='wheat']").click()
    builder.locator(".reasons").wait_for(timeout=5_000)
    assert builder.locator(".pay-alt").count() == 0
    builder.get_by_role("button", name="Remove the last").click()
    builder.locator("[data-cost='12']").wait_for(timeout=5_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    if SHOTS:
        builder.scroll_into_view_if_needed()
        page.screenshot(path=os.path.join(SHOTS, "sapporo-builder.png"))
    builder.locator(".pay-alt button").first.click()
    went_in(server, page, code, t["seq"])
    after = api(server, "GET", f"/api/tables/{code}")["state"]["players"][0]
    assert after["pioneer"]["wheat"] == before["pioneer"]["wheat"] + 3
    assert after["resources"]["wheat"] == before["resources"]["wheat"] - 2
    assert after["resources"]["sheep"] == before["resources"]["sheep"] - 1
    assert after["yen"] == before["yen"] - 4
    assert not errors, errors


def test_enter_it_now_opens_the_board_on_the_tiles_to_lay_out(server, browser):
    made = api(server, "POST", "/api/tables", {"game": "sapporo-1876", "players": ["Aki", "Ben"],
                                               "options": {"tiles": "table"}})
    page, errors = host_phone(browser, server, made)
    page.goto(f"{server.url}/t/{made['code']}")
    walk = page.locator("#setup-walk")
    walk.get_by_text("Step 1 of 5").wait_for(timeout=10_000)
    walk.get_by_role("button", name="Next").click()
    assert walk.locator(".walk-title").inner_text() == "The tiles"
    walk.get_by_role("link", name="Enter it now").click()
    page.wait_for_url(re.compile(r"/board\?enter=lay-out-tiles$"))
    target = page.locator("[data-enter='lay-out-tiles']")
    target.wait_for(timeout=10_000)
    page.wait_for_function("() => Math.abs(document.querySelector(\"[data-enter='lay-out-tiles']\")"
                           ".getBoundingClientRect().top) < 5", timeout=5_000)
    assert target.locator("fieldset[data-group='persons'] input").count() == 10
    # the final-score preview is there from the set-up on
    assert page.locator("#preview summary").all_inner_texts() == ["Aki: 4 fame", "Ben: 4 fame"]
    assert not errors, errors


def test_a_building_tile_with_its_own_action(server, browser):
    made = api(server, "POST", "/api/tables", {"game": "sapporo-1876", "players": ["Aki", "Ben"],
                                               "options": {"tiles": "table"}})
    code, host = made["code"], made["host_token"]
    persons = ["w-clark", "e-dunn", "h-capron", "b-ryan", "d-penhallow", "h-murahashi"]
    board = ["drill-hall", "kaitakushi-office", "kotoni-village", "flour-mill", "rice-granary", "wool-shed"]
    beside = ["makomanai-farm", "trading-post", "dairy", "hoheikan"]
    seq = 0
    for move in ({"type": "lay-out-tiles", "persons": persons, "buildings": board, "beside": beside},
                 {"type": "buy-building", "player": 1, "tile": "trading-post"},
                 {"type": "buy-building", "player": 0, "tile": "makomanai-farm"},
                 {"type": "place-pioneer", "player": 0, "column": "wheat"},
                 {"type": "place-pioneer", "player": 1, "column": "sheep"}):
        seq = api(server, "POST", f"/api/tables/{code}/moves", {"expected_seq": seq, "move": move}, host)["seq"]
    before = api(server, "GET", f"/api/tables/{code}")["state"]["players"][0]
    page, errors = host_phone(browser, server, made)
    page.goto(f"{server.url}/t/{code}/board")
    d = page.locator("details[data-builder='use-building']")
    d.locator("summary").click()
    d.locator("fieldset[data-field='building'] button[data-value='makomanai-farm']").click()
    d.locator("input[data-field='with-action']").check()
    # its pioneering is limited to the tile's two columns
    assert sorted(d.locator("[data-column]").evaluate_all("bs => bs.map((b) => b.dataset.column)")) == \
        ["cattle", "rice-bale"]
    d.locator("[data-column='rice-bale']").click()
    # "in either the rice bale or the cattle column": one of them per use, so cattle is off now
    assert d.locator("[data-column='cattle']").is_disabled()
    assert d.locator("[data-column='rice-bale']").is_enabled()
    d.locator("[data-cost]").wait_for(timeout=5_000)
    cost = int(d.locator("[data-cost]").get_attribute("data-cost"))
    assert cost > 0
    if SHOTS:
        d.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.screenshot(path=os.path.join(SHOTS, "sapporo-building.png"))
    d.locator(".pay-alt button").first.click()
    went_in(server, page, code, seq)
    after = api(server, "GET", f"/api/tables/{code}")["state"]["players"][0]
    assert after["pioneer"]["rice-bale"] == 1 and before["pioneer"]["rice-bale"] == 0
    assert after["buildings"] == [{"id": "makomanai-farm", "worker": True}]
    assert after["area"] == before["area"] - 2          # one on the tile, one pioneering
    assert not errors, errors


def went_in(server, page, code, seq):
    """The move sent from the page is in (the table is past `seq`), and the page leaves nothing behind
    (no "Done." once it is: issue 23)."""
    import time
    end = time.monotonic() + 10
    while api(server, "GET", f"/api/tables/{code}")["seq"] <= seq:
        assert time.monotonic() < end, "the move did not go in"
        time.sleep(0.05)
    page.locator("#msg").wait_for(state="hidden", timeout=5_000)
    assert page.locator("#msg").inner_text() == ""


def _to_phase(server, code, host, phase, first=None):
    """Plays the listed moves (the first, or `first(moves)`) until the table is in `phase`."""
    t = api(server, "GET", f"/api/tables/{code}")
    while t["state"]["phase"] != phase:
        moves = api(server, "GET", f"/api/tables/{code}/legal")["moves"]
        move = (first and first(moves)) or moves[0]
        api(server, "POST", f"/api/tables/{code}/moves", {"expected_seq": t["seq"], "move": move}, host)
        t = api(server, "GET", f"/api/tables/{code}")
    return t


def test_step_5_overpayment_warned_and_the_active_players_buildings(server, browser):
    """"Resources and banknotes can be paid in any combination and in any number" ... "no change is
    given": Ben pays 5 AP for a 3-AP education in his step 5, warned first; meanwhile Aki, the active
    player, may still use her building tile ("At any time during your turn")."""
    made = api(server, "POST", "/api/tables", {"game": "sapporo-1876", "players": ["Aki", "Ben"],
                                               "options": {"tiles": "companion"}, "seed": 2})
    code, host = made["code"], made["host_token"]
    t = _to_phase(server, code, host, "move")
    for move in ({"type": "move-pawn", "player": 0, "spot": "agricultural-college"}, {"type": "pass", "player": 0}):
        t = api(server, "POST", f"/api/tables/{code}/moves", {"expected_seq": t["seq"], "move": move}, host)
    t = api(server, "GET", f"/api/tables/{code}")
    assert t["state"]["acting"] == 1 and t["state"]["current"] == 0
    ben = t["state"]["players"][1]
    assert ben["resources"]["rice-bale"] >= 1 and ben["resources"]["cattle"] >= 1
    page, errors = host_phone(browser, server, made)
    page.goto(f"{server.url}/t/{code}/board")
    # Aki's building tile can be used while Ben acts
    page.locator("details[data-builder='use-building']").wait_for(timeout=10_000)
    # Ben's education of 1 worker: its cheapest payment on its button, the others a tap away
    main = page.locator("""#moves button[data-key*='"player":1,'][data-key*='"workers":1}']""").first
    card = main.locator("xpath=ancestor::*[contains(@class,'opt-row') or contains(@class,'cell')][1]")
    ways = card.locator("button.other-ways")
    (ways if ways.count() else page.locator("#moves button.other-ways-all")).click()
    card.locator("summary", has_text="Pay otherwise").click()
    for unit in ("rice-bale", "cattle"):
        card.locator(f"[data-pay='{unit}'] button[aria-label='one more']").click()
    warn = card.locator("[data-overpaid]")
    warn.wait_for(timeout=3_000)
    assert "2 AP more than it costs" in warn.inner_text() and "no change is given" in warn.inner_text()
    if SHOTS:
        card.scroll_into_view_if_needed()
        page.screenshot(path=os.path.join(SHOTS, "sapporo-overpaid.png"))
    card.locator("button.pay-other").click()
    went_in(server, page, code, t["seq"])
    after = api(server, "GET", f"/api/tables/{code}")["state"]["players"][1]
    assert after["educated"] == ben["educated"] + 1
    assert after["resources"]["rice-bale"] == ben["resources"]["rice-bale"] - 1
    assert after["resources"]["cattle"] == ben["resources"]["cattle"] - 1
    assert not errors, errors


def test_fame_purchases_are_not_capped(server, browser):
    """"If no workers remain in your private academy, you can pay 3 AP to gain 2 fame points. You can
    combine these any number of times in one action." The builder's stepper goes as far as the
    player could pay (here 40 yen: 13 times), not 9."""
    made = api(server, "POST", "/api/tables", {"game": "sapporo-1876", "players": ["Aki", "Ben"],
                                               "options": {"tiles": "companion"}, "seed": 2})
    page, errors = host_phone(browser, server, made)
    page.goto(f"{server.url}/t/{made['code']}/board")
    page.locator("#moves").wait_for(timeout=10_000)
    st = api(server, "GET", f"/api/tables/{made['code']}")["state"]
    st.update(phase="action", pawn="agricultural-college", acting=0, current=0)
    st["players"][0].update(educated=6, yen=40, resources={"wheat": 5, "rice-bale": 0, "sheep": 0, "cattle": 0})
    page.evaluate("""([st, code]) => {
        const B = tk.pageData().board;
        const nodes = SapporoBuilder({B, st, code, resName: {}, payText: () => "", withPay: (o) => o.move,
                                      otherPayment: () => tk.el("div"), send: () => {}, may: () => true});
        const box = tk.el("div", {id: "test-builder"}, ...nodes);
        document.body.prepend(box);
    }""", [st, made["code"]])
    d = page.locator("#test-builder details[data-builder='educate']")
    d.locator("summary").click()
    plus = d.locator("[data-field='fame'] button[aria-label$='one more']")
    for _ in range(12):
        plus.click()
    assert d.locator("[data-field='fame'] output").inner_text() == "12" and plus.is_enabled()
    plus.click()                                   # 13 x 3 = 39 AP of the 40 yen (wheat is not taken here)
    assert d.locator("[data-field='fame'] output").inner_text() == "13" and plus.is_disabled()
    assert "× 2 fame for 3 AP" in d.locator("[data-field='fame']").inner_text()
    assert not errors, errors
