"""The yardstick of issue 24: the barest durable append a web app can do, served like the companion.

One route, POST /append/<code>: the JSON body is parsed, one row (code, the next seq, the body) is
inserted and committed, and {"seq": n} is answered. Flask on waitress (the companion's production
server), with the same thread count. SQLite: WAL, synchronous=FULL, one connection per thread, each
request its own BEGIN IMMEDIATE … COMMIT (an fsync). PostgreSQL (`--database URL --workers N`): N
processes sharing one listening socket (as `python -m companion --workers N` does), each request its
own transaction (synchronous_commit on). No validation, no view, no notification: what is left is the
cost of the web stack and the durable write, which is what the companion must not exceed.

    python benchmarks/yardstick/bare_append.py --port 8001 --data DIR
    python benchmarks/yardstick/bare_append.py --port 8001 --database postgresql://… --workers 2
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import sqlite3
import sys
import threading

from flask import Flask, jsonify, request

SCHEMA = ("CREATE TABLE IF NOT EXISTS bare_events (code TEXT NOT NULL, seq INTEGER NOT NULL, "
          "body TEXT NOT NULL, PRIMARY KEY (code, seq))")


def sqlite_app(path: str) -> Flask:
    app = Flask(__name__)
    local = threading.local()

    def conn() -> sqlite3.Connection:
        c = getattr(local, "c", None)
        if c is None:
            c = local.c = sqlite3.connect(path, isolation_level=None, timeout=10)
            c.execute("PRAGMA journal_mode = WAL")
            c.execute("PRAGMA synchronous = FULL")
        return c

    conn().execute(SCHEMA)

    @app.post("/append/<code>")
    def append(code):
        body = request.get_json()
        c = conn()
        c.execute("BEGIN IMMEDIATE")
        try:
            seq = c.execute("INSERT INTO bare_events (code, seq, body) VALUES (?, (SELECT coalesce(max(seq), 0) "
                            "+ 1 FROM bare_events WHERE code = ?), ?) RETURNING seq",
                            (code, code, json.dumps(body))).fetchone()[0]
            c.execute("COMMIT")
        except BaseException:
            c.execute("ROLLBACK")
            raise
        return jsonify(seq=seq)

    return app


def postgres_app(url: str) -> Flask:
    import psycopg
    app = Flask(__name__)
    local = threading.local()

    def conn():
        c = getattr(local, "c", None)
        if c is None:
            c = local.c = psycopg.connect(url)
        return c

    with psycopg.connect(url, autocommit=True) as c:
        c.execute(SCHEMA)

    @app.post("/append/<code>")
    def append(code):
        body = request.get_json()
        c = conn()
        with c.transaction():
            seq = c.execute("INSERT INTO bare_events (code, seq, body) VALUES (%s, (SELECT coalesce(max(seq), 0) "
                            "+ 1 FROM bare_events WHERE code = %s), %s) RETURNING seq",
                            (code, code, json.dumps(body))).fetchone()[0]
        return jsonify(seq=seq)

    return app


def main(argv=None) -> int:
    from waitress import serve
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--data", help="a folder for the SQLite file")
    ap.add_argument("--database", help="postgresql://…")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--threads", type=int, default=16)
    args = ap.parse_args(argv)
    if args.database:
        app = postgres_app(args.database)
    else:
        app = sqlite_app(os.path.join(args.data, "bare.sqlite3"))
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    sock.listen(1024)
    children = []
    for _ in range(args.workers - 1):
        pid = os.fork()
        if pid == 0:
            children = []
            break
        children.append(pid)

    def stop(*_):
        for pid in children:
            os.kill(pid, signal.SIGTERM)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    serve(app, sockets=[sock], threads=args.threads, ident="bare", _quiet=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
