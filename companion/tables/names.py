"""Player names that cannot be mistaken for one another at the table.

Two names are look-alikes when their skeletons are equal: NFKC, case folded, accents and other
combining marks dropped, joiners removed, and the Cyrillic and Greek letters drawn like Latin ones
(the confusables a phone's font shows identically: "Аki" with a Cyrillic А beside "Aki") read as
those Latin letters. A short table of its own, after Unicode's confusables (UTS #39) for the letters
of these scripts, rather than a dependency: names are short and the scripts few.
"""
from __future__ import annotations

import unicodedata

#: Cyrillic and Greek letters that look like Latin ones (case folded already), as Latin.
_LOOKALIKE = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "һ": "h",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "ѵ": "v", "ү": "y", "ӏ": "l",
    # Greek
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "n", "ι": "i", "κ": "k", "μ": "m", "ν": "v",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ϲ": "c", "ϳ": "j",
    # digits and marks drawn like letters
    "0": "o", "1": "l", "|": "l",
})


def skeleton(name: str) -> str:
    """What a name looks like on a phone, for telling look-alikes apart."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Mn", "Me", "Cf"))
    return " ".join(text.translate(_LOOKALIKE).split())
