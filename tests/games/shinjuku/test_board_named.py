"""Shinjuku's board page with the table's deck and hands kept ("hands": "named", issue 23), in a real
Chromium on 390 x 844 and 360 x 740 phones: the new-table page chooses it by default; the deal asks for
no card; the hand shows as a number; a store opened by a tap on the map plays the card of the station's
ward by itself (after the moment, no tap for the card); the card grid offers only the wards a hand may
hold (a ward every copy of which is public is not offered); Income asks for no cards (one tap); three
cards as one wild are one tap, not named. One server and one browser for the module."""
from __future__ import annotations

import time

import pytest

from phones import api, launch, require_chromium, seated_phone

sync_api = require_chromium()
pytest.importorskip("companion.games.shinjuku")
pytest.importorskip("axe_playwright_python")

from axe_playwright_python.sync_playwright import Axe  # noqa: E402

from companion import create_app  # noqa: E402
from companion.testing import ServerThread  # noqa: E402

LIVE = "window.tkTable && tkTable.table && tkTable.mode === 'live' && window.tkMap && tkMap.svg"
NAMED = {"deck": "table", "hands": "named"}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    app = create_app({"DATA_DIR": tmp_path_factory.mktemp("shinjuku-named"), "SSE_HEARTBEAT_S": 2})
    with ServerThread(app, threads=16) as s, sync_api.sync_playwright() as p:
        browser = launch(p)
        try:
            yield s, app.extensions["tokyo"], browser
        finally:
            browser.close()



def named_table(site):
    """A 2-player named-hands table, its face-up set-up entered (Taito's two cards public: the
    Matsuri's discarded, one in the queue), Aki's customers placed and the Matsuri moved."""
    server, tokyo, _ = site
    t = api(server, "/api/tables", {"game": "shinjuku", "players": ["Aki", "Ben"], "options": NAMED})
    code = t["code"]
    tokens = [api(server, f"/api/tables/{code}/seats", {"player": p})["token"] for p in range(2)]

    def play(m):
        assert tokyo.tables.move(code, tokyo.tables.get(code)["seq"], m, None, "fp")[0] == 200, m
    assert tokyo.tables.state(code)[1]["phase"] == "deal"
    for w in ("minato", "ota", "kita", "chuo"):
        play({"type": "seed-ward", "ward": w, "customers": ["food", "books"]})
    play({"type": "place-matsuri", "ward": "taito"})
    play({"type": "fill-queue", "cards": ["chiyoda", "shinjuku", "nakano", "taito"], "customers": ["food", "clothing"]})
    play({"type": "place-customers", "player": 0, "card": "suginami", "customers": ["food"]})
    play({"type": "move-matsuri", "player": 0, "ward": tokyo.games["shinjuku"].rules.ix.neighbours["taito"][0]})
    return code, tokens, (lambda: tokyo.tables.state(code)[1]), play


def phone(site, code, seat, token, size=(390, 844)):
    server, _, browser = site
    ctx, page = seated_phone(browser, server, code, {"game": "shinjuku", "player": seat, "token": token}, size)
    page.wait_for_function(LIVE, timeout=60_000)
    page.wait_for_timeout(300)
    return ctx, page


def tap_station(page, sid):
    x, y = page.evaluate(f"[tkMap.stations[{sid!r}].x, tkMap.stations[{sid!r}].y]")
    if not page.evaluate(f"tkMap.shows({x}, {y}, 30)"):
        page.evaluate(f"tkMap.reveal({x}, {y})")
    page.locator("#map").scroll_into_view_if_needed()
    px, py = page.evaluate(f"""(() => {{ const p = new DOMPoint({x}, {y}).matrixTransform(tkMap.svg.getScreenCTM());
        return [p.x, p.y]; }})()""")
    page.mouse.click(px, py)


