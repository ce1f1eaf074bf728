"""Shin Bikkuri Man: the two calculators of API.md (no table needed).

    score(ix, {"board": [9 strings]}) -> (malformed reasons (400), impossible reasons (422),
                                          {"points", "rows": [{"row", "points"}], "columns": [{"column", "points"}]})
    place(ix, {"board", "tile": {"colour", "squares", "brick"}, "construction_discount"})
        -> (malformed reasons (400), illegal reasons (422), {"cost", "coats_of_arms", "points", "board"})

Both refuse alike (422) a board written in the notation that cannot occur in the game (geometry.
cannot_occur: a white brick "W", which /place refuses to lay).

`colour` is a façade letter (r, y, g, b, p, w) or a colour id ("red", "white").
"""
from __future__ import annotations

from typing import Any

from . import facade
from .geometry import WHITE


def _board(ix, body: Any) -> tuple[list[str], list[str] | None]:
    if not isinstance(body, dict):
        return ["the body must be a JSON object with \"board\""], None
    if "board" not in body:
        return ["\"board\" is missing: 9 strings of 5 characters, top row first"], None
    reasons = ix.geo.check_rows(body["board"])
    return reasons, (None if reasons else ix.geo.cells(body["board"]))


def _possible_board(ix, body: Any) -> tuple[list[str], list[str], Any]:
    """The request's board: (what is malformed, why it cannot occur in the game, its cells)."""
    reasons, cells = _board(ix, body)
    if reasons:
        return reasons, [], None
    return [], ix.geo.cannot_occur(cells), cells


def score(ix, body: Any) -> tuple[list[str], list[str], dict | None]:
    reasons, impossible, cells = _possible_board(ix, body)
    if reasons or impossible:
        return reasons, impossible, None
    s = ix.geo.score(cells)
    return [], [], {"points": s["points"],
                "rows": [{"row": r["row"], "points": r["points"]} for r in s["rows"]],
                "columns": [{"column": c["column"], "points": c["points"]} for c in s["columns"]]}


def place(ix, body: Any) -> tuple[list[str], list[str], dict | None]:
    reasons, impossible, cells = _possible_board(ix, body)
    if reasons or impossible:
        return reasons, impossible, None
    tile = body.get("tile")
    if not isinstance(tile, dict):
        return ["\"tile\" must be an object {\"colour\", \"squares\", \"brick\"}"], [], None
    colour = tile.get("colour")
    colour = ix.geo.colour_of_letter.get(colour, colour) if isinstance(colour, str) else None
    if colour not in ix.geo.letter:
        letters = ", ".join(sorted(ix.geo.letter.values()))
        return [f"tile colour must be one of {letters}"], [], None
    discount = body.get("construction_discount", False)
    if discount is None:
        discount = False
    if not isinstance(discount, bool):
        return ["construction_discount must be true or false"], [], None
    squares, brick = tile.get("squares"), tile.get("brick")
    if (not isinstance(squares, list) or not squares
            or not all(isinstance(s, list) and len(s) == 2
                       and all(isinstance(v, int) and not isinstance(v, bool) for v in s) for s in squares)
            or (brick is not None and not (isinstance(brick, list) and len(brick) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in brick)))):
        return ["tile squares must be a list of [column, row] pairs and brick a [column, row] or null"], [], None
    illegal, sq, b = ix.geo.read_squares(squares, brick)
    if illegal:
        return [], illegal, None
    illegal, placement = ix.geo.match(colour, sq, b)
    if illegal:
        return [], illegal, None
    illegal = ix.geo.why_not(ix.geo.occupied(cells), placement)
    if illegal:
        return [], illegal, None
    ev = ix.geo.evaluate(cells, placement)
    if colour == WHITE:
        cost = 0
    else:
        d = ix.ability[ix.discount].discount if discount and ix.discount else 0
        cost = facade.tile_cost(ix.data, placement.tile, ev.touches_same_colour, d)
    return [], [], {"cost": cost, "coats_of_arms": ev.coats, "points": ev.points,
                    "tile": placement.tile, "touches_same_colour": ev.touches_same_colour,
                    "board": ix.geo.rows_of(ev.cells)}
