"""The lane (companion/web/lane.py) answers POST …/moves, GET /api/tables/<code> and GET …/legal
exactly as the Flask views do.

Two apps, alike but for LANE, are sent the same requests in the same order (their tables made
alike, each request carrying that app's own tokens): every answer must be the same status, the same
headers in the same order and the same bytes. The requests cover what a move meets: accepted moves,
Idempotency-Key replays and misuse, stale seqs, refusals, every kind of token trouble, malformed and
oversized bodies, other content types, origins and paths; reads of the table by every kind of token;
and its legal moves with every kind of query. Then the lane app must have answered the plain
requests without Flask's request machinery (its before-request hook never saw them), and the lane
must know every hook Flask would have run for them.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import create_app
from companion.testing import FakeClock
from testgames import COUNTER


class Side:
    """One of the two apps, with its tables' tokens and the paths its before-request hook saw."""

    def __init__(self, tmp_path, lane: bool):
        self.app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER},
                               "CLOCK": FakeClock(), "LANE": lane, "SNAPSHOT_EVERY": 5})
        self.seen: list[tuple[str, str]] = []
        self.app.before_request_funcs.setdefault(None, []).insert(0, self._saw)   # (before any other)
        self.client = self.app.test_client()
        self.tokens: dict[str, str] = {}
        self.codes: dict[str, str] = {}

    def _saw(self):
        from flask import request
        self.seen.append((request.method, request.path))

    def table(self, name: str, game: str = "counter", **body) -> None:
        r = self.client.post("/api/tables", json={"game": game, "players": ["Aki", "Ben"], **body})
        assert r.status_code == 201, r.get_json()
        self.codes[name] = r.get_json()["code"]
        self.tokens[name] = r.get_json()["host_token"]
        for seat in (0, 1):
            r = self.client.post(f"/api/tables/{self.codes[name]}/seats", json={"player": seat})
            assert r.status_code == 201, r.get_json()
            self.tokens[f"{name}/{seat}"] = r.get_json()["token"]

    def send(self, path: str, body, headers: dict, method: str = "POST"):
        """`path` and `headers` may name a table ({t}) and a token ({tok:t/0}) of this app."""
        path = path.format(**self.codes)
        for name, token in sorted(self.tokens.items(), key=lambda kv: -len(kv[0])):
            headers = {k: v.replace("{tok:%s}" % name, token) for k, v in headers.items()}
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers.setdefault("Content-Type", "application/json")
        r = self.client.open(path, method=method, data=data, headers=headers)
        out = [r.status, list(r.headers.items()), r.get_data()]
        for name, code in self.codes.items():      # (the two apps' codes differ; an answer may name it)
            out[1] = [(k, v.replace(code, "{%s}" % name)) for k, v in out[1]]
            out[2] = out[2].replace(code.encode(), b"{%s}" % name.encode())
        return tuple(out)


@pytest.fixture
def sides(tmp_path):
    (tmp_path / "lane").mkdir()
    (tmp_path / "flask").mkdir()
    lane, flask = Side(tmp_path / "lane", True), Side(tmp_path / "flask", False)
    for side in (lane, flask):
        side.table("t")
        side.table("u")
    return lane, flask


HOST = {"Authorization": "Bearer {tok:t}"}
SEAT0 = {"Authorization": "Bearer {tok:t/0}"}
SEAT1 = {"Authorization": "Bearer {tok:t/1}"}
MOVES = "/api/tables/{t}/moves"
TABLE = "/api/tables/{t}"


def add(seq: int, player: int, n: int = 1) -> dict:
    return {"expected_seq": seq, "move": {"player": player, "add": n}}