def wait_for(fn, what, timeout=15.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if fn():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_the_new_table_page_keeps_hands_by_default(site):
    server, _, browser = site
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    try:
        page.goto(server.url + "/new/shinjuku")
        assert page.evaluate("tkOptions({})") == NAMED
        page.locator("input[name=hands-entered]").check()
        assert page.evaluate("tkOptions({})") == {"deck": "table", "hands": "entered"}
        page.locator("input[name=deck][value=companion]").check()
        assert page.evaluate("tkOptions({})") == {"deck": "companion"}
    finally:
        ctx.close()


def test_a_turn_names_cards_as_they_are_played(site):
    code, tokens, state, play = named_table(site)
    ix = site[1].games["shinjuku"].rules.ix
    ctx, aki = phone(site, code, 0, tokens[0])
    try:
        assert "5 cards" in aki.locator("#hand-line").inner_text()
        # a free station of a ward with no customers waiting, whose card may be in a hand
        s = state()
        ward = next(w for w in ("setagaya", "nerima", "itabashi", "edogawa") if not s["wards"][w])
        sid = ix.stations_in[ward][0]
        tap_station(aki, sid)
        summary = aki.locator("#summary")
        wait_for(lambda: ix.wname(ward) in summary.inner_text(), "the station's card chosen")
        cards = aki.locator("#builder .card", has=aki.locator("h3", has_text="Card to play"))
        offered = cards.locator("button").all_inner_texts()
        # one short row next to the map: the station's ward (chosen), the wild ones, the three as one
        # wild, and the whole list a tap away
        assert offered[0].startswith(ix.wname(ward)) and "matches" in offered[0]
        assert offered[-2:] == ["3 cards\nas one wild", "Another ward"] and len(offered) <= 5
        assert cards.locator("button[aria-pressed=true]").first.inner_text().startswith(ix.wname(ward))
        aki.screenshot(path="/tmp/shj-named-390.png")
        assert aki.evaluate("document.documentElement.scrollWidth") <= 390           # nothing sticks out
        bar = aki.evaluate("document.querySelector('.sticky-actions').getBoundingClientRect().bottom")
        assert abs(bar - 844) < 2                                                  # the bar on the screen
        violations = Axe().run(aki).response["violations"]               # the named card row too
        assert violations == [], [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]
        cards.locator("button", has_text="Another ward").click()
        offered = cards.locator("button").all_inner_texts()
        s = state()
        public = [q["card"] for q in s["queue"]] + s["discard"]
        may = [w for w in ix.card_counts if public.count(w) < ix.card_counts[w]]
        assert len(offered) == len(may) + 1 and "taito" not in may      # both Taito cards are public
        assert not any(t.startswith("Taito") for t in offered)
        assert aki.evaluate("tkDraft().card") == ward                   # (still the station's ward)
        seq = api(site[0], f"/api/tables/{code}")["seq"]
        aki.locator("#builder .picks.goods button").first.click()        # the goods: the move is whole
        wait_for(lambda: api(site[0], f"/api/tables/{code}")["seq"] == seq + 1, "the store to be opened")
        s = state()
        assert s["last"]["cards"] == [ward] and s["players"][0]["hand_size"] == 4
        assert s["stations"][sid]["owner"] == 0
        # Income: one tap, no card asked
        aki.locator("#types button", has_text="Draw income").click()
        assert not aki.locator("#builder h3", has_text="Cards drawn").count()
        wait_for(lambda: state()["current"] == 1, "Income to end the turn")
        assert state()["players"][0]["hand_size"] == 5
        assert aki.errors == []
    finally:
        ctx.close()
    # Ben, on a small phone: three cards as one wild, one tap, not named
    play({"type": "place-customers", "player": 1, "card": "edogawa", "customers": ["books"]})
    play({"type": "move-matsuri", "player": 1, "ward": ix.neighbours[state()["matsuri"]][0]})
    ctx, ben = phone(site, code, 1, tokens[1], (360, 740))
    try:
        s = state()
        ward = next(w for w in ("adachi", "katsushika", "koto", "meguro") if not s["wards"][w] and w != s["matsuri"])
        sid = next(x for x in ix.stations_in[ward] if x not in s["stations"])
        tap_station(ben, sid)
        wait_for(lambda: ix.wname(ward) in ben.locator("#summary").inner_text(), "the station's card chosen")
        ben.locator("#builder button", has_text="as one wild").click()
        assert "3 cards as one wild" in ben.locator("#summary").inner_text()
        ben.screenshot(path="/tmp/shj-named-360.png")
        assert ben.evaluate("document.documentElement.scrollWidth") <= 360
        assert abs(ben.evaluate("document.querySelector('.sticky-actions').getBoundingClientRect().bottom") - 740) < 2
        seq = api(site[0], f"/api/tables/{code}")["seq"]
        ben.locator("#builder .picks.goods button").first.click()
        wait_for(lambda: api(site[0], f"/api/tables/{code}")["seq"] == seq + 1, "the store to be opened")
        s = state()
        assert s["discard_unnamed"] == 3 and s["players"][1]["hand_size"] == 5 - 3
        assert ben.errors == []
    finally:
        ctx.close()
