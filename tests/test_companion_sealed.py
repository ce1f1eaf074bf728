"""sealed.js (every game page of a table, loaded by at_table.html): a table's "sealed" (contract.Rules.
sealed) shown as each seat's status and the last reveal as a banner that stays until dismissed or the
next reveal; the dismissed reveal is remembered per table. Driven with tk.renderSealed on a real page
(Debian's chromium, 360 x 740), so any game's sealed choices (Izakaya's bids, Capsule Hotel's loans)
get the same."""
from __future__ import annotations

import json
import urllib.request


from phones import open_phone, require_chromium, server_fixture  # noqa: E402

sync_api = require_chromium()


server = server_fixture("sealed", threads=8)


def post(server, path, body):
    req = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "Accept": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


RENDER = """([table, code]) => { const box = document.createElement('div'); box.id = 'probe';
  document.body.append(box); tk.renderSealed(box, table, code); return box.hidden; }"""


def test_sealed_statuses_and_the_reveal_banner(server, browser):
    t = post(server, "/api/tables", {"game": "jutaku", "players": ["Aki", "Ben"], "options": {"mode": "countdown"}})
    ctx, page, errors = open_phone(browser, (360, 740))
    try:
        page.goto(server.url + f"/t/{t['code']}/board")
        page.wait_for_function("!!(window.tkTable && tkTable.table && window.tk.renderSealed)", timeout=10_000)
        # a game with nothing sealed now: no box on the page
        assert page.locator("#sealed").is_hidden()
        names = ["<b>Aki</b>", "Ben"]
        bidding = {"players": names, "you": {"player": 1}, "result": None,
                   "sealed": {"label": "loans", "seats": [{"seat": 0, "sealed": True}, {"seat": 1, "sealed": False}],
                              "reveal": None}}
        assert page.evaluate(RENDER, [bidding, "ABC"]) is False
        probe = page.locator("#probe")
        assert probe.locator("li").all_text_contents() == [
            "Sealed loans: 1 still choosing", "<b>Aki</b> sealed ✓", "Ben choosing…"]       # names are text
        assert probe.locator("li.me").inner_text() == "Ben choosing…"
        reveal = {"id": "r1", "text": "Aki ¥8,000 · Ben ¥6,000", "values": []}
        revealed = {**bidding, "sealed": {"label": "loans", "seats": [], "reveal": reveal}}
        page.evaluate("document.querySelector('#probe').remove()")
        page.evaluate(RENDER, [revealed, "ABC"])
        assert "Aki ¥8,000 · Ben ¥6,000" in probe.locator(".sealed-reveal").inner_text()
        probe.get_by_role("button", name="Dismiss the reveal").click()
        assert probe.is_hidden()
        # remembered: the same reveal stays dismissed at this table, not at another; a new one shows
        page.evaluate("document.querySelector('#probe').remove()")
        assert page.evaluate(RENDER, [revealed, "ABC"]) is True
        page.evaluate("document.querySelector('#probe').remove()")
        assert page.evaluate(RENDER, [revealed, "XYZ"]) is False
        page.evaluate("document.querySelector('#probe').remove()")
        nxt = {**revealed, "sealed": {"label": "loans", "seats": [], "reveal": {**reveal, "id": "r2"}}}
        assert page.evaluate(RENDER, [nxt, "ABC"]) is False
        # a game over: statuses no longer shown
        page.evaluate("document.querySelector('#probe').remove()")
        assert page.evaluate(RENDER, [{**bidding, "result": {"winners": [0]}}, "ABC"]) is True
        assert errors == []
    finally:
        ctx.close()


def test_the_table_page_shows_who_has_sealed(server, browser):
    """The table page (not only the game's board page) shows the sealed statuses of a real table:
    Izakaya with the companion drawing the first order, Aki's bid sealed, Ben still choosing."""
    t = post(server, "/api/tables", {"game": "jutaku", "players": ["Aki", "Ben"],
                                     "options": {"mode": "izakaya", "chance": "companion"}})
    host = {"Authorization": f"Bearer {t['host_token']}", "Content-Type": "application/json"}
    table = json.loads(urllib.request.urlopen(server.url + f"/api/tables/{t['code']}").read())
    bid = next(m for m in json.loads(urllib.request.urlopen(urllib.request.Request(
        server.url + f"/api/tables/{t['code']}/legal", headers=host)).read())["moves"]
        if m["type"] == "bid" and m["player"] == 0)
    req = urllib.request.Request(server.url + f"/api/tables/{t['code']}/moves", method="POST", headers=host,
                                 data=json.dumps({"expected_seq": table["seq"], "move": bid}).encode())
    urllib.request.urlopen(req).read()
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    try:
        page.goto(server.url + f"/t/{t['code']}")
        box = page.locator("#sealed")
        box.wait_for(state="visible", timeout=10_000)
        assert box.locator("li", has_text="Aki sealed ✓").count() == 1
        assert box.locator("li", has_text="Ben choosing…").count() == 1
    finally:
        ctx.close()
