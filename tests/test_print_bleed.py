"""Bleed and print-shop export, for every game's kit, measured on the output: with `--bleed 3` the
double-sided cards stand 6 mm apart, each face's art runs 3 mm past its trim (the strip outside
each edge mirrors the art inside it) and every crop mark lies outside the bleed; `--format
print-shop` writes one 300 dpi PNG per card face, the card plus 1/8 in bleed all round, numbered so
each front is followed by its back."""
from __future__ import annotations

import json

import pymupdf
import pytest
from PIL import Image

from generator.layouts import load_layout
from generator.sheets import SheetOptions
from print_kits import GAMES, MM, PAPERS, black_lines, imposed
from test_print_duplex import _rect_kinds

BLEED = 3.0
SHOP_BLEED = 3.175


@pytest.fixture(scope="module")
def bleed_out(kit_builds):
    return kit_builds(bleed=BLEED)


@pytest.fixture(scope="module")
def shop_out(kit_builds):
    return kit_builds(formats=("print-shop",), papers=("letter",))


def _grey(page: pymupdf.Page, zoom: float = 4.0):
    pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csGRAY, alpha=False)
    return pix, zoom * MM   # pixels per mm


def _at(pix, scale: float, x: float, y: float) -> int:
    return pix.samples[int(y * scale) * pix.stride + int(x * scale)]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_bleed_spaces_the_cards_runs_the_art_past_the_trim_and_moves_the_marks_out(bleed_out, game, paper):
    pen = load_layout().sheets.crop_marks.width
    kinds = {s.kind for s in _rect_kinds(game)}
    pages = 0
    for doc in imposed(game, paper, SheetOptions(bleed=BLEED)):
        with pymupdf.open(bleed_out / paper / game / f"{doc.name}.pdf") as pdf:
            for number, page in enumerate(doc.pages):
                if page.role not in ("front", "back") or page.section not in kinds:
                    continue
                pages += 1
                where = f"{doc.name} page {number + 1}"
                boxes = [p.box for p in page.placements]
                grown = [(x - BLEED, y - BLEED, w + 2 * BLEED, h + 2 * BLEED) for x, y, w, h in boxes]
                marks = [m for m in black_lines(pdf[number], pen) if not m.dashed and _clear(m, boxes)]
                # every mark lies outside every card's bleed
                assert marks and all(_clear(m, grown) for m in marks), where
                # the PDF records the bleed round the block of cards (BleedBox, beside the TrimBox)
                box = [v / MM for v in pdf[number].bleedbox]
                want = (min(g[0] for g in grown), min(g[1] for g in grown),
                        max(g[0] + g[2] for g in grown), max(g[1] + g[3] for g in grown))
                assert all(abs(a - b) < 0.05 for a, b in zip(box, want)), (where, box, want)
                # the cut lines come in pairs 2 × bleed apart between neighbouring cards
                xs = sorted({round(m.x0, 2) for m in marks if m.vertical})
                width = boxes[0][2]
                steps = [round(b - a, 2) for a, b in zip(xs, xs[1:])]
                assert set(steps) <= {round(width, 2), 2 * BLEED}, (where, steps)
                cols = len({round(b[0], 2) for b in boxes})
                assert steps.count(2 * BLEED) == cols - 1, (where, steps)
                # the art past each trim mirrors the art inside it
                pix, scale = _grey(pdf[number])
                for x, y, w, h in boxes:
                    for f in (0.2, 0.5, 0.8):
                        for out_pt, in_pt in (((x - 1.5, y + f * h), (x + 1.5, y + f * h)),
                                              ((x + w + 1.5, y + f * h), (x + w - 1.5, y + f * h)),
                                              ((x + f * w, y - 1.5), (x + f * w, y + 1.5)),
                                              ((x + f * w, y + h + 1.5), (x + f * w, y + h - 1.5))):
                            a, b = _at(pix, scale, *out_pt), _at(pix, scale, *in_pt)
                            assert abs(a - b) <= 40, f"{where}: bleed at {out_pt} is {a}, the art inside {b}"
    assert pages, f"{game}: no double-sided card pages"


def _clear(mark, boxes) -> bool:
    x0, x1 = sorted((mark.x0, mark.x1))
    y0, y1 = sorted((mark.y0, mark.y1))
    return all(x1 <= bx + 0.05 or x0 >= bx + bw - 0.05 or y1 <= by + 0.05 or y0 >= by + bh - 0.05
               for bx, by, bw, bh in boxes)


@pytest.mark.parametrize("game", GAMES)
def test_print_shop_pngs_one_per_face_at_300_dpi_with_an_eighth_inch_bleed(shop_out, game):
    manifest = json.loads((shop_out / "manifest.json").read_text())
    files = [f for f in manifest["files"] if f["game"] == game and f["format"] == "print-shop"]
    sections = _rect_kinds(game)
    cards = sum(item.copies for s in sections for item in s.items)
    assert len(files) == 2 * cards
    size = {s.kind: s.size for s in sections}
    names = [f["path"].rsplit("/", 1)[1] for f in files]
    # sorted by name (as an upload takes them) each front comes just before its back
    assert names == sorted(names)
    assert names == [f"{n:04d}-{k}-{side}.png" for n in range(1, cards + 1) for k, side in ((1, "front"), (2, "back"))]
    order = [(s.kind, item.id) for s in sections for item in s.items for _ in range(item.copies)]
    assert [(f["kind"], f["id"]) for f in files[::2]] == order
    for f in files[:6] + files[-2:]:
        path = shop_out / f["path"]
        with Image.open(path) as image:
            w, h = size[f["kind"]]
            assert image.size == (round((w + 2 * SHOP_BLEED) / 25.4 * 300), round((h + 2 * SHOP_BLEED) / 25.4 * 300))
            assert tuple(round(v) for v in image.info["dpi"]) == (300, 300)
            grey = image.convert("L")
            b = round(SHOP_BLEED / 25.4 * 300)
            # the bleed mirrors the art inside the trim (one pixel in from each side)
            for y in (image.height // 4, image.height // 2):
                assert abs(grey.getpixel((b // 2, y)) - grey.getpixel((2 * b - b // 2 - 1, y))) <= 40
            for x in (image.width // 4, image.width // 2):
                assert abs(grey.getpixel((x, b // 2)) - grey.getpixel((x, 2 * b - b // 2 - 1))) <= 40
