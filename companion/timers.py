"""Table timers, pure: the server holds deadlines and alone decides expiry.

A timer's stored record (companion/games/clock.py, the same model the games' own timers use)
changes only through timer events (start / pause / resume / reset), each applied at the server time
it was appended, and through the expiry event the server appends at its deadline.
"""
from __future__ import annotations

import re

from .games import clock

ACTIONS = ("start", "pause", "resume", "reset")
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.:-]{0,39}$")
MAX_SECONDS = 24 * 3600
MIN_SECONDS = 0.001          # a timer runs at least a millisecond (its unit)


class TimerRefused(ValueError):
    """A timer action that is not possible now; `reasons` say why."""

    def __init__(self, reasons: list[str]):
        super().__init__("; ".join(reasons))
        self.reasons = reasons


def check_request(name, action, seconds) -> str | None:
    """The malformed-request problems (400), or None."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        return "timer must be a name of 1 to 40 letters, digits, spaces or _.:-"
    if action not in ACTIONS:
        return f"action must be one of {', '.join(ACTIONS)}"
    if action == "start":
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            return "seconds (a number) is required with start"
        if not MIN_SECONDS <= seconds <= MAX_SECONDS:
            return f"seconds must be from {MIN_SECONDS} to {MAX_SECONDS}"
    elif seconds is not None:
        return "seconds goes only with start"
    return None


def apply(timers: dict, name: str, action: str, seconds: float | None, now_ms: int) -> dict:
    """The timers after `action` at `now_ms`; raises TimerRefused when it is not possible now."""
    rec = timers.get(name)
    status = clock.status(rec, now_ms)
    if action == "start":
        new = clock.start(int(round(seconds * 1000)), now_ms)
    elif action == "pause":
        if status != clock.RUNNING:
            raise TimerRefused([_cannot("pause", name, status)])
        new = clock.pause(rec, now_ms)
    elif action == "resume":
        if status != clock.PAUSED:
            raise TimerRefused([_cannot("resume", name, status)])
        new = clock.resume(rec, now_ms)
    else:  # reset
        if rec is None:
            raise TimerRefused([f"there is no timer {name!r} to reset"])
        new = clock.reset(rec)
    return {**timers, name: new}


def expire(timers: dict, name: str) -> dict:
    """The timers once `name`'s deadline has passed (the server's expiry event)."""
    return {**timers, name: clock.expire(timers[name])} if name in timers else timers


def public(timers: dict, now_ms: int) -> list[dict]:
    """The table's own timers as the API shows them at `now_ms`."""
    return [clock.public(name, rec, now_ms, owner="table") for name, rec in timers.items()]


def describe(name: str, action: str, seconds: float | None) -> str:
    if action == "start":
        return f"Timer “{name}” started ({_duration(seconds)})"
    return {"pause": f"Timer “{name}” paused", "resume": f"Timer “{name}” resumed",
            "reset": f"Timer “{name}” reset"}[action]


def _duration(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}" if s >= 60 else f"{s} s"


def _cannot(action: str, name: str, status: str) -> str:
    return f"timer {name!r} is {status}, so it cannot {action}"
