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
