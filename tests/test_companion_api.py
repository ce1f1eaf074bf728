"""The companion's JSON API against API.md: tables, moves, undo, idempotency, errors, calculators."""
from __future__ import annotations

import json

import pytest

from companion import create_app
from companion.testing import token_client
from pg_cluster import run_sql
from testgames import COUNTER

ALIEN = "<img src=x onerror=1>&\""


# `app` (over SQLite and over PostgreSQL: the same API either way), `client` and `clock` are conftest's.


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


def test_state_from_replay_equals_cached_state(app, client, storage):
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
    fresh = create_app({**storage, "EXTRA_GAMES": {"counter": COUNTER}}).test_client()
    assert fresh.get(f"/api/tables/{code}").json["state"] == cached["state"]
    # and without the snapshots, from the events alone
    assert run_sql(storage, "SELECT count(*) FROM snapshots")[0][0] > 0
    run_sql(storage, "DELETE FROM snapshots")
    fresh = create_app({**storage, "EXTRA_GAMES": {"counter": COUNTER}}).test_client()
    assert fresh.get(f"/api/tables/{code}").json["state"] == cached["state"]


def test_events_cannot_be_updated_or_deleted(client, storage):
    code = new_table(client)
    move(client, code, 0, 0, 1)
    for sql in ("UPDATE events SET body = '{}' WHERE code = ?", "DELETE FROM events WHERE code = ?"):
        with pytest.raises(Exception, match="append-only"):
            run_sql(storage, sql, (code,))
    # and the database itself numbers them: event 1 cannot be appended twice
    with pytest.raises(Exception, match="(?i)unique|duplicate"):
        run_sql(storage, "INSERT INTO events (code, seq, kind, body, at_ms) VALUES (?, 1, 'move', '{}', 0)",
                (code,))
    assert [e["seq"] for e in events(client, code)] == [1]


def test_sqlite_settings(tmp_path):
    app = create_app({"DATA_DIR": tmp_path})
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
    r = client.post("/api/tables", data=b"x" * (64 * 1024 + 1), content_type="application/json")
    assert r.status_code == 413 and r.is_json and r.json["error"]
    r = client.post("/api/tables", data=b'{"game": "counter", "players": ["a"]}',
                    content_type="text/plain")
    assert r.status_code == 415 and r.is_json and r.json["error"]
    r = client.get("/nowhere")
    assert r.status_code == 404 and r.mimetype == "text/html"
    r = client.post("/")
    assert r.status_code == 405 and r.mimetype == "text/html"


def test_an_unexpected_error_is_answered_not_crashed(app, client, monkeypatch):
    code = new_table(client)
    monkeypatch.setattr(app.extensions["tokyo"].tables, "get_text", lambda *a: 1 / 0)
    r = client.get(f"/api/tables/{code}")
    assert r.status_code == 500 and r.is_json and r.json["error"]


def test_engine_exceptions_are_422_not_500(app, client):
    from companion.games.contract import Rules

    class Fragile(Rules):
        def setup(self, players, options, seed): return {"n": 0}
        def validate_options(self, *a): return []
        def validate(self, state, move, ctx=None): return [] if move["ok"] else ["no"]
        def apply(self, state, move, ctx=None): return {"n": state["n"] + move["n"]}
        def result(self, state): return None
        def actors(self, state): raise RuntimeError("a hint that fails is left out")
    from companion.catalog import Game
    app.extensions["tokyo"].games["fragile"] = Game("fragile", "Fragile", (1, 2), Fragile(None))
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
    for path in (f"/t/{code}", "/", "/q/counter/x/y"):
        html = client.get(path).data.decode()
        assert "<img src=x" not in html
    html = client.get(f"/t/{code}").data.decode()
    assert "&lt;img src=x onerror=1&gt;&amp;" in html
    # the JSON handed to the page script cannot close its <script> element either
    assert "\\u003cimg src=x onerror=1\\u003e" in html


# ---- Shinjuku in the companion --------------------------------------------------------------
shinjuku = pytest.importorskip("companion.games.shinjuku")


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


def test_a_replayed_move_answers_the_same_bytes_after_a_restart_and_keeps_few_bytes(storage, clock):
    """A move's answer (the state as its sender sees it) is rebuilt from the log on a retry: the
    same bytes as the first answer, a seat's secrets included, with a cold cache and snapshots in
    between, while the key itself keeps only a few bytes."""
    from testgames import SEALED_BID
    config = {**storage, "EXTRA_GAMES": {"sealed-bid": SEALED_BID}, "CLOCK": clock,
              "SNAPSHOT_EVERY": 2}
    host = token_client(create_app(config))
    code = host.post("/api/tables", json={"game": "sealed-bid", "players": ["Aki", "Ben", "Chie"],
                                          "options": {"chance": "table"}}).json["code"]
    seat = host.post(f"/api/tables/{code}/seats", json={"player": 1}, auth=False).json["token"]
    ben = {"Authorization": f"Bearer {seat}"}
    host.post(f"/api/tables/{code}/moves", json={"expected_seq": 0,
                                                 "move": {"type": "start-round", "prize": 2}})
    bid = {"expected_seq": 1, "move": {"type": "bid", "player": 1, "amount": 3}}
    first = host.post(f"/api/tables/{code}/moves", json=bid, headers={**ben, "Idempotency-Key": "b"},
                      auth=False)
    assert first.status_code == 200 and first.json["state"]["bids"] == {"1": 3}
    host.post(f"/api/tables/{code}/moves", json={"expected_seq": 2, "move": {"type": "bid", "player": 0,
                                                                             "amount": 1}})
    again = token_client(create_app(config)).post(f"/api/tables/{code}/moves", json=bid, auth=False,
                                                  headers={**ben, "Idempotency-Key": "b"})
    assert again.status_code == 200 and again.data == first.data
    other = token_client(create_app(config)).post(f"/api/tables/{code}/moves", auth=False,
                                                  json={**bid, "expected_seq": 3},
                                                  headers={**ben, "Idempotency-Key": "b"})
    assert other.status_code == 422        # the same key with another body, as before
    ((size,),) = run_sql(storage, "SELECT length(response) FROM idempotency WHERE key LIKE ?", ("%:b",))
    assert size < 40 < len(first.data)
