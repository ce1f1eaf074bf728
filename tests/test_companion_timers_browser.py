"""The table's timers in a real headless Chromium on phones (390 x 844): a countdown of a typed
duration, two timers at once each with its own controls, a chess clock passed from seat to seat that
flags the seat running out (and rings), the "Tap to enable sound" prompt after a reload, and the
timers on the game pages of every game (the board pages too), seen on another phone."""
from __future__ import annotations

import re

import pytest

from phones import require_chromium, server_fixture  # noqa: E402

sync_api = require_chromium()


server = server_fixture("timers", SSE_PER_CLIENT=16)


def new_table(server, game="shinjuku", players=("Aki", "Ben", "Chie"), options=None):
    client = server.app.test_client()
    r = client.post("/api/tables", json={"game": game, "players": list(players),
                                         "options": options or {}})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


class Phone:
    """A phone at a table: as the host (acts for everyone) or watching."""

    def __init__(self, browser, server, made, host=True):
        self.ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                       has_touch=True, bypass_csp=True)
        self.page = self.ctx.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.url, self.code = server.url, made["code"]
        self.page.goto(server.url + "/join")
        seat = {"game": made["game"], "player": 0 if host else -1, "at": 1}
        if host:
            seat["host"] = made["host_token"]
        self.page.evaluate("([code, seat]) => localStorage.setItem('tk.tables', JSON.stringify({[code]: seat}))",
                           [made["code"], seat])

    def open(self, path=""):
        self.page.goto(f"{self.url}/t/{self.code}{path}")
        self.page.wait_for_function("window.tkAtTable && tkAtTable.table && tkAtTable.mode === 'live'",
                                    timeout=15_000)
        return self.page

    def timers(self):
        return {t["name"]: t for t in self.page.evaluate("tkAtTable.table.timers")}

    def close(self):
        assert not self.errors, self.errors
        self.ctx.close()


def start(page, root, name, duration, chess=False):
    panel = page.locator(root)
    panel.get_by_label("Name").fill(name)
    panel.get_by_label("Duration").fill(duration)
    box = panel.get_by_role("checkbox", name=re.compile("Chess clock"))
    if box.is_checked() != chess:
        box.click()
    panel.get_by_role("button", name="Start", exact=True).click()
    page.locator(f"{root} [data-timer='{name}']").wait_for(timeout=5_000)


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_typed_duration_and_two_timers_at_once(server, browser):
    made = new_table(server)
    aki, ben = Phone(browser, server, made), Phone(browser, server, made, host=False)
    try:
        page = aki.open()
        ben.open()
        start(page, "#timer", "Auction", "1:35")
        start(page, "#timer", "Round 2", "7:05")
        t = aki.timers()
        assert t["Auction"]["duration_ms"] == 95_000 and t["Auction"]["status"] == "running"
        assert t["Round 2"]["duration_ms"] == 425_000 and t["Round 2"]["status"] == "running"
        # each card its own controls: pausing one leaves the other running
        page.locator("[data-timer='Auction']").get_by_role("button", name="Pause").click()
        page.wait_for_function("tkAtTable.table.timers.find((t) => t.name === 'Auction').status === 'paused'",
                               timeout=5_000)
        assert aki.timers()["Round 2"]["status"] == "running"
        # the faces count down from the typed durations
        face = page.locator("[data-timer='Round 2'] .timer-face").inner_text()
        assert re.fullmatch(r"7:0[0-5]", face), face
        assert re.fullmatch(r"1:3[0-5]", page.locator("[data-timer='Auction'] .timer-face").inner_text())
        # the other phone shows both, with the same states
        ben.page.locator("#timer [data-timer='Round 2']").wait_for(timeout=3_000)
        ben.page.locator("#timer [data-timer='Auction']", has_text="Paused").wait_for(timeout=3_000)
        # a duration that is not one is refused in words, and nothing is started
        page.locator("#timer").get_by_label("Duration").fill("soon")
        page.locator("#timer").get_by_role("button", name="Start", exact=True).click()
        page.locator("#timer .msg.bad", has_text="minutes:seconds").wait_for(timeout=2_000)
        assert len(aki.timers()) == 2
        no_sideways_scroll(page)
        page.locator("#timers-card").screenshot(path=str(server.app.config["DATA_DIR"]) + "/timers.png")
    finally:
        aki.close()
        ben.close()


