"""Two small games that live only in the tests, each on the rules contract (companion/games/contract.py).

- Counter: players take turns adding 1 to 3 to a shared count; whoever reaches the goal wins. Turns,
  undo and the plain API are tested with it.
- Sealed bid: what Shinjuku does not have. Each round a prize (1 to 3 points) is drawn — entered by
  the table, or drawn by the companion from the seed — then every player bids coins at once, in
  secret, against the clock: a timed round the game itself starts, that ends early when everyone
  has bid or the table closes the bids, and otherwise when its timer runs out (missing bids are 0).
  The highest single bid wins the prize and pays its bid; a tie wins nothing. After the last round
  the most points wins, then the most coins left; still tied is a shared victory.
"""
from __future__ import annotations

import random

from companion.catalog import Game
from companion.games import clock
from companion.games.contract import (HOST, NOBODY, Actors, Ctx, Field, IllegalMove, Legal, MoveType,
                                      Rules, leaders, result, score_row, seat_index)

INT = {"type": "integer"}


class CounterRules(Rules):
    id = "counter"
    move_types = (MoveType("add", "Add", (Field("player", INT, "who adds"),
                                          Field("add", {"type": "integer", "minimum": 1, "maximum": 3},
                                                "1, 2 or 3"))),)
    options_doc = {"goal": "the count to reach (default 21)"}

    def setup(self, players, options, seed):
        return {"count": 0, "current": 0, "players": list(players), "goal": options.get("goal", 21),
                "winner": None}

    def validate_options(self, players, options):
        goal = options.get("goal", 21)
        reasons = [f"unknown option {k!r}" for k in sorted(set(options) - {"goal"})]
        if isinstance(goal, bool) or not isinstance(goal, int) or not 1 <= goal <= 1000:
            reasons.append("goal must be a whole number from 1 to 1000")
        return reasons

    def validate(self, state, move, ctx=Ctx()):
        if isinstance(move, dict) and "type" not in move:
            move = {"type": "add", **move}     # the API tests send bare {"player", "add"}
        reasons = self.unknown_type(move)
        if reasons:
            return reasons
        if state["winner"] is not None:
            return ["the game is over"]
        if move.get("player") != state["current"]:
            reasons.append(f"it is player {state['current']}'s turn")
        add = move.get("add")
        if isinstance(add, bool) or not isinstance(add, int) or not 1 <= add <= 3:
            reasons.append("add must be 1, 2 or 3")
        return reasons

    def apply(self, state, move, ctx=Ctx()):
        reasons = self.validate(state, move, ctx)
        if reasons:
            raise IllegalMove(reasons)
        count = state["count"] + move["add"]
        return {**state, "count": count, "current": (state["current"] + 1) % len(state["players"]),
                "winner": state["current"] if count >= state["goal"] else None}

    def legal_moves(self, state, player=None):
        if state["winner"] is not None or player not in (None, state["current"]):
            return Legal([])
        return Legal([{"type": "add", "player": state["current"], "add": n} for n in (1, 2, 3)])

    def actors(self, state):
        return NOBODY if state["winner"] is not None else Actors("one", (state["current"],))

    def result(self, state):
        if state["winner"] is None:
            return None
        rows = [score_row(i, name, [("Reached the goal", 1 if i == state["winner"] else 0)])
                for i, name in enumerate(state["players"])]
        return result([state["winner"]], "wins", rows)

    def describe(self, state, move):
        return f"player {move.get('player')} adds {move.get('add')}"


