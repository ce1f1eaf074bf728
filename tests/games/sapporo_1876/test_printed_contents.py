"""What Sapporo 1876's printed boards and tiles say, read back from the PDFs against the data: the main
board's 4 action spots (their two resources at 3 / 2 AP, banknotes at face value and a space for the
notes), the tracks, the city council's 3 columns (AP per space, settlement fame, end-game fame), the 6
person and 6 building spaces and the 0-99 score track; each personal board's 4 pioneering columns
(AP and gains), the private academy's 3 tiers (AP, bonuses), its areas and QR caption; every tile's
name, price and printed effect."""
from __future__ import annotations

import re

import pymupdf
import pytest

from generator.build import BuildOptions, build
from generator.canon import load

GAME = "sapporo-1876"


@pytest.fixture(scope="module")
def data():
    return load(GAME)


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory):
    out = tmp_path_factory.mktemp("sapporo-contents")
    build(BuildOptions(games=(GAME,), papers=("a4",), formats=("pdf",), out=out))
    return out / "a4" / GAME


def pages(path) -> list[str]:
    with pymupdf.open(path) as doc:
        return [" ".join(page.get_text().split()) for page in doc]


def test_the_main_board(data, pdfs):
    (board,) = [t for t in pages(pdfs / f"{GAME}-board-a1.pdf") if "MAIN BOARD" in t]
    for spot in data.action_spots:
        assert f"{spot.name.upper()} {spot.action.upper()} · {spot.background}" in board, spot.id
        for r, ap in spot.ap.items():
            name = next(x.name for x in data.resources if x.id == r)
            assert f"{name}: {ap} AP" in board, (spot.id, r)
    assert sorted(ap for s in data.action_spots for ap in s.ap.values()) == [2, 2, 2, 2, 3, 3, 3, 3]
    assert board.count("Banknotes: face value") == board.count("banknotes here") == len(data.action_spots) == 4
    assert "HARVEST" in board and "SETTLEMENT" in board
    for col in data.council:
        spaces = " ".join(f"{ap} AP" for ap in col.spaces)
        assert f"{spaces} {col.name.split()[0].upper()} {col.higher} / {col.lower} end: {col.final_per_worker} each" \
            in board, col.id
    assert [(c.higher, c.lower) for c in data.council] == [(3, 1), (4, 2), (5, 3)]
    assert board.count("influential person") == 6 and len(re.findall(r"\bbuilding\b", board)) >= 6
    numbers = set(board.split())
    assert {str(n) for n in range(100)} <= numbers                       # the score track round the edge


def test_the_personal_boards(data, pdfs):
    boards = [t for t in pages(pdfs / f"{GAME}-boards-a4.pdf") if "PERSONAL BOARD" in t]
    assert len(boards) == len(data.colours) == 2
    for colour, text in zip(data.colours, boards):
        assert f"{colour.name.upper()} · PERSONAL BOARD" in text
        for col in data.pioneering.column:
            assert col.name.upper() in text
            for space in col.spaces:
                assert f"{space.cost} AP" in text
        for tier in data.academy.tier:
            assert f"{tier.cost} AP" in text
            if tier.final_fame:
                assert f"+{tier.final_fame} fame at the end" in text
        assert "+1 resource of your choice" in text                    # the lowest tier's bonus (house)
        for area in ("WORKER AREA", "BANKNOTES", "RESOURCES", "scan: score preview"):
            assert area in text


def test_every_tile_prints_its_name_price_and_effect(data, pdfs):
    text = " ".join(pages(pdfs / f"{GAME}-tiles-a4.pdf"))
    for tile in (*data.persons, *data.building_tiles):
        effect = " ".join(tile.text.split())
        assert f"{tile.name} {effect}" in text, tile.id
        assert re.search(rf"(^| ){tile.cost} {re.escape(tile.name)} ", text), tile.id    # price, then name
