"""Shin Bikkuri Man with the table's deck, cards named when paid (the new tables' way), in a real headless
Chromium on phones of 390 x 844 and 360 x 740: nothing dealt or revealed is tapped in; the harbour shows
its 7 spaces in one row (no colour), the hand its size; a pair is one tap and plays itself; a build is
the tile and a tap on the façade, paid in the tile's colour without a tap; a hand-limit discard names its
colours a tap each; "The END card came up" is offered (and ends the game with one tap) only while the
refill just made could have shown it; one h1, 44 px targets, no axe-core violation, nothing sideways.
One server and one browser for the module."""
from __future__ import annotations

import random

import pytest

from phones import BOX_JS, TAP_TARGETS_JS, close_contexts, require_chromium, seated_phone, server_fixture

require_chromium()
pytest.importorskip("axe_playwright_python")

from axe_playwright_python.sync_playwright import Axe  # noqa: E402


GAME = "shin-bikkuri-man"
NAMED = {"deck": "table", "cards": "named-when-paid"}


server = server_fixture("sbm-named")


def _table(server, moves=()):
    made = server.client.post("/api/tables", json={"game": GAME, "players": ["Aki", "Ben"],
                                                   "options": NAMED}).get_json()
    for move in moves:
        _send(server, made, move)
    return made


def _send(server, made, move):
    seq = _state(server, made)["seq"]
    r = server.client.post(f"/api/tables/{made['code']}/moves", json={"expected_seq": seq, "move": move},
                           headers={"Authorization": f"Bearer {made['host_token']}"})
    assert r.status_code == 200, (move, r.get_json())


def _state(server, made):
    return server.client.get(f"/api/tables/{made['code']}",
                             headers={"Authorization": f"Bearer {made['host_token']}"}).get_json()


def _phone(browser, server, made, size=(390, 844), seat=0):
    ctx, page = seated_phone(browser, server, made["code"],
                             {"game": GAME, "player": seat, "host": made["host_token"]}, size)
    page.wait_for_function("window.tkTable && tkTable.table && tkTable.mode === 'live'", timeout=15_000)
    page.locator("#facade svg #live-squares").wait_for(state="attached", timeout=10_000)
    return page


def _short_targets(page):
    return [(html, h) for html, h in page.evaluate(TAP_TARGETS_JS) if h < 44]


def _axe(page):
    found = Axe().run(page).response["violations"]
    return [f"{v['id']} at {n['target']}" for v in found for n in v["nodes"]]


def _in_view(page, selector, bottom):
    top, low, left, right = page.evaluate(BOX_JS, selector)
    assert 0 <= top and low <= bottom and 0 <= left and right <= page.viewport_size["width"], (selector, top, low)


@pytest.mark.parametrize("size", [(390, 844), (360, 740)])
def test_a_draw_and_a_build_tap_in_nothing_revealed(server, browser, size):
    made = _table(server)
    try:
        page = _phone(browser, server, made, size)
        assert page.locator("h1").count() == 1 and page.locator("#entry").is_hidden()
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        boxes = [page.locator(f"#harbour [data-space='{i}']").bounding_box() for i in range(7)]
        assert len({round(b["y"]) for b in boxes}) == 1                  # one row of 7 spaces
        assert page.locator("#harbour .card-face.unknown").count() == 7  # no colour claimed
        assert "2 cards" in page.locator("#hand").inner_text()            # the hand as its size
        bar = page.evaluate(BOX_JS, "#sbm-bar")[0]
        for sel in ("#harbour", "#pairs", "#hand", "#facade", "#rotate"):
            _in_view(page, sel, bar)
        assert _short_targets(page) == [] and _axe(page) == []
        page.screenshot(path=f"/tmp/sbm-named-draw-{size[0]}.png")
        # a draw: one tap on a pair, no Play
        page.locator("#pairs [data-pair='2']").click()
        page.locator("#autoplay-note", has_text="in a moment").wait_for(timeout=3_000)
        page.wait_for_function("tkTable.table.seq >= 1", timeout=10_000)
        state = _state(server, made)["state"]
        assert state["phase"] == "turn" and state["current"] == 1        # refilled by itself: Ben's turn
        assert state["players"][0]["hand"] == {"?": 4} and len(state["harbour"]) == 7
        # Ben takes too; then Aki builds a red 2-tile: the tile, a tap on the façade, Play (it fits
        # there more than one way), paid 2 red with no tap
        _send(server, made, {"type": "take", "player": 1, "spaces": [0, 1]})
        page.wait_for_function("tkTable.table.seq >= 2 && tkTable.table.state.current === 0", timeout=10_000)
        page.locator("#actions [data-tile='red-2']").click()
        page.locator("#facade .hit[data-col='2'][data-row='1']").click()
        page.wait_for_function("document.querySelector('#summary').textContent.includes('pay 2 Red')",
                               timeout=10_000)
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        assert _short_targets(page) == [] and _axe(page) == []
        page.screenshot(path=f"/tmp/sbm-named-build-{size[0]}.png")
        page.locator("#play").click()
        page.wait_for_function("tkTable.table.seq >= 3", timeout=10_000)
        state = _state(server, made)["state"]
        assert state["discard"]["red"] == 2 and state["players"][0]["hand"] == {"?": 2}
        assert state["players"][0]["facade"][-1] in (".Rr..", ".rR..")
        assert page.errors == []
    finally:
        close_contexts(browser)


