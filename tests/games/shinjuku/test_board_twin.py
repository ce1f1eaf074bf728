"""The board twin's map: the SVG the generator draws from the printed board's geometry
(generator/kits/shinjuku/twin.py, through the public generator.render.component_svg), its cache in
companion/games/shinjuku/board_twin.py, GET /shinjuku/map.svg and, in a real headless browser, moves
entered by tapping it."""
from __future__ import annotations

import dataclasses
import gzip
import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from companion.games.shinjuku import board_twin
from companion.games.shinjuku.board_twin import map_svg, map_svg_gzip, map_version
from generator import canon
from generator.kits.shinjuku.layout import load_layout
from generator.kits.shinjuku.map import map_model
from generator.render import UnknownComponent, component_svg
from phones import close_contexts, needs_chromium, server_fixture

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def data():
    return canon.load("shinjuku")


@pytest.fixture(scope="module")
def svg(data):
    return ET.fromstring(map_svg(data)[0])


def _with(root, attr):
    return [e for e in root.iter() if f"data-{attr}" in e.attrib]


def test_every_station_connection_and_ward_appears_exactly_once(data, svg):
    for attr, ids in (("station", [s.id for s in data.stations]),
                      ("connection", [c.id for c in data.connections]),
                      ("ward", [w.id for w in data.wards])):
        found = Counter(e.attrib[f"data-{attr}"] for e in _with(svg, attr))
        assert found == Counter(ids), attr
    assert len(data.stations) == 44 and len(data.connections) == 68
    # connection ids are the engine's: the two station ids, sorted, joined by "--"
    assert "nakano--shinjuku" in {e.attrib["data-connection"] for e in _with(svg, "connection")}
    ids = [e.attrib["id"] for e in svg.iter() if "id" in e.attrib]
    assert len(ids) == len(set(ids))


def test_stations_sit_where_the_printed_board_puts_them(data, svg):
    model = map_model(data, load_layout())
    r = load_layout().board.station_radius
    for g in _with(svg, "station"):
        s = data.station[g.attrib["data-station"]]
        x, y = model.station_mm(s)
        assert float(g.attrib["data-x"]) == pytest.approx(x, abs=1e-3)
        assert float(g.attrib["data-y"]) == pytest.approx(y, abs=1e-3)
        assert ("data-sakura" in g.attrib) == s.sakura
        if s.sakura:   # the printed hexagon, centred on the station
            hexagon = g.find(f"{SVG}polygon")
            pts = [tuple(map(float, p.split(","))) for p in hexagon.attrib["points"].split()]
            assert len(pts) == 6
            assert sum(p[0] for p in pts) / 6 == pytest.approx(x, abs=1e-2)
            assert sum(p[1] for p in pts) / 6 == pytest.approx(y, abs=1e-2)
        else:          # the printed circle
            marker = g.find(f"{SVG}circle")
            assert (float(marker.attrib["cx"]), float(marker.attrib["cy"])) == pytest.approx((x, y), abs=1e-3)
            assert float(marker.attrib["r"]) == pytest.approx(r)
        # and an invisible, larger tap circle
        hit = g.findall(f"{SVG}circle")[-1]
        assert hit.attrib.get("fill-opacity") == "0" and float(hit.attrib["r"]) >= 2 * r - 1
    for g in _with(svg, "connection"):
        a, b = g.attrib["data-connection"].split("--")
        ends = list(map(float, g.attrib["data-ends"].split()))
        assert set(map(tuple, (ends[:2], ends[2:]))) == {tuple(round(v, 3) for v in model.station_mm(a)),
                                                         tuple(round(v, 3) for v in model.station_mm(b))}
        assert ("data-prebuilt" in g.attrib) == data.connections[[c.id for c in data.connections].index(
            g.attrib["data-connection"])].prebuilt


