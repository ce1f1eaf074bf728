"""Simultaneous phases (API.md, "Simultaneous phases"): seats acting at once are not refused because
another seat moved first. A seat's move based on an older seq is decided on the current state when
only other seats' moves of the same phase came since; a move from before a reveal, an expiry, a
table move or the sender's own move is still a 409, which lists what changed ("since").

The tests' sealed-bid game (tests/testgames.py) has the phase: every player bids at once, in secret;
the last bid reveals them all and ends the round."""
from __future__ import annotations

import threading

import pytest

from companion import create_app
from companion.testing import token_client
from testgames import COUNTER, SEALED_BID


@pytest.fixture
def app(storage, clock):
    return create_app({**storage, "EXTRA_GAMES": {"sealed-bid": SEALED_BID, "counter": COUNTER},
                       "CLOCK": clock, "SSE_MAX_S": 0.2, "SNAPSHOT_EVERY": 3})


def table(app, players=("Aki", "Ben", "Chie", "Dai")):
    """A sealed-bid table in its first bidding round, and each seat's Authorization header."""
    host = token_client(app)
    code = host.post("/api/tables", json={"game": "sealed-bid", "players": list(players),
                                          "options": {"chance": "table"}}).json["code"]
    seats = [{"Authorization": "Bearer " + host.post(f"/api/tables/{code}/seats", json={"player": i},
                                                     auth=False).json["token"]}
             for i in range(len(players))]
    assert host.post(f"/api/tables/{code}/moves",
                     json={"expected_seq": 0, "move": {"type": "start-round", "prize": 2}}).status_code == 200
    return host, code, seats


def bid(client, code, headers, seat, amount, expected):
    return client.post(f"/api/tables/{code}/moves", auth=False, headers=headers,
                       json={"expected_seq": expected, "move": {"type": "bid", "player": seat,
                                                                 "amount": amount}})


def test_bids_sent_on_the_same_seq_are_all_accepted_and_the_last_reveals(app):
    host, code, seats = table(app)
    answers = [bid(host, code, seats[i], i, 2 + i, 1) for i in range(4)]
    assert [a.status_code for a in answers] == [200] * 4
    assert [a.json["seq"] for a in answers] == [2, 3, 4, 5]
    # each was decided on the state it was appended to: sealed for the others until the last bid
    assert answers[0].json["state"]["bids"] == {"0": 2}
    assert answers[1].json["state"]["bids"] == {"0": "sealed", "1": 3}
    state = host.get(f"/api/tables/{code}").json["state"]
    assert state["phase"] == "prize" and state["last"]["winner"] == 3   # Dai's 5 won the round


def test_a_move_of_an_earlier_phase_is_still_409_and_says_what_changed(app):
    host, code, seats = table(app, ("Aki", "Ben"))
    assert bid(host, code, seats[0], 0, 4, 1).status_code == 200
    assert bid(host, code, seats[1], 1, 1, 1).status_code == 200         # the reveal (seq 3)
    host.post(f"/api/tables/{code}/moves", json={"expected_seq": 3,
                                                 "move": {"type": "start-round", "prize": 1}})
    # Ben's phone still at seq 1 (round 1): round 2 began since, by a table move
    late = bid(host, code, seats[1], 1, 2, 1)
    assert late.status_code == 409 and late.json["seq"] == 4
    assert [(e["seq"], e["kind"], e["player"]) for e in late.json["since"]] == \
        [(2, "move", 0), (3, "move", 1), (4, "move", None)]
    assert all(e["summary"] for e in late.json["since"])
    assert host.get(f"/api/tables/{code}").json["seq"] == 4              # nothing appended


def test_the_senders_own_move_since_is_a_409(app):
    """A phone that has not seen its own seat's move (sent from the host phone) must look first."""
    host, code, seats = table(app)
    assert host.post(f"/api/tables/{code}/moves", json={
        "expected_seq": 1, "move": {"type": "bid", "player": 2, "amount": 1}}).status_code == 200
    again = bid(host, code, seats[2], 2, 3, 1)
    assert again.status_code == 409 and again.json["since"][0]["player"] == 2


def test_a_table_move_never_commutes(app):
    host, code, seats = table(app)
    assert bid(host, code, seats[0], 0, 1, 1).status_code == 200
    close = host.post(f"/api/tables/{code}/moves", auth=False, headers=seats[1],
                      json={"expected_seq": 1, "move": {"type": "close-bids"}})
    assert close.status_code == 409


def test_turn_based_moves_keep_the_409(app):
    host = token_client(app)
    code = host.post("/api/tables", json={"game": "counter", "players": ["Aki", "Ben"]}).json["code"]
    assert host.post(f"/api/tables/{code}/moves", json={"expected_seq": 0,
                                                        "move": {"player": 0, "add": 1}}).status_code == 200
    stale = host.post(f"/api/tables/{code}/moves", json={"expected_seq": 0,
                                                         "move": {"player": 1, "add": 1}})
    assert stale.status_code == 409 and stale.json["since"][0]["summary"] == "player 0 adds 1"


def test_an_illegal_move_on_the_current_state_is_422_not_409(app):
    host, code, seats = table(app, ("Aki", "Ben", "Chie"))
    assert bid(host, code, seats[0], 0, 1, 1).status_code == 200
    too_much = bid(host, code, seats[1], 1, 99, 1)
    assert too_much.status_code == 422 and host.get(f"/api/tables/{code}").json["seq"] == 2


def test_every_seat_at_the_same_instant(app):
    """Four phones tap at the same moment with the same expected_seq, three rounds running: all
    accepted at the first try, one event each, in some order, and each round revealed once."""
    host, code, seats = table(app)
    start = 1
    for round_ in (1, 2, 3):
        barrier, answers = threading.Barrier(4), [None] * 4

        def amount(i):
            return 1 + (i + round_) % 4          # 1 to 4 coins: a different winner each round

        def phone(i):
            client = token_client(app)
            barrier.wait()
            answers[i] = bid(client, code, seats[i], i, amount(i), start)
        threads = [threading.Thread(target=phone, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert [a.status_code for a in answers] == [200] * 4, [a.json for a in answers]
        assert sorted(a.json["seq"] for a in answers) == list(range(start + 1, start + 5))
        events = host.get(f"/api/tables/{code}/events?since={start}",
                          headers={"Accept": "application/json"}).json["events"]
        order = [i for i, a in sorted(enumerate(answers), key=lambda x: x[1].json["seq"])]
        assert [e["move"]["player"] for e in events] == order
        state = host.get(f"/api/tables/{code}").json["state"]
        assert state["last"] == {"round": round_, "winner": (3 - round_) % 4,
                                 "bids": {str(i): amount(i) for i in range(4)}}
        if round_ < 3:
            assert host.post(f"/api/tables/{code}/moves", json={
                "expected_seq": start + 4, "move": {"type": "start-round", "prize": 1}}).status_code == 200
            start += 5
