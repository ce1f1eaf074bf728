"""layouts/shinjuku.toml goes through the one layout loader (generator.layouts.load_game_layout), so
TOKYO_KIT_LAYOUTS points the Shinjuku kit at another copy like it does the paper and sheet layouts,
and a mistake there is a DataError naming the file, the key and the problem."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.canon import DataError
from generator.kits.shinjuku import layout as shinjuku_layout
from generator.layouts import layouts_root, load_game_layout

ROOT = Path(__file__).resolve().parents[3]


def copy_with(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of layouts/ with one change in shinjuku.toml."""
    root = tmp_path / "layouts"
    shutil.copytree(layouts_root(), root)
    path = root / "shinjuku.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


def test_the_kit_reads_its_layout_through_the_one_loader():
    assert shinjuku_layout.load_layout() is load_game_layout("shinjuku", shinjuku_layout.Layout)


def test_tokyo_kit_layouts_changes_the_shinjuku_layout(tmp_path, monkeypatch):
    usual = shinjuku_layout.load_layout()
    root = copy_with(tmp_path, "station_radius = 6.5", "station_radius = 7.25")
    monkeypatch.setenv("TOKYO_KIT_LAYOUTS", str(root))
    changed = shinjuku_layout.load_layout()
    assert changed.board.station_radius == 7.25 and usual.board.station_radius == 6.5
    assert changed.card == usual.card            # the rest as it was
    monkeypatch.delenv("TOKYO_KIT_LAYOUTS")
    assert shinjuku_layout.load_layout() is usual


@pytest.mark.parametrize("old, new, key, problem", [
    ("station_radius = 6.5", 'station_radius = "big"', "board.station_radius", "expected a number"),
    ("station_radius = 6.5", "station_radius = 6.5\nstation_radious = 7", "board.station_radious",
     "unknown key"),
    ("station_name = { size = 11, min = 9,", "station_name = { size = 11, min = 12,", "board.station_name",
     "min (12.0) must be between 0 and size (11.0)"),
])
def test_a_broken_copy_names_file_key_and_problem(tmp_path, monkeypatch, old, new, key, problem):
    root = copy_with(tmp_path, old, new)
    monkeypatch.setenv("TOKYO_KIT_LAYOUTS", str(root))
    with pytest.raises(DataError) as info:
        shinjuku_layout.load_layout()
    err = info.value
    assert (err.file, err.key) == (str(root / "shinjuku.toml"), key)
    assert problem in err.problem and "\n" not in str(err)


def test_the_build_reports_a_broken_shinjuku_layout_in_one_line(tmp_path):
    root = copy_with(tmp_path, "station_radius = 6.5", 'station_radius = "big"')
    result = subprocess.run([sys.executable, "-m", "generator", "build", "--game", "shinjuku", "--paper", "a4",
                             "--format", "pdf", "--out", str(tmp_path / "out")], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, env={"TOKYO_KIT_LAYOUTS": str(root), "PATH": ""})
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert result.stderr.strip() == (f"error: {root / 'shinjuku.toml'}: board.station_radius: "
                                     "expected a number, got 'big'")
