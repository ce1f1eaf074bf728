"""Behaviour of Shinjuku's kit: what it contains, what the board and cards draw, how they read."""
from __future__ import annotations

import dataclasses
import math
from collections import Counter

import pytest

from generator import icons
from generator.canon import load
from canvas_recorder import Recorder
from generator.draw import Style
from generator.draw.fit import TextFitError
from generator.draw.png import PngCanvas
from generator.geometry import boxes_overlap
from generator.kits.base import BoardSection, CardSection, KitContext, PageSection
from generator.kits.shinjuku import WARD_QR_KIND, build_kit
from generator.kits.shinjuku.cards import draw_ward_card
from generator.kits.shinjuku.layout import load_layout
from generator.kits.shinjuku.map import map_model
from generator.kits.shinjuku.sheet import example_counts, sets_by_hand
from generator.kits.shinjuku.style import Palette



@pytest.fixture(scope="module")
def data():
    return load("shinjuku")


@pytest.fixture(scope="module")
def kit(data):
    return build_kit(data, KitContext(companion_url="https://kit.example/"))


@pytest.fixture(scope="module")
def model(data):
    return map_model(data, load_layout())


def section(kit, kind):
    return next(s for s in kit.sections if getattr(s, "kind", None) == kind)


# -- contents ---------------------------------------------------------------------------------------

def test_every_ward_has_a_card_with_its_copies_and_qr(kit, data):
    cards = section(kit, "ward-card")
    by_id = {item.id: item for item in cards.items}
    assert set(by_id) == {w.id for w in data.wards}
    for w in data.wards:
        item = by_id[w.id]
        assert item.copies == w.cards
        assert item.qr == (WARD_QR_KIND, f"https://kit.example/q/shinjuku/{WARD_QR_KIND}/{w.id}")
    assert sum(i.copies for i in cards.items) == data.deck.cards
    assert cards.size == (63, 88) and cards.draw_back is not None


def test_component_rows_match_the_data(kit, data):
    """Every (kind, id, copies) the kit prints is one of data.components(), and nothing is missing."""
    printed = Counter()
    for s in kit.sections:
        if s.kind == "reference-card":      # the project's own player aid, not a component of the game
            continue
        if isinstance(s, CardSection):
            for item in s.items:
                printed[(s.kind, item.id)] += item.copies
        elif isinstance(s, BoardSection):
            printed[(s.kind, s.id)] += 1
    expected = Counter({(c.kind, c.id): c.count for c in data.components() if c.count})
    assert printed == expected
    assert any(isinstance(s, PageSection) and s.kind == "score-sheet" for s in kit.sections)


def test_customer_totals_equal_the_rules(kit, data):
    customers = section(kit, "customer")
    total = sum(i.copies for i in customers.items)
    assert total == data.customers.total
    for t in data.customers.type:
        assert sum(i.copies for i in customers.items if i.id in (t.id, f"{t.id}-2")) == t.count


def test_every_component_face_draws_without_error(kit):
    for s in kit.sections:
        if isinstance(s, CardSection):
            for item in s.items:
                rec = Recorder()
                s.draw_front(rec, item)
                assert rec.calls, f"{s.kind} {item.id} drew nothing"
                if s.draw_back:
                    s.draw_back(Recorder(), item)
        elif isinstance(s, PageSection):
            rec = Recorder()
            s.draw(rec, 197, 266)
            assert rec.texts()


# -- the board --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def board_calls(kit):
    rec = Recorder()
    section(kit, "board").draw(rec)
    return rec


def test_board_names_every_station_and_ward(board_calls, data):
    texts = board_calls.texts()
    for s in data.stations:
        assert s.name in texts and s.kanji in texts, s.id
    for w in data.wards:
        assert w.name.upper() in texts and w.kanji in texts, w.id


