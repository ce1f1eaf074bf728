"""The busiest requests without Flask's request machinery: a move, a read of a table, its legal moves.

Every tap of every phone is a POST /api/tables/<code>/moves, and a page (re)loading or a phone without
its live stream reads GET /api/tables/<code> (a board may ask GET …/legal too). Flask builds a request
context for each, matches the URL map, runs the before- and after-request hooks and builds a Response
object: about a third of a move's CPU (benchmarks/move_cost.py), on the one core a process's Python
runs on. The lane is a WSGI layer in front of the Flask app (create_app installs it): a plain request
of the three is read and answered by the very functions the Flask views call (api_tables.play_move,
read_table, read_legal), with the same status, headers and bytes (tests/test_lane.py compares the
two, request by request).

Plain: the app at the server's root, the path exactly the route's; for a move, sent as application/json
with a Content-Length within MAX_CONTENT_LENGTH, and with no Origin or one of the companion's own
(security.origin_allowed); for a read, a GET (a HEAD goes to Flask), of …/legal with no query or
`?player=` and digits. Anything else goes to Flask untouched, and so does every error the request
meets (a 409, a refusal, a stale token, a store that is busy): it is answered by the app's own error
handlers and after-request hooks, in a request context made for it then.
"""
from __future__ import annotations

import re

from werkzeug.http import HTTP_STATUS_CODES

from .api_tables import answer, play_move, preference_applied, read_legal, read_table, wants_minimal
from .reading import json_object
from .security import HEADERS, origin_allowed_by

#: The three routes' paths; the code's own check (reading.table_code) comes after.
MOVES = re.compile(r"/api/tables/([^/]+)/moves")
TABLE = re.compile(r"/api/tables/([^/]+)")
LEGAL = re.compile(r"/api/tables/([^/]+)/legal")
#: The query strings of …/legal the lane reads itself (Flask reads any other).
PLAYER = re.compile(r"(?:player=([0-9]{1,2}))?")
_SECURITY = list(HEADERS.items())


class Lane:
    def __init__(self, app, flask_wsgi):
        self.app = app
        self.flask_wsgi = flask_wsgi      # Flask's own wsgi_app, for everything else
        self.tables = app.extensions["tokyo"].tables
        self.limit = app.config.get("MAX_CONTENT_LENGTH")

    def __call__(self, environ, start_response):
        method = environ.get("REQUEST_METHOD")
        if environ.get("SCRIPT_NAME") or method not in ("GET", "POST"):
            return self.flask_wsgi(environ, start_response)
        path = environ.get("PATH_INFO", "")
        if method == "GET":
            return self._read(environ, path, start_response)
        code = self._plain_move(environ, path)
        if code is None:
            return self.flask_wsgi(environ, start_response)
        length = int(environ["CONTENT_LENGTH"])
        minimal = wants_minimal(environ.get("HTTP_PREFER"))
        try:
            status, response = play_move(
                self.tables, code, lambda: self._body(environ, length), path,
                environ.get("HTTP_AUTHORIZATION"), environ.get("HTTP_IDEMPOTENCY_KEY"), minimal)
        except Exception as exc:  # noqa: BLE001 - every error is the app's handlers' to answer
            return self._by_flask(environ, start_response, error=exc)
        applied = preference_applied(minimal, status)
        text = getattr(response, "text", None)
        if text is None:              # (a replay of an answer stored without its text)
            return self._by_flask(environ, start_response, answered=(response, status, applied))
        return self._json(status, text, start_response, applied)

    def _read(self, environ, path: str, start_response):
        auth = environ.get("HTTP_AUTHORIZATION")
        match = TABLE.fullmatch(path)
        if match is not None and match.group(1).isascii():
            read = lambda: read_table(self.tables, match.group(1), auth)   # noqa: E731
        else:
            match = LEGAL.fullmatch(path)
            query = PLAYER.fullmatch(environ.get("QUERY_STRING", ""))
            if match is None or not match.group(1).isascii() or query is None:
                return self.flask_wsgi(environ, start_response)
            read = lambda: read_legal(self.tables, match.group(1), auth, query.group(1))   # noqa: E731
        try:
            text = read()
        except Exception as exc:  # noqa: BLE001 - every error is the app's handlers' to answer
            return self._by_flask(environ, start_response, error=exc)
        return self._json(200, text, start_response)

    @staticmethod
    def _json(status: int, text: str, start_response, headers: dict | None = None):
        """As api_tables.answer's and _json's Response, with security.add_headers' headers."""
        body = (text + "\n").encode()
        start_response(f"{status} {HTTP_STATUS_CODES[status]}",
                       [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                        *(headers.items() if headers else ()), *_SECURITY])
        return [body]

    def _plain_move(self, environ, path: str) -> str | None:
        """The URL's table code when the request is a plain move (above), else None."""
        match = MOVES.fullmatch(path)
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
        stream = environ["wsgi.input"]
        raw = stream.read(length) if length else b""
        return json_object(raw)

    def _by_flask(self, environ, start_response, *, error: Exception | None = None, answered=None):
        """The answer Flask gives when its view raises `error` (the app's error handler) or returns
        api_tables.answer(*answered), then its after-request hooks (the security headers)."""
        app = self.app
        with app.request_context(environ):
            if error is not None:
                rv = app.handle_user_exception(error)
            else:
                rv = answer(*answered)
            response = app.finalize_request(rv)
        return response(environ, start_response)
