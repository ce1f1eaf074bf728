"""`python -m companion` / `tokyo-companion`: serve the companion with waitress.

    python -m companion                  http://127.0.0.1:5000 (PORT in the environment also works)
    python -m companion --lan            every interface; prints the LAN address and its QR code
    python -m companion --port 8000 --data /some/dir
    python -m companion export --data DIR [--out FILE]     what a (damaged) database still holds

A data folder serves one companion at a time (a lock); a folder or database that cannot be used
stops the start with one line saying why (exit status 2).
"""
from __future__ import annotations

import argparse
import logging
import os
import socket
import sqlite3
import sys
import threading
from pathlib import Path

from . import create_app, datadir, qr
from .server import create_server


def lan_address() -> str:
    """This machine's address on the local network (the route to a public address, no packet sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def warm_up(app) -> None:
    """Each game's warm-up (e.g. drawing a board twin's map) now, so no phone waits for it."""
    for game in app.extensions["tokyo"].games.values():
        if game.web is not None and game.web.warm_up is not None:
            try:
                game.web.warm_up(game)
            except Exception:  # noqa: BLE001 - the page draws it on demand instead
                logging.getLogger(__name__).exception("warm-up of %s failed", game.id)


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="tokyo-companion", description=__doc__.splitlines()[0])
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--lan", action="store_true",
                   help="listen on every interface and print the address phones should open")
    p.add_argument("--port", type=int, default=int(os.environ.get("PORT", 5000)),
                   help="port (default 5000, or $PORT)")
    p.add_argument("--data", metavar="DIR", help="where the database lives (default: instance folder)")
    p.add_argument("--base-url", metavar="URL",
                   help="the address phones use (table links, join QR codes); default: this "
                        "computer's LAN address with --lan, else http://HOST:PORT")
    p.add_argument("--threads", type=int, default=None,
                   help="server threads; each live phone holds one (default 32)")
    return p.parse_args(argv)


def default_data_dir() -> str:
    """Where create_app keeps the database without --data: the Flask instance folder."""
    from flask import Flask
    return Flask("companion.app", instance_relative_config=True).instance_path


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["export"]:
        from .export import main as export_main
        return export_main(argv[1:])
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    data = os.path.abspath(args.data) if args.data else default_data_dir()
    try:
        lock = datadir.claim(Path(data))          # held (open) until the process ends
        damage = datadir.check(Path(data) / datadir.DB_NAME)
    except datadir.StorageProblem as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if damage:
        print(f"warning: the database in {data} is damaged ({damage[0]}); the companion starts, "
              "tables it cannot read answer 503; save what is readable with: python -m companion "
              f"export --data {data}", file=sys.stderr)
    config = {"DATA_DIR": data}
    if args.threads:
        config["THREADS"] = args.threads
        config["SSE_MAX_STREAMS"] = max(1, args.threads - 8)
    host = "0.0.0.0" if args.lan else args.host
    shown = lan_address() if args.lan else ("127.0.0.1" if host in ("0.0.0.0", "::") else host)
    config["BASE_URL"] = (args.base_url or f"http://{shown}:{args.port}").rstrip("/")
    try:
        app = create_app(config)
    except sqlite3.DatabaseError as exc:
        print(f"error: the database in {data} cannot be opened ({exc}); move it away to start "
              "afresh, or restore a copy", file=sys.stderr)
        return 2

    server = create_server(app, host=host, port=args.port, threads=app.config["THREADS"])
    threading.Thread(target=warm_up, args=(app,), name="warm-up", daemon=True).start()
    port = server.effective_port
    if args.port == 0 and not args.base_url:      # a free port was asked for: now it is known
        app.config["BASE_URL"] = f"http://{shown}:{port}"
    url = app.config["BASE_URL"] + "/"
    if args.lan:
        print(f"Tokyo table kit companion on {url}  (phones on this network: scan or type it)")
        print(qr.terminal(url))
    else:
        print(f"Tokyo table kit companion on {url}")
    sys.stdout.flush()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        app.extensions["tokyo"].hub.stop()
        server.close()
        lock.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
