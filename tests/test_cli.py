"""The command line: options narrow the build, errors are one line and a non-zero exit, and `data`
lists every game's components."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator import canon
from generator.build import games_with_kits

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, **(env or {})}, timeout=300)


def one_line_error(result: subprocess.CompletedProcess) -> str:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


@pytest.fixture(scope="module")
def broken_assets(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("assets")
    shutil.copytree(ROOT / "assets", root, dirs_exist_ok=True)
    wards = root / "shinjuku" / "wards.toml"
    wards.write_text(wards.read_text(encoding="utf-8").replace("cards = 3", 'cards = "three"', 1),
                     encoding="utf-8")
    return root


def test_shinjuku_is_a_game_with_a_kit():
    assert "shinjuku" in games_with_kits()


def test_unknown_game_is_one_line(tmp_path):
    line = one_line_error(run("build", "--game", "kyoto", "--out", str(tmp_path)))
    assert "kyoto" in line and "shinjuku" in line
    assert not (tmp_path / "manifest.json").exists()


def test_unknown_paper_is_one_line(tmp_path):
    line = one_line_error(run("build", "--paper", "a5", "--out", str(tmp_path)))
    assert "a5" in line


def test_broken_data_is_one_line_naming_the_file(tmp_path, broken_assets):
    result = run("build", "--game", "shinjuku", "--out", str(tmp_path),
                 env={"TOKYO_KIT_ASSETS": str(broken_assets)})
    line = one_line_error(result)
    assert "wards.toml" in line and "cards" in line


def test_unwritable_output_folder_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    line = one_line_error(run("build", "--game", "shinjuku", "--paper", "a4", "--format", "pdf",
                              "--out", str(blocker / "out")))
    assert str(blocker) in line


def test_build_narrowed_to_one_paper_and_format_with_a_companion_url(tmp_path):
    result = run("build", "--game", "shinjuku", "--paper", "a4", "--format", "svg",
                 "--companion-url", "http://192.168.0.7:8000/", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["files"]
    assert {(f["paper"], f["format"], f["game"]) for f in manifest["files"]} == {("a4", "svg", "shinjuku")}
    assert all(f["pages"] == 1 and (tmp_path / f["path"]).is_file() for f in manifest["files"])
    assert not (tmp_path / "letter").exists()
    assert manifest["qr"] and all(q["payload"].startswith("http://192.168.0.7:8000/q/shinjuku/")
                                  for q in manifest["qr"])
    for q in manifest["qr"]:
        assert q["payload"] == f"http://192.168.0.7:8000/q/{q['game']}/{q['kind']}/{q['id']}"
    kinds = {c["kind"] for c in manifest["components"]}
    assert {"ward-card", "board"} <= kinds


def test_data_lists_every_game_with_its_components():
    result = run("data", "--json")
    assert result.returncode == 0, result.stderr
    games = json.loads(result.stdout)["games"]
    assert [g["id"] for g in games] == list(canon.GAMES)
    for game in games:
        assert set(game) == {"id", "name", "players", "components"}
        assert len(game["players"]) == 2 and game["players"][0] <= game["players"][1]
        assert game["components"]
        for c in game["components"]:
            assert set(c) == {"kind", "id", "count", "source"}
            assert c["source"] in ("rules", "reference", "house") and isinstance(c["count"], int)
    shinjuku = next(g for g in games if g["id"] == "shinjuku")
    assert sum(c["count"] for c in shinjuku["components"] if c["kind"] == "ward-card") == 72


def test_data_text_marks_house_values():
    result = run("data")
    assert result.returncode == 0, result.stderr
    house = [c for g in json.loads(run("data", "--json").stdout)["games"] for c in g["components"]
             if c["source"] == "house"]
    if house:
        assert "house *" in result.stdout and "* house data" in result.stdout
    assert "Shinjuku (shinjuku), 2–4 players" in result.stdout


def test_data_with_broken_data_is_an_error_line(broken_assets):
    result = run("data", "--game", "shinjuku", env={"TOKYO_KIT_ASSETS": str(broken_assets)})
    line = one_line_error(result)
    assert "wards.toml" in line


def test_data_for_an_unknown_game(tmp_path):
    assert "kyoto" in one_line_error(run("data", "--game", "kyoto"))


def _pid() -> int:
    return os.getpid()


def _fails() -> None:
    raise ValueError("the card 'x' does not fit")


def test_jobs_run_in_workers_in_order_and_bring_errors_back(monkeypatch):
    from generator import jobs

    monkeypatch.setenv("TOKYO_KIT_JOBS", "2")
    if jobs.workers_for(3) < 2:
        pytest.skip("no fork here (or other threads alive): the build runs its jobs in-process")
    assert jobs.run([lambda: 1, lambda: 2, lambda: 3]) == [1, 2, 3]
    assert os.getpid() not in jobs.run([_pid, _pid])
    with pytest.raises(jobs.JobFailed) as failed:
        jobs.run([_pid, _fails], expected=(ValueError,))
    assert failed.value.expected and "does not fit" in str(failed.value)
    with pytest.raises(jobs.JobFailed) as failed:
        jobs.run([_pid, _fails], expected=(KeyError,))
    assert not failed.value.expected and "Traceback" in failed.value.detail
    monkeypatch.setenv("TOKYO_KIT_JOBS", "1")
    assert jobs.run([_pid, _pid]) == [os.getpid(), os.getpid()]


def _closing_lines(monkeypatch, capsys, files: list[dict], calibration: bool = False) -> str:
    """What `build` prints after writing `files` (the build itself replaced by its manifest)."""
    from generator import cli

    manifest = {"files": files, "components": [], "qr": [], "not_printed": []}
    if calibration:
        manifest["calibration"] = [{"path": "a4/back-offset-calibration-a4.pdf", "paper": "a4",
                                    "format": "pdf", "pages": 2}]
    monkeypatch.setattr(cli, "build", lambda options: manifest)
    assert cli.main(["build", "--out", "out"]) == 0
    return capsys.readouterr().out


def test_png_previews_alone_do_not_say_print_the_pdfs(monkeypatch, capsys):
    printed = _closing_lines(monkeypatch, capsys, [
        {"path": "a4/g/g-cards-a4-01.png", "game": "g", "paper": "a4", "format": "png", "pages": 1}])
    assert "print the PDFs" not in printed and "PDF pages" not in printed
    assert "1 PNG preview" in printed and "--format pdf" in printed


def test_pdfs_say_print_at_100_and_where_the_calibration_sheet_is(monkeypatch, capsys):
    printed = _closing_lines(monkeypatch, capsys, [
        {"path": "a4/g/g-cards-a4.pdf", "game": "g", "paper": "a4", "format": "pdf", "pages": 5}],
        calibration=True)
    assert "1 PDF (5 PDF pages)" in printed and "print the PDFs at 100 %" in printed
    assert "back-offset-calibration" in printed and "--back-offset X,Y" in printed


def test_print_shop_faces_are_counted_and_their_folder_named(monkeypatch, capsys):
    printed = _closing_lines(monkeypatch, capsys, [
        {"path": f"a4/g/print-shop/0001-{n}-{side}.png", "game": "g", "paper": "a4",
         "format": "print-shop", "pages": 1} for n, side in ((1, "front"), (2, "back"))])
    assert "2 card faces" in printed and "out/a4/g/print-shop" in printed
    assert "print the PDFs" not in printed


@pytest.mark.parametrize("args,words", [
    (["--back-offset", "9,0"], "back offset"),
    (["--duplex", "fold", "--back-offset", "1,0"], "fold"),
])
def test_bad_print_options_are_one_line(tmp_path, args, words):
    line = one_line_error(run("build", "--game", "shinjuku", "--out", str(tmp_path), *args))
    assert words in line


@pytest.mark.parametrize("args", [["--back-offset", "1.5"], ["--back-offset", "a,b"], ["--bleed", "-1"],
                                  ["--bleed", "thick"], ["--duplex", "sideways"], ["--back-bleed", "11"]])
def test_malformed_print_options_are_refused_with_usage(tmp_path, args):
    result = run("build", "--out", str(tmp_path), *args)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert args[0] in result.stderr
    assert not (tmp_path / "manifest.json").exists()


def test_new_print_options_build_the_same_bytes_twice(tmp_path):
    """Same input, same bytes: bleed, back offset, fold duplex and print-shop PNGs included."""
    from generator.build import BuildOptions, build
    from synthetic_kit import GAME, build_kit

    for name in ("one", "two"):
        build(BuildOptions(out=tmp_path / name / "offset", papers=("letter",), formats=("pdf", "svg"),
                           bleed=3.0, back_offset=(1.5, -1.0)), kits={GAME: build_kit()})
        build(BuildOptions(out=tmp_path / name / "fold", papers=("a4",), formats=("pdf", "print-shop"),
                           duplex="fold", bleed=2.0), kits={GAME: build_kit()})
    one = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*") if p.is_file())
    two = sorted(p.relative_to(tmp_path / "two") for p in (tmp_path / "two").rglob("*") if p.is_file())
    assert one == two and any(p.suffix == ".png" for p in one) and any("calibration" in p.name for p in one)
    for rel in one:
        assert (tmp_path / "one" / rel).read_bytes() == (tmp_path / "two" / rel).read_bytes(), str(rel)


def test_back_bleed_runs_the_backs_past_the_outer_cuts_and_zero_turns_it_off(tmp_path):
    """The default 3 mm of back bleed is recorded as each page of backs' BleedBox round its block of
    cards (its TrimBox); `--back-bleed 0` leaves the backs at the cut, as before issue 22."""
    import pymupdf

    for value in ("3", "0"):
        result = run("build", "--game", "shinjuku", "--paper", "a4", "--format", "pdf", "--back-bleed", value,
                     "--out", str(tmp_path / value))
        assert result.returncode == 0, result.stderr
        manifest = json.loads((tmp_path / value / "manifest.json").read_text())
        (cards,) = [f for f in manifest["files"] if f["path"].endswith("shinjuku-cards-a4.pdf")]
        with pymupdf.open(tmp_path / value / cards["path"]) as pdf:
            backs = [back for _, back in cards["duplex"][1:]]
            assert backs
            for back in backs:
                page = pdf[back - 1]
                if float(value):
                    grown = (page.trimbox.x0 - page.bleedbox.x0) * 25.4 / 72
                    assert abs(grown - float(value)) < 0.01, (back, grown)
                else:   # no BleedBox written: pymupdf reports the page's box
                    assert page.bleedbox == page.cropbox, back
