"""Shin Bikkuri Man's façade arithmetic (companion/games/shin_bikkuri_man/rules/facade.py)."""
import pytest

from companion.games.shin_bikkuri_man.rules import facade
from generator import canon


@pytest.fixture(scope="module")
def g():
    return canon.load("shin-bikkuri-man")


def test_tile_cost(g):
    assert facade.tile_cost(g, "red-5", touches_same_colour=False) == 5
    assert facade.tile_cost(g, "red-5", touches_same_colour=True) == 4
    construction = g.ability["construction-discount"].discount
    assert facade.tile_cost(g, "red-5", touches_same_colour=True, discount=construction) == 3
    assert facade.tile_cost(g, "red-2", touches_same_colour=True, discount=construction) == 0


def test_row_and_column_points(g):
    assert (facade.row_points(g, False), facade.row_points(g, True)) == (1, 2)
    assert (facade.column_points(g, False), facade.column_points(g, True)) == (2, 4)
    # A full board (9 rows, 5 columns, no all-window line) is worth far more than 12: the game ends first.
    assert 9 * facade.row_points(g, False) + 5 * facade.column_points(g, False) > g.end.points
