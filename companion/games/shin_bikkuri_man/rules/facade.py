"""Shin Bikkuri Man: building the façade. Pure functions of `data`
(generator.canon.load("shin-bikkuri-man")) and plain values."""
from __future__ import annotations

from generator.canon.shin_bikkuri_man import ShinBikkuriMan


def tile_cost(data: ShinBikkuriMan, tile_id: str, touches_same_colour: bool, discount: int = 0) -> int:
    """Cards to discard for a tile: one per square, less the same-colour and ability discounts."""
    t = data.tile[tile_id]
    cost = t.size * data.building.cards_per_square
    if touches_same_colour:
        cost -= data.building.same_colour_discount
    return max(0, cost - discount)


def row_points(data: ShinBikkuriMan, all_windows: bool) -> int:
    """Points for completing a horizontal row (more when every square of it is a window)."""
    return data.scoring.row_all_windows if all_windows else data.scoring.row


def column_points(data: ShinBikkuriMan, all_windows: bool) -> int:
    """Points for completing a vertical column (more when every square of it is a window)."""
    return data.scoring.column_all_windows if all_windows else data.scoring.column
