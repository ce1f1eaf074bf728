"""Join codes: 8 characters of Crockford base32 = 40 random bits, shown as ABCD-EFGH.

Typed codes are forgiving: case, spaces and dashes do not matter, and the letters people confuse
with digits (O, I, L) read as 0 and 1.
"""
from __future__ import annotations

import re
import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"   # 32 symbols: 5 bits each
LENGTH = 8                                     # 40 bits
_VALID = re.compile(f"^[{ALPHABET}]{{{LENGTH}}}$")
_CONFUSED = str.maketrans({"O": "0", "I": "1", "L": "1"})


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalize(text: str) -> str | None:
    """The canonical code for what someone typed or scanned, or None if it cannot be one."""
    if not isinstance(text, str) or len(text) > 40:
        return None
    code = re.sub(r"[\s\-_.]", "", text).upper().translate(_CONFUSED)
    return code if _VALID.match(code) else None


def display(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"
