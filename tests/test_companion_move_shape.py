"""Moves hold only what their type defines (API.md, 422): in every game, a legal move with a field
its type does not name is refused naming the field, as is free text over 200 characters or a
number no game has; nothing is appended (the log once kept a 60,000-character "junk" field)."""
from __future__ import annotations

import pytest

from companion import create_app
from companion.catalog import discover
from companion.testing import token_client
from testgames import TEST_GAMES

GAMES = sorted(g.id for g in {**discover(), **TEST_GAMES}.values() if g.playable)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return token_client(create_app({"DATA_DIR": tmp_path_factory.mktemp("shape"),
                                    "EXTRA_GAMES": dict(TEST_GAMES)}))


@pytest.mark.parametrize("game", GAMES)
def test_a_field_the_type_does_not_define_is_refused(client, game):
    g = {**discover(), **TEST_GAMES}[game]
    players = ["Aki", "Ben", "Chie", "Dai"][:max(2, g.players[0])]
    code = client.post("/api/tables", json={"game": game, "players": players}).json["code"]
    legal = client.get(f"/api/tables/{code}/legal").json["moves"]
    assert legal, f"{game}: no legal move at the start"
    move = legal[0]
    for bad, words in (({**move, "junk": "J" * 60_000}, "'junk' is not a field"),
                       ({**move, "type": move.get("type", "add"), "extra": 1}, "'extra' is not a field")):
        r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": 0, "move": bad})
        assert r.status_code in (413, 422), r.json
        if r.status_code == 422:
            assert any(words in reason for reason in r.json["reasons"]), r.json
    assert client.get(f"/api/tables/{code}").json["seq"] == 0
    ok = client.post(f"/api/tables/{code}/moves", json={"expected_seq": 0, "move": move})
    assert ok.status_code == 200, ok.json


def test_free_text_and_numbers_have_limits():
    from testgames import SEALED_BID
    rules = SEALED_BID.rules
    assert rules.shape_reasons({"type": "bid", "player": 0, "amount": 10**30}) == \
        ["move.amount is 1000000000000000000000000000000: no number in a game goes past 1,000,000,000"]
    long = {"type": "bid", "player": 0, "amount": 1, "note": "x" * 201}
    assert rules.shape_reasons(long) == [
        "'note' is not a field of 'bid' (its fields: amount, player)",
        "move.note is 201 characters long; free text is at most 200"]
    assert rules.shape_reasons({"type": "bid", "player": 0, "amount": 3}) == []
