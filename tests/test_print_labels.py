"""Labels off the track: on the printed Shinjuku board no word, numeral or badge lies on a track slot
or a station marker, or across a seam of the board tiled on Letter or A4.

Measured in the board printed whole on one copy-shop sheet (every text span's box, from the PDF),
against the geometry the board is drawn from (slot rectangles, station markers) and the seams the
Letter and A4 tilings put on it (generator.sheets.boards.seams). The ward labels' count badges and
the queue's card spaces are checked from the kit's own geometry, the same numbers the drawing uses.
"""
from __future__ import annotations

import math

import pytest

from generator.canon import load
from generator.kits.shinjuku.board import queue_spaces
from generator.kits.shinjuku.layout import load_layout as load_shinjuku_layout
from generator.kits.shinjuku.map import map_model
from generator.layouts import load_layout
from generator.tiling import content_area, plan_tiles, seams

pymupdf = pytest.importorskip("pymupdf")

MM = 72 / 25.4
SEAM_CLEAR = 1.0     # mm: a word's box stays this far from a seam (cutting and laying error)


def rect_hits_polygon(box, poly) -> bool:
    """Whether an axis-aligned box (x, y, w, h) and a convex polygon overlap (separating axes)."""
    x, y, w, h = box
    rect = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    for shape in (rect, poly):
        for i in range(len(shape)):
            (ax, ay), (bx, by) = shape[i], shape[(i + 1) % len(shape)]
            nx, ny = by - ay, ax - bx
            p = [nx * px + ny * py for px, py in rect]
            q = [nx * px + ny * py for px, py in poly]
            if max(p) <= min(q) or max(q) <= min(p):
                return False
    return True


def rect_hits_disc(box, cx, cy, r) -> bool:
    x, y, w, h = box
    return math.hypot(cx - min(max(cx, x), x + w), cy - min(max(cy, y), y + h)) < r


def crosses_seam(box, seam, clear=SEAM_CLEAR) -> bool:
    x, y, w, h = box
    sx, sy, sw, sh = seam
    if sw == 0:
        return x - clear < sx < x + w + clear and y < sy + sh and sy < y + h
    return y - clear < sy < y + h + clear and x < sx + sw and sx < x + w


@pytest.fixture(scope="module")
def board():
    data = load("shinjuku")
    layout = load_shinjuku_layout()
    return data, layout, map_model(data, layout), seams(layout.board.size, load_layout())


@pytest.fixture(scope="module")
def printed_words(kit_builds, board):
    """Every text span of the board printed on one A1 sheet, in board millimetres."""
    _, layout, _, _ = board
    out = kit_builds()          # the A4 kit offers the board whole on one A1 sheet
    sheets = load_layout()
    sheet = sheets.papers["a1"].size
    plan = plan_tiles(layout.board.size, sheet, sheets)
    assert plan.count == 1
    ax, ay, aw, ah = content_area(sheet, sheets)
    pw, ph = (plan.tile[1], plan.tile[0]) if plan.turned else plan.tile
    assert not plan.turned
    ox, oy = ax + (aw - pw) / 2, ay + (ah - ph) / 2
    words = []
    with pymupdf.open(str(out / "a4" / "shinjuku" / "shinjuku-board-a1.pdf")) as doc:
        page = doc[len(doc) - 1]
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", ()):
                for span in line["spans"]:
                    if not span["text"].strip():
                        continue
                    x0, y0, x1, y1 = (v / MM for v in span["bbox"])
                    box = (x0 - ox, y0 - oy, x1 - x0, y1 - y0)
                    if -1 < box[0] and box[0] + box[2] < layout.board.size[0] + 1 and box[1] > -1 \
                            and box[1] + box[3] < layout.board.size[1] + 1:
                        words.append((span["text"], box))
    return words


def test_the_printed_board_holds_every_station_and_ward_name(printed_words, board):
    data = board[0]
    texts = {t for t, _ in printed_words}
    assert {s.name for s in data.stations} <= texts
    assert {w.name.upper() for w in data.wards} <= texts


def test_no_printed_word_lies_on_a_track_slot(printed_words, board):
    _, _, model, _ = board
    hits = [(t, s.connection.stations) for t, box in printed_words for s in model.slots
            if not s.connection.prebuilt and rect_hits_polygon(box, s.corners())]
    assert not hits


def test_no_printed_word_lies_on_a_station_marker(printed_words, board):
    _, _, model, _ = board
    hits = [(t, (round(x), round(y))) for t, box in printed_words for x, y, r in model.station_discs
            if rect_hits_disc(box, x, y, r)]
    assert not hits


def test_no_printed_word_crosses_a_seam_of_the_letter_or_a4_tiles(printed_words, board):
    _, _, _, cuts = board
    assert cuts, "the board is tiled on the home papers: there are seams"
    hits = [(t, [round(v, 1) for v in box]) for t, box in printed_words for c in cuts if crosses_seam(box, c)]
    assert not hits


def test_ward_badges_and_queue_spaces_stay_off_slots_stations_and_seams(board):
    data, layout, model, cuts = board
    boxes = [(f"ward {w}", label.box) for w, label in model.ward_labels.items()]
    boxes += [(f"station {s}", label.box) for s, label in model.station_labels.items()]
    qx, qy, _, _ = layout.board.queue_box
    sw, sh = layout.board.queue_space
    boxes += [(f"queue space {i}", (x, qy, sw, layout.board.queue_box[3])) for i, x in
              enumerate(queue_spaces(data, layout, model))]
    for what, box in boxes:
        assert not any(rect_hits_polygon(box, s.corners()) for s in model.slots if not s.connection.prebuilt), what
        assert not any(rect_hits_disc(box, x, y, r) for x, y, r in model.station_discs), what
        assert not any(crosses_seam(box, c, 1.9) for c in cuts), what
