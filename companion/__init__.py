"""The Tokyo table kit companion: a Flask app phones open at the table.

`create_app(config)` (companion/app.py) builds it; `python -m companion` serves it with waitress.
This package's own import loads nothing else, so that `companion.games.<game>.rules` imports
without Flask or the store.
"""
from __future__ import annotations


def create_app(config: dict | None = None):
    from .app import create_app as _create_app
    return _create_app(config)
