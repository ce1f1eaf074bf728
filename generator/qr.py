"""Vector QR codes: the `qrcode` library's module matrix, drawn as merged rectangles.

Kits call `draw_qr(canvas, payload, x, y, size)`: the square (x, y, size) holds the code, its
quiet zone (painted white so no artwork can reach into it) and, below the quiet zone, the code's
*short code* (`short_code`, e.g. "K7Q4M", set in LABEL_PT bold): a player whose phone cannot scan
types it on the companion's /q page instead. Modules scale to fill the square less the label's strip;
if they would be smaller than layouts/sheets.toml's `qr.module-min` the drawing fails, naming the
payload and the size it needs (`qr_size`). Matrices and their rectangles are cached: a kit prints the
same code on every copy of a card, and the same codes again for each paper and format.

The short code depends only on the QR's path `/q/<game>/<kind>/<id>` (not on the companion's
address), so a kit built for one address and a companion served at another agree on it.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from urllib.parse import urlsplit

import qrcode
from qrcode import constants

from .draw import Canvas, Style
from .draw.base import PT
from .layouts import load_layout

#: Short codes: Crockford's base 32 (no I, L, O, U: nothing to mistake for 1, 0 or V), 5 characters.
SHORT_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
SHORT_LENGTH = 5
#: What a typed code may hold for a character the alphabet leaves out.
SHORT_TYPOS = {"O": "0", "I": "1", "L": "1", "U": "V"}
#: The printed short code: size (never below 6 pt) and the strip it takes below the quiet zone, mm.
LABEL_PT = 6.0
LABEL_CAP = 0.733            # cap height of the kit's bold face, in em (OS/2 sCapHeight)
LABEL_MARGIN = 0.15          # mm between the caps' foot and the square's bottom edge
LABEL_GAP = 0.6              # mm between the quiet zone and the caps' top (scanners see a clear zone)
LABEL_STRIP = LABEL_GAP + LABEL_PT * PT * LABEL_CAP + LABEL_MARGIN

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


def qr_path(payload: str) -> str:
    """The path of a QR payload ("/q/<game>/<kind>/<id>"), whatever address it starts with."""
    return "/" + urlsplit(payload).path.strip("/")


@lru_cache(maxsize=4096)
def short_code(path: str) -> str:
    """The short code printed beside the QR code for `path` ("/q/<game>/<kind>/<id>", or a whole
    payload: only its path counts): SHORT_LENGTH characters of SHORT_ALPHABET from its SHA-256."""
    number = int.from_bytes(hashlib.sha256(qr_path(path).encode("utf-8")).digest()[:8], "big")
    chars = []
    for _ in range(SHORT_LENGTH):
        number, digit = divmod(number, len(SHORT_ALPHABET))
        chars.append(SHORT_ALPHABET[digit])
    return "".join(chars)


def normalize_short_code(typed: str) -> str:
    """What a player typed, as a short code: case, spaces, dashes and dots forgiven, and the letters
    the alphabet leaves out read as what they look like (O → 0, I/L → 1, U → V)."""
    kept = "".join(ch for ch in typed.upper() if ch.isalnum())
    return "".join(SHORT_TYPOS.get(ch, ch) for ch in kept)


def qr_size(payload: str) -> float:
    """The smallest square (mm) this payload can be drawn in: quiet zone and short code included."""
    qr = load_layout().sheets.qr
    count, _ = _runs(payload, qr.error_correction)
    return (count + 2 * qr.quiet_modules) * qr.module_min + LABEL_STRIP


def footprint(x: float, y: float, size: float) -> tuple[float, float, float, float]:
    """The box (x, y, width, height) that `draw_qr` paints for the square at (x, y): the code and its
    quiet zone, with the short code's strip below them."""
    return (x + LABEL_STRIP / 2, y, size - LABEL_STRIP, size)


def draw_qr(canvas: Canvas, payload: str, x: float, y: float, size: float, *,
            colour: str = "#000000") -> float:
    """Draw the code for `payload` in the square at (x, y): the code and its quiet zone fill the square
    less the short code's strip at the bottom (centred across), the short code under them. What is
    painted (white) is LABEL_STRIP narrower than the square, centred: `footprint`. Returns the module
    size in mm."""
    qr = load_layout().sheets.qr
    count, runs = _runs(payload, qr.error_correction)
    side = size - LABEL_STRIP                      # the code with its quiet zone
    module = side / (count + 2 * qr.quiet_modules)
    if module < qr.module_min - 1e-9:
        raise QrTooSmall(f"QR code for {payload!r} needs a {qr_size(payload):.1f} mm square "
                         f"(modules of {qr.module_min} mm and its short code), got {size:.1f} mm")
    canvas.rect(x + LABEL_STRIP / 2, y, side, size, Style(fill="#ffffff", stroke=None))
    left = x + LABEL_STRIP / 2 + qr.quiet_modules * module
    top = y + qr.quiet_modules * module
    canvas.rects(((left + rx * module, top + ry * module, rw * module, rh * module)
                  for rx, ry, rw, rh in runs), colour)
    canvas.text(x + size / 2, y + size - LABEL_MARGIN, short_code(payload), LABEL_PT, font="bold",
                anchor="middle", fill=colour)
    return module
