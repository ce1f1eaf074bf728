"""Text to a width: wrapped at spaces, shrunk to fit, or cut short with an ellipsis (the sheets' own
words and the kits' reference texts)."""
from __future__ import annotations

from .base import Font, text_width


def wrap(text: str, width: float, size_pt: float, font: Font = "regular") -> list[str]:
    """Break `text` into lines no wider than `width` mm, at spaces (or anywhere in a long word)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if text_width(candidate, size_pt, font) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = word
            while text_width(line, size_pt, font) > width and len(line) > 1:
                cut = len(line) - 1
                while cut > 1 and text_width(line[:cut], size_pt, font) > width:
                    cut -= 1
                lines.append(line[:cut])
                line = line[cut:]
        lines.append(line)
    return lines


def fit_size(text: str, width: float, size_pt: float, minimum: float, font: Font = "regular") -> float:
    """The largest size up to `size_pt` (not below `minimum`) at which `text` fits `width` mm."""
    size = size_pt
    while size > minimum and text_width(text, size, font) > width:
        size = max(minimum, size - 0.25)
    return size


def ellipsize(text: str, width: float, size_pt: float, font: Font = "regular") -> str:
    """`text`, cut short with an ellipsis if it is wider than `width` mm."""
    if text_width(text, size_pt, font) <= width:
        return text
    while len(text) > 1 and text_width(text + "…", size_pt, font) > width:
        text = text[:-1]
    return text.rstrip() + "…"
