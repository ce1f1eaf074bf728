"""Tokyo Capsule Hotel at the table (benchmarks/table_replay.py --game capsule_hotel): every move tapped
into the pages.

    .venv/bin/python benchmarks/table_replay.py --game capsule_hotel -v              # the first 4 turns
    .venv/bin/python benchmarks/table_replay.py --game capsule_hotel --turns 24 -v

Two tables: 3 players with the table's own bonus dice (each face entered by hand on the building
owner's phone) and 4 players with the companion rolling them. The first phone creates the table on the
new-table page (names typed, the dice chosen), takes its seat; the others type the invite code on
their home page, join and take their seats; each opens the board (the live ledger and purchase queue).

A turn is one player's go in the purchase queue: joining the queue (after their last purchase the
player puts the seal back at its end: that tap counts toward their next turn), then at its head either
a purchase (declared and completed) or a pass. Round 1's loans (one tap per phone) and each round's
income (the dice entered by hand, then "Pay") are counted apart ("loans", "income": per round) and
printed in the log, not in the per-turn figures.

Choices: a seeded random player. At the head of the queue it picks a purchase among those the rules
allow (companion.games.capsule_hotel.rules: the rules' own samples, one per kind and choice: every lot
board, every colour left, each land, each building), by kind (an entrance with its hotel and capsules
most often, then lots, vending machines, buildings, cemeteries), a pink purchase of 1 to 3 capsules, a
new lot beside its own latest lot; it passes when it can afford nothing, and otherwise now and then
(more often when short of yen). Nobody counts on the head and nobody barters (the count and barter are
measured by their own browser tests). The bonus dice in table mode: a seeded face of each building's
die, tapped on its owner's phone; "Pay the income" on the first phone.

How the player taps (as a person who knows the pages): a ready-made purchase the page offers (a button
that names the whole purchase) when it is the one wanted; else the purchase form: the kind (or its
declare button), then each field whose value is not yet the one wanted, then the button that completes
it. A native confirm box (Pass, before issue 23) is accepted and counted as a tap.
"""
from __future__ import annotations

import json
import re
import time
from collections import Counter

from replay.common import (HEIGHT, NAMES, SNAPS, TRACE, WAIT_S, DeadEnd, Phone, TableDriver, button_texts,  # noqa: F401
                           seeded_tables, starts_with_name, wait_until)

GAMES = [("3 players, table dice", 3, "table"), ("4 players, companion rolls", 4, "companion")]

KIND_WEIGHT = {"entrance": 5, "lot": 3, "capsules": 3, "vending-machine": 3, "building": 2, "cemetery": 1}


IN_VIEW_JS = """e => { const r = e.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }"""


class CapsulePhone(Phone):
    """A phone that does not scroll to an element already wholly on the screen: the head's call sits in
    the pinned bar (position: sticky), which Chromium's scroll-into-view would otherwise move the page
    for although the call is in view."""

    def _act(self, loc, action) -> None:
        from playwright.sync_api import Error
        try:
            shown = loc.evaluate(IN_VIEW_JS)
        except Error:
            shown = False
        if not shown:
            return super()._act(loc, action)
        if SNAPS:
            import os
            self.page.screenshot(path=f"{SNAPS}/{len(os.listdir(SNAPS)):03d}-{self.tally.phase}-{self.name}.png")
        action()
        self.tally.record(0)
        if TRACE:
            with open(TRACE, "a", encoding="utf-8") as f:
                f.write(f"{self.tally.phase}\t{self.name}\t+0\t{loc}\n")


def yen(n: int) -> str:
    return ("−" if n < 0 else "") + f"{abs(n):,} ¥"


