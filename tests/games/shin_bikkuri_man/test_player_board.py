"""Shin Bikkuri Man's printed player board against the data: the 4 coats of arms on their squares and
the 3 at the right ends of rows 2, 4 and 6, the row and column scoring reminders, the 0-12 score track
(boxes that hold a score marker) and the starting "Any Cards" ability space."""
from __future__ import annotations

from canvas_recorder import Recorder
from generator.canon import load
from generator.kits.shin_bikkuri_man.components import draw_board
from generator.kits.shin_bikkuri_man.facade import Palette
from generator.kits.shin_bikkuri_man.layout import load_layout


def test_the_player_board_prints_what_the_data_says():
    data, layout = load("shin-bikkuri-man"), load_layout()
    pal = Palette(data, layout)
    rec = Recorder()
    draw_board(rec, data, layout, pal, 3, "http://kit.test/q/shin-bikkuri-man/board/3")
    polygons = [c[1:3] for c in rec.calls if c[0] == "polygon"]
    boxes = [c[1:3] for c in rec.calls if c[0] == "rect"]
    s, (gx, gy) = layout.square, layout.board.grid
    rows, cols = data.board.rows, data.board.columns
    coats = [pts for pts, st in polygons if st.fill == pal.coat]
    centres = [(sum(x for x, _ in p) / len(p), max(y for _, y in p) - min(y for _, y in p)) for p in coats]
    assert len(coats) == data.board.coats_of_arms.total == 7
    on_squares = sorted((int((cx - gx) // s) + 1) for cx, _ in centres if cx < gx + cols * s)
    assert on_squares == sorted(c for c, _ in data.coat_squares)
    assert sum(cx > gx + cols * s for cx, _ in centres) == len(data.coat_rows) == 3
    # each coat sits in its square's row (or at its row's end)
    tops = sorted(min(y for _, y in p) for p in coats)
    wanted = sorted([gy + (rows - r) * s for _, r in data.coat_squares] + [gy + (rows - r) * s for r in data.coat_rows])
    assert all(w <= t < w + s for t, w in zip(tops, wanted))
    text = " ".join(rec.texts())
    sc = data.scoring
    assert f"Row complete: {sc.row} point, {sc.row_all_windows} if all windows." in text
    assert f"Column complete: {sc.column} points, {sc.column_all_windows} if all windows." in text
    assert "player board 3" in text and "score marker 3 starts on 0" in text
    start = next(a for a in data.abilities if a.starting)
    assert f"Start with “{start.name}” here" in text
    track = [t for t in rec.texts() if t.isdigit() and int(t) <= data.end.points]
    assert [int(t) for t in track[-(data.end.points + 1):]] == list(range(data.end.points + 1))
    boxes = [b for b, st in boxes if abs(b[2] - b[3]) < 0.01 and abs(b[2] - layout.board.track_box) < 0.01]
    assert len(boxes) == data.end.points + 1
    assert all(layout.marker.size <= b[2] for b in boxes)                  # a score marker fits a box
