"""Reading API requests strictly: anything malformed is a 400 naming what is wrong."""
from __future__ import annotations

import json
import re
from typing import Any

from flask import request

from . import codes
from .errors import ApiError
from .tables import fingerprint

_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")


def _no_constants(name: str):
    raise ValueError(f"{name} is not a JSON number")


def body() -> dict:
    """The request body as a JSON object (413 above MAX_CONTENT_LENGTH, raised by Werkzeug)."""
    raw = request.get_data(cache=True)
    try:
        value = json.loads(raw, parse_constant=_no_constants)
    except (ValueError, RecursionError):
        raise ApiError(400, "The body is not valid JSON; send a JSON object.") from None
    if not isinstance(value, dict):
        raise ApiError(400, "The body must be a JSON object.")
    return value


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
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not _KEY.match(key):
        raise ApiError(400, "Idempotency-Key must be 1 to 200 visible ASCII characters.")
    return key


def request_fingerprint(value: Any) -> str:
    return fingerprint(request.method, request.path, value)


def table_code(text: str) -> str:
    code = codes.normalize(text)
    if code is None:
        raise ApiError(404, f"There is no table with the code {text!r}; a code is 8 letters and "
                            "digits like ABCD-1234.")
    return code
