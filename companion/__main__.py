"""`python -m companion` / `tokyo-companion`: serve the companion with waitress.

    python -m companion                  http://127.0.0.1:5000 (PORT in the environment also works)
    python -m companion --lan            every interface; advertises http://tokyo-kit.local:5000 (mDNS)
                                         and prints it, the LAN address and a QR code
    python -m companion --port 8000 --data /some/dir
    python -m companion export --data DIR [--out FILE]     what a (damaged) database still holds
    python -m companion --database postgresql://… [--workers N]       hosted: PostgreSQL, N processes
    python -m companion migrate --data DIR --database postgresql://…  a data folder into PostgreSQL

A data folder serves one companion at a time (a lock); a folder or database that cannot be used
stops the start with one line saying why (exit status 2). With --database several workers (and
several machines) may serve one PostgreSQL database: README, "Hosting".
"""
from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import sqlite3
import sys
import threading
import time
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
                   help="server threads (default 32); live streams hold none")
    p.add_argument("--requests-at-once", type=int, default=None, metavar="N",
                   help="requests each process works on at once (default 8; 0: as many as there are "
                        "threads); the others wait their turn, so that live streams are not held up "
                        "behind them")
    p.add_argument("--database", metavar="URL",
                   help="postgresql://user:password@host/db: keep the tables in PostgreSQL instead of a "
                        "SQLite data folder (the hosted companion; several workers may share it)")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="serve with N processes sharing the port (needs --database; default 1)")
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
    if argv[:1] == ["migrate"]:
        from .migrate import main as migrate_main
        return migrate_main(argv[1:])
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    problem = hosted_problem(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    lock = None
    if args.database:
        config = {"DATABASE_URL": args.database}
        data = None
    else:
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
    if args.requests_at_once is not None:
        config["REQUESTS_AT_ONCE"] = args.requests_at_once or None
    host = "0.0.0.0" if args.lan else args.host
    lan_ip = lan_address() if args.lan else ""
    mdns_name = None if args.no_mdns or not args.lan else args.mdns_name
    try:
        config["BASE_URL"] = lan.base_url(lan=args.lan, host=host, port=args.port, mdns_name=mdns_name,
                                          lan_ip=lan_ip, explicit=args.base_url)
    except lan.BadName as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.workers > 1:
        return serve_workers(args, config, host, lan_ip, mdns_name)
    try:
        app = create_app(config)
    except sqlite3.DatabaseError as exc:
        print(f"error: {opening_problem(args, data, exc)}", file=sys.stderr)
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
        if lock is not None:
            lock.close()
    return 0


def hosted_problem(args) -> str | None:
    """What is wrong with --database/--workers (None: nothing)."""
    if args.workers < 1:
        return "--workers must be 1 or more"
    if args.database:
        from .pgstore import is_url
        if args.data:
            return "give --data (a SQLite folder) or --database (PostgreSQL), not both"
        if not is_url(args.database):
            return "--database must be a postgresql://user:password@host/db URL"
        try:
            import psycopg  # noqa: F401
        except ImportError:
            return "--database needs psycopg: pip install 'tokyo-table-kit[hosted]'"
    elif args.workers > 1:
        return ("--workers needs --database postgresql://…: a SQLite data folder is served by one "
                "process (README, \"Hosting\")")
    return None


def opening_problem(args, data, exc) -> str:
    if args.database:
        from .pgstore import shown
        return f"the database {shown(args.database)} cannot be used ({exc})"
    return f"the database in {data} cannot be opened ({exc}); move it away to start afresh, or restore a copy"


def serve_workers(args, config: dict, host: str, lan_ip: str, mdns_name: str | None) -> int:
    """Pre-fork: this process binds the port and starts `--workers` processes that each build the
    app (their own database connections, listener and timer scheduler) and serve the shared socket;
    the kernel hands each new connection to one of them. A worker that dies is replaced; SIGTERM or
    Ctrl-C stops them all."""
    from .pgstore import PgStore
    try:
        PgStore(config["DATABASE_URL"]).close()     # reachable, schema made, before any worker starts
    except sqlite3.DatabaseError as exc:
        print(f"error: {opening_problem(args, None, exc)}", file=sys.stderr)
        return 2
    try:
        sock = socket.create_server((host, args.port), backlog=1024)
    except OSError as exc:
        print(f"error: cannot listen on {host}:{args.port} ({exc.strerror or exc})", file=sys.stderr)
        return 2
    port = sock.getsockname()[1]
    config["BASE_URL"] = lan.base_url(lan=args.lan, host=host, port=port, mdns_name=mdns_name,
                                      lan_ip=lan_ip, explicit=args.base_url)
    advertised = start_mdns(None, mdns_name, port, lan_ip, explicit=True) if mdns_name else None

    def worker() -> int:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        try:
            app = create_app(config)
        except sqlite3.DatabaseError as exc:
            print(f"error: {opening_problem(args, None, exc)}", file=sys.stderr)
            return 2
        server = create_server(app, host=host, port=port, threads=app.config["THREADS"], sock=sock)
        threading.Thread(target=warm_up, args=(app,), name="warm-up", daemon=True).start()
        server.run()
        return 0

    children: dict[int, tuple[int, float]] = {}          # pid -> (worker number, started)

    def spawn(number: int) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                code = worker()
            finally:
                os._exit(code)
        children[pid] = (number, time.monotonic())
        print(f"worker {number}: pid {pid}", flush=True)

    stopping = []

    def stop(signum, frame):
        stopping.append(signum)
        for pid in list(children):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for number in range(1, args.workers + 1):
        spawn(number)
    print(f"Tokyo table kit companion on {config['BASE_URL']}/  ({args.workers} workers, "
          f"PostgreSQL)", flush=True)
    while children:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        number, started = children.pop(pid, (None, 0.0))
        if number is None or stopping:
            continue
        print(f"worker {number} (pid {pid}) ended ({describe_status(status)}); starting another",
              file=sys.stderr, flush=True)
        if time.monotonic() - started < 5:
            time.sleep(1)          # (a worker that cannot start must not be restarted in a spin)
        spawn(number)
    if advertised is not None:
        advertised.close()
    sock.close()
    return 0


def describe_status(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit status {os.WEXITSTATUS(status)}"


if __name__ == "__main__":
    raise SystemExit(main())
