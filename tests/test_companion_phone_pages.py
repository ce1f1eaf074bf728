"""Every page at the narrowest phone width people use (360 px): nothing scrolls sideways (issue 9:
"the page widens to 396-426 px and the sticky Play bar slides off"), in a real Chromium. The board
twins are opened with each of their move builders shown, where the long pickers are."""
from __future__ import annotations


import pytest

from phones import launch, require_chromium  # noqa: E402

sync_api = require_chromium()

from companion import create_app  # noqa: E402
from companion.testing import ServerThread, token_client  # noqa: E402
from testgames import TEST_GAMES  # noqa: E402

WIDTH = 360


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    app = create_app({"DATA_DIR": tmp_path_factory.mktemp("phone"), "EXTRA_GAMES": TEST_GAMES})
    client = token_client(app)
    pages = ["/", "/join", "/join?code=nope", "/plays", "/nowhere"]
    boards = []
    for game in app.extensions["tokyo"].games.values():
        if not game.playable:
            continue
        pages.append(f"/new/{game.id}")
        low = game.players[0]
        names = ["Aki", "Ben", "Chie", "Dan", "Emi"][:max(low, 2)][:game.players[1]]
        r = client.post("/api/tables", json={"game": game.id, "players": names})
        if r.status_code != 201:
            continue
        code = r.json["code"]
        pages.append(f"/t/{code}")
        # a second table in the middle of a game (companion chance, a few legal moves in): its
        # pages show hands, pickers and histories
        options = dict(game.chance_modes.get("companion", next(iter(game.chance_modes.values()), {})))
        r = client.post("/api/tables", json={"game": game.id, "players": names, "options": options})
        if r.status_code == 201:
            mid = r.json["code"]
            for seq in range(8):
                moves = client.get(f"/api/tables/{mid}/legal").json.get("moves") or []
                if not moves:
                    break
                client.post(f"/api/tables/{mid}/moves", json={"expected_seq": seq, "move": moves[len(moves) // 2]})
            pages.append(f"/t/{mid}")
            if game.web is not None and game.web.board is not None:
                boards.append(f"/t/{mid}/board")
        if game.web is not None and game.web.board is not None:
            boards.append(f"/t/{code}/board")
        for calc in (game.web.calculators if game.web else ()):
            with app.test_request_context():
                from flask import url_for
                pages.append(url_for(calc.endpoint))
        for c in (game.data.components() if game.data is not None else [])[:3]:
            pages.append(f"/q/{game.id}/{c.kind}/{c.id}")
    with ServerThread(app, threads=16) as server:
        yield server.url, pages, boards


@pytest.fixture(scope="module")
def page():
    with sync_api.sync_playwright() as p:
        browser = launch(p)
        ctx = browser.new_context(viewport={"width": WIDTH, "height": 740}, is_mobile=True,
                                  has_touch=True, bypass_csp=True)
        yield ctx.new_page()
        browser.close()


def overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def test_no_page_scrolls_sideways(site, page):
    url, pages, _ = site
    wide = {}
    for path in pages:
        page.goto(url + path)
        page.wait_for_timeout(150)
        if overflow(page) > WIDTH:
            wide[path] = overflow(page)
    assert not wide, wide


def test_no_board_builder_scrolls_sideways(site, page):
    url, _, boards = site
    wide = {}
    for path in boards:
        page.goto(url + path)
        page.wait_for_timeout(400)
        tabs = page.locator("#types button")
        for i in range(tabs.count()):
            tabs.nth(i).click()
            page.wait_for_timeout(100)
            for k in range(3):      # a pick may redraw the builder (a list folds once chosen): look again
                picks = page.locator("#builder .picks button")
                if picks.count() > k:
                    picks.nth(k).click()
            if overflow(page) > WIDTH:
                wide[f"{path} {tabs.nth(i).inner_text()}"] = overflow(page)
    assert not wide, wide


def test_kanji_show_without_a_japanese_font_on_the_phone(site, page):
    """This Chromium has no Japanese font: the pages load the project's own subset for kanji and
    kana (issue 9: "Japanese text shows as boxes"), and only for those characters."""
    url, _, _ = site
    page.goto(url + "/q/shinjuku/ward/chiyoda")
    page.evaluate("document.fonts.ready")
    page.wait_for_function("document.fonts.check('16px \"Tokyo Kit JP\"', '千代田区')", timeout=5_000)
    used = page.evaluate("""() => [...document.fonts].filter(f => f.family.includes('Tokyo Kit JP')
                                                            && f.status === 'loaded').length""")
    assert used >= 1
    # both weights load with the page: text a script writes before the font has arrived (the board
    # page's map key, "Matsuri 祭") stayed as boxes in Chromium once the font was in
    preloaded = page.evaluate("[...document.querySelectorAll('link[rel=preload][as=font]')].map(l => l.href)")
    assert {h.rsplit("/", 1)[-1] for h in preloaded} >= {"NotoSansJP-Kit-Regular.ttf", "NotoSansJP-Kit-Bold.ttf"}
    import requests
    r = requests.get(url + "/fonts/NotoSansJP-Kit-Regular.ttf", timeout=10)
    assert r.status_code == 200 and r.content[:4] == b"\x00\x01\x00\x00"
    assert requests.get(url + "/fonts/..%2Fpyproject.toml", timeout=10).status_code == 404