def test_wards_are_tinted_as_printed_with_a_spot_for_customers(data, svg):
    layout = load_layout()
    model = map_model(data, layout)
    x0, y0, w0, h0 = model.bounds_mm
    for g in _with(svg, "ward"):
        ward = data.ward[g.attrib["data-ward"]]
        tint = layout.colours.ward[ward.colour].tint
        cells = g.findall(f"{SVG}polygon")
        assert cells and all(c.attrib["fill"] == tint for c in cells)
        x, y, w, h = map(float, g.attrib["data-spot"].split())
        assert x0 <= x and y0 <= y and x + w <= x0 + w0 and y + h <= y0 + h0 and w >= 15 and h >= 15
        # the spot's centre is in the ward or right at its edge
        centre = (x + w / 2, y + h / 2)
        assert model.ward_of_point(centre) == ward.id or any(
            model.ward_of_point((centre[0] + dx, centre[1] + dy)) == ward.id
            for dx in (-w / 2, 0, w / 2) for dy in (-h / 2, 0, h / 2))
    # ward names as printed (text drawn from the kit's font, words kept in data-text)
    texts = {e.attrib["data-text"] for e in svg.iter() if "data-text" in e.attrib}
    assert {w.name.upper() for w in data.wards} <= texts and {s.name for s in data.stations} <= texts
    outlines = {e.attrib["data-outline"] for e in _with(svg, "outline")}
    assert outlines == {w.id for w in data.wards}


def test_the_printed_pieces_are_there_to_place(data, svg):
    pieces = {e.attrib["data-piece"]: e.attrib["data-face"] for e in _with(svg, "piece")}
    want = {f"store-{c.id}-{g.id}" for c in data.pieces.colour for g in data.customers.type}
    want |= {f"department-store-{c.id}" for c in data.pieces.colour} | {f"track-{c.id}" for c in data.pieces.colour}
    want |= {f"customer-{g.id}{s}" for g in data.customers.type for s in ("", "-2")} | {"matsuri"}
    assert set(pieces) == want
    defined = {e.attrib["id"] for e in svg.iter() if "id" in e.attrib}
    assert set(pieces.values()) <= defined
    for layer in ("live-tracks", "live-customers", "live-marks", "live-pieces"):
        assert layer in defined


def test_the_svg_element_fills_its_box_and_names_itself(data, svg):
    assert svg.tag == f"{SVG}svg"
    assert svg.attrib["id"] == "board-map" and svg.attrib["role"] == "img"
    assert "width" not in svg.attrib and "height" not in svg.attrib   # the page sizes it
    assert svg.attrib["aria-label"] == f"Map of {len(data.wards)} wards, {len(data.stations)} stations and " \
        f"{len(data.connections)} connections"
    x, y, w, h = map_model(data, load_layout()).bounds_mm
    vx, vy, vw, vh = map(float, svg.attrib["viewBox"].split())
    assert (vx, vy, vw, vh) == pytest.approx((x - 2, y - 2, w + 4, h + 4), abs=1e-3)
    ids = {e.attrib["id"] for e in svg.iter() if "id" in e.attrib}
    assert {"map-wards", "map-borders", "map-outlines", "map-connections", "map-stations", "map-labels",
            "map-pieces", "live-customers", "live-tracks", "live-marks", "live-pieces"} <= ids


def test_drawn_once_per_data_then_cached_with_its_etag_and_gzip():
    own = dataclasses.replace(canon.load("shinjuku"))   # a data object no other test has drawn
    assert map_version(own) is None                 # never waits for a drawing
    svg, etag = map_svg(own)
    assert map_version(own) == etag and len(etag) == 16
    assert map_svg(own)[0] is svg                   # the same text, not drawn again
    assert gzip.decompress(map_svg_gzip(own)) == svg.encode()
    assert map_svg_gzip(own) is map_svg_gzip(own)
    assert len(map_svg_gzip(own)) < len(svg) / 2
    # the companion's copy is exactly the generator's public drawing: same data, same bytes
    assert svg == component_svg("shinjuku", "board-twin", "map", data=own)
    board_twin._cache.pop(id(own), None)


