"""The pinned bar (issue 20, "the clock and the call always in view") in real Chromium, on two phones
(390 x 844 and 360 x 740) both scrolled to the bottom of a long board page.

The issue: "While a game's timed phase runs, its clock and the action it waits for (STOP!, Confirm /
Reject, Countdown's entry, the Capsule count and "I declare…") are pinned in view on every phone, large
enough to read at arm's length, with a vibration and chime (the existing setting) when a stop is called
or a count starts on you. At expiry the phone says in a sentence what happened and what now ("Time!
Nobody finished: start the round again"). Table timers and the chess clock live in the same pinned bar
on every game page."

The game is the tests' sealed-bid game (tests/testgames.py: a timed bidding round the game starts
itself), given here a board page built on board_base.html like every game's: a tall page, and a
"Bid 1 coin" button marked data-pin, shown to a seat that has not bid yet while the round runs.
"""
from __future__ import annotations

import dataclasses
import re

import pytest
from flask import Blueprint, Response, render_template_string

from phones import require_chromium, server_fixture

sync_api = require_chromium()

from companion.tables import codes  # noqa: E402
from companion import create_app  # noqa: E402
from companion.testing import ServerThread  # noqa: E402
from companion.web.game import GameWeb  # noqa: E402
from testgames import SEALED_BID, SealedBidRules  # noqa: E402

SENTENCE = "Time! The bids are revealed: start the next round."
PHONES = ((390, 844), (360, 740))


class TimedBidRules(SealedBidRules):
    def describe_expiry(self, before, name, after):
        return SENTENCE


BOARD = """{% extends "board_base.html" %}
{% block board %}
<section class="card"><h2 style="margin-top:0">Your bid</h2>
  <button type="button" id="bid-now" class="wide" data-pin hidden>Bid 1 coin</button>
  <p id="bid-home" class="small">Bids are sealed until the round ends.</p>
  <div id="prize-box"></div></section>
<section class="card" id="filler" style="min-height:2600px">The rest of the board.</section>
<p id="bottom">The bottom of the page.</p>
{% endblock %}
{% block data %}<script type="application/json" id="page-data">{{ {"code": table.code}|tojson }}</script>{% endblock %}
{% block scripts %}<script src="/test-sealed-bid/board.js"></script>{% endblock %}
"""

BOARD_JS = """(function () {
  "use strict";
  const code = tk.pageData().code;
  const link = new tk.TableLink(code, {
    table(t) {
      const s = t.state, me = tk.me(code);
      document.getElementById("prompt").textContent = s.phase === "bidding" ? "Bid now!" : "Waiting for the round.";
      const b = document.getElementById("bid-now");
      b.hidden = !(s.phase === "bidding" && me !== null && me >= 0 && !(String(me) in s.bids));
      b.onclick = () => link.send("/moves", { move: { type: "bid", player: me, amount: 1 } });
      // a call the page draws anew on every update (a new element with the same words)
      document.getElementById("prize-box").replaceChildren(...(s.phase === "bidding"
        ? [tk.el("p", { class: "prize", "data-pin": "" }, "The prize: " + s.prize + " points")] : []));
    },
  });
  tk.clock.sync(3).then(() => link.start());
})();
"""

bp = Blueprint("sealed-bid-test", __name__)


@bp.get("/test-sealed-bid/board.js")
def board_js():
    return Response(BOARD_JS, mimetype="text/javascript")


def board(game, table):
    return render_template_string(BOARD, table=table, game=game, code_display=codes.display(table["code"]))


GAME = dataclasses.replace(SEALED_BID, rules=TimedBidRules(None), web=GameWeb(bp, board=board))


server = server_fixture("pinned", EXTRA_GAMES={"sealed-bid": GAME}, SSE_PER_CLIENT=16)


