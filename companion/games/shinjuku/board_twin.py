"""The board twin's map: the Shinjuku map as one SVG, drawn by the generator from the printed board's
own geometry (`generator.render.component_svg("shinjuku", "board-twin", "map")`; the ids and data
attributes the page script relies on are listed in generator/kits/shinjuku/twin.py).

It is drawn once per process and data and cached here, with its etag and its gzipped bytes:
GET /shinjuku/map.svg serves it and the board page links it by version.
"""
from __future__ import annotations

import gzip
import hashlib
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
            svg = component_svg(GAME, *TWIN, data=data)
            hit = _cache[key] = (data, svg, hashlib.sha1(svg.encode()).hexdigest()[:16])
    return hit[1], hit[2]


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
