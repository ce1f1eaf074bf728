"""Every file of every kit, on Letter and A4, sent whole to a duplex printer: measured on the PDFs.

Sheet n of a duplex print is pages 2n-1 and 2n. So page 2 is the cover's verso (what the kit
contains, what else you need); each page of backs is an even page right after its own page of fronts
(the same section, the same "sheet k of m"); in a file with backs every single-sided page is
followed by a blank page; the manifest's `duplex`, `single` and `blank` say exactly that; the cover
names each print job's pages; the backs' art runs past the outer cut lines of their block of cards
(back bleed), so a back printed a millimetre or two off still covers its card to the edge; no sheet
is anonymous."""
from __future__ import annotations

import json
import re

import pymupdf
import pytest

from print_kits import GAMES, MM, PAPERS, black_lines
from test_print_duplex import _rect_kinds

BACK_BLEED = 3.0


@pytest.fixture(scope="module")
def plain_out(kit_builds):
    return kit_builds()


@pytest.fixture(scope="module")
def manifest(plain_out):
    return json.loads((plain_out / "manifest.json").read_text())


def _pdfs(manifest, game, paper):
    files = [f for f in manifest["files"] if f["game"] == game and f["paper"] == paper and f["format"] == "pdf"]
    assert files
    return files


def _label(text: str) -> str:
    """The side label's words: "<game> · <section> · fronts|backs, sheet k of m" (flattened)."""
    return " ".join(text.split())


SIDE = re.compile(r"· (fronts|backs)(?:, sheet (\d+) of (\d+))?")


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_each_back_is_the_even_page_right_after_its_own_front(plain_out, manifest, game, paper):
    backs = 0
    for f in _pdfs(manifest, game, paper):
        with pymupdf.open(plain_out / f["path"]) as pdf:
            n = len(pdf)
            assert n == f["pages"]
            pairs, single, blank = [tuple(p) for p in f["duplex"]], f["single"], f["blank"]
            # every page is exactly once a front, a back, single-sided or blank
            listed = sorted([p for pair in pairs for p in pair] + single + blank)
            assert listed == list(range(1, n + 1)), f["path"]
            # a duplex printer pairs page 2k-1 with 2k: so must the file
            assert all(a % 2 == 1 and b == a + 1 for a, b in pairs), (f["path"], pairs)
            assert pairs[0] == (1, 2)
            texts = [_label(p.get_text()) for p in pdf]
            assert "Scale check" in texts[0] and "What the kit contains" in texts[1], f["path"]
            assert "You will also need" in texts[1]
            for a, b in pairs[1:]:
                front, back = SIDE.findall(texts[a - 1]), SIDE.findall(texts[b - 1])
                if back:     # a labelled page of backs: its front is the page before, same sheet
                    assert front and front[-1][0] == "fronts" and back[-1][0] == "backs", (f["path"], a)
                    assert front[-1][1:] == back[-1][1:], (f["path"], a, front, back)
                    section = " ".join(texts[a - 1].split(" · fronts")[0].split()[-2:])   # its title's end
                    assert section in texts[b - 1], (f["path"], a, section)
                    backs += 1
            # nothing labelled "backs" lies anywhere else
            for p, text in enumerate(texts, 1):
                if SIDE.search(text) and SIDE.findall(text)[-1][0] == "backs":
                    assert any(b == p for _, b in pairs), (f["path"], p)
            has_backs = len(pairs) > 1
            for p in single:
                if has_backs:
                    assert p % 2 == 1 and p + 1 in blank, (f["path"], p)
            for p in blank:
                page = pdf[p - 1]
                assert not page.get_text().strip() and not page.get_drawings(), (f["path"], p)
    if any(s.draw_back is not None for s in _rect_kinds(game)):
        assert backs, f"{game}: no labelled page of backs checked"


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_the_cover_names_the_pages_of_each_print_job(plain_out, manifest, game, paper):
    for f in _pdfs(manifest, game, paper):
        with pymupdf.open(plain_out / f["path"]) as pdf:
            cover = _label(pdf[0].get_text())
        n = f["pages"]
        # the jobs cover pages 1 to n, in order, without gaps
        ranges = [(int(a), int(b or a)) for a, b in re.findall(r"Pages? (\d+)(?:–(\d+))?:", cover)]
        assert ranges and ranges[0] == (1, 2), (f["path"], ranges)
        assert [a for a, _ in ranges] == [1] + [b + 1 for _, b in ranges[:-1]], (f["path"], ranges)
        assert ranges[-1][1] == n, (f["path"], ranges, n)
        if len(f["duplex"]) > 1:
            assert "double-sided, flip on the long edge" in cover
        if f["blank"]:
            assert "followed by a blank page" in cover
        # where the companion is and what the short codes are for
        assert "http://localhost:5000/q" in cover and "short code" in cover
        assert "only the computer running the companion" in cover   # built for localhost


