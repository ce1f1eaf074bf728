"""The objects one app shares between requests, kept in app.extensions["tokyo"]."""
from __future__ import annotations

import dataclasses
from typing import Callable

from flask import current_app

from .catalog import Game
from .tables.expiry import Expiry
from .live.sse import Hub
from .store.sqlite import Store
from .tables.service import Tables


@dataclasses.dataclass
class Services:
    store: Store
    tables: Tables
    hub: Hub
    games: dict[str, Game]
    clock: Callable[[], int]
    expiry: Expiry


def services() -> Services:
    return current_app.extensions["tokyo"]
