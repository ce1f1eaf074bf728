"""Tokyo Jutaku's web part (companion/games/jutaku/web.py) over HTTP: the calculators of API.md,
the QR pages, the live page of each mode, the game's own clocks run by the server's (fake) clock,
"stop!" from two phones at once, sealed Izakaya bids."""
from __future__ import annotations

import json
import time

import pytest

from companion import create_app
from companion.games.contract import HOST, Ctx
from companion.testing import FakeClock, token_client


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def app(tmp_path, clock):
    return create_app({"DATA_DIR": tmp_path, "CLOCK": clock})


@pytest.fixture
def client(app):
    return token_client(app)


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def create(client, players, **options):
    r = client.post("/api/tables", json={"game": "jutaku", "players": list(players), "options": options})
    assert r.status_code == 201, r.json
    code = r.json["code"]
    seats = [bearer(client.post(f"/api/tables/{code}/seats", json={"player": p}, auth=False).json["token"])
             for p in range(len(players))]
    return code, bearer(r.json["host_token"]), seats


def move(client, code, m, who, expect=200):
    seq = client.get(f"/api/tables/{code}").json["seq"]
    r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq, "move": m}, headers=who, auth=False)
    assert r.status_code == expect, r.json
    return r.json


def table(client, code, who=None):
    return client.get(f"/api/tables/{code}", headers=who or {}, auth=False).json


# -- calculators ------------------------------------------------------------------------------------
def test_score_calculator(client):
    r = client.post("/api/jutaku/score", json={"sites": ["meguro-1"]})
    assert r.status_code == 200 and r.json["yen"] == 14000
    assert r.json["sites"] == [{"site": "meguro-1", "side": "white", "requirement": "3.V///", "yen": 14000}]
    both = client.post("/api/jutaku/score", json={"sites": ["meguro-1", "suginami-1:blue"]}).json
    assert both["yen"] == 14000 + 5000
    assert client.post("/api/jutaku/score", json={"sites": []}).json["yen"] == 0
    bad = client.post("/api/jutaku/score", json={"sites": ["meguro-1", "meguro-1", "nowhere-9"]})
    assert bad.status_code == 422 and len(bad.json["reasons"]) == 2
    assert client.post("/api/jutaku/score", json={"sites": "meguro-1"}).status_code == 400
    assert client.post("/api/jutaku/score", data="{}", content_type="text/plain").status_code == 415


def test_izakaya_calculator(client):
    body = {"prices": {"white": 200, "blue": 300}, "buildings": [{"floors": 3, "drinks": ["white", "white", "blue"]},
                                                                {"floors": 1, "drinks": []}]}
    r = client.post("/api/jutaku/izakaya", json=body)
    assert r.status_code == 200 and r.json == {"yen": 2100, "buildings": [{"yen": 2100}, {"yen": 0}]}
    # moved coins: black down to 0, blue up to 400
    r = client.post("/api/jutaku/izakaya", json={"prices": {"black": 0, "blue": 400},
                                                 "buildings": [{"floors": 2, "drinks": ["black", "blue"]}]})
    assert r.json["yen"] == 800
    for bad in ({"buildings": [{"floors": 1, "drinks": ["white"] * 5}]},
                {"buildings": [{"floors": 1, "drinks": ["pink"]}]},
                {"prices": {"white": 150}, "buildings": []},
                {"prices": {"white": 1300}, "buildings": []},
                {"buildings": [{"floors": 99, "drinks": []}]}):
        assert client.post("/api/jutaku/izakaya", json=bad).status_code == 422, bad
    assert client.post("/api/jutaku/izakaya", json={"buildings": [{"floors": "3"}]}).status_code == 400
    assert client.post("/api/jutaku/izakaya", json={"buildings": {}}).status_code == 400


def test_calculator_pages_and_openapi(client):
    assert "Site card yen" in client.get("/jutaku/score").get_data(as_text=True)
    assert "Izakaya scoring" in client.get("/jutaku/izakaya").get_data(as_text=True)
    paths = client.get("/api/openapi.json").json["paths"]
    assert {"/api/jutaku/score", "/api/jutaku/izakaya", "/jutaku/score", "/jutaku/izakaya"} <= set(paths)
    assert "jutaku/options" in client.get("/new/jutaku").get_data(as_text=True) or \
        "jt-mode" in client.get("/new/jutaku").get_data(as_text=True)


