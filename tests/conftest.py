"""Fixtures shared by the test files."""
import shutil

import pytest

from generator.canon.files import assets_root


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
