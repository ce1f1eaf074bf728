"""Shrink-to-fit text: the largest size (down to a minimum) at which a text fits its box.

A text that does not fit even at the minimum is a layout bug, not something to print: `TextFitError`
names the component and the field so the layout (or the data) can be fixed.
"""
from __future__ import annotations

from .base import PT, Anchor, Canvas, Font, text_width

#: Noto Sans JP's em box is 0.88 above and 0.12 below the baseline (OS/2 typo metrics): kanji fill
#: it, Latin capitals reach 0.73. Centring the em box centres both scripts well enough.
LINE_EMS = 1.0
CENTRE_EMS = (0.88 - 0.12) / 2


class TextFitError(ValueError):
    def __init__(self, where: str, text: str, box_w: float, min_pt: float):
        self.where = where
        super().__init__(f"{where}: {text!r} does not fit {box_w:.1f} mm even at {min_pt:g} pt")


def fit_size(text: str, width: float, height: float, max_pt: float, min_pt: float, *,
             font: Font = "regular", where: str = "text") -> float:
    """The largest size <= max_pt (in 0.25 pt steps) at which `text` fits width x height mm."""
    size = max_pt
    while size >= min_pt - 1e-9:
        if text_width(text, size, font) <= width + 1e-6 and (height <= 0 or size * PT * LINE_EMS <= height + 1e-6):
            return size
        size -= 0.25
    raise TextFitError(where, text, width, min_pt)


def fit_text(canvas: Canvas, box: tuple[float, float, float, float], text: str, max_pt: float,
             min_pt: float, *, font: Font = "regular", anchor: Anchor = "start", fill: str = "#000000",
             where: str = "text") -> float:
    """Draw `text` in box (x, y, w, h), vertically centred, at the largest size that fits; returns it."""
    x, y, w, h = box
    size = fit_size(text, w, h, max_pt, min_pt, font=font, where=where)
    ax = {"start": x, "middle": x + w / 2, "end": x + w}[anchor]
    baseline = y + h / 2 + size * PT * CENTRE_EMS
    canvas.text(ax, baseline, text, size, font=font, anchor=anchor, fill=fill)
    return size
