"""`python -m companion export --data DIR [--out FILE]`: every table and event that can still be read.

For a database with damaged pages (the companion serves the rest and answers 503 for what it cannot
read): each table is read on its own, so one damaged table does not hide the others. The output is
JSON: {"tables": [{"code", "game", "players", "options", "created_ms", "events": [...]}],
"damaged": [{"code", "error"}]}. Seeds and tokens are not exported.
"""
from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path

from .datadir import DB_NAME


def export(db: Path) -> dict:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    out: dict = {"tables": [], "damaged": []}
    try:
        try:
            codes = [r[0] for r in conn.execute("SELECT code FROM tables ORDER BY created_ms")]
        except sqlite3.DatabaseError as exc:
            codes = _codes_from_events(conn)
            out["damaged"].append({"code": None, "error": f"the list of tables: {exc}"})
        for code in codes:
            try:
                row = conn.execute("SELECT game, players, options, created_ms FROM tables WHERE code = ?",
                                   (code,)).fetchone()
                events = [{"seq": s, "kind": k, "at_ms": t, **json.loads(b)} for s, k, b, t in conn.execute(
                    "SELECT seq, kind, body, at_ms FROM events WHERE code = ? ORDER BY seq", (code,))]
                game, players, options, created = row if row else (None, "[]", "{}", None)
                out["tables"].append({"code": code, "game": game, "players": json.loads(players),
                                      "options": json.loads(options), "created_ms": created,
                                      "events": events})
            except (sqlite3.DatabaseError, ValueError) as exc:
                out["damaged"].append({"code": code, "error": str(exc)})
    finally:
        conn.close()
    return out


def _codes_from_events(conn) -> list[str]:
    try:
        return [r[0] for r in conn.execute("SELECT DISTINCT code FROM events")]
    except sqlite3.DatabaseError:
        return []


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="tokyo-companion export", description=__doc__.splitlines()[0])
    p.add_argument("--data", metavar="DIR", required=True, help="the companion's data folder")
    p.add_argument("--out", metavar="FILE", help="write here instead of standard output")
    args = p.parse_args(argv)
    db = Path(args.data) / DB_NAME
    if not db.is_file():
        print(f"error: there is no database {db}", file=sys.stderr)
        return 1
    try:
        text = json.dumps(export(db), ensure_ascii=False, indent=1)
    except sqlite3.DatabaseError as exc:
        print(f"error: {db} cannot be read at all ({exc})", file=sys.stderr)
        return 1
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    return 0
