"""Reads answered from the kept JSON text (Tables.get_text, legal_text: issue 24) are never stale:
what a GET shows changes the moment the table, its seats or its timers do, for every viewer, over
SQLite and PostgreSQL. Each test reads first (so the text is kept), changes one thing, and reads
again."""
from __future__ import annotations

# `client` (the API with the counter game, host tokens sent) and `clock` are conftest's.


def new_table(client, players=("Aki", "Ben")):
    r = client.post("/api/tables", json={"game": "counter", "players": list(players),
                                         "options": {"goal": 1000}})
    assert r.status_code == 201, r.json
    return r.json["code"]


def test_a_seat_taken_shows_at_once_to_the_host_and_to_a_spectator(client):
    code = new_table(client)
    for _ in range(2):                                  # the second read comes from the kept text
        assert [s["claimed"] for s in client.get(f"/api/tables/{code}").json["seats"]] == [False, False]
        assert [s["claimed"] for s in client.get(f"/api/tables/{code}", auth=False).json["seats"]] \
            == [False, False]
    seat = client.post(f"/api/tables/{code}/seats", json={"player": 1}, auth=False)
    assert seat.status_code == 201
    assert [s["claimed"] for s in client.get(f"/api/tables/{code}").json["seats"]] == [False, True]
    assert [s["claimed"] for s in client.get(f"/api/tables/{code}", auth=False).json["seats"]] == [False, True]
    mine = client.get(f"/api/tables/{code}", headers={"Authorization": f"Bearer {seat.json['token']}"}).json
    assert mine["you"] == {"host": False, "player": 1}
    # the seat given up: the old token is refused and the seat shows free again
    freed = client.delete(f"/api/tables/{code}/seats/1")
    assert freed.status_code == 200
    assert [s["claimed"] for s in client.get(f"/api/tables/{code}").json["seats"]] == [False, False]
    stale = client.get(f"/api/tables/{code}", headers={"Authorization": f"Bearer {seat.json['token']}"})
    assert stale.status_code == 401


def test_a_move_and_its_undo_show_in_the_table_and_in_the_legal_moves(client):
    code = new_table(client)
    before = client.get(f"/api/tables/{code}").json
    legal = client.get(f"/api/tables/{code}/legal").json
    assert client.get(f"/api/tables/{code}/legal").json == legal      # (kept) the same answer
    move = legal["moves"][0]
    r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": 0, "move": move})
    assert r.status_code == 200, r.json
    after = client.get(f"/api/tables/{code}").json
    assert after["seq"] == 1 and after["state"] == r.json["state"] and after["state"] != before["state"]
    assert client.get(f"/api/tables/{code}/legal").json["seq"] == 1
    r = client.post(f"/api/tables/{code}/undo", json={"expected_seq": 1})
    assert r.status_code == 200, r.json
    undone = client.get(f"/api/tables/{code}").json
    assert undone["seq"] == 2 and undone["state"] == before["state"]
    assert client.get(f"/api/tables/{code}/legal").json == {**legal, "seq": 2}


def test_a_running_timer_counts_down_between_two_cached_reads(client, clock):
    code = new_table(client)
    r = client.post(f"/api/tables/{code}/timers", json={"expected_seq": 0, "timer": "Turn", "action": "start",
                                                        "seconds": 60})
    assert r.status_code == 200, r.json
    first = {t["name"]: t for t in client.get(f"/api/tables/{code}").json["timers"]}["Turn"]
    clock.advance(7_000)
    second = {t["name"]: t for t in client.get(f"/api/tables/{code}").json["timers"]}["Turn"]
    assert first["remaining_ms"] - second["remaining_ms"] == 7_000
