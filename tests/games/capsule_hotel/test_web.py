"""Tokyo Capsule Hotel's web part over HTTP: the income calculator (API.md), a table with secret
loans and the 5-second count as a server timer (injected clock), the live ledger page and the pages
behind every printed QR code."""
from __future__ import annotations

import time

import pytest

from companion import create_app
from companion.testing import FakeClock, seat_headers as seat, token_client

GAME = "capsule-hotel"


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def client(tmp_path, clock):
    return token_client(create_app({"DATA_DIR": tmp_path, "CLOCK": clock, "SSE_MAX_S": 0.2}))



def move(client, code, m, headers=None):
    seq = client.get(f"/api/tables/{code}").json["seq"]
    kw = {"headers": headers, "auth": False} if headers else {}
    return client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq, "move": m}, **kw)


def test_income_calculator_follows_the_formula(client):
    body = {"lots": [
        {"id": "L1", "cemeteries": 3, "faces": [{"yen": 500, "coupon": True}],
         "hotels": [{"id": "h1", "owner": 0, "colour": "green", "capsules": 1},
                    {"id": "h2", "owner": 1, "colour": "green", "capsules": 2}]},
        {"id": "L2", "cemeteries": 5, "faces": [{"yen": 3000}],
         "hotels": [{"id": "h3", "owner": 1, "colour": "green", "capsules": 1}]},
        {"id": "L3", "cemeteries": 5, "faces": [{"yen": 0, "no_cemetery": True}],
         "hotels": [{"id": "h4", "owner": 0, "colour": "pink", "capsules": 1}]}]}
    r = client.post("/api/capsule-hotel/income", json=body)
    assert r.status_code == 200, r.json
    assert r.json["franchise"] == {"green": 100 * (3 + 2), "pink": 200}
    inc = {h["id"]: h["income"] for h in r.json["hotels"]}
    # 500 + 500 - 300; 500 + 3000 - 500 = 3000 capped at 1,000; pink 200 + 0 with no deduction
    assert inc == {"h1": 700, "h2": 700, "h3": 1000, "h4": 200}
    assert r.json["players"] == [{"player": 0, "income": 900}, {"player": 1, "income": 1700}]


def test_income_calculator_floor_of_100(client):
    r = client.post("/api/capsule-hotel/income", json={"lots": [{"id": "A", "cemeteries": 5, "hotels": [
        {"id": "h", "owner": 0, "colour": "black", "capsules": 1}]}]})
    assert r.json["hotels"][0]["income"] == 100      # 200 - 500, never below 100 by the deduction


def hotel(hid, colour, capsules, owner=0):
    return {"id": hid, "owner": owner, "colour": colour, "capsules": capsules}


@pytest.mark.parametrize("body, status", [
    # malformed (API.md: 400 for a field missing or of the wrong JSON type)
    ({}, 400), ({"lots": {}}, 400), ({"lots": [{"cemeteries": "1"}]}, 400),
    ({"lots": [{"faces": [{"yen": "5"}]}]}, 400), ({"lots": [{"faces": [{"coupons": "x"}]}]}, 400),
    ({"lots": [{"faces": [{"yen": 500, "colour": "red"}]}]}, 400),
    ({"lots": [{"hotels": [{"id": "h", "owner": "0", "colour": "pink", "capsules": 1}]}]}, 400),
    ({"lots": [{"hotels": [{"id": "h", "owner": 0, "colour": "pink"}]}]}, 400),
    # "Any request whose numbers cannot occur in the game (more than the box holds, negative) is a 422"
    ({"lots": [{"cemeteries": -1}]}, 422), ({"lots": [{"cemeteries": 6}]}, 422),
    ({"lots": [{"faces": [{"yen": -500}]}]}, 422), ({"lots": [{"faces": [{"coupons": -1}]}]}, 422),
    ({"lots": [{"hotels": [hotel("h", "pink", -1)]}]}, 422), ({"lots": [{"hotels": [hotel("h", "pink", 0)]}]}, 422),
    ({"lots": [{"hotels": [hotel("h", "pink", 1, owner=-1)]}]}, 422),
    ({"lots": [{"hotels": [hotel("h", "pink", 1, owner=5)]}]}, 422),
    ({"lots": [{"hotels": [hotel("h", "gold", 1)]}]}, 422),
    ({"lots": [{"hotels": [hotel("h", "yellow", 40)]}]}, 422),
])
def test_income_calculator_bad_input(client, body, status):
    r = client.post("/api/capsule-hotel/income", json=body)
    assert r.status_code == status and r.json["error"], r.json
    if status == 422:
        assert r.json["reasons"]


