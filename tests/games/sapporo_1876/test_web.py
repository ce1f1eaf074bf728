"""Sapporo 1876's web part over HTTP: the final-scoring calculator (API.md), the scan pages of the
printed tiles and personal boards (with and without a joined table), the board twin and a game
played through the table API with seat tokens."""
from __future__ import annotations

import random

import pytest

from companion import create_app
from companion.games.sapporo_1876.rules import calculator
from companion.testing import FakeClock, token_client
from generator import canon


@pytest.fixture
def client(tmp_path):
    return token_client(create_app({"DATA_DIR": tmp_path, "CLOCK": FakeClock(), "SSE_MAX_S": 0.2}))


def seat(client, code, player):
    r = client.post(f"/api/tables/{code}/seats", json={"player": player}, auth=False)
    assert r.status_code == 201, r.json
    return {"Authorization": f"Bearer {r.json['token']}"}


def test_calculator_scores_the_rules_example(client):
    r = client.post("/api/sapporo-1876/score", json=calculator.example_body())
    assert r.status_code == 200
    values = [b["value"] for b in r.json["breakdown"]]
    assert values == [0, 9, 9, 3, 7, 21, 1] and r.json["points"] == 50
    # API.md's fields alone, with fame gained during the game
    r = client.post("/api/sapporo-1876/score", json={
        "fame": 12, "academy": {"second_tier": True, "top_tier": False}, "pioneering": {"top": 1, "second": 0},
        "council": {"left": 1, "middle": 0, "right": 0}, "yen": 3, "resources": 2, "persons": ["b-ryan"]})
    assert r.status_code == 200 and r.json["points"] == 12 + 3 + 5 + 5 + 3 + 2


@pytest.mark.parametrize("body, status", [
    ({"fame": -1}, 400), ({"fame": "3"}, 400), ({"academy": []}, 400), ({"persons": "b-ryan"}, 400),
    ({"academy": {"top_tier": 1}}, 400), ({"council": {"left": True}}, 400),
    ({"academy": {"top_tier": True}}, 422),
    ({"council": {"left": 4}}, 422), ({"council": {"centre": 1}}, 422),
    ({"pioneering": {"top": 3, "second": 2}}, 422),
    ({"persons": ["nobody"]}, 422), ({"persons": ["b-ryan", "b-ryan"]}, 422),
    ({"persons": ["e-dunn"]}, 422),               # E. Dunn needs pioneering.columns
    ({"persons": ["d-penhallow"], "resources": 2}, 422),
    ({"resources": 2, "resources_by_kind": {"wheat": 3}}, 422),
])
def test_calculator_refuses_what_cannot_be(client, body, status):
    r = client.post("/api/sapporo-1876/score", json=body)
    assert r.status_code == status and r.json["error"], r.json
    if status == 422:
        assert r.json["reasons"]


def test_scan_pages_of_every_printed_qr(client):
    data = canon.load("sapporo-1876")
    for p in data.persons:
        r = client.get(f"/q/sapporo-1876/influential-person/{p.id}")
        assert r.status_code == 200 and p.text in r.get_data(as_text=True)
    for b in data.building_tiles:
        r = client.get(f"/q/sapporo-1876/building-tile/{b.id}")
        assert r.status_code == 200 and b.name in r.get_data(as_text=True)
    for c in data.colours:
        page = client.get(f"/q/sapporo-1876/personal-board/{c.id}").get_data(as_text=True)
        assert "Final-scoring calculator" in page
    assert client.get("/q/sapporo-1876/building-tile/nothing").status_code == 404
    assert client.get("/sapporo-1876/score").status_code == 200


def test_a_game_through_the_api_with_seat_tokens_and_the_preview(client):
    r = client.post("/api/tables", json={"game": "sapporo-1876", "players": ["Aki", "Ben"],
                                         "options": {"tiles": "companion"}, "seed": 4})
    assert r.status_code == 201
    code = r.json["code"]
    tokens = [seat(client, code, 0), seat(client, code, 1)]
    t = client.get(f"/api/tables/{code}", auth=False).json
    assert t["needs"]["options"] and len(t["state"]["beside"]) == 4
    # a seat cannot make the other's move
    buyer = t["needs"]["players"][0]
    move = t["needs"]["options"][0]["move"]
    r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": t["seq"], "move": move},
                    headers=tokens[1 - buyer])
    assert r.status_code == 403
    rng = random.Random(1)
    for _ in range(400):
        t = client.get(f"/api/tables/{code}", auth=False).json
        if t["result"]:
            break
        p = t["needs"]["players"][0]
        legal = client.get(f"/api/tables/{code}/legal?player={p}", headers=tokens[p]).json["moves"]
        r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": t["seq"], "move": rng.choice(legal)},
                        headers=tokens[p])
        assert r.status_code == 200, r.json
    res = t["result"]
    assert res and res["unit"] == "fame" and len(res["scores"]) == 2
    # the preview of a personal board at the joined table
    client.set_cookie("tk_table", code)
    page = client.get("/q/sapporo-1876/personal-board/black").get_data(as_text=True)
    assert "fame if the game ended now" in page
    assert client.get(f"/t/{code}/board").status_code == 200


