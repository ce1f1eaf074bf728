"""Shin Bikkuri Man's kit: counts against the data, tile and board squares, tight tile packing, page
sizes, mirrored backs, and every QR code decoding to its manifest payload."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pypdf
import pytest

from generator.build import BuildOptions, build
from generator.canon import load
from canvas_recorder import Recorder
from pdf_measure import page_texts
from generator.kits.base import CardSection, KitContext
from generator.kits.shin_bikkuri_man import (build_kit, render_component, sheet_grid, tile_grid,
                                             tile_sheet_count, tile_sheets)
from generator.kits.shin_bikkuri_man.facade import Palette, draw_grid, draw_tile
from generator.kits.shin_bikkuri_man.layout import load_layout
from generator.kits.shin_bikkuri_man.tiles import pack, tile_list
from generator.layouts import load_layout as sheet_layout

GAME = "shin-bikkuri-man"
URL = "http://kit.test:5000"



@pytest.fixture(scope="module")
def data():
    return load(GAME)


@pytest.fixture(scope="module")
def kit(data):
    return build_kit(data, KitContext(companion_url=URL))


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("sbm")
    build(BuildOptions(games=(GAME,), formats=("pdf",), out=root, companion_url=URL))
    return root


@pytest.fixture(scope="module")
def manifest(out) -> dict:
    return json.loads((out / "manifest.json").read_text())


def section(kit, kind):
    return [s for s in kit.sections if s.kind == kind]


def test_counts_match_the_data(kit, data):
    printed = Counter()
    for s in kit.sections:
        if isinstance(s, CardSection):
            for item in s.items:
                printed[(s.kind, item.id)] += item.copies
        for kind, cid, n in getattr(s, "holds", ()):       # pieces drawn on a page (score markers)
            if kind != "facade-tile":
                printed[(kind, cid)] += n
    wanted = {(c.kind, c.id): c.count for c in data.components()}
    for (kind, cid), count in wanted.items():
        if kind == "player-board":
            assert sum(v for (k, _), v in printed.items() if k == "player-board") == count == 4
        elif kind == "facade-tile":
            continue
        else:
            assert printed[(kind, cid)] == count, (kind, cid)
    assert sum(v for (k, _), v in printed.items() if k == "card") == 70 + 1
    assert sum(v for (k, _), v in printed.items() if k == "ability-tile") == 20
    assert kit.not_printed == ()


def test_tiles_are_all_packed_on_as_few_sheets_as_the_area_allows(data):
    layout = load_layout()
    sl = sheet_layout()
    s, gutter = layout.square, layout.tiles.gutter
    cols, rows = tile_grid(layout)
    for paper in ("letter", "a4"):                 # the sheet grid fits the printable area of both
        w, h = (v - 2 * sl.margin for v in sl.papers[paper].size)
        assert cols * layout.square <= w and rows * layout.square <= h
        assert sheet_grid(layout, w, h)[0] >= cols
    # Without a gutter the tiles butt together whatever their colours: the fewest sheets of the grid.
    butted = pack(data, cols, rows)
    squares = sum(len(p.cells) for sh in butted for p in sh.placed)
    assert len(butted) == -(-squares // (cols * rows)) == 2
    assert sum(len(c) for p in butted[0].placed for c in [p.cells]) == cols * rows  # sheet 1 is full
    # The kit's sheets: colours in strips of whole columns a gutter apart (issue 22 point 2); a
    # strip where one colour ends takes the next below a gutter, so they still take 2 sheets.
    sheets = tile_sheets(data, layout)
    placed = Counter()
    for sh in sheets:
        cells = [c for p in sh.placed for c, _ in p.cells]
        assert len(cells) == len(set(cells))                                      # no overlap
        assert all(0 <= c < sh.columns and 0 <= r < sh.rows for c, r in cells)
        for paper in ("letter", "a4"):
            w, h = (v - 2 * sl.margin for v in sl.papers[paper].size)
            assert sh.width * s <= w + 1e-6 and sh.rows * s <= h
        owner = {cell: p for p in sh.placed for cell, _ in p.cells}
        for (c, r), p in owner.items():
            right = owner.get((c + 1, r))
            if right is not None and right.colour != p.colour:
                assert (sh.left(c + 1) - sh.left(c) - 1) * s >= gutter - 1e-9
            below = owner.get((c, r + 1))
            if below is not None and below.colour != p.colour:                    # a strip's break
                assert (sh.top(c, r + 1) - sh.top(c, r) - 1) * s >= gutter - 1e-9
        lowest = max(sh.top(c, r) + 1 for c, r in cells)
        for paper in ("letter", "a4"):
            assert lowest * s <= sl.papers[paper].size[1] - 2 * sl.margin
        placed.update(sh.count())
    wanted = {tid: copies for tid, _, _, copies in tile_list(data)}
    assert placed == Counter(wanted) and sum(wanted.values()) == 62
    assert len(sheets) == 2 == tile_sheet_count(data, layout)
    assert sheets == tile_sheets(data, layout)                                    # deterministic
    # each placed tile keeps its exact shape and brick (some orientation of the data's shape)
    from generator.canon.polyomino import canonical
    shapes = {tid: canonical(cells) for tid, _, cells, _ in tile_list(data)}
    for sh in sheets:
        for p in sh.placed:
            assert canonical(dict(p.cells)) == shapes[p.tile]


def test_a_tile_square_is_the_board_square(data):
    layout = load_layout()
    pal = Palette(data, layout)
    rec = Recorder()
    draw_grid(rec, data, layout, pal, 0, 0)
    outline = [c[1] for c in rec.calls if c[0] == "rect" and c[2].width == 0.6][0]
    board_square = (outline[2] / data.board.columns, outline[3] / data.board.rows)
    rec = Recorder()
    draw_tile(rec, pal, layout, "red", {(0, 0): "B", (1, 0): "W"}, 0, 0)
    first = [c[1] for c in rec.calls if c[0] == "rect"][0]
    assert abs(first[2] - board_square[0]) < 0.1 and abs(first[3] - board_square[1]) < 0.1
    # the board (5 x 9 squares) fits one page of both papers
    sl = sheet_layout()
    for paper in ("letter", "a4"):
        pw, ph = sl.papers[paper].size
        bw, bh = layout.board.size
        assert bw <= pw - 2 * sl.margin and bh <= ph - 2 * sl.margin


def test_pdfs_page_sizes_and_files(out, manifest, data):
    for paper, size in (("letter", (612, 792)), ("a4", (595.28, 841.89))):
        folder = out / paper / GAME
        names = sorted(p.name for p in folder.glob("*.pdf"))
        assert f"{GAME}-boards-{paper}.pdf" in names and f"{GAME}-tiles-{paper}.pdf" in names
        for name in (f"{GAME}-boards-{paper}.pdf", f"{GAME}-tiles-{paper}.pdf", f"{GAME}-cards-{paper}.pdf"):
            reader = pypdf.PdfReader(folder / name)
            for page in reader.pages:
                w, h = float(page.mediabox.width), float(page.mediabox.height)
                assert abs(w - size[0]) < 1 and abs(h - size[1]) < 1
        tiles = pypdf.PdfReader(folder / f"{GAME}-tiles-{paper}.pdf")
        assert len(tiles.pages) == 2 + 2            # the cover, its verso and two sheets of tiles
    kinds = Counter(c["kind"] for c in manifest["components"] if c["game"] == GAME)
    assert kinds["player-board"] == 4 and kinds["ability-tile"] == 5 and kinds["card"] == 6
    ids = {(c["kind"], c["id"]): c["copies"] for c in manifest["components"] if c["game"] == GAME}
    assert ids[("card", "red")] == 14 and ids[("card", "end")] == 1
    assert ids[("ability-tile", "both-actions")] == 4
    tiles = Counter()
    for c in manifest["components"]:
        if c["game"] == GAME and c["kind"] == "facade-tile":
            tiles[c["id"]] += c["copies"]
    assert tiles == Counter({c.id: c.count for c in data.components() if c.kind == "facade-tile"})
    assert sum(tiles.values()) == 62
    assert manifest["not_printed"] == [] or all(n["game"] != GAME for n in manifest["not_printed"])


def test_every_qr_decodes_to_its_manifest_payload(out, manifest):
    zxingcpp = pytest.importorskip("zxingcpp")
    from pdf_measure import raster
    payloads = {q["payload"] for q in manifest["qr"] if q["game"] == GAME}
    assert payloads == {f"{URL}/q/{GAME}/board/{n}" for n in range(1, 5)} | {
        f"{URL}/q/{GAME}/ability/{a}" for a in ("any-cards", "additional-card", "construction-discount",
                                               "change-of-colours", "both-actions")}
    decoded = Counter()
    for name in (f"{GAME}-boards-letter.pdf", f"{GAME}-cards-letter.pdf"):
        path = out / "letter" / GAME / name
        for number, text in enumerate(page_texts(path), start=1):
            if "Player boards" not in text and "Ability tiles" not in text:
                continue
            if "backs" in text:
                continue
            for code in zxingcpp.read_barcodes(raster(path, number, 300)):
                decoded[code.text] += 1
    assert set(decoded) == payloads
    for n in range(1, 5):
        assert decoded[f"{URL}/q/{GAME}/board/{n}"] == 1
    assert decoded[f"{URL}/q/{GAME}/ability/both-actions"] == 4


def test_cards_and_ability_tiles_have_mirrored_backs(out):
    texts = page_texts(out / "letter" / GAME / f"{GAME}-cards-letter.pdf")
    assert any("backs" in t for t in texts)


def test_render_component_draws_the_twin_and_tiles(data):
    svg = render_component(data, "board-twin", "facade")
    assert svg.startswith("<?xml") or "<svg" in svg
    assert 'data-square="22"' in svg
    assert "<svg" in render_component(data, "tile", "red-5")
    assert render_component(data, "tile", "nope") is None
    from generator.render import component_svg
    assert "<svg" in component_svg(GAME, "card", "red")
    assert "<svg" in component_svg(GAME, "ability-tile", "any-cards", side="back")
