"""Tokyo Jutaku's Countdown mode: how long each floor may take. Pure functions of `data`
(generator.canon.load("jutaku"))."""
from __future__ import annotations

from generator.canon.jutaku import Jutaku


def seconds_for(data: Jutaku, floor: int) -> int:
    """Time for building floor `floor` (1 = the first floor); every floor past the list takes the
    further floors' time."""
    c = data.countdown
    if floor < 1:
        raise ValueError(f"floor {floor}: floors are counted from 1")
    if floor <= len(c.floor_seconds):
        return c.floor_seconds[floor - 1]
    return c.further_floor_seconds
