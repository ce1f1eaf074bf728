"""Fixtures shared by the test files."""
import os
import shutil
from pathlib import Path

import pytest

from generator.canon.files import assets_root

pytest_plugins = ["leftovers"]

#: The test files that take longest, longest first (measured with `--durations`, a `make test` run
#: on 2 cores): `make test` runs them first, then every other file in the usual order, so that with
#: --dist loadfile no long file starts last on one worker while the other has finished. Files of
#: different kit builds alternate, so the two workers build different kits side by side.
SLOW_FIRST = (
    "test_print_shop.py",                        # the print-shop build (300 dpi PNGs of every face)
    "test_print_bleed.py",                       # the --bleed build
    "test_print_ink_saver.py",                   # the ink saver's build
    "games/shinjuku/test_rules_playouts.py",
    "games/shinjuku/test_board_fewer_taps.py",
    "test_print_fold.py",                        # the --duplex fold build
    "games/shinjuku/test_sheets.py",
    "test_print_fit.py",                         # the plain build (shared by the other print tests)
    "test_companion_hosted.py",
    "test_rules_contract.py",
    "test_print_duplex.py",                      # the --back-offset build
    "test_wheel.py",
    "games/jutaku/test_table_replay.py",
    "test_short_codes.py",
    "test_companion_phone_pages.py",
)


def pytest_configure(config):
    # pytest-xdist's --dist loadfile hands out files in collection order (as pytest_collection_
    # modifyitems leaves it) instead of the files with the most tests first
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(config, items):
    """SLOW_FIRST's files first, each file's tests kept together and in their own order."""
    here = Path(__file__).resolve().parent
    rank = {here / name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(Path(item.fspath), len(rank)))

#: The folder beside the repository with the rules texts (../shared); a bare clone has none.
SHARED = Path(__file__).resolve().parents[2] / "shared"


def shared_dir() -> Path:
    """../shared, or skip (the rest of) the test, saying why, when it is not beside the repository."""
    if not SHARED.is_dir():
        pytest.skip(f"../shared is not beside the repository ({SHARED} is missing): the rules texts "
                    "and reference documents live there")
    return SHARED


@pytest.fixture
def rules_text():
    """`rules_text("shinjuku.txt")`: a rules text of ../shared/rules/. Call it after a test's data
    checks: without ../shared it skips only what follows (the checks against the rules' sentences)."""
    def read(name: str) -> str:
        path = shared_dir() / "rules" / name
        if not path.is_file():
            pytest.skip(f"{path} is missing")
        return path.read_text(encoding="utf-8")
    return read


@pytest.fixture
def broken_data(tmp_path):
    """Copy one game's data into tmp_path and break one file: `make(game, file, old, new)` replaces
    `old` by `new` once (or each pair of two tuples, in order) and returns (root, edited path).
    Loading from its own root means nothing cached is reused."""
    def make(game: str, file: str, old, new):
        shutil.copytree(assets_root() / game, tmp_path / game)
        path = tmp_path / game / file
        text = path.read_text(encoding="utf-8")
        for o, n in zip(*((old, new) if isinstance(old, tuple) else ((old,), (new,)))):
            assert o in text, f"{o!r} not in {file}"
            text = text.replace(o, n, 1)
        path.write_text(text, encoding="utf-8")
        return tmp_path, path
    return make


@pytest.fixture
def refused_data(broken_data):
    """`refused_data(game, file, old, new, key, problem, where=None)`: a game's data with `file` broken
    (as broken_data does) is refused at load with one line naming the file (or `where`, the game's file
    the problem is reported in), the key and the problem; returns the DataError."""
    from generator import canon

    def check(game: str, file: str, old, new, key: str, problem: str, where: str | None = None):
        root, path = broken_data(game, file, old, new)
        with pytest.raises(canon.DataError) as info:
            canon.load(game, root=root)
        err = info.value
        path = root / game / where if where else path
        assert err.file == str(path), str(err)
        assert err.key == key, str(err)
        assert problem in err.problem, str(err)
        assert str(err).startswith(f"{path}: ") and key in str(err) and "\n" not in str(err)
        return err
    return check


# -- kits: every distinct build built once per test session (tests/print_kits.py) ------------------

@pytest.fixture(scope="session")
def kit_builds(tmp_path_factory):
    """`kit_builds(**BuildOptions)`: the folder of that build, built once for the whole run and
    shared by every test that measures it (read only). Under pytest-xdist the workers share one
    folder (their basetemps' parent, this run's own), so a kit is built once, not once a worker."""
    from print_kits import Builds
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = tmp_path_factory.getbasetemp().parent / "kits"
        root.mkdir(exist_ok=True)
    else:
        root = tmp_path_factory.mktemp("kits")
    return Builds(root)


# -- browsers: one Chromium per test module (tests/phones.py) -----------------------------------

@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, shared by the module's browser tests (a new context per test), or skip."""
    from phones import module_browser
    yield from module_browser()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """Every phone (browser context) a test opens on its module's `browser` is closed after the test,
    even when it fails: the module's tests share one companion, which holds at most 24 connections
    from one address (127.0.0.1 here), and phones left open kept theirs. (Phones a module's fixture
    opened before the test, for all its tests, stay open.)"""
    browser = item.funcargs.get("browser") if hasattr(item, "funcargs") else None
    before = set(browser.contexts) if browser is not None else set()
    yield
    if browser is not None:
        for context in browser.contexts:
            if context not in before:
                context.close()


# -- storage: SQLite (a data folder) or PostgreSQL (a throwaway cluster, tests/pg_cluster.py) --------

@pytest.fixture(scope="session")
def pg_cluster():
    """A PostgreSQL cluster for this test session, or skip saying why none can run here."""
    from pg_cluster import Cluster
    reason = Cluster.unavailable()
    if reason:
        pytest.skip(f"no PostgreSQL: {reason}")
    cluster = Cluster().start()
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_url(pg_cluster):
    """A fresh, empty PostgreSQL database (dropped after the test, its connections with it)."""
    url = pg_cluster.database()
    yield url
    pg_cluster.drop(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request, tmp_path):
    """The app config naming the storage, once per backend: {"DATA_DIR": tmp_path} or
    {"DATABASE_URL": a fresh database}. A test using it runs against both."""
    if request.param == "sqlite":
        return {"DATA_DIR": tmp_path}
    return {"DATABASE_URL": request.getfixturevalue("pg_url")}


# -- the JSON API with the tests' counter game (test_companion_api.py, test_companion_timers_api.py);
#    a module needing another app defines its own `app` / `client` -----------------------------------

@pytest.fixture
def clock():
    from companion.testing import FakeClock
    return FakeClock()


@pytest.fixture
def app(storage, clock):
    """The app over SQLite and over PostgreSQL (`storage`), with the counter game and a fake clock."""
    from companion import create_app
    from testgames import COUNTER
    return create_app({**storage, "EXTRA_GAMES": {"counter": COUNTER}, "CLOCK": clock,
                       "SSE_MAX_S": 0.2, "SNAPSHOT_EVERY": 5})


@pytest.fixture
def client(app):
    """A test client sending the table tokens it was given (companion.testing.token_client)."""
    from companion.testing import token_client
    return token_client(app)
