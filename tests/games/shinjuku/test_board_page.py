"""The board page as players use it (issue 9): Play only for a whole move, and a move being built
is reset, with a word, when another phone changes the table. Two phones in a real Chromium."""
from __future__ import annotations

import re

import pytest
import requests

from .tables import table_after
from phones import one_test, open_phone, require_chromium, server_fixture

require_chromium()

#: One companion for the module's tests (each makes its own table); several phones share 127.0.0.1.
server = server_fixture("shinjuku_board_page", SSE_PER_CLIENT=16)



def _aki_on_the_board(browser, server, code: str):
    """Aki's phone: her seat taken with a tap on the table page, then the board page opened."""
    _, aki, _ = open_phone(browser)
    aki.goto(f"{server.url}/t/{code}")
    aki.locator("#seat-buttons button", has_text="Aki").click()
    aki.locator("#whoami", has_text="you are Aki").wait_for(timeout=15_000)   # the seat's token kept
    aki.goto(f"{server.url}/t/{code}/board")
    return aki


def test_play_waits_for_a_whole_move_and_a_stale_one_is_reset(server, browser):
    with one_test(server, browser) as s:
        code, host = table_after(s, {"type": "place-customers", "player": 0},
                                 options={"deck": "companion"}, seed=4)
        aki = _aki_on_the_board(browser, s, code)
        aki.wait_for_function("window.tkTable && tkTable.table && tkTable.mode === 'live'", timeout=15_000)
        # Play by hand here: a whole move must not play by itself while the test looks (on a loaded
        # machine the 1.2 s of the autoplay setting passed before Clear, and the Matsuri moved)
        aki.locator("#autoplay-on").uncheck()
        aki.locator("#types button", has_text=re.compile("Matsuri")).first.click()
        assert aki.locator("#play").is_disabled()              # no ward chosen yet
        assert "still to choose: the ward" in aki.locator("#summary").inner_text()
        aki.locator("#builder .picks button").first.click()
        assert aki.locator("#play").is_enabled() and "ready" in aki.locator("#summary").inner_text()
        aki.locator("#clear").click()
        # Aki starts building; the host's phone moves the Matsuri meanwhile
        aki.locator("#types button", has_text=re.compile("Matsuri")).first.click()
        ward = requests.get(f"{s.url}/api/tables/{code}", timeout=10).json()["needs"]["wards"][0]
        assert requests.post(f"{s.url}/api/tables/{code}/moves", headers=host, timeout=10, json={
            "expected_seq": 1, "move": {"type": "move-matsuri", "player": 0, "ward": ward}}).status_code == 200
        aki.locator("#msg", has_text="changed on another phone").wait_for(timeout=3_000)
        assert aki.locator("#summary").inner_text() == "Choose a move under “Enter a move”."
        # the bar says it; the line over the map is empty until a move is chosen (the game screen, issue 23)
        assert aki.locator("#map-hint").inner_text() == ""
        assert aki.locator("#move-h").inner_text() == "Enter a move"
        assert aki.locator("#play").is_disabled()
        aki.context.close()


def test_a_card_entered_wrongly_is_corrected_on_the_board_page(server, browser):
    with one_test(server, browser) as s:
        code, host = table_after(s, {"type": "deal-hand", "player": 0, "cards": ["ota", "kita", "ota", "chuo"]})
        aki = _aki_on_the_board(browser, s, code)
        aki.wait_for_function("window.tkTable && tkTable.table", timeout=15_000)
        aki.locator("#correct summary").click()
        aki.locator("#correct-fields .card", has_text="The card entered").locator("button", has_text="Ota").click()
        aki.locator("#correct-fields .card", has_text="It really was").locator("button", has_text="Nakano").click()
        aki.locator("#correct-fields button", has_text="Correct: Ota → Nakano").click()
        aki.locator("#correct-msg.good").wait_for(timeout=5_000)
        assert aki.evaluate("document.documentElement.scrollWidth") <= 390
        aki.context.close()
        r = requests.get(f"{s.url}/api/tables/{code}", headers=host, timeout=10).json()
        assert sorted(r["state"]["players"][0]["hand"]) == ["chuo", "kita", "nakano", "ota"]


