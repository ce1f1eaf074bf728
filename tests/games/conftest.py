"""What the games' tests share: the game of a test's folder (tests/games/<pkg>/), its `data` loaded once
per module and its `rules` (Jutaku's tests call them `g` and `R`); `client`, a fresh companion serving
every game on SQLite (the root conftest's `client` is the counter game over SQLite and PostgreSQL, for
the generic API)."""
from __future__ import annotations

import pytest

from companion.games import rules_class
from generator import canon


def game_of(request) -> str:
    """The id of the game whose folder holds the requesting test module."""
    pkg = request.path.parent.name
    return next(game for game, package in canon.GAMES.items() if package == pkg)


@pytest.fixture(scope="module")
def data(request):
    return canon.load(game_of(request))


@pytest.fixture(scope="module")
def rules(request, data):
    return rules_class(game_of(request))(data)


@pytest.fixture(scope="module")
def g(data):
    return data


@pytest.fixture(scope="module")
def R(rules):
    return rules


@pytest.fixture
def client(tmp_path):
    """A test client of a fresh companion (a fake clock, live streams that end after 0.2 s) acting as
    the host of every table it creates (companion.testing.token_client)."""
    from companion import create_app
    from companion.testing import FakeClock, token_client
    return token_client(create_app({"DATA_DIR": tmp_path, "CLOCK": FakeClock(), "SSE_MAX_S": 0.2}))