#: (path, body, headers, method): the requests both apps are sent, in this order.
SCRIPT = [
    (MOVES, add(0, 0), {**HOST, "Idempotency-Key": "k1"}, "POST"),              # accepted
    (MOVES, add(0, 0), {**HOST, "Idempotency-Key": "k1"}, "POST"),              # its replay
    (MOVES, add(0, 0, 2), {**HOST, "Idempotency-Key": "k1"}, "POST"),           # the key misused
    (MOVES, add(0, 0), {**SEAT1, "Idempotency-Key": "k1"}, "POST"),             # another token's key
    (MOVES, add(0, 1), HOST, "POST"),                                            # stale: 409
    (MOVES, add(1, 0), SEAT1, "POST"),                                           # for another seat: 403
    (MOVES, add(1, 1), SEAT1, "POST"),                                           # a seat's own move
    (MOVES, add(2, 0, 4), SEAT0, "POST"),                                        # illegal: 422
    (MOVES, {"expected_seq": 2, "move": {"player": 0, "add": 1, "x": [1]}}, SEAT0, "POST"),
    (MOVES, add(2, 0), {}, "POST"),                                              # no token: 401
    (MOVES, add(2, 0), {"Authorization": "Basic abc"}, "POST"),
    (MOVES, add(2, 0), {"Authorization": "Bearer not-a-token"}, "POST"),
    (MOVES, add(2, 0), {"Authorization": "Bearer {tok:u}"}, "POST"),            # another table's
    (MOVES, b"{not json", HOST, "POST"),
    (MOVES, b"[1, 2]", HOST, "POST"),
    (MOVES, b"", HOST, "POST"),
    (MOVES, b'{"expected_seq": 2, "move": {"player": 0, "add": 1, "s": "\\ud800"}}', HOST, "POST"),
    (MOVES, b'{"expected_seq": 2, "move": ' + b"[" * 40 + b"]" * 40 + b"}", HOST, "POST"),
    (MOVES, b'{"expected_seq": 2.0, "move": {"player": 0, "add": 1e0}}', HOST, "POST"),
    (MOVES, b'{"expected_seq": 3, "move": {"player": 1, "add": 1e400}}', HOST, "POST"),
    (MOVES, {"move": {"player": 1, "add": 1}}, HOST, "POST"),                    # no expected_seq
    (MOVES, {"expected_seq": 3, "move": 5}, HOST, "POST"),
    (MOVES, add(3, 1), {**HOST, "Idempotency-Key": "bad key"}, "POST"),
    (MOVES, add(3, 1), {**HOST, "Content-Type": "text/plain"}, "POST"),          # 415, by Flask
    (MOVES, add(3, 1), {**HOST, "Content-Type": "Application/JSON; charset=utf-8"}, "POST"),
    (MOVES, add(4, 0), {**HOST, "Origin": "https://evil.example"}, "POST"),      # 403, by Flask
    (MOVES, add(4, 0), {**HOST, "Origin": "http://127.0.0.1:5000"}, "POST"),
    (MOVES, add(5, 1), {**HOST, "Origin": "null"}, "POST"),
    (MOVES + "/", add(5, 1), HOST, "POST"),
    ("/api/tables/{t}//moves", add(5, 1), HOST, "POST"),
    (MOVES, add(5, 1), HOST, "PUT"),
    ("/api/tables/ZZZZ-ZZZZ/moves", add(0, 0), HOST, "POST"),                    # no such table
    ("/api/tables/no/moves", add(0, 0), HOST, "POST"),                           # not a code
    ("/api/tables/é/moves", add(0, 0), HOST, "POST"),
    (MOVES, {"expected_seq": 5, "move": {"player": 1, "add": 1}, "pad": "x" * 70_000}, HOST, "POST"),
    (MOVES.replace("{t}", "{t_lower}"), add(5, 1), HOST, "POST"),                # typed in lower case
    (MOVES, add(6, 0, 3), {**SEAT0, "Idempotency-Key": "k2"}, "POST"),
    (MOVES, add(6, 0, 3), {**SEAT0, "Idempotency-Key": "k2"}, "POST"),          # a seat's replay
    (MOVES, add(7, 1), {**SEAT1, "Idempotency-Key": "k3", "Prefer": "return=minimal"}, "POST"),
    (MOVES, add(7, 1), {**SEAT1, "Idempotency-Key": "k3"}, "POST"),             # its replay, whole
    (MOVES, add(6, 0, 3), {**SEAT0, "Idempotency-Key": "k2",                    # a replay, minimal
                           "Prefer": "respond-async, RETURN=minimal; x=1"}, "POST"),
    (MOVES, add(7, 0), {**HOST, "Prefer": "return=minimal"}, "POST"),           # stale: 409, whole
    (MOVES, add(8, 0, 9), {**HOST, "Prefer": "return=minimal"}, "POST"),        # illegal: 422
    (MOVES, add(8, 0), {**HOST, "Prefer": "return=representation"}, "POST"),
    (TABLE, b"", HOST, "GET"),                                                   # reads of the table
    (TABLE, b"", SEAT0, "GET"),
    (TABLE, b"", SEAT1, "GET"),
    (TABLE, b"", {}, "GET"),
    (TABLE, b"", {"Authorization": "Basic abc"}, "GET"),
    (TABLE, b"", {"Authorization": "Bearer nope"}, "GET"),
    (TABLE, b"", {"Authorization": "Bearer {tok:u}"}, "GET"),
    (TABLE + "?since=3", b"", HOST, "GET"),
    (TABLE.replace("{t}", "{t_lower}"), b"", HOST, "GET"),
    (TABLE + "/", b"", HOST, "GET"),
    (TABLE, b"", HOST, "HEAD"),
    ("/api/tables/ZZZZ-ZZZZ", b"", HOST, "GET"),
    ("/api/tables/no", b"", {}, "GET"),
    ("/api/tables/é", b"", {}, "GET"),
    (TABLE + "/legal", b"", HOST, "GET"),                                        # its legal moves
    (TABLE + "/legal?player=1", b"", SEAT1, "GET"),
    (TABLE + "/legal?player=01", b"", {}, "GET"),
    (TABLE + "/legal?player=", b"", HOST, "GET"),
    (TABLE + "/legal?player=x", b"", HOST, "GET"),
    (TABLE + "/legal?player=123", b"", HOST, "GET"),
    (TABLE + "/legal?player=1&player=0", b"", HOST, "GET"),
    (TABLE + "/legal?other=1", b"", HOST, "GET"),
    (TABLE + "/legal", b"", {"Authorization": "Bearer nope"}, "GET"),
    ("/api/tables/ZZZZ-ZZZZ/legal", b"", {}, "GET"),
]