def _store_and_customers_table(url):
    """Table deck, Aki and Ben: Aki has opened a food store at Shinjuku, where a food and a food “2”
    customer wait; Aki's second action is next (every entry through the API, as phones send them)."""
    r = requests.post(url + "/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben"]})
    code, host = r.json()["code"], {"Authorization": f"Bearer {r.json()['host_token']}"}
    moves = (
        {"type": "deal-hand", "player": 0, "cards": ["shinjuku", "shinjuku", "ota", "kita"]},
        {"type": "deal-hand", "player": 1, "cards": ["ota", "kita", "chuo", "chuo"]},
        {"type": "seed-ward", "ward": "shinjuku", "customers": ["food", "food-2"]},
        {"type": "seed-ward", "ward": "adachi", "customers": ["books", "books"]},
        {"type": "seed-ward", "ward": "edogawa", "customers": ["clothing", "clothing"]},
        {"type": "seed-ward", "ward": "nerima", "customers": ["electronics", "electronics"]},
        {"type": "place-matsuri", "ward": "koto"},
        {"type": "fill-queue", "cards": ["ota", "setagaya", "suginami", "itabashi"], "customers": ["books", "food"]},
        {"type": "place-customers", "player": 0, "card": "minato", "customers": ["books"]},
        {"type": "move-matsuri", "player": 0, "ward": "chuo"},
        {"type": "open-store", "player": 0, "card": "shinjuku", "station": "shinjuku", "goods": "food"})
    for seq, move in enumerate(moves):
        assert requests.post(f"{url}/api/tables/{code}/moves", headers=host, timeout=10, json={
            "expected_seq": seq, "move": move}).status_code == 200
    return code, host


@pytest.mark.parametrize("width", [390, 360])
def test_the_mover_chooses_which_customer_a_store_takes_and_the_history_says_so(server, browser, width):
    """Moving customers: the store's choice is offered with the rules' default preselected (a “2”
    for the mover's own store), one tap changes it, and the answer and the history say who got what."""
    with one_test(server, browser) as s:
        code, host = _store_and_customers_table(s.url)
        ctx = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True,
                                  bypass_csp=True)
        aki = ctx.new_page()
        aki.goto(f"{s.url}/t/{code}")
        aki.locator("#seat-buttons button", has_text="Aki").click()
        aki.locator("#whoami", has_text="you are Aki").wait_for(timeout=15_000)   # the seat's token kept
        aki.goto(f"{s.url}/t/{code}/board")
        aki.wait_for_function("window.tkTable && tkTable.table && tkTable.mode === 'live'", timeout=15_000)
        aki.locator("#autoplay-on").uncheck()       # the default would play by itself: the choice is looked at first
        aki.locator("#types button", has_text="Move customers").click()
        aki.locator("#builder .card", has_text="Card to play").locator("button", has_text="Shinjuku").click()
        path = aki.locator("#builder .card", has_text="Path")
        path.locator("button", has_text="Shinjuku").first.click()          # the ward (the card is wild)
        path.locator("button", has_text="Shinjuku").first.click()          # its station
        choice = aki.locator("#builder .card", has_text="Who takes which customer")
        assert "Aki’s Shinjuku food store takes:" in choice.inner_text()
        buttons = choice.locator("button")
        assert buttons.count() == 2
        assert choice.locator("button[aria-pressed=true]").inner_text() == "Food “2”"   # the default
        assert "Aki gets Food “2”" in aki.locator("#summary").inner_text()
        assert aki.evaluate("document.documentElement.scrollWidth") <= width
        choice.locator("button", has_text=re.compile("^Food$")).click()
        assert choice.locator("button[aria-pressed=true]").inner_text() == "Food"
        aki.locator("#play").click()
        aki.locator("#msg.good", has_text="Aki's Shinjuku store took a food customer").wait_for(timeout=5_000)
        assert "2 food customers stay in Shinjuku" in aki.locator("#msg").inner_text()
        aki.context.close()
        table = requests.get(f"{s.url}/api/tables/{code}", headers=host, timeout=10).json()
        assert table["state"]["players"][0]["customers"] == ["food"]
        assert table["state"]["wards"]["shinjuku"] == ["food-2"]
        events = requests.get(f"{s.url}/api/tables/{code}/events", params={"since": 0},
                              headers={"Accept": "application/json"}, timeout=10).json()["events"]
        last = events[-1]
        assert last["move"]["take"] == {"shinjuku": "food"}
        assert "Aki's Shinjuku store took a food customer" in last["summary"]


