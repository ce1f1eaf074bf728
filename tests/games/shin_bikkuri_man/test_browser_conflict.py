"""Issue 26 on the Shin Bikkuri Man board page: a table-deck entry that only a hand rules out is
accepted (judged on public information) and shown to the host, with one tap per colour to set the
wrong card right ("correct-card"); a seat whose own hand does not show it is told nothing."""
from __future__ import annotations

import pytest

from phones import require_chromium

sync_api = require_chromium()

from companion import create_app  # noqa: E402
from companion.testing import ServerThread  # noqa: E402


@pytest.mark.parametrize("width, height", [(390, 844), (360, 740)])
def test_the_host_sees_the_conflict_and_sets_the_card_right(tmp_path, browser, width, height):
    app = create_app({"DATA_DIR": tmp_path, "SSE_PER_CLIENT": 16, "SSE_HEARTBEAT_S": 2})
    api = app.test_client()
    with ServerThread(app, threads=16) as s:
        made = api.post("/api/tables", json={"game": "shin-bikkuri-man", "players": ["Aki", "Ben", "Chie", "Dan"],
                                             "options": {"deck": "table"}}).get_json()
        code, host = made["code"], {"Authorization": f"Bearer {made['host_token']}"}
        moves = ({"type": "fill-harbour", "cards": ["red"] * 7},
                 {"type": "deal-hand", "player": 3, "cards": ["red"] * 4},
                 {"type": "deal-hand", "player": 2, "cards": ["red"] * 3},     # all 14 red are out
                 {"type": "deal-hand", "player": 1, "cards": ["red", "blue", "blue"]})
        for seq, move in enumerate(moves):
            r = api.post(f"/api/tables/{code}/moves", headers=host, json={"expected_seq": seq, "move": move})
            assert r.status_code == 200, r.get_json()
        phones = {}
        for who, seat in (("host", {"game": "shin-bikkuri-man", "player": 0, "at": 1, "host": made["host_token"]}),
                          ("ben", None)):
            ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True,
                                      has_touch=True, bypass_csp=True)
            page = ctx.new_page()
            if seat:
                page.goto(s.url + "/join")
                page.evaluate("([code, seat]) => localStorage.setItem('tk.tables', JSON.stringify({[code]: seat}))",
                              [code, seat])
            else:
                page.goto(f"{s.url}/t/{code}")
                page.locator("#seat-buttons button", has_text="Ben").click()
                page.locator("#whoami", has_text="you are Ben").wait_for(timeout=15_000)
            page.goto(f"{s.url}/t/{code}/board")
            page.wait_for_function("window.tkTable && tkTable.table", timeout=15_000)
            phones[who] = page
        host_page, ben = phones["host"], phones["ben"]
        box = host_page.locator("#conflicts")
        box.wait_for(state="visible", timeout=5_000)
        assert "1 red card more than the game's 14" in box.inner_text()
        assert ben.locator("#conflicts").is_hidden()
        assert host_page.evaluate("document.documentElement.scrollWidth") <= width
        host_page.screenshot(path=f"/tmp/sbm_conflict_{width}.png")
        host_page.locator("#conflicts [data-correct='1:blue']").click()
        box.wait_for(state="hidden", timeout=5_000)
        state = api.get(f"/api/tables/{code}", headers=host).get_json()["state"]
        hand = {c: n for c, n in state["players"][1]["hand"].items() if n}
        assert state["conflicts"] == [] and hand == {"blue": 3}
        for page in phones.values():
            page.context.close()
