"""The companion's JSON API against API.md: tables, moves, undo, idempotency, errors, calculators."""
from __future__ import annotations

import json

import pytest

from companion import create_app
from companion.testing import COUNTER, FakeClock

ALIEN = "<img src=x onerror=1>&\""


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def app(tmp_path, clock):
    return create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}, "CLOCK": clock,
                       "SSE_MAX_S": 0.2, "SNAPSHOT_EVERY": 5})


@pytest.fixture
def client(app):
    return app.test_client()


def new_table(client, players=("Aki", "Ben"), **extra):
    r = client.post("/api/tables", json={"game": "counter", "players": list(players), **extra})
    assert r.status_code == 201, r.json
    return r.json["code"]


def move(client, code, seq, player, add, key=None):
    headers = {"Idempotency-Key": key} if key else {}
    return client.post(f"/api/tables/{code}/moves", headers=headers,
                       json={"expected_seq": seq, "move": {"player": player, "add": add}})


def events(client, code, since=0):
    r = client.get(f"/api/tables/{code}/events?since={since}", headers={"Accept": "application/json"})
    assert r.status_code == 200
    return r.json["events"]


def test_create_and_read_a_table(client):
    r = client.post("/api/tables", json={"game": "counter", "players": ["Aki", "Ben"],
                                         "options": {"goal": 10}})
    assert r.status_code == 201
    body = r.json
    assert body["seq"] == 0 and body["game"] == "counter" and body["players"] == ["Aki", "Ben"]
    assert body["url"].endswith(f"/t/{body['code']}") and body["url"].startswith("http")
    assert len(body["code"]) == 8       # 8 symbols of a 32-letter alphabet: 40 bits
    t = client.get(f"/api/tables/{body['code']}").json
    assert t["seq"] == 0 and t["state"]["goal"] == 10 and t["timers"] == [] and t["turn"] == 0
    # typed codes are forgiving: lower case and a dash find the same table
    code = body["code"]
    assert client.get(f"/api/tables/{code[:4].lower()}-{code[4:]}").json["code"] == code


def test_join_codes_are_random_and_distinct(client):
    codes = {new_table(client) for _ in range(30)}
    assert len(codes) == 30


def test_moves_advance_seq_and_state(client):
    code = new_table(client)
    r = move(client, code, 0, 0, 2)
    assert r.status_code == 200 and r.json["seq"] == 1 and r.json["state"]["count"] == 2
    r = move(client, code, 1, 1, 3)
    assert r.json == {"seq": 2, "state": client.get(f"/api/tables/{code}").json["state"]}
    assert [e["seq"] for e in events(client, code)] == [1, 2]
    assert events(client, code)[1]["summary"] == "player 1 adds 3"


def test_stale_expected_seq_is_409_with_current_seq_and_changes_nothing(client):
    code = new_table(client)
    move(client, code, 0, 0, 1)
    r = move(client, code, 0, 1, 1)
    assert r.status_code == 409 and r.json["seq"] == 1 and r.json["error"]
    assert r.json["state"]["count"] == 1
    assert client.get(f"/api/tables/{code}").json["seq"] == 1


def test_illegal_move_is_422_with_reasons_and_changes_nothing(client):
    code = new_table(client)
    r = move(client, code, 0, 1, 7)
    assert r.status_code == 422
    assert r.json["reasons"] == ["it is player 0's turn", "add must be 1, 2 or 3"]
    assert client.get(f"/api/tables/{code}").json["seq"] == 0
    assert events(client, code) == []


def test_idempotent_retry_appends_one_event(client):
    code = new_table(client)
    first = move(client, code, 0, 0, 2, key="k-1")
    for _ in range(3):
        again = move(client, code, 0, 0, 2, key="k-1")
        assert again.status_code == 200 and again.json == first.json
    assert len(events(client, code)) == 1
    # the replay is answered before expected_seq is checked, even after the table moved on
    move(client, code, 1, 1, 1, key="k-2")
    late = move(client, code, 0, 0, 2, key="k-1")
    assert late.status_code == 200 and late.json == first.json
    assert len(events(client, code)) == 2