def test_a_server_start_keeps_its_drawing_for_the_next_start(data, tmp_path, monkeypatch):
    """draw_in_background (every server start, in every worker) draws the map in a child process
    once, keeps it under a key of the data's and the generator's bytes, and the next start reads it:
    no child. Another key (the data or the drawing code changed) draws afresh."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    own = dataclasses.replace(data)                 # (an object of its own: nothing cached for it yet)
    drawn = []
    real_run = board_twin.subprocess.run
    monkeypatch.setattr(board_twin.subprocess, "run", lambda *a, **k: drawn.append(a) or real_run(*a, **k))
    kept = board_twin._disk_path()
    assert kept.parent == tmp_path / "tokyo-table-kit" and not kept.exists()
    board_twin.draw_in_background(own)
    assert len(drawn) == 1 and kept.is_file()
    svg, _ = map_svg(own)
    assert kept.read_text(encoding="utf-8") == svg == component_svg("shinjuku", "board-twin", "map")
    board_twin._cache.pop(id(own), None)            # a new process: nothing in memory
    board_twin.draw_in_background(own)
    assert len(drawn) == 1 and map_svg(own)[0] == svg       # read from the disk, no child
    board_twin._cache.pop(id(own), None)
    monkeypatch.setattr(board_twin, "_disk_path", lambda: tmp_path / "tokyo-table-kit" / "other-key.svg")
    board_twin.draw_in_background(own)
    assert len(drawn) == 2 and (tmp_path / "tokyo-table-kit" / "other-key.svg").read_text() == svg
    board_twin._cache.pop(id(own), None)


def test_an_unwritable_cache_only_costs_the_drawing(data, tmp_path, monkeypatch):
    (tmp_path / "tokyo-table-kit").write_text("a file where the folder would go")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    own = dataclasses.replace(data)
    board_twin.draw_in_background(own)
    assert map_version(own) is not None             # drawn all the same
    board_twin._cache.pop(id(own), None)


def test_the_public_call_names_what_it_cannot_draw(data):
    with pytest.raises(UnknownComponent, match="no component kind 'nope'.*board-twin.*ward-card"):
        component_svg("shinjuku", "nope", "map", data=data)
    with pytest.raises(UnknownComponent, match="no board-twin 'city'"):
        component_svg("shinjuku", "board-twin", "city", data=data)
    with pytest.raises(canon.UnknownGame):
        component_svg("osaka", "board-twin", "map")


def test_a_card_face_is_drawn_alone_as_printed(data):
    face = ET.fromstring(component_svg("shinjuku", "ward-card", "chiyoda", data=data))
    card = load_layout().card
    assert face.attrib["viewBox"] == f"0 0 {card.size[0]:g} {card.size[1]:g}"
    texts = {e.attrib["data-text"] for e in face.iter() if "data-text" in e.attrib}
    chiyoda = data.ward["chiyoda"]
    assert {chiyoda.name, chiyoda.kanji} <= texts and {s.name for s in data.stations_in["chiyoda"]} <= texts
    back = ET.fromstring(component_svg("shinjuku", "ward-card", "chiyoda", side="back", data=data))
    assert {e.attrib["data-text"] for e in back.iter() if "data-text" in e.attrib} == {
        "新宿", data.name.upper(), "ward card"}     # the one back every ward card shares
    with pytest.raises(UnknownComponent, match="single-sided"):
        component_svg("shinjuku", "customer", "food", side="back", data=data)


def test_the_map_is_served_cached_and_the_board_page_points_at_it(tmp_path, data):
    from companion import create_app

    app = create_app({"DATA_DIR": tmp_path})
    client = app.test_client()
    r = client.get("/shinjuku/map.svg")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    etag = r.headers["ETag"].strip('"')
    assert r.headers["Cache-Control"] == "no-cache"
    assert client.get("/shinjuku/map.svg", headers={"If-None-Match": f'"{etag}"'}).status_code == 304
    zipped = client.get(f"/shinjuku/map.svg?v={etag}", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip" and "immutable" in zipped.headers["Cache-Control"]
    assert gzip.decompress(zipped.data) == r.data
    assert len(zipped.data) < len(r.data) / 2
    # drawn once: the same text, the same object
    assert map_svg(app.extensions["tokyo"].games["shinjuku"].data)[0] is map_svg(
        app.extensions["tokyo"].games["shinjuku"].data)[0]
    t = client.post("/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben"], "seed": 1}).get_json()
    page = client.get(f"/t/{t['code']}/board").get_data(as_text=True)   # the map is drawn: a lasting URL
    assert f"/shinjuku/map.svg?v={etag}" in page and "board_map.js" in page and 'id="map"' in page


# ---------- in a real browser ----------

#: The companion of the browser test (started only if it runs).
server = server_fixture("shinjuku_twin")


def _advance_to_actions(app, code):
    """Companion-mode table played by the engine (as the host) up to the start of a turn's actions."""
    tokyo = app.extensions["tokyo"]
    rules = tokyo.games["shinjuku"].rules
    while True:
        _, state = tokyo.tables.state(code)
        if state["phase"] == "actions" and not state["actions"]:
            return state
        move = rules.legal_moves(state).moves[0]
        status, _ = tokyo.tables.move(code, tokyo.tables.get(code)["seq"], move, None, "fp")
        assert status == 200


