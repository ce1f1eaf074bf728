"""Every error answer: JSON under /api (API.md), a friendly HTML page elsewhere. Never a bare 500.

The errors themselves (`ApiError`, the sentence per status) are companion/errors.py's."""
from __future__ import annotations

import logging
import re
import sqlite3

from flask import Flask, jsonify, make_response, render_template, request
from werkzeug.exceptions import HTTPException

from ..errors import MESSAGES, ApiError

log = logging.getLogger(__name__)

#: sqlite3.OperationalError messages that say "not now" rather than "bug".
_TRANSIENT = re.compile(r"locked|busy|disk|full|unable to open|could not commit", re.I)
#: ... and those that say "what is stored is damaged" (a page holding bytes that are not text).
_DAMAGED = re.compile(r"decode|malformed|corrupt|not a database", re.I)


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.path == "/api"


def answer(status: int, error: str, body: dict | None = None, headers=None):
    if wants_json():
        response = jsonify(body or {"error": error})
        response.status_code = status
    else:
        response = make_response(render_template("error.html", status=status, message=error), status)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def register(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(exc: ApiError):
        return answer(exc.status, exc.error, exc.body())

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        status = exc.code or 500
        message = MESSAGES.get(status) or exc.description or "The request could not be handled."
        headers = {}
        if status == 405 and exc.valid_methods:
            headers["Allow"] = ", ".join(exc.valid_methods)
        return answer(status, message, headers=headers)

    @app.errorhandler(sqlite3.OperationalError)
    def storage(exc: sqlite3.OperationalError):
        """The database is locked past the busy timeout, or its disk failed or is full (store.py's
        CommitFailed included): nothing was written, so the request may simply be retried."""
        if _DAMAGED.search(str(exc)):
            return damaged(exc)
        if not _TRANSIENT.search(str(exc)):
            return unexpected(exc)
        log.warning("storage unavailable on %s %s: %s", request.method, request.path, exc)
        return answer(503, MESSAGES[503], headers={"Retry-After": "1"})

    @app.errorhandler(sqlite3.DatabaseError)
    def damaged(exc: sqlite3.DatabaseError):
        """Pages of the database are damaged (not a passing lock): what touches them cannot be
        read, the rest of the companion works. Nothing was written."""
        log.error("damaged storage on %s %s: %s", request.method, request.path, exc)
        return answer(503, "This table's data is damaged on the companion's disk; other tables "
                           "still work. The person running the companion can save what is "
                           "readable with: python -m companion export --data <folder>.",
                      headers={"Retry-After": "60"})

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        return answer(500, MESSAGES[500])
