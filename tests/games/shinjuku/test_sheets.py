"""The real Shinjuku kit through the sheet machinery: what the manifest lists, what the PDFs say and
measure, and QR codes that decode to the manifest's payloads."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pypdf
import pytest
import zxingcpp

from generator.build import BuildOptions, build
from generator.kits import make_kit
from generator.canon import load
from generator.kits.base import CardSection, KitContext
from generator.sheets import impose
from generator.sheets.cards import GUTTER_BLEED
from pdf_measure import (ink_in_margin, open_pdf, page_texts, raster, shapes, svg_components, svg_dangling_refs,
                         svg_tree)

URL = "http://kit.test:5000"


@pytest.fixture(scope="module")
def data():
    return load("shinjuku")


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("shinjuku")
    build(BuildOptions(games=("shinjuku",), out=root, companion_url=URL))
    return root


@pytest.fixture(scope="module")
def manifest(out) -> dict:
    return json.loads((out / "manifest.json").read_text())


def test_manifest_lists_both_papers_both_formats_and_every_ward_card(out, manifest, data):
    files = manifest["files"]
    assert {(f["paper"], f["format"]) for f in files} == {(p, f) for p in ("letter", "a4")
                                                           for f in ("pdf", "svg")}
    for f in files:
        assert (out / f["path"]).is_file() and f["game"] == "shinjuku"
        assert f["path"].startswith(f"{f['paper']}/shinjuku/")
    cards = {c["id"]: c["copies"] for c in manifest["components"] if c["kind"] == "ward-card"}
    assert cards == {w.id: w.cards for w in data.wards}
    assert sum(cards.values()) == 72
    qr = {q["id"]: q["payload"] for q in manifest["qr"]}
    assert qr == {w.id: f"{URL}/q/shinjuku/{q_kind(manifest)}/{w.id}" for w in data.wards}


def q_kind(manifest) -> str:
    (kind,) = {q["kind"] for q in manifest["qr"]}
    return kind


@pytest.mark.parametrize("paper,size", [("letter", (612.0, 792.0)), ("a4", (595.28, 841.89))])
def test_pdf_pages_names_and_card_trims(out, data, paper, size):
    path = out / paper / "shinjuku" / f"shinjuku-cards-{paper}.pdf"
    reader = pypdf.PdfReader(path)
    text = "\n".join(page_texts(path))
    for ward in data.wards:
        assert ward.name in text, ward.name
    home = [p for p in reader.pages]
    for page in home:
        assert (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)) == size
    with open_pdf(path) as pdf:
        # the cut lines the crop marks continue are 63 and 88 mm apart on the first card sheet;
        # the marks are the lines outside the page's TrimBox (the block of cards); page 3, after
        # the cover and its verso
        page = pdf.pages[2]
        tx0, ty0, tx1, ty1 = (float(v) * 25.4 / 72 for v in reader.pages[2].trimbox)
        top, bottom = size[1] * 25.4 / 72 - ty1, size[1] * 25.4 / 72 - ty0
        marks = [s for s in shapes(page, "lines") if (s.w < 0.01 or s.h < 0.01) and
                 (s.x1 < tx0 or s.x0 > tx1 or s.bottom < top or s.top > bottom)]
        # A4: 3 x 3 upright; Letter: 2 x 4 turned (3 x 3 would leave 1.35 mm for the marks)
        (cw, cols), (ch, rows) = ((63.0, 3), (88.0, 3)) if paper == "a4" else ((88.0, 2), (63.0, 4))
        assert tx1 - tx0 == pytest.approx(cw * cols, abs=0.05)
        assert bottom - top == pytest.approx(ch * rows, abs=0.05)
        xs = sorted({round(m.x0, 3) for m in marks if m.w < 0.01})
        ys = sorted({round(m.top, 3) for m in marks if m.h < 0.01})
        assert [round(b - a, 2) for a, b in zip(xs, xs[1:])] == [cw] * cols
        assert [round(b - a, 2) for a, b in zip(ys, ys[1:])] == [ch] * rows


def test_no_ink_in_the_margin_of_the_first_card_sheets(out):
    path = out / "letter" / "shinjuku" / "shinjuku-cards-letter.pdf"
    for page in (1, 2, 3, 4):     # the cover, its verso, the first fronts and backs
        assert ink_in_margin(path, page) == [], page


def test_every_ward_card_qr_decodes_at_300_dpi_to_its_manifest_payload(out, manifest, data):
    """Letter only: the pages with ward card fronts (every third page after the cover pairs)."""
    path = out / "letter" / "shinjuku" / "shinjuku-cards-letter.pdf"
    fronts = [i + 1 for i, text in enumerate(page_texts(path)) if "Ward cards · fronts" in text]
    assert len(fronts) == 9          # 72 cards, 8 a sheet (turned on Letter, for full crop marks)
    decoded = Counter()
    for number in fronts:
        for code in zxingcpp.read_barcodes(raster(path, number, 300)):
            decoded[code.text] += 1
    payloads = {q["id"]: q["payload"] for q in manifest["qr"]}
    assert set(decoded) == set(payloads.values())
    assert decoded == Counter({payloads[w.id]: w.cards for w in data.wards})


def test_svg_pages_parse_and_hold_the_ward_cards(out, data):
    folder = out / "a4" / "shinjuku"
    seen = Counter()
    for path in sorted(folder.glob("shinjuku-cards-a4-*.svg")):
        root = svg_tree(path)
        assert svg_dangling_refs(root) == set()
        seen.update((k, i) for k, i, side in svg_components(root) if side == "front")
    for ward in data.wards:
        assert seen[("ward-card", ward.id)] == ward.cards


def test_the_card_pdf_is_small(out):
    for paper in ("letter", "a4"):
        assert (out / paper / "shinjuku" / f"shinjuku-cards-{paper}.pdf").stat().st_size < 400_000


def test_a_rebuild_is_byte_identical(out, tmp_path):
    build(BuildOptions(games=("shinjuku",), out=tmp_path, companion_url=URL, papers=("letter",),
                       formats=("pdf",)))
    for path in sorted((tmp_path / "letter" / "shinjuku").iterdir()):
        assert path.read_bytes() == (out / "letter" / "shinjuku" / path.name).read_bytes(), path.name


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_single_sided_pieces_share_two_sheets_with_marks_only_round_them(out, manifest, paper):
    """Customers, tokens, stores, department stores and track: six sections on two sheets (one
    each before), every piece on them, and no crop mark below the last row of pieces."""
    kit = make_kit("shinjuku", KitContext(companion_url=URL))
    pieces = [s for s in kit.sections if isinstance(s, CardSection) and s.draw_back is None]
    doc = next(d for d in impose(kit, paper) if d.name == f"shinjuku-cards-{paper}")
    sheets = [i for i, p in enumerate(doc.pages) if p.role == "front" and
              all(pl.kind not in ("ward-card", "reference-card") for pl in p.placements)]
    assert len(sheets) == 2 < len(pieces) == 6
    path = out / paper / "shinjuku" / f"shinjuku-cards-{paper}.pdf"
    texts = page_texts(path)
    assert len(texts) == len(doc.pages)
    printed = Counter((pl.kind, pl.id) for i in sheets for pl in doc.pages[i].placements)
    wanted = Counter({(c["kind"], c["id"]): c["copies"] for c in manifest["components"]
                      if c["kind"] in {s.kind for s in pieces}})
    assert printed == wanted
    with open_pdf(path) as pdf:
        for index in sheets:
            text = texts[index]
            assert f"single-sided sheet {sheets.index(index) + 1} of 2" in text
            boxes = [pl.box for pl in doc.pages[index].placements]
            for s in {pl.kind for pl in doc.pages[index].placements}:
                assert next(x.title for x in pieces if x.kind == s) in text     # caption and label
            lowest = max((b[1] + b[3] for pl, b in zip(doc.pages[index].placements, boxes)
                          if pl.kind in ("store", "department-store", "track")), default=None)
            marks = [m for m in shapes(pdf.pages[index], "lines") if m.stroke in ((0,), (0.0, 0.0, 0.0))
                     and abs(m.width_line - 0.2) < 0.01 and (m.w < 0.01 or m.h < 0.01)]
            if lowest is None:
                assert marks == []
                continue
            # (the stores and track are of different colours: their art bleeds GUTTER_BLEED past the
            # trim and the marks stand past that, 3 mm gap + 4 mm mark)
            assert max(m.bottom for m in marks) <= lowest + GUTTER_BLEED + 7.05
            for m in marks:
                for b in boxes:
                    assert (m.x1 < b[0] - 0.15 or m.x0 > b[0] + b[2] + 0.15 or
                            m.bottom < b[1] - 0.15 or m.top > b[1] + b[3] + 0.15), "a mark on a piece"
    for page in (sheets[0] + 1, sheets[1] + 1):
        assert ink_in_margin(path, page) == [], page
