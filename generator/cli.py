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
    b.add_argument("--duplex", choices=("long", "short", "fold"), default="long",
                   help="the edge your printer flips double-sided sheets on (default: long), or fold: "
                        "each front beside its back on one side, to fold (printers without duplex)")
    b.add_argument("--bleed", type=_millimetres, default=0.0, metavar="MM",
                   help="cards spaced apart, their art run MM past the trim, marks moved out (default: 0)")
    b.add_argument("--back-bleed", type=_millimetres, default=3.0, metavar="MM",
                   help="how far the backs' art runs past the outer cut lines of each block of cards, so "
                        "a back printed a little off still reaches every edge (default: 3; 0: none)")
    b.add_argument("--back-offset", type=_offset, default=(0.0, 0.0), metavar="X,Y",
                   help="move the back pages X mm right and Y mm down (as the back is seen), read off "
                        "the back-offset calibration sheet (default: 0,0)")

    d = sub.add_parser("data", help="list each game's components and counts")
    d.add_argument("--game", action="append", default=[], metavar="G", help="a game id (repeatable)")
    d.add_argument("--json", action="store_true", help="machine-readable output")
    return p


def _millimetres(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected millimetres, e.g. 3, got {text!r}") from None
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(f"between 0 and 10 mm, got {text}")
    return value


def _offset(text: str) -> tuple[float, float]:
    parts = text.split(",")
    try:
        x, y = (float(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y in millimetres, e.g. 1.5,-0.5, got {text!r}") from None
    return (x, y)


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
                           duplex=args.duplex, bleed=args.bleed, back_offset=args.back_offset,
                           back_bleed=args.back_bleed)
    manifest = build(options)
    files = manifest["files"]
    pdfs = [f for f in files if f["format"] == "pdf"]
    shop = [f for f in files if f["format"] == "print-shop"]
    folders = sorted({str(args.out / Path(f["path"]).parent) for f in files if f["format"] != "print-shop"})
    counts = []
    for fmt, what in (("pdf", "PDF"), ("svg", "SVG page"), ("png", "PNG preview"), ("print-shop", "card face")):
        n = sum(1 for f in files if f["format"] == fmt)
        if n:
            counts.append(f"{n} {what}{'s' if n != 1 else ''}")
    pages = f" ({sum(f['pages'] for f in pdfs)} PDF pages)" if pdfs else ""
    print(f"wrote {', '.join(counts)}{pages} into {', '.join(folders) or args.out}")
    if shop:
        shops = sorted({str(args.out / Path(f["path"]).parent) for f in shop})
        print(f"print-shop card faces (300 dpi, 1/8 in bleed, fronts and backs in order): {', '.join(shops)}")
    done = f"manifest: {args.out / 'manifest.json'}"
    if pdfs:
        done += "; print the PDFs at 100 % / actual size"
        if manifest.get("calibration"):
            done += ("; to line up the backs, print back-offset-calibration-<paper>.pdf double-sided "
                     "once and rebuild with --back-offset X,Y")
    elif any(f["format"] == "png" for f in files):
        done += "; PNG pages are previews: build the PDFs (--format pdf) to print"
    print(done)
    return 0
