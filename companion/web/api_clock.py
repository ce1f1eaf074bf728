"""GET /api/time: the server clock phones measure their offset against."""
from __future__ import annotations

from flask import Blueprint, jsonify

from ..services import services

bp = Blueprint("api_clock", __name__, url_prefix="/api")


@bp.get("/time")
def now():
    response = jsonify({"now_ms": services().clock()})
    response.headers["Cache-Control"] = "no-store"
    return response
