"""`python -m companion` / `tokyo-companion`: serve the companion with waitress.

    python -m companion                  http://127.0.0.1:5000 (PORT in the environment also works)
    python -m companion --lan            every interface; advertises http://tokyo-kit.local:5000 (mDNS)
                                         and prints it, the LAN address and a QR code
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

from . import create_app, datadir, lan, qr
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


def start_mdns(app, name: str, port: int, lan_ip: str, *, explicit: bool):
    """Advertise NAME.local at the LAN address; on failure one warning line, and (unless the base
    URL was given) the LAN address becomes the base URL, so table links and the join QR still work."""
    problem = None
    if lan_ip.startswith("127."):
        problem = "this computer has no network address"
    else:
        try:
            return lan.advertise(name, port, [lan_ip])
        except Exception as exc:  # noqa: BLE001 - zeroconf's, the OS's or a missing package: one line
            problem = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    host = lan.mdns_host(name)
    fallback = "" if explicit else f"; links and the join QR use http://{lan_ip}:{port} instead"
    if not explicit:
        app.config["BASE_URL"] = f"http://{lan_ip}:{port}"
    print(f"warning: could not advertise {host} on the network ({problem}): phones cannot open "
          f"http://{host}:{port}{fallback}", file=sys.stderr)
    return None


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="tokyo-companion", description=__doc__.splitlines()[0])
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--lan", action="store_true",
                   help="listen on every interface and print the address phones should open")
    p.add_argument("--port", type=int, default=int(os.environ.get("PORT", 5000)),
                   help="port (default 5000, or $PORT)")
    p.add_argument("--data", metavar="DIR", help="where the database lives (default: instance folder)")
    p.add_argument("--base-url", metavar="URL",
                   help="the address phones use (table links, join QR codes); default: "
                        "http://NAME.local:PORT with --lan (see --mdns-name), else http://HOST:PORT")
    p.add_argument("--mdns-name", metavar="NAME", default=lan.DEFAULT_NAME,
                   help="with --lan, the stable name advertised on the network by multicast DNS: "
                        f"NAME.local (default {lan.DEFAULT_NAME})")
    p.add_argument("--no-mdns", action="store_true",
                   help="with --lan, advertise no .local name; the base URL is the LAN address")
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
    lan_ip = lan_address() if args.lan else ""
    mdns_name = None if args.no_mdns or not args.lan else args.mdns_name
    try:
        config["BASE_URL"] = lan.base_url(lan=args.lan, host=host, port=args.port, mdns_name=mdns_name,
                                          lan_ip=lan_ip, explicit=args.base_url)
    except lan.BadName as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
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
        app.config["BASE_URL"] = lan.base_url(lan=args.lan, host=host, port=port, mdns_name=mdns_name,
                                              lan_ip=lan_ip)
    advertised = None
    if mdns_name:
        advertised = start_mdns(app, mdns_name, port, lan_ip, explicit=bool(args.base_url))
    url = app.config["BASE_URL"] + "/"
    if args.lan:
        print(f"Tokyo table kit companion on {url}  (phones on this network: scan or type it)")
        if lan_ip and lan_ip not in url:
            print(f"  also on http://{lan_ip}:{port}/ (this computer's address on the network today)")
        print(qr.terminal(url))
    else:
        print(f"Tokyo table kit companion on {url}")
    sys.stdout.flush()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        if advertised is not None:
            advertised.close()
        app.extensions["tokyo"].hub.stop()
        server.close()
        lock.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
