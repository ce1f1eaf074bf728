"""One table, one walk-through (issue 23 point 2): "Set-up steps done on one phone are done on every
phone; the steps stay readable after play begins. Watchers see no undo; the host phone names whose
turn it is."

The walk's step is the table's: POST /api/tables/<code>/walk {"expected_seq", "step"} appends a
`walk` event (outside the game: no state change, never undone), GET …/walk reads it with the steps.
API.md's rules hold: JSON errors, no 500, a token to write, expected_seq, idempotency keys."""
from __future__ import annotations

import pytest

from companion import create_app
from companion.catalog import discover
from phones import needs_chromium, open_phone
from testgames import COUNTER

GAMES = {g.id: g for g in discover().values() if g.playable}


@pytest.fixture
def shinjuku_app(tmp_path):
    if "shinjuku" not in GAMES:
        pytest.skip("Shinjuku's rules are not there")
    return create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}, "SSE_HEARTBEAT_S": 2})


def new_table(client, game="shinjuku", players=("Aki", "Ben"), options=None):
    options = options if options is not None else {"deck": "table"}
    made = client.post("/api/tables", json={"game": game, "players": list(players),
                                            "options": options}).get_json()
    return made["code"], {"Authorization": f"Bearer {made['host_token']}"}, made["host_token"]


def seat(client, code, player):
    r = client.post(f"/api/tables/{code}/seats", json={"player": player})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["token"]


# ------------------------------------------------------------------------------------------------ API
def test_walk_is_the_tables_and_follows_the_api_rules(shinjuku_app):
    c = shinjuku_app.test_client()
    code, host, _ = new_table(c)
    w = c.get(f"/api/tables/{code}/walk").get_json()
    assert w["step"] == 0 and not w["playing"] and len(w["steps"]) == 7
    # a seat's token walks the table
    ben = {"Authorization": f"Bearer {seat(c, code, 1)}"}
    r = c.post(f"/api/tables/{code}/walk", headers=ben, json={"expected_seq": 0, "step": 2})
    assert r.status_code == 200 and r.get_json()["step"] == 2 and r.get_json()["seq"] == 1
    assert c.get(f"/api/tables/{code}/walk").get_json()["step"] == 2
    (event,) = c.get(f"/api/tables/{code}/events?since=0", headers={"Accept": "application/json"}).get_json()["events"]
    assert event["kind"] == "walk" and event["summary"] == "Set-up: step 3 of 7, Deal the hands."
    # refusals: JSON, with reasons, never a 500
    cases = [({}, {"expected_seq": 1, "step": 3}, 401),
             (host, {"expected_seq": 0, "step": 3}, 409),
             (host, {"expected_seq": 1, "step": 8}, 422),
             (host, {"expected_seq": 1, "step": -1}, 400),
             (host, {"expected_seq": 1, "step": "3"}, 400),
             (host, {"expected_seq": 1}, 400),
             (host, {"expected_seq": 1, "step": 3, "extra": 1}, 400)]
    for headers, body, status in cases:
        r = c.post(f"/api/tables/{code}/walk", headers=headers, json=body)
        assert r.status_code == status, (body, r.get_json())
        assert isinstance(r.get_json()["error"], str)
    assert c.post("/api/tables/NOPE2345/walk", headers=host, json={"expected_seq": 0, "step": 0}).status_code == 404
    # the same request with the same key: the stored answer, nothing appended twice
    key = {**host, "Idempotency-Key": "walk-1"}
    first = c.post(f"/api/tables/{code}/walk", headers=key, json={"expected_seq": 1, "step": 3})
    again = c.post(f"/api/tables/{code}/walk", headers=key, json={"expected_seq": 1, "step": 3})
    assert first.status_code == again.status_code == 200 and first.get_json() == again.get_json()
    assert c.get(f"/api/tables/{code}").get_json()["seq"] == 2


