"""Stopping the companion stops every process it started (issue 26, "A server that does not stop").

`python -m companion --database … --workers 2` is a supervisor and its workers (and the processes a
worker starts: the board drawing of its first seconds). SIGTERM or SIGINT at any moment — one second
in (still checking the database), while the workers are being forked, once it answers, right after
a killed worker was replaced — must leave no process of it running and nothing answering on its
port; a worker that does not end on SIGTERM is killed after the grace period; and the workers die
with a supervisor that was itself killed (kill -9), instead of serving on, orphaned.

Each companion is started in a session of its own (start_new_session), so "every process it
started" is every live process of that session, whoever its parent is by then. The checks poll for
that with a generous timeout (the machine may be busy): no timing is asserted beyond "gone before
the timeout".
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

requests = pytest.importorskip("requests")

REPO = Path(__file__).resolve().parents[1]
#: Give-up points, not timings: the machine running the tests may be busy.
START_S = 120
GONE_S = 60


def session_members(sid: int) -> list[int]:
    """The live (not zombie) processes of session `sid`."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            out.append(int(entry.name))
    return out


def children(pid: int) -> set[int]:
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            out |= {int(p) for p in task.read_text().split()}
        except OSError:
            pass
    return out


class Started:
    """`python -m companion …` in a session of its own; its output collected line by line."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen([sys.executable, "-m", "companion", "--port", "0", *args],
                                     cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
        self.lines: list[str] = []
        self.base = ""
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line)
            if " companion on " in line and not self.base:
                self.base = line.split(" on ")[1].split()[0].rstrip("/")

    def log(self) -> str:
        return "".join(self.lines)

    def wait_for(self, found, what: str) -> None:
        deadline = time.monotonic() + START_S
        while not found():
            assert self.proc.poll() is None, f"the companion ended ({what}):\n{self.log()}"
            assert time.monotonic() < deadline, f"no {what} within {START_S} s:\n{self.log()}"
            time.sleep(0.05)

    def answering(self) -> bool:
        if not self.base:
            return False
        try:
            return requests.get(self.base + "/api/time", timeout=5).status_code == 200
        except requests.RequestException:
            return False

    def workers(self) -> dict[int, int]:
        """worker number -> pid, the latest of each number."""
        out = {}
        for line in list(self.lines):
            if line.startswith("worker ") and ": pid " in line:
                number, pid = line.split(": pid ")
                out[int(number.split()[1])] = int(pid)
        return out

    def members(self) -> list[int]:
        self.proc.poll()                      # (the supervisor reaped, once it has ended)
        return session_members(self.proc.pid)

    def gone(self) -> bool:
        return not self.members()

    def assert_all_gone(self, after: str) -> None:
        deadline = time.monotonic() + GONE_S
        while not self.gone():
            if time.monotonic() > deadline:
                left = {pid: Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:120]
                        for pid in self.members()}
                raise AssertionError(f"{after}: still running after {GONE_S} s: {left}\n{self.log()}")
            time.sleep(0.1)
        self.proc.wait(10)                    # (ended, as its session shows: reap it)
        if self.base:                         # and nothing answers on its port any more
            with pytest.raises(requests.ConnectionError):
                requests.get(self.base + "/api/time", timeout=5)

    def kill_all(self) -> None:
        """(the test's own clean-up, whatever happened)"""
        for pid in self.members():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            pass


@pytest.fixture
def started():
    made: list[Started] = []

    def make(*args: str) -> Started:
        s = Started(*args)
        made.append(s)
        return s
    try:
        yield make
    finally:
        for s in made:
            s.kill_all()


@pytest.fixture
def hosted(started, pg_url):
    return lambda: started("--database", pg_url, "--workers", "2")


@pytest.mark.parametrize("moment", ["1 s", "5 s", "the first worker forked", "answering"])
def test_sigterm_at_any_moment_of_the_start_stops_every_process(hosted, moment):
    c = hosted()
    if moment.endswith(" s"):
        time.sleep(float(moment.split()[0]))
    elif moment == "answering":
        c.wait_for(c.answering, "answer")
    else:                                             # as soon as the process exists
        deadline = time.monotonic() + START_S
        while not children(c.proc.pid):
            assert time.monotonic() < deadline and c.proc.poll() is None, c.log()
    before = c.members()
    c.proc.send_signal(signal.SIGTERM)
    c.assert_all_gone(f"SIGTERM at {moment} (processes then: {before})")


def test_sigint_stops_every_process_too(hosted):
    c = hosted()
    c.wait_for(c.answering, "answer")
    assert len(c.members()) >= 3                      # the supervisor and its two workers
    c.proc.send_signal(signal.SIGINT)
    c.assert_all_gone("SIGINT")
    assert c.proc.returncode == 0 and "stopping (SIGINT)" in c.log()


def test_sigterm_right_after_a_worker_was_replaced(hosted):
    """SIGTERM as soon as the replacement process exists (the supervisor's children polled, not
    its log): the new worker may not even have run yet."""
    c = hosted()
    c.wait_for(c.answering, "answer")
    workers = children(c.proc.pid)
    first = c.workers()[1]
    os.kill(first, signal.SIGKILL)
    deadline = time.monotonic() + START_S
    while not children(c.proc.pid) - workers:
        assert time.monotonic() < deadline, c.log()
    c.proc.send_signal(signal.SIGTERM)
    c.assert_all_gone("SIGTERM right after worker 1 was replaced")
    assert f"worker 1 (pid {first}) ended (signal 9)" in c.log()


def test_a_worker_that_does_not_end_on_sigterm_is_killed_after_the_grace_period(hosted):
    c = hosted()
    c.wait_for(c.answering, "answer")
    stuck = c.workers()[2]
    os.kill(stuck, signal.SIGSTOP)                    # a stopped process acts on no SIGTERM
    c.proc.send_signal(signal.SIGTERM)
    c.assert_all_gone("SIGTERM with a worker that does not end")
    assert f"worker pid {stuck} did not end" in c.log()


def test_the_workers_die_with_a_supervisor_that_was_killed(hosted):
    c = hosted()
    c.wait_for(c.answering, "answer")
    workers = list(c.workers().values())
    assert all(pid in c.members() for pid in workers)
    c.proc.kill()                                     # kill -9: no chance to stop anything itself
    c.assert_all_gone("kill -9 of the supervisor")


def test_the_single_process_companion_stops_with_what_it_started(started, tmp_path):
    """SQLite, one process: SIGTERM closes the server and stops the board drawing it started at
    start-up (a child process drawing the map for a few seconds), if it still runs."""
    c = started("--data", str(tmp_path / "data"))
    c.wait_for(c.answering, "answer")
    c.proc.send_signal(signal.SIGTERM)
    c.assert_all_gone("SIGTERM of the single process")
    assert c.proc.returncode == 0
