"""Vector QR codes: the `qrcode` library's module matrix, drawn as merged rectangles.

Kits call `draw_qr(canvas, payload, x, y, size)`: the square (x, y, size) holds the code *and* its
quiet zone, which is painted white so no artwork can reach into it. Modules scale to fill the square;
if they would be smaller than layouts/sheets.toml's `qr.module-min` the drawing fails, naming the
payload and the size it needs (`qr_size`). Matrices and their rectangles are cached: a kit prints the
same code on every copy of a card, and the same codes again for each paper and format.
"""
from __future__ import annotations

from functools import lru_cache

import qrcode
from qrcode import constants

from .draw import Canvas, Style
from .layouts import load_layout

_LEVELS = {"L": constants.ERROR_CORRECT_L, "M": constants.ERROR_CORRECT_M,
           "Q": constants.ERROR_CORRECT_Q, "H": constants.ERROR_CORRECT_H}

Run = tuple[int, int, int, int]   # x, y, width, height in modules


class QrTooSmall(ValueError):
    """The square given for a QR code would make its modules smaller than the layout allows."""


@lru_cache(maxsize=4096)
def matrix(payload: str, level: str = "M") -> tuple[tuple[bool, ...], ...]:
    """The code's modules (True = dark), without the quiet zone."""
    code = qrcode.QRCode(error_correction=_LEVELS[level], border=0)
    code.add_data(payload)
    code.make(fit=True)
    return tuple(tuple(bool(m) for m in row) for row in code.get_matrix())


def merge_runs(modules: tuple[tuple[bool, ...], ...]) -> tuple[Run, ...]:
    """Dark modules as few rectangles: runs along each row, stacked where rows repeat a run.

    Rectangles never overlap and cover exactly the dark modules."""
    open_runs: dict[tuple[int, int], list[int]] = {}   # (x, width) -> [y, height] still growing
    done: list[Run] = []
    for y, row in enumerate(modules):
        runs = set()
        x, n = 0, len(row)
        while x < n:
            if row[x]:
                start = x
                while x < n and row[x]:
                    x += 1
                runs.add((start, x - start))
            else:
                x += 1
        for key in list(open_runs):
            if key in runs:
                open_runs[key][1] += 1
                runs.discard(key)
            else:
                ry, rh = open_runs.pop(key)
                done.append((key[0], ry, key[1], rh))
        for key in runs:
            open_runs[key] = [y, 1]
    done.extend((key[0], ry, key[1], rh) for key, (ry, rh) in open_runs.items())
    return tuple(sorted(done, key=lambda r: (r[1], r[0])))


@lru_cache(maxsize=4096)
def _runs(payload: str, level: str) -> tuple[int, tuple[Run, ...]]:
    modules = matrix(payload, level)
    return len(modules), merge_runs(modules)


def qr_size(payload: str) -> float:
    """The smallest square (mm, quiet zone included) this payload can be drawn in."""
    qr = load_layout().sheets.qr
    count, _ = _runs(payload, qr.error_correction)
    return (count + 2 * qr.quiet_modules) * qr.module_min


def draw_qr(canvas: Canvas, payload: str, x: float, y: float, size: float, *,
            colour: str = "#000000") -> float:
    """Draw the code for `payload` filling the square at (x, y); returns the module size in mm."""
    qr = load_layout().sheets.qr
    count, runs = _runs(payload, qr.error_correction)
    module = size / (count + 2 * qr.quiet_modules)
    if module < qr.module_min - 1e-9:
        raise QrTooSmall(f"QR code for {payload!r} needs a {qr_size(payload):.1f} mm square "
                         f"(modules of {qr.module_min} mm), got {size:.1f} mm")
    canvas.rect(x, y, size, size, Style(fill="#ffffff", stroke=None))
    left = x + qr.quiet_modules * module
    top = y + qr.quiet_modules * module
    canvas.rects(((left + rx * module, top + ry * module, rw * module, rh * module)
                  for rx, ry, rw, rh in runs), colour)
    return module
