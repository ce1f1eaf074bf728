"""A test session leaves no process of its own running (loaded by tests/conftest.py).

At the session's end every process the tests started and that still runs is listed: the pytest
process's descendants (psutil if it is installed, else /proc). Processes that are on their way out
get GRACE_S to end; those still there then are killed (SIGKILL) and the run fails with their
command lines. Under pytest-xdist each worker checks its own and reports them to the controller,
which checks its own (after the workers are gone) and fails the run.

On Linux the pytest process is made a child subreaper (PR_SET_CHILD_SUBREAPER) at configure time:
a process whose parent ended (a server's worker whose supervisor was killed, a board drawing whose
companion was) is then adopted by pytest instead of by init, so it is still found here (the
leftover that prompted this check was exactly such an orphan: a `--workers 2` companion's worker
still serving after the run). The zombies of adopted processes are reaped at the end.
"""
from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

import pytest

#: Seconds a process found at the end has to end by itself before it counts as left running.
GRACE_S = 10.0
PR_SET_CHILD_SUBREAPER = 36
#: What an xdist worker reports to the controller (config.workeroutput).
KEY = "leftover_processes"

_found: list[str] = []


def _subreaper() -> None:
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass                          # (not Linux: orphans go to init and are not seen)


def _parents() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state letter) of every process /proc shows."""
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        out[int(entry.name)] = (int(fields[1]), fields[0])
    return out


def descendants(pid: int) -> list[int]:
    """The running (not zombie) descendants of `pid`."""
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        try:
            found = psutil.Process(pid).children(recursive=True)
        except psutil.Error:
            return []
        alive = []
        for p in found:
            with contextlib.suppress(psutil.Error):
                if p.status() != psutil.STATUS_ZOMBIE:
                    alive.append(p.pid)
        return alive
    if not Path("/proc/self").exists():
        return []
    table = _parents()
    kids: dict[int, list[int]] = {}
    for child, (parent, _) in table.items():
        kids.setdefault(parent, []).append(child)
    out, todo = [], list(kids.get(pid, []))
    while todo:
        child = todo.pop()
        if table[child][1] != "Z":
            out.append(child)
        todo += kids.get(child, [])
    return out


def command_line(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    return raw.replace(b"\0", b" ").decode(errors="replace").strip() or "?"


def reap() -> None:
    """Collect the exit status of this process's ended children (adopted orphans included)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def left_running() -> list[str]:
    """The processes of this session still running after GRACE_S (killed): 'pid: command line'."""
    me = os.getpid()
    pids = descendants(me)
    deadline = time.monotonic() + GRACE_S
    while pids and time.monotonic() < deadline:
        time.sleep(0.2)
        reap()
        pids = descendants(me)
    lines = [f"{pid}: {command_line(pid)}" for pid in pids]
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    if pids:
        end = time.monotonic() + 5
        while descendants(me) and time.monotonic() < end:
            time.sleep(0.1)
            reap()
    reap()
    return lines


def pytest_configure(config):
    _subreaper()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """(xdist controller) what a worker found left running."""
    _found.extend(getattr(node, "workeroutput", {}).get(KEY, []))


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_sessionfinish(session, exitstatus):
    # innermost wrapper: after every plain sessionfinish (the fixtures' last teardown, xdist's
    # shutdown of its workers), before xdist's worker reports home and the terminal's summary
    result = yield
    lines = left_running()
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:                       # an xdist worker: the controller reports
        workeroutput[KEY] = lines
        return result
    lines = _found + lines
    if lines:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_sep("=", f"{len(lines)} process(es) the tests started were still running "
                                    "at the end (killed)", red=True)
            for line in lines:
                reporter.write_line(line)
        if session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
    return result
