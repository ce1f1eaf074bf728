"""The simultaneous-moves benchmark (benchmarks/simultaneous_bench.py, issue 20 point 1) still runs:
its core on a tiny configuration (one phase, 2 phones, 1 round, SQLite, the real server started as
a subprocess) prints its figures, and the figures add up: every phone's send is counted once, and
every accepted move reached every phone's live stream. No wall-clock assertions (the delays are only
required to be measured). About 10 s."""
from __future__ import annotations

import importlib.util
import io
import json
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("companion.games.capsule_hotel")

_path = Path(__file__).resolve().parents[1] / "benchmarks" / "simultaneous_bench.py"
_spec = importlib.util.spec_from_file_location("simultaneous_bench", _path)
bench = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("simultaneous_bench", bench)      # its dataclasses look their module up
_spec.loader.exec_module(bench)

TINY = ["--phases", "capsule-loans", "--phones", "2", "--rounds", "1", "--only", "sqlite"]


def test_the_sweep_keeps_to_the_seats_each_game_allows():
    """2, 4, 5, 8 phones "where the game allows that many players": Capsule Hotel seats 2-5, the
    Jutaku main game 1-8, a Shinjuku track bonus is answered by the other 1-3 players (its largest
    N is measured when a wanted N is over it)."""
    sweep = [2, 4, 5, 8]
    assert bench.phone_counts(bench.BY_KEY["capsule-loans"], sweep) == [2, 4, 5]
    assert bench.phone_counts(bench.BY_KEY["jutaku-stop"], sweep) == [2, 4, 5, 8]
    assert bench.phone_counts(bench.BY_KEY["shinjuku-bonus"], sweep) == [2, 3]
    assert bench.phone_counts(bench.BY_KEY["izakaya-bids"], [2]) == [2]


def test_every_phase_of_the_rules_acting_at_once_is_listed():
    """The phases named by issue 20 are all measured by default."""
    out = io.StringIO()
    assert bench.main(["--list"], out=out) == 0
    listed = out.getvalue()
    for key in ("capsule-loans", "capsule-queue", "jutaku-start", "jutaku-stop", "countdown-pieces",
                "izakaya-bids", "shinjuku-bonus"):
        assert re.search(rf"^{key} .*N \d-\d: ", listed, re.M), key
    assert "(not by default)" not in next(line for line in listed.splitlines() if line.startswith("izakaya"))


def test_a_tiny_run_prints_its_table():
    out = io.StringIO()
    assert bench.main(TINY, out=out) == 0
    text = out.getvalue()
    assert "imports " + str(bench.REPO / "companion" / "__init__.py") in text    # the server's own code
    row = next(line for line in text.splitlines() if line.startswith("Capsule Hotel round-1 loans"))
    n, sends, ok, c409, c422, never, tries_max, mean, p50, p99, worst = row[42:].split()
    assert (n, sends, never) == ("2", "2", "0")
    assert int(ok) + int(c409) + int(c422) == 2 and int(ok) >= 1
    assert 1 <= int(tries_max) <= bench.MAX_TRIES
    for figure in (p50, p99, worst):
        assert float(figure) >= 0                    # measured (nan would be no delivery measured)
    assert "user-visible conflicts" in text and "tap-to-every-phone delay: worst p99" in text
    assert "never reached every phone" not in text and "rounds skipped" not in text


def test_a_tiny_run_as_json_adds_up():
    out = io.StringIO()
    assert bench.main(TINY + ["--json"], out=out) == 0
    result = json.loads(out.getvalue())
    (run,) = result["runs"]
    (row,) = run["rows"]
    assert row["phase"] == "capsule-loans" and row["phones"] == 2 and row["rounds"] == 1
    assert row["skipped_rounds"] == []
    assert row["sends"] == 2 == row["accepted"] + len(row["not_accepted"])
    assert row["first_ok"] + row["first_409"] + row["first_422"] + row["first_other"] == 2
    assert row["accepted"] == 2, row["not_accepted"]          # both loans are legal in either order
    assert row["delay_ms"]["n"] == 2 and row["never_arrived"] == 0   # every phone had both events
    assert row["delay_ms"]["p50"] <= row["delay_ms"]["p99"] <= row["delay_ms"]["max"]
