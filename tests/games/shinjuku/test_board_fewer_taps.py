"""Fewer taps per turn on the board page (issue 9), on a phone in a real Chromium: the tap that makes a
move whole plays it after a moment (Clear stops it; a setting turns it off and Play is needed again),
and a tap on the map before any move is chosen starts the move it can only mean, with the card a
player would play there preselected."""
from __future__ import annotations

import re
import time

import requests

from .tables import table_after
from phones import api, one_test, open_phone, require_chromium, seated_phone, server_fixture

require_chromium()

#: One companion for the module's tests (each makes its own table); several phones share 127.0.0.1.
server = server_fixture("shinjuku_fewer_taps", SSE_PER_CLIENT=16)


def _phone(browser, server, code, seat="Aki", tap_seat=False):
    """The phone of `seat` (a name) on the board page. The seat is claimed through the API and its
    token kept in localStorage as the table page keeps it; or, with `tap_seat`, taken by tapping the
    table page (which also leaves the cookies the scan pages read)."""
    if tap_seat:
        ctx, page, page.errors = open_phone(browser)
        page.goto(f"{server.url}/t/{code}")
        page.locator("#seat-buttons button", has_text=seat).click()
        page.locator("#whoami", has_text=f"you are {seat}").wait_for(timeout=15_000)   # the seat's token kept
        page.goto(f"{server.url}/t/{code}/board")
    else:
        names = [pl["name"] for pl in api(server, f"/api/tables/{code}")["state"]["players"]]
        token = api(server, f"/api/tables/{code}/seats", {"player": names.index(seat)})["token"]
        ctx, page = seated_phone(browser, server, code, {"game": "shinjuku", "player": names.index(seat),
                                                         "token": token})
    page.wait_for_function("window.tkTable && tkTable.table && tkTable.mode === 'live' && tkMap && tkMap.svg",
                           timeout=30_000)
    return ctx, page, page.errors



def _seq(url, code):
    return requests.get(f"{url}/api/tables/{code}", timeout=10).json()["seq"]


