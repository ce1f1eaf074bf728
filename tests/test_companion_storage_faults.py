"""Storage faults (issue 10): a full disk in the middle of a group commit. SQLite then rolls the
whole group's transaction back by itself; the savepoint is gone with it. Every writer must get the
truth: 200 only for what is on disk, 503 (never 500) for what is not, and no "ghost" write that
was answered 503 yet committed."""
from __future__ import annotations

import sqlite3
import threading

from companion import create_app
from companion.testing import FakeClock, token_client
from testgames import COUNTER


def test_a_full_disk_during_a_group_commit_answers_the_truth(tmp_path):
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}, "CLOCK": FakeClock()})
    client = token_client(app)
    codes = [client.post("/api/tables", json={"game": "counter", "players": ["A", "B"],
                                              "options": {"goal": 1000}}).json["code"]
             for _ in range(8)]
    store = app.extensions["tokyo"].store
    pages = sqlite3.connect(store.path).execute("PRAGMA page_count").fetchone()[0]
    # From here on the database may not grow: SQLite answers "database or disk is full" as soon
    # as a write needs a new page (a disk that filled up).
    with store.write() as tx:
        tx.conn.execute(f"PRAGMA max_page_count = {pages + 1}")
    answers: dict[tuple[str, int], int] = {}
    lock = threading.Lock()

    def writer(code: str):
        c = app.test_client()
        token = client.host_tokens[code]
        seq = 0
        for i in range(120):
            body = {"expected_seq": seq, "move": {"player": seq % 2, "add": 1, "pad": ["x" * 150] * 2}}
            r = c.post(f"/api/tables/{code}/moves", json=body,
                       headers={"Authorization": f"Bearer {token}", "Idempotency-Key": f"{code}-{i}"})
            assert r.status_code in (200, 503), (r.status_code, r.get_data(as_text=True)[:200])
            assert r.is_json and r.json.get("error" if r.status_code == 503 else "seq") is not None
            with lock:
                answers[code, i] = r.status_code
            if r.status_code == 200:
                seq = r.json["seq"]

    threads = [threading.Thread(target=writer, args=(code,)) for code in codes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    statuses = list(answers.values())
    assert 503 in statuses and 200 in statuses, "the disk never filled, or nothing was written"
    # what is on disk is exactly what was answered 200
    db = sqlite3.connect(store.path)
    for code in codes:
        on_disk = db.execute("SELECT count(*) FROM events WHERE code = ?", (code,)).fetchone()[0]
        confirmed = sum(1 for (c, _), status in answers.items() if c == code and status == 200)
        assert on_disk == confirmed, (code, on_disk, confirmed)
        # (a key is kept under the token that sent it: "<token digest>:<key>")
        keys = {k.split(":", 1)[1] for (k,) in db.execute("SELECT key FROM idempotency WHERE scope = ?",
                                                           (code,))}
        assert keys == {f"{c}-{i}" for (c, i), status in answers.items() if c == code and status == 200}
    # and the server still answers reads (from the committed log)
    for code in codes:
        assert client.get(f"/api/tables/{code}").status_code == 200