def test_same_key_other_body_is_422_whatever_expected_seq(client):
    code = new_table(client)
    move(client, code, 0, 0, 2, key="k")
    for seq in (0, 1, 5):
        r = move(client, code, seq, 1, 1, key="k")
        assert r.status_code == 422 and r.json["reasons"]
    # the same key on another endpoint is another body too
    r = client.post(f"/api/tables/{code}/undo", headers={"Idempotency-Key": "k"}, json={"expected_seq": 1})
    assert r.status_code == 422
    assert len(events(client, code)) == 1


def test_a_rejected_request_may_be_retried_with_its_key(client):
    code = new_table(client)
    move(client, code, 0, 0, 1)
    r = move(client, code, 0, 1, 1, key="retry")          # stale: 409, not stored
    assert r.status_code == 409
    r = move(client, code, 1, 1, 1, key="retry")          # hmm: another body (expected_seq differs)
    assert r.status_code == 200 and r.json["seq"] == 2


def test_idempotent_table_creation_makes_one_table(client):
    body = {"game": "counter", "players": ["Aki", "Ben"]}
    a = client.post("/api/tables", json=body, headers={"Idempotency-Key": "create-1"})
    b = client.post("/api/tables", json=body, headers={"Idempotency-Key": "create-1"})
    assert a.status_code == b.status_code == 201 and a.json == b.json
    c = client.post("/api/tables", json={**body, "players": ["X", "Y"]},
                    headers={"Idempotency-Key": "create-1"})
    assert c.status_code == 422


def test_undo_is_an_event_and_restores_the_state_before(client):
    code = new_table(client)
    before = client.get(f"/api/tables/{code}").json["state"]
    move(client, code, 0, 0, 3)
    after_one = client.get(f"/api/tables/{code}").json["state"]
    move(client, code, 1, 1, 2)
    r = client.post(f"/api/tables/{code}/undo", json={"expected_seq": 2})
    assert r.status_code == 200 and r.json == {"seq": 3, "state": after_one}
    r = client.post(f"/api/tables/{code}/undo", json={"expected_seq": 3})
    assert r.json == {"seq": 4, "state": before}
    r = client.post(f"/api/tables/{code}/undo", json={"expected_seq": 4})
    assert r.status_code == 422 and r.json["reasons"]
    log = events(client, code)
    assert [e["kind"] for e in log] == ["move", "move", "undo", "undo"]
    assert [e.get("undoes") for e in log[2:]] == [2, 1]
    assert log[2]["summary"].startswith("Undo #2")


def test_undo_skips_timer_events_and_keeps_timers(client):
    code = new_table(client)
    move(client, code, 0, 0, 1)
    client.post(f"/api/tables/{code}/timers", json={"expected_seq": 1, "timer": "turn",
                                                    "action": "start", "seconds": 30})
    r = client.post(f"/api/tables/{code}/undo", json={"expected_seq": 2})
    assert r.status_code == 200 and r.json["state"]["count"] == 0
    t = client.get(f"/api/tables/{code}").json
    assert t["timers"][0]["status"] == "running"


def test_state_from_replay_equals_cached_state(app, client, tmp_path):
    """Snapshots and the memory cache are shortcuts: a fresh app replaying the log agrees."""
    code = new_table(client, ("A", "B", "C"), options={"goal": 1000})
    seq, current = 0, 0
    for i in range(23):
        r = move(client, code, seq, current, 1 + i % 3)
        seq, current = r.json["seq"], r.json["state"]["current"]
        if i % 7 == 6:
            r = client.post(f"/api/tables/{code}/undo", json={"expected_seq": seq})
            seq, current = r.json["seq"], r.json["state"]["current"]
    cached = client.get(f"/api/tables/{code}").json
    fresh = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}}).test_client()
    assert fresh.get(f"/api/tables/{code}").json["state"] == cached["state"]
    # and without the snapshots, from the events alone
    store = app.extensions["tokyo"].store
    store._conn().execute("DELETE FROM snapshots")
    fresh = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}}).test_client()
    assert fresh.get(f"/api/tables/{code}").json["state"] == cached["state"]


def test_events_cannot_be_updated_or_deleted(app, client):
    import sqlite3
    code = new_table(client)
    move(client, code, 0, 0, 1)
    conn = app.extensions["tokyo"].store._conn()
    with pytest.raises(sqlite3.DatabaseError):
        conn.execute("UPDATE events SET body = '{}' WHERE code = ?", (code,))
    with pytest.raises(sqlite3.DatabaseError):
        conn.execute("DELETE FROM events WHERE code = ?", (code,))


