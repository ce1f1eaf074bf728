"""What a phone does when the table moved on under it (app.js's link.send), in a real Chromium:
a seat's move in a simultaneous phase overtaken by other seats' moves is played (the server decides
it on the current state: no "try again"); a move from before the phase changed is refused with a
409 and the page says, in words, what changed meanwhile (the 409's "since" lines)."""
from __future__ import annotations


from phones import open_phone, require_chromium, server_fixture

sync_api = require_chromium()

from testgames import SEALED_BID  # noqa: E402


server = server_fixture("conflict", threads=8, EXTRA_GAMES={"sealed-bid": SEALED_BID})


def test_a_late_move_is_played_or_explained(server, browser):
    api = server.app.test_client()
    made = api.post("/api/tables", json={"game": "sealed-bid", "players": ["Aki", "Ben", "Chie"],
                                         "options": {"chance": "table"}}).get_json()
    code, host = made["code"], {"Authorization": f"Bearer {made['host_token']}"}

    def move(seq, body):
        r = api.post(f"/api/tables/{code}/moves", json={"expected_seq": seq, "move": body}, headers=host)
        assert r.status_code == 200, r.get_json()

    move(0, {"type": "start-round", "prize": 2})
    ctx, page, errors = open_phone(browser, (360, 740))          # (wait_for_function evaluates strings)
    page.goto(server.url + "/join")
    page.evaluate("([code, seat]) => localStorage.setItem('tk.tables', JSON.stringify({[code]: seat}))",
                  [code, {"game": "sealed-bid", "player": 1, "at": 1, "host": made["host_token"]}])
    page.goto(f"{server.url}/t/{code}")
    page.wait_for_function("window.tkAtTable && tkAtTable.table && tkAtTable.table.seq === 1", timeout=15_000)
    move(1, {"type": "bid", "player": 0, "amount": 4})                 # Aki bids on another phone
    page.wait_for_function("tkAtTable.table.seq === 2", timeout=15_000)

    # Ben's phone taps its bid as if it had not seen Aki's yet (the same seq 1)
    late = page.evaluate("""() => { tkAtTable.table = Object.assign({}, tkAtTable.table, {seq: 1});
        return tkAtTable.send("/moves", {move: {type: "bid", player: 1, amount: 2}})
          .then((r) => ({ok: r.ok, status: r.status, seq: r.body.seq})); }""")
    assert late == {"ok": True, "status": 200, "seq": 3}

    move(3, {"type": "bid", "player": 2, "amount": 1})                 # Chie's bid reveals them
    move(4, {"type": "start-round", "prize": 3})
    page.wait_for_function("tkAtTable.table.seq === 5", timeout=15_000)
    said = page.evaluate("""() => { tkAtTable.table = Object.assign({}, tkAtTable.table, {seq: 3});
        return tkAtTable.send("/moves", {move: {type: "bid", player: 1, amount: 5}})
          .then((r) => ({status: r.status, text: tk.explain(r), seq: tkAtTable.table.seq})); }""")
    assert said["status"] == 409 and said["seq"] == 5                  # reloaded: the page is current
    assert said["text"].startswith("The table changed before your move arrived.")
    assert "Chie bids (sealed).; Round 2 starts." in said["text"]
    assert api.get(f"/api/tables/{code}").get_json()["seq"] == 5       # nothing was appended
    assert not errors, errors
    ctx.close()
