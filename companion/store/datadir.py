"""The data folder at start-up: one companion per folder, and storage that opens or says why not.

`claim(folder)` makes the folder if needed, checks that the database path is a usable file, and
takes an exclusive lock (`companion.lock`, flock) that the operating system frees when the process
ends, however it ends. A second companion on the same folder gets a StorageProblem naming the pid
that holds it. `check(path)` opens the database and runs `PRAGMA quick_check`: a file that is not a
database at all is a StorageProblem (the server does not start); scattered damage is reported as
a warning (the server starts; the damaged tables answer 503 and `python -m companion export`
saves what is readable).
"""
from __future__ import annotations

import fcntl
import os
import sqlite3
import time
from pathlib import Path

DB_NAME = "companion.sqlite3"
LOCK_NAME = "companion.lock"


class StorageProblem(Exception):
    """The data folder or its database cannot be used; `str()` is one line saying what to do."""


def claim(folder: Path):
    """Lock `folder` for this process; returns the open lock file (keep it open while serving)."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise StorageProblem(f"--data {folder} is a file, not a folder: name a folder for the "
                             "companion's database")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageProblem(f"cannot make the data folder {folder}: {exc.strerror or exc}") from None
    db = folder / DB_NAME
    if db.exists() and not db.is_file():
        raise StorageProblem(f"{db} is a folder, not a database file: move it away")
    if not os.access(folder, os.W_OK):
        raise StorageProblem(f"the data folder {folder} is read-only: the companion must write its "
                             "database there (use --data to name another folder)")
    try:
        handle = open(folder / LOCK_NAME, "a+")
    except OSError as exc:
        raise StorageProblem(f"cannot write in the data folder {folder}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise StorageProblem(f"the data folder {folder} is in use by another companion ({holder}); "
                             "stop it, or start this one with another --data folder") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"pid {os.getpid()}, started {time.strftime('%Y-%m-%d %H:%M:%S')}")
    handle.flush()
    return handle


def _whole(db: Path) -> None:
    """A database file shorter than its header says (a copy cut short) cannot be served."""
    with open(db, "rb") as f:
        header = f.read(100)
    if len(header) < 100 or not header.startswith(b"SQLite format 3\x00"):
        if header:          # an empty file is a new database
            raise StorageProblem(f"{db} is not a SQLite database (its first bytes say otherwise); "
                                 "move it away to start afresh, or restore a copy")
        return
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(header[28:32], "big")
    size = db.stat().st_size
    if pages and size < pages * page:
        raise StorageProblem(f"{db} is cut short ({size} of {pages * page} bytes): restore a whole "
                             "copy, or move it away to start afresh")


def check(db: Path) -> list[str]:
    """Problems `PRAGMA quick_check` finds in an existing database (empty: fine). Raises
    StorageProblem when the file is not a usable SQLite database at all."""
    db = Path(db)
    if not db.exists():
        return []
    _whole(db)
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    except sqlite3.DatabaseError as exc:
        raise StorageProblem(f"{db} cannot be opened ({exc})") from None
    try:
        try:                 # without its schema nothing can be served
            conn.execute("SELECT name, sql FROM sqlite_master").fetchall()
        except sqlite3.DatabaseError as exc:
            raise StorageProblem(f"{db} is not a usable companion database ({exc}); move it away "
                                 "to start afresh, or restore a copy") from None
        try:
            rows = [r[0] for r in conn.execute("PRAGMA quick_check(20)")]
        except sqlite3.DatabaseError as exc:     # damage bad enough to stop the check itself
            rows = [str(exc)]
    finally:
        conn.close()
    return [] if rows == ["ok"] else rows
