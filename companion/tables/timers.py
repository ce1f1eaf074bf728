"""Table timers, pure: the server holds deadlines and alone decides expiry.

A timer's stored record (companion/games/clock.py, the same model the games' own timers use)
changes only through timer events (start / pause / resume / reset / pass), each applied at the server
time it was appended, and through the expiry event the server appends at its deadline.

Two kinds of timer: a countdown (the default, and every timer of logs written before chess clocks
existed: their events carry no "clock") and a chess clock (companion/tables/chess_clock.py), started with
"clock": "chess": one countdown per seat, "pass" hands the time to the next seat. The extra fields a
timer event may carry ("clock", "seats", "seat") are kept in its body, so replay applies the same.
"""
from __future__ import annotations

import re

from . import chess_clock
from ..games import clock

ACTIONS = ("start", "pause", "resume", "reset", "pass")
CLOCKS = ("countdown", "chess")
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.:-]{0,39}$")
MAX_SECONDS = 24 * 3600
MIN_SECONDS = 0.001          # a timer runs at least a millisecond (its unit)


class TimerRefused(ValueError):
    """A timer action that is not possible now; `reasons` say why."""

    def __init__(self, reasons: list[str]):
        super().__init__("; ".join(reasons))
        self.reasons = reasons


def check_request(name, action, seconds, kind=None, seat=None) -> str | None:
    """The malformed-request problems (400), or None. `kind` is the request's "clock" (with start
    only), `seat` its "seat" (a chess clock's first seat with start, the seat to pass to with pass)."""
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
    if kind is not None and (action != "start" or kind not in CLOCKS):
        return f"clock goes only with start, and is one of {', '.join(CLOCKS)}"
    if seat is not None:
        if action not in ("start", "pass") or (action == "start" and kind != "chess"):
            return "seat goes only with pass, or with start of a chess clock"
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            return "seat must be a seat number (0 for the first player)"
    return None


def extra_of(body: dict, action: str, seats: int | None = None) -> dict:
    """The chess-clock fields of a timer request or event body ({} for a plain countdown), with
    "seats" (the table's number of seats) added when a chess clock starts."""
    extra = {k: body[k] for k in ("clock", "seat", "seats") if body.get(k) is not None}
    if action == "start" and extra.get("clock") == "chess" and seats is not None:
        extra["seats"] = seats
    if extra.get("clock") == "countdown":
        del extra["clock"]
    return extra


def apply(timers: dict, name: str, action: str, seconds: float | None, now_ms: int,
          extra: dict | None = None) -> dict:
    """The timers after `action` at `now_ms`; raises TimerRefused when it is not possible now.
    `extra`: the chess-clock fields (extra_of), or an event body holding them."""
    extra = extra or {}
    rec = timers.get(name)
    status = clock.status(rec, now_ms)
    chess = chess_clock.is_chess(rec)
    if action == "start":
        duration = int(round(seconds * 1000))
        if extra.get("clock") == "chess":
            seats = extra.get("seats") or 0
            first = extra.get("seat") or 0
            if not 0 <= first < seats:
                raise TimerRefused([f"seat must be a seat number from 0 to {seats - 1}"])
            new = chess_clock.start(duration, seats, first, now_ms)
        else:
            new = clock.start(duration, now_ms)
    elif action == "pass":
        if not chess:
            raise TimerRefused([f"timer {name!r} is not a chess clock: only a chess clock passes "
                                "to the next seat"])
        try:
            new = chess_clock.pass_turn(rec, now_ms, extra.get("seat"))
        except ValueError as exc:
            raise TimerRefused([str(exc)]) from None
    elif action == "pause":
        if status != clock.RUNNING:
            raise TimerRefused([_cannot("pause", name, status)])
        new = chess_clock.pause(rec, now_ms) if chess else clock.pause(rec, now_ms)
    elif action == "resume":
        if status != clock.PAUSED:
            raise TimerRefused([_cannot("resume", name, status)])
        new = chess_clock.resume(rec, now_ms) if chess else clock.resume(rec, now_ms)
    else:  # reset
        if rec is None:
            raise TimerRefused([f"there is no timer {name!r} to reset"])
        new = chess_clock.reset(rec) if chess else clock.reset(rec)
    return {**timers, name: new}


def expire(timers: dict, name: str) -> dict:
    """The timers once `name`'s deadline has passed (the server's expiry event)."""
    if name not in timers:
        return timers
    rec = timers[name]
    return {**timers, name: chess_clock.expire(rec) if chess_clock.is_chess(rec) else clock.expire(rec)}


def public(timers: dict, now_ms: int) -> list[dict]:
    """The table's own timers as the API shows them at `now_ms`."""
    return [(chess_clock.public if chess_clock.is_chess(rec) else clock.public)(
                name, rec, now_ms, owner="table") for name, rec in timers.items()]


def describe(name: str, action: str, seconds: float | None, extra: dict | None = None,
             players: list[str] | None = None, timers: dict | None = None) -> str:
    """The history line of a timer action. `players` name the seats of a chess clock; `timers` are
    the timers after the action (whose seat a pass handed the time to)."""
    extra, players = extra or {}, players or []

    def seat_name(i):
        return players[i] if isinstance(i, int) and 0 <= i < len(players) else f"seat {i}"
    if action == "start" and extra.get("clock") == "chess":
        return (f"Chess clock “{name}” started ({_duration(seconds)} each), "
                f"{seat_name(extra.get('seat') or 0)} first")
    if action == "start":
        return f"Timer “{name}” started ({_duration(seconds)})"
    if action == "pass":
        rec = (timers or {}).get(name) or {}
        return f"Chess clock “{name}”: {seat_name(rec.get('seat'))}’s time runs"
    return {"pause": f"Timer “{name}” paused", "resume": f"Timer “{name}” resumed",
            "reset": f"Timer “{name}” reset"}[action]


def _duration(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}" if s >= 60 else f"{s} s"


def _cannot(action: str, name: str, status: str) -> str:
    return f"timer {name!r} is {status}, so it cannot {action}"
