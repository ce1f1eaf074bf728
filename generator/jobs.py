"""Running a build's independent jobs (one paper and format of a kit each) on the machine's cores.

The parent process records every face first; forked workers inherit those recordings, so no face
is drawn twice and each file is still written by exactly one process (the same bytes as a serial
build). Falls back to running in this process where forking is unsafe or pointless: one job, one
core, no fork start method, other threads alive (a fork would copy their locks mid-use), or
TOKYO_KIT_JOBS=1.
"""
from __future__ import annotations

import multiprocessing
import os
import threading
import traceback
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")

_TASKS: Sequence[Callable[[], object]] = ()


class JobFailed(RuntimeError):
    """A job raised in a worker; `str()` is the worker's message, `detail` its traceback."""

    def __init__(self, message: str, detail: str, expected: bool):
        super().__init__(message)
        self.detail = detail
        self.expected = expected


def workers_for(count: int) -> int:
    wanted = os.environ.get("TOKYO_KIT_JOBS")
    cores = int(wanted) if wanted and wanted.isdigit() else (os.cpu_count() or 1)
    if count < 2 or cores < 2 or threading.active_count() > 1:
        return 1
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return min(count, cores)


def run(tasks: Sequence[Callable[[], T]], expected: tuple[type[BaseException], ...] = ()) -> list[T]:
    """Results of `tasks`, in order. An `expected` exception in a worker comes back as JobFailed
    with expected=True (its message is for the user); anything else with expected=False."""
    workers = workers_for(len(tasks))
    if workers == 1:
        return [task() for task in tasks]
    global _TASKS
    _TASKS = tasks
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            outcomes = pool.map(_call, [(i, expected) for i in range(len(tasks))], chunksize=1)
    finally:
        _TASKS = ()
    results = []
    for ok, value in outcomes:
        if not ok:
            raise JobFailed(*value)
        results.append(value)
    return results


def _call(job: tuple[int, tuple[type[BaseException], ...]]):
    index, expected = job
    try:
        return True, _TASKS[index]()
    except Exception as exc:  # noqa: BLE001 - any failure goes back as text (not all survive pickling)
        return False, (str(exc), traceback.format_exc(), isinstance(exc, expected))
