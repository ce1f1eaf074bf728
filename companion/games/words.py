"""Words for the pages and the rules' reasons, shared by every game (pure: no Flask, no I/O)."""
from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """A count with its noun, singular for one: count(1, "card") == "1 card",
    count(2, "card") == "2 cards", count(3, "coat of arms", "coats of arms")."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