def test_the_lane_answers_every_request_as_flask_does(sides):
    lane, flask = sides
    for side in sides:
        code = side.codes["t"]
        side.codes["t_lower"] = f"{code[:4].lower()}-{code[4:].lower()}"
    for i, (path, body, headers, method) in enumerate(SCRIPT):
        got = lane.send(path, body, dict(headers), method)
        want = flask.send(path, body, dict(headers), method)
        assert got == want, f"request {i} ({method} {path}, {headers}): lane {got} != flask {want}"
    # the script went the whole way: moves accepted by both, a replay the same bytes
    assert lane.send("/api/tables/{t}", b"", HOST, "GET")[2] == flask.send("/api/tables/{t}", b"", HOST,
                                                                         "GET")[2]
    state = json.loads(lane.send("/api/tables/{t}", b"", HOST, "GET")[2])
    assert state["seq"] == 9 and state["state"]["count"] == 11


def test_the_lane_skips_flask_for_plain_requests_only(sides):
    lane, flask = sides
    reads = [r for r in SCRIPT if r[3] in ("GET", "HEAD")]
    for side in sides:
        side.seen.clear()
        for path, body, headers, method in SCRIPT[:8] + SCRIPT[23:26] + reads[:4] + reads[9:14] + \
                [reads[14], reads[21]]:
            side.send(path, body, dict(headers), method)
    code = lane.codes["t"]
    moves = f"/api/tables/{code}/moves"
    # Flask saw every request without the lane; with it, only the text/plain move, the foreign
    # origin's, the trailing slash's, the HEAD, the code that is not ASCII and the legal moves'
    # other query (the lane's errors are answered by Flask's handlers, but no hook runs before them)
    assert len(flask.seen) == 22
    assert lane.seen == [("POST", moves), ("POST", moves), ("GET", f"/api/tables/{code}/"),
                         ("HEAD", f"/api/tables/{code}"), ("GET", "/api/tables/é"),
                         ("GET", f"/api/tables/{code}/legal")]


def test_the_lane_knows_every_hook_flask_runs_around_a_move(tmp_path):
    """The lane mirrors security.refuse_foreign_origin (origin_allowed_by) and security.add_headers
    (HEADERS), and no other hook: a new before- or after-request hook or URL preprocessor must be
    mirrored there too (or the lane must leave such requests to Flask)."""
    from companion.web.security import add_headers, refuse_foreign_origin
    app = create_app({"DATA_DIR": tmp_path, "EXTRA_GAMES": {"counter": COUNTER}})
    assert dict(app.before_request_funcs) == {None: [refuse_foreign_origin]}
    assert dict(app.after_request_funcs) == {None: [add_headers]}
    assert not any(app.url_value_preprocessors.values())
    assert not any(app.teardown_request_funcs.values())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(
    st.binary(max_size=60),
    st.dictionaries(st.sampled_from(["expected_seq", "move", "x"]),
                    st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-3, 10), st.text(max_size=4)),
                                 lambda inner: st.lists(inner, max_size=3) |
                                 st.dictionaries(st.sampled_from(["player", "add", "type"]), inner, max_size=3),
                                 max_leaves=6), max_size=3).map(lambda d: json.dumps(d).encode())),
    token=st.sampled_from(["{tok:t}", "{tok:t/0}", "{tok:t/1}", "nope", ""]),
    key=st.one_of(st.none(), st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=5)))
def test_any_body_and_token_get_the_same_answer_from_both(sides, body, token, key):
    lane, flask = sides
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if key is not None:
        headers["Idempotency-Key"] = key
    assert lane.send(MOVES, body, dict(headers)) == flask.send(MOVES, body, dict(headers))
