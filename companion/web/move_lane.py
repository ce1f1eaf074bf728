"""The busiest request without Flask's request machinery: POST /api/tables/<code>/moves.

Every tap of every phone is this request. Flask builds a request context for it, matches the URL map,
runs the before- and after-request hooks and builds a Response object: about a third of a move's CPU
(benchmarks/move_cost.py), on the one core a process's Python runs on. The lane is a WSGI layer in
front of the Flask app (create_app installs it): a plain move is read and played by the very function
the Flask view calls (api_tables.play_move) and answered with the same status, headers and bytes
(tests/test_move_lane.py compares the two, request by request).

A plain move: POST to exactly /api/tables/<code>/moves (the app at the server's root), sent as
application/json with a Content-Length within MAX_CONTENT_LENGTH, and with no Origin or one of the
companion's own (security.origin_allowed). Anything else goes to Flask untouched, and so does every
error the move meets (a 409, a refusal, a stale token, a store that is busy): it is answered by the
app's own error handlers and after-request hooks, in a request context made for it then.
"""
from __future__ import annotations

import re

from werkzeug.http import HTTP_STATUS_CODES

from .api_tables import play_move
from .security import HEADERS, origin_allowed_by

#: The move route's path; the code's own check (reading.table_code) comes after.
PATH = re.compile(r"/api/tables/([^/]+)/moves")
_SECURITY = list(HEADERS.items())


class MoveLane:
    def __init__(self, app, flask_wsgi):
        self.app = app
        self.flask_wsgi = flask_wsgi      # Flask's own wsgi_app, for everything else
        self.tables = app.extensions["tokyo"].tables
        self.limit = app.config.get("MAX_CONTENT_LENGTH")

    def __call__(self, environ, start_response):
        code = self._plain_move(environ)
        if code is None:
            return self.flask_wsgi(environ, start_response)
        length = int(environ["CONTENT_LENGTH"])
        try:
            status, response = play_move(
                self.tables, code, lambda: self._body(environ, length), environ["PATH_INFO"],
                environ.get("HTTP_AUTHORIZATION"), environ.get("HTTP_IDEMPOTENCY_KEY"))
        except Exception as exc:  # noqa: BLE001 - every error is the app's handlers' to answer
            return self._by_flask(environ, start_response, error=exc)
        text = getattr(response, "text", None)
        if text is None:              # (a replay of an answer stored without its text)
            return self._by_flask(environ, start_response, answer=(response, status))
        body = (text + "\n").encode()
        start_response(f"{status} {HTTP_STATUS_CODES[status]}",
                       [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                        *_SECURITY])
        return [body]

    def _plain_move(self, environ) -> str | None:
        """The URL's table code when the request is a plain move (above), else None."""
        if environ.get("REQUEST_METHOD") != "POST" or environ.get("SCRIPT_NAME"):
            return None
        match = PATH.fullmatch(environ.get("PATH_INFO", ""))
        if match is None or not match.group(1).isascii():
            return None
        content_type = environ.get("CONTENT_TYPE", "")
        if content_type != "application/json" and \
                content_type.partition(";")[0].strip().lower() != "application/json":
            return None
        length = environ.get("CONTENT_LENGTH", "")
        if not length.isascii() or not length.isdigit() or self.limit is not None \
                and int(length) > self.limit or environ.get("HTTP_TRANSFER_ENCODING"):
            return None
        origin = environ.get("HTTP_ORIGIN")
        if origin is not None and not origin_allowed_by(self.app.config, origin):
            return None
        return match.group(1)

    @staticmethod
    def _body(environ, length: int) -> dict:
        from .reading import json_object
        stream = environ["wsgi.input"]
        raw = stream.read(length) if length else b""
        return json_object(raw)

    def _by_flask(self, environ, start_response, *, error: Exception | None = None, answer=None):
        """The answer Flask gives when its view raises `error` (the app's error handler) or returns
        api_tables.answer(*answer), then its after-request hooks (the security headers)."""
        app = self.app
        with app.request_context(environ):
            if error is not None:
                rv = app.handle_user_exception(error)
            else:
                from .api_tables import answer as as_response
                rv = as_response(*answer)
            response = app.finalize_request(rv)
        return response(environ, start_response)
