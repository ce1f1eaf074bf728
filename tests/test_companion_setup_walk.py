"""The set-up walked step by step (Rules.setup_steps, the table page's walk): the rules give the
steps in the rules text's order for the table's players and options, the steps that draw ask for
their entry in table-deck mode and say what was drawn in companion mode, and the walk disappears
once the first turn is played (the table page then keeps them folded, to read: issue 23). In a
real headless Chromium at 390 x 844: Next / Back with "Step n
of N", "Enter it now" opening the board on that move, the entry ticked once made."""
from __future__ import annotations

import re
import time

import pytest

from companion import create_app
from companion.catalog import discover
from phones import launch, needs_chromium, open_phone

GAMES = {g.id: g for g in discover().values() if g.playable}


def shinjuku():
    if "shinjuku" not in GAMES:
        pytest.skip("Shinjuku's rules are not there")
    return GAMES["shinjuku"]


def titles(steps):
    return [s["title"] for s in steps]


def test_shinjuku_table_deck_steps_follow_the_rules_and_ask_for_each_draw():
    g = shinjuku()
    state = g.setup(["Aki", "Ben", "Chie"], {"deck": "table", "start_player": 1}, 1)
    steps = g.setup_steps(state)
    assert titles(steps) == ["Colours and pieces", "Cards, bag and bonus tokens", "Deal the hands",
                             "Starting customers", "The Matsuri", "Start player", "The customer queue"]
    by = {s["title"]: s for s in steps}
    assert "Aki red, Ben blue, Chie green" in by["Colours and pieces"]["text"]
    assert by["Start player"]["text"].startswith("Ben takes the Start Player token")
    assert [s["input"] for s in steps if s["input"]] == ["deal-hand", "seed-ward", "place-matsuri",
                                                         "fill-queue"]
    assert not any(s["done"] for s in steps if s["input"])
    # every entry the steps ask for is one of the game's moves
    names = {mt.name for mt in g.move_types}
    assert {s["input"] for s in steps if s["input"]} <= names
    # the counts come from the data: 4 cards each, 4 wards of 2 customers, 4 queue cards
    data = g.rules.ix
    assert f"Deal {data.hand_size} cards" in by["Deal the hands"]["text"]
    assert f"{data.seed_wards} different wards" in by["Starting customers"]["text"]


def test_shinjuku_steps_tick_as_entries_are_made_and_go_once_the_game_runs():
    g = shinjuku()
    state = g.setup(["Aki", "Ben"], {"deck": "table"}, 1)
    from companion.games.contract import Ctx
    legal = g.legal(state).moves
    hand = next(m for m in legal if m["type"] == "deal-hand")
    state = g.apply(state, hand, Ctx())
    steps = {s["title"]: s for s in g.setup_steps(state)}
    assert steps["Deal the hands"]["done"] is False           # one hand of two
    while state["phase"] == "deal":
        state = g.apply(state, g.legal(state).moves[0], Ctx())
    steps = g.setup_steps(state)
    assert steps and all(s["done"] for s in steps if s["input"])   # dealt, first turn not played
    state = g.apply(state, g.legal(state).moves[0], Ctx())
    assert g.setup_steps(state) == []


def test_shinjuku_companion_steps_say_what_was_drawn():
    g = shinjuku()
    state = g.setup(["Aki", "Ben"], {"deck": "companion"}, 7)
    steps = {s["title"]: s for s in g.setup_steps(state)}
    ix = g.rules.ix
    assert ix.wname(state["matsuri"]) in steps["The Matsuri"]["text"]
    for ward, tokens in state["wards"].items():
        if tokens:
            assert ix.wname(ward) in steps["Starting customers"]["text"]
    assert ix.wname(state["queue"][0]["card"]) in steps["The customer queue"]["text"]
    assert not any(s["input"] for s in steps.values())


def test_the_table_view_carries_the_steps_and_other_games_none(tmp_path):
    client = create_app({"DATA_DIR": tmp_path}).test_client()
    for gid in GAMES:
        made = client.post("/api/tables", json={"game": gid, "players": ["Aki", "Ben"]}).get_json()
        t = client.get(f"/api/tables/{made['code']}").get_json()
        assert isinstance(t["setup"], list)
        for s in t["setup"]:
            assert s["title"] and s["text"] and isinstance(s.get("done"), bool)
        if gid == "shinjuku":
            assert len(t["setup"]) == 7


# ---------------------------------------------------------------------------------- in a browser
def slow_walk(wsgi_app, delay):
    """The app, with every POST of a walk step held `delay` seconds before it is served."""
    def app(environ, start_response):
        if environ["REQUEST_METHOD"] == "POST" and environ.get("PATH_INFO", "").endswith("/walk"):
            time.sleep(delay)
        return wsgi_app(environ, start_response)
    return app