# -- QR pages ---------------------------------------------------------------------------------------
def test_site_card_page_without_and_with_a_table(client):
    page = client.get("/q/jutaku/site-card/meguro-1").get_data(as_text=True)
    assert "3.V///" in page and "14,000" in page and "exactly <strong>3</strong> storeys" in page
    assert client.get("/q/jutaku/site-card/nowhere-9").status_code == 404
    code, host, seats = create(client, ["Aki", "Ben"])
    move(client, code, {"type": "start", "player": 0, "site": "suginami-1"}, seats[0])
    client.set_cookie("tk_table", code)
    client.set_cookie("tk_table_token", seats[1]["Authorization"].split()[1])
    page = client.get("/q/jutaku/site-card/suginami-1").get_data(as_text=True)
    assert "At your table" in page and "Aki is building on it" in page
    assert "on the map, free" in client.get("/q/jutaku/site-card/meguro-1").get_data(as_text=True)


def test_reference_card_opens_the_tables_clock(client):
    assert client.get("/q/jutaku/reference/countdown").status_code == 200
    assert client.get("/q/jutaku/reference/nothing").status_code == 404
    code, _, _ = create(client, ["Aki"], mode="countdown")
    client.set_cookie("tk_table", code)
    page = client.get("/q/jutaku/reference/countdown").get_data(as_text=True)
    assert f"/t/{code}/board" in page and "60 s" in page


@pytest.mark.parametrize("options", [{}, {"bottle_bonus": True}, {"mode": "countdown"}, {"mode": "izakaya"}])
def test_live_page_of_every_mode(client, options):
    code, _, _ = create(client, ["Aki", "Ben"], **options)
    page = client.get(f"/t/{code}/board")
    assert page.status_code == 200 and "jutaku/board.js" in page.get_data(as_text=True)
    assert "Open the board" in client.get(f"/t/{code}").get_data(as_text=True)


# -- the game's clocks and several phones ------------------------------------------------------------------
def wait_seq(client, code, want):
    for _ in range(300):
        if table(client, code)["seq"] >= want:
            return
        time.sleep(0.01)
    raise AssertionError(f"seq {want} never came")


def test_countdown_floors_run_on_the_server_clock(app, client, clock):
    code, host, seats = create(client, ["Aki", "Ben"], mode="countdown")
    move(client, code, {"type": "begin"}, seats[1])                 # a table move: any seat
    (t,) = table(client, code)["timers"]
    assert (t["name"], t["owner"], t["duration_ms"]) == ("floor", "game", 60_000)
    assert t["deadline_ms"] == clock.now_ms + 60_000
    move(client, code, {"type": "pieces", "player": 0, "pieces": 3}, seats[1], expect=403)  # not Ben's
    move(client, code, {"type": "pieces", "player": 0, "pieces": 3}, seats[0])
    clock.advance(60_000)                                        # nobody asks: the server ends the floor
    wait_seq(client, code, 3)
    s = table(client, code)["state"]
    assert s["phase"] == "count"
    (t,) = table(client, code)["timers"]                      # "stays expired until it is started again"
    assert (t["name"], t["status"], t["remaining_ms"]) == ("floor", "expired", 0)
    move(client, code, {"type": "pieces", "player": 1, "pieces": 2}, seats[1])
    (t,) = table(client, code)["timers"]
    assert t["duration_ms"] == 45_000 and table(client, code)["state"]["floor"] == 2
    move(client, code, {"type": "pieces", "player": 0, "pieces": 0}, seats[0])
    move(client, code, {"type": "pieces", "player": 1, "pieces": 0}, seats[1])   # early end, both out
    res = table(client, code)["result"]
    assert res["unit"] == "pieces" and [s["score"] for s in res["scores"]] == [3, 2] and res["winners"] == [0]