@needs_chromium
def test_tapping_the_map_enters_a_move_and_both_phones_draw_it(server, browser, data):
    app = server.app
    client = app.test_client()
    code = client.post("/api/tables", json={"game": "shinjuku", "players": ["Aki", "Ben"],
                                            "options": {"deck": "companion"}, "seed": 5}).get_json()["code"]
    state = _advance_to_actions(app, code)
    me = state["current"]
    # a station the mover may open a store at: in the ward of a card in hand
    card = state["players"][me]["hand"][0]
    station = next(s.id for s in data.stations_in[card] if s.id not in state["stations"])
    name = data.station[station].name

    try:
        pages, errors = [], []
        for _ in range(2):     # the mover's phone, and a phone watching
            ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                      has_touch=True, bypass_csp=True)   # (wait_for_function evals)
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(server.url + f"/t/{code}/board")
            pages.append(page)
        aki, ben = pages
        aki.locator("#seat-buttons button").nth(me).click()
        for page in pages:
            page.wait_for_function("window.tkTable && tkTable.mode === 'live' && tkMap && tkMap.svg",
                                   timeout=10_000)
        # the live state is drawn: one token per kind of customer waiting in each ward
        waiting = sum(len(set(tokens)) for tokens in state["wards"].values())
        tokens = ben.locator("#board-map #live-customers [data-token]:not([data-token=matsuri])")
        assert tokens.count() == waiting > 0
        assert ben.locator("#board-map #live-customers [data-token=matsuri]").count() == 1
        # the map's frame fits the phone's width; the map opens close up in it (issue 23: every name
        # at least 11 px), and the whole map fits the width a tap away
        frame = "document.querySelector('#map .map-scroll').getBoundingClientRect().width"
        assert 380 <= aki.evaluate(frame) <= 390
        assert aki.evaluate("document.documentElement.scrollWidth") <= 390
        aki.get_by_role("button", name="Whole map").click()
        width = aki.evaluate("document.querySelector('#board-map').getBoundingClientRect().width")
        assert 380 <= width <= 390
        aki.get_by_role("button", name="Close up").click()

        aki.locator("#types button", has_text="Open store").click()
        aki.locator(f"#board-map [data-station={station}]").tap()
        aki.locator("#builder h3", has_text=f"Station: {name}").wait_for(timeout=2_000)
        assert f"at {name}" in aki.locator("#summary").inner_text()
        assert aki.locator("#board-map #live-marks .pick").count() == 1
        # a station tap circle is at least ~32 px across on the phone
        assert aki.evaluate(f"document.querySelector('#board-map [data-station={station}] .hit')"
                            ".getBoundingClientRect().width") >= 32
        # not whole yet: Play waits, the summary says in words what is left, the taps are kept
        assert aki.get_by_role("button", name="Play", exact=True).is_disabled()
        # the card a player would play there is preselected (issue 9: fewer taps); the goods are left
        assert f"card {data.ward[card].name}" in aki.locator("#summary").inner_text()
        assert "still to choose: the goods" in aki.locator("#summary").inner_text()
        assert f"at {name}" in aki.locator("#summary").inner_text()
        aki.locator("#builder .card", has_text="Card to play").locator(
            "button", has_text=data.ward[card].name).first.click()
        aki.locator("#builder .card", has_text="Goods").locator("button").first.click()
        aki.get_by_role("button", name="Play", exact=True).click()
        aki.locator("#msg.good").wait_for(timeout=5_000)
        for page, timeout in ((aki, 2_000), (ben, 1_000)):
            store = page.locator(f"#board-map #live-pieces [data-store={station}]")
            store.wait_for(timeout=timeout)
            assert store.locator("use").count() == 1

        # second action: expand track by tapping a slot on the map (zoomed in)
        aki.locator("#types button", has_text="Expand track").click()
        aki.locator("[data-zoom=in]").click()
        _, state = app.extensions["tokyo"].tables.state(code)
        cid = next(c.id for c in data.connections if c.id not in state["tracks"] and station in c.stations)
        x, y = aki.evaluate(f"""(() => {{ const c = tkMap.connections['{cid}'];
            tkMap.reveal(...c.centre); document.querySelector('#map').scrollIntoView();
            const p = new DOMPoint(...c.centre).matrixTransform(tkMap.svg.getScreenCTM());
            return [p.x, p.y]; }})()""")
        aki.touchscreen.tap(x, y)
        a, b = (data.station[s].name for s in cid.split("--"))
        assert re.search(f"Expand track ({a}–{b}|{b}–{a})", aki.locator("#summary").inner_text())
        aki.get_by_role("button", name="Play", exact=True).click()
        ben.locator(f"#board-map #live-tracks [data-track='{cid}']").wait_for(timeout=3_000)
        assert not errors, errors
    finally:
        close_contexts(browser)