def _wait_seq(url, code, seq, timeout=15.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if _seq(url, code) >= seq:
            return True
        time.sleep(0.1)
    return False


def _tap_map(page, x_mm, y_mm):
    """Tap the map at a point given in map millimetres (where a finger would): the map opens close up
    (issue 23), so it is dragged to the point first, as a finger would."""
    if not page.evaluate(f"tkMap.shows({x_mm}, {y_mm}, 30)"):
        page.evaluate(f"tkMap.reveal({x_mm}, {y_mm})")
    page.locator("#map").scroll_into_view_if_needed()
    x, y = page.evaluate(f"""(() => {{ const p = new DOMPoint({x_mm}, {y_mm}).matrixTransform(tkMap.svg.getScreenCTM());
        return [p.x, p.y]; }})()""")
    page.mouse.click(x, y)


def test_the_tap_that_makes_a_move_whole_plays_it_and_clear_stops_it(server, browser):
    with one_test(server, browser) as s:
        code, host = table_after(s, {"type": "place-customers", "player": 0},
                                 options={"deck": "companion"}, seed=4)
        ctx, aki, errors = _phone(browser, s, code)
        try:
            # the Matsuri is the only move: chosen by itself; one ward tap makes it whole
            picks = aki.locator("#builder .picks button")
            picks.first.wait_for(timeout=15_000)
            picks.first.click()
            note = aki.locator("#autoplay-note")
            assert note.is_visible() and "in a moment" in note.inner_text()
            aki.locator("#clear").click()                      # stopped: nothing is sent
            assert note.is_hidden()
            time.sleep(2.5)
            assert _seq(s.url, code) == 1
            # the same tap again, and no Play tap: the move is played
            aki.locator("#builder .picks button").first.click()
            assert _wait_seq(s.url, code, 2)
            aki.locator("#msg.good", has_text="Played").wait_for(timeout=15_000)
            assert requests.get(f"{s.url}/api/tables/{code}", timeout=10).json()["state"]["phase"] == "actions"
            # turned off on this phone: a whole move waits for Play again
            aki.locator("#autoplay-on").uncheck()
            assert aki.evaluate("localStorage.getItem('tk.autoplay')") == "off"
            aki.locator("#types button", has_text="Draw income").click()
            time.sleep(2.5)
            assert _seq(s.url, code) == 2 and aki.locator("#play").is_enabled()
            aki.get_by_role("button", name="Play", exact=True).click()
            assert _wait_seq(s.url, code, 3)
            assert not errors, errors
        finally:
            ctx.close()


def test_a_map_tap_before_choosing_starts_the_only_move_it_can_mean(server, browser):
    app = server.app
    tokyo = app.extensions["tokyo"]
    game = tokyo.games["shinjuku"]
    r = app.test_client().post("/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben"],
                                                    "options": {"deck": "companion"}, "seed": 5})
    code = r.get_json()["code"]
    rules = game.rules
    while True:                                                # the engine plays up to a turn's actions
        _, state = tokyo.tables.state(code)
        if state["phase"] == "actions" and not state["actions"]:
            break
        assert tokyo.tables.move(code, tokyo.tables.get(code)["seq"], rules.legal_moves(state).moves[0],
                                 None, "fp")[0] == 200
    me = state["current"]
    ix = rules.ix
    hand = state["players"][me]["hand"]
    # a free station in the ward of a card in hand, where no customers wait (it can only mean a store)
    sid, ward = next((st.id, w) for w in hand if not state["wards"].get(w)
                     for st in game.data.stations_in[w] if st.id not in state["stations"])
    name = game.data.station[sid].name
    seat = state["players"][me]["name"]
    with one_test(server, browser) as s:
        ctx, aki, errors = _phone(browser, s, code, seat=seat)
        try:
            before = _seq(s.url, code)
            assert aki.locator("#types button[aria-pressed=true]").count() == 0   # no move chosen yet
            x, y = aki.evaluate(f"[tkMap.stations['{sid}'].x, tkMap.stations['{sid}'].y]")
            _tap_map(aki, x, y)
            assert aki.locator("#types button[aria-pressed=true]").inner_text() == "Open store"
            summary = aki.locator("#summary").inner_text()
            assert f"at {name}" in summary
            assert f"card {game.data.ward[ward].name}" in summary             # the card a player would play
            assert "still to choose: the goods" in summary
            aki.locator("#builder .card", has_text="Goods").locator("button").first.click()
            assert _wait_seq(s.url, code, before + 1)                           # no Play tap
            _, after = tokyo.tables.state(code)
            assert after["stations"][sid]["owner"] == me
            assert len(after["players"][me]["hand"]) == len(hand) - 1
            # a track slot tapped on the map: Expand track, that segment
            aki.wait_for_function(f"tkTable.table.seq === {before + 1}", timeout=15_000)
            # (and what the new seq offers: a tap before the page has it can mean no move yet)
            aki.locator("#types button", has_text="Expand track").wait_for(timeout=15_000)
            cid = next(c for c, ends in ix.conn_ends.items() if c not in after["tracks"]
                       and sid in ends)
            x, y = aki.evaluate(f"tkMap.connections['{cid}'].centre")
            _tap_map(aki, x, y)
            assert aki.locator("#types button[aria-pressed=true]").inner_text() == "Expand track"
            a, b = (game.data.station[x].name for x in ix.conn_ends[cid])
            assert re.search(f"({a}–{b}|{b}–{a})", aki.locator("#summary").inner_text())
            assert not errors, errors
        finally:
            ctx.close()


def test_a_scanned_card_enters_itself_into_the_move_waiting_for_it(server, browser):
    """Table deck: each dealt card's QR page offers “Use this card”; it opens the board with the card
    entered into the hand being dealt (the first scan asks for which move, as every part of the set-up
    waits), the move kept from scan to scan, and the last card plays it."""
    app = server.app
    game = app.extensions["tokyo"].games["shinjuku"]
    hand_size = game.rules.ix.hand_size
    cards = ["shinjuku", "ota", "ota", "nakano", "shibuya", "minato"][:hand_size]
    with one_test(server, browser) as s:
        code = requests.post(s.url + "/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben"],
                                                          "options": {"deck": "table"}}).json()["code"]
        ctx, aki, errors = _phone(browser, s, code, tap_seat=True)   # the scan pages read its cookies
        try:
            for k, ward in enumerate(cards):
                aki.goto(f"{s.url}/q/shinjuku/ward/{ward}")
                aki.locator("#use-card").click()
                aki.wait_for_function("window.tkTable && tkTable.table", timeout=30_000)
                if k == 0:       # at the deal every part of the set-up waits: the first scan asks which
                    aki.locator("#msg button", has_text="Deal a hand").click()
                if k < len(cards) - 1:
                    aki.locator("#builder h3", has_text=f"— {k + 1} of {hand_size}").wait_for(timeout=15_000)
                    assert "card=" not in aki.url                      # a reload does not enter it twice
                    said = aki.locator("#msg.good").inner_text()
                    assert said == f"{game.data.ward[ward].name} entered from its card."
            assert _wait_seq(s.url, code, 1)                            # the last card made it whole: played
            _, state = app.extensions["tokyo"].tables.state(code)
            assert sorted(state["players"][0]["hand"]) == sorted(cards)        # Aki's hand: the cards scanned
            aki.goto(f"{s.url}/q/shinjuku/ward/ota")
            assert aki.locator("#use-card").count() == 1                 # Ben's hand is still to be dealt
            assert not errors, errors
        finally:
            ctx.close()


