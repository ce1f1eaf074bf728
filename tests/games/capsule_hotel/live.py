"""What Capsule Hotel's browser tests share: the companion's HTTP API called as a phone would."""
from __future__ import annotations

import json
import urllib.error
import urllib.request


def call(server, path, body=None, token=None):
    """(status, JSON body) of a GET (no body) or POST to the served companion; errors answered too."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(server.url + path, method="POST" if body is not None else "GET",
                                 data=json.dumps(body).encode() if body is not None else None, headers=headers)
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


class Table:
    """A 2-player table (Aki, Ben) created through the API with `options` (and `seed`), both seats
    claimed: `code`, `host` (its token), `tokens` (the seats'); `move(m)` plays `m` as the host at the
    table's seq and returns (status, body, the state as the host sees it)."""

    def __init__(self, server, options: dict, seed: int | None = None):
        self.server = server
        body = {"game": "capsule-hotel", "players": ["Aki", "Ben"], "options": options}
        if seed is not None:
            body["seed"] = seed
        _, made = call(server, "/api/tables", body)
        self.code, self.host = made["code"], made["host_token"]
        self.tokens = [call(server, f"/api/tables/{self.code}/seats", {"player": p})[1]["token"] for p in range(2)]

    def move(self, m: dict):
        seq = call(self.server, f"/api/tables/{self.code}")[1]["seq"]
        status, body = call(self.server, f"/api/tables/{self.code}/moves", {"expected_seq": seq, "move": m}, self.host)
        return status, body, call(self.server, f"/api/tables/{self.code}", token=self.host)[1]["state"]

    def played(self, m: dict) -> dict:
        """`move(m)`, which must be accepted: the state after it."""
        status, body, state = self.move(m)
        assert status == 200, body
        return state
