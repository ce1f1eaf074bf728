"""The board twin's façade: the printed player board's grid, coats of arms and numbers as one SVG,
drawn by the generator (`generator.render.component_svg("shin-bikkuri-man", "board-twin", "facade")`).
The SVG's user units are the board's millimetres; its <g id="facade-grid"> says where the grid
is (data-pad, data-square, data-columns, data-rows), so the page lays the live tiles over it.

Drawn once per process and data, cached with its etag; GET /shin-bikkuri-man/facade.svg serves it.
"""
from __future__ import annotations

import hashlib
import threading

from flask import url_for

from generator.render import component_svg

GAME = "shin-bikkuri-man"
TWIN = ("board-twin", "facade")

_lock = threading.Lock()
_cache: dict[int, tuple[object, str, str]] = {}


def facade_svg(data) -> tuple[str, str]:
    """(svg text, etag) of the façade grid for this canonical data; drawn once and cached."""
    key = id(data)
    with _lock:
        hit = _cache.get(key)
        if hit is None or hit[0] is not data:
            svg = component_svg(GAME, *TWIN, data=data)
            hit = _cache[key] = (data, svg, hashlib.sha1(svg.encode()).hexdigest()[:16])
    return hit[1], hit[2]


def url() -> str:
    """The façade's URL, with its version once drawn (cacheable for good)."""
    for data, _svg, etag in list(_cache.values()):
        return url_for("shin-bikkuri-man.facade_svg", v=etag)
    return url_for("shin-bikkuri-man.facade_svg")
