"""A chess clock for the table, pure: one countdown per seat, one running at a time.

A chess clock is a table timer (companion/tables/timers.py) whose record carries, beside the fields every
timer record has (companion/games/clock.py: status, deadline_ms, remaining_ms, duration_ms, which
here describe the seat whose time runs), its own:

    {"kind": "chess", "seat": i (whose time runs, or ran last), "first": i (where it started),
     "clocks": [ms left per seat, banked when that seat's time stops], "flagged": [seats out of time]}

So the server's deadline handling is the one every timer has: the running seat's deadline is the
record's, and at it the server appends the expiry event, which here flags that seat (its clock reads
0:00 and stays so until the clock is reset or started again). Tapping ("pass") banks the running
seat's time and starts the next seat's that is not flagged (or a seat named in the request).
"""
from __future__ import annotations

from ..games import clock

KIND = "chess"


def is_chess(rec: dict | None) -> bool:
    return isinstance(rec, dict) and rec.get("kind") == KIND


def start(duration_ms: int, seats: int, first: int, now_ms: int) -> dict:
    duration = max(0, int(duration_ms))
    rec = clock.start(duration, now_ms)
    return {**rec, "kind": KIND, "seat": first, "first": first, "clocks": [duration] * seats,
            "flagged": []}


def _banked(rec: dict, now_ms: int) -> tuple[list[int], list[int]]:
    """Every seat's time left at `now_ms` (the running seat's stopped there), and the flagged seats
    (the running seat too if its time is out and the expiry event has not been written yet)."""
    clocks, flagged = list(rec["clocks"]), list(rec["flagged"])
    if rec["status"] == clock.RUNNING:
        left = clock.remaining(rec, now_ms)
        clocks[rec["seat"]] = left
        if left <= 0 and rec["seat"] not in flagged:
            flagged.append(rec["seat"])
    return clocks, flagged


def next_seat(rec: dict, flagged: list[int]) -> int | None:
    """The seat after the current one that still has time, or None (everyone is out of time)."""
    n = len(rec["clocks"])
    for step in range(1, n + 1):
        seat = (rec["seat"] + step) % n
        if seat not in flagged:
            return seat
    return None


def pass_turn(rec: dict, now_ms: int, to: int | None = None) -> dict:
    """The running seat's time stops and `to`'s (default: the next seat with time left) runs.
    Raises ValueError with a reason a person reads when no seat can take over."""
    clocks, flagged = _banked(rec, now_ms)
    if to is None:
        to = next_seat(rec, flagged)
        if to is None:
            raise ValueError("every seat's time has run out: reset the chess clock to play on")
    elif not 0 <= to < len(clocks):
        raise ValueError(f"seat must be a seat number from 0 to {len(clocks) - 1}")
    elif to in flagged:
        raise ValueError(f"seat {to}'s time has run out")
    left = clocks[to]
    return {**rec, "clocks": clocks, "flagged": flagged, "seat": to, "status": clock.RUNNING,
            "deadline_ms": int(now_ms) + left, "remaining_ms": left}


def pause(rec: dict, now_ms: int) -> dict:
    clocks, flagged = _banked(rec, now_ms)
    return {**clock.pause(rec, now_ms), "clocks": clocks, "flagged": flagged}


def resume(rec: dict, now_ms: int) -> dict:
    return clock.resume(rec, now_ms)


def reset(rec: dict) -> dict:
    d = rec["duration_ms"]
    return {**clock.idle(d), "kind": KIND, "seat": rec["first"], "first": rec["first"],
            "clocks": [d] * len(rec["clocks"]), "flagged": []}


def expire(rec: dict) -> dict:
    """The running seat's deadline passed (the server's expiry event): that seat is flagged."""
    clocks, flagged = list(rec["clocks"]), list(rec["flagged"])
    clocks[rec["seat"]] = 0
    if rec["seat"] not in flagged:
        flagged.append(rec["seat"])
    return {**clock.expire(rec), "clocks": clocks, "flagged": flagged}


def public(name: str, rec: dict, now_ms: int, **extra) -> dict:
    """The chess clock as the API shows it: a timer object (its status and times are the running
    seat's) plus "kind": "chess", "seat" and one entry per seat in "clocks"."""
    clocks, flagged = _banked(rec, now_ms) if rec["status"] == clock.RUNNING else \
        (rec["clocks"], rec["flagged"])
    return {**clock.public(name, rec, now_ms, **extra), "kind": KIND, "seat": rec["seat"],
            "clocks": [{"seat": i, "remaining_ms": max(0, int(ms)), "flagged": i in flagged}
                       for i, ms in enumerate(clocks)]}