class Table:
    """A table (by default of the sealed-bid game), written to through the API with the host's token."""

    def __init__(self, server, game="sealed-bid", options=None):
        self.client = server.app.test_client()
        r = self.client.post("/api/tables", json={"game": game, "players": ["Aki", "Ben"],
                                                  "options": {"chance": "table", "round_seconds": 30}
                                                  if options is None else options})
        assert r.status_code == 201, r.get_json()
        self.made = r.get_json()
        self.code, self.host = self.made["code"], self.made["host_token"]

    def write(self, path, body):
        seq = self.client.get(f"/api/tables/{self.code}").get_json()["seq"]
        r = self.client.post(f"/api/tables/{self.code}{path}", json={"expected_seq": seq, **body},
                             headers={"Authorization": f"Bearer {self.host}"})
        assert r.status_code == 200, r.get_json()

    def timer(self, name, action, **more):
        self.write("/timers", {"timer": name, "action": action, **more})

    def move(self, move):
        self.write("/moves", {"move": move})


class Phone:
    """A phone holding seat `player` (its own token), on the board page, scrolled to the bottom; it
    counts the vibrations and alarms the page asks for."""

    def __init__(self, browser, server, table, player, size, path="/board"):
        self.w, self.h = size
        self.ctx = browser.new_context(viewport={"width": self.w, "height": self.h}, is_mobile=True, has_touch=True,
                                       bypass_csp=True)       # Playwright's waits evaluate strings
        self.page = self.ctx.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        r = table.client.post(f"/api/tables/{table.code}/seats", json={"player": player})
        assert r.status_code == 201, r.get_json()
        seat = {"game": table.made["game"], "player": player, "token": r.get_json()["token"], "at": 1}
        self.page.add_init_script(
            "window.vibes = []; navigator.vibrate = (p) => { window.vibes.push(JSON.stringify(p)); return true; };"
            "window.rings = 0; document.addEventListener('DOMContentLoaded', () => {"
            "  const ring = tk.alarm.ring.bind(tk.alarm); tk.alarm.ring = () => { window.rings++; ring(); }; });")
        self.page.goto(server.url + "/join")
        self.page.evaluate("([code, seat]) => localStorage.setItem('tk.tables', JSON.stringify({[code]: seat}))",
                           [table.code, seat])
        self.page.goto(f"{server.url}/t/{table.code}{path}")
        self.page.wait_for_function("window.tkAtTable && tkAtTable.table && tkAtTable.mode === 'live'", timeout=15_000)
        self.to_bottom()

    def to_bottom(self):
        # scrolled again at every look: the page may still grow under the first scroll (its board drawn)
        self.page.wait_for_function("(scrollTo(0, document.documentElement.scrollHeight), scrollY > 300)")

    def in_view(self, locator):
        """The element is shown whole inside the screen as it is scrolled now (no scrolling done)."""
        locator.wait_for(state="visible", timeout=8_000)
        box = locator.bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= self.h, (box, self.w, self.h)
        assert box["x"] >= 0 and box["x"] + box["width"] <= self.w, (box, self.w, self.h)
        # not scrolled up to it: the page is still scrolled far down (the browser's scroll anchoring
        # moves scrollY by what the bar grows or shrinks, so the content seen stays where it was)
        assert self.page.evaluate("window.scrollY") > 300
        return box

    def bar_gone(self):
        self.page.wait_for_function("document.getElementById('pinbar').hidden", timeout=15_000)
        assert self.page.evaluate("document.getElementById('pinbar').getBoundingClientRect().height") == 0
        assert self.page.locator("#pinbar").is_hidden()

    def counts_down(self, face):
        """The clock reads m:ss and its value goes down here (counted on the phone)."""
        text = face.inner_text()
        assert re.fullmatch(r"\d{1,2}:\d\d", text), text
        secs = lambda s: int(s.split(":")[0]) * 60 + int(s.split(":")[1])  # noqa: E731
        handle = face.element_handle()
        self.page.wait_for_function(
            "([node, first]) => { const [m, s] = node.textContent.split(':').map(Number); return m * 60 + s < first; }",
            arg=[handle, secs(text)], timeout=5_000)
        size = self.page.evaluate("(n) => parseFloat(getComputedStyle(n).fontSize)", handle)
        assert size >= 28, size

    def close(self):
        assert not self.errors, self.errors
        self.ctx.close()


