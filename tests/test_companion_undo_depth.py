"""Undo at any depth (issue 10): "one move, 48 timer starts, undo", repeated, once made replay recurse
one level per snapshot window an undo crossed, until RecursionError (500) at about 490 levels, for
good, and again after a restart. Replay is iterative now, and an undo's view is kept as a snapshot,
so a read or an undo never replays more than one window."""
from __future__ import annotations

import sys

from companion import create_app
from companion.testing import FakeClock, token_client
from testgames import COUNTER

LEVELS = 520          # beyond the old limit (~488 levels with the default recursion limit)


def build_chain(app, levels: int, timers: int = 48):
    """Write the chain straight through Tables (the HTTP layer adds nothing to what is tested)."""
    tables = app.extensions["tokyo"].tables
    _, body = tables.create("counter", ["Aki", "Ben"], {"goal": 1000}, None, lambda c: c, None, "x")
    code, seq = body["code"], 0
    tables.move(code, seq, {"player": 0, "add": 1}, None, "first")     # puts each undo just past a
    seq += 1                                                            # snapshot, as in the review
    for level in range(levels):
        player = 1
        tables.move(code, seq, {"player": player, "add": 1}, None, f"m{level}")
        seq += 1
        for t in range(timers):
            tables.timer(code, seq, "t", "start", 5, None, f"t{level}-{t}")
            seq += 1
        tables.undo(code, seq, None, f"u{level}")
        seq += 1
    return code, seq


def test_a_long_chain_of_undos_reads_and_undoes_after_a_restart(tmp_path):
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(400)          # a tight stack: recursion per level would fail quickly here
    try:
        # a snapshot every 6 events and cycles of 6: every undo crosses a window, as the review's
        # "one move, 48 timer starts, undo" did with windows of 50
        config = {"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}, "CLOCK": FakeClock(),
                  "SNAPSHOT_EVERY": 6}
        app = create_app(config)
        code, seq = build_chain(app, LEVELS, timers=4)
        client = token_client(app)
        t = client.get(f"/api/tables/{code}").json
        assert t["seq"] == seq and t["state"]["count"] == 1
        # a restart: nothing cached; the first read and a new undo chain still answer
        again = create_app(config)
        tables = again.extensions["tokyo"].tables
        assert token_client(again).get(f"/api/tables/{code}").json["seq"] == seq
        tables.move(code, seq, {"player": 1, "add": 2}, None, "late")
        status, body = tables.undo(code, seq + 1, None, "late-undo")
        assert status == 200 and body["state"]["count"] == 1
    finally:
        sys.setrecursionlimit(old)


def test_replay_is_iterative_without_the_undo_snapshots(tmp_path):
    """A database written before undos were snapshotted (snapshots are a cache: any may be missing)
    makes replay derive each undone move's earlier view first, level after level: no recursion."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(300)
    try:
        config = {"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}, "CLOCK": FakeClock(),
                  "SNAPSHOT_EVERY": 6}
        app = create_app(config)
        code, seq = build_chain(app, 300, timers=4)
        with app.extensions["tokyo"].store.write() as tx:
            tx.conn.execute("DELETE FROM snapshots WHERE seq % 6 != 0")
        again = create_app(config)
        t = token_client(again).get(f"/api/tables/{code}").json
        assert t["seq"] == seq and t["state"]["count"] == 1
        assert token_client(again).get(f"/api/tables/{code}/events?since={seq - 1}",
                                       headers={"Accept": "application/json"}).json["seq"] == seq
    finally:
        sys.setrecursionlimit(old)
