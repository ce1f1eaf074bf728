"""Group commit (store.sqlite.GroupWrite) with fewer steps for a lone writer must still group: writers
that overlap share one COMMIT (one fsync), and none leaves its `with` block before the COMMIT
holding its write has returned (another connection sees it at once); a lone writer commits by
itself."""
from __future__ import annotations

import sqlite3
import threading
import time

from companion.store.sqlite import Store, TableRow


def _store(tmp_path):
    path = tmp_path / "db.sqlite3"
    store = Store(path)
    with store.write() as tx:
        tx.insert_table(TableRow("t1", "g", ["a"], {}, 1, 0))
        conn = tx.conn
    commits: list[str] = []
    conn.set_trace_callback(lambda sql: commits.append(sql) if sql.strip().upper() == "COMMIT" else None)
    return path, store, commits


def _visible(path, key: str) -> bool:
    other = sqlite3.connect(path)
    try:
        return other.execute("SELECT 1 FROM idempotency WHERE scope = 't1' AND key = ?", (key,)).fetchone() is not None
    finally:
        other.close()


def test_overlapping_writers_share_a_commit_and_leave_only_once_it_is_durable(tmp_path):
    path, store, commits = _store(tmp_path)
    n = 24
    start = threading.Barrier(n)
    seen: list[bool] = []

    def writer(i: int) -> None:
        start.wait()
        with store.write() as tx:
            tx.remember("t1", f"k{i}", "fp", 200, {"i": i})
            time.sleep(0.005)             # (holding the write lock: the others queue behind it)
        seen.append(_visible(path, f"k{i}"))

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert seen == [True] * n
    assert 1 <= len(commits) < n


def test_a_lone_writer_commits_by_itself(tmp_path):
    path, store, commits = _store(tmp_path)
    for i in range(5):
        with store.write() as tx:
            tx.remember("t1", f"k{i}", "fp", 200, {"i": i})
        assert _visible(path, f"k{i}")
    assert len(commits) == 5
