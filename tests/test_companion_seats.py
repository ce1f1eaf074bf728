"""API.md's seats and tokens, legal moves, results and play records, and the games' own timers, over
HTTP with the tests' games: the counter (turns) and the sealed bid (secret simultaneous bids in a
timed round that the game starts itself and the server ends at its deadline)."""
from __future__ import annotations

import time

import pytest

from companion import create_app
from companion.testing import FakeClock
from testgames import TEST_GAMES


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def app(storage, clock):
    """Over SQLite and over PostgreSQL (conftest's `storage`)."""
    return create_app({**storage, "EXTRA_GAMES": TEST_GAMES, "CLOCK": clock})


@pytest.fixture
def client(app):
    return app.test_client()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def create(client, game="counter", players=("Aki", "Ben"), **options):
    r = client.post("/api/tables", json={"game": game, "players": list(players), "options": options})
    assert r.status_code == 201, r.json
    assert len(r.json["host_token"]) >= 32          # 256 random bits, URL-safe text
    return r.json["code"], bearer(r.json["host_token"])


def claim(client, code, player, headers=None):
    return client.post(f"/api/tables/{code}/seats", json={"player": player}, headers=headers or {})


def post(client, code, what, body, headers):
    return client.post(f"/api/tables/{code}/{what}", json=body, headers=headers)


def seq(client, code):
    return client.get(f"/api/tables/{code}").json["seq"]


# -- seats and tokens ------------------------------------------------------------------------------
def test_writes_need_a_token_of_this_table(client):
    code, host = create(client)
    move = {"expected_seq": 0, "move": {"player": 0, "add": 1}}
    assert post(client, code, "moves", move, {}).status_code == 401
    assert post(client, code, "moves", move, bearer("not-a-token")).status_code == 401
    assert post(client, code, "moves", move, {"Authorization": "Basic abc"}).status_code == 401
    other, other_host = create(client)
    assert post(client, code, "moves", move, other_host).status_code == 401   # another table's
    assert post(client, code, "undo", {"expected_seq": 0}, {}).status_code == 401
    assert post(client, code, "timers", {"expected_seq": 0, "timer": "t", "action": "start",
                                         "seconds": 5}, {}).status_code == 401
    assert seq(client, code) == 0
    assert post(client, code, "moves", move, host).status_code == 200


def test_a_seat_token_acts_only_for_its_seat(client):
    code, host = create(client)
    r = claim(client, code, 0)
    assert r.status_code == 201 and r.json["player"] == 0 and r.json["name"] == "Aki"
    aki = bearer(r.json["token"])
    ben = bearer(claim(client, code, 1).json["token"])
    r = post(client, code, "moves", {"expected_seq": 0, "move": {"player": 0, "add": 1}}, ben)
    assert r.status_code == 403 and "Aki" in r.json["error"] and seq(client, code) == 0
    assert post(client, code, "moves", {"expected_seq": 0, "move": {"player": 0, "add": 1}},
                aki).status_code == 200
    # undo: the mover's token or the host's, never another seat's
    assert post(client, code, "undo", {"expected_seq": 1}, ben).status_code == 403
    assert post(client, code, "undo", {"expected_seq": 1}, aki).status_code == 200
    # the table's timers take any token of the table
    assert post(client, code, "timers", {"expected_seq": 2, "timer": "t", "action": "start",
                                         "seconds": 5}, ben).status_code == 200
    assert client.get(f"/api/tables/{code}", headers=aki).json["you"] == {"host": False, "player": 0}
    assert client.get(f"/api/tables/{code}", headers=host).json["you"] == {"host": True, "player": None}


def test_a_claimed_seat_is_409_unless_the_host_hands_it_over(client):
    code, host = create(client)
    first = bearer(claim(client, code, 1).json["token"])
    r = claim(client, code, 1)
    assert r.status_code == 409 and r.json["error"] and isinstance(r.json["seq"], int)
    assert claim(client, code, 5).status_code == 404
    assert claim(client, code, -1).status_code == 400
    r = claim(client, code, 1, host)                 # the host gives the seat to a new phone
    assert r.status_code == 201
    second = bearer(r.json["token"])
    body = {"expected_seq": 0, "move": {"player": 0, "add": 1}}
    assert post(client, code, "moves", body, host).status_code == 200
    body = {"expected_seq": 1, "move": {"player": 1, "add": 1}}
    assert post(client, code, "moves", body, first).status_code == 401     # the old token is void
    assert post(client, code, "moves", body, second).status_code == 200
    seats = client.get(f"/api/tables/{code}").json["seats"]
    assert [s["claimed"] for s in seats] == [False, True]


