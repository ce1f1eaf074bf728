"""What each printed site card says (issue 8: "each with its location, district, height requirement
and the pieces count in the card's own notation, the yen value and its black site border(s)"): every
face of the 32 cards, as the kit draws it, read back from the drawing calls (no PDF build needed)."""
from __future__ import annotations

import pytest

from generator.draw.record import Recording
from generator.kits.base import CardSection, KitContext
from generator.kits.jutaku import build_kit
from generator.kits.jutaku.draw import Palette
from generator.kits.jutaku.layout import load_layout


@pytest.fixture(scope="module")
def sites(g):
    (section,) = [s for s in build_kit(g, KitContext("http://tokyo.local:5000")).sections
                  if isinstance(s, CardSection) and s.kind == "site-card"]
    return section


def face(section, item, side):
    rec = Recording()
    (section.draw_front if side == "white" else section.draw_back)(rec, item)
    texts = [op[1][2] for op in rec.ops if op[0] == "text"]
    return texts, rec.ops


def outline(border, cell):
    """The edges of a site border's squares that no other square of it shares, in mm."""
    out = set()
    for x, y in border:
        for dx, dy, x1, y1, x2, y2 in ((0, -1, 0, 0, 1, 0), (0, 1, 0, 1, 1, 1),
                                      (-1, 0, 0, 0, 0, 1), (1, 0, 1, 0, 1, 1)):
            if (x + dx, y + dy) not in border:
                out.add(((x + x1) * cell, (y + y1) * cell, (x + x2) * cell, (y + y2) * cell))
    return out


def test_every_face_prints_its_requirement_yen_district_map_square_and_black_borders(g, sites):
    assert len(sites.items) == 32
    cell = g.card.cell_mm
    black = Palette(load_layout(), False).border
    assert black in ("#000000", "#111111")
    for item in sites.items:
        site = item.data
        district = g.district[site.district]
        for side in ("white", "blue"):
            texts, ops = face(sites, item, side)
            f = site.side(side)
            joined = " | ".join(texts)
            assert f.requirement in texts, (site.id, side, joined)          # "3.V///" as printed
            assert f"¥{f.yen:,}" in texts, (site.id, side, joined)
            assert any(t.startswith(side.upper()) and "map" in t for t in texts), (site.id, side, joined)
            assert any(district.name in t for t in texts), (site.id, side, joined)
            # the site border(s): thick black lines exactly round their squares
            thick = {tuple(float(v) for v in op[1][:4]) for op in ops
                     if op[0] == "line" and op[1][4].stroke == black and op[1][4].width >= 1}
            want = set().union(*(outline(b, cell) for b in f.borders))
            assert thick == {tuple(float(v) for v in e) for e in want}, (site.id, side)
            assert (len(f.borders) == 2) == ("site 2" in texts), (site.id, side)


def test_the_rules_example_card_reads_3V_for_14000(g, sites):
    """"3.V///" = 3 floors and 8 pieces for ¥14,000, on the card the rules show."""
    hits = [(item.id, side) for item in sites.items for side in ("white", "blue")
            if "3.V///" in face(sites, item, side)[0] and "¥14,000" in face(sites, item, side)[0]]
    assert hits, "no printed face reads 3.V/// for ¥14,000"


def test_every_face_leads_to_its_companion_page_and_the_code_covers_no_title(g, sites):
    """Each of the 64 faces carries its QR code (the short code printed under it) or, on a face with
    no 2 x 2 squares of free ground for one, the short code alone at the title strip's right end (the
    companion opens the page by the code typed); a code inside the card stays under the title
    strip, whose yen it covered ("¥9,000" read "¥9.000" on Nakano blue-4)."""
    from generator.qr import short_code

    top = g.card.header_rows * g.card.cell_mm
    with_qr = 0
    for item in sites.items:
        for side in ("white", "blue"):
            texts, ops = face(sites, item, side)
            assert short_code(item.qr[1]) in texts, (item.id, side, texts)
            squares = [op[1][:4] for op in ops if op[0] == "rect" and op[1][4].fill == "#ffffff"
                       and op[1][4].stroke is None and op[1][2] > 15]       # a QR code's white square
            for x, y, w, h in squares:
                with_qr += 1
                assert y < 0.5 or y >= top - 1e-6, (item.id, side, y)
    assert with_qr >= 56, with_qr
