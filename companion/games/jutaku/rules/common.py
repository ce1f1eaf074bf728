"""Small helpers shared by the three Jutaku engines (main.py, countdown.py, izakaya.py). Pure."""
from __future__ import annotations

from typing import Any


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def key(pos) -> str:
    """A map or grid square [column, row] as a JSON object key: "c,r"."""
    return f"{pos[0]},{pos[1]}"


def unkey(k: str) -> tuple[int, int]:
    c, r = k.split(",")
    return int(c), int(r)


def as_pos(value: Any, cols: int, rows: int) -> tuple[int, int] | None:
    """`value` as a square [column, row] of a cols x rows grid, or None."""
    if (isinstance(value, (list, tuple)) and len(value) == 2 and all(is_int(v) for v in value)
            and 0 <= value[0] < cols and 0 <= value[1] < rows):
        return int(value[0]), int(value[1])
    return None


def player_of(state: dict, move: dict) -> int | None:
    p = move.get("player")
    if is_int(p) and 0 <= p < len(state["players"]):
        return p
    return None


def name(state: dict, p: int) -> str:
    return state["players"][p]["name"]


def yen(n: int) -> str:
    return f"¥{n:,}"
