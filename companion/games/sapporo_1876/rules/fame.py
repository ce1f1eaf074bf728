"""Sapporo 1876: fame points at a settlement and in the final scoring. Pure functions of `data`
(generator.canon.load("sapporo-1876")) and what the engine counted."""
from __future__ import annotations

from generator.canon.sapporo_1876 import PersonScoring, Sapporo


def settle_column(data: Sapporo, column: str, a: list[int], b: list[int]) -> tuple[int, int]:
    """Settlement fame of one council column for two players, given the spaces (bottom = 1) their
    workers hold there: more workers take the higher fame (on a tie, the higher space)."""
    col = data.council_column[column]
    if not a or not b:
        return (col.higher if a else 0, col.higher if b else 0)
    a_wins = (len(a), max(a)) > (len(b), max(b))
    return (col.higher, col.lower) if a_wins else (col.lower, col.higher)


def academy_fame(data: Sapporo, completed_tiers: int) -> int:
    """End-game fame of the private academy with its lowest `completed_tiers` tiers educated."""
    return sum(t.final_fame for t in data.academy.tier[:completed_tiers])


def pioneering_fame(data: Sapporo, column: str, space: int) -> int:
    """End-game fame of a pioneering column whose worker is on `space` (bottom = 1)."""
    top = len(data.pioneer_column[column].spaces)
    p = data.pioneering
    return p.top_fame if space == top else p.second_from_top_fame if space == top - 1 else 0


def council_fame(data: Sapporo, workers: dict[str, int]) -> int:
    """End-game fame of a player's city council workers, given per column."""
    return sum(data.council_column[c].final_per_worker * n for c, n in workers.items())


def leftover_fame(data: Sapporo, items: int) -> int:
    """End-game fame of leftover banknotes and resources."""
    return items // data.final_scoring.leftover_items_per_fame


def person_fame(rule: PersonScoring, count: int) -> int:
    """An influential person's end-game fame for what its rule counted (the engine counts)."""
    if rule.at_least:
        return rule.points if count >= rule.at_least else 0
    return rule.points * (count // rule.per)
