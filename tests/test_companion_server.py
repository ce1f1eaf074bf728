"""The companion behind its real server (waitress): concurrent writers, a SIGKILL after a confirmed
write, the command line, and the OpenAPI document checked against the app."""
from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from companion import create_app
from companion.web import openapi
from companion.testing import FakeClock, ServerThread, free_port, start_companion, token_client
from testgames import COUNTER

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def server(tmp_path):
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}, "SSE_MAX_S": 1})
    with ServerThread(app, threads=16) as s:
        yield s


HOST: dict[str, dict] = {}     # table code -> the host token's Authorization header


def create(url, players=("A", "B")):
    r = requests.post(f"{url}/api/tables", json={"game": "counter", "players": list(players),
                                                 "options": {"goal": 1000}}, timeout=10)
    assert r.status_code == 201
    HOST[r.json()["code"]] = {"Authorization": f"Bearer {r.json()['host_token']}"}
    return r.json()["code"]


def test_concurrent_writers_with_the_same_expected_seq_exactly_one_wins(server):
    code = create(server.url)
    writers = 8
    for seq in range(5):
        barrier = threading.Barrier(writers)
        current = requests.get(f"{server.url}/api/tables/{code}", timeout=10).json()["state"]["current"]

        def write(i):
            with requests.Session() as s:            # one connection per writer
                barrier.wait()
                return s.post(f"{server.url}/api/tables/{code}/moves", timeout=10,
                              headers={"Idempotency-Key": f"w{seq}-{i}", **HOST[code]},
                              json={"expected_seq": seq, "move": {"player": current, "add": 1 + i % 3}})

        with ThreadPoolExecutor(writers) as pool:
            answers = list(pool.map(write, range(writers)))
        statuses = sorted(r.status_code for r in answers)
        assert statuses == [200] + [409] * (writers - 1), statuses
        assert all(r.json()["seq"] == seq + 1 for r in answers)
    log = requests.get(f"{server.url}/api/tables/{code}/events?since=0",
                       headers={"Accept": "application/json"}, timeout=10).json()["events"]
    assert [e["seq"] for e in log] == [1, 2, 3, 4, 5]


def test_a_retried_request_racing_itself_appends_one_event(server):
    code = create(server.url)
    barrier = threading.Barrier(6)

    def send(_):
        barrier.wait()
        return requests.post(f"{server.url}/api/tables/{code}/moves", timeout=10,
                             headers={"Idempotency-Key": "same-tap", **HOST[code]},
                             json={"expected_seq": 0, "move": {"player": 0, "add": 2}})

    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(send, range(6)))
    assert {r.status_code for r in answers} == {200}
    assert len({r.text for r in answers}) == 1
    log = requests.get(f"{server.url}/api/tables/{code}/events",
                       headers={"Accept": "application/json"}, timeout=10).json()["events"]
    assert len(log) == 1


def test_sse_through_waitress_delivers_a_change_live(server):
    code = create(server.url)
    got = []

    def listen():
        with requests.get(f"{server.url}/api/tables/{code}/events", stream=True, timeout=10) as r:
            for line in r.iter_lines(decode_unicode=True):
                if line.startswith("id: "):
                    got.append(int(line[4:]))
                    return

    t = threading.Thread(target=listen)
    t.start()
    time.sleep(0.2)
    requests.post(f"{server.url}/api/tables/{code}/moves", timeout=10, headers=HOST[code],
                  json={"expected_seq": 0, "move": {"player": 0, "add": 1}})
    t.join(timeout=10)
    assert got == [1]



def test_a_confirmed_write_survives_sigkill(tmp_path):
    """`python -m companion --port P --data DIR`, SIGKILL right after a 200, restart: it is there."""
    pytest.importorskip("companion.games.shinjuku")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = start_companion(port, tmp_path)
    try:
        r = requests.post(f"{url}/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben"],
                                                     "options": {"deck": "companion"}}, timeout=10)
        code = r.json()["code"]
        host = {"Authorization": f"Bearer {r.json()['host_token']}"}
        r = requests.post(f"{url}/api/tables/{code}/moves", timeout=10, headers=host,
                          json={"expected_seq": 0, "move": {"type": "place-customers", "player": 0}})
        assert r.status_code == 200
        r = requests.post(f"{url}/api/tables/{code}/timers", timeout=10, headers=host,
                          json={"expected_seq": 1, "timer": "turn", "action": "start", "seconds": 90})
        assert r.status_code == 200
        state_before = requests.get(f"{url}/api/tables/{code}", timeout=10).json()["state"]
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(timeout=10)
    proc = start_companion(port, tmp_path)
    try:
        t = requests.get(f"{url}/api/tables/{code}", timeout=10).json()
        assert t["seq"] == 2 and t["state"] == state_before
        assert t["timers"][0]["status"] == "running"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_command_line_options():
    from companion.serve.cli import parse_args
    args = parse_args([])
    assert args.host == "127.0.0.1" and not args.lan
    assert parse_args(["--lan", "--port", "8123", "--data", "/x"]).port == 8123
    os.environ["PORT"] = "6001"
    try:
        assert parse_args([]).port == 6001
    finally:
        del os.environ["PORT"]


# ---- OpenAPI ---------------------------------------------------------------------------------------
def routed(app) -> set[tuple[str, str]]:
    import re
    out = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.endpoint.endswith(".static"):
            continue     # the app's and each game's static files
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            out.add((path, method.lower()))
    return out


