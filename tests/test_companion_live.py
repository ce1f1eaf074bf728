"""Live updates (SSE with Last-Event-ID, polling with ?since=) and server-held timers."""
from __future__ import annotations

import json

import pytest

from companion import create_app
from companion.tables import timers
from companion.testing import FakeClock, token_client
from testgames import COUNTER


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def client(tmp_path, clock):
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}, "CLOCK": clock,
                      "SSE_MAX_S": 0.2, "SSE_HEARTBEAT_S": 0.05, "SSE_RETRY_MS": 500})
    return token_client(app)


def table_with_moves(client, n):
    code = client.post("/api/tables", json={"game": "counter", "players": ["A", "B"],
                                            "options": {"goal": 1000}}).json["code"]
    for seq in range(n):
        r = client.post(f"/api/tables/{code}/moves",
                        json={"expected_seq": seq, "move": {"player": seq % 2, "add": 1}})
        assert r.status_code == 200
    return code


def parse_sse(text: str) -> list[dict]:
    messages = []
    for block in text.split("\n\n"):
        msg = {}
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            field, _, value = line.partition(": ")
            msg[field] = value
        if "data" in msg:
            msg["data"] = json.loads(msg["data"])
            messages.append(msg)
        elif msg:
            messages.append(msg)
    return messages


def sse(client, url, **headers):
    r = client.get(url, headers=headers)
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    return parse_sse(r.get_data(as_text=True))


def test_sse_replays_from_last_event_id_in_order_without_duplicates(client):
    code = table_with_moves(client, 6)
    msgs = sse(client, f"/api/tables/{code}/events", **{"Last-Event-ID": "3"})
    assert msgs[0] == {"retry": "500"}
    numbered = [m for m in msgs if "id" in m]
    assert [int(m["id"]) for m in numbered] == [4, 5, 6]
    assert [m["data"]["seq"] for m in numbered] == [4, 5, 6]
    assert all(m["data"]["kind"] == "move" for m in numbered)
    # after the replay the whole table, unnumbered (so Last-Event-ID stays at 6)
    tables = [m for m in msgs if m.get("event") == "table"]
    assert tables and tables[0]["data"]["seq"] == 6 and "id" not in tables[0]


def test_last_event_id_wins_over_since(client):
    code = table_with_moves(client, 4)
    msgs = sse(client, f"/api/tables/{code}/events?since=1", **{"Last-Event-ID": "3"})
    assert [int(m["id"]) for m in msgs if "id" in m] == [4]
    msgs = sse(client, f"/api/tables/{code}/events?since=1")
    assert [int(m["id"]) for m in msgs if "id" in m] == [2, 3, 4]


def test_reconnecting_after_being_offline_gets_exactly_what_was_missed(client):
    code = table_with_moves(client, 2)
    seen = [int(m["id"]) for m in sse(client, f"/api/tables/{code}/events") if "id" in m]
    assert seen == [1, 2]
    # offline while three more things happen
    client.post(f"/api/tables/{code}/moves", json={"expected_seq": 2, "move": {"player": 0, "add": 2}})
    client.post(f"/api/tables/{code}/undo", json={"expected_seq": 3})
    client.post(f"/api/tables/{code}/timers", json={"expected_seq": 4, "timer": "t", "action": "start",
                                                    "seconds": 5})
    again = [m for m in sse(client, f"/api/tables/{code}/events", **{"Last-Event-ID": str(seen[-1])})
             if "id" in m]
    assert [int(m["id"]) for m in again] == [3, 4, 5]
    assert [m["data"]["kind"] for m in again] == ["move", "undo", "timer"]


def test_the_stream_heartbeats_and_ends(client):
    code = table_with_moves(client, 0)
    r = client.get(f"/api/tables/{code}/events")
    text = r.get_data(as_text=True)          # SSE_MAX_S = 0.2: the stream ends by itself
    assert ": heartbeat" in text


def test_sse_for_an_unknown_table_is_404_json(client):
    r = client.get("/api/tables/ZZZZZZZZ/events")
    assert r.status_code == 404 and r.is_json
    r = client.get("/api/tables/ZZZZZZZZ/events", headers={"Last-Event-ID": "x"})
    assert r.status_code in (400, 404) and r.is_json


def test_too_many_streams_get_503_and_a_slot_comes_back(tmp_path):
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}, "SSE_MAX_STREAMS": 1,
                      "SSE_MAX_S": 0.1})
    client = token_client(app)
    code = client.post("/api/tables", json={"game": "counter", "players": ["A"]}).json["code"]
    held = client.get(f"/api/tables/{code}/events")       # not read yet: holds the only slot
    r = client.get(f"/api/tables/{code}/events")
    assert r.status_code == 503 and r.is_json
    held.get_data()
    held.close()
    r = client.get(f"/api/tables/{code}/events")
    assert r.status_code == 200
    r.close()


