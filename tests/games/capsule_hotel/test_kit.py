"""Tokyo Capsule Hotel's kit: every piece of the box in the manifest with the data's counts, the QR
codes the companion answers, what is not printed and why, and the PDFs: built for both papers,
every QR code read back from the raster (zxing) to a manifest payload."""
from __future__ import annotations

import json
import pytest

from generator.build import BuildOptions, build
from generator.canon import load
from generator.kits.base import CardSection, KitContext
from generator.kits.capsule_hotel import build_kit
from generator.kits.capsule_hotel.pieces import die_buildings

GAME = "capsule-hotel"
URL = "http://192.168.1.20:5000"


@pytest.fixture(scope="module")
def kit(data):
    return build_kit(data, KitContext(companion_url=URL))


def copies(kit, kind):
    n = 0
    for s in kit.sections:
        if getattr(s, "kind", None) == kind:
            n += sum(i.copies for i in s.items) if isinstance(s, CardSection) else s.copies
    return n


def test_every_piece_of_the_box_is_printed_with_its_count(kit, data):
    inv = data.inventory
    assert copies(kit, "player-ledger") == inv.player_ledger_pads
    assert copies(kit, "game-ledger") == inv.game_ledger_pads
    assert copies(kit, "map-sheet") == inv.map_sheets
    assert copies(kit, "capsule") == inv.capsules == sum(c.count for c in data.capsules)
    assert copies(kit, "entrance") == inv.entrances
    assert copies(kit, "vending-machine") == inv.vending_machines
    assert copies(kit, "coupon") == data.coupons
    assert copies(kit, "attraction-card") == len(data.attraction_cards)
    assert copies(kit, "coupon") + copies(kit, "attraction-card") == inv.coupons_and_attraction_cards
    assert copies(kit, "seal") == inv.seals
    assert copies(kit, "round-expenses-marker") == inv.round_expenses_markers
    assert copies(kit, "attraction-board") == inv.attraction_boards
    for kind in ("franchise-income-board", "capsule-board", "round-expenses-board"):
        assert copies(kit, kind) == 1
    seals = next(s for s in kit.sections if getattr(s, "kind", None) == "seal")
    cards = next(s for s in kit.sections if getattr(s, "kind", None) == "attraction-card")
    assert seals.draw_back is not None and cards.draw_back is not None   # "Pass" side, side B


def test_lot_boards_and_buildings_are_drawn_at_their_data_sizes(data):
    from generator.draw.record import Recording
    from generator.kits.capsule_hotel.boards import draw_lot_boards_page
    from generator.kits.capsule_hotel.common import Palette
    from generator.kits.capsule_hotel.layout import load_layout
    from generator.kits.capsule_hotel.pieces import draw_buildings_page
    layout = load_layout()
    pal = Palette(layout, False)
    for width in (197.3, 203.2):               # A4 and Letter printable widths
        rec = Recording()
        draw_lot_boards_page(rec, width, 266.7, data, layout, pal)
        texts = " ".join(str(op) for op in rec.ops)
        for b in data.lot_boards:
            assert f"{b.price:,}円" in texts
        rec = Recording()
        draw_buildings_page(rec, width, 266.7, data, layout, pal)


def test_qr_codes_name_the_companion_pages(kit, data):
    qrs = {item.qr for s in kit.sections for item in getattr(s, "items", ()) if item.qr}
    assert {p for _, p in qrs} == (
        {f"{URL}/q/{GAME}/ledger/{n}" for n in range(1, 6)}
        | {f"{URL}/q/{GAME}/queue/round-expenses-board", f"{URL}/q/{GAME}/franchise/franchise-income-board"}
        | {f"{URL}/q/{GAME}/attraction/{c.id}" for c in data.attraction_cards})


