"""QR codes drawn by the companion: SVG for pages (the join code), text for the terminal (--lan)."""
from __future__ import annotations

import qrcode
import qrcode.image.svg


def _matrix(text: str, border: int) -> list[list[bool]]:
    qr = qrcode.QRCode(border=border, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(text)
    qr.make(fit=True)
    return qr.get_matrix()


def svg(text: str) -> str:
    """A crisp, scalable SVG (one path; black modules on white, with a quiet zone)."""
    rows = _matrix(text, border=4)
    size = len(rows)
    path = "".join(f"M{x},{y}h1v1h-1z" for y, row in enumerate(rows) for x, dark in enumerate(row)
                   if dark)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
            f'shape-rendering="crispEdges" role="img" aria-label="QR code">'
            f'<rect width="{size}" height="{size}" fill="#fff"/><path d="{path}" fill="#000"/></svg>')


def terminal(text: str) -> str:
    """Half-block characters with the light modules drawn (reads right on a dark terminal)."""
    light = [[not dark for dark in row] for row in _matrix(text, border=2)]
    if len(light) % 2:
        light.append([True] * len(light[0]))
    glyph = {(False, False): " ", (True, True): "█", (True, False): "▀", (False, True): "▄"}
    return "\n".join("".join(glyph[a, b] for a, b in zip(top, bottom))
                     for top, bottom in zip(light[::2], light[1::2]))
