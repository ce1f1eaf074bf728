"""Shinjuku's game screen (issue 23 point 1), in a real Chromium on 390 x 844 and 360 x 740 phones at a
table playing with its own deck: the hand, the move's buttons and the map in one screen without
scrolling; a one-line bar at the bottom that covers nothing to tap; the map opened close up on the
part in play with every name on it at least 11 CSS px, and the whole map a tap away; one h1, no
axe-core violation, text targets at least 44 px; a wrong entry taken back alone; a tap further along
built track extends a path there."""
from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from phones import api, require_chromium, seated_phone

require_chromium()
pytest.importorskip("companion.games.shinjuku")
pytest.importorskip("axe_playwright_python")

from axe_playwright_python.sync_playwright import Axe  # noqa: E402

from companion import create_app  # noqa: E402
from companion.games.shinjuku.rules import moves as mv  # noqa: E402
from companion.games.shinjuku.rules import playout  # noqa: E402
from companion.testing import ServerThread  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
from replay.shinjuku import Box  # noqa: E402

SIZES = [(390, 844), (360, 740)]
LIVE = "window.tkTable && tkTable.table && tkTable.mode === 'live' && window.tkMap && tkMap.svg"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    app = create_app({"DATA_DIR": tmp_path_factory.mktemp("shinjuku-screen"), "SSE_HEARTBEAT_S": 2})
    with ServerThread(app, threads=16) as s:
        yield s, app.extensions["tokyo"]



def table_at(site, phase: str, turns: int, seed: int = 3):
    """A 2-player table with the table's deck, dealt from a seeded box and played by the engine's
    random player until `turns` turns are placed and the table waits in `phase`: (code, seat tokens,
    state, the box)."""
    server, tokyo = site
    rules = tokyo.games["shinjuku"].rules
    ix = rules.ix
    t = api(server, "/api/tables", {"game": "shinjuku", "players": ["Aki", "Ben"], "options": {"deck": "table"}})
    code = t["code"]
    tokens = [api(server, f"/api/tables/{code}/seats", {"player": p})["token"] for p in range(2)]
    box, rng = Box(ix, random.Random(seed)), random.Random(seed + 1)

    def play(m):
        status = tokyo.tables.move(code, tokyo.tables.get(code)["seq"], m, None, "fp")[0]
        assert status == 200, m

    def state():
        return tokyo.tables.state(code)[1]
    for p in range(2):
        play({"type": "deal-hand", "player": p, "cards": box.draw(ix.hand_size, state()["discard"])})
    seeded = []
    while len(seeded) < ix.seed_wards:
        (w,) = box.draw(1, state()["discard"])
        if w in seeded:
            box.deck.append(w)
            continue
        seeded.append(w)
        play({"type": "seed-ward", "ward": w, "customers": box.customers(ix.seed_customers)})
    play({"type": "place-matsuri", "ward": box.draw(1, state()["discard"])[0]})
    play({"type": "fill-queue", "cards": box.draw(ix.slots, state()["discard"]),
          "customers": box.customers(ix.queue_start)})
    done = 0
    while True:
        s = state()
        if s["phase"] == "place":
            if done >= turns and phase == "place":
                break
            done += 1
            m = {"type": "place-customers", "player": s["current"], "card": box.draw(1, s["discard"])[0],
                 "customers": box.customers(len(s["queue"][0]["customers"]))}
        elif done >= turns and s["phase"] == phase:
            break
        else:
            m = {k: v for k, v in playout.choose(rules, s, rng).items() if k != "take"}
            if m["type"] == "income":
                m["cards"] = box.draw(mv.income_count(ix, s, m["player"])[1], s["discard"])
        play(m)
    return code, tokens, state(), box


def phone(browser, server, code, seat, token, size):
    ctx, page = seated_phone(browser, server, code, {"game": "shinjuku", "player": seat, "token": token}, size)
    page.wait_for_function(LIVE, timeout=60_000)
    page.wait_for_timeout(300)
    return ctx, page


BAR = """(() => { const r = document.querySelector('.sticky-actions').getBoundingClientRect();
  return [r.top, r.height]; })()"""
# every name printed on the map (station and ward names, English and kanji): font size in CSS px
LABELS = """[...document.querySelectorAll('#board-map #map-labels [data-text]')].map(g => {
  const m = g.getScreenCTM(); return 1000 * Math.hypot(m.a, m.b); })"""
SHORT = """[...document.querySelectorAll('main a, main button, main summary')].filter(e => {
  const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && !e.closest('#board-map'); })
  .map(e => [e.textContent.trim().slice(0, 40), e.getBoundingClientRect().height]).filter(x => x[1] < 44)"""