def test_no_answer_plays_by_itself_while_who_it_is_for_is_to_choose(server, browser):
    """Several players answer a track bonus and the host's phone enters answers for everyone: choosing
    the answer plays nothing by itself (it would be for whoever is first); the host picks who, then Play."""
    import json
    import random

    from companion.games.shinjuku.rules import playout
    app = server.app
    tokyo = app.extensions["tokyo"]
    game = tokyo.games["shinjuku"]
    r = app.test_client().post("/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben", "Chie"],
                                                    "options": {"deck": "companion"}, "seed": 3}).get_json()
    code, host = r["code"], r["host_token"]
    rng = random.Random(1)
    for _ in range(3000):                   # the engine plays until two players answer at once
        _, state = tokyo.tables.state(code)
        needs = game.needs(state)
        if len(needs.get("players") or []) > 1:
            break
        assert tokyo.tables.move(code, tokyo.tables.get(code)["seq"], playout.choose(game.rules, state, rng),
                                 None, "fp")[0] == 200
    assert "decline-income" in needs["moves"]
    last = needs["players"][-1]
    with one_test(server, browser) as s:
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  bypass_csp=True)
        seats = {code: {"game": "shinjuku", "player": None, "host": host, "at": 0}}
        ctx.add_init_script(f"localStorage.setItem('tk.tables', {json.dumps(json.dumps(seats))})")
        page = ctx.new_page()
        try:
            page.goto(f"{s.url}/t/{code}/board")
            page.wait_for_function("window.tkTable && tkTable.table && tkTable.mode === 'live'", timeout=30_000)
            before = _seq(s.url, code)
            page.locator("#types button", has_text="Decline income").click()
            assert page.locator("#autoplay-note").is_hidden()
            time.sleep(2.5)
            assert _seq(s.url, code) == before                          # nothing played for anyone
            who = page.locator("#builder .card", has_text="Who")
            who.locator("button", has_text=["Aki", "Ben", "Chie"][last]).click()
            page.get_by_role("button", name="Play", exact=True).click()
            assert _wait_seq(s.url, code, before + 1)
            events, _ = tokyo.tables.events(code, 0)
            assert events[-1]["move"] == {"type": "decline-income", "player": last}
        finally:
            ctx.close()


def _table_where(app, predicate, players=("Aki", "Ben"), tries=40):
    """A companion-deck table played by the engine (seeded random moves) until the player to act is
    at the start of their actions and `predicate(state, rules)` holds; (code, state, found)."""
    import random

    from companion.games.shinjuku.rules import playout
    tokyo = app.extensions["tokyo"]
    game = tokyo.games["shinjuku"]
    for seed in range(tries):
        code = app.test_client().post("/api/tables", json={"game": "shinjuku", "players": list(players),
                                      "options": {"deck": "companion"}, "seed": seed}).get_json()["code"]
        rng = random.Random(seed)
        for _ in range(400):
            _, state = tokyo.tables.state(code)
            if state["phase"] == "over":
                break
            if state["phase"] == "actions" and not state["actions"]:
                found = predicate(state, game)
                if found:
                    return code, state, found
            move = playout.choose(game.rules, state, rng)
            assert tokyo.tables.move(code, tokyo.tables.get(code)["seq"], move, None, "fp")[0] == 200
    raise AssertionError("no table reached the position wanted")


def test_a_move_with_nothing_to_choose_plays_by_itself_on_the_movers_phone(server, browser):
    """Companion deck: placing customers has nothing to choose (the companion draws); on the phone of
    the player whose turn it is it plays after a moment, no tap."""
    with one_test(server, browser) as s:
        code = requests.post(s.url + "/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben"],
                                                          "options": {"deck": "companion"}, "seed": 4}).json()["code"]
        assert requests.get(f"{s.url}/api/tables/{code}", timeout=10).json()["needs"]["moves"] == ["place-customers"]
        ctx, ben, errors = _phone(browser, s, code, seat="Ben")       # not Ben's turn: nothing happens
        try:
            time.sleep(2.5)
            assert _seq(s.url, code) == 0 and ben.locator("#autoplay-note").is_hidden()
        finally:
            ctx.close()
        ctx, aki, errors = _phone(browser, s, code, seat="Aki")
        try:
            assert _wait_seq(s.url, code, 1)                             # Aki's: played, no tap
            aki.locator("#msg.good", has_text="Played").wait_for(timeout=15_000)
            assert requests.get(f"{s.url}/api/tables/{code}", timeout=10).json()["state"]["phase"] == "matsuri"
            assert not errors, errors
        finally:
            ctx.close()


