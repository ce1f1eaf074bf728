"""A throwaway PostgreSQL cluster for the tests, from Debian's package (initdb and pg_ctl).

`Cluster.start()` makes a cluster in a temporary folder and starts it on 127.0.0.1 and a free port;
`cluster.database()` makes a fresh, empty database and returns its URL; `stop()` removes it all (the
server stopped, killed if pg_ctl cannot stop it). A cluster still running when the Python process
ends (a session interrupted before its fixture's teardown, a start that failed half-way) is stopped
then too (atexit): its server runs detached from the tests and would outlive them.
PostgreSQL refuses to run as root: as root, the cluster's folder belongs to the `postgres` system
user (or `nobody`) and the server runs as that user (runuser). `Cluster.unavailable()` says why no
cluster can be started here (the tests that need one skip with that reason).

Settings: fsync=off (a test cluster's files are thrown away; the tests kill workers, not the
database server, so what they check does not depend on it) and synchronous_commit=on, as served.
"""
from __future__ import annotations

import atexit
import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    which = shutil.which("initdb")
    return Path(which).parent if which else None


def _runas() -> str | None:
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self):
        self.bindir = _bindir()
        self.user = _runas()
        self.folder: Path | None = None
        self.port = 0

    @staticmethod
    def unavailable() -> str | None:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            return "psycopg is not installed (pip install -e '.[test]' installs it)"
        if _bindir() is None:
            return "PostgreSQL is not installed (apt-get install postgresql; `make test` does it as root)"
        if os.geteuid() == 0 and _runas() is None:
            return "running as root and there is no postgres or nobody user to run PostgreSQL as"
        return None

    def _run(self, *args: str, **kw) -> subprocess.CompletedProcess:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)

    #: fsync=off for the tests (benchmarks set "on", as served)
    fsync = "off"

    def start(self) -> "Cluster":
        self.folder = Path(tempfile.mkdtemp(prefix="companion-pg-"))
        atexit.register(self.stop)
        try:
            return self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> "Cluster":
        if self.user:
            user = pwd.getpwnam(self.user)
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        data = self.folder / "data"
        r = self._run("initdb", "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                      "--no-sync", "--locale=C")
        if r.returncode:
            raise RuntimeError(f"initdb failed: {r.stderr.strip()}")
        self.port = _free_port()
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync={self.fsync} "
                   "-c synchronous_commit=on -c max_connections=300 -c shared_buffers=64MB")
        r = self._run("pg_ctl", "-D", str(data), "-o", options, "-l", str(self.folder / "log"), "-w", "start")
        if r.returncode:
            raise RuntimeError(f"pg_ctl start failed: {r.stderr.strip()} {r.stdout.strip()}")
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def admin(self, sql: str) -> None:
        import psycopg
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql)

    def database(self) -> str:
        name = "t_" + uuid.uuid4().hex[:12]
        self.admin(f"CREATE DATABASE {name} STRATEGY FILE_COPY")
        return self.url(name)

    def drop(self, url: str) -> None:
        self.admin(f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)")

    def stop(self) -> None:
        if self.folder is None:
            return
        folder, self.folder = self.folder, None
        atexit.unregister(self.stop)
        data = folder / "data"
        if (data / "postmaster.pid").exists():
            try:
                stopped = self._run("pg_ctl", "-D", str(data), "-m", "immediate", "stop").returncode == 0
            except (OSError, subprocess.SubprocessError):
                stopped = False
            if not stopped:
                self._kill(data)
        shutil.rmtree(folder, ignore_errors=True)

    @staticmethod
    def _kill(data: Path) -> None:
        """The server pg_ctl could not stop: SIGKILL to its postmaster (its first line of
        postmaster.pid); the backends end with it."""
        with contextlib.suppress(OSError, ValueError, IndexError):
            os.kill(int((data / "postmaster.pid").read_text().split()[0]), signal.SIGKILL)


@contextlib.contextmanager
def served_databases(n: int = 2):
    """For a benchmark: a throwaway cluster set as served (fsync=on) and `n` fresh databases in it;
    yields their URLs, or None when no cluster can run here (then `Cluster.unavailable()` says why).
    The cluster is stopped after the block."""
    if Cluster.unavailable():
        yield None
        return
    cluster = Cluster()
    cluster.fsync = "on"
    cluster.start()
    try:
        yield [cluster.database() for _ in range(n)]
    finally:
        cluster.stop()


def run_sql(config: dict, sql: str, args: tuple = ()) -> list[tuple]:
    """Run one statement straight on the database an app config names (SQLite's `?` placeholders;
    for PostgreSQL they become `%s`), outside the companion: what a test looks at or breaks."""
    if config.get("DATABASE_URL"):
        import psycopg
        with psycopg.connect(config["DATABASE_URL"], autocommit=True) as conn:
            cur = conn.execute(sql.replace("?", "%s"), args)
            return cur.fetchall() if cur.description else []
    import sqlite3
    conn = sqlite3.connect(Path(config["DATA_DIR"]) / "companion.sqlite3", isolation_level=None)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()
