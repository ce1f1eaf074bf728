"""Print colours written '#rrggbb': a blend of two, and the text colour that reads on a fill."""
from __future__ import annotations


def mix(colour: str, towards: str, amount: float) -> str:
    """Blend '#rrggbb' `amount` (0..1) of the way towards another colour."""
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(towards[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * amount):02x}" for x, y in zip(a, b))


def readable_on(colour: str) -> str:
    """Black or white text, whichever contrasts more with `colour` (WCAG relative luminance; the
    sRGB knee 0.04045 and WCAG 2.0's 0.03928 part no 8-bit channel value)."""
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(int(colour[i:i + 2], 16)) for i in (1, 3, 5))
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#000000" if (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) else "#ffffff"