def _grey(page: pymupdf.Page, zoom: float = 4.0):
    pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csGRAY, alpha=False)
    return pix, zoom * MM


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_backs_run_past_the_outer_cut_lines_and_the_marks_stay_findable(plain_out, manifest, game, paper):
    """Measured from the PDF: 1.5 mm and 2.8 mm outside the outer cut lines of each page of backs
    the art carries on (it mirrors the art just inside the cut), all round the block; the TrimBox is
    the block and the BleedBox 3 mm larger; black crop marks are still drawn there."""
    pen = 0.2
    checked = total = 0
    for f in _pdfs(manifest, game, paper):
        with pymupdf.open(plain_out / f["path"]) as pdf:
            for _, b in f["duplex"][1:]:
                page = pdf[b - 1]
                trim, bleed = page.trimbox, page.bleedbox
                if abs(trim.width - page.rect.width) < 0.1:     # round tokens: no trim, cut guides
                    continue
                where = f"{f['path']} page {b}"
                assert abs((trim.x0 - bleed.x0) / MM - BACK_BLEED) < 0.05, where
                assert abs((bleed.y1 - trim.y1) / MM - BACK_BLEED) < 0.05, where
                pix, scale = _grey(page)
                pixels, stride = pix.samples, pix.stride      # (each .samples is a fresh copy)
                marks = black_lines(page, pen)

                def grey(x: float, y: float, r: float = 0.3) -> float:
                    """The mean grey of a 0.6 mm square round (x, y): what a glyph's edge falls on
                    differs by a pixel between a face and its mirror image, the mean does not."""
                    n = max(1, int(r * scale))
                    cx, cy = int(x * scale), int(y * scale)
                    values = [pixels[(cy + j) * stride + cx + i]
                              for j in range(-n, n + 1) for i in range(-n, n + 1)]
                    return sum(values) / len(values)

                def on_a_mark(x: float, y: float) -> bool:
                    """A crop mark (on its white halo) crosses the sample, or it lies within 1 mm of
                    the cut between two cards, where the neighbours' art meets."""
                    return any(min(m.x0, m.x1) - 0.8 <= x <= max(m.x0, m.x1) + 0.8 and
                               min(m.y0, m.y1) - 0.8 <= y <= max(m.y0, m.y1) + 0.8 for m in marks)

                x0, y0, x1, y1 = (v / MM for v in (trim.x0, trim.y0, trim.x1, trim.y1))
                cuts_x = {round(m.x0, 2) for m in marks if m.vertical}
                cuts_y = {round(m.y0, 2) for m in marks if m.horizontal}
                for k in range(1, 20):
                    fx, fy = x0 + (x1 - x0) * k / 20, y0 + (y1 - y0) * k / 20
                    between_x = any(abs(fx - c) < 1.0 for c in cuts_x)
                    between_y = any(abs(fy - c) < 1.0 for c in cuts_y)
                    for d in (1.5, 2.6):
                        samples = []
                        if not between_y:
                            samples += [((x0 - d, fy), (x0 + d, fy)), ((x1 + d, fy), (x1 - d, fy))]
                        if not between_x:
                            samples += [((fx, y0 - d), (fx, y0 + d)), ((fx, y1 + d), (fx, y1 - d))]
                        for out_pt, in_pt in samples:
                            a, c = grey(*out_pt), grey(*in_pt)
                            if c < 235 and not on_a_mark(*out_pt):
                                total += 1
                                assert abs(a - c) <= 40, f"{where}: {out_pt} outside the cut is {a}, inside {c}"
                assert marks, f"{where}: no crop marks"
                checked += 1
    if _rect_kinds(game):
        assert checked and total, f"{game}: no page of rectangular backs with art near its cuts"


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_no_sheet_is_anonymous(plain_out, manifest, game, paper):
    """Every printed page but the blank ones carries words saying what it is."""
    for f in _pdfs(manifest, game, paper):
        with pymupdf.open(plain_out / f["path"]) as pdf:
            for p, page in enumerate(pdf, 1):
                if p not in f["blank"]:
                    assert len(page.get_text().split()) >= 3, f"{f['path']} page {p}"
