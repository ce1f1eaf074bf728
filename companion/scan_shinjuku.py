"""Shinjuku's scan pages: a ward card shows its ward from the canonical data (and, with a joined
table, what is there now, from the engine's ward view); a customer token opens the scoring help."""
from __future__ import annotations

from .scan import generic, handler


def engine_ward_view(game, joined: dict, ward_id: str) -> dict | None:
    """The engine's view of one ward at the joined table, for this phone's player."""
    view = getattr(game.rules, "ward_view", None)
    if view is None:
        return None
    try:
        return view(game.data, ward_id, joined["state"], joined["me"])
    except Exception:  # noqa: BLE001 - a view is a help, never a reason to fail the page
        return None


@handler("shinjuku", "ward")
def ward_card(game, ward_id: str, joined: dict | None) -> dict | None:
    data = game.data
    ward = data.ward.get(ward_id) if data is not None else None
    if ward is None:
        return None
    stations = data.stations_in[ward.id]
    return {
        "ward": ward,
        "stations": stations,
        "neighbours": [data.ward[n] for n in ward.neighbours],
        "deck": data.deck.cards,
        "sakura_count": sum(1 for s in stations if s.sakura),
        "view": engine_ward_view(game, joined, ward.id) if joined else None,
        "token_names": token_names(data),
    }


def token_names(data) -> dict[str, str]:
    """Customer token id -> what players call it ("books-2" -> "Books “2”"), from the data."""
    return {c.id: c.label for c in data.components() if c.kind == "customer"}


@handler("shinjuku", "customer")
def customer(game, token_id: str, joined: dict | None) -> dict | None:
    context = generic(game, token_id, joined)
    if context is None:
        return None
    kind = token_id.removesuffix("-2")
    context["customer_type"] = game.data.customer_type.get(kind)
    context["double"] = token_id.endswith("-2")
    return context