@needs_chromium
def test_walk_through_set_up_on_a_phone(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    shinjuku()
    from companion.testing import ServerThread
    app = create_app({"DATA_DIR": tmp_path, "SSE_HEARTBEAT_S": 2})
    client = app.test_client()
    made = client.post("/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben"],
                                            "options": {"deck": "table"}}).get_json()
    code, host = made["code"], {"Authorization": f"Bearer {made['host_token']}"}
    # A slow connection: each step the walk sends takes 0.4 s, so "Enter it now", tapped right after
    # Next, comes while the step is still on its way (a loaded CI machine once lost it so).
    app.wsgi_app = slow_walk(app.wsgi_app, 0.4)
    with ServerThread(app, threads=8) as server, sync_api.sync_playwright() as p:
        browser = launch(p)
        try:
            ctx, page, errors = open_phone(browser)
            page.goto(server.url + "/join")
            page.evaluate("([code, host]) => localStorage.setItem('tk.tables', JSON.stringify("
                          "{[code]: {game: 'shinjuku', player: 0, host, at: 1}}))",
                          [code, made["host_token"]])
            page.goto(f"{server.url}/t/{code}")
            walk = page.locator("#setup-walk")
            walk.get_by_text("Step 1 of 7").wait_for(timeout=10_000)
            assert walk.locator(".walk-title").inner_text() == "Colours and pieces"
            assert "6 steps left" in walk.inner_text()
            assert "null" not in walk.inner_text()
            walk.get_by_role("button", name="Next").click()
            walk.get_by_text("Step 2 of 7").wait_for(timeout=2_000)
            walk.get_by_role("button", name="Back").click()
            walk.get_by_text("Step 1 of 7").wait_for(timeout=2_000)
            assert walk.get_by_role("button", name="Back").is_disabled()
            walk.get_by_role("button", name="Next").click()
            walk.get_by_role("button", name="Next").click()
            assert walk.locator(".walk-title").inner_text() == "Deal the hands"
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            page.screenshot(path=str(tmp_path / "walk.png"))
            # the step that needs an entry leads to it: the board, that move chosen
            walk.get_by_role("link", name="Enter it now").click()
            page.wait_for_url(re.compile(r"/board\?enter=deal-hand$"))
            page.locator("[data-enter='deal-hand'][aria-pressed='true']").wait_for(timeout=10_000)
            # the hands entered (here through the API), the walk says so, on the step it was on
            t = client.get(f"/api/tables/{code}", headers=host).get_json()
            legal = client.get(f"/api/tables/{code}/legal", headers=host).get_json()["moves"]
            seq = t["seq"]
            for player in (0, 1):
                hand = next(m for m in legal if m["type"] == "deal-hand" and m["player"] == player)
                r = client.post(f"/api/tables/{code}/moves", headers=host,
                                json={"expected_seq": seq, "move": hand})
                assert r.status_code == 200, r.get_json()
                seq = r.get_json()["seq"]
                legal = client.get(f"/api/tables/{code}/legal", headers=host).get_json()["moves"]
            page.goto(f"{server.url}/t/{code}")
            walk.get_by_text("Step 3 of 7").wait_for(timeout=10_000)
            walk.get_by_text("✓ Entered.").wait_for(timeout=2_000)
            # the rest of the set-up and the first turn: the walk is gone
            while True:
                t = client.get(f"/api/tables/{code}", headers=host).get_json()
                move = client.get(f"/api/tables/{code}/legal", headers=host).get_json()["moves"][0]
                r = client.post(f"/api/tables/{code}/moves", headers=host,
                                json={"expected_seq": t["seq"], "move": move})
                assert r.status_code == 200
                if move["type"] not in ("deal-hand", "seed-ward", "place-matsuri", "fill-queue"):
                    break
            # issue 23: the steps stay readable after play begins, folded under "Set-up steps"
            folded = walk.get_by_role("button", name="Set-up steps (7)")
            folded.wait_for(timeout=5_000)
            folded.click()
            assert walk.locator(".walk-title").inner_text() == "Colours and pieces"
            assert "Play has begun" in walk.inner_text()
            assert walk.get_by_role("link", name="Enter it now").count() == 0
            assert not errors, errors
        finally:
            browser.close()


REAL = sorted(gid for gid, g in GAMES.items())


@pytest.mark.parametrize("gid", REAL)
def test_every_game_walks_its_set_up_until_play_begins(gid):
    """Each game gives steps at the start (each with a title and a text naming no internals), the
    entries they ask for are its own moves, and once the steps are gone they never come back."""
    from test_rules_contract import playout
    game = GAMES[gid]
    names = {mt.name for mt in game.move_types}
    for mode in game.chance_modes:
        states, _, _ = playout(game, game.players[0], mode, seed=3)
        first = game.setup_steps(states[0])
        assert first, f"{gid} ({mode}): no set-up steps at the start"
        for s in first:
            assert s["title"] and len(s["text"]) > 10 and isinstance(s["done"], bool)
            assert s["input"] is None or s["input"] in names
            assert "None" not in s["text"] and "{" not in s["text"]
        gone = False
        for state in states:
            steps = game.setup_steps(state)
            if gone:
                assert steps == [], f"{gid} ({mode}): the set-up came back"
            gone = gone or not steps
        assert gone and game.setup_steps(states[-1]) == []
