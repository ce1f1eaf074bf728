"""The companion's layers, as its folders show them, and generic code that names no game.

    companion/store/    the event store (SQLite, PostgreSQL), migrate, export, the data folder
    companion/tables/   tables, seats, timers, the chess clock, expiry, join codes, the set-up walk
    companion/live/     Server-Sent Events, the live streams, the PostgreSQL fan-out
    companion/web/      the pages, /q scans, kits, the JSON API, errors, security headers, OpenAPI
    companion/serve/    the server, the LAN name, the command line
    companion/games/    each game: rules (below the contract) and its web part

Imports run one way, web -> tables -> store: a layer never imports one above it (a lazy import
inside a function counts too), and a game's rules import no layer at all. Generic code (everything
outside a game's own folders and the one game registry, generator/canon/__init__.py) names no game,
in its code, docstrings and comments alike: a game's id, package name or name is a sign that
something generic knows about one game.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator import canon
from test_imports import imports, modules

ROOT = Path(__file__).resolve().parents[1]

#: layer -> the companion layers it must not import (what lies above it, and the app that wires them)
ABOVE = {
    "store": {"tables", "live", "web", "serve", "app", "services", "catalog", "games"},
    "tables": {"live", "web", "serve", "app", "services"},
    "live": {"web", "serve", "app", "services"},
    "web": {"serve", "app"},
}


def layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "companion" and len(parts) > 1 else None


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items() if name.startswith("companion.")}


def test_the_layers_are_folders():
    for name in (*ABOVE, "serve", "games"):
        assert (ROOT / "companion" / name / "__init__.py").is_file(), name
    roots = sorted(p.name for p in (ROOT / "companion").glob("*.py"))
    assert roots == ["__init__.py", "__main__.py", "app.py", "catalog.py", "config.py", "errors.py",
                     "services.py", "testing.py"]


@pytest.mark.parametrize("lower", sorted(ABOVE))
def test_a_layer_imports_no_layer_above_it(graph, lower):
    bad = sorted(f"{name} -> {target}" for name, targets in graph.items() if layer(name) == lower
                 for target in targets if layer(target) in ABOVE[lower])
    assert not bad, "imports against the layers:\n" + "\n".join(bad)


def test_the_rules_of_a_game_import_no_layer(graph):
    bad = sorted(f"{name} -> {target}" for name, targets in graph.items() if ".rules" in name
                 and name.startswith("companion.games.") for target in targets
                 if target.startswith("companion.") and not target.startswith("companion.games"))
    assert not bad, "a game's rules import the companion's layers:\n" + "\n".join(bad)


def test_the_check_sees_an_import_against_the_layers(graph):
    """The test above reads real edges: the tables import the store, the web imports the tables."""
    assert "companion.store.sqlite" in graph["companion.tables.service"]
    assert any(layer(t) == "tables" for t in graph["companion.web.api_tables"])


def game_words() -> re.Pattern:
    words = set()
    for game_id, pkg in canon.GAMES.items():
        words |= {game_id, pkg, game_id.replace("-", " "), max(game_id.split("-"), key=len)}
    return re.compile(r"\b(" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + r")\b", re.I)


def generic_files() -> list[Path]:
    own = [f"companion/games/{pkg}/" for pkg in canon.GAMES.values()] + \
          [f"generator/kits/{pkg}/" for pkg in canon.GAMES.values()] + \
          [f"generator/canon/{pkg}.py" for pkg in canon.GAMES.values()] + ["generator/canon/__init__.py"]
    out = []
    for top in ("companion", "generator"):
        for path in sorted((ROOT / top).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.is_file() and path.suffix in (".py", ".html", ".js", ".css") and \
                    "__pycache__" not in rel and not any(rel.startswith(o) for o in own):
                out.append(path)
    return out


def test_generic_code_names_no_game():
    words = game_words()
    files = generic_files()
    assert any(p.as_posix().endswith("companion/web/pages.py") for p in files)   # the scan reads them
    found = [f"{p.relative_to(ROOT)}:{i}: {m.group(0)}" for p in files
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             for m in [words.search(line)] if m]
    assert not found, "generic code that names a game:\n" + "\n".join(found)


def test_the_game_words_catch_a_game_named_in_a_docstring():
    words = game_words()
    assert words.search('"""e.g. shinjuku-cards-letter"""')
    assert words.search("the Capsule Hotel ledger") and words.search("companion/games/shin_bikkuri_man")
    assert not words.search("capsules, banknotes and stores")
