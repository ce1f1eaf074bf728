"""Shin Bikkuri Man's board twin in a real headless Chromium on phone-sized windows (390 x 844):
a tile chosen, rotated and flipped, its cost shown before Play, placed by a tap, and seen on another
phone within a second."""
from __future__ import annotations

from phones import close_contexts, require_chromium, server_fixture

require_chromium()

GAME = "shin-bikkuri-man"
server = server_fixture("sbm-browser")
# these phones tap Play themselves: a whole move does not play itself after a moment (test_board_screen.py)
AUTOPLAY_OFF = "localStorage.setItem('tk.autoplay', 'off')"


def test_place_a_tile_with_rotate_and_flip_and_see_it_on_another_phone(server, browser):
    client = server.client
    made = client.post("/api/tables", json={"game": GAME, "players": ["Aki", "Ben"],
                                            "options": {"deck": "table"}}).get_json()
    code, host = made["code"], {"Authorization": f"Bearer {made['host_token']}"}
    seq = 0
    for move in ({"type": "fill-harbour", "cards": ["blue", "green", "blue", "yellow", "purple", "green", "blue"]},
                 {"type": "deal-hand", "player": 0, "cards": ["red", "red"]},
                 {"type": "deal-hand", "player": 1, "cards": ["green", "green", "yellow"]}):
        r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq, "move": move}, headers=host)
        assert r.status_code == 200, r.get_json()
        seq += 1

    try:
        pages, errors = [], []
        for _ in range(2):
            ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                      has_touch=True, bypass_csp=True)
            ctx.add_init_script(AUTOPLAY_OFF)
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(server.url + f"/t/{code}/board")
            pages.append(page)
        aki, ben = pages
        aki.locator("#seat-buttons button").nth(0).click()
        ben.locator("#seat-buttons button").nth(1).click()
        for page in pages:
            page.wait_for_function("window.tkTable && tkTable.mode === 'live'", timeout=10_000)
            page.locator("#facade svg #live-squares").wait_for(state="attached", timeout=5_000)
        ben.locator("#seats button[data-seat='0']").click()         # Ben watches Aki's façade
        assert aki.evaluate("document.documentElement.scrollWidth") <= 390
        # the colour-blind cue: each harbour card carries its colour's symbol
        assert aki.locator("#harbour button svg polygon, #harbour button svg circle").count() == 7

        aki.locator(".tiles button[data-tile='red-2']").click()
        aki.locator("#rotate").click()
        aki.locator("#flip").click()
        # a tap too high up: unsupported, and the page says why before anything is sent
        aki.locator("#facade .hit[data-col='2'][data-row='5']").click()
        aki.locator("#summary.bad").wait_for(timeout=3_000)
        assert "not supported" in aki.locator("#summary").inner_text()
        assert aki.locator("#play").is_disabled()
        aki.locator("#facade .hit[data-col='2'][data-row='1']").click()
        aki.wait_for_function("document.querySelector('#summary').textContent.includes('Cost 2')",
                              timeout=3_000)
        assert aki.locator("#facade #preview .sq").count() == 2
        squares = aki.evaluate("sbmBoard.draft.squares")
        assert sorted(map(tuple, squares)) == [(2, 1), (2, 2)]
        assert aki.evaluate("sbmBoard.draft.brick") == [2, 1]           # flipped: brick at the bottom
        aki.get_by_role("button", name="Play", exact=True).click()
        aki.locator("#facade #live-squares [data-square='2,1'][data-brick='1']").wait_for(timeout=2_000)
        # Ben's phone has it within a second: his turn, so his own façade is in view, Aki's a tap away
        ben.locator("#prompt", has_text="Ben").wait_for(timeout=1_000)
        ben.locator("#seats button[data-seat='0']").click()
        ben.locator("#facade #live-squares [data-square='2,2'][data-brick='0']").wait_for(timeout=1_000)
        assert ben.locator("#facade #live-squares [data-square='2,1'] polygon, "
                           "#facade #live-squares [data-square='2,1'] circle").count() >= 1
        assert not errors, errors
    finally:
        close_contexts(browser)


def test_a_coat_of_arms_earns_a_white_tile_placed_by_a_tap(server, browser):
    client = server.client
    made = client.post("/api/tables", json={"game": GAME, "players": ["Aki", "Ben"],
                                            "options": {"deck": "table"}}).get_json()
    code, host = made["code"], {"Authorization": f"Bearer {made['host_token']}"}
    setup = ({"type": "fill-harbour", "cards": ["purple"] * 7},
             {"type": "deal-hand", "player": 0, "cards": ["purple", "purple"]},
             {"type": "deal-hand", "player": 1, "cards": ["green"] * 3},
             {"type": "take", "player": 0, "spaces": [0, 1]}, {"type": "refill", "cards": ["red", "red"]},
             {"type": "take", "player": 1, "spaces": [0, 1]}, {"type": "refill", "cards": ["red", "red"]})
    for seq, move in enumerate(setup):
        r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq, "move": move}, headers=host)
        assert r.status_code == 200, r.get_json()

    try:
        errors = []
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  bypass_csp=True)   # (wait_for_function evals)
        ctx.add_init_script(AUTOPLAY_OFF)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + f"/t/{code}/board")
        page.locator("#seat-buttons button").nth(0).click()
        page.wait_for_function("window.tkTable && tkTable.mode === 'live'", timeout=10_000)
        page.locator(".tiles button[data-tile='purple-3']").click()
        page.locator("#rotate").click()
        page.locator("#facade .hit[data-col='3'][data-row='1']").click()   # a column covering (3, 3)
        page.wait_for_function("document.querySelector('#summary').textContent.includes('1 coat')",
                               timeout=3_000)
        page.get_by_role("button", name="Play", exact=True).click()
        page.wait_for_function("document.querySelector('#prompt').textContent.includes('coat-of-arms')",
                               timeout=3_000)
        page.locator("#facade .hit[data-col='1'][data-row='1']").click()
        page.get_by_role("button", name="Play", exact=True).click()
        page.locator("#facade #live-squares [data-square='1,1'][data-colour='white']").wait_for(timeout=3_000)
        page.wait_for_function("document.querySelector('#prompt').textContent.startsWith('Ben')", timeout=3_000)
        assert not errors, errors
    finally:
        close_contexts(browser)


def test_the_new_table_form_chooses_who_deals(server, browser):
    try:
        page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
        page.goto(server.url + f"/new/{GAME}")
        page.locator("#p0").fill("Aki")
        page.locator("#p1").fill("Ben")
        page.get_by_text("The companion deals.").click()
        page.get_by_role("button", name="Start the table").click()
        page.wait_for_url("**/t/*")
        code = page.url.rsplit("/", 1)[1]
        _, state = server.app.extensions["tokyo"].tables.state(code)
        assert state["mode"] == "companion" and len(state["harbour"]) == 7
    finally:
        close_contexts(browser)
