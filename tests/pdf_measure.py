"""Measuring generated PDFs and SVGs in millimetres (origin top-left, y down), for the sheet tests.

Geometry comes from pdfplumber (which sees inside form XObjects but ignores clipping); ink comes
from rasterizing with pdftoppm, which is what a printer would put on paper.
"""
from __future__ import annotations

import dataclasses
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image

MM = 72 / 25.4
MARGIN = 6.35
SVG_NS = {"svg": "http://www.w3.org/2000/svg"}
XLINK = "{http://www.w3.org/1999/xlink}href"


@dataclasses.dataclass(frozen=True)
class Shape:
    x0: float
    top: float
    x1: float
    bottom: float
    width_line: float
    stroke: tuple | None
    fill: tuple | None

    @property
    def w(self) -> float:
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        return self.bottom - self.top


def _colour(value):
    if value is None:
        return None
    return tuple(round(float(v), 3) for v in value) if isinstance(value, (list, tuple)) else (value,)


def shapes(page, kind: str) -> list[Shape]:
    """Rects, lines or curves of a pdfplumber page, in mm."""
    out = []
    for obj in getattr(page, kind):
        out.append(Shape(obj["x0"] / MM, obj["top"] / MM, obj["x1"] / MM, obj["bottom"] / MM,
                         (obj.get("linewidth") or 0) / MM,
                         _colour(obj.get("stroking_color")) if obj.get("stroke") else None,
                         _colour(obj.get("non_stroking_color")) if obj.get("fill") else None))
    return out


def words(page) -> list[tuple[str, float, float]]:
    """Each word and the centre of its box, in mm."""
    return [(w["text"], (w["x0"] + w["x1"]) / 2 / MM, (w["top"] + w["bottom"]) / 2 / MM)
            for w in page.extract_words()]


def page_texts(path: Path) -> list[str]:
    """The text of every page of a PDF, in order (pymupdf: pypdf's extract_text reads every font's
    ToUnicode map again on every page, seconds for a kit's card PDF)."""
    import pymupdf
    with pymupdf.open(path) as pdf:
        return [page.get_text() for page in pdf]


def open_pdf(path: Path):
    return pdfplumber.open(str(path))


def need_pdftoppm() -> None:
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed: `make test` installs it as root")


def raster(path: Path, page: int, dpi: int) -> Image.Image:
    """One page (1-based) rasterized at `dpi`, greyscale."""
    need_pdftoppm()
    with tempfile.TemporaryDirectory() as tmp:
        # (a PGM: pdftoppm spends most of a 300 dpi page compressing a PNG the test reads at once)
        subprocess.run(["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), "-gray",
                        str(path), f"{tmp}/p"], check=True, capture_output=True)
        (pgm,) = Path(tmp).glob("p*.pgm")
        return Image.open(pgm).copy()


def ink_box(image: Image.Image, box_px: tuple[int, int, int, int], threshold: int = 245):
    """Bounding box of ink (pixels darker than `threshold`) inside box_px, or None if it is clean."""
    region = image.crop(box_px).point(lambda v: 255 if v < threshold else 0)
    return region.getbbox()


def ink_in_margin(path: Path, page: int, dpi: int = 72, margin: float = MARGIN) -> list[str]:
    """Which margin bands of a page carry ink (anti-aliasing allowed for half a pixel)."""
    image = raster(path, page, dpi)
    w, h = image.size
    m = int(margin / 25.4 * dpi) - 1
    bands = {"top": (0, 0, w, m), "bottom": (0, h - m, w, h), "left": (0, 0, m, h), "right": (w - m, 0, w, h)}
    return [name for name, box in bands.items() if ink_box(image, box) is not None]


def svg_tree(path: Path) -> ET.Element:
    return ET.parse(path).getroot()


def svg_components(root: ET.Element) -> list[tuple[str, str, str]]:
    """(kind, id, side) of every component group on an SVG page."""
    return [(g.get("data-kind"), g.get("data-id"), g.get("data-side", ""))
            for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-kind") and not g.get("data-role")]


def svg_dangling_refs(root: ET.Element) -> set[str]:
    """<use> references that point at no element of the file."""
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    return {el.get(XLINK)[1:] for el in root.iter("{http://www.w3.org/2000/svg}use")
            if el.get(XLINK)[1:] not in ids}