class SealedBidRules(Rules):
    id = "sealed-bid"
    move_types = (
        MoveType("start-round", "Start the round", (
            Field("prize", {"type": "integer", "minimum": 1, "maximum": 3},
                  "the prize drawn (table chance only)", required=False),), who="table"),
        MoveType("bid", "Bid", (Field("player", INT, "who bids"),
                                Field("amount", {"type": "integer", "minimum": 0}, "coins, secret"))),
        MoveType("close-bids", "Close the bids", who="table",
                 doc="ends the round early: bids not made count as 0"),
    )
    chance_modes = {"table": {"chance": "table"}, "companion": {"chance": "companion"}}
    options_doc = {"chance": "table | companion: who draws the prizes",
                   "rounds": "how many rounds (default 3)", "coins": "coins each (default 10)",
                   "round_seconds": "length of a bidding round (default 30)"}
    DEFAULTS = {"chance": "table", "rounds": 3, "coins": 10, "round_seconds": 30}

    def setup(self, players, options, seed):
        o = {**self.DEFAULTS, **options}
        return {"players": [{"name": n, "coins": o["coins"], "points": 0, "prizes": []} for n in players],
                "chance": o["chance"], "rounds": o["rounds"], "round": 0, "round_ms": o["round_seconds"] * 1000,
                "phase": "prize", "prize": None, "bids": {}, "timer": None, "seed": seed, "last": None}

    def validate_options(self, players, options):
        reasons = [f"unknown option {k!r}" for k in sorted(set(options) - set(self.DEFAULTS))]
        o = {**self.DEFAULTS, **options}
        if o["chance"] not in self.chance_modes:
            reasons.append("chance must be table or companion")
        for key, low, high in (("rounds", 1, 20), ("coins", 0, 100), ("round_seconds", 1, 600)):
            v = o[key]
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
                reasons.append(f"{key} must be a whole number from {low} to {high}")
        return reasons

    # -- moves -------------------------------------------------------------------------------------
    def validate(self, state, move, ctx=Ctx()):
        reasons = self.unknown_type(move)
        if reasons:
            return reasons
        t = move["type"]
        if state["phase"] == "over":
            return ["the game is over"]
        if t == "start-round":
            if state["phase"] != "prize":
                return ["the round has started already"]
            prize = move.get("prize")
            if state["chance"] == "table":
                if isinstance(prize, bool) or prize not in (1, 2, 3):
                    return ["enter the prize drawn: 1, 2 or 3"]
            elif "prize" in move:
                return ["the companion draws the prize; leave it out"]
            return []
        if state["phase"] != "bidding":
            return ["start the round first"]
        if t == "close-bids":
            return []
        p = seat_index(move.get("player"), len(state["players"]))
        if p is None:
            return ["player must be a seat of this table"]
        if str(p) in state["bids"]:
            return [f"{state['players'][p]['name']} has bid already this round"]
        amount = move.get("amount")
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= state["players"][p]["coins"]:
            return [f"a bid is 0 to {state['players'][p]['coins']} coins"]
        return []

    def apply(self, state, move, ctx=Ctx()):
        reasons = self.validate(state, move, ctx)
        if reasons:
            raise IllegalMove(reasons)
        t = move["type"]
        if t == "start-round":
            prize = move["prize"] if state["chance"] == "table" else \
                random.Random(f"{state['seed']}:{state['round']}").randint(1, 3)
            return {**state, "phase": "bidding", "round": state["round"] + 1, "prize": prize, "bids": {},
                    "timer": clock.start(state["round_ms"], ctx.now_ms)}
        if t == "close-bids":
            return self._reveal(state)
        bids = {**state["bids"], str(move["player"]): move["amount"]}
        new = {**state, "bids": bids}
        return self._reveal(new) if len(bids) == len(state["players"]) else new

    def on_expire(self, state, name, ctx):
        if name != "round" or state["phase"] != "bidding":
            raise IllegalMove([f"no running timer {name!r}"])
        return self._reveal(state)

    def _reveal(self, state):
        bids = {p: state["bids"].get(str(p), 0) for p in range(len(state["players"]))}
        top = max(bids.values())
        winners = [p for p, b in bids.items() if b == top]
        players = [dict(pl, prizes=list(pl["prizes"])) for pl in state["players"]]
        won = None
        if len(winners) == 1 and top > 0:
            won = winners[0]
            players[won]["coins"] -= top
            players[won]["points"] += state["prize"]
            players[won]["prizes"].append([state["round"], state["prize"]])
        over = state["round"] >= state["rounds"]
        return {**state, "players": players, "phase": "over" if over else "prize", "bids": {},
                "timer": None, "prize": None,
                "last": {"round": state["round"], "bids": {str(p): b for p, b in bids.items()}, "winner": won}}

    # -- what the companion asks -------------------------------------------------------------------
    def timers(self, state):
        return {"round": state["timer"]} if state["timer"] else {}

    def legal_moves(self, state, player=None):
        if state["phase"] == "over":
            return Legal([])
        if state["phase"] == "prize":
            if player is not None:
                return Legal([])
            if state["chance"] == "table":
                return Legal([{"type": "start-round", "prize": v} for v in (1, 2, 3)])
            return Legal([{"type": "start-round"}])
        moves = [{"type": "bid", "player": p, "amount": a}
                 for p, pl in enumerate(state["players"]) if str(p) not in state["bids"]
                 and player in (None, p) for a in range(pl["coins"] + 1)]
        if player is None:
            moves.append({"type": "close-bids"})
        return Legal(moves)

    def reveals(self, state, move):
        """The bid that completes the round and "close the bids" reveal every bid; the companion's
        draw of the prize reveals chance."""
        t = move.get("type") if isinstance(move, dict) else None
        if t == "close-bids" or (t == "bid" and len(state["bids"]) == len(state["players"]) - 1):
            return ["it revealed the sealed bids"]
        if t == "start-round" and state["chance"] == "companion":
            return ["the companion drew the prize"]
        return []

    def sealed(self, state):
        """Who has bid this round (never the amount), and the last round's reveal."""
        last = state["last"]
        reveal = None
        if last:
            names = [p["name"] for p in state["players"]]
            values = [{"seat": int(p), "value": b, "text": f"{b} coins"} for p, b in sorted(last["bids"].items())]
            won = f" → {names[last['winner']]} wins" if last["winner"] is not None else " → nobody wins"
            reveal = {"id": f"round-{last['round']}", "values": values,
                      "text": " · ".join(f"{names[v['seat']]} {v['text']}" for v in values) + won}
        seats = [{"seat": i, "sealed": str(i) in state["bids"]} for i in range(len(state["players"]))] \
            if state["phase"] == "bidding" else []
        return {"label": "bids", "seats": seats, "reveal": reveal} if seats or reveal else None

    def phase(self, state):
        """One bidding round is one simultaneous phase; its reveal ends it."""
        return ["bidding", state["round"]] if state["phase"] == "bidding" else None

    def actors(self, state):
        if state["phase"] != "bidding":
            return NOBODY
        return Actors("all", tuple(p for p in range(len(state["players"])) if str(p) not in state["bids"]))

    def public_view(self, state, viewer=None):
        """Bids stay secret until the round is revealed (each player sees their own); the seed never
        leaves the server."""
        bids = {p: (b if viewer == HOST or str(viewer) == p else "sealed") for p, b in state["bids"].items()}
        return {**state, "bids": bids, "seed": None}

    def secret_paths(self, state, seat):
        return [("bids", str(seat))] if str(seat) in state["bids"] else []

    def public_move(self, move, viewer=None):
        if move.get("type") == "bid" and viewer != HOST and viewer != move.get("player"):
            return {**move, "amount": "sealed"}
        return move

    def describe(self, state, move):
        t = move.get("type")
        if t == "bid":
            return f"{state['players'][move['player']]['name']} bids (sealed)."
        if t == "start-round":
            return f"Round {state['round'] + 1} starts."
        return "The bids are closed."

    def result(self, state):
        if state["phase"] != "over":
            return None
        rows = [score_row(p, pl["name"], [(f"Round {r} prize", v) for r, v in pl["prizes"]] or
                          [("No prize", 0)], coins=pl["coins"])
                for p, pl in enumerate(state["players"])]
        return result(leaders(rows, lambda s: s["coins"]), "points", rows)


COUNTER = Game("counter", "Counter", (1, 4), CounterRules(None), None)
SEALED_BID = Game("sealed-bid", "Sealed bid", (2, 4), SealedBidRules(None), None)
TEST_GAMES = {"counter": COUNTER, "sealed-bid": SEALED_BID}
