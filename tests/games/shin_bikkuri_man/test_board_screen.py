"""Shin Bikkuri Man's board page as one game screen (issue 23 point 1), in a real headless Chromium on
phones of 390 x 844 and 360 x 740: what a turn needs is on screen without scrolling (the harbour in one
row of 7, the hand, the façade, the tiles drawn in their shapes, Turn / Flip and Play), choosing a tile
leaves the façade where it is, Turn goes to the next way the tile fits, two cards apart cannot be taken
without Any Cards, a pair is taken with one tap and plays itself after a moment (Clear stops it), a tile
that fits where it was tapped more than one way waits for Play, the table's harbour is entered
into slots where one wrong card is changed alone, text targets are 44 px tall, one h1, and axe-core
finds nothing on the screens a turn goes through."""
from __future__ import annotations

import pytest

from phones import BOX_JS, TAP_TARGETS_JS, close_contexts, require_chromium, seated_phone, server_fixture

require_chromium()
pytest.importorskip("axe_playwright_python")

from axe_playwright_python.sync_playwright import Axe  # noqa: E402


GAME = "shin-bikkuri-man"
HARBOUR = ["blue", "green", "blue", "yellow", "purple", "green", "blue"]
DEAL = [{"type": "fill-harbour", "cards": HARBOUR},
        {"type": "deal-hand", "player": 0, "cards": ["red", "red"]},
        {"type": "deal-hand", "player": 1, "cards": ["green", "green", "yellow"]}]



server = server_fixture("sbm-screen")


def _table(server, moves=DEAL, mode="table"):
    made = server.client.post("/api/tables", json={"game": GAME, "players": ["Aki", "Ben"],
                                                   "options": {"deck": mode}}).get_json()
    code, host = made["code"], {"Authorization": f"Bearer {made['host_token']}"}
    for seq, move in enumerate(moves):
        r = server.client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq, "move": move}, headers=host)
        assert r.status_code == 200, (move, r.get_json())
    return made


def _state(server, made):
    return server.client.get(f"/api/tables/{made['code']}",
                             headers={"Authorization": f"Bearer {made['host_token']}"}).get_json()


def _phone(browser, server, made, size=(390, 844)):
    """Aki's phone (seat 0, the host's) on the board page."""
    ctx, page = seated_phone(browser, server, made["code"],
                             {"game": GAME, "player": 0, "host": made["host_token"]}, size)
    page.wait_for_function("window.tkTable && tkTable.table && tkTable.mode === 'live'", timeout=15_000)
    page.locator("#facade svg #live-squares").wait_for(state="attached", timeout=10_000)
    return page


def _in_view(page, selector, bottom=None):
    top, low, left, right = page.evaluate(BOX_JS, selector)
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    limit = height if bottom is None else bottom
    assert 0 <= top and low <= limit and 0 <= left and right <= width, (selector, top, low, limit)


def _short_targets(page):
    return [(html, h) for html, h in page.evaluate(TAP_TARGETS_JS) if h < 44]


def _axe(page):
    found = Axe().run(page).response["violations"]
    return [f"{v['id']} at {n['target']}" for v in found for n in v["nodes"]]


