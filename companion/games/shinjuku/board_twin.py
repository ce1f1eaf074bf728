"""The board twin's map: the Shinjuku map as one SVG, drawn by the generator from the printed board's
own geometry (`generator.render.component_svg("shinjuku", "board-twin", "map")`; the ids and data
attributes the page script relies on are listed in generator/kits/shinjuku/twin.py).

It is drawn once per process and data and cached here, with its etag and its gzipped bytes:
GET /shinjuku/map.svg serves it and the board page links it by version. The drawing a server start
makes (draw_in_background: about 3 s of CPU, once in every worker) is also kept on disk, in
$XDG_CACHE_HOME/tokyo-table-kit (~/.cache/tokyo-table-kit), under a key made of the bytes of the
canonical data and of the generator's code, so a restart or a second worker reads it instead; a
change to either draws it afresh, and a folder that cannot be written only costs the drawing.
"""
from __future__ import annotations

import gzip
import hashlib
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

from generator.render import component_svg

GAME = "shinjuku"
TWIN = ("board-twin", "map")

_lock = threading.Lock()
_cache: dict[int, tuple[object, str, str]] = {}   # id(data) -> (data, svg, etag); data kept alive
_gzip: dict[str, bytes] = {}


def map_svg(data) -> tuple[str, str]:
    """(svg text, etag) of the static map for this canonical data; drawn once and cached."""
    key = id(data)
    with _lock:
        hit = _cache.get(key)
        if hit is None or hit[0] is not data:
            hit = _keep(data, component_svg(GAME, *TWIN, data=data))
    return hit[1], hit[2]


def _keep(data, svg: str) -> tuple[object, str, str]:
    hit = _cache[id(data)] = (data, svg, hashlib.sha1(svg.encode()).hexdigest()[:16])
    return hit


#: The child that draws the map: the canonical data on disk (the same files, the same bytes), the SVG
#: on its standard output. It shares no pipe or file of the server, so it can never keep one open.
DRAW = ("import sys; from generator.render import component_svg; "
        f"sys.stdout.write(component_svg({GAME!r}, {TWIN[0]!r}, {TWIN[1]!r}))")


def draw_in_background(data) -> None:
    """Draw the map at server start without holding the server's GIL for seconds (the drawing is
    pure Python: in a thread it slowed every request of the first seconds several times over): a
    child process draws it, this process only keeps the text. Falls back to drawing here."""
    if map_version(data) is not None:
        return
    kept = _disk_path()
    if kept is not None and kept.is_file():
        with _lock:
            if map_version(data) is None:
                _keep(data, kept.read_text(encoding="utf-8"))
        map_svg_gzip(data)
        return
    try:
        done = subprocess.run([sys.executable, "-c", DRAW], stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120,
                              check=True, close_fds=True)
        svg = done.stdout.decode("utf-8")
    except subprocess.CalledProcessError as exc:
        if exc.returncode < 0:
            return              # the child was stopped by a signal: the server is stopping (no traceback)
        logging.getLogger(__name__).info("drawing the board twin in this process (the child: %s)", exc)
        map_svg_gzip(data)
        return
    except (OSError, subprocess.SubprocessError) as exc:
        logging.getLogger(__name__).info("drawing the board twin in this process (%s)", exc)
        map_svg_gzip(data)
        return
    with _lock:
        if map_version(data) is None:
            _keep(data, svg)
    if kept is not None:
        _write_quietly(kept, svg)
    map_svg_gzip(data)


def _disk_path() -> Path | None:
    """Where the drawing of the canonical data by this generator is kept (None: no usable folder)."""
    import generator
    from generator.canon import assets_root
    try:
        digest = hashlib.sha256(sys.version.encode())
        for root in (Path(generator.__file__).parent, assets_root() / GAME):
            for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
                digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
        folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tokyo-table-kit"
    except (OSError, RuntimeError):
        return None
    return folder / f"{GAME}-{TWIN[0]}-{TWIN[1]}-{digest.hexdigest()[:20]}.svg"


def _write_quietly(path: Path, svg: str) -> None:
    """Keep the drawing for the next start (written whole, then renamed: a reader never sees half)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(svg, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        logging.getLogger(__name__).info("could not keep the drawn map in %s (%s)", path.parent, exc)


def map_version(data) -> str | None:
    """The etag of the map if it is drawn already (never waits for the drawing)."""
    hit = _cache.get(id(data))
    return hit[2] if hit is not None and hit[0] is data else None


def map_svg_gzip(data) -> bytes:
    """The same SVG gzipped (a quarter of the size), compressed once."""
    svg, etag = map_svg(data)
    with _lock:
        if etag not in _gzip:
            _gzip[etag] = gzip.compress(svg.encode(), mtime=0)
        return _gzip[etag]
