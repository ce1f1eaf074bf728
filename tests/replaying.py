"""The table-replay drivers (benchmarks/replay/) for the tests that keep each one working: a short table
played through the pages by `replayed(driver_module, tmp_path, players, mode, seed, turns, **options)`.
Importing this module skips the importing test module when Chromium is missing."""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

from phones import require_chromium

require_chromium()
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from replay import common  # noqa: E402


def driver(game: str):
    """The replay driver module of `game` (its package name): benchmarks/replay/<game>.py."""
    return importlib.import_module(f"replay.{game}")


def replayed(module, tmp_path, players: int, mode: str, seed: int, turns: int, **options) -> common.Replayed:
    return common.replayed(module.Game, str(tmp_path), players, mode, seed, turns, **options)