def test_polling_since(client):
    code = table_with_moves(client, 5)
    r = client.get(f"/api/tables/{code}/events?since=2", headers={"Accept": "application/json"})
    assert r.status_code == 200
    assert [e["seq"] for e in r.json["events"]] == [3, 4, 5] and r.json["seq"] == 5
    r = client.get(f"/api/tables/{code}/events?since=5", headers={"Accept": "application/json"})
    assert r.json == {"events": [], "seq": 5}
    r = client.get(f"/api/tables/{code}/events", headers={"Accept": "application/json",
                                                          "Last-Event-ID": "4"})
    assert [e["seq"] for e in r.json["events"]] == [5]
    r = client.get(f"/api/tables/{code}/events?since=-1", headers={"Accept": "application/json"})
    assert r.status_code == 400 and r.json["error"]


# ---- timers --------------------------------------------------------------------------------------
def timer(client, code, seq, action, seconds=None, name="round"):
    body = {"expected_seq": seq, "timer": name, "action": action}
    if seconds is not None:
        body["seconds"] = seconds
    return client.post(f"/api/tables/{code}/timers", json=body)


def only_timer(client, code):
    (t,) = client.get(f"/api/tables/{code}").json["timers"]
    return t


def test_timer_start_pause_resume_reset(client, clock):
    code = table_with_moves(client, 0)
    r = timer(client, code, 0, "start", 60)
    assert r.status_code == 200 and r.json["seq"] == 1
    t0 = clock.now_ms
    assert r.json["timers"] == [{"name": "round", "status": "running", "deadline_ms": t0 + 60_000,
                                 "remaining_ms": 60_000, "duration_ms": 60_000, "owner": "table"}]
    clock.advance(10_000)
    assert only_timer(client, code)["remaining_ms"] == 50_000
    r = timer(client, code, 1, "pause")
    assert r.json["timers"][0] == {"name": "round", "status": "paused", "deadline_ms": None,
                                   "remaining_ms": 50_000, "duration_ms": 60_000, "owner": "table"}
    clock.advance(100_000)                        # paused: time does not run out
    assert only_timer(client, code)["status"] == "paused"
    r = timer(client, code, 2, "resume")
    assert r.json["timers"][0]["deadline_ms"] == clock.now_ms + 50_000
    clock.advance(20_000)
    assert only_timer(client, code)["remaining_ms"] == 30_000
    r = timer(client, code, 3, "reset")
    assert r.json["timers"][0] == {"name": "round", "status": "idle", "deadline_ms": None,
                                   "remaining_ms": 60_000, "duration_ms": 60_000, "owner": "table"}


def test_expiry_is_decided_by_the_server_clock(client, clock):
    code = table_with_moves(client, 0)
    timer(client, code, 0, "start", 30)
    clock.advance(29_999)
    assert only_timer(client, code)["status"] == "running"
    clock.advance(1)
    t = only_timer(client, code)
    assert t["status"] == "expired" and t["remaining_ms"] == 0
    client.application.extensions["tokyo"].expiry.run_due()   # (its thread does it at the deadline)
    (event,) = [e for e in client.get(f"/api/tables/{code}/events?since=1",
                                      headers={"Accept": "application/json"}).json["events"]]
    assert event["kind"] == "expire" and event["timer"] == "round" and event["owner"] == "table"
    assert event["deadline_ms"] == clock.now_ms
    r = timer(client, code, 2, "pause")           # too late: it has expired
    assert r.status_code == 422 and r.json["reasons"]
    clock.advance(-3_600_000)                      # a clock that jumps back never revives it
    assert only_timer(client, code)["status"] == "expired"
    assert timer(client, code, 2, "start", 30).status_code == 200    # a new countdown


def test_the_stream_announces_expiry(client, clock):
    code = table_with_moves(client, 0)
    timer(client, code, 0, "start", 1)
    clock.advance(1_000)
    msgs = sse(client, f"/api/tables/{code}/events", **{"Last-Event-ID": "1"})
    (table,) = [m for m in msgs if m.get("event") == "table"][-1:]
    assert table["data"]["timers"][0]["status"] == "expired"


@pytest.mark.parametrize("body", [
    {"timer": "t", "action": "start"},
    {"timer": "t", "action": "start", "seconds": 0},
    {"timer": "t", "action": "start", "seconds": "60"},
    {"timer": "t", "action": "start", "seconds": 10**9},
    {"timer": "t", "action": "pause", "seconds": 5},
    {"timer": "t", "action": "explode"},
    {"timer": "", "action": "reset"},
    {"timer": 3, "action": "reset"},
    {"timer": "x" * 41, "action": "reset"},
])
def test_malformed_timer_requests_are_400(client, body):
    code = table_with_moves(client, 0)
    r = client.post(f"/api/tables/{code}/timers", json={"expected_seq": 0, **body})
    assert r.status_code == 400 and r.json["error"]
    assert client.get(f"/api/tables/{code}").json["seq"] == 0


@pytest.mark.parametrize("action", ["pause", "resume", "reset"])
def test_impossible_timer_actions_are_422(client, action):
    code = table_with_moves(client, 0)
    r = timer(client, code, 0, action)
    assert r.status_code == 422 and r.json["reasons"]


def test_timer_records_are_pure():
    t = timers.apply({}, "a", "start", 10, 1000)
    assert timers.apply(t, "a", "pause", None, 4000)["a"]["remaining_ms"] == 7000
    assert t["a"]["status"] == "running"          # not mutated
    assert timers.public(t, 11_000)[0]["status"] == "expired"