def test_a_phone_gives_its_seat_up_for_another(client):
    code, host = create(client)
    aki = bearer(claim(client, code, 0).json["token"])
    ben = bearer(claim(client, code, 1).json["token"])
    assert client.delete(f"/api/tables/{code}/seats/0", headers=ben).status_code == 403
    assert client.delete(f"/api/tables/{code}/seats/0").status_code == 401
    assert client.delete(f"/api/tables/{code}/seats/0", headers=aki).status_code == 200
    assert claim(client, code, 0).status_code == 201                      # free again
    assert client.delete(f"/api/tables/{code}/seats/1", headers=host).status_code == 200


def test_cross_site_writes_and_other_content_types_are_refused(client):
    code, host = create(client)
    body = {"expected_seq": 0, "move": {"player": 0, "add": 1}}
    r = client.post(f"/api/tables/{code}/moves", json=body,
                    headers={**host, "Origin": "http://evil.example"})
    assert r.status_code == 403 and r.is_json
    r = client.post(f"/api/tables/{code}/moves", json=body, headers={**host, "Origin": "null"})
    assert r.status_code == 403
    r = client.post(f"/api/tables/{code}/moves", data='{"expected_seq": 0, "move": {"player": 0, '
                    '"add": 1}}', content_type="text/plain", headers=host)
    assert r.status_code == 415 and r.is_json
    r = client.post("/api/tables", data='{"game": "counter", "players": ["a"]}',
                    content_type="text/plain")
    assert r.status_code == 415
    assert seq(client, code) == 0
    # the companion's own pages send their own Origin: accepted
    r = client.post(f"/api/tables/{code}/moves", json=body,
                    headers={**host, "Origin": "http://localhost"})
    assert r.status_code == 200


# -- legal moves -----------------------------------------------------------------------------------
def test_legal_moves_by_token(client):
    code, host = create(client)
    aki = bearer(claim(client, code, 0).json["token"])
    ben = bearer(claim(client, code, 1).json["token"])
    # the counter hides nothing: anyone may list every seat's moves
    r = client.get(f"/api/tables/{code}/legal")
    assert r.status_code == 200 and [m["add"] for m in r.json["moves"]] == [1, 2, 3]
    r = client.get(f"/api/tables/{code}/legal", headers=host)
    assert r.status_code == 200 and r.json["complete"] is True and r.json["seq"] == 0
    assert [m["add"] for m in r.json["moves"]] == [1, 2, 3]
    assert client.get(f"/api/tables/{code}/legal", headers=ben).json["moves"] == []   # Ben's own
    assert client.get(f"/api/tables/{code}/legal?player=0", headers=aki).json["moves"]
    # each listed move is accepted as it is
    for _ in range(30):
        t = client.get(f"/api/tables/{code}").json
        if t["result"]:
            break
        moves = client.get(f"/api/tables/{code}/legal", headers=host).json["moves"]
        r = post(client, code, "moves", {"expected_seq": t["seq"], "move": moves[-1]}, host)
        assert r.status_code == 200
    assert client.get(f"/api/tables/{code}/legal", headers=host).json["moves"] == []


def test_legal_moves_that_would_show_a_secret_need_a_token(client):
    """Sealed bids: once a bid is made, listing moves without a token (or another seat's) would
    tell what only a seat may see, so it takes a token."""
    code, host, (aki, ben, chie) = bid_table(client)
    assert client.get(f"/api/tables/{code}/legal").status_code == 200         # nothing secret yet
    post(client, code, "moves", {"expected_seq": 0, "move": {"type": "start-round", "prize": 1}}, host)
    post(client, code, "moves", {"expected_seq": 1, "move": {"type": "bid", "player": 0, "amount": 3}}, aki)
    assert client.get(f"/api/tables/{code}/legal").status_code == 401
    assert client.get(f"/api/tables/{code}/legal?player=0", headers=ben).status_code == 403
    mine = client.get(f"/api/tables/{code}/legal", headers=ben).json["moves"]
    assert mine and {m.get("player") for m in mine} <= {1, None}
    assert client.get(f"/api/tables/{code}/legal", headers=host).json["moves"]