def two_phones(browser, server, table):
    return [Phone(browser, server, table, i, size) for i, size in enumerate(PHONES)]


def test_the_clocks_and_the_call_stay_in_view_and_expiry_is_said(server, browser):
    # (a 12 s round: the steps before Aki's call is looked at take 2.6 s on a quiet machine, and a
    # full run on a loaded one once let a 6 s round run out before it)
    table = Table(server, options={"chance": "table", "round_seconds": 12})
    phones = two_phones(browser, server, table)
    try:
        for p in phones:                     # nothing runs, nothing is pinned: no bar, no space
            p.bar_gone()
            assert p.page.locator("#bid-now").is_hidden()

        # a table timer starts (from another phone): both phones see it, large, without scrolling
        table.timer("Egg", "start", seconds=300)
        for p in phones:
            row = p.page.locator("#pinbar [data-timer='Egg']")
            p.in_view(row.locator(".pin-face"))
            assert "Egg" in row.inner_text()
            p.counts_down(row.locator(".pin-face"))

        # the game's timed phase starts: its clock, named in words, and the call (data-pin) join the bar
        table.move({"type": "start-round", "prize": 2})
        for p in phones:
            row = p.page.locator("#pinbar [data-timer='round'][data-owner='game']")
            p.in_view(row.locator(".pin-face"))
            assert "Time left in the round" in row.inner_text()
            p.counts_down(row.locator(".pin-face"))
            p.in_view(p.page.locator("#pinbar #bid-now"))
            p.in_view(p.page.locator("#pinbar [data-timer='Egg'] .pin-face"))     # both clocks at once
            p.in_view(p.page.locator("#pinbar .prize"))
            # the call appearing chimed and vibrated (the cue setting is on by default)
            p.page.wait_for_function("window.vibes.includes('[200,100,200]')", timeout=3_000)

        # the page draws its call again at the next update: one in the bar, and no second cue
        table.timer("Egg", "pause")
        for p in phones:
            p.page.locator("#pinbar [data-timer='Egg'].paused").wait_for(timeout=5_000)
            assert p.page.locator(".prize").count() == 1 and p.page.locator("#pinbar .prize").is_visible()
            assert p.page.evaluate("window.vibes.filter((v) => v === '[200,100,200]').length") == 1
        table.timer("Egg", "resume")

        # a tap on the pinned call works (its handler moved with it); once hidden it goes back home
        aki, ben = phones
        ben.page.locator("#pinbar #bid-now").click()
        ben.page.wait_for_function("document.getElementById('bid-now').hidden", timeout=5_000)
        ben.page.wait_for_function("!document.getElementById('pinbar').contains(document.getElementById('bid-now'))")
        assert ben.page.evaluate("document.getElementById('bid-now').nextElementSibling.id") == "bid-home"
        # Aki has not bid yet: her call is in her bar (waited for: the update of Ben's bid redraws
        # her page, and a loaded machine once looked in between)
        aki.page.locator("#pinbar #bid-now").wait_for(state="visible", timeout=5_000)

        # the round runs out: every phone says what happened and what now, in view, and rings
        for p in phones:
            said = p.page.locator("#pinbar .pin-said")
            said.wait_for(state="visible", timeout=20_000)
            assert said.inner_text() == SENTENCE
            p.in_view(said)
            assert p.page.locator("#pinbar [data-timer='round']").count() == 0
            p.page.wait_for_function("window.rings >= 1", timeout=3_000)
        assert aki.page.locator("#bid-now").is_hidden()
        assert aki.page.locator(".prize").count() == 0              # the page took its call away

        # the next move: the sentence goes; a short table timer runs out: "Time is up: Tea"
        table.move({"type": "start-round", "prize": 1})
        for p in phones:
            p.page.locator("#pinbar .pin-said").wait_for(state="hidden", timeout=5_000)
        table.move({"type": "close-bids"})
        table.timer("Tea", "start", seconds=1)
        for p in phones:
            said = p.page.locator("#pinbar .pin-said", has_text="Time is up: Tea")
            said.wait_for(timeout=10_000)
            p.in_view(said)
            p.in_view(p.page.locator("#pinbar [data-timer='Tea'].expired .pin-face"))

        # nothing runs any more (Egg reset, the sentence said for its while): the bar goes, no space
        table.timer("Egg", "reset")
        for p in phones:
            p.bar_gone()
            assert p.page.locator("#timers [data-timer='Egg']").count() == 1    # its controls stay below
    finally:
        for p in phones:
            p.close()