def test_a_walk_event_changes_no_game_and_undo_passes_over_it(shinjuku_app):
    c = shinjuku_app.test_client()
    code, host, _ = new_table(c)
    before = c.get(f"/api/tables/{code}", headers=host).get_json()["state"]
    move = next(m for m in c.get(f"/api/tables/{code}/legal", headers=host).get_json()["moves"]
                if m["type"] == "deal-hand")
    assert c.post(f"/api/tables/{code}/moves", headers=host, json={"expected_seq": 0, "move": move}).status_code == 200
    after_move = c.get(f"/api/tables/{code}", headers=host).get_json()["state"]
    assert c.post(f"/api/tables/{code}/walk", headers=host, json={"expected_seq": 1, "step": 3}).status_code == 200
    assert c.get(f"/api/tables/{code}", headers=host).get_json()["state"] == after_move
    r = c.post(f"/api/tables/{code}/undo", headers=host, json={"expected_seq": 2})
    assert r.status_code == 200, r.get_json()
    assert c.get(f"/api/tables/{code}", headers=host).get_json()["state"] == before   # the move, not the walk
    assert c.get(f"/api/tables/{code}/walk").get_json()["step"] == 3


def test_a_move_made_while_another_phone_walked_is_not_refused(shinjuku_app):
    """A walk changes no game: a move sent on the seq before it is played (no 409); a move sent on a
    seq before anything else (here a table timer) still is refused (the table changed)."""
    c = shinjuku_app.test_client()
    code, host, _ = new_table(c)
    legal = c.get(f"/api/tables/{code}/legal", headers=host).get_json()["moves"]
    moves = [m for m in legal if m["type"] == "deal-hand"]
    assert c.post(f"/api/tables/{code}/walk", headers=host, json={"expected_seq": 0, "step": 1}).status_code == 200
    assert c.post(f"/api/tables/{code}/walk", headers=host, json={"expected_seq": 1, "step": 2}).status_code == 200
    r = c.post(f"/api/tables/{code}/moves", headers=host, json={"expected_seq": 0, "move": moves[0]})
    assert r.status_code == 200 and r.get_json()["seq"] == 3, r.get_json()
    # a table timer started meanwhile is a change the sender did not see: still refused
    assert c.post(f"/api/tables/{code}/timers", headers=host, json={
        "expected_seq": 3, "timer": "round", "action": "start", "seconds": 30}).status_code == 200
    assert c.post(f"/api/tables/{code}/walk", headers=host, json={"expected_seq": 4, "step": 3}).status_code == 200
    other = next(m for m in moves if m["player"] != moves[0]["player"])
    r = c.post(f"/api/tables/{code}/moves", headers=host, json={"expected_seq": 3, "move": other})
    assert r.status_code == 409


def test_once_play_begins_the_steps_stay_readable_and_the_walk_stops(shinjuku_app):
    c = shinjuku_app.test_client()
    code, host, _ = new_table(c)
    while True:
        t = c.get(f"/api/tables/{code}", headers=host).get_json()
        move = c.get(f"/api/tables/{code}/legal", headers=host).get_json()["moves"][0]
        assert c.post(f"/api/tables/{code}/moves", headers=host,
                      json={"expected_seq": t["seq"], "move": move}).status_code == 200
        if move["type"] not in ("deal-hand", "seed-ward", "place-matsuri", "fill-queue"):
            break
    t = c.get(f"/api/tables/{code}", headers=host).get_json()
    assert t["setup"] == []                                  # the rules give none once play runs
    w = c.get(f"/api/tables/{code}/walk").get_json()
    assert w["playing"] and len(w["steps"]) == 7 and all(s["done"] for s in w["steps"])
    assert w["steps"][0]["title"] == "Colours and pieces"
    r = c.post(f"/api/tables/{code}/walk", headers=host, json={"expected_seq": t["seq"], "step": 1})
    assert r.status_code == 422 and "Play has begun" in r.get_json()["error"]


# ---------------------------------------------------------------------------------------- on phones
def phone_at_table(browser, server, code, game, width, height, entry):
    ctx, page, errors = open_phone(browser, (width, height))
    page.goto(server.url + "/join")
    if entry is not None:
        page.evaluate("([code, entry]) => localStorage.setItem('tk.tables', JSON.stringify({[code]: entry}))",
                      [code, {"game": game, "at": 1, **entry}])
    page.goto(f"{server.url}/t/{code}")
    return ctx, page, errors


