"""Shin Bikkuri Man at the table, in a real headless Chromium at 390 x 844: the set-up walk's "Enter it
now" opens the board on that entry (data-enter), and with Change of Colours the player chooses how
many cards of each colour pay for the tile (the tile's own colour first preselected)."""
from __future__ import annotations

import re

from phones import close_contexts, needs_chromium, server_fixture

GAME = "shin-bikkuri-man"

#: One companion for the module's tests; each test makes its own table on it.
server = server_fixture("sbm_browser_choices", threads=8)


def _table(server):
    """A new table-deck table of Aki and Ben on the module's companion: (app, client, POST's answer)."""
    app, client = server.app, server.client
    made = client.post("/api/tables", json={"game": GAME, "players": ["Aki", "Ben"],
                                            "options": {"deck": "table"}}).get_json()
    return app, client, made


def _phone(browser, server, code, entry):
    """A phone at 390 x 844 that joined table `code` as `entry` says ({player, host | token})."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                              bypass_csp=True)
    ctx.add_init_script("localStorage.setItem('tk.autoplay', 'off')")   # these phones tap Play themselves
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/join")
    page.evaluate("([code, entry]) => localStorage.setItem('tk.tables', JSON.stringify({[code]: entry}))",
                  [code, {"game": GAME, "at": 1, **entry}])
    return page, errors


@needs_chromium
def test_enter_it_now_opens_the_board_on_the_harbour_then_on_a_starting_hand(tmp_path, server, browser):
    app, client, made = _table(server)
    code, host = made["code"], {"Authorization": f"Bearer {made['host_token']}"}
    try:
        page, errors = _phone(browser, server, code, {"player": 0, "host": made["host_token"]})
        page.goto(f"{server.url}/t/{code}")
        walk = page.locator("#setup-walk")
        walk.get_by_text("Step 1 of 5").wait_for(timeout=10_000)
        while walk.locator(".walk-title").inner_text() != "The harbour":
            walk.get_by_role("button", name="Next").click()
        walk.get_by_role("link", name="Enter it now").click()
        page.wait_for_url(re.compile(r"/board\?enter=fill-harbour$"))
        chosen = page.locator("[data-enter='fill-harbour'][aria-pressed='true']")
        chosen.wait_for(timeout=10_000)
        assert chosen.evaluate("b => b.getBoundingClientRect().top") < 844      # brought into view
        harbour = ["purple", "purple", "blue", "green", "blue", "yellow", "green"]
        for c in harbour:
            page.locator(f"#entry [data-card='{c}']").click()
        page.get_by_role("button", name="Play", exact=True).click()
        # the harbour is entered: the next entry is a starting hand, the host chooses whose
        page.locator("[data-enter='deal-hand'][aria-pressed='true']").wait_for(timeout=5_000)
        assert client.get(f"/api/tables/{code}", headers=host).get_json()["state"]["harbour"] == harbour
        hands = page.locator("[data-enter='deal-hand']")
        assert hands.count() == 2 and "Aki's hand (2 cards)" in hands.nth(0).inner_text()
        hands.nth(1).click()                                    # Ben's hand instead
        page.locator("[data-enter='deal-hand'][aria-pressed='true']", has_text="Ben").wait_for(timeout=2_000)
        for c in ("green", "green", "yellow"):
            page.locator(f"#entry [data-card='{c}']").click()
        page.get_by_role("button", name="Play", exact=True).click()
        page.locator("[data-enter='deal-hand'][aria-pressed='true']", has_text="Aki").wait_for(timeout=5_000)
        st = client.get(f"/api/tables/{code}", headers=host).get_json()["state"]
        assert st["deal"]["hands"] == [False, True]
        # a seat's own phone, opened on the entry, enters only its own hand
        claim = client.post(f"/api/tables/{code}/seats", json={"player": 1}).get_json()
        ben, ben_errors = _phone(browser, server, code, {"player": 1, "token": claim["token"]})
        ben.goto(f"{server.url}/t/{code}/board?enter=deal-hand")
        ben.get_by_text("Waiting for the starting hands.").wait_for(timeout=10_000)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(tmp_path / "enter.png"))
        assert not errors and not ben_errors, errors + ben_errors
    finally:
        close_contexts(browser)


def _to_change_of_colours(client, code, host):
    """Aki covers the coat of arms on square (3, 3) with the purple 3-tile, takes Change of Colours,
    and holds 1 red and 2 blue cards on her next turn."""
    def play(*moves):
        for move in moves:
            seq = client.get(f"/api/tables/{code}", headers=host).get_json()["seq"]
            if move == "discard":
                legal = client.get(f"/api/tables/{code}/legal", headers=host).get_json()["moves"]
                move = next(m for m in legal if m["type"] == "discard")
            r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq, "move": move}, headers=host)
            assert r.status_code == 200, (move, r.get_json())
    play({"type": "fill-harbour", "cards": ["purple", "purple", "blue", "green", "blue", "yellow", "green"]},
         {"type": "deal-hand", "player": 0, "cards": ["purple", "red"]},
         {"type": "deal-hand", "player": 1, "cards": ["green", "green", "yellow"]},
         {"type": "take", "player": 0, "spaces": [0, 1]}, {"type": "refill", "cards": ["blue", "blue"]},
         {"type": "take", "player": 1, "spaces": [1, 2]}, {"type": "refill", "cards": ["yellow", "yellow"]},
         {"type": "build", "player": 0, "tile": "purple-3", "squares": [[3, 1], [3, 2], [3, 3]], "brick": [3, 1]},
         {"type": "take-ability", "player": 0, "ability": "change-of-colours"},
         {"type": "take", "player": 1, "spaces": [0, 1]}, {"type": "refill", "cards": ["red", "red"]},
         {"type": "take", "player": 0, "spaces": [1, 2]}, {"type": "refill", "cards": ["green", "green"]},
         {"type": "take", "player": 1, "spaces": [0, 1]}, "discard", {"type": "refill", "cards": ["purple", "purple"]})
    st = client.get(f"/api/tables/{code}", headers=host).get_json()["state"]
    assert st["current"] == 0 and st["players"][0]["abilities"]["change-of-colours"] == "ready"
    assert {c: n for c, n in st["players"][0]["hand"].items() if n} == {"red": 1, "blue": 2}


@needs_chromium
def test_change_of_colours_lets_the_player_choose_the_cards_paid(tmp_path, server, browser):
    app, client, made = _table(server)
    code, host = made["code"], {"Authorization": f"Bearer {made['host_token']}"}
    _to_change_of_colours(client, code, host)
    try:
        aki, errors = _phone(browser, server, code, {"player": 0, "host": made["host_token"]})
        aki.goto(f"{server.url}/t/{code}/board")
        aki.locator(".tiles button[data-tile='red-2']").click()
        aki.locator("#facade .hit[data-col='1'][data-row='1']").click()
        aki.wait_for_function("document.querySelector('#summary').textContent.includes('Cost 2')", timeout=5_000)
        aki.locator("input[data-ability='change-of-colours']").check()
        aki.locator("[data-recolour='blue']").click()
        choice = aki.locator("#pay-choice")
        choice.wait_for(timeout=3_000)
        # preselected: the tile's own colour first (1 red), the rest in blue
        aki.wait_for_function("document.querySelector('#summary').textContent.includes('1 Red + 1 Blue')",
                              timeout=3_000)
        assert aki.evaluate("sbmBoard.ui.own") is None
        assert choice.get_by_role("button", name="one Red card more").is_disabled()   # only 1 red held
        choice.get_by_role("button", name="one Red card fewer").click()
        aki.wait_for_function("document.querySelector('#summary').textContent.includes('(2 Blue)')",
                              timeout=3_000)
        assert choice.get_by_role("button", name="one Red card fewer").is_disabled()
        assert "Change of Colours is used" in choice.inner_text()
        assert aki.evaluate("document.documentElement.scrollWidth") <= 390
        aki.screenshot(path=str(tmp_path / "pay.png"), full_page=True)
        aki.get_by_role("button", name="Play", exact=True).click()
        aki.locator("#facade #live-squares [data-square='1,1']").wait_for(timeout=5_000)
        st = client.get(f"/api/tables/{code}", headers=host).get_json()["state"]
        aki_state = st["players"][0]
        assert {c: n for c, n in aki_state["hand"].items() if n} == {"red": 1}     # paid 2 blue
        assert aki_state["abilities"]["change-of-colours"] == "used"
        assert not errors, errors
    finally:
        close_contexts(browser)
