"""Shin Bikkuri Man's score markers: the boards' 0-12 score track needs one marker per player. They
are house data (assets/shin-bikkuri-man/game.toml, marked), listed by `generator data`, printed on
the free squares of the last façade-tile sheet and counted in manifest.json."""
from __future__ import annotations

import json

import pymupdf
import pytest

from generator.build import BuildOptions, build
from generator.canon import load
from generator.kits.base import KitContext, PageSection
from generator.kits.shin_bikkuri_man import build_kit, marker_spots, tile_sheets
from generator.kits.shin_bikkuri_man.layout import load_layout

GAME = "shin-bikkuri-man"


@pytest.fixture(scope="module")
def data():
    return load(GAME)


def test_the_data_has_one_house_marker_per_player(data):
    rows = [c for c in data.components() if c.kind == "score-marker"]
    assert [(c.id, c.count) for c in rows] == [(str(n), 1) for n in range(1, data.players[1] + 1)]
    assert {c.source for c in rows} == {"house"}
    assert data.score_markers.source_of("per_player") == "house"


def test_markers_lie_on_free_squares_of_the_last_tile_sheet_and_fit_a_track_box(data):
    layout = load_layout()
    last = tile_sheets(data, layout)[-1]
    spots = marker_spots(last, data.players[1])
    taken = {cell for p in last.placed for cell, _ in p.cells}
    assert len(set(spots)) == data.players[1] and not set(spots) & taken
    assert all(0 <= c < last.columns and 0 <= r < last.rows for c, r in spots)
    assert layout.marker.size <= layout.board.track_box <= layout.square
    with pytest.raises(ValueError, match="free squares"):
        marker_spots(last, last.columns * last.rows)
    kit = build_kit(data, KitContext(companion_url="http://kit.test:5000"))
    sheets = [s for s in kit.sections if isinstance(s, PageSection) and s.kind == "facade-tiles"]
    held = [(k, i, n) for s in sheets for k, i, n in s.holds if k == "score-marker"]
    assert held == [("score-marker", str(n), 1) for n in range(1, 5)]
    assert all(k == "facade-tile" for s in sheets[:-1] for k, _, _ in s.holds)


def test_the_printed_kit_counts_and_draws_them(tmp_path, data):
    build(BuildOptions(games=(GAME,), papers=("a4",), formats=("pdf",), out=tmp_path,
                       companion_url="http://kit.test:5000"))
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    markers = sorted((c["id"], c["copies"]) for c in manifest["components"]
                     if c["game"] == GAME and c["kind"] == "score-marker")
    assert markers == [(str(n), 1) for n in range(1, 5)]
    pdf = next((tmp_path / "a4" / GAME).glob("*-tiles-a4.pdf"))
    doc = pymupdf.open(pdf)
    last = doc[-1]
    # a marker's number is a span of its own (the sheet's name, "… sheet 2 of 2 …", is one span)
    digits = {"1", "2", "3", "4"}
    lone = {tuple(round(v, 1) for v in span["bbox"]) for block in last.get_text("dict")["blocks"]
            for line in block.get("lines", ()) for span in line["spans"] if span["text"].strip() in digits}
    numbers = [w for w in last.get_text("words") if w[4] in {"1", "2", "3", "4"}
               and any(abs(w[0] - b[0]) < 0.5 and abs(w[1] - b[1]) < 0.5 for b in lone)]
    assert sorted(w[4] for w in numbers) == ["1", "2", "3", "4"]
    # each number sits inside a disc of the layout's diameter (a circle path round it)
    d = load_layout().marker.size * 72 / 25.4
    discs = [p["rect"] for p in last.get_drawings()
             if p["rect"].width == pytest.approx(d, abs=0.5) and p["rect"].height == pytest.approx(d, abs=0.5)]
    for w in numbers:
        cx, cy = (w[0] + w[2]) / 2, (w[1] + w[3]) / 2
        assert any(r.x0 < cx < r.x1 and r.y0 < cy < r.y1 for r in discs), w[4]
    assert "score markers" in doc[0].get_text()
