"""The short code printed under every QR code: unique across every game's QR targets, printed at 6 pt
or more under each code in every kit (the text pymupdf reads next to each code zxing decodes is that
code's short code), and typed on the companion's /q page it opens the QR's page, in a real browser."""
from __future__ import annotations

import json
import re

import pytest
import zxingcpp

from companion import create_app
from generator import qr
from generator.build import BuildOptions, build, qr_codes
from generator.kits import games_with_kits, make_kit
from generator.kits.base import KitContext
from pdf_measure import raster
from phones import launch, needs_chromium

DPI = 150
CODE = re.compile(rf"^[{qr.SHORT_ALPHABET}]{{{qr.SHORT_LENGTH}}}$")


@pytest.fixture(scope="module")
def targets() -> list[str]:
    payloads = [q["payload"] for g in games_with_kits() for q in qr_codes(g, make_kit(g, KitContext()))]
    assert len(payloads) > 100            # every game's kit has its QR codes
    return payloads


def test_every_qr_target_of_every_game_has_its_own_short_code(targets):
    codes = {qr.short_code(p) for p in targets}
    assert len(codes) == len(set(targets)), "two QR targets share a short code"
    assert all(CODE.match(c) for c in codes)
    assert {g for g in games_with_kits()} == {qr.qr_path(p).split("/")[2] for p in targets}


def test_the_short_code_depends_on_the_path_only_and_forgives_typing():
    path = "/q/shinjuku/ward/chiyoda"
    code = qr.short_code(path)
    assert qr.short_code("http://localhost:5000" + path) == code
    assert qr.short_code("http://tokyo-kit.local:8000/" + path.lstrip("/")) == code
    assert qr.short_code("/q/shinjuku/ward/chuo") != code
    messy = " " + "-".join(code.lower()) + "."
    assert qr.normalize_short_code(messy) == code
    assert qr.normalize_short_code("o1-iLu") == "0111V"


# ------------------------------------------------------------------------------------ the PDFs
@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    out = tmp_path_factory.mktemp("short")
    url = "http://tokyo-kit.local:5000"
    build(BuildOptions(out=out, papers=("letter",), formats=("pdf",), companion_url=url))
    return out, json.loads((out / "manifest.json").read_text())


def _qr_pages(pdf, fitz, known):
    """Pages of `pdf` with short codes printed on them."""
    doc = fitz.open(pdf)
    return [i for i, page in enumerate(doc) if any(w[4] in known for w in page.get_text("words"))]


def test_every_kit_prints_each_qr_codes_short_code_under_it(kits):
    fitz = pytest.importorskip("pymupdf")
    out, manifest = kits
    payloads = {q["payload"] for q in manifest["qr"]}
    known = {qr.short_code(p) for p in payloads}
    seen: dict[str, set[str]] = {}
    for pdf in sorted(out.glob("letter/*/*.pdf")):
        doc = fitz.open(pdf)
        for index in _qr_pages(pdf, fitz, known)[:2]:       # the first two pages of each file with codes
            page = doc[index]
            words = [w for w in page.get_text("words") if w[4] in known]
            sizes = {round(s["size"], 2) for b in page.get_text("dict")["blocks"] for line in b.get("lines", ())
                     for s in line["spans"] if s["text"].strip() in known}
            assert sizes and min(sizes) >= 6.0, (pdf.name, sizes)
            decoded = zxingcpp.read_barcodes(raster(pdf, index + 1, DPI))
            assert decoded, f"{pdf.name} page {index + 1}: short codes but no QR code read"
            scale = 72 / DPI
            for code in decoded:
                assert code.text in payloads
                p = code.position
                xs = [pt.x * scale for pt in (p.top_left, p.top_right, p.bottom_left, p.bottom_right)]
                ys = [pt.y * scale for pt in (p.top_left, p.top_right, p.bottom_left, p.bottom_right)]
                cx, cy, half = sum(xs) / 4, sum(ys) / 4, (max(xs) - min(xs)) / 2
                # the nearest short code printed around the code (cards may be turned on the sheet)
                near = sorted(words, key=lambda w: ((w[0] + w[2]) / 2 - cx) ** 2 + ((w[1] + w[3]) / 2 - cy) ** 2)
                wx, wy = (near[0][0] + near[0][2]) / 2, (near[0][1] + near[0][3]) / 2
                assert max(abs(wx - cx), abs(wy - cy)) < half + 12, (pdf.name, code.text)
                assert near[0][4] == qr.short_code(code.text), (pdf.name, code.text, near[0][4])
                seen.setdefault(pdf.parent.name, set()).add(code.text)
    assert set(seen) == set(games_with_kits()), seen


# ----------------------------------------------------------------------------- the companion
@pytest.fixture
def client(tmp_path):
    return create_app({"DATA_DIR": tmp_path, "OUTPUT_DIR": tmp_path / "none"}).test_client()


def test_a_typed_short_code_opens_its_qr_page(client, targets):
    for payload in targets[::7]:
        code = qr.short_code(payload)
        r = client.get("/q", query_string={"code": f" {code[:2].lower()}-{code[2:].lower()} "})
        assert r.status_code == 303 and r.headers["Location"] == qr.qr_path(payload)
        assert client.get(r.headers["Location"]).status_code == 200


def test_an_unknown_or_misshaped_code_is_answered_clearly(client, targets):
    known = {qr.short_code(p) for p in targets}
    unknown = next(c for c in ("ZZZZZ", "YYYYY", "XXXXX") if c not in known)
    r = client.get("/q", query_string={"code": unknown})
    assert r.status_code == 404 and f"No printed QR code has the code “{unknown}”" in r.get_data(as_text=True)
    r = client.get("/q", query_string={"code": "AB"})
    assert r.status_code == 404 and "has 5, like" in r.get_data(as_text=True)
    assert client.get("/q").status_code == 200
    # the join page and the page of a misread QR code lead to the field
    assert 'href="/q"' in client.get("/join").get_data(as_text=True)
    missing = client.get("/q/shinjuku/ward/nowhere")
    assert missing.status_code == 404 and 'action="/q"' in missing.get_data(as_text=True)


@needs_chromium
def test_typing_the_code_on_the_home_page_in_a_phone_browser(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    from companion.testing import ServerThread
    app = create_app({"DATA_DIR": tmp_path, "OUTPUT_DIR": tmp_path / "none"})
    code = qr.short_code("/q/shinjuku/ward/chiyoda")
    with ServerThread(app) as server, sync_api.sync_playwright() as p:
        b = launch(p)
        page = b.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "/")
        field = page.get_by_role("textbox", name="The code beside the QR")
        field.fill(f"{code[:3].lower()} {code[3:].lower()}")
        field.press("Enter")
        page.wait_for_url("**/q/shinjuku/ward/chiyoda")
        assert "Chiyoda" in page.text_content("h1")
        page.goto(server.url + "/")
        page.get_by_role("textbox", name="The code beside the QR").fill("ZZZZZ" if code != "ZZZZZ" else "YYYYY")
        page.get_by_role("button", name="Open").click()
        alert = page.locator("[role=alert]", has_text="No printed QR code has the code")
        alert.wait_for(timeout=5_000)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.set_viewport_size({"width": 360, "height": 780})
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.screenshot(path=str(tmp_path / "typed.png"))
        b.close()
    assert errors == []