def test_a_store_takes_its_default_customer_with_no_play_tap(server, browser):
    """Moving customers past a store with a choice, to the end of the built track: the rules' default
    (shown) plays with the move by itself (the autoplay), no Play tap; the store got the default."""
    with one_test(server, browser) as s:
        code, host = _store_and_customers_table(s.url)
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  bypass_csp=True)
        aki = ctx.new_page()
        aki.goto(f"{s.url}/t/{code}")
        aki.locator("#seat-buttons button", has_text="Aki").click()
        aki.locator("#whoami", has_text="you are Aki").wait_for(timeout=15_000)
        aki.goto(f"{s.url}/t/{code}/board")
        aki.wait_for_function("window.tkTable && tkTable.table && tkTable.mode === 'live'", timeout=15_000)
        aki.locator("#types button", has_text="Move customers").click()
        aki.locator("#builder .card", has_text="Card to play").locator("button", has_text="Shinjuku").click()
        path = aki.locator("#builder .card", has_text="Path")
        path.locator("button", has_text="Shinjuku").first.click()          # the ward (the card is wild)
        path.locator("button", has_text="Shinjuku").first.click()          # its station
        path.locator("button", has_text="Yoyogi").first.click()            # along the only built track: the last tap
        aki.locator("#msg.good", has_text="Aki's Shinjuku store took").wait_for(timeout=15_000)
        aki.context.close()
        table = requests.get(f"{s.url}/api/tables/{code}", headers=host, timeout=10).json()
        assert table["state"]["players"][0]["customers"] == ["food-2"]      # the default: a “2” for her own store


def test_station_names_stay_readable_over_the_stores_on_the_map(server, browser):
    """A store stands on its station: the map's names are painted over the live pieces, with a
    white halo, so a store never hides the name of its station."""
    with one_test(server, browser) as s:
        code, _ = _store_and_customers_table(s.url)
        page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                   has_touch=True).new_page()
        page.goto(f"{s.url}/t/{code}/board")
        page.locator("#live-pieces [data-store=shinjuku]").wait_for(timeout=60_000)
        after = page.evaluate("""() => {
            const pieces = document.querySelector('#live-pieces'), labels = document.querySelector('#map-labels');
            return !!(pieces.compareDocumentPosition(labels) & Node.DOCUMENT_POSITION_FOLLOWING); }""")
        assert after, "the station names are painted under the stores"
        name = page.locator("#map-labels [data-text=Shinjuku]").first
        halo = name.evaluate("e => [getComputedStyle(e).stroke, getComputedStyle(e).paintOrder]")
        assert halo[0] == "rgb(255, 255, 255)" and halo[1].startswith("stroke"), halo
        page.context.close()


PLAYING = "xpath=following-sibling::ul[1]"       # the list under "Playing this card"


@pytest.mark.parametrize("width", [390, 360])
def test_a_ward_card_page_names_its_sakura_stations_or_says_there_is_none(server, browser, width):
    with one_test(server, browser) as s:
        page = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=True).new_page()
        page.goto(f"{s.url}/q/shinjuku/ward/chuo")
        playing = page.locator("h2", has_text="Playing this card").locator(PLAYING).inner_text()
        assert "Upgrade store" not in playing and "No station of Chuo has a sakura" in playing
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.goto(f"{s.url}/q/shinjuku/ward/shinjuku")
        playing = page.locator("h2", has_text="Playing this card").locator(PLAYING).inner_text()
        assert "Upgrade store at Shinjuku or Takadanobaba" in playing
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.context.close()
