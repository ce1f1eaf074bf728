"""Headers and URLs any client can abuse (issue 10): a forged Host header must not reach a table's
url or its join QR code, and every answer carries security headers with a policy that allows no
inline script (so no page of the companion has one)."""
from __future__ import annotations

import re

import pytest

from companion import create_app
from companion.testing import FakeClock, token_client
from testgames import COUNTER

BASE = "http://kit.local:5000"


@pytest.fixture
def client(tmp_path):
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}, "CLOCK": FakeClock(),
                      "BASE_URL": BASE})
    return token_client(app)


def test_a_forged_host_header_does_not_reach_the_table_url_or_its_join_qr(client):
    evil = {"Host": "evil.example"}
    r = client.post("/api/tables", json={"game": "counter", "players": ["Aki", "Ben"]}, headers=evil)
    assert r.status_code == 201 and r.json["url"] == f"{BASE}/t/{r.json['code']}"
    page = client.get(f"/t/{r.json['code']}", headers=evil).get_data(as_text=True)
    assert "evil.example" not in page and f"{BASE}/t/{r.json['code']}" in page
    pytest.importorskip("zxingcpp")
    svg = client.get(f"/t/{r.json['code']}/qr.svg", headers=evil).get_data(as_text=True)
    assert "evil" not in svg


def pages(client):
    code = client.post("/api/tables", json={"game": "counter", "players": ["Aki", "Ben"]}).json["code"]
    shinjuku = client.post("/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben"]}).json
    return ["/", "/join", "/plays", "/new/counter", f"/t/{code}", "/new/shinjuku",
            f"/t/{shinjuku['code']}", f"/t/{shinjuku['code']}/board", "/shinjuku/score",
            "/q/shinjuku/ward/minato", "/q/shinjuku/customer/food", "/q/nowhere/x/y", "/nowhere",
            f"/api/tables/{code}", "/api/time", "/api/openapi.json", "/static/app.js"]


def test_every_answer_has_the_security_headers(client):
    for path in pages(client):
        r = client.get(path)
        csp = r.headers.get("Content-Security-Policy", "")
        script = re.search(r"script-src ([^;]*)", csp).group(1)
        assert "'unsafe-inline'" not in script and "'self'" in script, path
        assert "frame-ancestors 'none'" in csp, path
        assert r.headers.get("X-Frame-Options") == "DENY", path
        assert r.headers.get("X-Content-Type-Options") == "nosniff", path
        assert r.headers.get("Referrer-Policy"), path


def test_no_page_has_an_inline_script(client):
    """The policy would block one: every script is a file of the companion (data blocks of type
    application/json are not scripts)."""
    for path in pages(client):
        r = client.get(path)
        if r.mimetype != "text/html":
            continue
        for tag in re.findall(r"<script\b[^>]*>", r.get_data(as_text=True)):
            assert "src=" in tag or 'type="application/json"' in tag, (path, tag)
        assert " onclick=" not in r.get_data(as_text=True), path
