"""`python -m companion migrate`: a SQLite data folder copied into PostgreSQL answers the API the same;
the PostgreSQL schema is made or changed only by `migrate` (or the first start on a fresh database),
never by a worker's start (the tests at the end).

A folder gets a table of each of the five games played some way by its legal moves (an undo, a
claimed seat, an Idempotency-Key, snapshots), a finished game (a play record) and a running timer
(a deadline); after the migration an app over PostgreSQL answers every read with the same bytes as
the app over the folder, replays the stored key the same, and goes on from there.
"""
from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion import create_app
from companion.store.migrate import main as migrate_main
from companion.testing import FakeClock, token_client
from pg_cluster import run_sql
from testgames import COUNTER

GAMES = ("shinjuku", "shin-bikkuri-man", "capsule-hotel", "sapporo-1876", "jutaku")
REPO = Path(__file__).resolve().parents[1]


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def fill(client) -> dict[str, dict]:
    """Tables of every game and the counter; returns code -> {token, seat, key request}."""
    made = {}
    for game in GAMES:
        r = client.post("/api/tables", json={"game": game, "players": ["Aki", "Ben"], "seed": 5})
        assert r.status_code == 201, r.json
        code, token = r.json["code"], r.json["host_token"]
        seat = client.post(f"/api/tables/{code}/seats", json={"player": 1}).json["token"]
        keyed = None
        for i in range(7):
            legal = client.get(f"/api/tables/{code}/legal", headers=auth(token)).json
            if not legal["moves"]:
                break
            body = {"expected_seq": legal["seq"], "move": legal["moves"][i % len(legal["moves"])]}
            headers = {**auth(token), "Idempotency-Key": f"k{i}"}
            r = client.post(f"/api/tables/{code}/moves", json=body, headers=headers)
            assert r.status_code == 200, r.json
            keyed = (body, headers, r.data)
        seq = client.get(f"/api/tables/{code}").json["seq"]
        assert seq >= 3, game
        assert client.post(f"/api/tables/{code}/undo", json={"expected_seq": seq},
                           headers=auth(token)).status_code == 200
        made[code] = {"token": token, "seat": seat, "keyed": keyed}
    r = client.post("/api/tables", json={"game": "counter", "players": ["Aki", "Ben"],
                                         "options": {"goal": 3}})
    code, token = r.json["code"], r.json["host_token"]
    for seq in range(3):
        assert client.post(f"/api/tables/{code}/moves", headers=auth(token),
                           json={"expected_seq": seq, "move": {"player": seq % 2, "add": 1}}).status_code == 200
    assert client.post(f"/api/tables/{code}/timers", headers=auth(token),
                       json={"expected_seq": 3, "timer": "Egg", "action": "start", "seconds": 90}
                       ).status_code == 200
    made[code] = {"token": token, "seat": None, "keyed": None}
    return made


def answers(client, made) -> dict:
    """Every read of every table, as bytes."""
    out = {"plays": client.get("/api/plays").data}
    for code, t in made.items():
        for who, headers in (("host", auth(t["token"])), ("seat", auth(t["seat"]) if t["seat"] else {}),
                             ("nobody", {})):
            out[code, who, "table"] = client.get(f"/api/tables/{code}", headers=headers).data
            out[code, who, "legal"] = client.get(f"/api/tables/{code}/legal", headers=headers).data
            out[code, who, "events"] = client.get(f"/api/tables/{code}/events?since=0",
                                                  headers={**headers, "Accept": "application/json"}).data
    return out


@pytest.fixture
def folder(tmp_path):
    clock = FakeClock()
    config = {"DATA_DIR": tmp_path / "data", "EXTRA_GAMES": {"counter": COUNTER}, "CLOCK": clock,
              "SNAPSHOT_EVERY": 3}
    client = create_app(config).test_client()
    made = fill(client)
    return config, clock, made, answers(client, made)


