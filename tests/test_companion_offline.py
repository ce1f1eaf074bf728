"""The companion as an installed app (issue 9): a manifest and a service worker, so that a page once
loaded opens again with the server gone; and a move made with no connection waits on the phone,
with its idempotency key, and is sent once when the connection returns. In a real Chromium."""
from __future__ import annotations


import requests

from phones import launch, require_chromium  # noqa: E402

sync_api = require_chromium()

from companion import create_app  # noqa: E402
from companion.testing import ServerThread  # noqa: E402
from testgames import COUNTER  # noqa: E402



def test_manifest_and_icons(tmp_path):
    client = create_app({"DATA_DIR": tmp_path}).test_client()
    m = client.get("/manifest.webmanifest")
    assert m.status_code == 200 and m.mimetype == "application/manifest+json"
    assert m.json["display"] == "standalone" and m.json["start_url"] == "/"
    for icon in m.json["icons"]:
        r = client.get(icon["src"])
        assert r.status_code == 200 and r.data[:8] == b"\x89PNG\r\n\x1a\n"
    sw = client.get("/sw.js")
    assert sw.status_code == 200 and sw.headers["Service-Worker-Allowed"] == "/"
    assert 'rel="manifest"' in client.get("/").get_data(as_text=True)


def test_offline_move_waits_and_the_app_opens_without_the_server(tmp_path):
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}})
    server = ServerThread(app, threads=8).__enter__()
    try:
        with sync_api.sync_playwright() as p:
            browser = launch(p)
            ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                      has_touch=True, bypass_csp=True,
                                      service_workers="allow")   # (what this test is about)
            page = ctx.new_page()
            # the phone that starts the table (it holds the host token)
            page.goto(server.url + "/new/counter")
            page.get_by_role("button", name="Start the table").click()
            page.wait_for_url("**/t/*")
            code = page.url.rsplit("/", 1)[1]
            page.wait_for_function("window.tkTable && tkTable.table", timeout=10_000)
            page.evaluate("navigator.serviceWorker.ready")
            page.reload()                                  # now the service worker controls the page
            page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=10_000)
            page.wait_for_function("window.tkTable && tkTable.table", timeout=10_000)

            # no connection: the move waits on the phone ...
            ctx.set_offline(True)
            result = page.evaluate("""async () => (await tkTable.send('/moves',
                {move: {player: 0, add: 2}}))""")
            assert result["queued"] and page.locator("#tk-outbox").inner_text().startswith("1 change")
            assert requests.get(f"{server.url}/api/tables/{code}", timeout=5).json()["seq"] == 0
            # ... and is sent once the connection returns
            ctx.set_offline(False)
            page.evaluate("window.dispatchEvent(new Event('online'))")
            page.wait_for_function("tkTable.table && tkTable.table.seq === 1", timeout=15_000)
            assert page.locator("#tk-outbox").count() == 0
            t = requests.get(f"{server.url}/api/tables/{code}", timeout=5).json()
            assert t["seq"] == 1 and t["state"]["count"] == 2

            # the server stops: the table page still opens, from the phone, and says it is offline
            server.__exit__(None, None, None)
            page.reload()
            assert code[:4] in page.title() or code[:4] in page.content()
            page.locator("#conn", has_text="Offline").wait_for(timeout=20_000)
            browser.close()
    finally:
        try:
            server.__exit__(None, None, None)
        except Exception:  # noqa: BLE001 - stopped already
            pass
