"""Shinjuku tables for the board page's browser tests, made through the companion's API as a phone would."""
from __future__ import annotations

import requests


def table_after(server, move: dict, **create) -> tuple[str, dict]:
    """A 2-player table (Aki, Ben; `create`: the request's "options", "seed") with `move` played by the
    host as its first move: (code, the host's Authorization header)."""
    r = requests.post(server.url + "/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben"], **create},
                      timeout=10)
    code, host = r.json()["code"], {"Authorization": f"Bearer {r.json()['host_token']}"}
    assert requests.post(f"{server.url}/api/tables/{code}/moves", headers=host, timeout=10, json={
        "expected_seq": 0, "move": move}).status_code == 200
    return code, host
