"""Tokyo Jutaku's pages on phones (390 x 844 and 360 x 740, Debian's chromium) for issue 21: Izakaya's
first turn order drawn at the table and entered by tapping names; in Bottle Bonus a card a black drink
flipped lies on the map blue side up after its player moved on, its QR page shows both faces while
another card's shows only the face it lies on, and the prompt says a round could be the last."""
from __future__ import annotations


import pytest

from phones import require_chromium, server_fixture  # noqa: E402

sync_api = require_chromium()

from .live import api, phone, play, table  # noqa: E402

SIZES = [(390, 844), (360, 740)]


server = server_fixture("jutaku-audit")


@pytest.mark.parametrize("size", SIZES)
def test_izakaya_turn_order_drawn_at_the_table_is_tapped_in(server, browser, size, tmp_path):
    """"Using players' remaining disc, randomly draw them 1 at a time, and create the turn order": the
    phone asks for it first; tapping the names in the order drawn enters it, then the bids begin."""
    code, host, tokens = table(server, ["Aki", "Ben", "Chie"], {"mode": "izakaya"})
    ctx, page, errors = phone(browser, server, code, 1, tokens[1], size)
    try:
        form = page.locator("#order-form")
        form.wait_for(timeout=5_000)
        assert "enter the turn order" in page.locator("#prompt").inner_text()
        for who in ("Chie", "Aki"):                       # the last disc is the one left: Ben
            form.get_by_role("button", name=who).click()
        assert page.locator("#order-drawn li").all_inner_texts() == ["Chie", "Aki", "Ben"]
        page.screenshot(path=str(tmp_path / f"izakaya-order-{size[0]}.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        form.get_by_role("button", name="Enter this order").click()
        page.wait_for_function("tkTable.table.state.phase === 'bid'", timeout=5_000)
        assert api(server, f"/api/tables/{code}")["state"]["order"] == [2, 0, 1]
        page.get_by_role("button", name="Seal my bid").wait_for(timeout=5_000)
        assert "Chie, Aki, Ben" in page.locator("#info").inner_text()
        assert errors == []
    finally:
        ctx.close()


def bottle_bonus_until_a_flipped_card_is_left(server):
    """Two players, Bottle Bonus drawn at the table: Aki grabs a black drink, flips suginami-1 (white
    2.V, blue 1.///), moves on after Ben's next card; Ben completes a third card: he holds 3."""
    code, host, tokens = table(server, ["Aki", "Ben"], {"bottle_bonus": True, "chance": "table"})
    play(server, code, host, {"type": "start", "player": 0, "site": "suginami-1"})
    play(server, code, host, {"type": "start", "player": 1, "site": "taito-2"})

    def ben_completes(drink, aki_grabs, aki_moves):
        play(server, code, host, {"type": "begin"})
        play(server, code, host, {"type": "stop", "player": 1})
        play(server, code, host, {"type": "verdict", "player": 0, "builder": 1, "ok": True})
        play(server, code, host, {"type": "draw-drinks", "drinks": [drink]})
        play(server, code, host, {"type": "grab", "player": 0, "drink": drink if aki_grabs else None})
        for seat in (1, 0):
            legal = api(server, f"/api/tables/{code}/legal?player={seat}", token=host)["moves"]
            moves = [m for m in legal if m["type"] == "move" and not m.get("purple") and m["site"] != "suginami-1"]
            stay = [m for m in legal if m["type"] == "stay"]
            play(server, code, host, moves[0] if seat == 1 or aki_moves else stay[0])

    ben_completes("black", True, False)
    play(server, code, host, {"type": "spend", "player": 0, "drink": "black"})
    ben_completes("white", False, True)                  # Aki moves on: suginami-1 goes back blue up
    ben_completes("white", False, False)
    state = api(server, f"/api/tables/{code}")["state"]
    assert state["turned"] == {"suginami-1": "blue"} and len(state["players"][1]["kept"]) == 3
    return code, tokens


@pytest.mark.parametrize("size", SIZES)
def test_a_flipped_card_left_on_the_map_shows_its_blue_face_and_the_round_could_be_the_last(server, browser,
                                                                                            size, tmp_path):
    code, tokens = bottle_bonus_until_a_flipped_card_is_left(server)
    ctx, page, errors = phone(browser, server, code, 0, tokens[0], size)
    try:
        cell = page.locator('#map [data-site="suginami-1"]')
        cell.wait_for(timeout=5_000)
        assert "blue" in cell.get_attribute("class").split()
        assert cell.locator(".req").inner_text() == "1.///"
        prompt = page.locator("#prompt").inner_text()
        assert "This could be the last round: Ben has 3 site cards" in prompt, prompt
        assert page.locator("#facts .facts-last").count() == 0           # no "Last round!" banner
        page.screenshot(path=str(tmp_path / f"bottle-flipped-{size[0]}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        # the QR pages at this table: both faces of the flipped card, one face of another
        ctx.add_cookies([{"name": "tk_table", "value": code, "url": server.url},
                         {"name": "tk_table_token", "value": tokens[0], "url": server.url}])
        page.goto(server.url + "/q/jutaku/site-card/suginami-1")
        assert page.locator("section.jt-face").count() == 2
        assert page.locator("#back-hidden").count() == 0
        page.goto(server.url + "/q/jutaku/site-card/meguro-1")
        assert page.locator("section.jt-face").count() == 1 and page.locator("details#other-side").count() == 0
        assert "stays hidden until a black drink flips it" in page.locator("#back-hidden").inner_text()
        page.screenshot(path=str(tmp_path / f"site-card-hidden-{size[0]}.png"), full_page=True)
        assert errors == []
    finally:
        ctx.close()
