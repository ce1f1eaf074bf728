"""What every answer carries and every write must prove, whatever the route.

- A write (not GET/HEAD/OPTIONS) whose `Origin` is not the companion's own (BASE_URL, ALLOWED_ORIGINS
  or loopback; never the Host header) is 403 (API.md): a page of another site must not act at a
  table, even if it guesses the code or rebinds its own name to this computer.
- Security headers on every answer: a Content-Security-Policy that allows only the companion's own
  scripts (no inline script, no other site), no framing, no MIME sniffing, no referrer to others.
- Absolute URLs (a table's `url`, the join QR code) are built from the configured BASE_URL, never
  from the request's Host header, which any client may set (`Host: evil.example`); redirects carry
  a path only.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, current_app, request, url_for

#: Scripts and styles only from the companion itself (styles may be inline attributes); images may
#: be data: URLs (icons drawn in CSS); nothing may frame a page; forms post only here.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def absolute(endpoint: str, **values) -> str:
    """The absolute URL of `endpoint` for phones: BASE_URL + path when configured (the command
    line always configures it), else the request's own host (tests, an app embedded elsewhere)."""
    base = current_app.config.get("BASE_URL")
    if base:
        return base.rstrip("/") + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)


LOOPBACK = ("localhost", "127.0.0.1", "::1", "[::1]")


def _origin(url: str) -> str:
    """scheme://host:port of a URL, lower case, the default port left out."""
    parts = urlsplit(url.strip())
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        return ""
    if port is None or (scheme, port) in (("http", 80), ("https", 443)):
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def origin_allowed(origin: str) -> bool:
    """Whether a write's Origin is one of the companion's own pages: the configured BASE_URL, an
    address in ALLOWED_ORIGINS (the LAN address beside the .local name), or this computer
    (loopback). Never the request's Host header: a DNS-rebinding page sends Host and Origin of its
    own name alike."""
    return origin_allowed_by(current_app.config, origin)


def origin_allowed_by(config, origin: str) -> bool:
    """origin_allowed() under the app configuration `config`."""
    if not origin or origin == "null":
        return False
    own = _origin(origin)
    host = (urlsplit(origin).hostname or "").lower()
    if host in LOOPBACK or host.startswith("127."):
        return True
    allowed = [config.get("BASE_URL") or "", *(config.get("ALLOWED_ORIGINS") or ())]
    return any(a and _origin(a) == own for a in allowed)


def refuse_foreign_origin():
    origin = request.headers.get("Origin")
    if origin is None or request.method in ("GET", "HEAD", "OPTIONS"):
        return None
    if not origin_allowed(origin):
        from .error_pages import answer
        return answer(403, "This request comes from a page of another site; the companion "
                           "accepts changes only from its own pages.")
    return None


_HEADER_LIST = list(HEADERS.items())
_HEADER_NAMES = frozenset(name.lower() for name in HEADERS)


def add_headers(response):
    headers = response.headers
    # (one pass over the answer's own headers; setdefault scans per name)
    present = _HEADER_NAMES.intersection([name.lower() for name in headers.keys()])
    headers.extend([(name, value) for name, value in _HEADER_LIST if name.lower() not in present]
                   if present else _HEADER_LIST)
    location = headers.get("Location")
    if location and "://" in location:
        # Werkzeug's own redirects (merged slashes, a missing trailing slash) name the request's
        # Host; a path alone sends the phone to the same place without trusting that header
        parts = urlsplit(location)
        headers["Location"] = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return response


def register(app: Flask) -> None:
    app.before_request(refuse_foreign_origin)
    app.after_request(add_headers)