def test_two_phones_call_stop_and_the_others_check(client):
    code, host, seats = create(client, ["Aki", "Ben", "Chie"])
    for p, site in enumerate(["suginami-1", "taito-2", "setagaya-3"]):
        move(client, code, {"type": "start", "player": p, "site": site}, seats[p])
    move(client, code, {"type": "begin"}, seats[2])
    move(client, code, {"type": "stop", "player": 0}, seats[0])
    move(client, code, {"type": "stop", "player": 1}, seats[1])          # at the same time: both checked
    t = table(client, code)
    assert t["state"]["phase"] == "check" and t["state"]["stops"] == [0, 1]
    move(client, code, {"type": "verdict", "player": 0, "builder": 0, "ok": True}, seats[0], expect=422)
    move(client, code, {"type": "verdict", "player": 2, "builder": 0, "ok": True}, seats[2])
    move(client, code, {"type": "verdict", "player": 2, "builder": 1, "ok": False}, seats[2])
    s = table(client, code)["state"]
    assert s["phase"] == "move" and s["players"][0]["kept"][0]["site"] == "suginami-1"
    assert s["players"][1]["site"] == "taito-2" and s["movers"] == [0, 1, 2]
    legal = client.get(f"/api/tables/{code}/legal?player=0", headers=seats[0], auth=False).json["moves"]
    assert legal and all(m["type"] == "move" for m in legal)


def test_izakaya_bids_are_sealed_until_all_have_bid(client):
    code, host, seats = create(client, ["Aki", "Ben"], mode="izakaya")
    move(client, code, {"type": "turn-order", "order": [0, 1]}, seats[1])     # any phone of the table
    move(client, code, {"type": "bid", "player": 0, "amount": 300}, seats[0])
    assert table(client, code, seats[1])["state"]["bids"] == {"0": "sealed"}
    assert table(client, code, seats[0])["state"]["bids"] == {"0": 300}
    assert table(client, code)["state"]["bids"] == {"0": "sealed"}
    move(client, code, {"type": "bid", "player": 1, "amount": 300}, seats[1])
    s = table(client, code)["state"]
    assert s["order"] == [1, 0] and s["last"]["bids"] == {"0": 300, "1": 300}     # tied: they swap


# -- issue 21: calculators that refuse what cannot happen, the backs of the site cards ---------------
def test_score_calculator_refuses_what_cannot_happen_and_adds_blue_drinks(client):
    """"Once a player finishes their fourth site card, the game ends": five cards are a 422; Bottle
    Bonus's blue drinks kept count 200 yen each, one per round won (so never more than the cards)."""
    five = ["meguro-1", "meguro-2", "meguro-3", "meguro-4", "taito-1"]
    r = client.post("/api/jutaku/score", json={"sites": five})
    assert r.status_code == 422 and "completes their 4th" in r.json["reasons"][0]
    assert client.post("/api/jutaku/score", json={"sites": five[:4]}).status_code == 200
    r = client.post("/api/jutaku/score", json={"sites": ["meguro-1", "taito-2"], "blue_drinks": 2})
    assert r.status_code == 200 and r.json["yen"] == 14000 + 9000 + 2 * 200 and r.json["blue_drinks"] == 2
    assert client.post("/api/jutaku/score", json={"sites": ["meguro-1"], "blue_drinks": None}).json["yen"] == 14000
    for bad in (-1, 3):
        r = client.post("/api/jutaku/score", json={"sites": ["meguro-1", "taito-2"], "blue_drinks": bad})
        assert r.status_code == 422 and "blue" in r.json["reasons"][0], bad
    for wrong in ("2", True, 1.5):
        assert client.post("/api/jutaku/score", json={"sites": [], "blue_drinks": wrong}).status_code == 400