def test_chess_clock_passes_from_seat_to_seat_and_flags_who_runs_out(server, browser):
    made = new_table(server)
    aki = Phone(browser, server, made)
    try:
        page = aki.open()
        start(page, "#timer", "Chess clock", "1:00", chess=True)
        card = page.locator("[data-timer='Chess clock']")
        card.locator(".tm-seats li.on", has_text="Aki").wait_for(timeout=3_000)
        card.get_by_role("button", name="Aki is done: pass to Ben").click()
        card.locator(".tm-seats li.on", has_text="Ben").wait_for(timeout=3_000)
        card.get_by_role("button", name="Ben is done: pass to Chie").click()
        card.locator(".tm-seats li.on", has_text="Chie").wait_for(timeout=3_000)
        t = aki.timers()["Chess clock"]
        assert t["kind"] == "chess" and t["seat"] == 2
        clocks = [c["remaining_ms"] for c in t["clocks"]]
        assert clocks[0] < 60_000 and clocks[1] < 60_000 and t["status"] == "running"
        # the seats' banked times are shown, the running one counts down
        assert card.locator(".tm-seats li").count() == 3
        history = page.locator("#history li").first
        history.filter(has_text="Chie’s time runs").wait_for(timeout=3_000)

        # a short one runs out: the running seat is flagged on the page, and the phone rings
        page.evaluate("window.rings = 0; const ring = tk.alarm.ring.bind(tk.alarm);"
                      "tk.alarm.ring = () => { window.rings++; ring(); }")
        start(page, "#timer", "Blitz", "0:02", chess=True)
        blitz = page.locator("[data-timer='Blitz']")
        blitz.locator(".tm-seats li.flagged", has_text="Aki").wait_for(timeout=10_000)
        blitz.locator(".msg.bad", has_text="Aki ran out of time").wait_for(timeout=3_000)
        page.wait_for_function("window.rings >= 1", timeout=5_000)
        # play goes on with the next seat that has time
        blitz.get_by_role("button", name=re.compile("Go on: Ben")).click()
        blitz.locator(".tm-seats li.on", has_text="Ben").wait_for(timeout=3_000)
        no_sideways_scroll(page)
    finally:
        aki.close()


def test_after_a_reload_a_running_timer_asks_for_a_tap_to_sound(server, browser):
    made = new_table(server)
    aki = Phone(browser, server, made)
    try:
        page = aki.open()
        prompt = page.locator(".tm-sound")
        start(page, "#timer", "Egg", "5:00")                 # tapped: sound is unlocked here
        page.wait_for_timeout(300)
        assert prompt.is_hidden()
        page = aki.open()                                    # a reload: the browser locks sound again
        prompt.wait_for(state="visible", timeout=5_000)
        assert "Tap to enable sound" in prompt.inner_text()
        assert page.evaluate("tk.soundLocked()")
        prompt.get_by_role("button", name=re.compile("Tap to enable sound")).click()
        prompt.wait_for(state="hidden", timeout=3_000)
        assert page.evaluate("tk.alarm.ctx && tk.alarm.ctx.state") == "running"
        # nothing running: no prompt, even with sound locked
        page.locator("[data-timer='Egg']").get_by_role("button", name="Pause").click()
        page = aki.open()
        page.wait_for_timeout(500)
        assert prompt.is_hidden()
    finally:
        aki.close()


@pytest.mark.parametrize("game, path, options", [
    ("shinjuku", "/board", {}),
    ("shin-bikkuri-man", "/board", {}),
    ("sapporo-1876", "/board", {}),
    ("capsule-hotel", "/board", {}),                       # its ledger
    ("jutaku", "/board", {}),
])
def test_timers_on_every_game_page(server, browser, game, path, options):
    players = ("Aki", "Ben")
    made = new_table(server, game, players, options)
    aki, ben = Phone(browser, server, made), Phone(browser, server, made, host=False)
    try:
        page = aki.open(path)
        root = "#timer" if page.locator("#timer").count() else "#timers"
        folded = page.locator(f"details:has({root}):not([open]) > summary")
        if folded.count():                               # a folded "Timers": unfold it
            folded.click()
        start(page, root, "Turn", "2:30")
        ben.open()
        ben.page.locator("#timer [data-timer='Turn']", has_text="Running").wait_for(timeout=3_000)
        assert aki.timers()["Turn"]["duration_ms"] == 150_000
        no_sideways_scroll(page)
        # reloaded while it runs: the page asks for the tap that lets it ring, at the top
        page = aki.open(path)
        prompt = page.locator(".tm-sound")
        prompt.wait_for(state="visible", timeout=5_000)
        assert prompt.bounding_box()["y"] < 844
        prompt.get_by_role("button", name="Tap to enable sound").click()
        prompt.wait_for(state="hidden", timeout=3_000)
    finally:
        aki.close()
        ben.close()