@pytest.mark.parametrize("size", [(390, 844), (360, 740)])
def test_a_turn_is_one_screen(server, browser, size):
    made = _table(server)
    try:
        page = _phone(browser, server, made, size)
        assert page.locator("h1").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]      # nothing sideways
        # the harbour: 7 cards in one row, in order
        boxes = [page.locator(f"#harbour [data-space='{i}']").bounding_box() for i in range(7)]
        assert len({round(b["y"]) for b in boxes}) == 1
        assert all(boxes[i]["x"] < boxes[i + 1]["x"] for i in range(6))
        # the tiles the hand can pay for (2 red: the red 2-tile), each drawn in its shape
        red2 = page.locator("#actions [data-tile='red-2']")
        assert red2.locator("svg.tile-shape .sq").count() == 2
        assert page.locator("#actions [data-tile]").count() == 1
        page.locator("#all-tiles").click()                    # the others, a tap away
        assert page.locator("#actions [data-tile]").count() == 20
        for tile_id, size_ in (("purple-5", 5), ("green-4", 4), ("yellow-3", 3)):
            assert page.locator(f"#actions [data-tile='{tile_id}'] svg.tile-shape .sq").count() == size_
        page.locator("#all-tiles").click()
        page.evaluate("scrollTo(0, 0)")                          # (the long list was scrolled to its end)
        # everything a turn needs, at the top of the page, above the bar
        assert page.evaluate("scrollY") == 0
        bar = page.evaluate(BOX_JS, "#sbm-bar")[0]
        for sel in ("#harbour", "#pairs", "#hand", "#facade", "#actions [data-tile='red-2']", "#rotate", "#flip"):
            _in_view(page, sel, bottom=bar)
        _in_view(page, "#play")
        assert _short_targets(page) == []
        # choosing a tile leaves the façade in view where it was
        facade_before = page.evaluate(BOX_JS, "#facade")
        red2.click()
        assert page.evaluate("scrollY") == 0 and page.evaluate(BOX_JS, "#facade") == facade_before
        # a tap where the tile's lowest square goes: it lies as it is turned; it fits there four ways, so
        # it does not play itself (Turn may follow): Play decides
        page.locator("#facade .hit[data-col='2'][data-row='1']").click()
        page.wait_for_function("document.querySelector('#summary').textContent.startsWith('Cost 2')", timeout=5_000)
        assert sorted(map(tuple, page.evaluate("sbmBoard.draft.squares"))) == [(2, 1), (3, 1)]
        assert not page.evaluate("document.documentElement.hasAttribute('data-autoplay-armed')")
        assert _axe(page) == [] and _short_targets(page) == []
        page.locator("#play").click()
        page.locator("#facade #live-squares [data-square='3,1']").wait_for(timeout=10_000)
        state = _state(server, made)["state"]
        assert state["players"][0]["facade"][-1] == ".Rr.." and state["current"] == 1
        # Ben's turn: this host phone keeps Aki's own façade and hand until asked to enter Ben's move
        page.locator("#act-for", has_text="Enter Ben's move").wait_for(timeout=5_000)
        assert page.locator("#pairs").is_hidden() and page.locator("#facade-of").inner_text() == ""
        page.locator("#act-for").click()
        assert page.locator("#facade-of").inner_text() == "Ben's façade" and page.locator("#pairs").is_visible()
        assert page.locator("#hand").get_attribute("aria-label") is None
        assert "Ben's hand" in page.locator("#hand .hand").get_attribute("aria-label")
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        page.screenshot(path=f"/tmp/sbm-screen-{size[0]}.png")
        assert page.errors == []
    finally:
        close_contexts(browser)


def test_turn_goes_to_the_next_way_that_fits(server, browser):
    made = _table(server)
    try:
        page = _phone(browser, server, made)
        page.locator("#all-tiles").click()
        page.locator("#actions [data-tile='red-3']").click()          # an L: as it lies, it sticks out at the right
        page.locator("#facade .hit[data-col='5'][data-row='1']").click()
        seen = set()
        for _ in range(8):
            page.wait_for_function("sbmBoard.ui.preview !== null", timeout=5_000)
            cells = frozenset(map(tuple, page.evaluate("sbmBoard.draft.squares")))
            assert all(1 <= c <= 5 and 1 <= r <= 9 for c, r in cells)            # never off the board
            assert (5, 1) in cells and min(r for _, r in cells) == 1              # its lowest square there
            assert page.locator("#summary.bad").count() == 0
            seen.add((cells, tuple(page.evaluate("sbmBoard.draft.brick"))))
            page.locator("#rotate").click()
        assert len(seen) >= 2                                                    # Turn went on to another way
        # Aki holds 2 red for a tile of 3: nothing plays by itself, Play says what the server says
        assert not page.evaluate("document.documentElement.hasAttribute('data-autoplay-armed')")
        # (the summary asks the server: '…' until its answer is in)
        page.wait_for_function("document.querySelector('#summary').innerText.includes('you hold 2 Red')",
                               timeout=10_000)
        page.locator("#clear").click()
        assert _state(server, made)["seq"] == 3 and page.errors == []
    finally:
        close_contexts(browser)


