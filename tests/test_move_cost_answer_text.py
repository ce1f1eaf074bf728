"""What a move costs was cut (issue 24) without changing a byte of its answer: the answer of every
move and undo of a game, to every viewer, over SQLite and PostgreSQL, is exactly the JSON of the
answer encoded whole, the small answer an Idempotency-Key keeps replays as the same bytes, and a
retried request gets the very bytes of the first answer."""
from __future__ import annotations

import random
import uuid

import pytest

from companion import create_app
from companion.games.contract import HOST
from companion.games.shinjuku.rules import playout
from companion.store.sqlite import dumps

PLAYERS = ["Aki", "Ben", "Chie", "Dai"]


@pytest.fixture
def app(storage):
    return create_app({**storage, "SNAPSHOT_EVERY": 5})


@pytest.mark.parametrize("options", [{"deck": "companion"}, {"deck": "table", "hands": "entered"}])
def test_answers_are_the_bytes_of_the_whole_answer(app, options):
    client = app.test_client()
    r = client.post("/api/tables", json={"game": "shinjuku", "players": PLAYERS,
                                         "options": options, "seed": 24})
    assert r.status_code == 201, r.get_json()
    code = r.get_json()["code"]
    tables = app.extensions["tokyo"].tables
    rules = tables.games["shinjuku"].rules
    rng = random.Random(24)
    seq, answers, undos = 0, 0, 0
    for i in range(160):
        _, state = tables.state(code)
        if state["phase"] == "over":
            break
        if i % 9 == 8:
            key = uuid.uuid4().hex
            status, answer = tables.undo(code, seq, key, key, HOST)
            undos += 1
        else:
            move = playout.choose(rules, state, rng)
            mover = tables.games["shinjuku"].mover(move)
            who = HOST if i % 3 == 0 or mover is None else mover
            key = uuid.uuid4().hex
            status, answer = tables.move(code, seq, move, key, key, who)
            again = tables.move(code, seq, move, key, key, who)      # the same request retried
            assert again[1].text == answer.text
        assert status == 200
        assert answer.text == dumps(dict(answer))
        seq = answer["seq"]
        answers += 1
    assert answers > 100 and undos > 10