def bottom_of(page, selector):
    return page.evaluate(f"Math.max(...[...document.querySelectorAll({selector!r})].filter(e => e.offsetParent)"
                         ".map(e => e.getBoundingClientRect().bottom))")


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_the_actions_screen_holds_hand_moves_and_map_under_a_one_line_bar(site, browser, size):
    server, _ = site
    code, tokens, s, _ = table_at(site, "actions", 3)
    me = s["current"]
    ctx, page = phone(browser, server, code, me, tokens[me], size)
    try:
        w, h = size
        assert page.evaluate("window.scrollY") == 0
        assert page.locator("h1").count() == 1
        top, bar_h = page.evaluate(BAR)
        assert bar_h / h < 0.15 and bar_h <= 64                   # one line: the summary, Clear, Play
        assert top + bar_h <= h + 1
        # the hand, every move and the map's frame are on the screen above the bar, nothing scrolled
        hand = page.locator("#hand-line")
        assert hand.is_visible() and "Your hand" in hand.inner_text()
        for ward in s["players"][me]["hand"]:
            assert tokyo_name(site, ward) in hand.inner_text()
        assert bottom_of(page, "#hand-line") <= top and bottom_of(page, "#types button") <= top
        frame = page.evaluate("(() => { const r = document.querySelector('#map .map-scroll').getBoundingClientRect();"
                              " return [r.top, r.bottom]; })()")
        if w == 390:
            assert frame[1] <= top + 1 and frame[1] - frame[0] >= 230
        else:
            assert frame[0] < top - 120                       # most of the map is on the smaller screen too
        # the map opens close up: every name at least 11 CSS px; the whole map is one tap away
        assert page.evaluate("document.querySelector('#map').dataset.zoom") == "2"
        sizes = page.evaluate(LABELS)
        assert len(sizes) > 100 and min(sizes) >= 11
        whole = page.get_by_role("button", name="Whole map")
        whole.click()
        assert page.evaluate("document.querySelector('#map').dataset.zoom") == "0"
        assert page.evaluate("document.querySelector('#board-map').getBoundingClientRect().width") <= w
        page.get_by_role("button", name="Close up").click()
        assert min(page.evaluate(LABELS)) >= 11
        # text targets 44 px; no axe-core violation; no native dialog, no script error
        assert page.evaluate(SHORT) == []
        if w == 390:
            violations = Axe().run(page).response["violations"]
            assert violations == [], [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]
        assert page.errors == [] and page.dialogs == []
    finally:
        ctx.close()


def tokyo_name(site, ward):
    return site[1].games["shinjuku"].data.ward[ward].name


def test_the_card_and_customers_drawn_fit_above_the_bar_and_a_wrong_one_goes_alone(site, browser):
    server, _ = site
    code, tokens, s, _ = table_at(site, "place", 2)
    me = s["current"]
    ctx, page = phone(browser, server, code, me, tokens[me], (390, 844))
    try:
        top, _ = page.evaluate(BAR)
        card = page.locator("#builder .card", has_text="The card drawn for ④")
        assert card.locator("button").count() == 23
        assert bottom_of(page, "#builder .card:first-child button") <= top     # every ward, no scrolling
        # one tap per card; a wrong one changed alone, the customers entered stay (the move waits
        # for Play here: nothing plays by itself while the entries are checked)
        page.locator("#autoplay-on").uncheck()
        card.locator("button", has_text=re.compile("^Ota$")).click()
        n = len(s["queue"][0]["customers"])
        tokens_box = page.locator("#builder .card", has_text="Customers drawn")
        if n >= 1:
            tokens_box.locator("button", has_text=re.compile("^Food$")).click()
        if n >= 2:
            tokens_box.locator("button", has_text=re.compile("^Books$")).click()
        page.locator("#builder .card", has_text="Ota").get_by_role("button", name="Change").click()
        page.locator("#builder .card", has_text="The card drawn for ④").locator(
            "button", has_text=re.compile("^Nakano$")).click()
        summary = page.locator("#summary").inner_text()
        assert "Nakano" in summary and "Ota" not in summary and ("Food" in summary or n == 0)
        if n >= 2:                                  # the second customer was wrong: only it goes
            page.get_by_role("button", name="Remove Books").click()
            summary = page.locator("#summary").inner_text()
            assert "Food" in summary and "Books" not in summary and "Nakano" in summary
        assert page.errors == [] and page.dialogs == []
    finally:
        ctx.close()