def test_sqlite_settings(app):
    conn = app.extensions["tokyo"].store._conn()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2       # FULL
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] > 0


@pytest.mark.parametrize("body, status", [
    (b"not json", 400),
    (b"[1, 2]", 400),
    (b'{"expected_seq": "0", "move": {}}', 400),
    (b'{"expected_seq": true, "move": {}}', 400),
    (b'{"expected_seq": -1, "move": {}}', 400),
    (b'{"move": {}}', 400),
    (b'{"expected_seq": 0}', 400),
    (b'{"expected_seq": 0, "move": [1]}', 400),
    (b'{"expected_seq": 0, "move": {"add": NaN}}', 400),
    (b'[' * 100000, 413),
    (b'[' * 50000, 400),
    (b'{"expected_seq": 0, "move": {"player": 0, "add": 99999999999999999999999}}', 422),
    (b'{"expected_seq": 0, "move": {"player": {"x": 1}, "add": [1]}}', 422),
])
def test_malformed_moves_are_4xx_json_and_change_nothing(client, body, status):
    code = new_table(client)
    r = client.post(f"/api/tables/{code}/moves", data=body, content_type="application/json")
    assert r.status_code == status, r.json
    assert r.is_json and r.json["error"]
    assert client.get(f"/api/tables/{code}").json["seq"] == 0


@pytest.mark.parametrize("body, status", [
    ({}, 400),
    ({"game": 3, "players": ["a"]}, 400),
    ({"game": "counter", "players": "Aki"}, 400),
    ({"game": "counter", "players": [""]}, 400),
    ({"game": "counter", "players": ["x" * 25]}, 400),
    ({"game": "counter", "players": ["a\x07b"]}, 400),
    ({"game": "counter", "players": ["a"], "options": []}, 400),
    ({"game": "counter", "players": ["a"], "seed": "x"}, 400),
    ({"game": "nope", "players": ["a"]}, 404),
    ({"game": "counter", "players": []}, 422),
    ({"game": "counter", "players": ["a", "b", "c", "d", "e"]}, 422),
    ({"game": "counter", "players": ["Aki", "aki"]}, 422),
    ({"game": "counter", "players": ["a"], "options": {"goal": "x"}}, 422),
])
def test_bad_table_creation(client, body, status):
    r = client.post("/api/tables", json=body)
    assert r.status_code == status and r.json["error"]
    if status == 422:
        assert r.json["reasons"]


def test_errors_are_json_under_api_and_html_elsewhere(client):
    r = client.get("/api/tables/ZZZZZZZZ")
    assert r.status_code == 404 and r.is_json and "ZZZZ-ZZZZ" in r.json["error"]
    r = client.get("/api/tables/!!")
    assert r.status_code == 404 and r.is_json
    r = client.get("/api/nowhere")
    assert r.status_code == 404 and r.is_json
    r = client.delete("/api/time")
    assert r.status_code == 405 and r.is_json and r.json["error"]
    r = client.post("/api/tables", data=b"x" * (64 * 1024 + 1))
    assert r.status_code == 413 and r.is_json and r.json["error"]
    r = client.get("/nowhere")
    assert r.status_code == 404 and r.mimetype == "text/html"
    r = client.post("/")
    assert r.status_code == 405 and r.mimetype == "text/html"


def test_an_unexpected_error_is_answered_not_crashed(app, client, monkeypatch):
    code = new_table(client)
    monkeypatch.setattr(app.extensions["tokyo"].tables, "get", lambda *a: 1 / 0)
    r = client.get(f"/api/tables/{code}")
    assert r.status_code == 500 and r.is_json and r.json["error"]


def test_engine_exceptions_are_422_not_500(app, client):
    class Fragile:
        def setup(self, data, players, options, seed): return {"n": 0}
        def validate_options(self, *a): return []
        def validate(self, data, state, move): return [] if move["ok"] else ["no"]
        def apply(self, data, state, move): return {"n": state["n"] + move["n"]}
        def score(self, data, state): return {}
    from companion.catalog import Game
    app.extensions["tokyo"].games["fragile"] = Game("fragile", "Fragile", (1, 2), Fragile())
    code = client.post("/api/tables", json={"game": "fragile", "players": ["a"]}).json["code"]
    r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": 0, "move": {}})
    assert r.status_code == 422 and "KeyError" in r.json["reasons"][0]
    r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": 0, "move": {"ok": 1, "n": "x"}})
    assert r.status_code == 422
    assert client.get(f"/api/tables/{code}").json["seq"] == 0