def test_a_migrated_folder_answers_the_same(folder, pg_url, capsys):
    config, clock, made, before = folder
    assert migrate_main(["--data", str(config["DATA_DIR"]), "--database", pg_url]) == 0
    assert "copied" in capsys.readouterr().out
    counts = dict(run_sql({"DATABASE_URL": pg_url}, "SELECT 'tables', count(*) FROM tables UNION ALL "
                          "SELECT 'snapshots', count(*) FROM snapshots UNION ALL SELECT 'plays', count(*) "
                          "FROM plays UNION ALL SELECT 'deadlines', count(*) FROM deadlines UNION ALL "
                          "SELECT 'seats', count(*) FROM seats"))
    assert counts == {"tables": 6, "snapshots": counts["snapshots"], "plays": 1, "deadlines": 1,
                      "seats": 5} and counts["snapshots"] >= 5
    hosted = create_app({"DATABASE_URL": pg_url, "EXTRA_GAMES": {"counter": COUNTER}, "CLOCK": clock})
    client = hosted.test_client()
    after = answers(client, made)
    assert after.keys() == before.keys()
    for what in before:
        assert after[what] == before[what], what
    for code, t in made.items():
        if t["keyed"]:
            body, headers, first = t["keyed"]
            again = client.post(f"/api/tables/{code}/moves", json=body, headers=headers)
            assert again.status_code == 200 and again.data == first     # the key was migrated
        # and the table goes on from where it was, tokens and all
        seq = client.get(f"/api/tables/{code}").json["seq"]
        legal = client.get(f"/api/tables/{code}/legal", headers=auth(t["token"])).json
        if legal["moves"]:
            r = client.post(f"/api/tables/{code}/moves", headers=auth(t["token"]),
                            json={"expected_seq": seq, "move": legal["moves"][0]})
            assert r.status_code == 200 and r.json["seq"] == seq + 1
    hosted.extensions["tokyo"].hub.stop()


