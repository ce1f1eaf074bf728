"""The board twin's map: the Shinjuku map as one SVG, drawn by the generator from the printed board's
own geometry (`generator.render.component_svg("shinjuku", "board-twin", "map")`; the ids and data
attributes the page script relies on are listed in generator/kits/shinjuku/twin.py).

It is drawn once per process and data and cached here, with its etag and its gzipped bytes:
GET /shinjuku/map.svg serves it and the board page links it by version.
"""
from __future__ import annotations

import gzip
import hashlib
import logging
import subprocess
import sys
import threading

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
    map_svg_gzip(data)


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
