"""Command line: `python -m generator build …` writes the kits, `python -m generator data …` lists
what each game is made of. Problems the user can fix (unknown game, broken data, a folder that
cannot be written) are one line on stderr and exit status 1, never a traceback."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from .build import DEFAULT_FORMATS, FORMATS, USER_ERRORS, BuildError, BuildOptions, build
from .listing import data_report
from .layouts import load_layout


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m generator",
                                description="Print-and-play kits for the Tokyo table games.")
    sub = p.add_subparsers(dest="command", required=True)

    b = sub.add_parser("build", help="write PDF / SVG / PNG kits and output/manifest.json")
    b.add_argument("--game", action="append", default=[], metavar="G",
                   help="a game id (repeatable); default: every game that has a kit")
    b.add_argument("--paper", action="append", default=[], metavar="P",
                   help="letter or a4 (repeatable); default: both")
    b.add_argument("--format", action="append", default=[], choices=FORMATS,
                   help=f"repeatable; default: {' and '.join(DEFAULT_FORMATS)}")
    b.add_argument("--out", type=Path, default=Path("output"), metavar="DIR",
                   help="output folder (default: output)")
    b.add_argument("--companion-url", default="http://localhost:5000", metavar="URL",
                   help="base URL the QR codes point to (default: http://localhost:5000)")
    b.add_argument("--ink-saver", action="store_true", help="outlines and light tints, no solid fills")
    b.add_argument("--duplex", choices=("long", "short"), default="long",
                   help="the edge your printer flips double-sided sheets on (default: long)")

    d = sub.add_parser("data", help="list each game's components and counts")
    d.add_argument("--game", action="append", default=[], metavar="G", help="a game id (repeatable)")
    d.add_argument("--json", action="store_true", help="machine-readable output")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.command == "build":
            return _build(args)
        return data_report(args.game, as_json=args.json, out=sys.stdout, err=sys.stderr)
    except USER_ERRORS as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _build(args: argparse.Namespace) -> int:
    homes = load_layout().home_papers
    for paper in args.paper:
        if paper not in homes:
            raise BuildError(f"unknown paper {paper!r} (known: {', '.join(homes)})")
    url = args.companion_url
    if not url.startswith(("http://", "https://")):
        raise BuildError(f"--companion-url must start with http:// or https://, got {url!r}")
    options = BuildOptions(games=tuple(args.game), papers=tuple(args.paper), formats=tuple(args.format),
                           out=args.out, companion_url=url, ink_saver=args.ink_saver,
                           duplex=args.duplex)
    manifest = build(options)
    pages = sum(f["pages"] for f in manifest["files"] if f["format"] == "pdf")
    folders = sorted({str(args.out / Path(f["path"]).parent) for f in manifest["files"]})
    print(f"wrote {len(manifest['files'])} files ({pages} PDF pages) into {', '.join(folders)}")
    print(f"manifest: {args.out / 'manifest.json'}; print the PDFs at 100 % / actual size")
    return 0
