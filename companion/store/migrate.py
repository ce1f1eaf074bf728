"""`python -m companion migrate --database postgresql://… [--data DIR]`: the schema, and a data folder.

`migrate --database URL` makes the companion's schema in the database, or brings an older one up to
date (a database already up to date is not touched). It is the only command that changes a
PostgreSQL schema: a worker's start only checks the version and says to run this when it is behind.
Run it before starting the workers of a new version (README, "Hosting").

With `--data DIR` it then copies a SQLite data folder into the database: everything the folder's
database holds (tables, seats, events, idempotency keys, snapshots, timer deadlines, records of
plays) in one transaction: either all of it arrives or nothing does.
The data folder is locked meanwhile (a companion still serving it must be stopped first).

Run twice, it does nothing the second time: a target that already holds exactly the folder's tables
at the same seqs is left as it is. A target holding anything else is refused, unless --replace
(which empties it first). Seeds become PostgreSQL's "x<hex>" text (old integer seeds too).
"""
from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

from . import datadir


class Refused(Exception):
    """The migration cannot be done as asked; `str()` is one line saying why and what to do."""


def _seed(value) -> str:
    return value if isinstance(value, str) else f"x{int(value):x}"


#: What is copied: (table, columns, how each source row becomes a target row).
COPIES = (
    ("tables", "code, game, players, options, seed, created_ms, host_hash, replay",
     lambda r: (r[0], r[1], r[2], r[3], _seed(r[4]), r[5], r[6], bool(r[7]))),
    ("events", "code, seq, kind, body, at_ms", tuple),
    ("idempotency", "scope, key, request, status, response", tuple),
    ("snapshots", "code, seq, view", tuple),
    ("seats", "code, player, token_hash, claimed_ms", tuple),
    ("deadlines", "code, due_ms", tuple),
    ("plays", "code, game, players, result, started_ms, ended_ms, seq", tuple),
)


def _heads(rows) -> dict[str, int]:
    return {code: seq for code, seq in rows}


def migrate(db: Path, url: str, replace: bool = False) -> dict[str, int]:
    """Copy the SQLite database `db` into the PostgreSQL database at `url`; returns the rows copied
    per table ({} when the target already held exactly this data)."""
    import psycopg

    from .postgres import migrate_schema
    from .sqlite import Store

    Store(db).close()              # brings an older folder's schema up to date (as serving would)
    migrate_schema(url)            # makes the schema if the target is new, or brings it up to date
    src = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    heads_sql = ("SELECT t.code, coalesce(max(e.seq), 0) FROM tables t LEFT JOIN events e "
                 "ON e.code = t.code GROUP BY t.code")
    try:
        source = _heads(src.execute(heads_sql))
        with psycopg.connect(url) as dst:
            target = _heads(dst.execute(heads_sql).fetchall())
            if target:
                if target == source:
                    return {}
                if not replace:
                    raise Refused(f"the database already holds {len(target)} table(s) that are not "
                                  "this folder's: name an empty database, or add --replace to empty it "
                                  "first")
                dst.execute("TRUNCATE plays, deadlines, seats, snapshots, idempotency, events, tables")
            counts = {}
            for name, columns, convert in COPIES:
                n = 0
                with dst.cursor().copy(f"COPY {name} ({columns}) FROM STDIN") as copy:
                    for row in src.execute(f"SELECT {columns} FROM {name}"):
                        copy.write_row(convert(row))
                        n += 1
                counts[name] = n
            dst.commit()
    finally:
        src.close()
    return counts


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="tokyo-companion migrate", description=__doc__.splitlines()[0])
    p.add_argument("--database", metavar="URL", required=True,
                   help="the PostgreSQL database whose schema to make or bring up to date, and to copy "
                        "into (postgresql://user:password@host/db)")
    p.add_argument("--data", metavar="DIR", help="a SQLite data folder to copy into it")
    p.add_argument("--replace", action="store_true",
                   help="empty the target first when it already holds other tables")
    args = p.parse_args(argv)
    from .postgres import is_url, shown
    if not is_url(args.database):
        print("error: --database must be a postgresql://… URL", file=sys.stderr)
        return 2
    if args.data is None:
        return schema_main(args.database)
    folder = Path(args.data)
    db = folder / datadir.DB_NAME
    if not db.is_file():
        print(f"error: there is no database {db} to migrate", file=sys.stderr)
        return 2
    try:
        lock = datadir.claim(folder)
    except datadir.StorageProblem as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        damage = datadir.check(db)
        if damage:
            raise Refused(f"{db} is damaged ({damage[0]}): save what is readable with `python -m "
                          f"companion export --data {folder}` first")
        counts = migrate(db, args.database, args.replace)
    except (Refused, datadir.StorageProblem) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (sqlite3.Error, ImportError) as exc:
        print(f"error: the migration did not happen ({type(exc).__name__}: {exc})", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - psycopg's: the target unreachable, a constraint
        print(f"error: the migration did not happen, nothing was written ({type(exc).__name__}: "
              f"{str(exc).splitlines()[0] if str(exc) else ''})", file=sys.stderr)
        return 2
    finally:
        lock.close()
    if not counts:
        print(f"{shown(args.database)} already holds this folder's tables: nothing to do")
    else:
        print(f"copied {folder} into {shown(args.database)}: "
              + ", ".join(f"{n} {name}" for name, n in counts.items()))
    return 0


def schema_main(url: str) -> int:
    """`migrate --database URL` alone: the schema made or brought up to date, one line saying which."""
    try:
        from .postgres import SCHEMA_VERSION, SchemaProblem, migrate_schema, shown
    except ImportError as exc:
        print(f"error: --database needs psycopg ({exc}): pip install 'tokyo-table-kit[hosted]'",
              file=sys.stderr)
        return 2
    try:
        before, now = migrate_schema(url)
    except SchemaProblem as exc:
        print(f"error: {exc} (nothing was changed)", file=sys.stderr)
        return 2
    except sqlite3.DatabaseError as exc:        # the database unreachable, a statement refused
        print(f"error: the schema of {shown(url)} was not changed: {exc}", file=sys.stderr)
        return 2
    if before == SCHEMA_VERSION:
        print(f"{shown(url)} already has schema version {now}: nothing to do")
    elif before is None:
        print(f"made the companion's tables in {shown(url)} (schema version {now})")
    else:
        print(f"brought {shown(url)} from schema version {before} to {now}")
    return 0