def test_izakaya_calculator_prices_total_the_coins_and_floors_are_possible(client):
    """"Place 100 yen coins on the left two color cards, 200 yen on the middle two color cards, and
    300 yen on the right two color cards" and the price action "move a single 100 yen coin from a
    color stock card to a different color stock card": the prices always total 1,200 yen."""
    r = client.post("/api/jutaku/izakaya", json={"prices": {"white": 100}, "buildings": []})       # 1,100
    assert r.status_code == 422 and "add up to 1,100 yen" in r.json["reasons"][0]
    assert "1,200" in r.json["reasons"][0]
    r = client.post("/api/jutaku/izakaya", json={"prices": {"white": 300}, "buildings": []})       # 1,300
    assert r.status_code == 422
    ok = client.post("/api/jutaku/izakaya", json={"prices": {"white": 100, "black": 200}, "buildings": []})
    assert ok.status_code == 200
    for floors in (0, -2):
        r = client.post("/api/jutaku/izakaya", json={"buildings": [{"floors": floors, "drinks": []}]})
        assert r.status_code == 422 and "1 floor at least" in r.json["reasons"][0], floors
    r = client.post("/api/jutaku/izakaya", json={"buildings": [{"floors": 40, "drinks": []}] * 2})
    assert r.status_code == 422 and "80 floors in all need more than the 69 pieces" in r.json["reasons"][0]
    r = client.post("/api/jutaku/izakaya", json={"buildings": [{"floors": 1, "drinks": []}] * 51})
    assert r.status_code == 422 and "the largest grid holds 50" in r.json["reasons"][0]


def test_site_card_page_shows_a_back_only_once_flipped(client):
    """"BLACK: Spend this drink to flip over your site card before you start building on it. Players
    cannot look at the back side before deciding to flip or not": at a Bottle Bonus table the QR page
    of a site card shows the face it lies on; its back only once a black drink flipped it."""
    code, host, seats = create(client, ["Aki", "Ben"], bottle_bonus=True)
    move(client, code, {"type": "start", "player": 0, "site": "suginami-1"}, seats[0])
    move(client, code, {"type": "start", "player": 1, "site": "taito-2"}, seats[1])
    client.set_cookie("tk_table", code)
    client.set_cookie("tk_table_token", seats[1]["Authorization"].split()[1])
    page = client.get("/q/jutaku/site-card/suginami-1").get_data(as_text=True)
    assert "White side: <span class=\"jt-req\">2.V</span>" in page          # the face it lies on
    assert 'data-side="blue"' not in page and "1.///" not in page and "Blue side" not in page
    assert "stays hidden until a black drink flips it" in page
    # the board page's data carries no back either: only the faces on the map's side
    board = client.get(f"/t/{code}/board").get_data(as_text=True)
    data = json.loads(board.split('id="page-data">', 1)[1].split("</script>", 1)[0])
    assert all({"white", "blue"} & set(site) == {"white"} for site in data["board"]["sites"].values())
    assert data["board"]["sites"]["suginami-1"]["white"]["req"] == "2.V"
    # once Aki's black drink flipped it, both faces are known (the rules' state at the table)
    from companion.games.jutaku import web
    from companion.services import services
    with client.application.app_context():
        game = services().games["jutaku"]
        state = table(client, code)["state"]
        state["players"][0]["drinks"] = {"black": 1}
        state = game.rules.apply(state, {"type": "spend", "player": 0, "drink": "black"}, Ctx(0, HOST))
        shown = web.site_card(game, "suginami-1", {"state": state, "me": 1})
        assert [(f["side"], f["folded"]) for f in shown["faces"]] == [("blue", False), ("white", False)]
        assert shown["back_hidden"] is False and shown["up"] == "blue"
        other = web.site_card(game, "taito-2", {"state": state, "me": 1})
        assert [f["side"] for f in other["faces"]] == ["white"] and other["back_hidden"] is True


def test_site_card_page_without_a_table_folds_the_other_side(client):
    page = client.get("/q/jutaku/site-card/meguro-1").get_data(as_text=True)
    assert 'data-side="white"' in page and '<details class="card jt-face jt-blue" id="other-side">' in page
    assert "look only once a black drink flips the card" in page


# -- issue 26: reveals are final for seats ------------------------------------------------------------
def undo(client, code, who):
    seq = client.get(f"/api/tables/{code}").json["seq"]
    return client.post(f"/api/tables/{code}/undo", json={"expected_seq": seq}, headers=who, auth=False)


