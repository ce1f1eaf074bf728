"""Reveals are final for seats (API.md, undo; issue: a seat undid the reveal of sealed choices and
chose again knowing the others'): a move that revealed what was hidden — the sealed bids, a prize
the companion drew — cannot be undone with a seat token (422 with the reason, nothing appended);
the host can, and the history says the host took back a reveal. Mistakes before a reveal stay one
undo away."""
from __future__ import annotations

import pytest

from companion import create_app
from companion.testing import token_client
from testgames import SEALED_BID


@pytest.fixture
def client(storage, clock):
    return token_client(create_app({**storage, "EXTRA_GAMES": {"sealed-bid": SEALED_BID}, "CLOCK": clock}))


def sealed_table(client, chance="table"):
    code = client.post("/api/tables", json={"game": "sealed-bid", "players": ["Aki", "Ben"],
                                            "options": {"chance": chance}}).json["code"]
    seats = [{"Authorization": "Bearer " + client.post(f"/api/tables/{code}/seats", json={"player": i},
                                                       auth=False).json["token"]} for i in (0, 1)]
    return code, seats


def post(client, code, path, body, headers=None):
    return client.post(f"/api/tables/{code}/{path}", json=body, headers=headers or {},
                       auth=headers is None)


def test_a_seat_cannot_undo_the_reveal_of_sealed_bids_the_host_can(client):
    code, (aki, ben) = sealed_table(client)
    post(client, code, "moves", {"expected_seq": 0, "move": {"type": "start-round", "prize": 2}})
    assert post(client, code, "moves", {"expected_seq": 1, "move": {"type": "bid", "player": 0,
                                                                     "amount": 8}}, aki).status_code == 200
    # a mistake before the reveal is one undo away
    assert post(client, code, "undo", {"expected_seq": 2}, aki).status_code == 200
    assert post(client, code, "moves", {"expected_seq": 3, "move": {"type": "bid", "player": 0,
                                                                     "amount": 6}}, aki).status_code == 200
    # Ben's bid reveals both; Ben now knows Aki bid 6 and would like to bid 7 instead
    assert post(client, code, "moves", {"expected_seq": 4, "move": {"type": "bid", "player": 1,
                                                                     "amount": 3}}, ben).status_code == 200
    refused = post(client, code, "undo", {"expected_seq": 5}, ben)
    assert refused.status_code == 422
    assert refused.json["reasons"] == ["it revealed the sealed bids"]
    assert "only the host" in refused.json["error"]
    assert client.get(f"/api/tables/{code}").json["seq"] == 5
    taken = post(client, code, "undo", {"expected_seq": 5})                 # the host's ruling
    assert taken.status_code == 200 and taken.json["state"]["bids"] == {"0": 6}
    events = client.get(f"/api/tables/{code}/events?since=5", headers={"Accept": "application/json"}).json
    assert events["events"][0]["summary"].startswith("The host took back a reveal. Undo #5:")


def test_the_companions_draw_is_final_for_seats(client):
    code, (aki, _) = sealed_table(client, chance="companion")
    assert post(client, code, "moves", {"expected_seq": 0, "move": {"type": "start-round"}},
                aki).status_code == 200
    refused = post(client, code, "undo", {"expected_seq": 1}, aki)
    assert refused.status_code == 422 and refused.json["reasons"] == ["the companion drew the prize"]
    assert post(client, code, "undo", {"expected_seq": 1}).status_code == 200


def test_an_idempotency_key_is_the_senders_own(client):
    """Ben reusing Aki's key and body is not answered Aki's stored response (her private view): the
    key is another key under Ben's token, and his request is decided as his own (stale: a 409 with
    the table as Ben may see it)."""
    code, (aki, ben) = sealed_table(client)
    post(client, code, "moves", {"expected_seq": 0, "move": {"type": "start-round", "prize": 2}})
    body = {"expected_seq": 1, "move": {"type": "bid", "player": 0, "amount": 7}}
    first = client.post(f"/api/tables/{code}/moves", json=body, auth=False,
                        headers={**aki, "Idempotency-Key": "k1"})
    assert first.status_code == 200 and first.json["state"]["bids"] == {"0": 7}
    again = client.post(f"/api/tables/{code}/moves", json=body, auth=False,
                        headers={**aki, "Idempotency-Key": "k1"})
    assert again.status_code == 200 and again.data == first.data        # Aki's retry: the same
    stolen = client.post(f"/api/tables/{code}/moves", json=body, auth=False,
                         headers={**ben, "Idempotency-Key": "k1"})
    assert stolen.status_code == 409 and stolen.json["state"]["bids"] == {"0": "sealed"}
    at_seq = client.post(f"/api/tables/{code}/moves", json={**body, "expected_seq": 2}, auth=False,
                         headers={**ben, "Idempotency-Key": "k1"})
    assert at_seq.status_code == 403                                      # not his seat


def test_a_log_written_under_older_rules_still_replays(storage, clock):
    """A move its sender may no longer send (here: seat 1 entering seat 0's Shinjuku move, stored by
    an older companion) replays as the host's instead of making the table unreadable (503)."""
    import json

    from pg_cluster import run_sql
    app = create_app({**storage, "CLOCK": clock, "SNAPSHOT_EVERY": 1000})
    client = token_client(app)
    code = client.post("/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben"]}).json["code"]
    move = next(m for m in client.get(f"/api/tables/{code}/legal").json["moves"] if m.get("player") == 0)
    body = json.dumps({"move": move, "by": 1, "summary": "an older companion's record"})
    run_sql(storage, "INSERT INTO events (code, seq, kind, body, at_ms) VALUES (?, 1, 'move', ?, 0)",
            (code, body))
    fresh = token_client(create_app({**storage, "CLOCK": clock}))
    r = fresh.get(f"/api/tables/{code}")
    assert r.status_code == 200 and r.json["seq"] == 1


def test_a_companion_refill_in_shin_bikkuri_man_is_final_for_seats(storage, clock):
    """The take that refills the harbour from the companion's deck: the taker's undo is 422, the
    host's is allowed (it used to be refused to everyone)."""
    client = token_client(create_app({**storage, "CLOCK": clock}))
    code = client.post("/api/tables", json={"game": "shin-bikkuri-man", "players": ["Aki", "Ben"],
                                            "options": {"deck": "companion"}}).json["code"]
    aki = {"Authorization": "Bearer " + client.post(f"/api/tables/{code}/seats", json={"player": 0},
                                                    auth=False).json["token"]}
    take = next(m for m in client.get(f"/api/tables/{code}/legal").json["moves"] if m["type"] == "take")
    assert post(client, code, "moves", {"expected_seq": 0, "move": take}, aki).status_code == 200
    refused = post(client, code, "undo", {"expected_seq": 1}, aki)
    assert refused.status_code == 422 and refused.json["reasons"] == ["this move revealed cards from the deck"]
    assert post(client, code, "undo", {"expected_seq": 1}).status_code == 200
