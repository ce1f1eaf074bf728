"""Helpers for tests and benchmarks: a fake clock, a tiny counter game, a server in a thread."""
from __future__ import annotations

import threading
import time

from .catalog import Game


class FakeClock:
    """An injectable CLOCK (epoch ms) that moves only when told to."""

    def __init__(self, now_ms: int = 1_700_000_000_000):
        self.now_ms = now_ms
        self._lock = threading.Lock()

    def __call__(self) -> int:
        with self._lock:
            return self.now_ms

    def advance(self, ms: int) -> None:
        with self._lock:
            self.now_ms += ms


class CounterRules:
    """A counter game: players take turns adding 1 to 3 to a shared count; first to reach `goal`
    (option, default 21) wins. Enough rules to exercise validate / apply / turns / undo."""

    id = "counter"

    def setup(self, data, players, options, seed):
        return {"count": 0, "current": 0, "players": len(players), "goal": options.get("goal", 21),
                "winner": None, "seed": seed}

    def validate_options(self, data, players, options):
        goal = options.get("goal", 21)
        unknown = sorted(set(options) - {"goal"})
        reasons = [f"unknown option {k!r}" for k in unknown]
        if isinstance(goal, bool) or not isinstance(goal, int) or not 1 <= goal <= 1000:
            reasons.append("goal must be a whole number from 1 to 1000")
        return reasons

    def validate(self, data, state, move):
        reasons = []
        if state["winner"] is not None:
            return ["the game is over"]
        if move.get("player") != state["current"]:
            reasons.append(f"it is player {state['current']}'s turn")
        add = move.get("add")
        if isinstance(add, bool) or not isinstance(add, int) or not 1 <= add <= 3:
            reasons.append("add must be 1, 2 or 3")
        return reasons

    def apply(self, data, state, move):
        count = state["count"] + move["add"]
        return {**state, "count": count, "current": (state["current"] + 1) % state["players"],
                "winner": state["current"] if count >= state["goal"] else None}

    def score(self, data, state):
        return {"count": state["count"], "winner": state["winner"]}

    def describe(self, data, state, move):
        return f"player {move.get('player')} adds {move.get('add')}"


COUNTER = Game("counter", "Counter", (1, 4), CounterRules(), None)


class ServerThread:
    """A real waitress server for `app` on 127.0.0.1 and a free port, in a background thread."""

    def __init__(self, app, threads: int = 16):
        import waitress
        self.app = app
        self.server = waitress.create_server(app, host="127.0.0.1", port=0, threads=threads)
        self.url = f"http://127.0.0.1:{self.server.effective_port}"
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.app.extensions["tokyo"].hub.stop()   # live streams end before their sockets close
        time.sleep(0.1)
        self.server.close()
        self.thread.join(timeout=5)
