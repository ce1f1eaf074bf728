"""`python -m companion` / `tokyo-companion`: serve the companion with waitress.

    python -m companion                  http://127.0.0.1:5000 (PORT in the environment also works)
    python -m companion --lan            every interface; advertises http://tokyo-kit.local:5000 (mDNS)
                                         and prints it, the LAN address and a QR code
    python -m companion --port 8000 --data /some/dir
    python -m companion export --data DIR [--out FILE]     what a (damaged) database still holds
    python -m companion --database postgresql://… [--workers N]       hosted: PostgreSQL, N processes
    python -m companion migrate --database postgresql://…             make the schema or bring it up to date
    python -m companion migrate --data DIR --database postgresql://…  a data folder into PostgreSQL

A data folder serves one companion at a time (a lock); a folder or database that cannot be used
stops the start with one line saying why (exit status 2). With --database several workers (and
several machines) may serve one PostgreSQL database: README, "Hosting". A start never changes an
existing PostgreSQL schema (it only checks its version: `migrate` changes it); a fresh database gets
its tables from the first start. SIGTERM or Ctrl-C stops the companion and every process it started
(serve_workers).
"""
from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import socket
import sqlite3
import sys
import threading
import time
from pathlib import Path

from .. import create_app
from ..store import datadir
from ..web import qr
from . import lan
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
    p.add_argument("--connections-per-address", type=int, default=None, metavar="N",
                   help="connections one address may hold at once (default 24); behind a reverse proxy "
                        "every phone has the proxy's address: raise it")
    p.add_argument("--streams-per-address", type=int, default=None, metavar="N",
                   help="live streams one address may hold at once (default 4); as above")
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
        from ..store.export import main as export_main
        return export_main(argv[1:])
    if argv[:1] == ["migrate"]:
        from ..store.migrate import main as migrate_main
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
    for option, key in (("connections_per_address", "CONNECTIONS_PER_ADDRESS"),
                        ("streams_per_address", "SSE_PER_CLIENT")):
        value = getattr(args, option)
        if value is not None:
            if value < 1:
                print(f"error: --{option.replace('_', '-')} must be 1 or more", file=sys.stderr)
                return 2
            config[key] = value
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
    signal.signal(signal.SIGTERM, stop_serving)      # as Ctrl-C: the server closes, then the process ends
    advertised = None
    try:      # (from here a SIGTERM, even one during the start, ends in the finally below)
        threading.Thread(target=warm_up, args=(app,), name="warm-up", daemon=True).start()
        port = server.effective_port
        if lan_ip:        # a phone that opens the LAN address instead of the name may write too
            app.config["ALLOWED_ORIGINS"] = [f"http://{lan_ip}:{port}"]
        if args.port == 0 and not args.base_url:      # a free port was asked for: now it is known
            app.config["BASE_URL"] = lan.base_url(lan=args.lan, host=host, port=port, mdns_name=mdns_name,
                                                  lan_ip=lan_ip)
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
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)     # (a second SIGTERM ends it at once)
        stop_own_children()                               # (the board drawing, if it still runs)
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
        from ..store.postgres import is_url
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
        from ..store.postgres import SchemaProblem, shown
        if isinstance(exc, SchemaProblem):
            return str(exc)
        return f"the database {shown(args.database)} cannot be used ({exc})"
    return f"the database in {data} cannot be opened ({exc}); move it away to start afresh, or restore a copy"


#: Seconds the workers have to end after SIGTERM before they are killed (SIGKILL).
STOP_GRACE_S = 5.0
#: The signals that stop the companion; the supervisor also waits for SIGCHLD (a worker ended).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
WATCHED = {*STOP_SIGNALS, signal.SIGCHLD}


