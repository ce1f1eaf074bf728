"""A move sent with `Prefer: return=minimal` (RFC 7240) is answered {"seq": n} alone, with
`Preference-Applied: return=minimal`: the phone reads the whole table after its move anyway, so the
state need not be derived, encoded and sent twice. Everything else is as without it: the move is
appended once, an Idempotency-Key's retry answers what that retry asks for (the whole state, or the
seq alone, whichever the first asked), and errors are answered whole."""
from __future__ import annotations

import pytest

from companion import create_app
from testgames import COUNTER

MINIMAL = {"Prefer": "return=minimal"}


@pytest.fixture(params=[True, False], ids=["lane", "flask"])
def table(storage, request):
    """A counter table on SQLite and on PostgreSQL (conftest's `storage`), through the lane and not."""
    app = create_app({**storage, "EXTRA_GAMES": {"counter": COUNTER}, "LANE": request.param})
    client = app.test_client()
    made = client.post("/api/tables", json={"game": "counter", "players": ["Aki", "Ben"]}).get_json()
    host = {"Authorization": f"Bearer {made['host_token']}"}
    return client, made["code"], host


def move(client, code, headers, seq, player=0, add=1):
    return client.post(f"/api/tables/{code}/moves", headers=headers,
                       json={"expected_seq": seq, "move": {"player": player, "add": add}})


def test_an_accepted_move_is_answered_with_its_seq_alone(table):
    client, code, host = table
    r = move(client, code, {**host, **MINIMAL}, 0)
    assert r.status_code == 200 and r.get_json() == {"seq": 1}
    assert r.headers["Preference-Applied"] == "return=minimal"
    t = client.get(f"/api/tables/{code}", headers=host).get_json()
    assert t["seq"] == 1 and t["state"]["count"] == 1
    # without the preference, the answer is the state, as API.md has it
    r = move(client, code, host, 1, player=1)
    assert set(r.get_json()) == {"seq", "state"} and "Preference-Applied" not in r.headers
    # the preference among others, in any case
    r = move(client, code, {**host, "Prefer": "handling=lenient, Return=Minimal"}, 2)
    assert r.get_json() == {"seq": 3}


def test_a_retry_answers_what_it_asks_for_and_appends_nothing(table):
    client, code, host = table
    first = move(client, code, {**host, **MINIMAL, "Idempotency-Key": "k1"}, 0)
    assert first.get_json() == {"seq": 1}
    whole = move(client, code, {**host, "Idempotency-Key": "k1"}, 0)
    assert whole.status_code == 200 and whole.get_json()["seq"] == 1
    assert whole.get_json()["state"] == client.get(f"/api/tables/{code}", headers=host).get_json()["state"]
    again = move(client, code, {**host, **MINIMAL, "Idempotency-Key": "k1"}, 0)
    assert again.get_json() == {"seq": 1} and again.headers["Preference-Applied"] == "return=minimal"
    # and the other way round: asked whole first, then minimal
    assert set(move(client, code, {**host, "Idempotency-Key": "k2"}, 1, player=1).get_json()) == {"seq", "state"}
    assert move(client, code, {**host, **MINIMAL, "Idempotency-Key": "k2"}, 1, player=1).get_json() == {"seq": 2}
    assert client.get(f"/api/tables/{code}", headers=host).get_json()["seq"] == 2


def test_errors_are_answered_whole(table):
    client, code, host = table
    assert move(client, code, host, 0).status_code == 200
    stale = move(client, code, {**host, **MINIMAL}, 0, player=1)
    assert stale.status_code == 409 and "state" in stale.get_json()
    assert "Preference-Applied" not in stale.headers
    illegal = move(client, code, {**host, **MINIMAL}, 1, player=0)
    assert illegal.status_code == 422 and illegal.get_json()["reasons"]
    assert client.get(f"/api/tables/{code}", headers=host).get_json()["seq"] == 1