def test_time(client, clock):
    assert client.get("/api/time").json == {"now_ms": clock.now_ms}


def test_player_names_are_escaped_in_every_page(client):
    code = new_table(client, (ALIEN, "Ben"))
    for path in (f"/t/{code}", "/", f"/q/counter/x/y"):
        html = client.get(path).data.decode()
        assert "<img src=x" not in html
    html = client.get(f"/t/{code}").data.decode()
    assert "&lt;img src=x onerror=1&gt;&amp;" in html
    # the JSON handed to the page script cannot close its <script> element either
    assert "\\u003cimg src=x onerror=1\\u003e" in html


# ---- Shinjuku in the companion --------------------------------------------------------------
shinjuku = pytest.importorskip("companion.games.shinjuku")


def test_shinjuku_score_calculator(client):
    r = client.post("/api/shinjuku/score", json={"customers": {"food": 2, "clothing": 1, "books": 1,
                                                               "electronics": 1}, "wild": 0})
    assert r.status_code == 200
    assert r.json["points"] == 11
    assert sorted(map(sorted, r.json["sets"])) == [["books", "clothing", "electronics", "food"], ["food"]]
    r = client.post("/api/shinjuku/score", json={"customers": {"food": 1}, "wild": 3})
    assert r.json["points"] == 10 and r.json["sets"][0].count("wild") == 3
    r = client.post("/api/shinjuku/score", json={"customers": {}, "wild": 2})
    assert r.json["points"] == 3 and r.json["sets"] == [["wild", "wild"]]


@pytest.mark.parametrize("body, status", [
    ({"customers": {"food": -1}}, 400),
    ({"customers": {"sushi": 1}}, 400),
    ({"customers": {"food": "3"}}, 400),
    ({"customers": []}, 400),
    ({}, 400),
    ({"customers": {"food": 1}, "wild": True}, 400),
    ({"customers": {"electronics": 99}}, 422),
    ({"customers": {"food": 1}, "wild": 7}, 422),
])
def test_shinjuku_score_bad_input(client, body, status):
    r = client.post("/api/shinjuku/score", json=body)
    assert r.status_code == status and r.json["error"]


def test_shinjuku_table_uses_the_engine_and_hides_hands(client):
    r = client.post("/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben"],
                                         "options": {"deck": "companion"}, "seed": 5})
    assert r.status_code == 201
    code = r.json["code"]
    t = client.get(f"/api/tables/{code}").json
    assert t["state"]["deck"] is None and all(p["hand"] is None for p in t["state"]["players"])
    mine = client.get(f"/api/tables/{code}?player=0").json["state"]["players"]
    assert mine[0]["hand"] and mine[1]["hand"] is None
    assert t["needs"]["moves"] == ["place-customers"] and t["turn"] == 0
    r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": 0,
                                                       "move": {"type": "move-matsuri", "player": 0,
                                                                "ward": "chiyoda"}})
    assert r.status_code == 422 and r.json["reasons"]
    r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": 0,
                                                       "move": {"type": "place-customers", "player": 0}})
    assert r.status_code == 200 and r.json["seq"] == 1
    assert r.json["state"]["players"][0]["hand"] is not None          # the mover sees their hand
    assert r.json["state"]["players"][1]["hand"] is None


def test_events_hide_cards_drawn_into_another_hand(client):
    """Table mode: the cards a player enters for their dealt hand are theirs to see, in the log too."""
    code = client.post("/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben"]}).json["code"]
    hand = ["chiyoda", "minato", "ota", "nerima"]
    r = client.post(f"/api/tables/{code}/moves",
                    json={"expected_seq": 0, "move": {"type": "deal-hand", "player": 0, "cards": hand}})
    assert r.status_code == 200, r.json
    polled = {viewer: client.get(f"/api/tables/{code}/events?since=0{query}",
                                 headers={"Accept": "application/json"}).json["events"][0]["move"]
              for viewer, query in ((None, ""), (0, "&player=0"), (1, "&player=1"))}
    assert polled[0]["cards"] == hand
    assert polled[None]["cards"] == 4 and polled[1]["cards"] == 4
    stream = client.get(f"/api/tables/{code}/events?player=1", headers={"Last-Event-ID": "0"})
    messages = [block.splitlines() for block in stream.get_data(as_text=True).split("\n\n")]
    (move_event,) = [json.loads(lines[-1].removeprefix("data: ")) for lines in messages
                     if lines and lines[0] == "id: 1"]
    assert move_event["move"]["cards"] == 4


