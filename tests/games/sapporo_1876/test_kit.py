"""Sapporo 1876's kit: every component of the data printed with its count (manifest, not_printed),
the QR codes of the tiles and personal boards pointing at pages the companion serves and decoding
from the printed PDF, the main board tiled, both papers, ink saver, and byte-identical rebuilds."""
from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest

from generator import canon
from generator.build import BuildOptions, build
from generator.kits.base import BoardSection, CardSection, KitContext, PageSection
from generator.kits.sapporo_1876 import GAME, build_kit

URL = "http://192.168.1.20:8080"


@pytest.fixture(scope="module")
def data():
    return canon.load(GAME)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("sapporo")
    manifest = build(BuildOptions(games=(GAME,), papers=("letter", "a4"), formats=("pdf",), out=out,
                                  companion_url=URL))
    return out, manifest


#: the data's (kind, id) -> the kit's kind, for the components drawn as several faces
FACES = {("board", "personal-board"): "personal-board"}


def test_every_component_is_printed_with_its_count(data, built):
    _, manifest = built
    printed = Counter()
    for row in manifest["components"]:
        printed[(row["kind"], row["id"])] += row["copies"]
    by_kind = Counter()
    for (kind, _), n in printed.items():
        by_kind[kind] += n
    skipped = {(n["kind"], n["id"]): n["count"] for n in manifest["not_printed"]}
    for c in data.components():
        key = (c.kind, c.id)
        if key in skipped:
            assert skipped[key] == c.count
        elif key in FACES:
            assert by_kind[FACES[key]] == c.count, key
        else:
            assert printed[key] == c.count, key
    assert sum(n for (k, _), n in printed.items() if k == "resource") == 48
    assert sum(n for (k, _), n in printed.items() if k == "banknote") == 18
    assert sum(n for (k, _), n in printed.items() if k == "worker") == 18


def test_qr_payloads_are_pages_of_the_companion(data, built):
    _, manifest = built
    payloads = {q["payload"] for q in manifest["qr"]}
    expected = ({f"{URL}/q/{GAME}/influential-person/{p.id}" for p in data.persons}
                | {f"{URL}/q/{GAME}/building-tile/{b.id}" for b in data.building_tiles}
                | {f"{URL}/q/{GAME}/personal-board/{c.id}" for c in data.colours})
    assert payloads == expected
    from companion import create_app
    from companion.testing import FakeClock
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        client = create_app({"DATA_DIR": tmp, "CLOCK": FakeClock()}).test_client()
        for p in payloads:
            assert client.get(p.removeprefix(URL)).status_code == 200, p


def test_the_main_board_is_tiled_and_files_are_listed(built):
    out, manifest = built
    files = {f["path"]: f for f in manifest["files"]}
    for paper in ("letter", "a4"):
        board = files[f"{paper}/{GAME}/{GAME}-board-{paper}.pdf"]
        assert board["pages"] > 4             # cover + several tiles + the assembly page
        for part in ("boards", "tiles", "tokens", "sheets"):
            assert f"{paper}/{GAME}/{GAME}-{part}-{paper}.pdf" in files


def test_qr_codes_decode_from_the_printed_tiles(built):
    zxingcpp = pytest.importorskip("zxingcpp")
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    import subprocess
    from PIL import Image
    out, manifest = built
    expected = {q["payload"] for q in manifest["qr"]}
    decoded = set()
    for part in ("tiles", "boards"):
        pdf = out / "a4" / GAME / f"{GAME}-{part}-a4.pdf"
        prefix = out / f"r-{part}"
        subprocess.run(["pdftoppm", "-gray", "-r", "200", str(pdf), str(prefix)], check=True)   # (PGM: no PNG)
        for page in sorted(out.glob(f"r-{part}-*.pgm")):
            decoded |= {c.text for c in zxingcpp.read_barcodes(Image.open(page))}
    assert decoded == expected


def test_sections_ink_saver_and_determinism(data, tmp_path):
    kit = build_kit(data, KitContext())
    kinds = [s.kind for s in kit.sections]
    assert any(isinstance(s, BoardSection) and s.id == "main-board" for s in kit.sections)
    assert any(isinstance(s, PageSection) and s.kind == "reference" for s in kit.sections)
    tiles = [s for s in kit.sections if isinstance(s, CardSection) and s.kind in ("influential-person",
                                                                                 "building-tile")]
    assert len(tiles) == 2 and all(s.draw_back is not None for s in tiles)
    assert {"resource", "banknote", "worker", "score-marker", "pawn", "marker"} <= set(kinds)
    a = build(BuildOptions(games=(GAME,), papers=("a4",), formats=("pdf",), out=tmp_path / "a"))
    build(BuildOptions(games=(GAME,), papers=("a4",), formats=("pdf",), out=tmp_path / "b"))
    for f in a["files"]:
        assert (tmp_path / "a" / f["path"]).read_bytes() == (tmp_path / "b" / f["path"]).read_bytes()
    saver = build(BuildOptions(games=(GAME,), papers=("a4",), formats=("pdf",), out=tmp_path / "c",
                               ink_saver=True))
    assert len(saver["files"]) == len(a["files"])
    assert json.loads(json.dumps(saver))["components"] == a["components"]