def test_migrate_twice_does_nothing_and_another_target_is_refused_unless_replaced(folder, pg_url, tmp_path):
    config, clock, made, before = folder
    data = str(config["DATA_DIR"])
    cli = [sys.executable, "-m", "companion", "migrate", "--data", data, "--database", pg_url]
    first = subprocess.run(cli, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    again = subprocess.run(cli, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "nothing to do" in again.stdout
    assert run_sql({"DATABASE_URL": pg_url}, "SELECT count(*) FROM tables") == [(6,)]
    # another folder into the same (now non-empty) database: refused, one line, nothing written
    other = create_app({"DATA_DIR": tmp_path / "other"}).test_client()
    other.post("/api/tables", json={"game": "jutaku", "players": ["Eri"]})
    refused = subprocess.run([*cli[:5], str(tmp_path / "other"), *cli[6:]], cwd=REPO,
                             capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2 and "--replace" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert run_sql({"DATABASE_URL": pg_url}, "SELECT count(*) FROM tables") == [(6,)]
    replaced = subprocess.run([*cli[:5], str(tmp_path / "other"), *cli[6:], "--replace"], cwd=REPO,
                              capture_output=True, text=True, timeout=300)
    assert replaced.returncode == 0, replaced.stderr
    assert run_sql({"DATABASE_URL": pg_url}, "SELECT game FROM tables") == [("jutaku",)]


# -- the schema: made or changed only by `migrate` (or the first start on a fresh database); a start
#    only checks its version (issue 26: a worker starting under write load dropped and re-made the
#    events trigger and deadlocked with the writers) ---------------------------------------------

def cli(*args: str, timeout: int = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=timeout)


def one_error_line(result) -> str:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.stderr, \
        result.stderr
    return lines[0]


def schema_objects(url: str) -> list[tuple]:
    """The trigger on events and its function, by identity (a re-made one has a new oid), and the
    recorded version."""
    return run_sql({"DATABASE_URL": url},
                   "SELECT t.oid, p.oid, (SELECT max(version) FROM companion_schema) FROM pg_trigger t "
                   "JOIN pg_proc p ON p.oid = t.tgfoid WHERE t.tgname = 'events_append_only'")


def test_workers_starting_under_write_load_change_no_schema_and_no_write_fails(pg_url):
    """Writers keep moving and undoing on four tables while a `--workers 2` companion starts on
    the same database: the trigger and its function are the very same objects afterwards (nothing
    dropped or made), every write answered 200, and the new workers serve the tables."""
    import requests

    from companion.testing import ServerThread
    from test_companion_hosted import Companion

    app = create_app({"DATABASE_URL": pg_url})            # the first start: makes the fresh schema
    before = schema_objects(pg_url)
    assert len(before) == 1 and before[0][2] == 4
    stop = threading.Event()
    answers: list[int] = []
    with ServerThread(app, threads=8) as server:
        tables = []
        for _ in range(4):
            r = requests.post(server.url + "/api/tables", json={"game": "shinjuku",
                                                               "players": ["Aki", "Ben"], "seed": 3})
            tables.append((r.json()["code"], r.json()["host_token"]))

        def write(code: str, token: str) -> None:
            with requests.Session() as s:
                s.headers["Authorization"] = f"Bearer {token}"
                while not stop.is_set():
                    legal = s.get(f"{server.url}/api/tables/{code}/legal", timeout=30).json()
                    r = s.post(f"{server.url}/api/tables/{code}/moves", timeout=60,
                               json={"expected_seq": legal["seq"], "move": legal["moves"][0]})
                    answers.append(r.status_code)
                    r = s.post(f"{server.url}/api/tables/{code}/undo", timeout=60,
                               json={"expected_seq": legal["seq"] + 1})
                    answers.append(r.status_code)

        writers = [threading.Thread(target=write, args=t) for t in tables]
        for w in writers:
            w.start()
        try:
            hosted = Companion(pg_url, workers=2)          # starts while the writes go on
            try:
                written = len(answers)
                deadline = time.monotonic() + 60
                while len(answers) < written + 20 and time.monotonic() < deadline:
                    time.sleep(0.1)                        # and they go on a while with it up
                for code, _ in tables:
                    assert hosted.get(f"/api/tables/{code}").status_code == 200
            finally:
                hosted.stop()
        finally:
            stop.set()
            for w in writers:
                w.join(60)
    assert answers and set(answers) == {200}, {s: answers.count(s) for s in set(answers)}
    assert schema_objects(pg_url) == before


def test_a_schema_behind_stops_the_start_in_one_line_until_migrate_brings_it_up(pg_url):
    made = cli("migrate", "--database", pg_url)
    assert made.returncode == 0 and "made the companion's tables" in made.stdout, made.stderr
    again = cli("migrate", "--database", pg_url)
    assert again.returncode == 0 and "nothing to do" in again.stdout
    # an older schema: version 2, without the trigger a later version added
    run_sql({"DATABASE_URL": pg_url}, "DROP TRIGGER events_append_only ON events")
    run_sql({"DATABASE_URL": pg_url}, "UPDATE companion_schema SET version = 2")
    for workers in ([], ["--workers", "2"]):
        line = one_error_line(cli("--database", pg_url, "--port", "0", *workers))
        assert "schema version 2" in line and "needs 4" in line, line
        assert "python -m companion migrate --database" in line, line
    from companion.store.postgres import SchemaProblem
    with pytest.raises(SchemaProblem, match="migrate"):
        create_app({"DATABASE_URL": pg_url})
    assert schema_objects(pg_url) == []                    # the starts changed nothing
    up = cli("migrate", "--database", pg_url)
    assert up.returncode == 0 and "from schema version 2 to 4" in up.stdout, up.stderr
    assert [row[2] for row in schema_objects(pg_url)] == [4]          # the trigger is back
    app = create_app({"DATABASE_URL": pg_url, "EXTRA_GAMES": {"counter": COUNTER}})
    try:
        client = token_client(app)
        code = client.post("/api/tables", json={"game": "counter", "players": ["Eri"]}).json["code"]
        assert client.post(f"/api/tables/{code}/moves", json={"expected_seq": 0, "move": {
            "player": 0, "add": 1}}).status_code == 200
    finally:
        app.extensions["tokyo"].hub.stop()
    with pytest.raises(Exception, match="append-only"):
        run_sql({"DATABASE_URL": pg_url}, "DELETE FROM events WHERE code = ?", (code,))


def test_a_schema_of_a_newer_companion_is_refused_by_the_start_and_by_migrate(pg_url):
    assert cli("migrate", "--database", pg_url).returncode == 0
    run_sql({"DATABASE_URL": pg_url}, "UPDATE companion_schema SET version = 5")
    line = one_error_line(cli("--database", pg_url, "--port", "0"))
    assert "schema version 5" in line and "newer" in line, line
    line = one_error_line(cli("migrate", "--database", pg_url))
    assert "schema version 5" in line and "newer" in line, line
    assert [row[2] for row in schema_objects(pg_url)] == [5]


def test_a_worker_start_on_a_fresh_database_makes_nothing_and_says_to_migrate(pg_url):
    """A forked worker of --workers only checks: its parent makes a fresh database's schema first."""
    from companion.store.postgres import PgStore, SchemaProblem
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(PgStore, "makes_fresh_schema", False)
        with pytest.raises(SchemaProblem, match="no companion tables yet.*migrate --database"):
            PgStore(pg_url)
    assert run_sql({"DATABASE_URL": pg_url}, "SELECT to_regclass('tables')") == [(None,)]