def test_shinjuku_pages(client):
    code = client.post("/api/tables", json={"game": "shinjuku", "players": ["Aki", ALIEN]}).json["code"]
    for path in (f"/t/{code}", f"/t/{code}/board", "/shinjuku/score", "/new/shinjuku"):
        r = client.get(path)
        assert r.status_code == 200, path
        assert "<img src=x" not in r.data.decode()


def test_every_printed_qr_code_opens_a_page(client):
    """The generator's QR payloads (<base>/q/<game>/<kind>/<id>) each open a 200 page."""
    build = pytest.importorskip("generator.build")
    from generator.kits.base import KitContext
    base = "http://kit.test"
    payloads = [q["payload"] for game in build.games_with_kits()
                for q in build.qr_codes(game, build.make_kit(game, KitContext(base)))]
    if not payloads:
        pytest.skip("no kit prints QR codes yet")
    for payload in payloads:
        assert payload.startswith(base + "/q/")
        r = client.get(payload[len(base):])
        assert r.status_code == 200, payload


def test_scan_pages(client):
    r = client.get("/q/shinjuku/ward/minato")
    assert r.status_code == 200 and "Minato" in r.data.decode() and "港区" in r.data.decode()
    r = client.get("/q/shinjuku/customer/books-2")
    assert r.status_code == 200 and "/shinjuku/score" in r.data.decode()
    for path, named in (("/q/shinjuku/ward/atlantis", "atlantis"),
                        ("/q/shinjuku/spaceship/x1", "spaceship"), ("/q/monopoly/card/boardwalk", "monopoly")):
        r = client.get(path)
        assert r.status_code == 404 and r.mimetype == "text/html" and named in r.data.decode()


def test_scan_page_shows_the_joined_table(client):
    code = client.post("/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben"],
                                            "options": {"deck": "companion"}, "seed": 2}).json["code"]
    client.set_cookie("tk_table", code)
    client.set_cookie("tk_table_player", "0")
    html = client.get("/q/shinjuku/ward/shinjuku").data.decode()
    assert "Now at your table" in html and "For you (Aki)" in html and f"/t/{code}" in html


def test_home_lists_games_and_the_printed_kits(tmp_path):
    out = tmp_path / "output"
    (out / "a4" / "shinjuku").mkdir(parents=True)
    (out / "a4" / "shinjuku" / "cards.pdf").write_bytes(b"%PDF-1.4 test")
    (out / "a4" / "shinjuku" / "cards-1.svg").write_text("<svg/>")
    (out / "manifest.json").write_text(json.dumps({"files": [
        {"path": "a4/shinjuku/cards.pdf", "game": "shinjuku", "paper": "a4", "format": "pdf", "pages": 3},
        {"path": "a4/shinjuku/cards-1.svg", "game": "shinjuku", "paper": "a4", "format": "svg", "pages": 1},
        {"path": "a4/shinjuku/missing.pdf", "game": "shinjuku", "paper": "a4", "format": "pdf", "pages": 1},
    ]}))
    client = create_app({"DATA_DIR": tmp_path / "data", "OUTPUT_DIR": out}).test_client()
    html = client.get("/").data.decode()
    assert "Shinjuku" in html
    assert "/kits/a4/shinjuku/cards.pdf" in html and "missing.pdf" not in html
    r = client.get("/kits/a4/shinjuku/cards.pdf")
    assert r.status_code == 200 and r.data == b"%PDF-1.4 test"
    assert client.get("/kits/../pyproject.toml").status_code == 404
    assert client.get("/kits/a4/nothing.pdf").status_code == 404
    # without a build: a hint instead of a list
    empty = create_app({"DATA_DIR": tmp_path / "data2", "OUTPUT_DIR": tmp_path / "none"}).test_client()
    assert "No kits have been built yet" in empty.get("/").data.decode()
