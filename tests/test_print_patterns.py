"""Colour-blind safe pieces: every player colour of a kit prints its own symbol on each of its pieces.

Measured in the kit's SVG output: each placed piece (a <g data-kind=… data-id=…> on a sheet) is
followed through its <use> to the face it shows, and the face's symbols (<g data-symbol=…>, drawn by
generator.icons.player_symbol) are read with their size. Red and green pieces look alike under
deuteranopia; a symbol per colour, big enough to see at arm's length, tells them apart.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pytest

from generator import symbols
from generator.build import BuildOptions, build
from generator.canon import load

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
MIN_SYMBOL_MM = 3.0      # about 0.3 degrees at arm's length: a shape, not a speck

#: Each game with player colours: where its data keeps them, and which pieces carry them.
PLAYER_PIECES = {
    "shinjuku": (lambda data: data.pieces.colour, ("store", "department-store", "track")),
    "jutaku": (lambda data: data.izakaya.metro.colour, ("pyramid", "disc")),
}


def symbol_size(el: ET.Element) -> float:
    """The symbol's width in mm (a circle's diameter, a polygon's extent across)."""
    shape = next(iter(el))
    if shape.tag == SVG + "circle":
        return 2 * float(shape.get("r"))
    xs = [float(v) for v in re.split(r"[ ,]+", shape.get("points").strip())[0::2]]
    return max(xs) - min(xs)


def kit_symbols(out: Path, kinds: tuple[str, ...]) -> dict[tuple[str, str], list[tuple[str, float]]]:
    """(kind, id) of every placed piece of `kinds` → the symbols (name, size) on its face."""
    faces: dict[str, list[tuple[str, float]]] = {}
    placed: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in sorted(out.rglob("*.svg")):
        root = ET.parse(path).getroot()
        for g in root.iter(SVG + "g"):
            if (g.get("id") or "").startswith("face-"):
                faces[g.get("id")] = [(s.get("data-symbol"), symbol_size(s)) for s in g.iter(SVG + "g")
                                      if s.get("data-symbol")]
            if g.get("data-kind") in kinds and g.get("data-side", "front") == "front":
                placed[(g.get("data-kind"), g.get("data-id"))] += [u.get(XLINK)[1:] for u in g.iter(SVG + "use")]
    return {piece: [s for ref in refs for s in faces.get(ref, [])] for piece, refs in placed.items()}


@pytest.fixture(scope="module", params=sorted(PLAYER_PIECES))
def game_symbols(request, tmp_path_factory):
    game = request.param
    out = tmp_path_factory.mktemp(game)
    build(BuildOptions(out=out, games=(game,), formats=("svg",), papers=("a4",)))
    colours_of, kinds = PLAYER_PIECES[game]
    return game, list(colours_of(load(game))), kinds, kit_symbols(out, kinds)


def test_the_data_gives_each_player_colour_its_own_known_symbol(game_symbols):
    game, colours, _, _ = game_symbols
    assert all(symbols.problem(c.symbol) is None for c in colours)
    assert len({c.symbol for c in colours}) == len(colours), f"{game}: two colours share a symbol"


def test_every_piece_of_a_player_colour_prints_that_colours_symbol_large_enough(game_symbols):
    game, colours, kinds, found = game_symbols
    for kind in kinds:
        pieces = {pid: syms for (k, pid), syms in found.items() if k == kind}
        assert pieces, f"{game}: no {kind} placed in the SVG output"
        for colour in colours:
            mine = {pid: syms for pid, syms in pieces.items() if pid == colour.id or pid.startswith(colour.id + "-")}
            assert mine, f"{game}: no {colour.id} {kind}"
            for pid, syms in mine.items():
                assert syms, f"{game}: {kind} {pid} prints no symbol"
                assert {name for name, _ in syms} == {colour.symbol}, f"{game}: {kind} {pid}: {syms}"
                assert min(size for _, size in syms) >= MIN_SYMBOL_MM, f"{game}: {kind} {pid}: {syms}"


def test_no_two_player_colours_look_the_same_in_print(game_symbols):
    """What each colour's pieces show, taken from the output alone, differs between colours."""
    game, colours, kinds, found = game_symbols
    shown = defaultdict(set)
    for (kind, pid), syms in found.items():
        colour = next(c.id for c in colours if pid == c.id or pid.startswith(c.id + "-"))
        shown[colour] |= {name for name, _ in syms}
    assert len(shown) == len(colours)
    assert len({frozenset(v) for v in shown.values()}) == len(colours), f"{game}: {dict(shown)}"
