"""The table's set-up walk-through, one for the whole table (issue 23): the step every phone shows.

The rules give the set-up steps (Rules.setup_steps: each with a title, a text, and for the steps
that are entered on the board an "input" move type and whether it is "done"); which step the table
is reading is kept in the table's log as a `walk` event {"step": n} (n = the step shown, the number
of steps = the set-up is done). A `walk` event changes neither the game nor its timers, and undo
passes over it (undo takes back moves only). Once play has begun the rules give no steps: GET
…/walk then answers the set-up's steps as they were at the start, all done, so they stay readable.
"""
from __future__ import annotations

from ..errors import ApiError
from .service import View

#: the most steps a set-up may have (the request's upper bound)
MAX_STEPS = 99


def position(events) -> int:
    """The step the walk is at: the latest `walk` event's (0 before any)."""
    step = 0
    for e in events:
        if e.kind == "walk":
            step = e.body.get("step", 0)
    return step


def read(tables, code: str) -> dict:
    """{"seq", "step", "steps", "playing"} for GET /api/tables/<code>/walk."""
    with tables.store.read() as tx:
        table = tables._table(tx, code)
        seq = tx.seq(code)
        game = tables.games[table.game]
        steps = game.setup_steps(tables._view(tx, table, seq).state)
        step = position(tx.events(code, 0))
        playing = not steps
        if playing:
            start = game.setup(table.players, table.options, table.seed)
            steps = [dict(s, done=True) for s in game.setup_steps(start)]
            step = len(steps)
    return {"seq": seq, "step": min(step, len(steps)), "steps": steps, "playing": playing}


def walk(tables, code: str, expected_seq: int, step: int, idem_key, request_fp, who):
    """Append a `walk` event: every phone of the table shows step `step` (len(steps): done)."""
    def decide(game, view, now, tx, table):
        if who is None:
            raise ApiError(401, "Send this table's host or seat token to walk through the set-up.")
        steps = game.setup_steps(view.state)
        if not steps:
            raise ApiError(422, "Play has begun: the set-up walk-through is over.",
                           ["the set-up steps stay readable on every phone, but no longer move"])
        if step > len(steps):
            raise ApiError(422, f"The set-up has {len(steps)} steps.",
                           [f"step must be from 0 to {len(steps)} (= done)"])
        summary = ("Set-up walk-through done." if step == len(steps)
                   else f"Set-up: step {step + 1} of {len(steps)}, {steps[step]['title']}.")
        body = {"step": step, "by": who, "summary": summary}
        new = View(view.seq + 1, view.state, view.timers, view.undo)
        return "walk", body, new, {"seq": new.seq, "step": step, "steps": steps, "playing": False}
    return tables._write(code, expected_seq, idem_key, request_fp, decide, who)
