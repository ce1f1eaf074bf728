"""Izakaya at the table on two phones (390 x 844 and 360 x 740, Debian's chromium), issue 25: the
sealed bids seen as a table sees them (who has sealed, your own amount with a Change, the reveal as a
banner on every phone until dismissed), quick amount chips, and the grid as the input (a card, an edge
or a corner tapped, its action's buttons beside it; "left" and "up" claims). The taps of a round are
counted and printed (the issue's before: a bid 4-7 taps, a claim 7, a bottle 5)."""
from __future__ import annotations


from phones import require_chromium, server_fixture  # noqa: E402

sync_api = require_chromium()

from . import live  # noqa: E402
from .live import api, table  # noqa: E402

ALICE, BEN = (390, 844), (360, 740)


server = server_fixture("jutaku-izakaya")


def phone(browser, server, code, seat, token, size):
    return live.phone(browser, server, code, seat, token, size, console="error")


def state(server, code):
    return api(server, f"/api/tables/{code}")["state"]


def wait_seq(page, seq):
    page.wait_for_function(f"tkTable.table && tkTable.table.seq >= {seq}", timeout=5_000)


def taps(page) -> int:
    return page.evaluate("window.tkIzakaya.taps")


def test_sealed_bids_seen_by_the_table_and_a_round_played_on_the_grid(server, browser):
    code, host, (aki_t, ben_t) = table(server, ["Aki", "Ben"], {"mode": "izakaya", "chance": "companion"})
    c1, aki, e1 = phone(browser, server, code, 0, aki_t, ALICE)
    c2, ben, e2 = phone(browser, server, code, 1, ben_t, BEN)
    try:
        for page in (aki, ben):
            page.locator("#sealed").get_by_text("Ben choosing…").wait_for(timeout=5_000)
        # Aki bids with a chip: 2 taps; Ben's phone shows that she has sealed, never the amount
        aki.locator("#bid-box [data-amount='500']").click()
        aki.get_by_role("button", name="Seal my bid: ¥500").click()
        ben.locator("#sealed").get_by_text("Aki sealed ✓").wait_for(timeout=5_000)
        assert "Ben choosing…" in ben.locator("#sealed").inner_text()
        assert "¥500" not in ben.locator("#sealed").inner_text()
        assert ben.evaluate("JSON.stringify(tkTable.table.state.bids)") == '{"0":"sealed"}'
        # her own amount stays on her phone, with a Change
        assert aki.locator("#my-bid").inner_text() == "¥500"
        bid_taps = {"aki": taps(aki)}
        aki.get_by_role("button", name="Change").click()
        aki.locator("#bid-box [data-amount='300']").click()
        aki.get_by_role("button", name="+").click()
        aki.get_by_role("button", name="Seal my bid: ¥400").click()
        aki.wait_for_function("document.querySelector('#my-bid') && "
                              "document.querySelector('#my-bid').textContent === '¥400'", timeout=5_000)
        aki.screenshot(path=f"/tmp/izakaya-sealed-{ALICE[0]}.png", full_page=True)
        ben.screenshot(path=f"/tmp/izakaya-waiting-{BEN[0]}.png", full_page=True)
        ben.locator("#bid-box [data-amount='300']").click()
        ben.get_by_role("button", name="Seal my bid: ¥300").click()
        bid_taps["ben"] = taps(ben)
        # the reveal: a banner on both phones, until dismissed
        for page in (aki, ben):
            banner = page.locator(".sealed-reveal")
            banner.wait_for(timeout=5_000)
            assert "Aki ¥400 · Ben ¥300 → Aki first" in banner.inner_text()
        ben.screenshot(path=f"/tmp/izakaya-reveal-{BEN[0]}.png", full_page=True)
        ben.locator(".sealed-reveal").get_by_role("button", name="Dismiss the reveal").click()
        assert ben.locator(".sealed-reveal").count() == 0
        ben.reload()
        ben.wait_for_function("window.tkTable && tkTable.table && document.querySelector('#grid svg')", timeout=10_000)
        assert ben.locator(".sealed-reveal").count() == 0 and aki.locator(".sealed-reveal").count() == 1
        assert "Bid sealed" not in aki.locator("#msg").inner_text()

        s = state(server, code)
        assert s["phase"] == "actions" and s["order"] == [0, 1]
        seq = api(server, f"/api/tables/{code}")["seq"]
        before = {"aki": taps(aki), "ben": taps(ben)}          # (Ben reloaded: his count starts again)
        # 1. Aki claims r3 c3 from the left (disc between r3 c2 and r3 c3): the card, then "disc left"
        aki.locator("[data-pick='card:2,2']").click()
        aki.locator("#act").get_by_role("button", name="Claim · disc left").click()
        seq += 1
        wait_seq(ben, seq)
        assert state(server, code)["edges"] == {"1,2|2,2": 0} and state(server, code)["owners"] == {"2,2": 0}
        disc = ben.locator(".claim-disc[data-seat='0']")
        assert disc.count() == 1 and disc.get_attribute("data-symbol") == "circle"
        # 2. Ben: a bottle, the corner spot then the drink
        wait_seq(ben, seq)
        ben.locator("[data-pick^='corner:']").first.click()
        ben.locator("#act .jt-drink[data-drink='red']").click()
        seq += 1
        wait_seq(aki, seq)
        assert list(state(server, code)["corners"].values()) == ["red"]
        # drinks are round and filled, claim discs square outlined: never alike
        assert aki.locator("circle.drink[data-drink='red']").count() == 1
        assert aki.locator(".claim-disc rect").count() == 1
        # 3. Aki: an edge tapped, then the card on its left
        aki.locator("[data-pick='edge:0,0|1,0']").click()
        aki.locator("#act").get_by_role("button", name="Claim the left card").click()
        seq += 1
        wait_seq(ben, seq)
        assert state(server, code)["owners"] == {"2,2": 0, "0,0": 0}
        # 4. Ben: the price adjustment, from and to
        ben.locator("#price .jt-drink[data-drink='purple']").click()
        ben.locator("#price .jt-drink[data-drink='red']").click()
        seq += 1
        wait_seq(aki, seq)
        s = state(server, code)
        assert s["prices"]["purple"] == 200 and s["prices"]["red"] == 300
        # the price spot says why it is closed
        assert "closed" in aki.locator("#price-closed").inner_text()
        aki.screenshot(path=f"/tmp/izakaya-actions-{ALICE[0]}.png", full_page=True)
        # 5. Aki builds on r1 c1
        aki.locator("[data-pick='card:0,0']").click()
        aki.locator("#act").get_by_role("button", name="Build here (1F)").click()
        seq += 1
        wait_seq(ben, seq)
        assert state(server, code)["buildings"] == {"0,0": [{"floors": 1, "pieces": 1}]}
        # 6. Ben claims r3 c1 from above ("up": the disc between r2 c1 and r3 c1)
        ben.locator("[data-pick='card:0,2']").click()
        ben.screenshot(path=f"/tmp/izakaya-pick-{BEN[0]}.png")
        ben.locator("#act").get_by_role("button", name="Claim · disc top").click()
        seq += 1
        wait_seq(aki, seq)
        s = state(server, code)
        assert s["edges"]["0,1|0,2"] == 1 and s["owners"]["0,2"] == 1
        assert s["phase"] == "bid" and s["phase_no"] == 2
        action_taps = taps(aki) - before["aki"] + taps(ben) - before["ben"]
        print(f"\nIzakaya taps, round 1 (2 players): bids {2 + bid_taps['ben']} "
              f"(Aki 2 with a chip; her Change to ¥400 took {before['aki'] - bid_taps['aki']} more), "
              f"6 actions {action_taps}; before (the same round on the dropdown page of b92f9a9, a select "
              "changed = 2 taps): bids 9 (Aki ¥400 5, Ben ¥300 4), 6 actions 22 (5, 3, 1, 5, 1, 7)")
        assert action_taps == 12 and bid_taps["ben"] == 2
        # round 2's bids: the reveal of round 1 stays on Aki's phone, statuses are new
        aki.locator("#sealed").get_by_text("Aki choosing…").wait_for(timeout=5_000)
        assert e1 == [] and e2 == []
    finally:
        c1.close()
        c2.close()
