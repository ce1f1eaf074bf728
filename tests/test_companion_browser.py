"""The main flow in a real headless browser (Debian's chromium): create a table, join it from a
second phone, play a move, see it on the other phone within a second; timers agree; undo; offline."""
from __future__ import annotations

import re

import pytest

from phones import open_phone, require_chromium, server_fixture  # noqa: E402

sync_api = require_chromium()
pytest.importorskip("companion.games.shinjuku")

from companion import create_app  # noqa: E402
from companion.testing import ServerThread  # noqa: E402


server = server_fixture("browser", threads=24, SSE_PER_CLIENT=16)  # every phone of the test is 127.0.0.1


def phone(browser, bypass_csp=True):
    """A phone-sized page. Playwright's wait_for_function evaluates its string in the page, which
    the companion's Content-Security-Policy forbids (no eval): tests that use it bypass the policy;
    the end-screen test keeps it, so the pages are shown to work under it."""
    ctx, page, errors = open_phone(browser, bypass_csp=bypass_csp)
    return ctx, page, errors


def test_create_join_move_and_see_it_live(server, browser):
    ctx1, aki, errors1 = phone(browser)
    ctx2, ben, errors2 = phone(browser)
    try:
        # Aki starts a Shinjuku table
        aki.goto(server.url + "/")
        aki.get_by_role("link", name="New table").first.click()
        aki.locator("#p0").fill("Aki")
        aki.locator("#p1").fill("Ben <i>")
        aki.get_by_text("The companion draws.").click()
        aki.get_by_role("button", name="Start the table").click()
        aki.wait_for_url(re.compile(r"/t/[0-9A-Z]{8}$"))
        code = aki.url.rsplit("/", 1)[1]
        aki.locator("#seat-buttons button", has_text="Aki").click()
        assert aki.locator("#players li.me").inner_text().startswith("Aki") or \
            "Aki" in aki.locator("#players li.me").inner_text()

        # Ben joins from another phone by typing the code
        ben.goto(server.url + "/join")
        ben.locator("#code").fill(code[:4].lower() + "-" + code[4:])
        ben.get_by_role("button", name="Join").click()
        ben.wait_for_url(re.compile(f"/t/{code}$"))
        ben.locator("#seat-buttons button", has_text="Ben <i>").click()   # the name, shown as text
        ben.wait_for_function("window.tkTable && tkTable.mode === 'live'", timeout=10_000)

        # Aki plays on the board twin
        aki.get_by_role("link", name=re.compile("Open the board")).click()
        aki.wait_for_function("window.tkTable && tkTable.table", timeout=10_000)
        aki.get_by_role("button", name="Play", exact=True).click()
        aki.locator("#msg.good").wait_for(timeout=10_000)
        # the board twin's map is drawn, with the customers just placed
        aki.wait_for_function("window.tkMap && tkMap.svg", timeout=10_000)
        assert aki.locator("#board-map [data-station]").count() == 44
        aki.locator("#board-map #live-customers use").first.wait_for(timeout=5_000)

        # ... and Ben's phone shows it within a second
        ben.wait_for_function("tkTable.table.seq === 1", timeout=1_000)
        ben.locator("#history li", has_text="#1").wait_for(timeout=1_000)
        assert "places" in ben.locator("#history li").first.inner_text()

        # a timer started on one phone counts down the same on the other (within 150 ms)
        aki.goto(server.url + f"/t/{code}")
        aki.wait_for_function("window.tkTable && tkTable.mode === 'live'", timeout=10_000)
        aki.locator("#timer button", has_text="1:00").click()
        for page in (aki, ben):
            page.wait_for_function("tkTimer.timer && tkTimer.timer.status === 'running'", timeout=2_000)
        deadline = "Date.now() + tkTimer.remaining()"
        assert abs(aki.evaluate(deadline) - ben.evaluate(deadline)) < 150
        ben.locator("#timer button", has_text="Pause").click()
        aki.wait_for_function("tkTimer.timer.status === 'paused'", timeout=2_000)

        # Aki moves the Matsuri; Ben's phone may not undo Aki's move, Aki's may (two taps); both
        # phones show it undone (placing customers drew from the companion's bag: not undoable)
        seq = aki.evaluate("""async () => {
            const ward = tkTable.table.needs.wards[0];
            const r = await tkTable.send('/moves', {move: {type: 'move-matsuri', player: 0, ward}});
            return r.body.seq; }""")
        ben.wait_for_function(f"tkTable.table.seq === {seq}", timeout=2_000)
        ben.locator("#undo").click()
        ben.locator("#undo").click()
        ben.locator("#undo-msg.bad", has_text="Aki").wait_for(timeout=2_000)
        aki.locator("#undo").click()
        aki.locator("#undo").click()
        for page in (aki, ben):
            page.locator("#history li.undone", has_text=f"#{seq}").wait_for(timeout=2_000)

        # Ben goes offline, Aki plays again, Ben comes back and catches up, once each
        aki.wait_for_function("tkTable.table.seq === %d && tkTable.table.needs.wards" % (seq + 1), timeout=2_000)
        ctx2.set_offline(True)
        r = aki.evaluate("""async () => (await tkTable.send('/moves', {move: {type: 'move-matsuri',
                            player: 0, ward: tkTable.table.needs.wards[0]}})).status""")
        assert r == 200
        ctx2.set_offline(False)
        ben.wait_for_function(f"tkTable.table.seq === {aki.evaluate('tkTable.table.seq')}", timeout=10_000)
        seqs = ben.evaluate("[...tkTable.events.keys()]")
        assert seqs == sorted(set(seqs)) == list(range(1, len(seqs) + 1))
        assert not errors1 and not errors2, errors1 + errors2
    finally:
        ctx1.close()
        ctx2.close()


