"""Small things players saw (issue 9), in a real headless Chromium at 390 x 844 and 360 wide:
a blank name field is named as it shows ("Player 2"); a game for exactly two says "2 players";
"Your tables" says which game, who plays, whose turn and when the last move was made; the focus
ring and every player's colour mark stand out from the page (contrast >= 3:1) and each seat's
colour has its own symbol."""
from __future__ import annotations

import re

import pytest
import requests

from phones import open_phone, require_chromium, server_fixture  # noqa: E402

sync_api = require_chromium()


WIDTHS = [390, 360]


server = server_fixture("home", SSE_PER_CLIENT=16)


def phone(browser, width):
    ctx, page, errors = open_phone(browser, (width, 844), bypass_csp=False)
    return ctx, page, errors


def no_sideways_scroll(page, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def luminance(rgb):
    def lin(c):
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = rgb
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def rgb(css):
    """The first colour of a computed CSS value ("rgb(17, 17, 17) -1px -1px 0px, ...")."""
    m = re.search(r"rgba?\((\d+),\s*(\d+),\s*(\d+)", css)
    assert m, css
    return tuple(int(x) for x in m.groups())


@pytest.mark.parametrize("width", WIDTHS)
def test_blank_names_are_named_as_shown_and_a_two_player_game_says_2_players(server, browser, width):
    ctx, page, errors = phone(browser, width)
    try:
        page.goto(server.url + "/new/sapporo-1876")
        intro = page.locator("#create p.muted").first.inner_text()
        assert intro.startswith("2 players, in playing order.") and "to 2" not in intro
        assert "blank" in intro and "Player 1" in intro
        assert not page.locator("#add").is_visible() and not page.locator("#remove").is_visible()
        assert page.locator("#p0").get_attribute("placeholder") == "Player 1"
        assert page.locator("#p0").input_value() == ""                  # a placeholder, not a value
        page.locator("#p1").fill("Ben")
        no_sideways_scroll(page, width)
        page.get_by_role("button", name="Start the table").click()
        page.wait_for_url(re.compile(r"/t/[0-9A-Z]{8}$"))
        code = page.url.rsplit("/", 1)[1]
        assert requests.get(f"{server.url}/api/tables/{code}", timeout=10).json()["players"] == ["Player 1", "Ben"]
        page.goto(server.url + "/")
        games = page.locator("h2", has_text="Games").locator("xpath=following-sibling::ul[1]")
        sapporo = games.locator("li", has_text="Sapporo 1876").first.inner_text()
        assert "2 players" in sapporo and "2–2" not in sapporo
        assert "2–4 players" in games.locator("li", has_text="Shinjuku").first.inner_text()
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_your_tables_name_the_game_players_turn_and_last_move(server, browser, width):
    r = requests.post(server.url + "/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben"],
                                                        "options": {"deck": "companion"}, "seed": 3}, timeout=10)
    code, host = r.json()["code"], {"Authorization": f"Bearer {r.json()['host_token']}"}
    assert requests.post(f"{server.url}/api/tables/{code}/moves", headers=host, timeout=10, json={
        "expected_seq": 0, "move": {"type": "place-customers", "player": 0}}).status_code == 200
    ctx, page, errors = phone(browser, width)
    try:
        page.goto(f"{server.url}/t/{code}")
        page.locator("#seat-buttons button", has_text="Ben").click()
        page.locator("#whoami", has_text="you are Ben").wait_for(timeout=15_000)   # the seat's token kept
        page.goto(server.url + "/")
        entry = page.locator(f"#my-tables li[data-code=\"{code}\"]")
        entry.locator(".table-state", has_text="last move").wait_for(timeout=10_000)
        text = entry.inner_text()
        assert text.startswith("Shinjuku ") and f"{code[:4]}-{code[4:]}" in text
        assert "Aki, Ben · Aki to play · last move just now" in text
        assert entry.locator("a").get_attribute("href") == f"/t/{code}"
        assert entry.locator("a").bounding_box()["height"] >= 44
        no_sideways_scroll(page, width)
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_focus_ring_and_player_colours_stand_out_and_each_seat_has_its_symbol(server, browser, width):
    r = requests.post(server.url + "/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben", "Cho", "Dai"],
                                                        "options": {"deck": "companion"}, "seed": 5}, timeout=10)
    code = r.json()["code"]
    ctx, page, errors = phone(browser, width)
    try:
        page.goto(f"{server.url}/t/{code}/board")
        page.locator("#map-key .seat-mark").nth(3).wait_for(timeout=15_000)
        paper = rgb(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        for where in ("#map-key", "#overview"):
            # read in one go: each live update redraws the key, and a mark read after it is a detached one
            marks = page.evaluate(f"""[...document.querySelectorAll('{where} .seat-mark')].map(e => [
                getComputedStyle(e, '::before').content, getComputedStyle(e).textShadow, e.dataset.symbol])""")
            assert len(marks) == 4
            glyphs = [m[0] for m in marks]
            assert len(set(glyphs)) == 4 and all(g not in ("none", "normal", '""') for g in glyphs), glyphs
            for i, (_glyph, shadow, _symbol) in enumerate(marks):
                outline = rgb(shadow)
                assert contrast(outline, paper) >= 3, (where, i, outline)
            # the data's symbols, as printed on the pieces: red circle, blue square, green triangle, yellow diamond
            assert [m[2] for m in marks] == ["circle", "square", "triangle", "diamond"]
        key = page.locator("#map-key").inner_text()
        assert key.index("Aki") < key.index("Ben")
        button = page.locator("#types button").first
        button.focus()
        page.keyboard.press("Tab")
        page.keyboard.press("Shift+Tab")
        ring = page.evaluate("getComputedStyle(document.activeElement).outlineColor")
        width_px = page.evaluate("parseFloat(getComputedStyle(document.activeElement).outlineWidth)")
        assert width_px >= 2 and contrast(rgb(ring), paper) >= 3, ring
        no_sideways_scroll(page, width)
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_izakaya_players_and_claim_discs_show_their_colours_symbol(server, browser, width):
    """Tokyo Jutaku's Izakaya: the player list and every claim disc on the grid carry the symbol
    the data gives the player's metro colour (red circle, blue square, green triangle, yellow diamond)."""
    r = requests.post(server.url + "/api/tables", json={"game": "jutaku", "players": ["Aki", "Ben", "Cho", "Dai"],
                                                        "options": {"mode": "izakaya"}}, timeout=10)
    code, host = r.json()["code"], {"Authorization": f"Bearer {r.json()['host_token']}"}
    for _ in range(80):               # bids and actions from the legal list, claiming while one is legal
        t = requests.get(f"{server.url}/api/tables/{code}", headers=host, timeout=10).json()
        if len(set(t["state"]["edges"].values())) == 4:
            break
        moves = requests.get(f"{server.url}/api/tables/{code}/legal", headers=host, timeout=10).json()["moves"]
        bids = t["state"].get("bids") or {}         # (a sealed bid may be sent again: bid once each)
        fresh = [m for m in moves if m["type"] != "bid" or str(m.get("player")) not in bids]
        move = next((m for m in fresh if m["type"] == "claim"), fresh[0])
        assert requests.post(f"{server.url}/api/tables/{code}/moves", headers=host, timeout=10,
                             json={"expected_seq": t["seq"], "move": move}).status_code == 200
    edges = t["state"]["edges"]
    assert len(set(edges.values())) == 4
    ctx, page, errors = phone(browser, width)
    try:
        page.goto(f"{server.url}/t/{code}/board")
        page.locator("#players .seat-mark").nth(3).wait_for(timeout=15_000)
        marks = [page.locator("#players .seat-mark").nth(i).get_attribute("data-symbol") for i in range(4)]
        assert marks == ["circle", "square", "triangle", "diamond"]
        discs = page.locator("#grid svg [data-symbol]")
        assert discs.count() == len(edges)
        # each disc: a white square outlined in the seat's colour (unlike the round drinks) holding
        # the seat's symbol, a circle or the symbol's polygon
        shapes = {discs.nth(i).evaluate("e => e.lastElementChild.tagName + ':' + e.dataset.symbol")
                  for i in range(discs.count())}
        assert shapes == {"circle:circle", "polygon:square", "polygon:triangle", "polygon:diamond"}
        no_sideways_scroll(page, width)
        assert not errors, errors
    finally:
        ctx.close()