def test_izakaya_the_last_bidder_cannot_undo_the_reveal_but_the_host_can(client):
    """Izakaya: "All reveal simultaneously". The last bidder sees every bid; undoing with their own
    token would let them bid again knowing the others': 422 with the reason. The host may (a ruling),
    and the history says it took back a reveal. A bid before the reveal stays one undo to fix."""
    code, host, seats = create(client, ["Aki", "Ben"], mode="izakaya")
    move(client, code, {"type": "turn-order", "order": [0, 1]}, seats[1])
    move(client, code, {"type": "bid", "player": 0, "amount": 500}, seats[0])
    r = undo(client, code, seats[0])                       # a mistake before the reveal: undone
    assert r.status_code == 200, r.json
    move(client, code, {"type": "bid", "player": 0, "amount": 500}, seats[0])
    move(client, code, {"type": "bid", "player": 1, "amount": 300}, seats[1])
    assert table(client, code, seats[1])["state"]["last"]["bids"] == {"0": 500, "1": 300}
    r = undo(client, code, seats[1])
    assert r.status_code == 422
    assert "only the host" in r.json["error"] and "revealed every sealed bid" in " ".join(r.json["reasons"])
    assert "Aki ¥500 · Ben ¥300 → Aki first" in " ".join(r.json["reasons"])
    assert table(client, code)["state"]["phase"] == "actions"          # nothing was taken back
    r = undo(client, code, host)
    assert r.status_code == 200, r.json
    t = table(client, code, seats[1])
    assert t["state"]["phase"] == "bid" and t["state"]["bids"] == {"0": "sealed"}
    events = client.get(f"/api/tables/{code}/events?since=0",
                        headers={"Accept": "application/json"}).json["events"]
    assert "The host took back a reveal" in events[-1]["summary"]


def test_izakaya_a_sealed_bid_can_be_changed_until_the_reveal(client):
    """Your own sealed amount stays yours to change until every bid is in (the page's Change)."""
    code, host, seats = create(client, ["Aki", "Ben", "Cleo"], mode="izakaya")
    move(client, code, {"type": "turn-order", "order": [0, 1, 2]}, seats[1])
    move(client, code, {"type": "bid", "player": 0, "amount": 500}, seats[0])
    move(client, code, {"type": "bid", "player": 1, "amount": 200}, seats[1])
    move(client, code, {"type": "bid", "player": 0, "amount": 100}, seats[0])   # Ben bid since: still changeable
    t = table(client, code, seats[0])
    assert t["state"]["bids"] == {"0": 100, "1": "sealed"} and t["state"]["phase"] == "bid"
    assert t["sealed"]["seats"] == [{"seat": 0, "sealed": True}, {"seat": 1, "sealed": True},
                                    {"seat": 2, "sealed": False}]
    move(client, code, {"type": "bid", "player": 2, "amount": 0}, seats[2])
    t = table(client, code, seats[2])
    assert t["sealed"]["seats"] == [] and t["sealed"]["reveal"]["text"] == \
        "Aki ¥100 · Ben ¥200 · Cleo ¥0 → Ben first, then Aki, Cleo"
    r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": t["seq"], "move": {
        "type": "bid", "player": 0, "amount": 900}}, headers=seats[0], auth=False)
    assert r.status_code == 422 and "bids are made at the start of a round" in " ".join(r.json["reasons"])


def test_bottle_bonus_the_move_on_which_the_companion_draws_is_final_for_seats(client):
    """Bottle Bonus with the companion's chance: the verdict that ends the round draws the drinks
    from the box; its sender cannot undo it and judge again knowing them (the host can)."""
    code, host, seats = create(client, ["Aki", "Ben"], bottle_bonus=True, chance="companion")
    for p in (0, 1):
        legal = client.get(f"/api/tables/{code}/legal?player={p}", headers=seats[p], auth=False).json["moves"]
        move(client, code, next(m for m in legal if m["type"] == "start"), seats[p])
    move(client, code, {"type": "begin"}, seats[0])
    move(client, code, {"type": "stop", "player": 0}, seats[0])
    move(client, code, {"type": "verdict", "player": 1, "builder": 0, "ok": True}, seats[1])
    assert table(client, code)["state"]["phase"] == "grab"
    r = undo(client, code, seats[1])
    assert r.status_code == 422 and "companion drew drinks" in " ".join(r.json["reasons"])
    assert undo(client, code, host).status_code == 200
    assert table(client, code)["state"]["phase"] == "check"