def test_not_printed_says_why(kit, data):
    rows = {(n.kind, n.id): n.reason for n in kit.not_printed}
    for d in data.dice:
        if d.sides != 6:
            assert "roll table" in rows[("bonus-die", d.id)] and "companion" in rows[("bonus-die", d.id)]
    assert ("bonus-die", "die-6") not in rows          # printed as a net
    nets = [s for s in kit.sections if getattr(s, "kind", None) == "die-net"]
    assert [i.id for s in nets for i in s.items] == ["die-6"]
    assert {b.id for b in die_buildings(data, "die-6")} == {"coin-laundry", "sweets-buffet", "tokyo-spike"}


def test_rules_summary_in_english_with_every_number_from_the_data(data):
    from generator.kits.capsule_hotel.summary import page_one, page_two
    text = " ".join(t for _, t in page_one(data) + page_two(data))
    for needle in ("6,000 → 7,200 in round 2", "4 for 3,500円", "later 3 for 3,000円", "Golden rule",
                   "purchase queue", "100 × (hotels of that colour", "at most 500"):
        assert needle.lower() in text.lower(), needle
    heads = [h for h, _ in page_one(data) + page_two(data)]
    assert "The purchase queue" in heads and "Income" in heads and "Golden rule of hotel placement" in heads


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("capsule-kit")
    build(BuildOptions(out=out, papers=("letter", "a4"), formats=("pdf",), companion_url=URL,
                       games=(GAME,)))
    return out


def test_the_kit_builds_for_both_papers_with_its_manifest(built, data):
    manifest = json.loads((built / "manifest.json").read_text())
    for paper in ("letter", "a4"):
        folder = built / paper / GAME
        assert sorted(p.name for p in folder.glob("*.pdf")) == sorted(
            f"{GAME}-{f}-{paper}.pdf" for f in ("pads", "boards", "tokens", "cards", "sheets"))
    payloads = {q["payload"] for q in manifest["qr"] if q["game"] == GAME}
    assert len(payloads) == 5 + 2 + len(data.attraction_cards)
    np_rows = [r for r in manifest.get("not_printed", []) if r.get("game", GAME) == GAME]
    assert {r["id"] for r in np_rows} >= {d.id for d in data.dice if d.sides != 6}


def test_every_qr_code_reads_back_from_the_pdfs(built):
    zxingcpp = pytest.importorskip("zxingcpp")
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from pdf_measure import page_texts, raster
    manifest = json.loads((built / "manifest.json").read_text())
    expected = {q["payload"] for q in manifest["qr"] if q["game"] == GAME}
    decoded = set()
    for name in ("pads", "boards", "cards"):
        path = built / "letter" / GAME / f"{GAME}-{name}-letter.pdf"
        texts = page_texts(path)
        for number in range(2, len(texts) + 1):
            if "Map sheet" in texts[number - 1] or "fronts" not in texts[number - 1] and name == "cards":
                continue          # map sheets and the backs of the seals carry no code
            for code in zxingcpp.read_barcodes(raster(path, number, 200)):
                decoded.add(code.text)
    assert decoded == expected


def test_capsule_colours_are_never_told_by_colour_alone(data):
    from generator.kits.capsule_hotel.pieces import capsule_code
    codes = [capsule_code(data, c.id) for c in data.capsules]
    assert len(set(codes)) == len(codes)                       # a letter code each
    assert len({c.pattern for c in data.capsules}) == len(data.capsules)   # and a pattern each


def test_lot_boards_too_large_for_their_page_are_a_one_line_data_error(broken_data):
    from generator.canon import DataError
    from generator.draw.record import Recording
    from generator.kits.capsule_hotel.boards import draw_lot_boards_page
    from generator.kits.capsule_hotel.common import Palette
    from generator.kits.capsule_hotel.layout import load_layout
    root, _ = broken_data(GAME, "components.toml", "size = [80, 80]", "size = [170, 240]")
    data = load(GAME, root)
    layout = load_layout()
    one_line = r"capsule-hotel/components.toml: lot_board: lot-\d+ \(.* mm\) does not fit the page"
    with pytest.raises(DataError, match=one_line):
        draw_lot_boards_page(Recording(), 197.3, 266.7, data, layout, Palette(layout, False))
