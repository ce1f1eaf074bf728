"""Table timers through the API: any duration, several at once, the chess clock (one countdown per
seat, pass, flag), undo leaving timers alone, and replay of the log giving the same timers."""
from __future__ import annotations

import time

import pytest

from companion import create_app
from companion.tables import timers
from pg_cluster import run_sql
from testgames import COUNTER

# `client` (the API over SQLite and PostgreSQL, with the counter game) and `clock` are conftest's.


def new_table(client, players=("Aki", "Ben", "Chie")):
    r = client.post("/api/tables", json={"game": "counter", "players": list(players),
                                         "options": {"goal": 1000}})
    assert r.status_code == 201, r.json
    return r.json["code"]


def seq_of(client, code):
    return client.get(f"/api/tables/{code}").json["seq"]


def timer(client, code, name, action, **more):
    body = {"expected_seq": seq_of(client, code), "timer": name, "action": action, **more}
    return client.post(f"/api/tables/{code}/timers", json=body)


def by_name(client, code):
    return {t["name"]: t for t in client.get(f"/api/tables/{code}").json["timers"]}


def test_any_duration_and_two_timers_at_once(client, clock):
    code = new_table(client)
    assert timer(client, code, "Auction", "start", seconds=95).status_code == 200     # 1:35
    clock.advance(5_000)
    assert timer(client, code, "Round 2", "start", seconds=7 * 60 + 5).status_code == 200
    clock.advance(10_000)
    assert timer(client, code, "Auction", "pause").status_code == 200
    clock.advance(20_000)
    t = by_name(client, code)
    assert t["Auction"]["status"] == "paused" and t["Auction"]["remaining_ms"] == 80_000
    assert t["Round 2"]["status"] == "running" and t["Round 2"]["remaining_ms"] == 425_000 - 30_000
    assert t["Round 2"]["duration_ms"] == 425_000
    ev = client.get(f"/api/tables/{code}/events?since=0", headers={"Accept": "application/json"}).json
    assert [e["summary"] for e in ev["events"]][:2] == ["Timer “Auction” started (1:35)",
                                                        "Timer “Round 2” started (7:05)"]


def test_chess_clock_counts_down_the_running_seat_and_passes_on(client, clock):
    code = new_table(client)
    r = timer(client, code, "Chess", "start", seconds=60, clock="chess", seat=1)
    assert r.status_code == 200, r.json
    (t,) = r.json["timers"]
    assert t["kind"] == "chess" and t["seat"] == 1 and t["status"] == "running"
    assert [c["remaining_ms"] for c in t["clocks"]] == [60_000] * 3
    clock.advance(15_000)
    t = by_name(client, code)["Chess"]
    assert t["remaining_ms"] == 45_000 and [c["remaining_ms"] for c in t["clocks"]] == [60_000, 45_000, 60_000]
    r = timer(client, code, "Chess", "pass")                       # Ben taps: Chie's time runs
    assert r.status_code == 200
    clock.advance(5_000)
    t = by_name(client, code)["Chess"]
    assert t["seat"] == 2 and t["remaining_ms"] == 55_000
    assert [c["remaining_ms"] for c in t["clocks"]] == [60_000, 45_000, 55_000]
    timer(client, code, "Chess", "pass")                            # Chie taps: back to Aki
    assert by_name(client, code)["Chess"]["seat"] == 0
    timer(client, code, "Chess", "pause")
    clock.advance(600_000)
    t = by_name(client, code)["Chess"]
    assert t["status"] == "paused" and t["clocks"][0]["remaining_ms"] == 60_000
    timer(client, code, "Chess", "pass", seat=1)                   # a pass may name the seat
    assert by_name(client, code)["Chess"]["seat"] == 1
    ev = client.get(f"/api/tables/{code}/events?since=0", headers={"Accept": "application/json"}).json
    summaries = [e["summary"] for e in ev["events"]]
    assert summaries[0] == "Chess clock “Chess” started (1:00 each), Ben first"
    assert summaries[1] == "Chess clock “Chess”: Chie’s time runs"


def test_chess_clock_flags_the_seat_that_runs_out_and_skips_it(client, clock, app):
    code = new_table(client)
    timer(client, code, "Chess", "start", seconds=10, clock="chess")
    clock.advance(10_000)
    app.extensions["tokyo"].expiry.run_due()                        # the server's expiry event
    t = by_name(client, code)["Chess"]
    assert t["status"] == "expired" and t["seat"] == 0
    assert [c["flagged"] for c in t["clocks"]] == [True, False, False]
    assert t["clocks"][0]["remaining_ms"] == 0
    # (With PostgreSQL the store's own scheduler thread may have claimed the expiry first, and be
    # appending it: each expiry is appended once, by whoever claims it. Give it a moment.)
    deadline = time.monotonic() + 10
    while True:
        events = client.get(f"/api/tables/{code}/events?since=0", headers={"Accept": "application/json"}).json
        if events["events"][-1]["kind"] == "expire" or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert events["events"][-1]["kind"] == "expire"
    assert [e["kind"] for e in events["events"]].count("expire") == 1
    assert timer(client, code, "Chess", "pass").status_code == 200  # play on: Ben's time runs
    timer(client, code, "Chess", "pass")                            # Chie's
    timer(client, code, "Chess", "pass")                            # Aki is out: back to Ben
    t = by_name(client, code)["Chess"]
    assert t["seat"] == 1 and t["status"] == "running"
    r = timer(client, code, "Chess", "pass", seat=0)
    assert r.status_code == 422 and "run out" in r.json["reasons"][0]
    timer(client, code, "Chess", "reset")
    t = by_name(client, code)["Chess"]
    assert t["status"] == "idle" and not any(c["flagged"] for c in t["clocks"])
    assert [c["remaining_ms"] for c in t["clocks"]] == [10_000] * 3