def test_a_discard_names_its_colours(server, browser):
    # Aki and Ben take pairs; Aki's third pair puts her hand over the limit (2 + 2 + 2 + 2 = 8 > 7)
    moves = []
    for _ in range(2):
        moves += [{"type": "take", "player": 0, "spaces": [0, 1]}, {"type": "take", "player": 1, "spaces": [0, 1]}]
    made = _table(server, moves)
    try:
        page = _phone(browser, server, made)
        _send(server, made, {"type": "take", "player": 0, "spaces": [3, 4]})
        page.wait_for_function("tkTable.table.state.phase === 'discard'", timeout=10_000)
        page.locator("#autoplay-on").uncheck()                  # to look at the choice before it plays
        page.evaluate("scrollTo(0, 0)")
        page.locator("#actions [data-discard='blue']").click()
        assert page.evaluate("sbmBoard.draft.cards") == ["blue"]
        assert _short_targets(page) == [] and _axe(page) == []
        page.locator("#actions [data-undiscard='0']").click()                       # taken back
        assert page.evaluate("sbmBoard.draft") is None
        page.locator("#autoplay-on").check()
        page.evaluate("scrollTo(0, 0)")
        page.locator("#actions [data-discard='green']").click()                     # whole: plays itself
        page.wait_for_function("tkTable.table.state.phase !== 'discard'", timeout=10_000)
        state = _state(server, made)["state"]
        assert state["discard"] == {"red": 0, "yellow": 0, "green": 1, "blue": 0, "purple": 0}
        assert state["players"][0]["hand"] == {"?": 7}
        assert page.errors == []
    finally:
        close_contexts(browser)


def _to_the_end_window(server, made):
    """Legal moves (takes first, never the end card) until a refill could have shown the end card."""
    rng = random.Random(5)
    host = {"Authorization": f"Bearer {made['host_token']}"}
    for _ in range(400):
        st = _state(server, made)["state"]
        if st.get("end_window"):
            return st
        assert st["phase"] != "over"
        legal = server.client.get(f"/api/tables/{made['code']}/legal", headers=host).get_json()["moves"]
        moves = [m for m in legal if m["type"] != "end-card" and not m.get("abilities")]
        takes = [m for m in moves if m["type"] == "take"]
        _send(server, made, rng.choice(takes or moves))
    raise AssertionError("no end window in 400 moves")


def test_the_end_card_is_one_tap_only_while_a_refill_could_show_it(server, browser):
    made = _table(server)
    st = _to_the_end_window(server, made)
    try:
        page = _phone(browser, server, made, seat=st["current"])
        page.locator("#end-came").wait_for(timeout=5_000)
        assert _short_targets(page) == [] and _axe(page) == []
        page.screenshot(path="/tmp/sbm-named-end-390.png")
        page.locator("#end-came").click()
        page.wait_for_function("tkTable.table.state.phase === 'over'", timeout=10_000)
        assert _state(server, made)["state"]["ended"] == "end-card"
        assert page.errors == []
    finally:
        close_contexts(browser)