def test_board_draws_a_slot_for_every_open_connection_and_the_prebuilt_one_solid(board_calls, model, data):
    dashed = [c for c in board_calls.calls if c[0] == "polygon" and c[2].dash and len(c[1]) == 4]
    open_connections = [c for c in data.connections if not c.prebuilt]
    assert len(dashed) == len(open_connections)
    centres = {(round(sum(p[0] for p in c[1]) / 4, 3), round(sum(p[1] for p in c[1]) / 4, 3)) for c in dashed}
    for slot in model.slots:
        key = (round(slot.centre[0], 3), round(slot.centre[1], 3))
        assert (key in centres) != slot.connection.prebuilt, slot.connection.id
    prebuilt = [s for s in model.slots if s.connection.prebuilt]
    heavy = [c for c in board_calls.calls if c[0] == "polyline" and c[2].width >= 2.5]
    assert prebuilt and all(any(c[1][0] == s.a and c[1][-1] == s.b for c in heavy) for s in prebuilt)


def test_track_pieces_fit_the_slots_and_the_slots_fit_between_stations(model, data):
    layout = load_layout()
    piece_l, piece_w = layout.tokens.track
    for slot in model.slots:
        assert slot.length > piece_l and slot.width > piece_w
        if not slot.connection.prebuilt:
            free = math.dist(slot.a, slot.b)
            assert slot.length + 2 <= free, f"slot {slot.connection.id} is longer than its connection"


def test_sakura_stations_are_hexagons(board_calls, model, data):
    hexagons = [c for c in board_calls.calls if c[0] == "polygon" and len(c[1]) == 6]
    centres = [(sum(p[0] for p in c[1]) / 6, sum(p[1] for p in c[1]) / 6) for c in hexagons]
    for s in data.stations:
        here = model.station_mm(s)
        has_hexagon = any(math.dist(here, c) < 0.5 for c in centres)
        assert has_hexagon == s.sakura, s.id


def test_no_two_labels_overlap(model):
    labels = list(model.station_labels.values()) + list(model.ward_labels.values())
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            assert not boxes_overlap(a.box, b.box), (a.owner, b.owner)


def test_labels_stay_clear_of_station_markers_and_inside_the_map(model, data):
    r = model.board.station_radius
    bx, by, bw, bh = model.bounds_mm
    for label in list(model.station_labels.values()) + list(model.ward_labels.values()):
        x, y, w, h = label.box
        assert bx <= x and by <= y and x + w <= bx + bw and y + h <= by + bh, label.owner
        for s in data.stations:
            cx, cy = model.station_mm(s)
            nx, ny = min(max(cx, x), x + w), min(max(cy, y), y + h)
            assert math.hypot(cx - nx, cy - ny) >= r, (label.owner, s.id)


def test_ward_labels_sit_inside_their_ward(model, data):
    for w in data.wards:
        x, y, bw, bh = model.ward_labels[w.id].box
        for corner in ((x, y), (x + bw, y), (x, y + bh), (x + bw, y + bh)):
            assert model.ward_of_point(corner) == w.id, w.id


def test_derived_ward_areas_touch_exactly_the_listed_neighbours(model, data):
    wanted = {tuple(sorted((w.id, n))) for w in data.wards for n in w.neighbours}
    assert model.ward_adjacency() == wanted
    assert model.disconnected_wards() == 0


def test_every_station_lies_in_its_own_ward_area(model, data):
    for s in data.stations:
        assert model.ward_of_point(model.station_mm(s)) == s.ward, s.id


def test_queue_has_a_space_per_slot_in_data_order(board_calls, data):
    numerals = [t for t in board_calls.texts() if len(t) == 1 and 0x2460 <= ord(t) <= 0x2473]
    assert [ord(t) - 0x2460 + 1 for t in numerals] == list(data.rules.queue_slots)


# -- cards, text fitting, ink saver ------------------------------------------------------------------

def test_long_ward_name_fails_naming_the_card_and_field(data, model):
    layout = load_layout()
    ward = dataclasses.replace(data.wards[0], name="Chiyoda-Chuo-Minato-Shinjuku-Bunkyo")
    with pytest.raises(TextFitError, match=r"ward card chiyoda: name"):
        draw_ward_card(Recorder(), data, layout, model, Palette(layout.colours), ward, "https://x/q")