# -- results and records ---------------------------------------------------------------------------
def test_the_end_of_a_game_is_a_result_and_a_record(client):
    code, host = create(client, goal=3)
    assert client.get(f"/api/tables/{code}").json["result"] is None
    assert post(client, code, "moves", {"expected_seq": 0, "move": {"player": 0, "add": 1}},
                host).status_code == 200
    assert post(client, code, "moves", {"expected_seq": 1, "move": {"player": 1, "add": 2}},
                host).status_code == 200
    t = client.get(f"/api/tables/{code}").json
    assert t["result"]["winners"] == [1] and t["actors"] == {"mode": "none", "seats": []}
    assert {s["name"]: s["score"] for s in t["result"]["scores"]} == {"Aki": 0, "Ben": 1}
    plays = client.get("/api/plays").json["plays"]
    assert [p["code"] for p in plays] == [code] and plays[0]["winners"] == [1]
    csv = client.get("/api/plays.csv")
    assert csv.mimetype == "text/csv" and "Ben" in csv.get_data(as_text=True)
    assert "Ben" in client.get("/plays").get_data(as_text=True)
    assert "Latest plays" in client.get("/").get_data(as_text=True)
    # undoing the winning move: the game goes on, and its record is gone
    assert post(client, code, "undo", {"expected_seq": 2}, host).status_code == 200
    assert client.get(f"/api/tables/{code}").json["result"] is None
    assert client.get("/api/plays").json["plays"] == []
    assert client.get("/api/plays?game=nope").status_code == 404


# -- a secret simultaneous bid in a timed round ----------------------------------------------------
def bid_table(client, **options):
    code, host = create(client, "sealed-bid", ("Aki", "Ben", "Chie"), chance="table", **options)
    seats = [bearer(claim(client, code, p).json["token"]) for p in range(3)]
    return code, host, seats


def test_everyone_bids_at_once_and_bids_stay_secret(client, clock):
    code, host, (aki, ben, chie) = bid_table(client, round_seconds=30)
    r = post(client, code, "moves", {"expected_seq": 0, "move": {"type": "start-round", "prize": 2}}, ben)
    assert r.status_code == 200                       # a table move: any seat's token
    t = client.get(f"/api/tables/{code}").json
    assert t["actors"] == {"mode": "all", "seats": [0, 1, 2]} and t["turn"] is None
    (round_timer,) = t["timers"]
    assert round_timer["owner"] == "game" and round_timer["status"] == "running"
    assert round_timer["deadline_ms"] == clock.now_ms + 30_000
    # Chie may not bid for Aki; Aki bids in secret
    assert post(client, code, "moves", {"expected_seq": 1, "move": {"type": "bid", "player": 0,
                                                                   "amount": 4}}, chie).status_code == 403
    assert post(client, code, "moves", {"expected_seq": 1, "move": {"type": "bid", "player": 0,
                                                                   "amount": 4}}, aki).status_code == 200
    assert client.get(f"/api/tables/{code}", headers=ben).json["state"]["bids"] == {"0": "sealed"}
    assert client.get(f"/api/tables/{code}", headers=aki).json["state"]["bids"] == {"0": 4}
    assert client.get(f"/api/tables/{code}").json["state"]["bids"] == {"0": "sealed"}
    events = client.get(f"/api/tables/{code}/events?since=0", headers={"Accept": "application/json",
                                                                      **ben}).json["events"]
    assert events[-1]["move"]["amount"] == "sealed"
    # everyone has bid: the round ends at once, before its time
    post(client, code, "moves", {"expected_seq": 2, "move": {"type": "bid", "player": 1, "amount": 3}}, ben)
    post(client, code, "moves", {"expected_seq": 3, "move": {"type": "bid", "player": 2, "amount": 1}}, chie)
    t = client.get(f"/api/tables/{code}").json
    assert t["state"]["phase"] == "prize" and t["timers"] == []
    assert t["state"]["players"][0]["points"] == 2 and t["state"]["players"][0]["coins"] == 6