def test_income_calculator_refuses_what_the_box_cannot_hold(client, data):
    """The limits come from the data: capsules of a colour in play (the box's less the one on the
    franchise income board), hotels the entrances and Coin Laundries open, the faces of the bonus
    dice, one roll per building of the box, the lots a map sheet holds."""
    def post(lots):
        return client.post("/api/capsule-hotel/income", json={"lots": lots})

    yellow = data.capsule["yellow"].for_sale
    assert yellow == data.capsule["yellow"].count - 1 == 4
    r = post([{"id": "A", "hotels": [hotel("y1", "yellow", 4), hotel("y2", "yellow", 4)]}])
    assert r.status_code == 422 and any("8 yellow capsules in hotels; 4 are in play" in x for x in r.json["reasons"])
    assert post([{"id": "A", "hotels": [hotel("y1", "yellow", 2), hotel("y2", "yellow", 2)]}]).status_code == 200
    r = post([{"id": "A", "hotels": [hotel("p", "pink", data.capsule["pink"].count)]}])          # 11 pink
    assert r.status_code == 422 and "11 pink capsules in hotels; 10 are in play" in r.json["reasons"][0]
    assert post([{"id": "A", "hotels": [hotel("p", "pink", 10)]}]).status_code == 200
    # 25 one-capsule black hotels: more than the 20 entrances + 4 Coin Laundries open, more black capsules
    assert data.most_hotels == data.inventory.entrances + data.building["coin-laundry"].count == 24
    r = post([{"id": "A", "hotels": [hotel(f"b{i}", "black", 1) for i in range(25)]}])
    assert r.status_code == 422
    assert any("25 hotels; the box opens at most 24" in x for x in r.json["reasons"])
    assert any("25 black capsules in hotels; 16 are in play" in x for x in r.json["reasons"])
    spread = [{"id": f"L{i}", "hotels": [hotel(f"h{i}", c.id, 1)]} for i, c in enumerate(data.capsules)]
    assert post(spread).status_code == 200
    # faces: 12 in one lot, while the box has 11 buildings that each roll once
    assert sum(b.count for b in data.buildings) == 11
    r = post([{"id": "A", "faces": [{"yen": 500}] * 12}])
    assert r.status_code == 422 and "11 buildings" in r.json["reasons"][0]
    # five 500 faces: Coin Laundry (4) and Sweets Buffet (3) show 500; seven fit, eight do not
    assert post([{"id": "A", "faces": [{"yen": 500}] * 7}]).status_code == 200
    r = post([{"id": "A", "faces": [{"yen": 500}] * 4}, {"id": "B", "faces": [{"yen": 500}] * 4}])
    assert r.status_code == 422 and "more buildings of a kind than the box has" in r.json["reasons"][0]
    # a face of 150 yen is on no bonus die
    r = post([{"id": "A", "faces": [{"yen": 150}]}])
    assert r.status_code == 422 and "A: face 1 (150 yen) is on no bonus die" in r.json["reasons"]
    # Tokyo Spike's face of 2 coupons, said as such; "coupon": true with 0 coupons contradicts itself
    r = post([{"id": "A", "faces": [{"coupons": 2}, {"yen": 200, "coupon": True}]}])
    assert r.status_code == 200 and r.json["lots"][0]["coupons"] == 3
    assert post([{"id": "A", "faces": [{"coupons": 3}]}]).status_code == 422
    assert post([{"id": "A", "faces": [{"coupon": True, "coupons": 0}]}]).status_code == 422
    # lots: a map sheet holds its 4 starting lots and 15 of the smallest lot board
    assert data.most_lots == 19
    assert post([{"id": f"L{i}"} for i in range(19)]).status_code == 200
    r = post([{"id": f"L{i}"} for i in range(20)])
    assert r.status_code == 422 and "a map sheet holds at most 19" in r.json["reasons"][0]


def test_table_secret_loans_and_the_count_expires_on_the_server(client, clock):
    r = client.post("/api/tables", json={"game": GAME, "players": ["Aki", "Ben"], "options": {"dice": "table"}})
    assert r.status_code == 201, r.json
    code = r.json["code"]
    aki, ben = seat(client, code, 0), seat(client, code, 1)
    assert move(client, code, {"type": "choose-loan", "player": 0, "amount": 6000}, aki).status_code == 200
    seen = client.get(f"/api/tables/{code}", headers=ben, auth=False).json["state"]
    assert seen["loan_choices"] == {"0": "sealed"}
    assert move(client, code, {"type": "choose-loan", "player": 1, "amount": 8000}, aki).status_code == 403
    assert move(client, code, {"type": "choose-loan", "player": 1, "amount": 8000}, ben).status_code == 200
    t = client.get(f"/api/tables/{code}").json
    assert t["state"]["phase"] == "purchase" and t["state"]["queue"] == [0, 1]
    r = move(client, code, {"type": "start-count", "player": 1}, ben)
    assert r.status_code == 200, r.json
    t = client.get(f"/api/tables/{code}").json
    count = next(x for x in t["timers"] if x["name"] == "count")
    assert count["status"] == "running" and count["remaining_ms"] == 5000
    clock.advance(5000)
    for _ in range(100):            # the server appends the expiry event at the deadline
        t = client.get(f"/api/tables/{code}").json
        if t["state"]["queue"] == [1]:
            break
        time.sleep(0.02)
    assert t["state"]["queue"] == [1] and t["state"]["players"][0]["seal"] == "front"