def serve_workers(args, config: dict, host: str, lan_ip: str, mdns_name: str | None) -> int:
    """Pre-fork: this process checks the database's schema (makes it on a fresh database, which
    nothing can be writing to yet), binds the port and starts `--workers` processes that each build
    the app (their own database connections, listener and timer scheduler) and serve the shared
    socket; the kernel hands each new connection to one of them. A worker that dies is replaced.

    SIGTERM or SIGINT, at any moment (during start-up, right after a worker was replaced), stops
    them all: each worker gets SIGTERM (it stops the processes it started and exits), one still
    there after STOP_GRACE_S gets SIGKILL, and this process returns once every worker is gone. The
    signals are blocked here and taken one at a time by the supervising loop (take_signal), so
    none can arrive between a fork and the bookkeeping of its worker, nor reach a new worker before
    it has its own handler. A worker also dies with this
    process however it ends (kill -9 included: PR_SET_PDEATHSIG on Linux, else a pipe it watches)."""
    # blocked before any thread or worker exists: every thread and worker inherits the mask, so a
    # stop signal can only be taken by the loop below (the workers unblock it for themselves)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, WATCHED)
    try:
        return _serve_workers(args, config, host, lan_ip, mdns_name, mask)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _serve_workers(args, config: dict, host: str, lan_ip: str, mdns_name: str | None, mask) -> int:
    from ..store.postgres import PgStore, SchemaProblem
    try:
        PgStore(config["DATABASE_URL"]).close()     # the schema checked (made if fresh), no worker yet
    except SchemaProblem as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except sqlite3.DatabaseError as exc:
        print(f"error: {opening_problem(args, None, exc)}", file=sys.stderr)
        return 2
    if stop_pending():
        return 0
    try:
        sock = socket.create_server((host, args.port), backlog=1024)
    except OSError as exc:
        print(f"error: cannot listen on {host}:{args.port} ({exc.strerror or exc})", file=sys.stderr)
        return 2
    port = sock.getsockname()[1]
    config["BASE_URL"] = lan.base_url(lan=args.lan, host=host, port=port, mdns_name=mdns_name,
                                      lan_ip=lan_ip, explicit=args.base_url)
    if lan_ip:
        config["ALLOWED_ORIGINS"] = [f"http://{lan_ip}:{port}"]
    advertised = start_mdns(None, mdns_name, port, lan_ip, explicit=True) if mdns_name else None
    parent = os.getpid()
    # a pipe nobody writes: a worker whose read end sees EOF knows this process is gone (where
    # PR_SET_PDEATHSIG is not available)
    alive_r, alive_w = os.pipe()

    def worker() -> int:
        os.close(alive_w)
        die_with_parent(parent, alive_r)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for signum in STOP_SIGNALS:
            signal.signal(signum, end_worker)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        PgStore.makes_fresh_schema = False       # a worker's start only checks the schema
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
    due: dict[int, float] = {}                           # worker number -> when to start it again
    quick_deaths: dict[int, int] = {}

    def spawn(number: int) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                code = worker()
            except BaseException:  # noqa: BLE001 - a worker never returns into the supervisor
                import traceback
                traceback.print_exc()
            finally:
                os._exit(code)
        children[pid] = (number, time.monotonic())
        print(f"worker {number}: pid {pid}", flush=True)

    stopped_by = None
    try:
        for number in range(1, args.workers + 1):
            spawn(number)
        print(f"Tokyo table kit companion on {config['BASE_URL']}/  ({args.workers} workers, "
              f"PostgreSQL)", flush=True)
        while stopped_by is None:
            now = time.monotonic()
            wait = min([0.5, *(max(0.0, t - now) for t in due.values())])
            got = take_signal(wait)
            if got in STOP_SIGNALS:
                stopped_by = got
                break
            for pid, status in reap(children):
                number, started = children.pop(pid)
                young = time.monotonic() - started < 5
                quick_deaths[number] = quick_deaths.get(number, 0) + 1 if young else 0
                # (a worker that cannot start must not be restarted in a spin: 1, 2, 4 … 30 s)
                delay = min(30.0, 2.0 ** (quick_deaths[number] - 1)) if young else 0.0
                print(f"worker {number} (pid {pid}) ended ({describe_status(status)}); starting "
                      f"another{f' in {delay:.0f} s' if delay else ''}", file=sys.stderr, flush=True)
                due[number] = time.monotonic() + delay
            for number, at in sorted(due.items()):
                if at <= time.monotonic():
                    del due[number]
                    spawn(number)
    finally:
        if stopped_by is not None:
            print(f"stopping ({signal.Signals(stopped_by).name}): {len(children)} worker(s)",
                  file=sys.stderr, flush=True)
        stop_workers(children)
        if advertised is not None:
            advertised.close()
        sock.close()
        os.close(alive_w)
        os.close(alive_r)
    return 0