def test_the_server_ends_a_timed_round_at_its_deadline_once(app, client, clock):
    code, host, seats = bid_table(client, round_seconds=10, rounds=1)
    post(client, code, "moves", {"expected_seq": 0, "move": {"type": "start-round", "prize": 3}}, host)
    post(client, code, "moves", {"expected_seq": 1, "move": {"type": "bid", "player": 1, "amount": 2}},
         seats[1])
    clock.advance(9_999)
    app.extensions["tokyo"].expiry.run_due()
    assert seq(client, code) == 2                     # not yet
    clock.advance(1)                                   # no phone asks anything: the thread delivers
    for _ in range(200):
        if seq(client, code) == 3:
            break
        time.sleep(0.01)
    events = client.get(f"/api/tables/{code}/events?since=2",
                        headers={"Accept": "application/json"}).json["events"]
    assert [(e["kind"], e["timer"], e["owner"]) for e in events] == [("expire", "round", "game")]
    t = client.get(f"/api/tables/{code}").json
    assert t["result"]["winners"] == [1]               # the only bid won; missing bids were 0
    clock.advance(60_000)
    app.extensions["tokyo"].expiry.run_due()
    assert seq(client, code) == 3                      # appended once
    # a move sent after the deadline is too late: the round has ended
    assert client.get(f"/api/tables/{code}/legal", headers=host).json["moves"] == []


def test_a_move_arriving_after_the_deadline_finds_the_round_ended(app, client, clock):
    app.extensions["tokyo"].expiry.stop()              # as if the scheduler had not woken yet
    code, host, seats = bid_table(client, round_seconds=5)
    post(client, code, "moves", {"expected_seq": 0, "move": {"type": "start-round", "prize": 1}}, host)
    clock.advance(5_000)
    r = post(client, code, "moves", {"expected_seq": 1, "move": {"type": "bid", "player": 0,
                                                                "amount": 1}}, seats[0])
    assert r.status_code == 409 and r.json["seq"] == 2   # the expiry came first
    assert client.get(f"/api/tables/{code}").json["state"]["phase"] == "prize"


def test_expiry_is_delivered_after_a_restart(storage, clock):
    app = create_app({**storage, "EXTRA_GAMES": TEST_GAMES, "CLOCK": clock})
    app.extensions["tokyo"].expiry.stop()
    client = app.test_client()
    code, host, seats = bid_table(client, round_seconds=5)
    post(client, code, "moves", {"expected_seq": 0, "move": {"type": "start-round", "prize": 1}}, host)
    clock.advance(60_000)                               # the server was down at the deadline
    again = create_app({**storage, "EXTRA_GAMES": TEST_GAMES, "CLOCK": clock})
    for _ in range(300):            # no request needed: the new server's scheduler delivers it
        if again.extensions["tokyo"].tables.due() == {}:
            break
        time.sleep(0.01)
    t = again.test_client().get(f"/api/tables/{code}").json
    assert t["seq"] == 2 and t["state"]["phase"] == "prize"
    (event,) = again.test_client().get(f"/api/tables/{code}/events?since=1",
                                       headers={"Accept": "application/json"}).json["events"]
    assert event["kind"] == "expire" and event["deadline_ms"] == clock.now_ms - 55_000


def test_the_table_may_close_a_timed_round_early(client):
    code, host, seats = bid_table(client)
    post(client, code, "moves", {"expected_seq": 0, "move": {"type": "start-round", "prize": 1}}, host)
    r = post(client, code, "moves", {"expected_seq": 1, "move": {"type": "close-bids"}}, seats[2])
    assert r.status_code == 200 and r.json["state"]["phase"] == "prize"
    assert client.get(f"/api/tables/{code}").json["timers"] == []


def test_the_game_keeps_its_own_timers(client):
    code, host, seats = bid_table(client)
    post(client, code, "moves", {"expected_seq": 0, "move": {"type": "start-round", "prize": 1}}, host)
    r = post(client, code, "timers", {"expected_seq": 1, "timer": "round", "action": "pause"}, host)
    assert r.status_code == 422 and "own" in r.json["reasons"][0]


def test_timers_clamp_whatever_the_clock_does(client, clock):
    code, host = create(client)
    post(client, code, "timers", {"expected_seq": 0, "timer": "t", "action": "start", "seconds": 60}, host)
    clock.advance(-3_600_000)                           # a clock stepped back an hour
    (t,) = client.get(f"/api/tables/{code}").json["timers"]
    assert t["remaining_ms"] == 60_000 and t["status"] == "running"
    r = post(client, code, "timers", {"expected_seq": 1, "timer": "t", "action": "pause"}, host)
    assert r.json["timers"][0]["remaining_ms"] == 60_000   # never an hour for a 60 s timer