def test_a_pair_is_one_tap_and_cards_apart_need_any_cards(server, browser):
    # Aki has used Any Cards on her first turn; on her second, cards 1 and 5 cannot be taken together
    made = _table(server, DEAL + [{"type": "take", "player": 0, "spaces": [0, 4], "abilities": ["any-cards"]},
                                  {"type": "refill", "cards": ["red", "red"]},
                                  {"type": "take", "player": 1, "spaces": [0, 1]},
                                  {"type": "refill", "cards": ["yellow", "yellow"]}])
    try:
        page = _phone(browser, server, made)
        assert _state(server, made)["state"]["players"][0]["abilities"]["any-cards"] == "used"
        page.locator("#harbour [data-space='0']").click()
        page.locator("#harbour [data-space='4']").click()
        assert "not next to each other" in page.locator("#summary").inner_text()
        assert page.locator("#play").is_disabled()
        assert not page.evaluate("document.documentElement.hasAttribute('data-autoplay-armed')")
        page.locator("#clear").click()
        # a pair: one tap, and Clear stops it from playing itself
        harbour = _state(server, made)["state"]["harbour"]
        page.locator("#pairs [data-pair='2']").click()
        page.locator("#autoplay-note", has_text="in a moment").wait_for(timeout=3_000)
        assert page.locator("#pairs [data-pair='2']").get_attribute("aria-pressed") == "true"
        page.locator("#clear").click()
        assert not page.evaluate("document.documentElement.hasAttribute('data-autoplay-armed')")
        assert page.locator("#autoplay-note").is_hidden()
        seq = _state(server, made)["seq"]
        # the same tap again, no Play: the two cards are taken
        page.locator("#pairs [data-pair='2']").click()
        page.wait_for_function(f"tkTable.table.seq > {seq}", timeout=10_000)
        state = _state(server, made)["state"]
        assert state["phase"] == "refill" and state["harbour"] == harbour[:2] + harbour[4:]
        hand = state["players"][0]["hand"]
        assert hand[harbour[2]] >= 1 and hand[harbour[3]] >= 1
        assert page.errors == []
    finally:
        close_contexts(browser)


def test_the_harbour_is_entered_into_slots_and_one_wrong_card_is_changed_alone(server, browser):
    made = _table(server, [])
    try:
        page = _phone(browser, server, made)
        assert page.locator("h1").count() == 1
        wrong = ["blue", "green", "red", "yellow", "purple"]               # the third card was really blue
        for c in wrong:
            page.locator(f"#entry [data-card='{c}']").click()
        assert page.locator("#harbour [data-slot]").count() == 5
        assert _axe(page) == [] and _short_targets(page) == []
        page.locator("#harbour [data-slot='2']").click()                   # the wrong one, and only it
        assert page.locator("#harbour [data-slot='2']").get_attribute("aria-pressed") == "true"
        page.locator("#entry [data-card='blue']").click()
        assert page.evaluate("sbmBoard.draft.cards") == ["blue", "green", "blue", "yellow", "purple"]
        for c in ("green", "blue"):
            page.locator(f"#entry [data-card='{c}']").click()
        # whole: it plays itself (no Play tap)
        page.wait_for_function("tkTable.table.seq >= 1", timeout=10_000)
        assert _state(server, made)["state"]["harbour"] == HARBOUR
        # Aki's own hand next, two slots, entered the same way
        page.locator("[data-enter='deal-hand'][aria-pressed='true']", has_text="Aki").wait_for(timeout=5_000)
        assert page.locator("#entry .hand-slots > *").count() == 2
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.errors == []
    finally:
        close_contexts(browser)
