"""manifest.json checked against each game's data, as someone checking a printed kit would: every
component of the data is named by the data's own kind and id, with its copies, by the rows of what
was printed (a sheet holding several lists them) or under `not_printed` with a reason; nothing is
named that the data does not have; and each kit's cover verso says what the kit does not contain."""
from __future__ import annotations

import json
from collections import Counter

import pymupdf
import pytest

from generator import canon
from print_kits import GAMES


@pytest.fixture(scope="module")
def out(kit_builds):
    return kit_builds()


@pytest.fixture(scope="module")
def manifest(out):
    return json.loads((out / "manifest.json").read_text())


@pytest.mark.parametrize("game", GAMES)
def test_every_data_component_is_named_with_its_copies(manifest, game):
    data = Counter()
    for c in canon.load(game).components():
        data[(c.kind, c.id)] += c.count
    named = Counter()
    for row in manifest["components"]:
        if row["game"] != game:
            continue
        assert "data" in row, row
        for d in row["data"]:
            named[(d["kind"], d["id"])] += d["copies"]
    skipped = {(n["kind"], n["id"]): n for n in manifest["not_printed"] if n["game"] == game}
    for key, n in skipped.items():
        assert n["reason"], n
        if key in data:
            named[key] += n["count"]
    assert {k: v for k, v in named.items() if v} == {k: v for k, v in data.items() if v}


@pytest.mark.parametrize("game", GAMES)
def test_a_sheet_lists_what_it_holds(manifest, game):
    rows = [r for r in manifest["components"] if r["game"] == game]
    for sheet in (r for r in rows if r.get("holds")):
        on = [r for r in rows if r.get("on") == {"kind": sheet["kind"], "id": sheet["id"]}]
        assert [{k: r[k] for k in ("kind", "id", "copies")} for r in on] == sheet["holds"]
        assert sheet["data"] == []      # its pieces are named by their own rows


def test_the_kits_say_what_they_do_not_contain(out, manifest):
    """Bottle Bonus's vending machine and Shinjuku's customer bag are named, each with its reason, on
    every cover verso of their kit."""
    skipped = {(n["game"], n["kind"]) for n in manifest["not_printed"]}
    assert {("jutaku", "vending-machine"), ("jutaku", "crate"), ("shinjuku", "bag")} <= skipped
    for f in manifest["files"]:
        if f["format"] != "pdf":
            continue
        with pymupdf.open(out / f["path"]) as pdf:
            verso = " ".join(pdf[1].get_text().split())
        assert "You will also need" in verso and "Scissors" in verso, f["path"]
        for n in manifest["not_printed"]:
            if n["game"] == f["game"]:
                assert " ".join(n["reason"].split()[:4]) in verso, (f["path"], n)
