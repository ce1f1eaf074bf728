"""Tokyo Jutaku at the table (benchmarks/table_replay.py --game jutaku): every move tapped into the pages.

    .venv/bin/python benchmarks/table_replay.py --game jutaku              # every table, its first 4 turns
    .venv/bin/python benchmarks/table_replay.py --game jutaku --full       # every table to its end
    .venv/bin/python benchmarks/table_replay.py --game jutaku --tables 3 --turns 2 -v

The tables: Tokyo Jutaku on 2 and on 4 phones; Bottle Bonus on 3 phones with the drinks drawn from the
box at the table (the drawer enters them) and drawn by the companion; Izakaya with the grid and the first
turn order from the box (the order entered) on 3 phones and from the companion on 4; Countdown on 2.

What a turn is: Jutaku is played in rounds, everyone at once (a real-time game), not in turns. A round is:
Tokyo Jutaku and Bottle Bonus, from Begin! to the last architect's move (the drinks spent before it, the
building, STOP!, the verdicts, the drinks drawn and grabbed, every player's move or "keep"); Izakaya, one
bidding and its action phase (every player's sealed bid, then 3 actions each); Countdown, one floor (Begin!
for the first, then each player's pieces). A **turn** is one round per player: the taps and the scrolling of
a round on all the phones, divided by the players. The taps of a whole round are reported too (-v, and
"round_taps" in the result).

Setup (counted as set-up): the first phone opens the home page, creates the table (names typed, the
variant and who draws chosen), takes its seat and shows the invite code; every other phone types the code,
joins and takes its seat; each opens the board. Then Jutaku's architects (each player taps a starting card
on their phone's map, their own token as it comes) or Izakaya's first turn order drawn at the table (the
host phone taps the names in the order the discs come out).

Choices: a seeded random player. Who taps Begin!: any phone. Who calls STOP!: one player (now and then two
at the same moment); the next player round the table checks it: Confirm (4 in 5) or Reject (then everyone
builds on and someone calls STOP! again). Movement: a player who completed moves (a card the rules allow,
highlighted on the map); the others keep their card or move (even odds). Bottle Bonus: drinks spent now and
then (black, white, blue before a round, then Ready; mint, red while building; purple with a move), the
drinks drawn (table: the drawer taps the colours drawn from the driver's own box, seeded, then Enter; the
companion: nothing to tap), every other player grabs one (or nothing). Izakaya: bids from the quick
amounts, then actions picked from the moves the rules allow at that moment (read in-process from
`services.tables.state(code)`: reading only) and tapped on the grid as a person would: the card, edge or
corner first, then the action's button. Countdown: each player taps the pieces they added (1 to 4, fewer
on later floors, now and then none: out) and Enter.

Measured: taps (clicks + fills) and scrolling (before every tap the element is scrolled into view
explicitly: |scrollY after - scrollY before|, summed, in screens of 844 px), as common.py counts them. The
page's own scrolling (it brings the move at hand into view when the phase changes) is not counted.
"""
from __future__ import annotations

import re
import time

from replay.common import (HEIGHT, NAMES, WAIT_S, DeadEnd, Phone, TableDriver, button_texts, page_seq,  # noqa: F401
                           seeded_tables, starts_with_name, wait_until)

GAMES = [("2 players, Tokyo Jutaku", 2, "jutaku"),
         ("4 players, Tokyo Jutaku", 4, "jutaku"),
         ("3 players, Bottle Bonus, table draws", 3, "bottle/table"),
         ("3 players, Bottle Bonus, companion", 3, "bottle/comp"),
         ("3 players, Izakaya, table draws", 3, "izakaya/table"),
         ("4 players, Izakaya, companion", 4, "izakaya/comp"),
         ("2 players, Countdown", 2, "countdown")]

VARIANT_LABEL = {"jutaku": "Tokyo Jutaku.", "bottle": "Bottle Bonus.", "izakaya": "Izakaya.",
                 "countdown": "Countdown."}