def test_ledger_page_and_scans(client):
    r = client.post("/api/tables", json={"game": GAME, "players": ["Aki", "Ben", "Chie"], "options": {}})
    code = r.json["code"]
    page = client.get(f"/t/{code}/board")
    assert page.status_code == 200 and b"Purchase queue" in page.data and b"ledger.js" in page.data
    assert client.get("/capsule-hotel/income").status_code == 200
    for path in ("/q/capsule-hotel/ledger/1", "/q/capsule-hotel/ledger/5",
                 "/q/capsule-hotel/queue/round-expenses-board",
                 "/q/capsule-hotel/franchise/franchise-income-board",
                 "/q/capsule-hotel/attraction/attraction-park"):
        assert client.get(path).status_code == 200, path
    for path in ("/q/capsule-hotel/ledger/0", "/q/capsule-hotel/ledger/6", "/q/capsule-hotel/queue/x",
                 "/q/capsule-hotel/attraction/coin-laundry"):
        assert client.get(path).status_code == 404, path
    # at a joined table, the ledger pad of seat 2 shows that seat's live numbers
    for p in range(3):
        move(client, code, {"type": "choose-loan", "player": p, "amount": 4000 + 2000 * p})
    client.set_cookie("tk_table", code)
    client.set_cookie("tk_table_token", seat(client, code, 1)["Authorization"].split()[1])
    page = client.get("/q/capsule-hotel/ledger/2").get_data(as_text=True)
    assert "Ben" in page and "6,000" in page and "#ledger-1" in page
    page = client.get("/q/capsule-hotel/ledger/3").get_data(as_text=True)
    assert "Chie" in page
    assert "Open the live queue" in client.get("/q/capsule-hotel/queue/round-expenses-board").get_data(as_text=True)


def test_new_table_form_has_the_game_options(client):
    page = client.get("/new/capsule-hotel").get_data(as_text=True)
    for needle in ("ch-dice", "ch-cards", "ch-tallest", "ch-outside", "ch-seconds"):
        assert needle in page
    # the controls' values reach new_table.js through a file of the companion's (an inline script
    # would be blocked by its CSP: tests/test_companion_options_pages.py runs it in Chromium)
    assert "capsule-hotel/options.js" in page
    r = client.post("/api/tables", json={"game": GAME, "players": ["Aki", "Ben"], "options": {
        "dice": "companion", "attraction_cards": "buyer-chooses", "tallest_hotel": True, "outside_money": True,
        "declare_seconds": 8}})
    assert r.status_code == 201, r.json
    bad = client.post("/api/tables", json={"game": GAME, "players": ["Aki", "Ben"],
                                           "options": {"declare_seconds": 0, "colour": "red"}})
    assert bad.status_code in (400, 422) and bad.json["error"]


def test_scan_pages_show_the_joined_table(client):
    r = client.post("/api/tables", json={"game": GAME, "players": ["Aki", "Ben"],
                                         "options": {"attraction_cards": "all-side-b", "declare_seconds": 12}})
    code = r.json["code"]
    for p in range(2):
        move(client, code, {"type": "choose-loan", "player": p, "amount": 6000})
    client.set_cookie("tk_table", code)
    client.set_cookie("tk_table_token", seat(client, code, 0)["Authorization"].split()[1])
    page = client.get("/q/capsule-hotel/attraction/attraction-sumo-dohyo").get_data(as_text=True)
    assert "side B" in page and "golden rule does not apply" in page
    page = client.get("/q/capsule-hotel/franchise/franchise-income-board").get_data(as_text=True)
    assert "No hotel on the map yet" in page and "500" in page
    page = client.get("/q/capsule-hotel/queue/round-expenses-board").get_data(as_text=True)
    assert "6,000" in page and "to declare a purchase" in page
    assert "count 12 seconds aloud" in page          # the table's count, not the box's 5