def test_card_counts_and_stations_are_printed(data, model):
    layout = load_layout()
    ward = data.ward["minato"]
    rec = Recorder()
    draw_ward_card(rec, data, layout, model, Palette(layout.colours), ward, "https://kit.example/q/x")
    texts = rec.texts()
    assert str(ward.cards) in texts and ward.name in texts and ward.kanji in texts
    for s in data.stations_in[ward.id]:
        assert s.name in texts
    assert any(c[0] == "rects" and len(c[1]) > 50 for c in rec.calls), "no QR modules drawn"


def test_ink_saver_turns_the_card_header_into_a_light_tint(data, model):
    layout = load_layout()
    ward = data.ward["shinagawa"]
    full = layout.colours.ward[ward.colour].full

    def header_fill(ink_saver):
        rec = Recorder()
        draw_ward_card(rec, data, layout, model, Palette(layout.colours, ink_saver), ward, "https://k/q")
        box = layout.card.header
        return next(c[2].fill for c in rec.calls if c[0] == "rect" and c[1] == box)

    assert header_fill(False) == full
    light = header_fill(True)
    assert light != full and sum(int(light[i:i + 2], 16) for i in (1, 3, 5)) > 600


# -- the PNG backend -----------------------------------------------------------------------------

def test_png_card_has_ink_where_the_name_is_and_none_in_empty_paper(data, model):
    layout = load_layout()
    ward = data.ward["chiyoda"]
    canvas = PngCanvas(*layout.card.size, dpi=150)
    draw_ward_card(canvas, data, layout, model, Palette(layout.colours), ward, "https://kit.example/q/a")
    img = canvas.image()
    px = 150 / 25.4

    def crop(box):
        x, y, w, h = box
        return img.crop((round(x * px), round(y * px), round((x + w) * px), round((y + h) * px)))

    name_box = layout.card.name.box
    header_fill = layout.colours.ward[ward.colour].full
    name_pixels = crop(name_box).getcolors(1 << 16)
    dark = sum(n for n, (r, g, b) in name_pixels if r + g + b < 200)
    assert dark > 30, "the ward's name left no dark pixels"
    # Right of the header text, left of the count box: plain header colour.
    plain = crop((44, 14, 2, 4)).getcolors(1 << 16)
    target = tuple(int(header_fill[i:i + 2], 16) for i in (1, 3, 5))
    assert all(max(abs(a - b) for a, b in zip(rgb, target)) < 8 for _, rgb in plain)


def test_png_frames_translate_and_rotate(tmp_path):
    canvas = PngCanvas(40, 40, dpi=100, supersample=1)
    with canvas.frame(20, 20, rotate=90):
        canvas.rect(5, -1, 10, 2, Style(fill="#ff0000", stroke=None))   # turned 90° clockwise: points down
    img = canvas.image()
    px = 100 / 25.4
    red, green, _ = img.getpixel((round(20 * px), round(30 * px)))[:3]
    assert red > 200 and green < 60
    assert img.getpixel((round(30 * px), round(20 * px))) == (255, 255, 255)
    assert canvas.save(tmp_path / "x.png").stat().st_size > 0


