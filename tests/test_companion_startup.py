"""Starting the companion on storage it cannot use (issue 10): one clear line and exit status 2,
never a traceback; a second companion on the same data folder refuses to start; scattered damage
starts with a warning, answers 503 JSON (never 500) for what cannot be read, and `python -m
companion export` saves what can."""
from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from companion import create_app
from companion.testing import FakeClock, free_port, start_companion, token_client
from testgames import COUNTER

REPO = Path(__file__).resolve().parents[1]


def companion(*args, timeout=30):
    return subprocess.run([sys.executable, "-m", "companion", "--port", "0", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=timeout)


def refused(result) -> str:
    assert result.returncode == 2, (result.returncode, result.stderr[-500:])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


def database(tmp_path: Path, content: bytes) -> Path:
    folder = tmp_path / "data"
    folder.mkdir(parents=True)
    (folder / "companion.sqlite3").write_bytes(content)
    return folder


def a_real_database(tmp_path: Path, tables: int = 1, moves: int = 5) -> Path:
    folder = tmp_path / "real"
    app = create_app({"DATA_DIR": folder, "EXTRA_GAMES": {"counter": COUNTER}, "CLOCK": FakeClock()})
    client = token_client(app)
    for _ in range(tables):
        code = client.post("/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben"],
                                                "options": {"deck": "companion"}}).json["code"]
        for seq in range(moves):
            moves_now = client.get(f"/api/tables/{code}/legal").json["moves"]
            client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq, "move": moves_now[0]})
    app.extensions["tokyo"].store.close()
    with sqlite3.connect(folder / "companion.sqlite3") as conn:    # everything into the main file
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return folder


def test_garbage_truncated_and_tiny_databases(tmp_path):
    garbage = database(tmp_path / "g", random.Random(1).randbytes(64 * 1024))
    assert "not a SQLite database" in refused(companion("--data", str(garbage)))
    tiny = database(tmp_path / "t", b"SQLite format 3\x00" + b"\x01" * 84)
    refused(companion("--data", str(tiny)))
    real = a_real_database(tmp_path)
    db = real / "companion.sqlite3"
    db.write_bytes(db.read_bytes()[: db.stat().st_size // 3])
    for leftover in real.glob("companion.sqlite3-*"):
        leftover.unlink()
    assert "cut short" in refused(companion("--data", str(real)))


def test_a_folder_where_the_database_should_be_and_data_naming_a_file(tmp_path):
    (tmp_path / "d" / "companion.sqlite3").mkdir(parents=True)
    assert "is a folder" in refused(companion("--data", str(tmp_path / "d")))
    (tmp_path / "file").write_text("x")
    assert "is a file" in refused(companion("--data", str(tmp_path / "file")))


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only folder")
def test_a_read_only_data_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        assert "read-only" in refused(companion("--data", str(folder)))
    finally:
        folder.chmod(0o755)



def test_two_companions_on_one_data_folder(tmp_path):
    first = start_companion(free_port(), tmp_path)
    try:
        line = refused(companion("--data", str(tmp_path)))
        assert "in use by another companion" in line and f"pid {first.pid}" in line
    finally:
        first.terminate()
        first.wait(timeout=10)
    again = start_companion(free_port(), tmp_path)         # the lock went with the first process
    again.terminate()
    again.wait(timeout=10)


def test_scattered_damage_starts_with_a_warning_and_never_answers_500(tmp_path):
    folder = a_real_database(tmp_path, tables=6, moves=40)
    db = folder / "companion.sqlite3"
    for leftover in folder.glob("companion.sqlite3-*"):
        leftover.unlink()
    whole = db.read_bytes()
    # Where the pages of each table lie depends on the run (random codes and seeds): damage a few
    # pages of the second half, with one seed after another, until the export (which needs no
    # server) finds some table damaged and some not, and the server, started on it, answers 503 for
    # a damaged table and 200 for a whole one. (The export and the server do not read a table the
    # same way — the server starts from its latest snapshot —, so a page the export trips on may be
    # one the server never reads: the server's answers pick the seed too.)
    # Whatever the seed, no answer may be a 500.
    tried = []
    for seed in range(20):
        data = bytearray(whole)
        page = 4096
        pages = len(data) // page
        rng = random.Random(seed)
        for n in rng.sample(range(pages // 2, pages), max(1, pages // 6)):     # spare the schema
            data[n * page + 100: n * page + 600] = rng.randbytes(500)
        db.write_bytes(bytes(data))
        probe = subprocess.run([sys.executable, "-m", "companion", "export", "--data", str(folder)],
                               cwd=REPO, capture_output=True, text=True, timeout=60)
        if probe.returncode != 0:
            continue
        dump = json.loads(probe.stdout)
        if not (any(d["code"] for d in dump["damaged"]) and dump["tables"]):
            continue
        statuses, wrong, log = served(folder, dump)
        assert not wrong, (seed, wrong, log[-3000:])          # (the server's log says why)
        assert "warning: the database" in log
        tried.append(seed)
        if 503 in statuses and 200 in statuses:      # the damaged table answers 503, the others 200
            break
    else:
        if not tried:
            pytest.skip("no seed damaged one table and spared another in this database's layout")
        raise AssertionError(f"with seeds {tried} the export found damaged tables but the server "
                             "answered none of them 503")


def served(folder: Path, dump: dict) -> tuple[list[int], list, str]:
    """Start the companion on the damaged folder; every table's answers (status codes), the ones
    that are neither 200 nor 503, and the server's log."""
    port = free_port()
    proc = start_companion(port, folder)
    try:
        r = requests.get(f"http://127.0.0.1:{port}/api/plays", timeout=10)
        assert r.status_code in (200, 503) and r.headers["Content-Type"].startswith("application/json")
        codes = [t["code"] for t in dump["tables"]] + [d["code"] for d in dump["damaged"] if d["code"]]
        statuses, wrong = [], []
        for code in codes:
            for path in (f"/api/tables/{code}", f"/t/{code}", f"/api/tables/{code}/events?since=0"):
                r = requests.get(f"http://127.0.0.1:{port}{path}", timeout=10,
                                 headers={"Accept": "application/json"})
                statuses.append(r.status_code)
                if r.status_code not in (200, 503):
                    wrong.append((path, r.status_code, r.text[:200]))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return statuses, wrong, proc.stderr.read()


def test_the_per_address_limits_are_options(tmp_path):
    """Behind a reverse proxy every phone has the proxy's address: the limits per address (24
    connections, 4 live streams) are options, and a nonsense value is one line and exit 2."""
    from companion import create_app
    from companion.serve.server import create_server
    app = create_app({"DATA_DIR": tmp_path / "a", "CONNECTIONS_PER_ADDRESS": 300, "SSE_PER_CLIENT": 200})
    server = create_server(app, port=0)
    try:
        assert server.per_client == 300
        assert app.extensions["tokyo"].hub.per_client == 200
    finally:
        server.close()
    bad = companion("--data", str(tmp_path / "b"), "--streams-per-address", "0")
    assert bad.returncode == 2 and bad.stderr.strip() == "error: --streams-per-address must be 1 or more"
