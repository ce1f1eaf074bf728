"""Tokyo Jutaku's kit (generator/kits/jutaku/): what it holds, the pieces packed in their exact shapes,
the site cards' faces in register with their QR codes, the manifest, and that every QR code opens a
page of the companion."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from generator.kits.base import CardSection, KitContext, PageSection
from generator.kits.jutaku import build_kit, draw, piece_blocks
from generator.kits.jutaku.layout import load_layout
from generator.kits.jutaku.pack import naive_sheets
from generator.render import component_svg
from generator.qr import footprint


@pytest.fixture(scope="module")
def kit(g):
    return build_kit(g, KitContext("http://tokyo.local:5000"))


def section(kit, kind):
    return [s for s in kit.sections if s.kind == kind]


def test_the_kit_holds_every_component_of_the_data(g, kit):
    (sites,) = section(kit, "site-card")
    assert isinstance(sites, CardSection) and sites.draw_back is not None          # double-sided
    assert [i.id for i in sites.items] == [s.id for s in g.sites]
    assert sites.size == (80.0, 80.0) == g.card.size_mm
    counts = {}
    for s in kit.sections:
        if isinstance(s, CardSection):
            for i in s.items:
                counts[(s.kind, i.id)] = i.copies
    assert sum(n for (k, _), n in counts.items() if k == "architect") == 8
    assert sum(n for (k, _), n in counts.items() if k == "drink") == 36
    assert {i for (k, i) in counts if k == "stock-card"} == set(g.izakaya.stock.order) | {"shape"}
    assert {i for (k, i) in counts if k == "reference"} == {"jutaku", "countdown", "bottle-bonus", "izakaya"}
    data_rows = {(c.kind, c.id): c.count for c in g.components()}
    for kind in ("pyramid", "disc", "coin"):
        assert {k: v for k, v in counts.items() if k[0] == kind} == \
            {k: v for k, v in data_rows.items() if k[0] == kind}
    # the crate is in the data; Bottle Bonus's vending machine and a bag to draw drinks from are not
    assert [(n.kind, n.count) for n in kit.not_printed] == [("crate", 6), ("vending-machine", 1), ("drink-bag", 1)]
    assert section(kit, "score-pad")[0].id == "countdown"


def test_the_69_pieces_packed_in_their_exact_shapes(g):
    layout = load_layout()
    cols, rows = layout.pieces.grid
    blocks = piece_blocks(g)
    placed = [p for b in blocks for p in b.placed]
    assert sorted(p.piece for p in placed) == sorted(x.id for x in g.pieces)   # each once
    for b in blocks:
        seen = set()
        for p in b.placed:
            assert not seen & p.cells and all(0 <= x < cols and 0 <= y < rows for x, y in p.cells)
            seen |= p.cells
            mx, my = min(x for x, _ in p.cells), min(y for _, y in p.cells)
            shape = frozenset((x - mx, y - my) for x, y in p.cells)
            assert shape in {frozenset(o) for o in g.piece[p.piece].orientations()}, p.piece
    # one page instead of the naive layout's three
    assert len(blocks) == 1 < naive_sheets(g.pieces, cols, rows) == 3
    pages = [s for s in build_kit(g, KitContext()).sections if isinstance(s, PageSection) and s.kind == "piece-sheet"]
    assert len(pages) == len(blocks)


def test_every_site_card_has_a_qr_code_on_a_face_with_room(g, kit):
    layout = load_layout()
    (sites,) = section(kit, "site-card")
    for item in sites.items:
        spots = [draw.qr_spot(g, item.data.side(side), layout, item.qr[1]) for side in ("white", "blue")]
        assert any(spots), item.id
        for side, spot in zip(("white", "blue"), spots):
            if spot is None:
                continue
            x, y, w, h = footprint(*spot)       # what the code, its quiet zone and short code paint
            cell = g.card.cell_mm
            inside = {c for b in item.data.side(side).borders for c in b}
            # the code covers no square of a site border by more than the layout allows
            slack = layout.site_card.qr_corner_free
            covered = {(cx, cy) for cx in range(8) for cy in range(8)
                       if x + slack < (cx + 1) * cell and cx * cell < x + w - slack
                       and y + slack < (cy + 1) * cell and cy * cell < y + h - slack}
            assert not covered & inside, (item.id, side)


def test_component_svg_draws_both_faces(g):
    front = component_svg("jutaku", "site-card", "meguro-1")
    back = component_svg("jutaku", "site-card", "meguro-1", side="back")
    assert "<svg" in front and "<svg" in back and front != back


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("kit")
    r = subprocess.run([sys.executable, "-m", "generator", "build", "--game", "jutaku",
                        "--paper", "letter", "--format", "pdf", "--out", str(out),
                        "--companion-url", "http://tokyo.local:5000"],
                       capture_output=True, text=True, cwd=str(__import__("pathlib").Path(__file__).parents[3]))
    assert r.returncode == 0, r.stderr
    return out, json.loads((out / "manifest.json").read_text())


def test_manifest_files_components_qr_and_not_printed(built):
    out, m = built
    files = {f["path"]: f["pages"] for f in m["files"]}
    names = sorted(p.rsplit("/", 1)[1] for p in files)
    assert names == ["jutaku-cards-letter.pdf", "jutaku-pieces-letter.pdf", "jutaku-sheets-letter.pdf",
                     "jutaku-tokens-letter.pdf"]
    # 32 site cards, 6 a sheet, fronts and backs: 6 sheets x 2 + the cover and its verso
    assert files["letter/jutaku/jutaku-cards-letter.pdf"] == 14
    assert files["letter/jutaku/jutaku-pieces-letter.pdf"] == 3
    kinds = {c["kind"] for c in m["components"]}
    assert {"site-card", "piece-sheet", "architect", "drink", "stock-card", "reference", "pyramid", "disc",
            "coin", "score-pad", "turn-order-track"} <= kinds
    assert m["not_printed"][0] == {"game": "jutaku", "kind": "crate", "id": "crate", "count": 6,
                                   "reason": "any six cups or bowls hold the drinks below the stock cards",
                                   "label": ""}
    assert all(n["reason"] for n in m["not_printed"])
    qr = {(q["kind"], q["id"]) for q in m["qr"]}
    assert len([q for q in qr if q[0] == "site-card"]) == 32 and ("reference", "countdown") in qr
    assert all(q["payload"].startswith("http://tokyo.local:5000/q/jutaku/") for q in m["qr"])


def test_every_printed_qr_code_opens_a_companion_page(built, tmp_path):
    from companion import create_app
    _, m = built
    client = create_app({"DATA_DIR": tmp_path}).test_client()
    for q in m["qr"]:
        path = q["payload"].removeprefix("http://tokyo.local:5000")
        assert client.get(path).status_code == 200, path


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_the_pdfs_rasterize(built, tmp_path):
    out, m = built
    for f in m["files"]:
        r = subprocess.run(["pdftoppm", "-png", "-r", "20", "-f", "1", "-l", "2", str(out / f["path"]),
                            str(tmp_path / "p")], capture_output=True)
        assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_site_card_backs_are_in_register_for_long_edge_duplex(kit, paper):
    from generator.sheets import impose
    (doc,) = [d for d in impose(kit, paper) if any(p.section == "site-card" for p in d.pages)]
    pages = [p for p in doc.pages if p.section == "site-card"]
    fronts = [p for p in pages if p.role == "front"]
    backs = [p for p in pages if p.role == "back"]
    assert len(fronts) == len(backs) == 6
    seen = []
    for front, back in zip(fronts, backs):
        width = front.size[0]
        at_back = {pl.id: pl.box for pl in back.placements if pl.kind == "site-card"}
        for pl in front.placements:
            if pl.kind != "site-card":
                continue
            x, y, w, h = pl.box
            bx, by, bw, bh = at_back[pl.id]
            assert (round(bx + bw, 6), round(by, 6)) == (round(width - x, 6), round(y, 6)), pl.id
            seen.append(pl.id)
    assert sorted(seen) == sorted(i.id for i in section(kit, "site-card")[0].items)