def test_a_station_tap_then_the_next_station_along_the_track_moves_the_customers(server, browser):
    """A free station of a ward where customers wait could open a store or start their path: the tap
    starts the store move, and a tap on the next station along built track moves the customers
    instead; no "which move?" tap either way."""
    app = server.app

    def station_with_customers_and_track(state, game):
        ix = game.rules.ix
        for sid, st in game.data.station.items():
            if sid in state["stations"] or not state["wards"].get(ix.station_ward[sid]):
                continue
            for c, ends in ix.conn_ends.items():
                if c in state["tracks"] and sid in ends:
                    return sid, next(e for e in ends if e != sid)
        return None

    code, state, (sid, nxt) = _table_where(app, station_with_customers_and_track)
    game = app.extensions["tokyo"].games["shinjuku"]
    seat = state["players"][state["current"]]["name"]
    with one_test(server, browser) as s:
        ctx, page, errors = _phone(browser, s, code, seat=seat)
        map_top = "document.querySelector('#map').getBoundingClientRect().top"
        try:
            x, y = page.evaluate(f"[tkMap.stations['{sid}'].x, tkMap.stations['{sid}'].y]")
            page.locator("#map").scroll_into_view_if_needed()
            top = page.evaluate(map_top)
            _tap_map(page, x, y)
            assert page.locator("#types button[aria-pressed=true]").inner_text() == "Open store"
            # the store move's fields appeared above the map; the map stayed under the finger
            assert abs(page.evaluate(map_top) - top) < 2
            assert f"at {game.data.station[sid].name}" in page.locator("#summary").inner_text()
            hint = page.locator("#map-hint")
            assert "next station along the track" in hint.inner_text()
            assert hint.locator("button", has_text="Move customers").count() == 1
            x, y = page.evaluate(f"[tkMap.stations['{nxt}'].x, tkMap.stations['{nxt}'].y]")
            _tap_map(page, x, y)
            assert page.locator("#types button[aria-pressed=true]").inner_text() == "Move customers"
            path = page.evaluate("JSON.parse(sessionStorage.getItem('tk.draft." + code + "')).draft.path")
            assert path == [sid, nxt]
            # the hint's button does the same from the store move (a path of one station)
            page.locator("#clear").click()
            x, y = page.evaluate(f"[tkMap.stations['{sid}'].x, tkMap.stations['{sid}'].y]")
            _tap_map(page, x, y)
            page.locator("#map-hint button", has_text="Move customers").click()
            assert page.locator("#types button[aria-pressed=true]").inner_text() == "Move customers"
            path = page.evaluate("JSON.parse(sessionStorage.getItem('tk.draft." + code + "')).draft.path")
            assert path == [sid]
            assert not errors, errors
        finally:
            ctx.close()


def test_where_no_single_card_can_be_played_the_wild_starts_and_asks_what_to_keep(server, browser):
    """No card of the hand matches the station (nor is wild): three as one wild is the only way, so it
    starts by itself; with four cards in hand one tap on the card to keep makes the other three the wild."""
    app = server.app

    def free_station_no_card_matches(state, game):
        ix = game.rules.ix
        me = state["current"]
        hand = state["players"][me]["hand"]
        wild = {state["matsuri"]} | {ix.station_ward[s] for s, x in state["stations"].items() if x["owner"] == me}
        if len(hand) != 4 or any(w in wild for w in hand):
            return None
        for sid in game.data.station:
            ward = ix.station_ward[sid]
            if sid not in state["stations"] and ward not in hand and not state["wards"].get(ward):
                return sid
        return None

    code, state, sid = _table_where(app, free_station_no_card_matches)
    game = app.extensions["tokyo"].games["shinjuku"]
    me = state["current"]
    hand = state["players"][me]["hand"]
    with one_test(server, browser) as s:
        ctx, page, errors = _phone(browser, s, code, seat=state["players"][me]["name"])
        try:
            before = _seq(s.url, code)
            x, y = page.evaluate(f"[tkMap.stations['{sid}'].x, tkMap.stations['{sid}'].y]")
            _tap_map(page, x, y)
            assert page.locator("#types button[aria-pressed=true]").inner_text() == "Open store"
            card = page.locator("#builder .card", has_text="to keep")
            assert "tap the card to keep" in card.locator("h3").inner_text()
            card.locator(".picks button").nth(3).click()                 # keep the fourth card
            want = hand[:3]
            summary = page.locator("#summary").inner_text()
            assert "card " + "+".join(game.data.ward[w].name for w in want) in summary, summary
            assert "still to choose: the goods" in summary
            page.locator("#builder .card", has_text="Goods").locator("button").first.click()
            assert _wait_seq(s.url, code, before + 1)                      # played: no Play tap
            _, after = app.extensions["tokyo"].tables.state(code)
            assert after["players"][me]["hand"] == [hand[3]]
            assert not errors, errors
        finally:
            ctx.close()