def test_origin_is_checked_against_the_base_url_never_the_host_header(tmp_path):
    """A DNS-rebinding page (its own name pointed at this computer) sends Host and Origin alike:
    refused. The base URL's origin, the LAN address beside it and loopback are the companion's own."""
    from companion import create_app
    from companion.testing import token_client
    from testgames import COUNTER
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER},
                      "BASE_URL": "http://tokyo-kit.local:5106",
                      "ALLOWED_ORIGINS": ["http://192.168.1.20:5106"]})
    client = token_client(app)
    new = {"game": "counter", "players": ["Aki", "Ben"]}
    rebinding = client.post("/api/tables", json=new, headers={"Host": "evil.example:5106",
                                                              "Origin": "http://evil.example:5106"})
    assert rebinding.status_code == 403
    for origin in ("http://tokyo-kit.local:5106", "http://192.168.1.20:5106", "http://127.0.0.1:5106",
                   "http://localhost:8000"):
        assert client.post("/api/tables", json=new, headers={"Origin": origin}).status_code == 201, origin
    for origin in ("http://tokyo-kit.local:5107", "https://tokyo-kit.local:5106", "null",
                   "http://192.168.1.21:5106"):
        assert client.post("/api/tables", json=new, headers={"Origin": origin}).status_code == 403, origin


def test_redirects_never_name_the_host_header(tmp_path):
    from companion import create_app
    client = create_app({"DATA_DIR": tmp_path}).test_client()
    r = client.get("//api//games", headers={"Host": "evil.example:5106"})
    assert "evil.example" not in r.headers.get("Location", "")
    assert r.status_code in (200, 308, 404)


@pytest.mark.parametrize("names, words", [
    (["ab", "a\u200cb"], "invisible"),                      # a zero-width non-joiner
    (["Aki", "\u0410ki"], "looks like"),                     # a Cyrillic А
    (["Ben", "B\u0435n"], "looks like"),                     # a Cyrillic е
    (["Chie", "Chi\u00e9"], "looks like"),                   # the same with an accent
    (["Dai", "D\u0430\u200di"], "zero-width joiner"),        # a joiner between letters
])
def test_look_alike_and_invisible_names_are_refused(client, names, words):
    r = client.post("/api/tables", json={"game": "counter", "players": names})
    assert r.status_code in (400, 422), r.json
    assert words in r.json["error"] + " ".join(r.json.get("reasons", [])), r.json


def test_names_are_normalised_before_they_are_counted(client):
    full = "\uff21\uff4b\uff49"                             # "Ａｋｉ", full-width
    r = client.post("/api/tables", json={"game": "counter", "players": [full, "Ben"]})
    assert r.status_code == 201 and r.json["players"] == ["Aki", "Ben"]
    # 24 characters once normalised: "ﬃ" (one ligature) is "ffi" (three)
    r = client.post("/api/tables", json={"game": "counter", "players": ["\ufb03" * 9, "Ben"]})
    assert r.status_code == 400
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467"   # an emoji family keeps its joiners
    assert client.post("/api/tables", json={"game": "counter",
                                            "players": [family, "Ben"]}).status_code == 201


def test_the_plays_csv_never_starts_a_formula(client):
    """A player named =HYPERLINK(…) or @SUM(…) is text in a spreadsheet, not a formula."""
    import csv
    import io
    r = client.post("/api/tables", json={"game": "counter", "players": ['=HYPERLINK("http://e.x")',
                                                                        "@SUM(1+1)"], "options": {"goal": 1}})
    code, host = r.json["code"], {"Authorization": f"Bearer {r.json['host_token']}"}
    assert post(client, code, "moves", {"expected_seq": 0, "move": {"player": 0, "add": 1}},
                host).status_code == 200
    rows = list(csv.reader(io.StringIO(client.get("/api/plays.csv").get_data(as_text=True))))
    cells = [c for row in rows[1:] for c in row]
    assert cells and not any(c.startswith(("=", "+", "-", "@")) for c in cells), cells
    assert "'=HYPERLINK(\"http://e.x\"); @SUM(1+1)" in cells
