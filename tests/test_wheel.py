"""The wheel ships what it needs: built from pyproject.toml (+ setup.py) and installed into a fresh
virtual environment, it builds a kit and serves the companion from a folder that is not the checkout.

Offline and quick: the wheel is built without build isolation from a copy of the sources (nothing is
written into the checkout), installed with the main venv's pip (`pip --python`), and the runtime
dependencies come from the main venv through a .pth file (the installed package itself is the
wheel's: the test checks where `generator` and `companion` are imported from).
"""
from __future__ import annotations

import hashlib
import importlib.util
from importlib import metadata
import os
import re
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("generator", "companion", "assets", "layouts", "pyproject.toml", "setup.py", "README.md")


def _why_not() -> str | None:
    """Why this machine cannot build the wheel offline, or None."""
    try:
        setuptools = metadata.version("setuptools")
    except metadata.PackageNotFoundError:
        return "setuptools is not installed in this interpreter"
    if importlib.util.find_spec("wheel") is None and tuple(map(int, setuptools.split(".")[:2])) < (70, 1):
        return f"setuptools {setuptools} needs the 'wheel' package to build a wheel offline " \
               "(pip install wheel, or the [test] extra)"
    if importlib.util.find_spec("pip") is None:
        return "pip is not installed in this interpreter"
    return None


pytestmark = pytest.mark.skipif(_why_not() is not None, reason=_why_not() or "")


#: The environment of the installed package's processes: nothing pointing back at a checkout.
CLEAN_ENV = {k: v for k, v in os.environ.items()
             if k not in ("PYTHONPATH", "PYTHONHOME", "TOKYO_KIT_ASSETS", "TOKYO_KIT_LAYOUTS")}


def _run(*args, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=CLEAN_ENV)
    assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The python of a fresh venv with the wheel installed (and the main venv's packages as deps)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(path, src / name)
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
         "-w", str(tmp / "dist"), str(src), cwd=tmp)
    wheel, = (tmp / "dist").glob("*.whl")
    _run(sys.executable, "-m", "venv", "--without-pip", str(tmp / "venv"), cwd=tmp)
    python = tmp / "venv" / "bin" / "python"
    pip = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
                          "--no-index", "-q", str(wheel)], capture_output=True, text=True, timeout=60)
    if pip.returncode and "no such option: --python" in pip.stderr:
        pytest.skip("this pip cannot install into another environment (--python needs pip 22.3)")
    assert pip.returncode == 0, pip.stderr
    site = Path(_run(str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                     cwd=tmp).stdout.strip())
    (site / "main_venv_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


@pytest.fixture
def elsewhere(tmp_path) -> Path:
    """An empty folder to run from: nothing of the checkout is reachable through the working directory."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    return folder


def test_the_wheel_holds_the_data_layouts_fonts_templates_and_static_files(installed, elsewhere):
    out = _run(str(installed), "-c", "import generator, companion; print(generator.__file__); "
               "print(companion.__file__)", cwd=elsewhere).stdout.split()
    site = installed.parents[1]
    assert all(Path(p).is_relative_to(site) for p in out), out     # the wheel's, not the checkout's
    generator, companion = (Path(p).parent for p in out)
    shipped = {p.relative_to(ROOT / "assets") for p in (ROOT / "assets").rglob("*") if p.is_file()}
    assert shipped == {p.relative_to(generator / "_data" / "assets")
                       for p in (generator / "_data" / "assets").rglob("*") if p.is_file()}
    assert {p.name for p in (ROOT / "layouts").glob("*.toml")} == {
        p.name for p in (generator / "_data" / "layouts").glob("*.toml")}
    # every companion/**/templates and companion/**/static file, a new game's too
    web = {p.relative_to(ROOT / "companion") for p in (ROOT / "companion").rglob("*")
           if p.is_file() and {"templates", "static"} & set(p.relative_to(ROOT / "companion").parts)
           and "__pycache__" not in p.parts}
    assert web and all((companion / rel).is_file() for rel in web), sorted(
        str(rel) for rel in web if not (companion / rel).is_file())


def test_the_installed_generator_builds_a_kit_from_any_folder(installed, elsewhere, tmp_path):
    out = tmp_path / "kit"
    _run(str(installed), "-m", "generator", "build", "--game", "shinjuku", "--paper", "a4", "--format", "pdf",
         "--out", str(out), cwd=elsewhere)
    pdfs = sorted((out / "a4" / "shinjuku").glob("*.pdf"))
    assert pdfs and all(p.read_bytes().startswith(b"%PDF") for p in pdfs)
    # the same bytes as the checkout builds: the packaged data, layouts and fonts are the same
    here = tmp_path / "checkout"
    _run(sys.executable, "-m", "generator", "build", "--game", "shinjuku", "--paper", "a4", "--format", "pdf",
         "--out", str(here), cwd=ROOT)
    digest = lambda p: hashlib.sha256(p.read_bytes()).hexdigest()  # noqa: E731
    assert {p.name: digest(p) for p in pdfs} == {p.name: digest(p)
                                                 for p in sorted((here / "a4" / "shinjuku").glob("*.pdf"))}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.headers.get("Content-Type", ""), r.read()


def test_the_installed_companion_serves_its_pages_and_files(installed, elsewhere, tmp_path):
    port = _free_port()
    command = [str(installed), "-m", "companion", "--port", str(port), "--data", str(tmp_path / "data")]
    server = subprocess.Popen(command, cwd=elsewhere, env=CLEAN_ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                status, kind, home = _get(base + "/")
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the companion did not start: {server.communicate(timeout=5)[0]}")
                time.sleep(0.2)
        assert status == 200 and kind.startswith("text/html") and b"Shinjuku" in home
        static = re.search(rb'(?:href|src)="(/static/[^"]+)"', home)
        assert static, "the home page links no static file"
        status, _, body = _get(base + static.group(1).decode())
        assert status == 200 and body
        status, kind, page = _get(base + "/join")      # another page rendered from a template
        assert status == 200 and kind.startswith("text/html") and b"<form" in page
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
