"""Tokyo Jutaku's Countdown clock (companion/games/jutaku/rules/countdown.py)."""
import pytest

from companion.games.jutaku.rules import countdown
from generator import canon


def test_each_floor_has_its_time_and_later_floors_the_last():
    g = canon.load("jutaku")
    assert [countdown.seconds_for(g, n) for n in range(1, 7)] == [60, 45, 30, 15, 15, 15]
    with pytest.raises(ValueError):
        countdown.seconds_for(g, 0)
