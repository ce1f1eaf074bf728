"""Shin Bikkuri Man's web part: the two calculators of API.md, a table played over HTTP with hidden
hands, the board twin and calculator pages, and every printed QR code opening its page."""
from __future__ import annotations

import pytest

from generator.kits.base import KitContext
from generator.kits.shin_bikkuri_man import build_kit

from .helpers import D, rows

GAME = "shin-bikkuri-man"



def test_score_calculator(client):
    r = client.post(f"/api/{GAME}/score", json={"board": rows("rrrrr", "Rgggg")})
    assert r.status_code == 200
    assert r.json == {"points": 3, "rows": [{"row": 1, "points": 2}, {"row": 2, "points": 1}], "columns": []}
    col = ["b...."] * 9
    r = client.post(f"/api/{GAME}/score", json={"board": col})
    assert r.json["points"] == 4 and r.json["columns"] == [{"column": 1, "points": 4}]
    col[3] = "B...."
    assert client.post(f"/api/{GAME}/score", json={"board": col}).json["points"] == 2


@pytest.mark.parametrize("body", [{}, {"board": "x"}, {"board": ["....."] * 8}, {"board": ["....x"] * 9},
                                  {"board": [5] * 9}])
def test_score_calculator_refuses_malformed_boards(client, body):
    r = client.post(f"/api/{GAME}/score", json=body)
    assert r.status_code == 400 and r.json["error"]


def test_score_and_place_agree_a_white_brick_cannot_occur(client):
    # reference: "12 white one-square window tiles" and "Every coloured tile has exactly one brick
    # (no-window) square": no white tile has a brick, so "wwwwW" is no façade of the game. /place
    # refuses to lay one; /score and /place both refuse a board that holds one (422 with reasons),
    # while a brick of a colour is fine.
    white_brick = rows("wwwwW")
    r = client.post(f"/api/{GAME}/place", json={"board": rows("wwww."), "tile": {
        "colour": "w", "squares": [[5, 1]], "brick": [5, 1]}})
    assert r.status_code == 422 and "brick where the tile has none" in " ".join(r.json["reasons"])
    r = client.post(f"/api/{GAME}/score", json={"board": white_brick})
    assert r.status_code == 422, r.json
    assert "brick where the tile has none" in " ".join(r.json["reasons"]) and "(5, 1)" in r.json["reasons"][0]
    r = client.post(f"/api/{GAME}/place", json={"board": white_brick, "tile": {
        "colour": "r", "squares": [[1, 2], [2, 2]], "brick": [1, 2]}})
    assert r.status_code == 422 and "brick where the tile has none" in " ".join(r.json["reasons"])
    # every colour whose tiles have a brick may show one; white, whose tiles have none, may not
    for c in D.colours:
        assert client.post(f"/api/{GAME}/score", json={"board": rows(c.id[0] * 4 + c.id[0].upper())}).status_code == 200
    assert client.post(f"/api/{GAME}/score", json={"board": rows("wwwww")}).json["points"] == 2


def test_place_calculator(client):
    body = {"board": rows("Rr..."), "tile": {"colour": "r", "squares": [[3, 1], [4, 1], [3, 2]], "brick": [3, 2]},
            "construction_discount": False}
    r = client.post(f"/api/{GAME}/place", json=body)
    assert r.status_code == 200, r.json
    assert r.json["cost"] == 2 and r.json["points"] == 0 and r.json["coats_of_arms"] == 0   # touches red
    assert r.json["board"][-1] == "Rrrr." and r.json["board"][-2] == "..R.."
    r = client.post(f"/api/{GAME}/place", json={**body, "construction_discount": True})
    assert r.json["cost"] == 1
    # completing row 2 (coat at its end) and covering (3, 3)
    r = client.post(f"/api/{GAME}/place", json={"board": rows("Ppppp", "pp.pp"), "tile": {
        "colour": "p", "squares": [[3, 2], [3, 3]], "brick": [3, 2]}})
    assert r.json["coats_of_arms"] == 2 and r.json["points"] == 1
    r = client.post(f"/api/{GAME}/place", json={"board": rows("Ppppp"), "tile": {"colour": "w", "squares": [[1, 2]],
                                                                                 "brick": None}})
    assert r.json["cost"] == 0


@pytest.mark.parametrize("tile, words", [
    ({"colour": "r", "squares": [[5, 1], [6, 1]], "brick": [5, 1]}, "off the board"),
    ({"colour": "r", "squares": [[1, 1], [2, 1]], "brick": [1, 1]}, "already covered"),
    ({"colour": "r", "squares": [[1, 4], [2, 4]], "brick": [1, 4]}, "not supported"),
    ({"colour": "p", "squares": [[3, 1], [4, 1], [5, 1], [3, 2]], "brick": [3, 1]}, "no purple tile has this shape"),
    ({"colour": "w", "squares": [[3, 1]], "brick": [3, 1]}, "brick where the tile has none"),
    ({"colour": "r", "squares": [[3, 1], [4, 1]], "brick": None}, "brick square"),
])
def test_place_calculator_says_why_not(client, tile, words):
    r = client.post(f"/api/{GAME}/place", json={"board": rows("Rr..."), "tile": tile})
    assert r.status_code == 422
    assert any(words in x for x in r.json["reasons"]), r.json


