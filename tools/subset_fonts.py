"""Rebuild assets/fonts/ from Noto Sans CJK JP (SIL OFL 1.1): subset to the glyphs the project uses.

Why: reportlab embeds only TrueType-outline fonts, and the full CJK fonts are ~20 MB. This keeps every
character that appears in the data, layouts and code (plus Latin, kana and common symbols), converts the
CFF outlines to TrueType quadratics, and writes NotoSansJP-Kit-{Regular,Bold}.ttf.
Run after adding text in a new script:  .venv/bin/python tools/subset_fonts.py
Needs Debian's fonts-noto-cjk and fontTools (pip install -e '.[dev]'); the result is committed.
"""
from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection, newTable

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {
    "Regular": Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    "Bold": Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"),
}
OUT = ROOT / "assets" / "fonts"
BASE_RANGES = [
    (0x20, 0x7E), (0xA0, 0xFF),            # ASCII, Latin-1
    (0x100, 0x17F),                        # Latin Extended-A (macrons: Tōkyō)
    (0x2010, 0x2027), (0x2030, 0x203A),    # dashes, quotes, bullets, ellipsis
    (0x2190, 0x2199), (0x2212, 0x2212),    # arrows, minus
    (0x2460, 0x2473),                      # circled numbers ①..⑳
    (0x25A0, 0x25CF), (0x2605, 0x2606), (0x2713, 0x2717),
    (0x3000, 0x303F), (0x3041, 0x3096), (0x30A0, 0x30FF),  # CJK punctuation, kana
    (0xFF01, 0xFF5E), (0xFFE5, 0xFFE5),    # full-width forms, ¥
]
SCANNED = ["assets/**/*.toml", "layouts/**/*.toml", "generator/**/*.py", "companion/**/*.py",
           "companion/**/*.html", "companion/**/*.js"]


def wanted_text() -> str:
    chars = {chr(c) for lo, hi in BASE_RANGES for c in range(lo, hi + 1)}
    for pattern in SCANNED:
        for path in ROOT.glob(pattern):
            chars.update(ch for ch in path.read_text(encoding="utf-8") if ord(ch) >= 0x80)
    return "".join(sorted(chars))


def to_truetype(font) -> None:
    """CFF outlines -> glyf (after fontTools' Snippets/otf2ttf.py)."""
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = glyphs
    for table in ("CFF ", "VORG"):
        if table in font:
            del font[table]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name, glyph in glyphs.items():
        width, _ = hmtx[name]
        hmtx[name] = (width, getattr(glyph, "xMin", 0))
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for field in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs",
                  "maxInstructionDefs", "maxStackElements", "maxSizeOfInstructions"):
        setattr(maxp, field, 0)
    maxp.maxZones = 1
    maxp.numGlyphs = len(order)
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = order
    font["head"].indexToLocFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"


def main() -> int:
    text = wanted_text()
    OUT.mkdir(parents=True, exist_ok=True)
    for weight, source in SOURCES.items():
        collection = TTCollection(str(source))
        font = next(f for f in collection.fonts if "JP" in f["name"].getDebugName(1))
        options = subset.Options()
        options.layout_features = ["kern", "palt", "liga"]
        options.name_IDs = ["*"]
        options.notdef_outline = True
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=text)
        subsetter.subset(font)
        to_truetype(font)
        target = OUT / f"NotoSansJP-Kit-{weight}.ttf"
        font.save(str(target))
        print(f"{target.relative_to(ROOT)}: {len(font.getGlyphOrder())} glyphs, {target.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
