"""The finale (issue 23 point 3): the end screen gives places (shared ones said so), scores in their
unit (−7,100 ¥), why the game ended and how a tie was broken in a sentence, a chart of the game where
the public state keeps a running score, nothing of the game in progress under GAME OVER, and "Log
this play in BG Stats" built on BG Stats' documented push link (also on /plays).

BG Stats (../shared/reference/companion-practices.md): "Opening
`https://app.bgstatsapp.com/createPlay.html?data=<DATA>` … `<DATA>` is a URL-encoded JSON object …
`playDate` ("YYYY-MM-DD HH:MM:SS"), `durationMin` … `game`: `name`, `highestWins` (bool), `noPoints`
(bool), `sourceGameId` … each of `players`: `name`, `score`, `winner` (bool), `rank`, `startPlayer`
(bool) … Scores may be negative (Capsule Hotel's net debt); ranks follow the game's own tie-breaks."

The play here is the tests' sealed-bid game (tests/testgames.py): its result's winners are the top
score with the most coins left as the tie-break, and each player's running points are in its public
state, so the end screen can show both the tie-break and a chart by round."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from urllib.parse import unquote

import pytest

from companion import create_app
from companion.web.api_plays import BGSTATS, bgstats_play, places
from phones import needs_chromium
from testgames import SEALED_BID

SIZES = [(390, 844), (360, 740)]


def play_sealed_bid(client, players=("Aki", "Ben", "Chie"), bids=((4, 0, 0), (0, 2, 0))):
    """Two rounds, each with prize 3, played up to the last bid: (code, host token, that last bid
    as a move, for the caller to send)."""
    made = client.post("/api/tables", json={"game": "sealed-bid", "players": list(players),
                                            "options": {"rounds": len(bids)}}).get_json()
    code, host = made["code"], {"Authorization": f"Bearer {made['host_token']}"}
    seq = 0
    moves = []
    for round_bids in bids:
        moves.append({"type": "start-round", "prize": 3})
        moves += [{"type": "bid", "player": p, "amount": a} for p, a in enumerate(round_bids)]
    for move in moves[:-1]:
        r = client.post(f"/api/tables/{code}/moves", headers=host, json={"expected_seq": seq, "move": move})
        assert r.status_code == 200, r.get_json()
        seq = r.get_json()["seq"]
    return code, made["host_token"], moves[-1]


# ------------------------------------------------------------------------------------ places, BG Stats
def test_places_follow_the_winners_then_the_scores_and_share_equal_places():
    play = {"winners": [1], "scores": [{"player": 0, "name": "Aki", "score": 3},
                                       {"player": 1, "name": "Ben", "score": 3},
                                       {"player": 2, "name": "Chie", "score": 0}]}
    assert places(play) == {1: 1, 0: 2, 2: 3}          # the tie-break's winner first
    shared = {"winners": [0, 1], "scores": play["scores"]}
    assert places(shared) == {0: 1, 1: 1, 2: 3}         # a shared first place; the next is 3rd
    yen = {"winners": [1], "scores": [{"player": 0, "name": "Aki", "score": -17800},
                                      {"player": 1, "name": "Ben", "score": -6800},
                                      {"player": 2, "name": "Chie", "score": -8400}]}
    assert places(yen) == {1: 1, 2: 2, 0: 3}


def test_bgstats_play_has_the_documented_fields():
    play = {"code": "ABCD1234", "game": "capsule-hotel", "game_name": "Capsule Hotel", "winners": [1],
            "started_ms": 1_700_000_000_000, "duration_ms": 47 * 60_000 + 20_000,
            "scores": [{"player": 0, "name": "Aki", "score": -17800}, {"player": 1, "name": "Ben", "score": -6800}]}
    data = bgstats_play(play, start_player=1)
    assert data["playDate"] == "2023-11-14 22:13:20"    # "YYYY-MM-DD HH:MM:SS"
    assert data["durationMin"] == 47
    assert data["game"] == {"name": "Capsule Hotel", "highestWins": True, "noPoints": False,
                            "sourceGameId": "capsule-hotel"}
    assert [(p["name"], p["score"], p["winner"], p["rank"], p["startPlayer"]) for p in data["players"]] == [
        ("Aki", -17800, False, 2, False), ("Ben", -6800, True, 1, True)]


def test_api_plays_carries_the_bgstats_link_and_plays_page_the_button(tmp_path):
    client = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"sealed-bid": SEALED_BID}}).test_client()
    code, token, last = play_sealed_bid(client)
    seq = client.get(f"/api/tables/{code}").get_json()["seq"]
    assert client.post(f"/api/tables/{code}/moves", headers={"Authorization": f"Bearer {token}"},
                       json={"expected_seq": seq, "move": last}).status_code == 200
    (play,) = client.get(f"/api/plays?table={code}").get_json()["plays"]
    assert play["bgstats"].startswith(BGSTATS)
    data = json.loads(unquote(play["bgstats"][len(BGSTATS):]))
    assert data["game"]["name"] == "Sealed bid"
    assert [(p["name"], p["rank"], p["winner"]) for p in data["players"]] == [
        ("Aki", 2, False), ("Ben", 1, True), ("Chie", 3, False)]
    page = client.get("/plays").get_data(as_text=True)
    assert "Log this play in BG Stats" in page and "app.bgstatsapp.com/createPlay.html?data=" in page
    # the chart: each player's points after each round (the state counts rounds)
    chart = client.get(f"/api/plays/{code}/chart").get_json()
    assert chart["unit"] == "points" and chart["x"] == "round"
    assert [p["values"] for p in chart["points"]] == [[0, 0, 0], [3, 0, 0], [3, 3, 0]]
    assert client.get("/api/plays/NOPE/chart").status_code in (400, 404)


def test_a_game_in_progress_has_no_chart_yet(tmp_path):
    client = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"sealed-bid": SEALED_BID}}).test_client()
    code, _, _ = play_sealed_bid(client)
    r = client.get(f"/api/plays/{code}/chart")
    assert r.status_code == 422 and "not over" in r.get_json()["error"]


# ------------------------------------------------------------------------------------------ on a phone
@needs_chromium
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_end_screen_on_a_phone(browser, tmp_path, size):
    from companion.testing import ServerThread
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"sealed-bid": SEALED_BID}, "SSE_HEARTBEAT_S": 2})
    client = app.test_client()
    code, token, last = play_sealed_bid(client)
    width, height = size
    with ServerThread(app, threads=8) as server:
        ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True,
                                  bypass_csp=True, timezone_id="Asia/Tokyo")
        try:
            page = ctx.new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(server.url + "/join")
            page.evaluate("([code, host]) => localStorage.setItem('tk.tables', JSON.stringify("
                          "{[code]: {game: 'sealed-bid', player: 0, host, at: 1}}))", [code, token])
            page.goto(f"{server.url}/t/{code}")
            page.wait_for_function("window.tkTable && window.tkTable.table", timeout=10_000)
            # the last bid through the page's own move box: it says "Played." while the game runs
            page.locator("details.card summary").click()
            page.fill("#move", json.dumps(last))
            page.get_by_role("button", name="Send move").click()
            result = page.locator("#result")
            result.locator(".badge-over").wait_for(timeout=10_000)
            # nothing of the game in progress under GAME OVER: the "Played." note is gone
            assert page.evaluate("document.documentElement.hasAttribute('data-game-over')")
            assert not page.locator("#move-msg").is_visible()
            assert result.locator("h2").inner_text() == "Ben wins!"
            rows = result.locator(".scores > li")
            assert [rows.nth(i).locator(".place").inner_text().split()[0] for i in range(3)] == ["1st", "2nd", "3rd"]
            assert [rows.nth(i).locator(".name").inner_text().split()[0] for i in range(3)] == ["Ben", "Aki", "Chie"]
            assert rows.nth(0).locator(".score").inner_text() == "3 points"
            assert rows.nth(2).locator(".score").inner_text() == "0 points"
            why = result.locator(".result-why").inner_text()
            assert "Ben wins with 3 points." in why
            assert "Ben and Aki tied at 3 points" in why and "coins: Ben 8, Aki 6" in why
            # the chart: one line per player, drawn from the points after each round
            result.locator(".result-chart svg").wait_for(timeout=10_000)
            assert result.locator(".result-chart polyline[data-player]").count() == 3
            log = result.get_by_role("link", name="Log this play in BG Stats")
            log.wait_for(timeout=10_000)
            href = log.get_attribute("href")
            assert href.startswith(BGSTATS)
            data = json.loads(unquote(href[len(BGSTATS):]))
            assert {p["name"]: p["rank"] for p in data["players"]} == {"Ben": 1, "Aki": 2, "Chie": 3}
            # the date as the phone's clock says it (the server's link says UTC)
            (play,) = client.get(f"/api/plays?table={code}").get_json()["plays"]
            tokyo = datetime.fromtimestamp(play["started_ms"] / 1000, timezone(timedelta(hours=9)))
            assert data["playDate"] == tokyo.strftime("%Y-%m-%d %H:%M:%S")       # the phone is in Tokyo
            box = log.bounding_box()
            assert box["height"] >= 44
            # scores in their unit: yen with the thousands and a true minus sign
            assert page.evaluate("tk.formatScore(-7100, 'yen')") == "−7,100 ¥"
            assert page.evaluate("tk.formatScore(1, 'points')") == "1 point"
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            result.scroll_into_view_if_needed()
            page.screenshot(path=str(tmp_path / f"finale-{width}.png"))
            assert not errors, errors
        finally:
            ctx.close()


@needs_chromium
def test_a_shared_victory_says_so(browser, tmp_path):
    from companion.testing import ServerThread
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"sealed-bid": SEALED_BID}})
    client = app.test_client()
    code, token, last = play_sealed_bid(client, bids=((2, 0, 0), (0, 2, 0)))
    seq = client.get(f"/api/tables/{code}").get_json()["seq"]
    assert client.post(f"/api/tables/{code}/moves", headers={"Authorization": f"Bearer {token}"},
                       json={"expected_seq": seq, "move": last}).status_code == 200
    with ServerThread(app, threads=8) as server:
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  bypass_csp=True)
        try:
            page = ctx.new_page()
            page.goto(f"{server.url}/t/{code}")
            result = page.locator("#result")
            result.locator(".badge-over").wait_for(timeout=10_000)
            assert result.locator("h2").inner_text() == "Shared victory: Aki and Ben!"
            places_ = [result.locator(".scores > li .place").nth(i).inner_text().replace("\n", " ") for i in range(3)]
            assert places_ == ["1st shared", "1st shared", "3rd"]
            assert "Aki and Ben share the victory with 3 points each." in result.locator(".result-why").inner_text()
            # a watcher's phone: no Undo at all
            assert not page.locator("#undo").is_visible()
        finally:
            ctx.close()
