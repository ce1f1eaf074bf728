"""GET /api/tables/<code>/legal (API.md): `?player=i` narrows the host's list to seat i *and the
table's moves*; a seat token gets its own moves and the table's; a finished game's empty list is
complete. Told with the tests' sealed-bid game, whose rules list only a seat's own moves for that
seat (as several real games do), so the companion has to add the table's."""
from __future__ import annotations

import pytest

from companion import create_app
from companion.testing import token_client
from testgames import COUNTER, SEALED_BID


@pytest.fixture
def client(tmp_path, clock):
    return token_client(create_app({"DATA_DIR": tmp_path, "CLOCK": clock,
                                    "EXTRA_GAMES": {"sealed-bid": SEALED_BID, "counter": COUNTER}}))


def test_a_seats_list_holds_the_tables_moves(client):
    code = client.post("/api/tables", json={"game": "sealed-bid", "players": ["Aki", "Ben"],
                                            "options": {"chance": "table"}}).json["code"]
    ben = client.post(f"/api/tables/{code}/seats", json={"player": 1}, auth=False).json["token"]
    starts = [{"type": "start-round", "prize": p} for p in (1, 2, 3)]
    narrowed = client.get(f"/api/tables/{code}/legal?player=0").json
    assert narrowed["moves"] == starts and narrowed["complete"] is True
    as_ben = client.get(f"/api/tables/{code}/legal", auth=False,
                        headers={"Authorization": f"Bearer {ben}"}).json
    assert as_ben["moves"] == starts
    # bidding: seat 0's bids, and the table's "close the bids" (not seat 1's bids)
    client.post(f"/api/tables/{code}/moves", json={"expected_seq": 0,
                                                   "move": {"type": "start-round", "prize": 2}})
    moves = client.get(f"/api/tables/{code}/legal?player=0").json["moves"]
    assert {"type": "close-bids"} in moves
    assert {m.get("player") for m in moves if m["type"] == "bid"} == {0}


def test_a_finished_games_empty_list_is_complete(client):
    code = client.post("/api/tables", json={"game": "counter", "players": ["Aki", "Ben"],
                                            "options": {"goal": 2}}).json["code"]
    for seq, player in ((0, 0), (1, 1)):
        assert client.post(f"/api/tables/{code}/moves", json={
            "expected_seq": seq, "move": {"player": player, "add": 1}}).status_code == 200
    assert client.get(f"/api/tables/{code}").json["result"] is not None
    for query in ("", "?player=0"):
        assert client.get(f"/api/tables/{code}/legal{query}").json == {"seq": 2, "moves": [],
                                                                        "complete": True}