def test_illegal_moves_are_422_with_reasons(client):
    r = client.post("/api/tables", json={"game": "sapporo-1876", "players": ["Aki", "Ben"],
                                         "options": {"tiles": "table"}})
    code = r.json["code"]
    r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": 0, "move": {
        "type": "lay-out-tiles", "persons": ["b-ryan"], "buildings": [], "beside": []}})
    assert r.status_code == 422 and r.json["reasons"]


def body_of(rules, state, p):
    """The calculator request for player p of a finished game, as a player would count it."""
    pl = state["players"][p]
    ix = rules.ix
    top = len(ix.col[ix.columns[0]].spaces)
    tiers = [pl["educated"] >= e for e in ix.tier_end]
    return {"fame": pl["fame"],
            "academy": {"lower_tier": tiers[0], "second_tier": tiers[1], "top_tier": tiers[2]},
            "pioneering": {"top": sum(1 for v in pl["pioneer"].values() if v == top),
                           "second": sum(1 for v in pl["pioneer"].values() if v == top - 1),
                           "columns": dict(pl["pioneer"])},
            "council": {c: sum(1 for s in sp if s == p) for c, sp in state["council"].items()},
            "yen": pl["yen"], "resources": sum(pl["resources"].values()),
            "resources_by_kind": dict(pl["resources"]), "persons": list(pl["persons"]),
            "buildings": len(pl["buildings"]), "workers_in_area": pl["area"]}


def test_the_calculator_agrees_with_the_engine_on_finished_games(client):
    from companion.games.sapporo_1876.rules import RULES
    rules = RULES(canon.load("sapporo-1876"))
    rng = random.Random(3)
    checked = 0
    for seed in range(12):
        s = rules.setup(["Aki", "Ben"], {"tiles": "companion"}, seed)
        while rules.result(s) is None:
            options = rules.needs(s)["options"]
            # prefer doing something to passing, so the boards fill up
            doing = [o for o in options if o["move"]["type"] not in ("pass", "end-turn")]
            s = rules.apply(s, rng.choice(doing or options)["move"])
        for row in rules.result(s)["scores"]:
            r = client.post("/api/sapporo-1876/score", json=body_of(rules, s, row["player"]))
            assert r.status_code == 200, r.json
            assert r.json["points"] == row["score"]
            assert r.json["breakdown"] == row["breakdown"]
            checked += 1
    assert checked == 24


@pytest.mark.parametrize("body, needs", [
    ({"persons": ["w-clark"], "academy": {"second_tier": False}}, "academy.lower_tier"),
    ({"persons": ["w-wheeler"]}, "pioneering.columns"),
    ({"persons": ["h-capron"]}, "buildings"),
    ({"persons": ["h-murahashi"]}, "workers_in_area"),
])
def test_the_calculator_names_the_field_a_person_needs(client, body, needs):
    r = client.post("/api/sapporo-1876/score", json=body)
    assert r.status_code == 422 and needs in " ".join(r.json["reasons"])


def test_the_calculator_refuses_more_workers_than_a_player_has(client):
    r = client.post("/api/sapporo-1876/score", json={"council": {"left": 3, "middle": 3, "right": 3},
                                                     "pioneering": {"top": 1}})
    assert r.status_code == 422 and "9 workers" in " ".join(r.json["reasons"])


def test_tile_pages_at_a_joined_table_say_where_the_tile_is(client):
    r = client.post("/api/tables", json={"game": "sapporo-1876", "players": ["Aki", "Ben"],
                                         "options": {"tiles": "companion"}, "seed": 2})
    code = r.json["code"]
    t = client.get(f"/api/tables/{code}", auth=False).json
    person, beside = t["state"]["persons"][0], t["state"]["beside"][0]
    client.set_cookie("tk_table", code)
    page = client.get(f"/q/sapporo-1876/influential-person/{person}").get_data(as_text=True)
    assert "on the main board" in page and "would score" in page
    buyer = t["needs"]["players"][0]
    client.post(f"/api/tables/{code}/moves", json={"expected_seq": 0, "move": {
        "type": "buy-building", "player": buyer, "tile": beside}})
    page = client.get(f"/q/sapporo-1876/building-tile/{beside}").get_data(as_text=True)
    assert t["players"][buyer] in page and "free to use" in page


def test_the_calculator_derives_top_and_second_from_the_columns(client):
    body = calculator.example_body()
    del body["pioneering"]["top"], body["pioneering"]["second"]
    r = client.post("/api/sapporo-1876/score", json=body)
    assert r.status_code == 200 and r.json["points"] == 50
    body["pioneering"]["top"] = 2                       # given, it must agree with the columns
    assert client.post("/api/sapporo-1876/score", json=body).status_code == 422
