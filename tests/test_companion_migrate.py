"""`python -m companion migrate`: a SQLite data folder copied into PostgreSQL answers the API the same.

A folder gets a table of each of the five games played some way by its legal moves (an undo, a
claimed seat, an Idempotency-Key, snapshots), a finished game (a play record) and a running timer
(a deadline); after the migration an app over PostgreSQL answers every read with the same bytes as
the app over the folder, replays the stored key the same, and goes on from there.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion import create_app
from companion.migrate import main as migrate_main
from companion.testing import FakeClock
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