def test_png_rotated_text_is_drawn(tmp_path):
    canvas = PngCanvas(30, 30, dpi=150)
    with canvas.frame(15, 28, rotate=-90):
        canvas.text(0, 0, "TOKYO 東京", 12, font="bold")
    img = canvas.image().convert("L")
    w, h = img.size
    top_half = sum(1 for x in range(w) for y in range(h // 2) if img.getpixel((x, y)) < 128)
    left_strip = sum(1 for x in range(w // 3) for y in range(h) if img.getpixel((x, y)) < 128)
    assert top_half > 50 and left_strip == 0   # runs upwards from near the bottom, right of x = 10 mm


# -- icons and the score sheet ---------------------------------------------------------------------

def test_goods_have_icons_and_distinct_letters(data):
    letters = [icons.goods_letter(t.name) for t in data.customers.type]
    assert len(set(letters)) == len(letters)
    shapes = []
    for t in data.customers.type:
        rec = Recorder()
        icons.goods(rec, t.id, 0, 0, 10, icons.Ink())
        shapes.append(tuple(len(c[1]) for c in rec.calls if c[0] == "polygon"))
    assert len(set(shapes)) == len(shapes), "two goods share an outline"


def test_worked_example_scores_what_the_companion_scores(data):
    from companion.games.shinjuku.rules import RULES

    ex = load_layout().sheet.example
    counts = example_counts(data, ex)
    points = {int(k): v for k, v in data.scoring.set_points.items()}
    sets = sets_by_hand(counts, ex.bonus, max(points))
    best, _ = RULES(data).best_sets(counts, ex.bonus)
    assert sum(points[len(s)] for s in sets) == best


# -- rules reference card and cover --------------------------------------------------------------------

def _words(rec: Recorder) -> str:
    return " ".join(" ".join(rec.texts()).split())


def test_a_rules_reference_card_per_seat_with_the_turn_and_the_data_s_scoring(kit, data):
    ref = section(kit, "reference-card")
    assert sum(item.copies for item in ref.items) == data.players[1]
    front, back = Recorder(), Recorder()
    ref.draw_front(front, ref.items[0])
    ref.draw_back(back, ref.items[0])
    turn, scoring = _words(front), _words(back)
    for action in ("Open store", "Expand track", "Upgrade", "Income", "Move customers"):
        assert action in turn, action
    assert f"Take {data.rules.actions_per_turn} different actions" in turn
    assert f"Draw up to {data.rules.income_hand} cards" in turn
    # Every set size and its points, as the data gives them (change the data, the card follows).
    for size, points in data.scoring.set_points.items():
        assert (f"{size} different: {points}" if int(size) > 1 else f"any other: {points}") in scoring
    assert f"Any {data.rules.cards_as_wild} cards" in scoring and "Full rules" in scoring
    # Nothing under 6 pt on either side.
    assert min(c[3] for rec in (front, back) for c in rec.calls if c[0] == "text") >= 6


def test_every_cover_says_where_the_full_rules_are(kit_builds):
    import pypdf
    covers = sorted((kit_builds() / "a4" / "shinjuku").glob("*.pdf"))
    assert covers
    for path in covers:
        # the cover's verso (page 2) has the notes
        text = " ".join(" ".join(p.extract_text() for p in pypdf.PdfReader(path).pages[:2]).split())
        assert "Full rules:" in text and "reference card" in text, path.name


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_player_pieces_lie_one_colour_to_a_row_on_two_shared_sheets(kit, data, paper):
    """Stores, department stores and track: no player colour wraps from one row into the next (a
    colour's pieces are cut out as one strip, or as whole rows of their own), and all the
    single-sided pieces still take two sheets."""
    from generator.layouts import load_layout as load_sheet_layout
    from generator.sheets.pack import packable, plan_bands

    sheets_layout = load_sheet_layout()
    sheets = plan_bands([s for s in kit.sections if packable(s)], sheets_layout.papers[paper].size, sheets_layout)
    assert len(sheets) == 2
    colours = [c.id for c in data.pieces.colour]
    for sheet in sheets:
        for band in sheet:
            if band.section.kind not in ("store", "department-store", "track"):
                continue
            rows: dict[int, set] = {}
            for item, row, _ in band.slots:
                rows.setdefault(row, set()).add(next(c for c in colours if item.id.split("-")[0] == c))
            for colour in colours:
                mine = [r for r, cs in rows.items() if colour in cs]
                if len(mine) > 1:
                    assert all(rows[r] == {colour} for r in mine), (band.section.kind, colour, rows)
