"""The answer a request gets when it does not succeed: `ApiError` (a status, one sentence, reasons) and
the sentence for each HTTP status (API.md). Pure: every layer raises it (the tables when a move is
refused, the web when a request is malformed); companion/web/error_pages.py turns it into JSON or a page."""
from __future__ import annotations

#: What a person can do about each HTTP error (one sentence each, API.md).
MESSAGES = {
    400: "The request is malformed: send a JSON object as the API describes.",
    404: "There is nothing at this address.",
    405: "This address does not accept that method.",
    413: "The request body is too large (at most 64 KB).",
    415: "Send the body as JSON.",
    500: "Something went wrong on the server; the request changed nothing. Try again.",
    503: "The server is busy; the request changed nothing. Try again in a moment.",
}


class ApiError(Exception):
    """An answer other than success: status, one sentence, optional reasons and extra fields."""

    def __init__(self, status: int, error: str, reasons: list[str] | None = None, **extra):
        super().__init__(error)
        self.status = status
        self.error = error
        self.reasons = reasons
        self.extra = extra

    def body(self) -> dict:
        out = {"error": self.error}
        if self.reasons is not None or self.status == 422:
            out["reasons"] = list(self.reasons or [])
        out.update(self.extra)
        return out

