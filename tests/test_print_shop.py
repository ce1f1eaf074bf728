"""Print-shop export, for every game's kit: `--format print-shop` writes one 300 dpi PNG per card face,
the card plus 1/8 in bleed all round, numbered so each front is followed by its back.

Its own file (it was in tests/test_print_bleed.py): the print-shop build is the longest of the test
session's kit builds, and under pytest-xdist's --dist loadfile a file runs whole on one worker, so
this one runs beside the bleed build's file instead of after it."""
from __future__ import annotations

import json

import pytest
from PIL import Image

from print_kits import GAMES
from test_print_duplex import _rect_kinds

SHOP_BLEED = 3.175


@pytest.fixture(scope="module")
def shop_out(kit_builds):
    return kit_builds(formats=("print-shop",), papers=("letter",))


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
