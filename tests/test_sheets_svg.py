"""SVG output: one file per PDF page, at real size, holding the same components, self-contained
(every reference resolves, text as outlines), and byte-identical from one build to the next."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pypdf
import pytest

from generator.build import BuildOptions, build
from pdf_measure import svg_components, svg_dangling_refs, svg_tree
from synthetic_kit import CARD_IDS, GAME, TOKEN_IDS, build_kit

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("svg")
    for run in ("one", "two"):
        build(BuildOptions(out=root / run, papers=("letter",)), kits={GAME: build_kit()})
    return root


def test_one_svg_per_pdf_page_at_real_size(out):
    manifest = json.loads((out / "one" / "manifest.json").read_text())
    folder = out / "one" / "letter" / GAME
    for entry in manifest["files"]:
        if entry["format"] != "pdf":
            continue
        stem = Path(entry["path"]).stem
        pages = len(pypdf.PdfReader(out / "one" / entry["path"]).pages)
        assert entry["pages"] == pages
        svgs = sorted(folder.glob(f"{stem}-[0-9][0-9].svg"))
        assert len(svgs) == pages
        for path in svgs:
            root = svg_tree(path)
            reader_size = pypdf.PdfReader(out / "one" / entry["path"]).pages[int(path.stem[-2:]) - 1].mediabox
            w_mm, h_mm = float(reader_size.width) * 25.4 / 72, float(reader_size.height) * 25.4 / 72
            assert root.get("width") == f"{w_mm:.3f}".rstrip("0").rstrip(".") + "mm"
            assert root.get("height") == f"{h_mm:.3f}".rstrip("0").rstrip(".") + "mm"
            assert root.get("viewBox") == f"0 0 {root.get('width')[:-2]} {root.get('height')[:-2]}"


def test_svg_pages_hold_every_component_copy(out):
    folder = out / "one" / "letter" / GAME
    seen = Counter()
    for path in sorted(folder.glob(f"{GAME}-cards-letter-*.svg")):
        seen.update(svg_components(svg_tree(path)))
    for card, copies in CARD_IDS.items():
        assert seen[("test-card", card, "front")] == copies
        assert seen[("test-card", card, "back")] == copies
    for token, copies in TOKEN_IDS.items():
        assert seen[("test-token", token, "front")] == copies
    boards = Counter()
    for path in sorted(folder.glob(f"{GAME}-board-*.svg")):
        boards.update(k for k, _, _ in svg_components(svg_tree(path)))
    assert boards["test-board"] == 4 + 1    # four tiles, and the whole board on the large sheet


def test_svg_files_are_self_contained_with_text_as_outlines(out):
    folder = out / "one" / "letter" / GAME
    texts = []
    for path in sorted(folder.glob("*.svg")):
        root = svg_tree(path)
        assert svg_dangling_refs(root) == set(), path.name
        ids = [el.get("id") for el in root.iter() if el.get("id")]
        assert len(ids) == len(set(ids)), f"{path.name}: repeated ids"
        assert not list(root.iter(f"{SVG}text")), "text must not depend on the viewer's fonts"
        assert not any("@font-face" in (el.text or "") for el in root.iter())
        texts += [g.get("data-text") for g in root.iter(f"{SVG}g") if g.get("data-text")]
    for card in CARD_IDS:
        assert card.title() in texts
    assert "Score sheet 千代田区" in texts


def test_builds_are_byte_identical(out):
    one = sorted(p.relative_to(out / "one") for p in (out / "one").rglob("*") if p.is_file())
    two = sorted(p.relative_to(out / "two") for p in (out / "two").rglob("*") if p.is_file())
    assert one == two and len(one) > 20
    for rel in one:
        assert (out / "one" / rel).read_bytes() == (out / "two" / rel).read_bytes(), str(rel)


def test_another_process_with_another_hash_seed_writes_the_same_bytes(out):
    import os
    import subprocess
    import sys

    tests = Path(__file__).resolve().parent
    script = ("import sys; from pathlib import Path; from generator.build import BuildOptions, build; "
              "from synthetic_kit import GAME, build_kit; "
              "build(BuildOptions(out=Path(sys.argv[1]), papers=('letter',)), kits={GAME: build_kit()})")
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": f"{tests}{os.pathsep}{tests.parent}"}
    subprocess.run([sys.executable, "-c", script, str(out / "three")], check=True, env=env,
                   cwd=tests.parent, timeout=120)
    for path in sorted((out / "one").rglob("*")):
        if path.is_file():
            rel = path.relative_to(out / "one")
            assert path.read_bytes() == (out / "three" / rel).read_bytes(), str(rel)


def test_a_serial_build_writes_the_same_bytes_as_a_parallel_one(tmp_path, monkeypatch):
    """In one process the second paper's SVG pages splice in faces the first paper's drew; in
    parallel workers each paper draws its own. The files must not show the difference."""
    monkeypatch.setenv("TOKYO_KIT_JOBS", "1")
    build(BuildOptions(out=tmp_path / "serial"), kits={GAME: build_kit()})
    monkeypatch.setenv("TOKYO_KIT_JOBS", "2")
    build(BuildOptions(out=tmp_path / "parallel"), kits={GAME: build_kit()})
    files = sorted(p.relative_to(tmp_path / "serial") for p in (tmp_path / "serial").rglob("*") if p.is_file())
    assert len(files) > 40
    for rel in files:
        assert (tmp_path / "serial" / rel).read_bytes() == (tmp_path / "parallel" / rel).read_bytes(), str(rel)


def test_shared_faces_with_clips_and_nested_faces_stay_self_contained():
    import xml.etree.ElementTree as ET

    from generator.draw import Style
    from generator.draw.svg import SvgCanvas

    def inner(c):
        c.text(1, 5, "新宿 inner", 8)

    def face(c):
        with c.frame(2, 2):
            c.clip(0, 0, 20, 10)
            c.rect(-5, -5, 40, 40, Style(fill="#336699"))
            c.reuse("inner", (0, 0, 20, 10), inner)
        c.text(0, 20, "outer", 9, font="bold")

    fragments: dict = {}
    pages = []
    for n in range(2):
        canvas = SvgCanvas(100, 100, fragments=fragments)
        with canvas.frame(10, 10):
            canvas.clip(0, 0, 50, 50)          # a page-level clip next to the face's own
            canvas.reuse("face", (0, 0, 30, 30), face)
        canvas.reuse("face", (0, 0, 30, 30), face)
        pages.append(canvas.tostring())
    assert set(fragments) == {"face", "inner"}
    for text in pages:
        root = ET.fromstring(text)
        assert svg_dangling_refs(root) == set()
        ids = [el.get("id") for el in root.iter() if el.get("id")]
        assert len(ids) == len(set(ids))
        for el in root.iter():
            ref = el.get("clip-path")
            if ref:
                assert ref[5:-1] in ids
        assert {g.get("data-text") for g in root.iter(f"{SVG}g") if g.get("data-text")} == {"新宿 inner", "outer"}
    assert pages[0] == pages[1]
