"""Reading API requests strictly: anything malformed is a 400 naming what is wrong."""
from __future__ import annotations

import hashlib

import json
import math
import re
from decimal import Decimal
from typing import Any

from flask import request

from ..tables import codes
from ..errors import ApiError
from ..tables.service import fingerprint

KEY = re.compile(r"^[\x21-\x7e]{1,200}$")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
#: Deepest nesting of objects and arrays a body may have (moves and options need a handful).
MAX_DEPTH = 32
#: Integral numbers written with a fraction or exponent (3.0, 1e3) up to this size read as ints.
_EXACT = 2**53


class _Refused(ValueError):
    """A number the JSON parser read but the API refuses (its message is the 400's)."""


def _no_constants(name: str):
    raise _Refused(f"{name} is not a JSON number; numbers must be finite.")


def _number(text: str) -> float | int:
    """A JSON number with a fraction or exponent: never infinite (1e400 is refused, as NaN is), and
    an integral one (3.0, 1e3) is the integer it equals, as it is in JSON and JavaScript."""
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"The number {text[:20]} is too large; numbers must be finite.")
    if value.is_integer() and abs(value) <= _EXACT and Decimal(text) == value:
        return int(value)     # (Decimal: 1e-400 and 1.0000000000000001 are not whole numbers)
    return value


def _decoder() -> json.JSONDecoder:
    return json.JSONDecoder(parse_constant=_no_constants, parse_float=_number)


def body() -> dict:
    """The request body as a JSON object (413 above MAX_CONTENT_LENGTH, raised by Werkzeug).

    A body sent as anything but application/json is refused (415): a page of another site can post
    text/plain without asking, never application/json."""
    if request.mimetype != "application/json":
        raise ApiError(415, "Send the body as JSON, with the header Content-Type: application/json.")
    return json_object(request.get_data(cache=True))


def json_object(raw: bytes) -> dict:
    """A request body's bytes as a JSON object, or a 400 saying what is wrong.

    Everything accepted here can be stored and sent back as JSON: numbers are finite, text is
    valid Unicode (no lone surrogates such as "\\ud800"), nesting is at most MAX_DEPTH deep."""
    try:
        text = raw.decode(json.detect_encoding(raw), "surrogatepass")
        value = _DECODER.decode(text)   # as json.loads
    except _Refused as exc:
        raise ApiError(400, str(exc)) from None
    except (ValueError, RecursionError):
        raise ApiError(400, "The body is not valid JSON; send a JSON object.") from None
    if not isinstance(value, dict):
        raise ApiError(400, "The body must be a JSON object.")
    # A lone surrogate comes only from a surrogate in the text or a \\u escape, and an object or
    # array only from a "{" or "[": a text without either, and with fewer brackets than MAX_DEPTH,
    # passes the tree's check without walking it.
    if "\\u" in text or text.count("{") + text.count("[") >= MAX_DEPTH or _SURROGATE.search(text):
        _check_tree(value)
    return value


def _check_tree(value: Any) -> None:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ApiError(400, f"The body is nested too deeply (at most {MAX_DEPTH} levels).")
        if isinstance(item, dict):
            for key, sub in item.items():
                _check_text(key)
                stack.append((sub, depth + 1))
        elif isinstance(item, list):
            stack.extend((sub, depth + 1) for sub in item)
        elif isinstance(item, str):
            _check_text(item)


def _check_text(text: str) -> None:
    if _SURROGATE.search(text):
        raise ApiError(400, "The body holds text that is not valid Unicode (a lone surrogate "
                            "\\ud800-\\udfff); send UTF-8 text.")


def integer(obj: dict, name: str, *, required: bool = True, minimum: int = 0,
            maximum: int = 2**53) -> int | None:
    value = obj.get(name)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise ApiError(400, f"{name} must be a whole number from {minimum} to {maximum}.")
    return value


def obj(value: Any, name: str) -> dict:
    if not isinstance(value, dict):
        raise ApiError(400, f"{name} must be a JSON object.")
    return value


def idempotency_key() -> str | None:
    """The request's Idempotency-Key, scoped to the token that sends it (API.md: a key sent with
    another token is another key): another seat replaying a seat's key and body is not answered
    that seat's response (its private view) but decided as a request of its own."""
    headers = request.headers
    return scoped_key(headers.get("Idempotency-Key"), headers.get("Authorization"))


def scoped_key(key: str | None, authorization: str | None) -> str | None:
    """idempotency_key() of the two headers' values (None: the header is absent)."""
    if key is None:
        return None
    if not KEY.fullmatch(key):
        raise ApiError(400, "Idempotency-Key must be 1 to 200 visible ASCII characters.")
    if not authorization:
        return key
    return hashlib.sha256(authorization.encode()).hexdigest()[:24] + ":" + key


def request_fingerprint(value: Any) -> str:
    return fingerprint(request.method, request.path, value)


def table_code(text: str) -> str:
    code = codes.normalize(text)
    if code is None:
        shown = text if len(text) <= 40 else text[:40] + "…"
        raise ApiError(404, f"There is no table with the code {shown!r}; a code is 8 letters and "
                            "digits like ABCD-1234.")
    return code


def digits(raw: str | None, longest: int) -> int | None:
    """A query or header value of ASCII digits 0-9 (at most `longest` of them) as an int, else
    None. (str.isdigit alone also accepts "²" and "٣", which int() may refuse.)"""
    if raw is None or not raw.isascii() or not raw.isdigit() or len(raw) > longest:
        return None
    return int(raw)


#: One strict decoder for every body (json.loads with hooks would build a new one per request).
_DECODER = _decoder()
