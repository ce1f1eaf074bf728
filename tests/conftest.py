"""Fixtures shared by the test files."""
import shutil
from pathlib import Path

import pytest

from generator.canon.files import assets_root

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
