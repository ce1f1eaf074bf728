"""Calculators that need no table: POST /api/shinjuku/score (API.md).

The scoring itself is the engine's `best_sets(customers, wild)`; this view only checks the request
against the game's canonical data (which customer types exist, how many of each the game has).
"""
from __future__ import annotations

import importlib

from flask import Blueprint, jsonify

from . import jsonapi
from .errors import ApiError
from .services import services

bp = Blueprint("api_calculators", __name__, url_prefix="/api")


def shinjuku_limits(data) -> tuple[dict[str, int], int]:
    """Most customers of each type one player can hold ("2" tokens count twice), most wild tokens."""
    most = {t.id: t.single + 2 * t.double for t in data.customers.type}
    return most, data.upgrade_bonus.count


def shinjuku_best_sets(customers: dict[str, int], wild: int) -> dict:
    engine = importlib.import_module("companion.games.shinjuku")
    result = engine.best_sets(customers, wild)
    if isinstance(result, dict):
        return {"points": result["points"], "sets": [list(s) for s in result["sets"]]}
    points, sets = result
    return {"points": points, "sets": [list(s) for s in sets]}


@bp.post("/shinjuku/score")
def shinjuku_score():
    game = services().games.get("shinjuku")
    if game is None or game.data is None or not game.playable:
        raise ApiError(404, "The Shinjuku scoring calculator is not available in this companion.")
    body = jsonapi.body()
    customers = jsonapi.obj(body.get("customers"), "customers")
    most, most_wild = shinjuku_limits(game.data)
    unknown = sorted(set(customers) - set(most))
    if unknown:
        raise ApiError(400, f"{unknown[0]!r} is not a customer type; use {', '.join(most)}.")
    counts = {}
    for kind in most:
        counts[kind] = jsonapi.integer(customers, kind, required=False, maximum=10_000) or 0
    wild = jsonapi.integer(body, "wild", required=False, maximum=10_000) or 0
    reasons = [f"{n} {kind} customers is more than the game has ({most[kind]}, counting each "
               "“2” token as two)" for kind, n in counts.items() if n > most[kind]]
    if wild > most_wild:
        reasons.append(f"{wild} upgrade bonus tokens is more than the game has ({most_wild})")
    if reasons:
        raise ApiError(422, "These counts are not possible in Shinjuku.", reasons)
    return jsonify(shinjuku_best_sets(counts, wild))
