"""How fast the generator is, and how big its files are (a script, not a test).

    .venv/bin/python benchmarks/generator_bench.py [--game shinjuku] [--repeat 3]

Prints, for each game with a kit: the full kit (every home paper, PDF and SVG) end to end in a fresh
process, as `python -m generator build` runs it; then, in this process, the time per card for the
card PDF alone and the split between the kit's own work (drawing each face once) and the sheet
machinery (imposition, backends, files). Goals on the project's 2-core machine for Shinjuku: the
full kit under 2 s, the 72-card PDF under 400 KB.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator import build as builder  # noqa: E402
from generator.draw.record import FaceCache, Recording  # noqa: E402
from generator.kits import games_with_kits, make_kit  # noqa: E402
from generator.kits.base import BoardSection, CardSection, KitContext, PageSection  # noqa: E402
from generator.sheets import impose  # noqa: E402


def full_build(game: str, repeat: int) -> list[float]:
    """Wall time of `python -m generator build --game G` (both papers, PDF and SVG)."""
    times = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "generator", "build", "--game", game, "--out", out],
                           cwd=ROOT, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
    return times


def in_process(game: str) -> None:
    ctx = KitContext()
    start = time.perf_counter()
    kit = make_kit(game, ctx)
    loaded = time.perf_counter() - start

    # The kit's own work: every distinct face drawn once (as the build records them).
    start = time.perf_counter()
    for section in kit.sections:
        if isinstance(section, CardSection):
            for item in section.items:
                Recording.of(lambda c, item=item: section.draw_front(c, item))
                if section.draw_back:
                    Recording.of(lambda c, item=item: section.draw_back(c, item))
        elif isinstance(section, BoardSection):
            Recording.of(section.draw)
        elif isinstance(section, PageSection):
            Recording.of(lambda c: section.draw(c, 197.3, 284.3))
    drawing = time.perf_counter() - start
    # Once more: lazily computed geometry is now warm, so this is the per-face cost alone.
    start = time.perf_counter()
    faces = 0
    for section in kit.sections:
        if isinstance(section, CardSection):
            for item in section.items:
                Recording.of(lambda c, item=item: section.draw_front(c, item))
                faces += 1
    per_face = (time.perf_counter() - start) / max(faces, 1)

    in_file = [s for s in kit.sections if isinstance(s, CardSection) and s.file == "cards"]
    cards = sum(item.copies for s in in_file if s.shape == "rect" and s.draw_back for item in s.items)
    pieces = sum(item.copies for s in in_file for item in s.items)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        rows = []
        start = time.perf_counter()
        cache = FaceCache()
        for paper in ("letter", "a4"):
            (out / paper).mkdir()
            for document in impose(kit, paper, faces=cache):
                for fmt in ("pdf", "svg"):
                    t = time.perf_counter()
                    written = builder.write_document(document, out / paper, fmt, kit.name, faces=cache)
                    size = sum(p.stat().st_size for p, _ in written)
                    rows.append((paper, document.name, fmt, len(document.pages), time.perf_counter() - t, size))
        sheets = time.perf_counter() - start
        # The card PDF alone, faces already recorded: the sheet machinery's time per card.
        doc = next((d for d in impose(kit, "letter", faces=cache) if d.name.endswith("-cards-letter")),
                   None)
        t = time.perf_counter()
        if doc is not None:
            builder.write_document(doc, out / "letter", "pdf", kit.name, faces=cache)
        cards_pdf = time.perf_counter() - t

    print(f"  load data + kit        {loaded * 1000:8.0f} ms")
    print(f"  kit drawing, each face once (first time, with lazy geometry) {drawing * 1000:6.0f} ms")
    print(f"  kit drawing per card face (warm)                            {per_face * 1000:6.2f} ms")
    print(f"  sheets + backends, all files, faces recorded once           {sheets * 1000:6.0f} ms")
    if doc is None:
        print("  (no cards PDF in this kit)")
    else:
        print(f"  card PDF (letter: {cards} double-sided cards, {pieces} pieces in all, cover): "
              f"{cards_pdf * 1000:.0f} ms, {cards_pdf / max(cards, 1) * 1000:.2f} ms per card, "
              f"{cards_pdf / max(pieces, 1) * 1000:.2f} ms per piece")
    print(f"  {'paper':7} {'file':26} {'fmt':4} {'pages':>5} {'ms':>7} {'KB':>8}")
    for paper, name, fmt, pages, seconds, size in rows:
        print(f"  {paper:7} {name:26} {fmt:4} {pages:5d} {seconds * 1000:7.0f} {size / 1024:8.0f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", default=[])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    games = args.game or games_with_kits()
    for game in games:
        times = full_build(game, args.repeat)
        print(f"{game}: full kit (letter + a4, pdf + svg), fresh process: "
              f"median {statistics.median(times):.2f} s, best {min(times):.2f} s of {len(times)}")
        in_process(game)
    return 0


if __name__ == "__main__":
    sys.exit(main())
