"""One drawing interface (`Canvas`), three backends: PDF (reportlab), SVG (svgwrite), PNG (Pillow)."""
from .base import Canvas, Style, FONT_FILES, text_width

__all__ = ["Canvas", "Style", "FONT_FILES", "text_width"]