class Game(TableDriver):
    game_id = "capsule-hotel"
    phone_class = CapsulePhone
    board_ready = "window.tkLink && tkLink.table"
    page_seq_js = "window.tkLink && tkLink.table ? tkLink.table.seq : null"

    def __init__(self, browser, server, services, players, mode, seed, turns, log=None):
        super().__init__(browser, server, services, players, mode, seed, turns, log)
        for ph in self.phones:
            ph.page.on("dialog", lambda d, ph=ph: self.dialog(ph, d))
        self.data = self.game.data
        self.turn_no: Counter = Counter()        # (round, seat) -> purchase turns begun
        self.kinds: dict[str, str] = {}          # turn label -> "purchase" | "pass"
        self.other: Counter = Counter()          # "loans", "income R1", ...: taps
        self.other_px: Counter = Counter()

    def options(self, host: Phone, page) -> None:
        radio = page.locator(f"input[name=ch-dice][value={self.mode}]")
        if radio.count() and not radio.is_checked():
            label = page.locator("label", has=radio)
            host.tap(label if label.count() else radio)

    # ---- a native dialog (confirm): accepted, and counted as the tap it takes ----
    def dialog(self, phone: Phone, d) -> None:
        self.tally.record(0)
        if TRACE:
            with open(TRACE, "a", encoding="utf-8") as f:
                f.write(f"{self.tally.phase}\t{phone.name}\t+0\tnative {d.type}: {d.message}\n")
        d.accept()

    def taken(self, phone: Phone, before: int, what: str) -> None:
        page = phone.page

        def done():
            if self.seq() > before:
                return True
            bad = page.locator("#msg.bad")
            if bad.count() and bad.first.is_visible() and bad.first.inner_text().strip():
                raise DeadEnd(f"the page refused {what}: {bad.first.inner_text()}")
            return False
        wait_until(done, what=what)
        self.moves += 1

    # ---- the game ----
    def play(self) -> dict:
        t0 = time.perf_counter()
        self.setup()
        self.log(f"  table {self.code}: {self.tally.taps['setup']} taps to join and open the board")
        played = 0
        while True:
            s = self.state()
            if s["phase"] == "over":
                self.ended = True
                break
            if self.max_turns is not None and played >= self.max_turns:
                break
            if s["phase"] == "loans":
                self.loans(s)
            elif s["phase"] == "income":
                self.income(s)
            elif s["phase"] == "purchase":
                played += self.purchase_turn(s)
            else:
                raise DeadEnd(f"phase {s['phase']}")
        seconds = time.perf_counter() - t0
        errors = [e for ph in self.phones for e in ph.errors]
        turns = [k for k in self.tally.taps if k in self.kinds]
        # a join whose turn never came (the limit reached first, or the run stopped): its tap is
        # counted with the loans and income, not as a turn
        for k in [k for k in self.tally.taps if k.startswith("R") and k not in self.kinds]:
            self.tally.taps["joins left " + k.split()[0]] += self.tally.taps.pop(k)
            self.tally.scroll_px["joins left " + k.split()[0]] += self.tally.scroll_px.pop(k, 0)
        buys = [k for k in turns if self.kinds.get(k) == "purchase"]
        passes = [k for k in turns if self.kinds.get(k) == "pass"]
        other = [k for k in self.tally.taps if k.startswith(("loans", "income", "joins left"))]
        out = {"code": self.code, "turns": len(turns), "ended": self.ended, "moves": self.moves,
               "setup_taps": self.tally.taps["setup"], "setup_screens": self.tally.scroll_px["setup"] / HEIGHT,
               "taps": [self.tally.taps[k] for k in turns],
               "screens": [self.tally.scroll_px[k] / HEIGHT for k in turns],
               "purchase_taps": [self.tally.taps[k] for k in buys],
               "purchase_screens": [self.tally.scroll_px[k] / HEIGHT for k in buys],
               "pass_taps": [self.tally.taps[k] for k in passes],
               "other": {k: (self.tally.taps[k], round(self.tally.scroll_px[k] / HEIGHT, 2)) for k in other},
               "seconds": seconds, "errors": errors}
        self.report(out)
        return out

    def report(self, r: dict) -> None:
        mean = lambda xs: sum(xs) / len(xs) if xs else 0.0       # noqa: E731
        self.log(f"  purchases: {len(r['purchase_taps'])}, taps each {r['purchase_taps']} "
                 f"(mean {mean(r['purchase_taps']):.2f}), screens mean {mean(r['purchase_screens']):.2f}")
        self.log(f"  passes: {len(r['pass_taps'])}, taps each {r['pass_taps']} (mean {mean(r['pass_taps']):.2f})")
        self.log("  loans and income (taps, screens): " +
                 ", ".join(f"{k} {t}/{s}" for k, (t, s) in r["other"].items()))

    # ---- round 1's loans: every phone taps its amount ----
    def loans(self, s: dict) -> None:
        self.tally.phase = "loans"
        for p in range(self.n):
            if str(p) in s["loan_choices"]:
                continue
            amount = self.rng.choice([o.amount for o in self.data.loan.option])
            phone = self.phones[p]
            self.synced(phone)
            before = self.seq()
            box = phone.page.locator("#loan-buttons")
            k = [i for i, (t, _p, d, v) in enumerate(button_texts(box)) if v and not d and t.startswith(yen(amount))]
            if not k:
                raise DeadEnd(f"no loan button for {yen(amount)} ({button_texts(box)})")
            phone.tap(box.locator("button").nth(k[0]))
            self.taken(phone, before, f"the loan {amount}")
            s = self.state()

    # ---- the income: the dice (table mode: on each building owner's phone), then Pay ----
    def income(self, s: dict) -> None:
        self.tally.phase = f"income R{s['round']}"
        from companion.games.capsule_hotel.rules import engine as E
        if self.mode == "table":
            for b in E.rolling_buildings(self.data, s):
                if b["id"] in self.state()["rolls"]:
                    continue
                kind = self.data.building[b["kind"]]
                face = kind.faces.index(self.rng.choice(list(kind.rolled_faces)))
                owner = s["lands"][b["land"]]["owner"]
                phone = self.phones[owner]
                self.synced(phone)
                before = self.seq()
                row = phone.page.locator("#rolls > *", has_text=re.compile(rf"\b{b['id']}\b"))
                if not row.count():
                    raise DeadEnd(f"no die to enter for {b['id']}")
                buttons = row.first.locator("button")
                if buttons.count() != len(kind.faces):
                    raise DeadEnd(f"{b['id']}: {buttons.count()} face buttons, not {len(kind.faces)}")
                phone.tap(buttons.nth(face))
                self.taken(phone, before, f"the die of {b['id']}")
        phone = self.phones[0]
        self.synced(phone)
        before = self.seq()
        pay = phone.page.locator("#pay")
        phone.tap(pay)
        self.taken(phone, before, "pay the income")

    # ---- one purchase turn ----
    def label(self, s: dict, p: int) -> str:
        return f"R{s['round']} {NAMES[p]} #{self.turn_no[(s['round'], p)] + 1}"

    def purchase_turn(self, s: dict) -> int:
        """The head of the queue purchases or passes; with an empty queue, a player whose seal is in
        front of them joins first (or passes). Returns 1 when a turn was played."""
        if s["queue"]:
            p = s["queue"][0]
        else:
            front = [i for i, pl in enumerate(s["players"]) if pl["seal"] == "front"]
            if not front:
                raise DeadEnd("an empty queue and no seal in front")
            p = front[0]
        label = self.label(s, p)
        self.tally.phase = label
        phone = self.phones[p]
        choice = self.choose(s, p)
        if choice is None:                       # nothing affordable, or a pass: from the queue or in front
            self.kinds[label] = "pass"
            self.do_pass(phone, p)
        else:
            self.kinds[label] = "purchase"
            if p not in s["queue"]:
                self.join(phone, p)
            self.buy(phone, choice)
            s2 = self.state()
            # back at the end of the queue at once, if the player means to buy again: the tap counts
            # toward their next turn
            if s2["phase"] == "purchase" and not s2["limit_reached"] and s2["players"][p]["seal"] == "front" \
                    and s2["players"][p]["yen"] + 500 * s2["players"][p]["coupons"] >= 1000:
                self.turn_no[(s["round"], p)] += 1
                self.tally.phase = self.label(s2, p)
                self.join(phone, p)
                return 1
        self.turn_no[(s["round"], p)] += 1
        return 1

    def choose(self, s: dict, p: int) -> dict | None:
        from companion.games.capsule_hotel.rules import _purchase_samples
        rules = self.game.rules
        probe = s
        if p not in s["queue"]:                  # what it could buy at the head
            probe = json.loads(json.dumps(s))
            probe["queue"] = [p]
            probe["players"][p]["seal"] = "queue"
        samples = _purchase_samples(rules, probe, p)
        pl = s["players"][p]
        if not samples:
            return None
        if self.rng.random() < 0.12 + (0.25 if pl["yen"] < 3000 else 0.0):
            return None
        kinds = sorted({m["item"] for m in samples})
        kind = self.rng.choices(kinds, weights=[KIND_WEIGHT[k] for k in kinds])[0]
        m = dict(self.rng.choice([m for m in samples if m["item"] == kind]))
        if kind == "lot":
            own = [lid for lid in s["lands"] if s["lands"][lid]["owner"] == p and s["lands"][lid]["parent"] is None]
            if own:
                m["adjoins"] = [own[-1]]
        if kind == "capsules" and m["colour"] == "pink":
            m["count"] = self.rng.randint(1, 3)
            while m["count"] > 1 and rules.validate(probe, m):
                m["count"] -= 1
        if rules.validate(probe, m):
            return None
        return m

    def join(self, phone: Phone, p: int) -> None:
        self.synced(phone)
        before = self.seq()
        phone.tap(phone.page.locator("#join"))
        self.taken(phone, before, "join the queue")

    def do_pass(self, phone: Phone, p: int) -> None:
        self.synced(phone)
        before = self.seq()
        page = phone.page
        phone.tap(page.locator("#pass"))
        # an in-page confirm (after issue 23): its Yes
        try:
            wait_until(lambda: self.seq() > before or page.locator("#pass-yes").is_visible(), 3, "the pass")
        except TimeoutError:
            pass
        if self.seq() == before and page.locator("#pass-yes").is_visible():
            phone.tap(page.locator("#pass-yes"))
        self.taken(phone, before, "pass")

    # ---- entering a purchase ----
    def buy(self, phone: Phone, m: dict) -> None:
        page = phone.page
        self.synced(phone)
        want = {k: v for k, v in m.items() if k not in ("type", "player")}
        before = self.seq()
        # the page that lists the purchases of a declared kind as buttons (after issue 23): declare the
        # kind (one tap), then the purchase's button, after setting its chips (neighbours, land, side,
        # pink count) if they are not preset to it
        if page.locator("#purchase-options").count():
            declare = page.locator(f"#declare-box button[data-kind='{want['item']}']")
            word = re.compile(r"\b" + re.escape(self.kind_word(want["item"])), re.I)
            mine = page.locator("#declare-box #declare", has_text=word)
            if mine.count() and mine.first.is_visible():
                declare = mine
            if declare.count() and declare.first.is_visible():
                phone.tap(declare.first)
                self.taken(phone, before, f"declare {want['item']}")
                self.synced(phone)
                before = self.seq()
                page.locator("#purchase-options").wait_for(state="visible")
            for _step in range(12):
                b = self.offer(page, want)
                if b is not None:
                    phone.tap(b)
                    self.taken(phone, before, f"the purchase {want}")
                    return
                if not self.set_chip(phone, want):
                    break
        self.form(phone, want)
        buy = page.locator("#buy")
        wait_until(lambda: buy.is_visible() and buy.is_enabled(), 5, "the purchase button")
        phone.tap(buy)
        self.taken(phone, before, f"the purchase {want}")

    @staticmethod
    def kind_word(item: str) -> str:
        return {"lot": "Lot", "capsules": "Capsules", "vending-machine": "Vending machine", "cemetery": "Cemetery",
                "entrance": "Entrance", "building": "Building"}[item]

    @staticmethod
    def offer(page, want: dict):
        offers = page.locator("#purchase-options button[data-move]")
        for k in range(offers.count()):
            b = offers.nth(k)
            if b.is_visible() and not b.is_disabled() and json.loads(b.get_attribute("data-move")) == want:
                return b
        return None

    def set_chip(self, phone: Phone, want: dict) -> bool:
        """One tap on a chip that brings the offered purchases closer to `want`; False if none does."""
        page = phone.page
        chips = page.locator("#purchase-options button[data-opt]")
        rows = [(chips.nth(k), chips.nth(k).get_attribute("data-opt"), chips.nth(k).get_attribute("data-val"),
                 chips.nth(k).get_attribute("aria-pressed") == "true") for k in range(chips.count())]
        for loc, key, val, pressed in rows:
            if key == "adjoins" and (val in want.get("adjoins", [])) != pressed:
                phone.tap(loc)
                return True
            if key in ("land", "side") and key in want and val == want[key] and not pressed:
                phone.tap(loc)
                return True
        if want.get("colour") == "pink" and want["item"] == "capsules":
            shown = [json.loads(b.get_attribute("data-move")) for b in
                     page.locator("#purchase-options button[data-move]").all()]
            now = next((m.get("count") for m in shown if m.get("colour") == "pink"), None)
            if now is not None and now != want["count"]:
                for loc, key, val, _p in rows:
                    if key == "count" and (val == "+1") == (want["count"] > now) and loc.is_enabled():
                        phone.tap(loc)
                        return True
        return False

    FIELDS = [  # (label pattern, key in the move, kind of input)
        (r"^What", "item", "select"), (r"^Lot board", "board", "select"), (r"^Shares part", "adjoins", "checks"),
        (r"^Colour", "colour", "select"), (r"^Pink capsules", "count", "number"),
        (r"^On your land", "land", "select"), (r"^Building", "building", "select"),
        (r"^Attraction card side", "side", "select"), (r"^Capsules on it", "capsules", "number"),
        (r"^Hotel colour", "colour", "select"), (r"^Capsules in the hotel", "capsules", "number"),
        (r"^Floors", "floors", "number"), (r"^Coupons to use", "coupons", "number"),
    ]

    def form(self, phone: Phone, want: dict) -> None:
        """The purchase form: declare the kind if the page asks it first, then set each field whose
        value is not the one wanted (read again after every change: the form is redrawn)."""
        page = phone.page
        declare = page.locator(f"#declare-box button[data-kind='{want['item']}']")
        if not page.locator("#purchase-form").is_visible() and declare.count() and declare.first.is_visible():
            before = self.seq()
            phone.tap(declare.first)
            self.taken(phone, before, f"declare {want['item']}")
            self.synced(phone)
        for _step in range(20):
            todo = self.next_field(page, want)
            if todo is None:
                return
            loc, kind, value = todo
            if kind == "select":
                phone._act(loc, lambda loc=loc, value=value: loc.select_option(str(value)))
            elif kind == "number":
                phone.type(loc, str(value))
                loc.dispatch_event("change")
            elif kind == "check":
                phone.tap(loc)
            time.sleep(0.05)
        raise DeadEnd(f"the form did not take {want}")

    def next_field(self, page, want: dict):
        fields = page.locator("#purchase-form label.ch-field")
        for k in range(fields.count()):
            f = fields.nth(k)
            if not f.is_visible():
                continue
            text = f.locator("span.small").first.inner_text().strip()
            for rx, key, kind in self.FIELDS:
                if not re.search(rx, text):
                    continue
                if key == "item":
                    wanted = want["item"]
                elif key == "coupons":
                    wanted = want.get("coupons", 0)
                elif key == "count":
                    wanted = want.get("count", 1)
                elif key == "capsules":
                    wanted = want.get("capsules", 0)
                elif key == "floors":
                    wanted = want.get("floors", 1)
                elif key == "side":
                    wanted = want.get("side", "A")
                else:
                    wanted = want.get(key)
                if kind == "checks":
                    boxes = f.locator("input[type=checkbox]")
                    for j in range(boxes.count()):
                        lot = boxes.nth(j).locator("xpath=..").inner_text().strip()
                        if boxes.nth(j).is_checked() != (lot in (wanted or [])):
                            return boxes.nth(j).locator("xpath=.."), "check", None
                    break
                ctl = f.locator("select, input").first
                if wanted is None or not ctl.count():
                    break
                if str(ctl.input_value()) != str(wanted):
                    return ctl, kind, wanted
                break
        return None


play_game = Game.run