@pytest.mark.parametrize("body, status", [
    ({"action": "pass", "seconds": 3}, 400),
    ({"action": "pause", "clock": "chess"}, 400),
    ({"action": "start", "seconds": 60, "clock": "sundial"}, 400),
    ({"action": "start", "seconds": 60, "seat": 1}, 400),               # seat: chess clocks only
    ({"action": "start", "seconds": 60, "clock": "chess", "seat": 3}, 422),   # 3 seats: 0…2
    ({"action": "start", "seconds": 60, "clock": "chess", "seat": True}, 400),
])
def test_bad_chess_clock_requests_change_nothing(client, body, status):
    code = new_table(client)
    r = client.post(f"/api/tables/{code}/timers", json={"expected_seq": 0, "timer": "C", **body})
    assert r.status_code == status and r.json["error"]
    assert seq_of(client, code) == 0


def test_pass_refused_for_a_countdown(client):
    code = new_table(client)
    timer(client, code, "Round", "start", seconds=30)
    r = timer(client, code, "Round", "pass")
    assert r.status_code == 422 and "not a chess clock" in r.json["reasons"][0]


def test_undo_leaves_timer_actions_and_replay_gives_the_same_timers(app, client, clock, storage):
    code = new_table(client)
    client.post(f"/api/tables/{code}/moves", json={"expected_seq": 0, "move": {"player": 0, "add": 2}})
    timer(client, code, "Chess", "start", seconds=120, clock="chess")
    clock.advance(7_000)
    timer(client, code, "Chess", "pass")
    timer(client, code, "Egg", "start", seconds=61)
    clock.advance(3_000)
    timer(client, code, "Egg", "pause")
    r = client.post(f"/api/tables/{code}/undo", json={"expected_seq": seq_of(client, code)})
    assert r.status_code == 200 and r.json["state"]["count"] == 0     # the move, not a timer
    before = client.get(f"/api/tables/{code}").json
    assert {t["name"] for t in before["timers"]} == {"Chess", "Egg"}
    assert before["timers"][0]["clocks"][0]["remaining_ms"] == 113_000
    # a fresh companion replaying the log alone (no snapshots) derives the same timers
    run_sql(storage, "DELETE FROM snapshots")
    fresh = create_app({**storage, "EXTRA_GAMES": {"counter": COUNTER}, "CLOCK": clock})
    again = fresh.test_client().get(f"/api/tables/{code}").json
    assert again["timers"] == before["timers"] and again["seq"] == before["seq"]


def test_logs_written_before_chess_clocks_replay_unchanged():
    """An old event body (no "clock") is a countdown, exactly as before."""
    old = {"timer": "round", "action": "start", "seconds": 30, "by": "host", "summary": "…"}
    t = timers.apply({}, "round", "start", 30, 1000, old)
    assert t == timers.apply({}, "round", "start", 30, 1000)
    assert "kind" not in t["round"]
    assert timers.public(t, 11_000)[0] == {"name": "round", "status": "running",
                                           "deadline_ms": 31_000, "remaining_ms": 20_000,
                                           "duration_ms": 30_000, "owner": "table"}


def test_a_running_chess_clock_follows_the_games_turn(client, clock, storage):
    """The game's turn passes with a move: the chess clock stops the mover's time and runs the next
    player's by itself (no tap on the clock); an undo gives the turn, and the time, back; a replay
    of the log from scratch shows the same clocks."""
    code = new_table(client)
    timer(client, code, "Chess", "start", seconds=60, clock="chess", seat=0)
    clock.advance(10_000)
    move = client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq_of(client, code),
                                                          "move": {"player": 0, "add": 2}})
    assert move.status_code == 200
    clock.advance(4_000)
    t = by_name(client, code)["Chess"]
    assert t["seat"] == 1 and [c["remaining_ms"] for c in t["clocks"]] == [50_000, 56_000, 60_000]
    client.post(f"/api/tables/{code}/undo", json={"expected_seq": seq_of(client, code)})
    clock.advance(1_000)
    t = by_name(client, code)["Chess"]
    assert t["seat"] == 0 and [c["remaining_ms"] for c in t["clocks"]] == [49_000, 56_000, 60_000]
    # a paused clock stays put (the table paused it on purpose)
    timer(client, code, "Chess", "pause")
    client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq_of(client, code),
                                                   "move": {"player": 0, "add": 1}})
    assert by_name(client, code)["Chess"]["seat"] == 0
    # the log replays to the same clocks in a fresh process (no cache, no snapshot)
    run_sql(storage, "DELETE FROM snapshots")
    fresh = create_app({**storage, "EXTRA_GAMES": {"counter": COUNTER}, "CLOCK": clock,
                        "SNAPSHOT_EVERY": 1000})
    assert fresh.test_client().get(f"/api/tables/{code}").json["timers"] == \
        client.get(f"/api/tables/{code}").json["timers"]
