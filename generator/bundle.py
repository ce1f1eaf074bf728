"""Where the files shipped with the code are: the checkout's top-level `assets/` and `layouts/`, or,
in an installed wheel, the copies packaged as `generator/_data/<name>/` (setup.py maps them there).

This module imports nothing of the project, so every loader can use it without an import cycle.
"""
from __future__ import annotations

import importlib.resources
from pathlib import Path

#: The repository a checkout runs from (pyproject.toml beside generator/); in an installed wheel
#: this is site-packages, which has no pyproject.toml.
CHECKOUT = Path(__file__).resolve().parents[1]


def bundled(name: str) -> Path:
    """The folder `name` ("assets", "layouts"): the checkout's, else the installed package's."""
    here = CHECKOUT / name
    if (CHECKOUT / "pyproject.toml").is_file() and here.is_dir():
        return here
    return Path(str(importlib.resources.files(__package__) / "_data" / name))
