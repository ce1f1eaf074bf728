"""Timer records, pure: the one model of a countdown for the table's own timers and the games' timers.

A record is plain JSON: {"status": "idle" | "running" | "paused" | "expired", "deadline_ms" (server
epoch ms while running, else None), "remaining_ms", "duration_ms"}. Every function takes the server's
`now_ms` and returns a new record; none mutates its argument. Two promises hold whatever the clock
does (API.md): `remaining_ms` stays within 0…duration, and an expired timer stays expired until it is
started again (a clock that jumps back never revives it, because expiry is written into the record by
`expire`, which the server appends as an event at the deadline).
"""
from __future__ import annotations

IDLE, RUNNING, PAUSED, EXPIRED = "idle", "running", "paused", "expired"


def _clamp(value: int, duration: int) -> int:
    return max(0, min(int(value), int(duration)))


def idle(duration_ms: int) -> dict:
    return {"status": IDLE, "deadline_ms": None, "remaining_ms": int(duration_ms),
            "duration_ms": int(duration_ms)}


def start(duration_ms: int, now_ms: int) -> dict:
    duration = max(0, int(duration_ms))
    return {"status": RUNNING, "deadline_ms": int(now_ms) + duration, "remaining_ms": duration,
            "duration_ms": duration}


def status(rec: dict | None, now_ms: int) -> str:
    """The record's status at `now_ms`: a running timer past its deadline reads as expired (until the
    server's expiry event writes it so)."""
    if rec is None:
        return IDLE
    if rec["status"] == RUNNING and now_ms >= rec["deadline_ms"]:
        return EXPIRED
    return rec["status"]


def remaining(rec: dict, now_ms: int) -> int:
    """Milliseconds left at `now_ms`, always within 0…duration."""
    st = status(rec, now_ms)
    if st == RUNNING:
        return _clamp(rec["deadline_ms"] - now_ms, rec["duration_ms"])
    if st == EXPIRED:
        return 0
    return _clamp(rec["remaining_ms"], rec["duration_ms"])


def pause(rec: dict, now_ms: int) -> dict:
    return {**rec, "status": PAUSED, "remaining_ms": remaining(rec, now_ms), "deadline_ms": None}


def resume(rec: dict, now_ms: int) -> dict:
    left = _clamp(rec["remaining_ms"], rec["duration_ms"])
    return {**rec, "status": RUNNING, "deadline_ms": int(now_ms) + left, "remaining_ms": left}


def reset(rec: dict) -> dict:
    return idle(rec["duration_ms"])


def expire(rec: dict) -> dict:
    """The record once its deadline has passed (what the server's expiry event writes)."""
    return {**rec, "status": EXPIRED, "remaining_ms": 0}


def due(rec: dict | None) -> int | None:
    """The deadline at which the server must deliver this timer's expiry, or None."""
    if rec is not None and rec.get("status") == RUNNING:
        return rec["deadline_ms"]
    return None


def public(name: str, rec: dict, now_ms: int, **extra) -> dict:
    """The record as the API shows it (API.md: name, status, deadline_ms, remaining_ms)."""
    st = status(rec, now_ms)
    return {"name": name, "status": st,
            "deadline_ms": rec["deadline_ms"] if st in (RUNNING, EXPIRED) else None,
            "remaining_ms": remaining(rec, now_ms), "duration_ms": rec["duration_ms"], **extra}