def test_scan_page_without_and_with_a_table(server, browser):
    ctx, page, errors = phone(browser)
    try:
        page.goto(server.url + "/q/shinjuku/ward/minato")
        assert "Minato" in page.locator("h1").inner_text()
        assert "Join a Shinjuku table" in page.content()
        r = page.goto(server.url + "/q/shinjuku/ward/atlantis")
        assert r.status == 404 and "atlantis" in page.content()
        page.goto(server.url + "/shinjuku/score")
        page.locator("[data-kind=food][data-weight='1'] button[data-step='1']").click()
        page.locator("[data-kind=books][data-weight='2'] button[data-step='1']").click()
        page.wait_for_function("document.getElementById('points').textContent === '4'", timeout=5_000)
        assert not errors, errors
    finally:
        ctx.close()


def test_the_end_of_a_game_on_the_table_page_and_the_home_page(tmp_path, browser):
    """A finished game: winner, every score with its breakdown, the length and the way to the
    history on the table page of a phone; the play listed on the home page."""
    import requests

    from testgames import COUNTER
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}})
    with ServerThread(app, threads=8) as s:
        r = requests.post(s.url + "/api/tables", json={"game": "counter", "players": ["Aki", "Ben"],
                                                       "options": {"goal": 4}}, timeout=10)
        code, host = r.json()["code"], {"Authorization": f"Bearer {r.json()['host_token']}"}
        for seq, (player, add) in enumerate([(0, 1), (1, 1), (0, 2)]):
            assert requests.post(f"{s.url}/api/tables/{code}/moves", headers=host, timeout=10, json={
                "expected_seq": seq, "move": {"player": player, "add": add}}).status_code == 200
        ctx, page, errors = phone(browser, bypass_csp=False)
        csp = []
        page.on("console", lambda m: csp.append(m.text) if "Content Security Policy" in m.text else None)
        try:
            page.goto(f"{s.url}/t/{code}")
            result = page.locator("#result")
            result.wait_for(state="visible", timeout=5_000)
            text = result.inner_text()
            assert "Aki wins!" in text and "Reached the goal" not in text     # folded until asked
            result.locator("details").first.locator("summary").click()
            assert "Reached the goal" in result.inner_text() and "Total" in result.inner_text()
            assert result.locator("a", has_text="The whole history").count() == 1
            assert "The game is over." in page.locator("#turn").inner_text()
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            page.goto(f"{s.url}/")
            assert "Latest plays" in page.content() and "Aki 1 (won)" in page.content()
            assert page.locator("#mine").is_visible()          # home.js ran: the policy allows it
            assert not errors and not csp, errors + csp
        finally:
            ctx.close()


def test_turn_cue_and_undo_notice_on_the_other_phones(tmp_path, browser):
    """Whose turn it is shows in the page title of that phone; an undo of your move by another
    phone (here the host's) is told on yours (issue 9)."""
    from testgames import COUNTER
    # (every phone here is 127.0.0.1: let one address hold their streams, and the ones they drop)
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}, "SSE_HEARTBEAT_S": 2,
                      "SSE_PER_CLIENT": 16})
    with ServerThread(app, threads=16) as s:
        phones = [phone(browser) for _ in range(3)]
        (hctx, host, _), (actx, aki, _), (bctx, ben, _) = phones
        try:
            host.goto(s.url + "/new/counter")
            host.locator("#p0").fill("Aki")              # (a blank name is "Player 1")
            host.locator("#p1").fill("Ben")
            host.get_by_role("button", name="Start the table").click()
            host.wait_for_url(re.compile(r"/t/[0-9A-Z]{8}$"))
            code = host.url.rsplit("/", 1)[1]
            host.get_by_role("button", name="Just watching").click()
            for page, name in ((aki, "Aki"), (ben, "Ben")):
                page.goto(f"{s.url}/t/{code}")
                page.locator("#seat-buttons button", has_text=name).click()
                page.wait_for_function("window.tkTable && tkTable.mode === 'live'", timeout=10_000)
            aki.wait_for_function("document.title.startsWith('● ')", timeout=5_000)   # Aki starts
            assert not ben.title().startswith("● ")
            r = aki.evaluate("async () => (await tkTable.send('/moves', {move: {player: 0, add: 1}})).status")
            assert r == 200
            ben.wait_for_function("document.title.startsWith('● ')", timeout=2_000)
            aki.wait_for_function("!document.title.startsWith('● ')", timeout=2_000)
            host.wait_for_function("tkTable.table.seq === 1", timeout=2_000)
            assert host.evaluate("async () => (await tkTable.send('/undo', {})).status") == 200
            aki.locator(".banner", has_text="The host undid your move").wait_for(timeout=2_000)
            assert ben.locator(".banner", has_text="undid your move").count() == 0
        finally:
            for ctx, _, _ in phones:
                ctx.close()
