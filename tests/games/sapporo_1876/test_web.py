"""Sapporo 1876's web part over HTTP: the final-scoring calculator (API.md), the scan pages of the
printed tiles and personal boards (with and without a joined table), the board twin and a game
played through the table API with seat tokens."""
from __future__ import annotations

import random

import pytest

from companion.games.sapporo_1876.rules import calculator
from companion.testing import seat_headers as seat
from generator import canon




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
    ({"fame": "3"}, 400), ({"academy": []}, 400), ({"persons": "b-ryan"}, 400),
    ({"academy": {"top_tier": 1}}, 400), ({"council": {"left": True}}, 400), ({"council": {"left": 1.5}}, 400),
    ({"council": {"left": None}}, 400), ({"pioneering": {"columns": {"wheat": "2"}}}, 400),
    # API.md: "Any request whose numbers cannot occur in the game (more than the box holds,
    # negative) is a 422 with reasons"; 400 stays for a field of the wrong JSON type
    ({"fame": -1}, 422), ({"yen": -3}, 422), ({"council": {"left": -1}}, 422),
    ({"pioneering": {"top": -1}}, 422), ({"pioneering": {"columns": {"wheat": -2}}}, 422),
    ({"resources": -1, "resources_by_kind": {"wheat": -1}}, 422), ({"workers_in_area": -1}, 422),
    ({"council": {"left": 101}}, 422), ({"buildings": 10_000}, 422),
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
        # "At any time during your turn, you can place 1 worker from your worker area on a building tile"
        assert "At any time during your own turn (the other player&#39;s action included)" in r.get_data(as_text=True)
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
    # API.md: "the empty list of a finished game is complete"; the host's too
    for headers in (*tokens, None):
        legal = client.get(f"/api/tables/{code}/legal", **({"headers": headers} if headers else {})).json
        assert legal["moves"] == [] and legal["complete"] is True, legal
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


def _score(client, body):
    return client.post("/api/sapporo-1876/score", json=body)


def test_the_calculator_limits_come_from_the_data(client, rules_text):
    """Each player "takes the 9 workers of one color. Place 3 of them on the worker area ... the
    remaining 6 on the spaces of the private academy"; "The start player takes 1 worker from their
    worker area and places it on the bottom space of any one of the 4 pioneering columns" (a worker
    never leaves a pioneering column); "Workers in the private academy must always be educated
    starting from the lowest tier"; each player buys one building tile at set-up ("Buying this one
    building tile is mandatory") and can invest only in the 6 on the main board."""
    text = rules_text("sapporo-1876.txt")
    for quote in ("Each player takes the 9 workers of one color. Place 3 of them on the worker area",
                  "Workers in the private academy must always be educated starting from the lowest tier.",
                  "Note: Buying this one building tile is mandatory.",
                  "place one face up on each of the 6 tile spaces at the bottom of the main board"):
        assert quote in text
    d = canon.load("sapporo-1876")
    workers = d.colours[0].workers                                   # 9
    spaces = sum(len(c.spaces) for c in d.council)                   # 9 council spaces
    full = {"second_tier": True, "top_tier": True}
    # the whole council (9 spaces) would take every worker, the set-up pioneer's too
    council = {c.id: len(c.spaces) for c in d.council}
    assert spaces >= workers and _score(client, {"council": council, "academy": full}).status_code == 422
    # 8 on the council and the pioneer: every worker out of the academy, so it must be empty
    eight = dict(council, **{d.council[-1].id: len(d.council[-1].spaces) - (spaces - (workers - 1))})
    assert sum(eight.values()) == workers - d.setup.free_pioneers
    assert _score(client, {"council": eight, "academy": full, "pioneering": {"top": 1}}).status_code == 200
    r = _score(client, {"council": eight, "academy": {"second_tier": False, "top_tier": False},
                        "pioneering": {"top": 1}})
    assert r.status_code == 422 and "educated" in " ".join(r.json["reasons"]), r.json
    # with the second tier not done, at most 3 + 3 workers are out (the lowest tier and one more)
    out = d.setup.workers_in_area + d.academy.tier[0].workers + d.academy.tier[1].workers - 1
    five = {d.council[0].id: 3, d.council[1].id: 2}
    assert _score(client, {"council": five, "pioneering": {"top": 1}}).status_code == 200
    assert _score(client, {"council": five, "pioneering": {"top": 1}, "workers_in_area": out - 6}).status_code == 200
    assert _score(client, {"council": five, "pioneering": {"top": 1},
                           "workers_in_area": out - 5}).status_code == 422
    # the worker area: never all 9 (the pioneer); 8 only with the academy empty and nobody elsewhere
    assert _score(client, {"workers_in_area": workers, "academy": full}).status_code == 422
    assert _score(client, {"workers_in_area": workers - 1, "academy": full}).status_code == 200
    # the lowest tier is educated before the ones above it
    r = _score(client, {"academy": {"lower_tier": False, "second_tier": True}})
    assert r.status_code == 422 and "lowest tier" in " ".join(r.json["reasons"])
    # building tiles: the one bought at set-up plus the 6 on the main board, at most
    most = d.setup.buildings_bought + d.setup.buildings_on_board
    assert most == 7 < len(d.building_tiles) == 13
    for n, status in ((most, 200), (most + 1, 422), (len(d.building_tiles), 422),
                      (d.setup.buildings_bought, 200), (0, 422)):
        r = _score(client, {"buildings": n, "persons": ["h-capron"]})
        assert r.status_code == status, (n, r.json)


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