def test_openapi_document_matches_the_routes(tmp_path):
    app = create_app({"DATA_DIR": tmp_path})
    doc = app.test_client().get("/api/openapi.json").json
    assert doc["openapi"].startswith("3.")
    documented = {(path, method) for path, item in doc["paths"].items() for method in item}
    assert documented == routed(app)
    # every $ref resolves
    import json
    for ref in {part.split('"')[0] for part in json.dumps(doc).split('"$ref": "')[1:]}:
        assert ref.rsplit("/", 1)[1] in doc["components"]["schemas"], ref


def test_real_responses_validate_against_the_documented_schemas(tmp_path):
    clock = FakeClock()
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}, "CLOCK": clock})
    c = token_client(app)
    doc = c.get("/api/openapi.json").json

    def check(path, method, response):
        spec = doc["paths"][path][method]["responses"][str(response.status_code)]
        schema = spec["content"]["application/json"]["schema"]
        problems = openapi.validate(schema, response.json, doc)
        assert not problems, (path, method, response.status_code, problems)
        return response.json

    check("/api/time", "get", c.get("/api/time"))
    check("/api/games", "get", c.get("/api/games"))
    created = check("/api/tables", "post", c.post("/api/tables", json={"game": "counter",
                                                                         "players": ["A", "B"]}))
    code = created["code"]
    p = "/api/tables/{code}"
    check(p, "get", c.get(f"/api/tables/{code}"))
    check(p, "get", c.get("/api/tables/ZZZZZZZZ"))
    check(p + "/moves", "post", c.post(f"/api/tables/{code}/moves",
                                       json={"expected_seq": 0, "move": {"player": 0, "add": 1}}))
    check(p + "/moves", "post", c.post(f"/api/tables/{code}/moves",
                                       json={"expected_seq": 0, "move": {"player": 0, "add": 1}}))
    check(p + "/moves", "post", c.post(f"/api/tables/{code}/moves",
                                       json={"expected_seq": 1, "move": {"player": 0, "add": 9}}))
    check(p + "/moves", "post", c.post(f"/api/tables/{code}/moves", data=b"{"))
    check(p + "/moves", "post", c.post(f"/api/tables/{code}/moves", data=b" " * 70000))
    check(p + "/undo", "post", c.post(f"/api/tables/{code}/undo", json={"expected_seq": 1}))
    check(p + "/timers", "post", c.post(f"/api/tables/{code}/timers",
                                        json={"expected_seq": 2, "timer": "t", "action": "start",
                                              "seconds": 3}))
    minimal = c.post(f"/api/tables/{code}/moves", headers={"Prefer": "return=minimal"},
                     json={"expected_seq": 3, "move": {"player": 0, "add": 1}})
    assert check(p + "/moves", "post", minimal) == {"seq": 4}
    assert minimal.headers["Preference-Applied"] == "return=minimal"
    check(p + "/events", "get", c.get(f"/api/tables/{code}/events?since=0",
                                      headers={"Accept": "application/json"}))
    check(p, "get", c.get(f"/api/tables/{code}"))
    if app.extensions["tokyo"].games["shinjuku"].playable:
        check("/api/shinjuku/score", "post", c.post("/api/shinjuku/score",
                                                   json={"customers": {"food": 3}, "wild": 1}))
        check("/api/shinjuku/score", "post", c.post("/api/shinjuku/score",
                                                   json={"customers": {"food": 300}}))
    # and the validator itself notices a wrong answer
    assert openapi.validate({"$ref": "#/components/schemas/Timer"}, {"name": "x"}, doc)
    move_ok = doc["paths"][p + "/moves"]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert openapi.validate(move_ok, {"seq": 4, "stat": {}}, doc)            # neither of the two
    assert openapi.validate(move_ok, {"seq": 4, "state": {}}, doc) == []


# ---- admission: a few requests in the app at once ---------------------------------------------------
def test_admission_lets_at_most_n_requests_into_the_app_at_once():
    from companion.serve.server import Admission
    inside, most, lock = 0, 0, threading.Lock()

    def app(environ, start_response):
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
        time.sleep(0.05)
        with lock:
            inside -= 1
        start_response("200 OK", [])
        return [b"ok"]

    gated = Admission(app, 3)
    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(lambda _: gated({}, lambda *a: None), range(24)))
    assert answers == [[b"ok"]] * 24
    assert most == 3                      # (without the gate all 12 threads are inside at once)
    most = 0
    with ThreadPoolExecutor(12) as pool:
        list(pool.map(lambda _: Admission(app, None)({}, lambda *a: None), range(24)))
    assert most > 3


def test_a_live_stream_held_by_a_thread_does_not_hold_an_admission_slot(tmp_path):
    """With one request at a time and live streams served by threads (any other WSGI server), an
    open stream must not keep every other request out: only the app call is gated, not the body."""
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}, "REQUESTS_AT_ONCE": 1})
    with ServerThread(app, live_streams=False) as server:
        code = create(server.url)
        with requests.get(f"{server.url}/api/tables/{code}/events", stream=True, timeout=10) as r:
            assert r.status_code == 200
            first = next(r.iter_lines(decode_unicode=True))
            assert first is not None
            answer = requests.post(f"{server.url}/api/tables/{code}/moves", timeout=5, headers=HOST[code],
                                   json={"expected_seq": 0, "move": {"player": 0, "add": 1}})
            assert answer.status_code == 200
            assert requests.get(f"{server.url}/api/tables/{code}", timeout=5).json()["seq"] == 1