def test_the_chess_clock_shows_in_the_bar(server, browser):
    table = Table(server)
    phones = two_phones(browser, server, table)
    try:
        table.timer("Chess clock", "start", seconds=120, clock="chess", seat=0)
        for p in phones:
            row = p.page.locator("#pinbar [data-timer='Chess clock'].chess")
            p.in_view(row.locator(".pin-face"))
            row.locator(".pin-who", has_text="Aki’s time runs").wait_for(timeout=3_000)
            p.counts_down(row.locator(".pin-face"))
            seats = row.locator(".pin-seats li")
            assert seats.count() == 2
            assert "Aki" in seats.nth(0).inner_text() and "Ben 2:00" in seats.nth(1).inner_text()
            p.in_view(seats.nth(1))
        table.timer("Chess clock", "pass")
        for p in phones:
            row = p.page.locator("#pinbar [data-timer='Chess clock']")
            row.locator(".pin-who", has_text="Ben’s time runs").wait_for(timeout=3_000)
            row.locator(".pin-seats li.on", has_text="Ben").wait_for(timeout=3_000)
            p.counts_down(row.locator(".pin-face"))
        # the name in the bar opens the timer's controls below (they stay in the Timers card)
        aki = phones[0]
        aki.page.locator("#pinbar [data-timer='Chess clock'] .pin-name").click()
        card = aki.page.locator("#timers [data-timer='Chess clock']")
        aki.page.wait_for_function("document.getElementById('timers-card').open")
        card.get_by_role("button", name=re.compile("Ben is done")).wait_for(state="visible", timeout=3_000)
        table.timer("Chess clock", "pause")
        for p in phones:
            p.page.locator("#pinbar [data-timer='Chess clock'].paused").wait_for(timeout=3_000)
        table.timer("Chess clock", "reset")
        for p in phones:
            p.bar_gone()
    finally:
        for p in phones:
            p.close()


@pytest.fixture(scope="module")
def games_server(tmp_path_factory):
    app = create_app({"DATA_DIR": tmp_path_factory.mktemp("pinned-games"), "SSE_HEARTBEAT_S": 2})
    with ServerThread(app, threads=16) as s:
        yield s


@pytest.mark.parametrize("game", ["shinjuku", "shin-bikkuri-man", "sapporo-1876", "capsule-hotel", "jutaku"])
def test_every_games_board_page_has_the_bar(games_server, browser, game):
    """Every game's own board page (the generic board_base.html), scrolled to its bottom on the
    smaller phone: a table timer started elsewhere shows in view and counts down; reset, the bar goes."""
    table = Table(games_server, game, options={})
    phone = Phone(browser, games_server, table, 0, PHONES[1])
    try:
        phone.bar_gone()
        table.timer("Turn", "start", seconds=150)
        face = phone.page.locator("#pinbar [data-timer='Turn'] .pin-face")
        phone.in_view(face)
        phone.counts_down(face)
        assert phone.page.evaluate("document.documentElement.scrollWidth") <= phone.w     # nothing sideways
        table.timer("Turn", "reset")
        phone.bar_gone()
    finally:
        phone.close()


def test_the_table_page_has_the_bar_too(games_server, browser):
    """The table page (timers, history, the set-up walk) pins its running clocks the same way."""
    table = Table(games_server, "shinjuku", options={})
    phone = Phone(browser, games_server, table, 0, PHONES[1], path="")
    try:
        table.timer("Chess", "start", seconds=90, clock="chess", seat=1)
        face = phone.page.locator("#pinbar [data-timer='Chess'] .pin-face")
        phone.in_view(face)
        phone.counts_down(face)
        table.timer("Chess", "reset")
        phone.bar_gone()
    finally:
        phone.close()
