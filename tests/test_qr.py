"""Vector QR codes: exact modules, the size rule, and codes that a phone (zxing) reads at 300 dpi with
a clear quiet zone, matching the manifest."""
from __future__ import annotations

import json

import pytest
import zxingcpp
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import qr
from generator.build import BuildOptions, build
from generator.draw.record import Recording
from generator.layouts import load_layout
from pdf_measure import ink_box, page_texts, raster
from synthetic_kit import CARD_IDS, GAME, build_kit

DPI = 300


def covered(runs) -> set[tuple[int, int]]:
    cells = set()
    for x, y, w, h in runs:
        for i in range(x, x + w):
            for j in range(y, y + h):
                assert (i, j) not in cells, "rectangles overlap"
                cells.add((i, j))
    return cells


@given(st.lists(st.lists(st.booleans(), min_size=7, max_size=7), min_size=1, max_size=7))
@settings(max_examples=200, deadline=None)
def test_merged_runs_cover_exactly_the_dark_modules(rows):
    modules = tuple(tuple(r) for r in rows)
    dark = {(x, y) for y, row in enumerate(modules) for x, v in enumerate(row) if v}
    assert covered(qr.merge_runs(modules)) == dark


def test_runs_are_fewer_than_modules_for_a_real_code():
    modules = qr.matrix("http://localhost:5000/q/shinjuku/ward-card/chiyoda")
    runs = qr.merge_runs(modules)
    assert covered(runs) == {(x, y) for y, r in enumerate(modules) for x, v in enumerate(r) if v}
    assert len(runs) < sum(map(sum, modules)) / 2


def test_modules_below_the_layout_minimum_are_refused():
    payload = "http://localhost:5000/q/shinjuku/ward-card/chiyoda"
    need = qr.qr_size(payload)
    module_min = load_layout().sheets.qr.module_min
    assert need == pytest.approx((len(qr.matrix(payload)) + 8) * module_min + qr.LABEL_STRIP)
    with pytest.raises(qr.QrTooSmall, match="needs a"):
        qr.draw_qr(Recording(), payload, 0, 0, need - 0.5)
    rec = Recording()
    assert qr.draw_qr(rec, payload, 0, 0, need) == pytest.approx(module_min)
    # the quiet zone is painted white first, then the modules as one shape, then the short code
    assert [op[0] for op in rec.ops] == ["rect", "rects", "text"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("qr")
    ctx_url = "http://192.168.1.20:8080"
    from generator.kits.base import KitContext

    build(BuildOptions(out=out, papers=("letter",), formats=("pdf",), companion_url=ctx_url),
          kits={GAME: build_kit(KitContext(companion_url=ctx_url))})
    return out


def test_every_code_decodes_to_a_manifest_payload_with_a_clear_quiet_zone(built):
    manifest = json.loads((built / "manifest.json").read_text())
    expected = {q["payload"] for q in manifest["qr"]}
    assert expected == {f"http://192.168.1.20:8080/q/{GAME}/card/{c}" for c in CARD_IDS}
    path = built / "letter" / GAME / f"{GAME}-cards-letter.pdf"
    texts = page_texts(path)
    front_pages = [i + 1 for i, text in enumerate(texts) if "fronts, sheet" in text
                   and any(c.title() in text for c in CARD_IDS)]
    decoded = []
    for number in front_pages:
        image = raster(path, number, DPI)
        codes = zxingcpp.read_barcodes(image)
        on_page = texts[number - 1].split().count
        assert len(codes) == sum(on_page(c) for c in CARD_IDS)
        for code in codes:
            decoded.append(code.text)
            _assert_quiet_zone(image, code)
    assert set(decoded) == expected
    assert len(decoded) == sum(CARD_IDS.values())


def _assert_quiet_zone(image, code) -> None:
    p = code.position
    xs = [p.top_left.x, p.top_right.x, p.bottom_left.x, p.bottom_right.x]
    ys = [p.top_left.y, p.top_right.y, p.bottom_left.y, p.bottom_right.y]
    size = len(qr.matrix(code.text, load_layout().sheets.qr.error_correction))
    module = (max(xs) - min(xs)) / (size - 1)    # zxing reports the centres of the corner modules
    assert module >= load_layout().sheets.qr.module_min / 25.4 * DPI * 0.95
    left, top = min(xs) - module / 2, min(ys) - module / 2
    right, bottom = max(xs) + module / 2, max(ys) + module / 2
    quiet = 4 * module
    inner = 1.5   # pixels of anti-aliasing next to the symbol
    bands = [(left - quiet, top - quiet, right + quiet, top - inner),
             (left - quiet, bottom + inner, right + quiet, bottom + quiet),
             (left - quiet, top, left - inner, bottom),
             (right + inner, top, right + quiet, bottom)]
    for band in bands:
        box = tuple(int(round(v)) for v in band)
        assert ink_box(image, box, threshold=200) is None, f"ink in the quiet zone of {code.text}"