class Game(TableDriver):
    game_id = "jutaku"

    def __init__(self, browser, server, services, players: int, mode: str, seed: int, turns: int | None,
                 log=None):
        super().__init__(browser, server, services, players, mode, seed, turns, log)
        self.variant, _, chance = mode.partition("/")
        self.chance = "companion" if chance == "comp" else "table"
        self.rules = self.game.rules
        self.data = self.game.data
        self.rounds = 0

    def log_result(self, r: dict) -> None:
        self.log(f"  taps per round (all phones): {r['round_taps']}")

    def options(self, host: Phone, page) -> None:
        variant = page.locator("label", has=page.locator(f"input[name=jt-mode][value={self.variant}]"))
        if not page.locator(f"input[name=jt-mode][value={self.variant}]").is_checked():
            host.tap(variant)
        if self.variant in ("bottle", "izakaya") and self.chance == "companion":
            host.tap(page.locator("#jt-chance"))

    # ---- tapping ----
    def tap_and_wait(self, phone: Phone, loc, what: str, moves: int = 1) -> None:
        """Tap `loc` (a button that sends a move) and wait until the server has taken it."""
        before = self.seq()
        phone.tap(loc)

        def taken():
            if self.seq() >= before + moves:
                return True
            bad = phone.page.locator("#msg.bad")
            if bad.count() and bad.first.is_visible() and bad.first.inner_text().strip():
                raise DeadEnd(f"the page refused {what}: {bad.first.inner_text()}")
            return False
        wait_until(taken, what=what)
        self.moves += moves

    def button(self, scope, rx: str):
        """The first visible, enabled button of `scope` whose label matches `rx` (waits a moment for it)."""
        end = time.monotonic() + WAIT_S
        while time.monotonic() < end:
            for k, (t, _p, disabled, visible) in enumerate(button_texts(scope)):
                if visible and not disabled and re.search(rx, t, re.I):
                    return scope.locator("button").nth(k)
            time.sleep(0.05)
        shown = [t for t, *_ in button_texts(scope)]
        raise DeadEnd(f"no button {rx!r} (offered: {shown[:30]})")

    # ---- the game ----
    def play(self) -> dict:
        t0 = time.perf_counter()
        self.setup()
        if self.variant in ("jutaku", "bottle"):
            self.architects()
        elif self.variant == "izakaya" and self.chance == "table":
            self.turn_order()
        self.log(f"  table {self.code}: {self.tally.taps['setup']} set-up taps")
        while True:
            s = self.state()
            if s["phase"] == "over":
                self.ended = True
                break
            if self.max_turns is not None and self.rounds >= self.max_turns:
                break
            self.rounds += 1
            self.tally.phase = f"round {self.rounds}"
            {"jutaku": self.jutaku_round, "bottle": self.jutaku_round, "izakaya": self.izakaya_round,
             "countdown": self.countdown_round}[self.variant]()
            k = self.tally.phase
            self.log(f"  {k}: {self.tally.taps[k]} taps, {self.tally.scroll_px[k] / HEIGHT:.2f} screens")
        seconds = time.perf_counter() - t0
        errors = [e for ph in self.phones for e in ph.errors]
        rounds = [k for k in self.tally.taps if k != "setup"]
        return {"code": self.code, "turns": len(rounds), "ended": self.ended, "moves": self.moves,
                "setup_taps": self.tally.taps["setup"], "setup_screens": self.tally.scroll_px["setup"] / HEIGHT,
                "taps": [self.tally.taps[k] / self.n for k in rounds],
                "screens": [self.tally.scroll_px[k] / HEIGHT / self.n for k in rounds],
                "round_taps": [self.tally.taps[k] for k in rounds],
                "round_screens": [self.tally.scroll_px[k] / HEIGHT for k in rounds],
                "seconds": seconds, "errors": errors}

    # ---- Tokyo Jutaku and Bottle Bonus ----
    def map_card(self, phone: Phone, site: str):
        return phone.page.locator(f"#map button.jt-cell[data-site='{site}']")

    def architects(self) -> None:
        """Each player taps a starting card of the outer ring on their own phone's map."""
        taken = set()
        for p in self.rng.sample(range(self.n), self.n):
            legal = [m for m in self.rules.legal_moves(self.state(), p).moves if m["type"] == "start"]
            m = self.rng.choice([m for m in legal if m["site"] not in taken] or legal)
            taken.add(m["site"])
            phone = self.phones[p]
            self.synced(phone)
            self.tap_and_wait(phone, self.map_card(phone, m["site"]), f"{NAMES[p]} starts on {m['site']}")

    def drink_name(self, d: str) -> str:
        return next(x.name for x in self.data.drinks if x.id == d)

    def jutaku_round(self) -> None:
        s = self.state()
        if s["phase"] != "ready":
            raise DeadEnd(f"a round starts in phase {s['phase']}")
        self.before_round()
        if self.state()["phase"] == "ready":
            phone = self.phones[self.rng.randrange(self.n)]
            self.synced(phone)
            self.tap_and_wait(phone, phone.page.get_by_role("button", name="Begin!", exact=True), "Begin!")
        self.building()
        s = self.state()
        if s["phase"] == "over":
            return
        if s["phase"] == "draw":
            self.draw_drinks()
        if self.state()["phase"] == "grab":
            self.grab()
        while self.state()["phase"] == "move":
            self.move()

    def before_round(self) -> None:
        """Bottle Bonus: each player holding a drink to spend now spends one (even odds) and taps Ready."""
        for _ in range(3 * self.n):
            waiting = self.main_deciding()
            if not waiting:
                return
            p = waiting[0]
            phone = self.phones[p]
            spends = [m for m in self.rules.legal_moves(self.state(), p).moves if m["type"] == "spend"]
            self.synced(phone)
            if spends and self.rng.random() < 0.5:
                m = self.rng.choice(spends)
                self.tap_and_wait(phone, phone.page.locator(f"#spend button[data-drink='{m['drink']}']"),
                                  f"{NAMES[p]} spends {m['drink']}")
                self.synced(phone)
                if p not in self.main_deciding():       # the drink spent was the last one to spend now
                    continue
            self.tap_and_wait(phone, phone.page.get_by_role("button", name="Ready", exact=True), f"{NAMES[p]} ready")
        raise DeadEnd("the drinks before the round took too long")

    def main_deciding(self) -> list[int]:
        from companion.games.jutaku.rules import main
        return main.deciding(self.rules, self.state())

    def building(self) -> None:
        """Everyone builds; now and then a mint or red drink; one player (now and then two) calls
        STOP!; the next player round the table confirms or rejects; until a building is confirmed."""
        for _attempt in range(12):
            s = self.state()
            if s["phase"] != "building":
                return
            for p in range(self.n):
                spends = [m for m in self.rules.legal_moves(s, p).moves if m["type"] == "spend"]
                if spends and self.rng.random() < 0.3:
                    m = self.rng.choice(spends)
                    phone = self.phones[p]
                    self.synced(phone)
                    self.tap_and_wait(phone, phone.page.locator(f"#spend button[data-drink='{m['drink']}']"),
                                      f"{NAMES[p]} spends {m['drink']}")
                    s = self.state()
            can = [p for p in range(self.n) if s["players"][p]["site"] is not None]
            k = 2 if len(can) > 1 and self.rng.random() < 0.1 else 1
            for p in self.rng.sample(can, k):
                phone = self.phones[p]
                self.synced(phone)
                self.tap_and_wait(phone, phone.page.locator("#stop"), f"{NAMES[p]} STOP!")
            for b in list(self.state()["stops"]):
                checker = (b + 1) % self.n
                ok = self.n == 1 or self.rng.random() < 0.8
                phone = self.phones[checker]
                self.synced(phone)
                card = phone.page.locator(f"[data-builder='{b}']")
                self.tap_and_wait(phone, self.button(card, "^Confirm$" if ok else "^Reject$"),
                                  f"{NAMES[checker]} {'confirms' if ok else 'rejects'} {NAMES[b]}")
        raise DeadEnd("nobody completed a building in 12 stops")

    def draw_drinks(self) -> None:
        """Table chance: the drawer takes drinks from the box (the driver's draw, seeded, from what the
        box holds) and taps their colours, then Enter."""
        s = self.state()
        drawer = s["completed"][0]
        pool = sorted(d for d, c in s["box"].items() for _ in range(c))
        want = min(self.n - 1, len(pool))
        drawn = self.rng.sample(pool, want)
        phone = self.phones[drawer]
        self.synced(phone)
        box = phone.page.locator("#controls")
        for d in drawn:
            phone.tap(self.button(box, "^" + re.escape(self.drink_name(d)) + "$"))
        self.tap_and_wait(phone, self.button(box, "^Enter$"), f"{NAMES[drawer]} enters {drawn}")

    def grab(self) -> None:
        s = self.state()
        drawer = s["completed"][0]
        for p in self.rng.sample([p for p in range(self.n) if p != drawer], self.n - 1):
            moves = [m for m in self.rules.legal_moves(self.state(), p).moves if m["type"] == "grab"]
            if not moves:
                continue
            drinks = [m for m in moves if m["drink"]]
            m = self.rng.choice(drinks) if drinks and self.rng.random() < 0.85 else moves[-1]
            phone = self.phones[p]
            self.synced(phone)
            label = self.drink_name(m["drink"]) if m["drink"] else "Nothing"
            self.tap_and_wait(phone, self.button(phone.page.locator("#controls"), "^" + re.escape(label) + "$"),
                              f"{NAMES[p]} grabs {label}")

    def move(self) -> None:
        s = self.state()
        p = s["movers"][s["mover"]]
        legal = self.rules.legal_moves(s, p).moves
        moves = [m for m in legal if m["type"] == "move" and not m.get("purple")]
        purple = [m for m in legal if m["type"] == "move" and m.get("purple")]
        stay = [m for m in legal if m["type"] == "stay"]
        phone = self.phones[p]
        self.synced(phone)
        if stay and (not moves or self.rng.random() < 0.5):
            self.tap_and_wait(phone, phone.page.get_by_role("button", name="Keep my site card"),
                              f"{NAMES[p]} keeps the card")
            return
        m = self.rng.choice(purple) if purple and self.rng.random() < 0.5 else self.rng.choice(moves or purple)
        self.tap_and_wait(phone, self.map_card(phone, m["site"]), f"{NAMES[p]} moves to {m['site']}")

    # ---- Countdown ----
    def countdown_round(self) -> None:
        s = self.state()
        if s["phase"] == "ready":
            phone = self.phones[self.rng.randrange(self.n)]
            self.synced(phone)
            self.tap_and_wait(phone, phone.page.get_by_role("button", name="Begin!", exact=True), "Begin!")
            s = self.state()
        floor = s["floor"]
        for p in self.rng.sample(range(self.n), self.n):
            s = self.state()
            if s["floor"] != floor or s["phase"] == "over":
                break
            pl = s["players"][p]
            if pl["out"] or pl["entered"] is not None:
                continue
            left = s["supply"] - sum(q["entered"] or 0 for q in s["players"])
            top = max(0, min(left, 5 - min(floor, 4)))
            n = 0 if self.rng.random() < 0.08 * floor or not top else self.rng.randint(1, top)
            phone = self.phones[p]
            self.synced(phone)
            self.enter_pieces(phone, n)

    def enter_pieces(self, phone: Phone, n: int) -> None:
        """The pieces added on this floor: the entry's controls as the page offers them."""
        page = phone.page
        box = page.locator("#pieces-entry")
        chip = box.locator(f"button[data-pieces='{n}']")
        if chip.count():
            if chip.get_attribute("aria-pressed") != "true":
                phone.tap(chip)
        else:
            plus = box.get_by_role("button", name="+", exact=True)
            for _ in range(n):
                phone.tap(plus)
        if n == 0:
            phone.tap(self.button(box, r"^Enter"))
            self.tap_and_wait(phone, self.button(page.locator("#pieces-entry"), r"^Yes"), f"{phone.name}: out")
        else:
            self.tap_and_wait(phone, self.button(box, r"^Enter"), f"{phone.name}: {n} pieces")

    # ---- Izakaya ----
    def turn_order(self) -> None:
        """The first turn order drawn at the table: the host phone taps the names as the discs come out."""
        order = self.rng.sample(range(self.n), self.n)
        phone = self.phones[0]
        self.synced(phone)
        form = phone.page.locator("#order-form")
        for p in order[:-1]:
            phone.tap(self.button(form, "^" + NAMES[p] + "$"))
        self.tap_and_wait(phone, self.button(phone.page.locator("#order-form"), "^Enter this order$"),
                          f"turn order {order}")

    def izakaya_round(self) -> None:
        s = self.state()
        if s["phase"] != "bid":
            raise DeadEnd(f"an Izakaya round starts in phase {s['phase']}")
        no = s["phase_no"]
        for p in self.rng.sample(range(self.n), self.n):
            self.bid(p)
        while True:
            s = self.state()
            if s["phase"] != "actions" or s["phase_no"] != no:
                break
            self.action(s)

    def bid(self, p: int) -> None:
        s = self.state()
        yen = s["players"][p]["yen"]
        coin = self.data.izakaya.coin
        amounts = [a for a in (0, coin, 2 * coin, 3 * coin, 5 * coin) if a < yen] + [yen]
        amount = self.rng.choice(amounts[:4])
        phone = self.phones[p]
        self.synced(phone)
        box = phone.page.locator("#bid-box")
        chip = box.locator(f"button[data-amount='{amount}']")
        if chip.get_attribute("aria-pressed") != "true":
            phone.tap(chip)
        self.tap_and_wait(phone, self.button(phone.page.locator("#bid-box"), "^Seal my bid"),
                          f"{NAMES[p]} bids {amount}")

    def action(self, s: dict) -> None:
        from companion.games.jutaku.rules.izakaya import current
        p = current(s)
        legal = self.rules.legal_moves(s, p).moves
        by = {}
        for m in legal:
            by.setdefault(m["type"], []).append(m)
        weights = {"build": 4, "claim": 3, "bottle": 3, "price": 1, "pass": 1}
        kinds = [k for k in by if k != "pass"] or ["pass"]
        kind = self.rng.choices(kinds, [weights[k] for k in kinds])[0]
        m = self.rng.choice(by[kind])
        phone = self.phones[p]
        self.synced(phone)
        page = phone.page
        what = f"{NAMES[p]}: {m}"
        grid = page.locator("#grid")
        if kind == "pass":
            self.tap_and_wait(phone, self.button(page.locator("#act"), r"^(Pass|No free piece)"), what)
        elif kind == "build":
            c, r = m["site"]
            phone.tap(grid.locator(f"[data-pick='card:{c},{r}']"))
            have = s["buildings"].get(f"{c},{r}", [])
            b = m.get("building", 0)
            if b >= len(have):
                rx = r"^(Build here|Start a 2nd building)"
            elif m["floors"] == have[b]["floors"]:
                rx = ("2nd building: " if b else "(1st building: )?") + r"piece on its top floor"
            else:
                rx = ("2nd building: " if b else "(1st building: )?") + r"new floor"
            self.tap_and_wait(phone, self.button(page.locator("#act"), "^" + rx), what)
        elif kind == "claim":
            (a, b), site = m["edge"], m["site"]
            other = b if site == a else a
            d = {(-1, 0): "left", (1, 0): "right", (0, -1): "top", (0, 1): "bottom"}[
                (other[0] - site[0], other[1] - site[1])]
            phone.tap(grid.locator(f"[data-pick='card:{site[0]},{site[1]}']"))
            self.tap_and_wait(phone, self.button(page.locator("#act"), r"^Claim · disc " + d), what)
        elif kind == "bottle":
            x, y = m["corner"]
            phone.tap(grid.locator(f"[data-pick='corner:{x},{y}']"))
            self.tap_and_wait(phone, page.locator(f"#act > .jt-drinks button[data-drink='{m['drink']}'], "
                                                  f"#act > .jt-drink-grid button[data-drink='{m['drink']}']"), what)
        elif kind == "price":
            phone.tap(page.locator(f"#price button[data-drink='{m['from']}']"))
            self.tap_and_wait(phone, page.locator(f"#price button[data-drink='{m['to']}']"), what)


play_game = Game.run
