"""Sapporo 1876: what paying at an action spot is worth, and what a pioneering column yields at
harvest. Pure functions of `data` (generator.canon.load("sapporo-1876")) and plain numbers."""
from __future__ import annotations

from generator.canon.sapporo_1876 import YEN, Sapporo


def ap(data: Sapporo, spot: str, payment: dict[str, int]) -> int:
    """AP of a payment at an action spot: its two resources at their values, yen at face value."""
    values = data.action_spot[spot].ap
    total = 0
    for what, n in payment.items():
        if what == YEN:
            total += n * data.action_points.yen
        elif what in values:
            total += n * values[what]
        else:
            raise ValueError(f"{what!r} cannot be paid at {spot!r}")
    return total


def harvest_gain(data: Sapporo, column: str, space: int) -> dict[str, int]:
    """What a worker on `space` (bottom = 1) of a pioneering column yields: that space and all below."""
    gain: dict[str, int] = {}
    for s in data.pioneer_column[column].spaces[:space]:
        for what, n in s.gain.items():
            gain[what] = gain.get(what, 0) + n
    return gain
