"""What Jutaku's browser tests share: the table driven over HTTP (a real companion served by
ServerThread) and a phone of a given size holding one seat's token on the table's board page."""
from __future__ import annotations

import json

from phones import api

SIZES = [(390, 844), (360, 740)]


def table(server, players, options):
    """A Jutaku table and its tokens: (code, host token, [seat tokens])."""
    t = api(server, "/api/tables", {"game": "jutaku", "players": players, "options": options})
    tokens = [api(server, f"/api/tables/{t['code']}/seats", {"player": p})["token"] for p in range(len(players))]
    return t["code"], t["host_token"], tokens


def play(server, code, host, move):
    seq = api(server, f"/api/tables/{code}")["seq"]
    return api(server, f"/api/tables/{code}/moves", {"expected_seq": seq, "move": move}, host)


def phone(browser, server, code, seat, token, size=(390, 844), console="csp"):
    """(context, page, errors): the board page on a phone of `size` holding `seat`'s token. Errors
    are the page's uncaught ones and console messages: a Content-Security-Policy violation
    (console="csp") or any console error (console="error"). The browser's own dialogs are recorded
    in page.dialogs, never accepted. bypass_csp: wait_for_function evaluates strings, which the
    companion's policy forbids; the pages' own scripts are checked against it by the console."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, is_mobile=True, has_touch=True,
                              bypass_csp=True)
    page = ctx.new_page()
    errors, dialogs = [], []
    page.on("pageerror", lambda e: errors.append(str(e)))
    if console == "csp":
        page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    else:
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(server.url + "/")
    seats = {code: {"game": "jutaku", "player": seat, "token": token}}
    page.evaluate(f"localStorage.setItem('tk.tables', JSON.stringify({json.dumps(seats)}))")
    page.goto(server.url + f"/t/{code}/board")
    page.wait_for_function("window.tkTable && tkTable.mode === 'live' && tkTable.table", timeout=10_000)
    page.errors, page.dialogs = errors, dialogs
    return ctx, page, errors