def stop_pending() -> bool:
    """A stop signal is waiting (blocked) for this process (taken)."""
    return take_signal(0) in STOP_SIGNALS


_caught: list[int] = []


def take_signal(timeout: float) -> int | None:
    """One of the WATCHED signals (blocked in this process), waiting at most `timeout` seconds for
    it; None if none came. Without sigtimedwait (macOS) they are let in only while waiting here,
    noted by a handler."""
    if hasattr(signal, "sigtimedwait"):
        got = signal.sigtimedwait(WATCHED, timeout)
        return got.si_signo if got is not None else None
    for signum in WATCHED:
        signal.signal(signum, lambda signum, frame: _caught.append(signum))
    signal.pthread_sigmask(signal.SIG_UNBLOCK, WATCHED)
    try:
        if not _caught:
            time.sleep(timeout)
    finally:
        signal.pthread_sigmask(signal.SIG_BLOCK, WATCHED)
    return _caught.pop(0) if _caught else None


def reap(children: dict[int, tuple[int, float]]) -> list[tuple[int, int]]:
    """The workers that have ended since the last look (pid, wait status), without waiting."""
    ended = []
    for pid in list(children):
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done, status = pid, 0
        if done:
            ended.append((pid, status))
    return ended


def stop_workers(children: dict[int, tuple[int, float]], grace_s: float = STOP_GRACE_S) -> None:
    """SIGTERM to every worker, SIGKILL to those still there after `grace_s`; returns once all
    are gone (reaped)."""
    for pid in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while children and time.monotonic() < deadline:
        for pid, _ in reap(children):
            children.pop(pid)
        if children:
            time.sleep(0.05)
    for pid in children:
        print(f"worker pid {pid} did not end within {grace_s:.0f} s: killed", file=sys.stderr,
              flush=True)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    for pid in list(children):
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        children.pop(pid)


def die_with_parent(parent: int, alive_r: int) -> None:
    """This worker ends when its supervisor does, however that ends: the kernel sends SIGKILL
    (PR_SET_PDEATHSIG, Linux), else a thread that sees the supervisor's pipe close ends it."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        watched = libc.prctl(1, signal.SIGKILL, 0, 0, 0) == 0          # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        watched = False
    if os.getppid() != parent:            # (it died before the line above)
        os._exit(1)
    if watched:
        os.close(alive_r)
        return

    def watch() -> None:
        with contextlib.suppress(OSError):
            while os.read(alive_r, 1):
                pass
        stop_own_children()
        os._exit(1)
    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def stop_serving(signum, frame) -> None:
    """SIGTERM of the single process: ends server.run() as Ctrl-C does (main closes and cleans up)."""
    raise KeyboardInterrupt


def end_worker(signum, frame) -> None:
    """A worker's SIGTERM/SIGINT: stop the processes it started (the board drawing), then end."""
    stop_own_children()
    os._exit(0)


def own_children() -> list[int]:
    """This process's child processes (Linux /proc; elsewhere none are known)."""
    pids: list[int] = []
    for children in Path("/proc/self/task").glob("*/children"):
        with contextlib.suppress(OSError, ValueError):
            pids += [int(p) for p in children.read_text().split()]
    return pids


def stop_own_children() -> None:
    for pid in own_children():
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)


def describe_status(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit status {os.WEXITSTATUS(status)}"