def test_place_calculator_malformed(client):
    for body in ({"board": rows()}, {"board": rows(), "tile": {"colour": "q", "squares": [[1, 1]]}},
                 {"board": rows(), "tile": {"colour": "r", "squares": "a1"}},
                 {"board": rows(), "tile": {"colour": "r", "squares": [[1, 1]]}, "construction_discount": 1}):
        assert client.post(f"/api/{GAME}/place", json=body).status_code == 400


def test_a_table_over_http_hides_other_hands(client):
    r = client.post("/api/tables", json={"game": GAME, "players": ["Aki", "Ben"], "options": {"deck": "companion"}})
    assert r.status_code == 201
    code = r.json["code"]
    seats = []
    for p in (0, 1):
        r = client.post(f"/api/tables/{code}/seats", json={"player": p}, auth=False)
        seats.append({"Authorization": f"Bearer {r.json['token']}"})
    t = client.get(f"/api/tables/{code}", headers=seats[1]).json
    assert t["state"]["players"][0]["hand"] is None and t["state"]["players"][1]["hand"] is not None
    assert t["state"]["deck"] is None and t["state"]["seed"] is None
    move = {"type": "take", "player": 0, "spaces": [0, 1]}
    r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": 0, "move": move}, headers=seats[1])
    assert r.status_code == 403
    r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": 0, "move": {**move, "spaces": [0, 2]}},
                    headers=seats[0])
    assert r.status_code == 422 and r.json["reasons"]
    r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": 0, "move": move}, headers=seats[0])
    assert r.status_code == 200 and r.json["state"]["current"] == 1
    legal = client.get(f"/api/tables/{code}/legal", headers=seats[1]).json
    assert legal["moves"] and all(m["player"] == 1 for m in legal["moves"])
    board = client.get(f"/t/{code}/board")
    assert board.status_code == 200 and b"board.js" in board.data


def test_pages(client):
    r = client.get(f"/{GAME}/calculator")
    assert r.status_code == 200 and b"calculator.js" in r.data
    r = client.get(f"/{GAME}/facade.svg")
    assert r.status_code == 200 and b"facade-grid" in r.data
    etag = r.headers["ETag"].strip('"')
    assert client.get(f"/{GAME}/facade.svg?v={etag}").headers["Cache-Control"].endswith("immutable")
    assert client.get(f"/{GAME}/facade.svg", headers={"If-None-Match": f'"{etag}"'}).status_code == 304
    r = client.get(f"/new/{GAME}")
    assert r.status_code == 200 and b'name="deck"' in r.data


def test_every_printed_qr_opens_its_page(client):
    kit = build_kit(D, KitContext(companion_url="http://localhost"))
    payloads = [item.qr[1] for s in kit.sections for item in getattr(s, "items", ()) if item.qr]
    assert len(payloads) == 4 + 5
    for url in payloads:
        r = client.get(url.removeprefix("http://localhost"))
        assert r.status_code == 200, url
    assert client.get(f"/q/{GAME}/board/5").status_code == 404
    assert client.get(f"/q/{GAME}/ability/flying").status_code == 404


def test_board_and_ability_pages_at_a_joined_table(client):
    r = client.post("/api/tables", json={"game": GAME, "players": ["Aki", "Ben"], "options": {"deck": "companion"}})
    code = r.json["code"]
    tok = client.post(f"/api/tables/{code}/seats", json={"player": 0}, auth=False).json["token"]
    client.set_cookie("tk_table", code)
    client.set_cookie("tk_table_token", tok)
    page = client.get(f"/q/{GAME}/board/1")
    assert page.status_code == 200 and b"Aki" in page.data and b"Hand:" in page.data
    page = client.get(f"/q/{GAME}/board/2")
    assert b"Ben" in page.data and b"cards in hand" in page.data          # not Ben's cards
    page = client.get(f"/q/{GAME}/ability/any-cards")
    assert b"Yours at this table" in page.data and b"ready" in page.data


def test_the_board_page_describes_the_board_from_the_data(client):
    # the player board's size and coats of arms are the data's (board.toml), not words written by hand
    from types import SimpleNamespace as NS

    from companion.games.shin_bikkuri_man.web import board_facts
    page = client.get(f"/q/{GAME}/board/1").get_data(as_text=True)
    assert (D.board.columns, D.board.rows, D.coat_squares, D.coat_rows) == \
        (5, 9, ((3, 3), (5, 5), (2, 7), (4, 9)), (2, 4, 6))
    expected = "5 columns, 9 rows, coats of arms at (3, 3), (5, 5), (2, 7) and (4, 9), and at the right " \
               "end of rows 2, 4 and 6"
    assert f"The façade board of one player: {expected}." in page.replace("\u00a0", " ")
    # other data, other words
    other = NS(board=NS(columns=6, rows=1), coat_squares=((2, 1),), coat_rows=(1,))
    assert board_facts(other).replace("\u00a0", " ") == \
        "6 columns, 1 row, coats of arms at (2, 1), and at the right end of row 1"
    assert board_facts(NS(board=NS(columns=4, rows=7), coat_squares=(), coat_rows=(3, 5))) == \
        "4 columns, 7 rows, coats of arms at the right end of rows 3 and 5"