@needs_chromium
def test_one_walk_for_every_phone_and_no_undo_for_a_watcher(browser, shinjuku_app):
    from companion.testing import ServerThread
    c = shinjuku_app.test_client()
    code, host, host_token = new_table(c)
    ben_token = seat(c, code, 1)
    with ServerThread(shinjuku_app, threads=12) as server:
        phones = []
        try:
            aki = phone_at_table(browser, server, code, "shinjuku", 390, 844, {"player": 0, "host": host_token})
            ben = phone_at_table(browser, server, code, "shinjuku", 360, 740, {"player": 1, "token": ben_token})
            watcher = phone_at_table(browser, server, code, "shinjuku", 390, 844, {"player": -1, "token": None})
            phones = [aki, ben, watcher]
            walks = [p.locator("#setup-walk") for _, p, _ in phones]
            for w in walks:
                w.get_by_text("Step 1 of 7").wait_for(timeout=10_000)
            # Aki's phone walks two steps: every phone follows
            walks[0].get_by_role("button", name="Next").click()
            walks[0].get_by_text("Step 2 of 7").wait_for(timeout=5_000)
            walks[0].get_by_role("button", name="Next").click()
            for w in walks:
                w.get_by_text("Step 3 of 7").wait_for(timeout=10_000)
                assert w.locator(".walk-title").inner_text() == "Deal the hands"
            # Ben's phone goes back one: Aki's follows
            walks[1].get_by_role("button", name="Back").click()
            walks[0].get_by_text("Step 2 of 7").wait_for(timeout=10_000)
            walks[2].get_by_text("Step 2 of 7").wait_for(timeout=10_000)
            # the watcher looks ahead on its own phone: the table's walk stays where it is
            walks[2].get_by_role("button", name="Next").click()
            walks[2].get_by_text("Step 3 of 7").wait_for(timeout=5_000)
            assert "This phone follows the table's walk." in walks[2].inner_text()
            assert c.get(f"/api/tables/{code}/walk").get_json()["step"] == 1
            assert walks[0].get_by_text("Step 2 of 7").is_visible()
            # the watcher has no Undo; a seat's phone has one once a move is made
            move = next(m for m in c.get(f"/api/tables/{code}/legal", headers=host).get_json()["moves"]
                        if m["type"] == "deal-hand" and m["player"] == 1)
            seq = c.get(f"/api/tables/{code}").get_json()["seq"]
            assert c.post(f"/api/tables/{code}/moves", headers=host,
                          json={"expected_seq": seq, "move": move}).status_code == 200
            ben[1].locator("#undo", has_text="Undo #").wait_for(timeout=10_000)
            assert watcher[1].locator("#history li", has_text="#").count() >= 1
            assert not watcher[1].locator("#undo").is_visible()
            for (_, page, errors), w in zip(phones, (390, 360, 390)):
                assert page.evaluate("document.documentElement.scrollWidth") <= w
                assert not errors, errors
            ben[1].screenshot(path="/tmp/walk-ben-360.png")
        finally:
            for ctx, _, _ in phones:
                ctx.close()


@needs_chromium
def test_each_phone_names_whose_turn_it_is(browser, shinjuku_app):
    from companion.testing import ServerThread
    c = shinjuku_app.test_client()
    code, host, host_token = new_table(c, "counter", options={})
    ben_token = seat(c, code, 1)
    with ServerThread(shinjuku_app, threads=8) as server:
        phones = []
        try:
            host_only = phone_at_table(browser, server, code, "counter", 390, 844, {"player": None, "host": host_token})
            aki_host = phone_at_table(browser, server, code, "counter", 390, 844, {"player": 0, "host": host_token})
            ben = phone_at_table(browser, server, code, "counter", 360, 740, {"player": 1, "token": ben_token})
            phones = [host_only, aki_host, ben]
            host_only[1].locator("#turn", has_text="Aki's turn: this phone can enter it.").wait_for(timeout=10_000)
            aki_host[1].locator("#turn", has_text="Your turn, Aki!").wait_for(timeout=10_000)
            ben[1].locator("#turn", has_text="Aki's turn.").wait_for(timeout=10_000)
            assert c.post(f"/api/tables/{code}/moves", headers=host,
                          json={"expected_seq": 0, "move": {"type": "add", "player": 0, "add": 2}}).status_code == 200
            # Ben's turn: the host phone holding Aki's seat no longer says "your"
            aki_host[1].locator("#turn", has_text="Ben's turn: this phone can enter it.").wait_for(timeout=10_000)
            host_only[1].locator("#turn", has_text="Ben's turn: this phone can enter it.").wait_for(timeout=10_000)
            ben[1].locator("#turn", has_text="Your turn, Ben!").wait_for(timeout=10_000)
            for _, _, errors in phones:
                assert not errors, errors
        finally:
            for ctx, _, _ in phones:
                ctx.close()
