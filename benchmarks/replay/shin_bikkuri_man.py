"""Shin Bikkuri Man at the table (benchmarks/table_replay.py --game shin_bikkuri_man): every move tapped
into the pages.

    .venv/bin/python benchmarks/table_replay.py --game shin_bikkuri_man             # the first 4 turns
    .venv/bin/python benchmarks/table_replay.py --game shin_bikkuri_man --full      # to the end

Tables: 2 players with the table's own deck, 3 players with the table's own deck, 2 players with the
companion's deal. The first phone opens the home page, creates the table (names typed, the deck chosen),
takes its seat and shows the invite code; every other phone types the code on its home page, joins and
takes its seat; each opens the board. Then turn after turn, the player whose move it is taps it into their
own phone's board page (Playwright clicks and fills only; no move is sent by script).

Choices: a seeded greedy player picks each move from the moves the rules allow at that moment (the state is
read from the server in-process: reading only): it builds the tile that scores most (then the largest,
the lowest; among places as good, the tile as it lies, with the fewest quarter turns and
unflipped, as a person would) when it can build one of 3 squares or more, or one that scores, or its
hand is nearly full; otherwise it takes the pair of cards that best matches its hand. It never declares an ability; a
coat-of-arms action places a white tile where it scores most, else takes an ability tile, else forgoes.
Discards: the cards of the colours it holds fewest of.

Table-deck mode: the driver keeps the table's physical deck (a seeded shuffle of the game's cards, the end
card shuffled into the bottom cards when the rules say; the discard pile shuffled into a new deck when it
runs out), lays out the harbour and deals the starting hands from it, and the player who took cards
reveals the refill. The new tables' default (cards named when paid, what the page's "Our own deck"
makes): nothing dealt or revealed is tapped in; the driver keeps the table as
it lies (every card's colour: a local copy of the game played with every card entered, its rules'
"entered" way, fed the same deck) and the player chooses from it exactly as before (so the same seed
plays the same game); a build's payment is the page's preset (the tile's colour), a discard taps the
colours; when the refill shows the end card, the player who revealed it taps "The END card came up".
REPLAY_SBM_CARDS=entered in the environment plays the former way: the host's phone enters the harbour,
each player their own hand, and the player who took cards taps the refill in.
Companion mode: the table is created with a seeded shuffle (the server's random seed is replaced
in-process, so the runs are reproducible).

How the player taps (as a person who knows the pages would): cards are taken by a tap on the pair under
the harbour where the page has one, else by tapping the two cards;
a tile by tapping its button, then Rotate / Flip as needed (the fewest taps), then the façade square at
the bottom-left of where the tile goes; card entries by tapping the colours in order. When the page
plays a whole move by itself (a note says so: "Playing … in a moment"), Play is not tapped; otherwise it
is. A turn is one player's turn: their action, any discard and coat-of-arms actions and, with the table's
deck, the refill they reveal.
"""
from __future__ import annotations

import contextlib
import os
import random
import re
import time
from collections import Counter

from replay.common import (HEIGHT, NAMES, WAIT_S, DeadEnd, Phone, TableDriver, button_texts, page_seq,  # noqa: F401
                           seeded_tables, starts_with_name, wait_until)

GAMES = [("2 players, table deck", 2, "table"), ("3 players, table deck", 3, "table"),
         ("2 players, companion deck", 2, "companion")]

END = "end"
#: how a table-deck table is played: "named-when-paid" (the new tables' default) or "entered"
CARDS = os.environ.get("REPLAY_SBM_CARDS", "named-when-paid")


class Box:
    """The game box on the table: the deck of coloured cards (and the end card), seeded."""

    def __init__(self, data, players: int, rng: random.Random):
        self.rng = rng
        self.data = data
        self.n = players
        self.deck = [c.id for c in data.colours for _ in range(data.cards_per_colour(players))]
        rng.shuffle(self.deck)
        self.shuffles = 0
        if data.end_card_shuffled_in(players) == "setup":
            self.shuffle_in_end()

    def shuffle_in_end(self) -> None:
        k = min(self.data.end_card.bottom, len(self.deck))
        bottom = self.deck[len(self.deck) - k:] + [END]
        self.rng.shuffle(bottom)
        self.deck = self.deck[:len(self.deck) - k] + bottom

    def draw(self, k: int, discard: dict) -> list[str]:
        """The next k cards (the end card stops a refill); the discard pile becomes the deck when empty."""
        out = []
        while len(out) < k:
            if not self.deck:
                pile = [c for c, n in discard.items() for _ in range(n)]
                discard = {c: 0 for c in discard}
                if not pile:
                    break
                self.rng.shuffle(pile)
                self.deck = pile
                self.shuffles += 1
                if self.shuffles == 1 and self.data.end_card_shuffled_in(self.n) == "first-reshuffle":
                    self.shuffle_in_end()
            card = self.deck.pop(0)
            out.append(card)
            if card == END:
                break
        return out


class SbmPhone(Phone):
    pass


class Game(TableDriver):
    game_id = "shin-bikkuri-man"
    phone_class = SbmPhone
    board_ready = "window.tkTable && tkTable.table && tkTable.table.needs"

    def __init__(self, browser, server, services, players: int, mode: str, seed: int, turns: int | None,
                 log=None, cards: str | None = None):
        super().__init__(browser, server, services, players, mode, seed, turns, log)
        self.rules = self.game.rules
        self.data = self.game.data
        self.entry_taps = Counter()          # table deck: taps spent entering revealed cards, per turn
        self.tiles = {t.id: t for t in self.data.tiles}
        self.named = mode == "table" and (cards or CARDS) == "named-when-paid"
        self.shadow: dict | None = None      # cards named when paid: the table as it lies (every colour)

    def log_result(self, r: dict) -> None:
        entry = sum(r["entry_taps"])
        self.log(f"  {r['turns']} turns, {sum(r['taps'])} taps ({entry} of them entering revealed cards)")

    def options(self, host: Phone, page) -> None:
        radio = page.locator(f"input[name=deck][value={self.mode}]")
        if radio.count() and not radio.is_checked():
            label = page.locator("label", has=radio)
            host.tap(label if label.count() else radio)
        if self.mode == "table":
            box = page.locator("input[name=cards-entered]")
            if box.count() and box.is_checked() == self.named:
                host.tap(page.locator("label", has=box))

    def open_board(self, phone: Phone) -> None:
        super().open_board(phone)
        phone.page.locator("#facade svg").wait_for(state="attached", timeout=WAIT_S * 1000)

    # ---- the page ----
    def synced(self, phone: Phone) -> None:
        super().synced(phone)
        time.sleep(0.05)

    def must(self, loc, what: str):
        if not loc.count():
            raise DeadEnd(f"the page offers no way to enter {what}")
        return loc.first

    def play_or_wait(self, phone: Phone, before: int, what: str) -> None:
        """The move is whole: if the page plays it by itself (its note says so), wait; else tap Play."""
        page = phone.page
        play = page.locator("#play")
        note = page.locator("#autoplay-note")

        def state():
            if self.seq() > before:
                return "done"
            if note.count() and note.is_visible() and "moment" in note.inner_text():
                return "armed"
            return "play" if not play.is_disabled() else None
        try:
            wait_until(lambda: state() is not None, timeout=5, what="Play or the move playing itself")
        except TimeoutError:
            raise DeadEnd(f"Play is disabled for {what}: {page.locator('#summary').inner_text()!r} "
                          f"{page.locator('#msg').inner_text()!r}") from None
        if state() == "play":
            phone.tap(play)
        try:
            wait_until(lambda: self.seq() > before, timeout=WAIT_S, what=what)
        except TimeoutError:
            raise DeadEnd(f"{what} did not go in: {page.locator('#msg').inner_text()!r}") from None
        self.moves += self.seq() - before

    # ---- entering one move ----
    def enter(self, phone: Phone, move: dict) -> None:
        page = phone.page
        self.synced(phone)
        before = self.seq()
        t = move["type"]
        if t in ("fill-harbour", "deal-hand", "refill"):
            self.enter_cards(phone, move)
        elif t == "take":
            pair = page.locator(f"#pairs [data-pair='{move['spaces'][0]}']")
            if len(move["spaces"]) == 2 and pair.count() and pair.first.is_visible():
                phone.tap(pair.first)                # one tap under the two cards
            else:
                for i in move["spaces"]:
                    phone.tap(self.must(page.locator(f"#harbour [data-space='{i}']"), f"harbour space {i}"))
        elif t == "build":
            self.build(phone, move)
        elif t == "discard":
            self.discard(phone, move)
        elif t == "special-tile":
            c, r = move["square"]
            phone.tap(self.must(page.locator(f"#facade .hit[data-col='{c}'][data-row='{r}']"), "a white tile"))
        elif t in ("take-ability", "reactivate", "decline", "end-turn"):
            label = {"take-ability": "Take " + (self.ability_name(move.get("ability"))),
                     "reactivate": "Turn abilities face up", "decline": "Forgo", "end-turn": "End the turn"}[t]
            b = page.locator(f"#actions button[data-take='{move.get('ability')}']")
            if t != "take-ability" or not b.count():
                b = page.locator("#actions button", has_text=re.compile("^" + re.escape(label), re.I))
            phone.tap(self.must(b, label))
            wait_until(lambda: self.seq() > before, what=label)
            self.moves += self.seq() - before
            return
        else:
            raise DeadEnd(f"unknown move {t}")
        self.play_or_wait(phone, before, t)

    def ability_name(self, a) -> str:
        return next(x.name for x in self.data.abilities if x.id == a)

    def enter_cards(self, phone: Phone, move: dict) -> None:
        page = phone.page
        t = move["type"]
        if t == "deal-hand":
            chosen = page.locator("[data-enter='deal-hand'][aria-pressed='true']", has_text=NAMES[move["player"]])
            if not chosen.count():
                b = page.locator("[data-enter='deal-hand']", has_text=NAMES[move["player"]])
                phone.tap(self.must(b, f"{NAMES[move['player']]}'s hand"))
        for c in move["cards"]:
            phone.tap(self.must(page.locator(f"#actions [data-card='{c}'], #entry [data-card='{c}']"), f"a {c} card"))

    def orientation(self, move: dict) -> tuple[int, bool, tuple[int, int]]:
        """The fewest Rotate / Flip taps (from the page's start: no turn, no flip) that lay the tile as
        the move has it, and the square to tap (the bottom-left of its bounding box)."""
        tile = self.tiles[move["tile"]]
        base = [(x, y, ch == "B") for (x, y), ch in sorted(tile.squares_up().items())]
        want_sq = {tuple(s) for s in move["squares"]}
        ax, ay = min(s[0] for s in want_sq), min(s[1] for s in want_sq)
        want = {(x - ax, y - ay, bool(move.get("brick")) and [x, y] == list(move["brick"])) for x, y in want_sq}
        options = []
        for flip in (False, True):
            for rot in range(4):
                cells = [(-x, y, b) if flip else (x, y, b) for x, y, b in base]
                for _ in range(rot):
                    cells = [(y, -x, b) for x, y, b in cells]
                mx, my = min(c[0] for c in cells), min(c[1] for c in cells)
                if {(x - mx, y - my, b) for x, y, b in cells} == want:
                    options.append((rot + flip, rot, flip))
        if not options:
            raise DeadEnd(f"no orientation of {move['tile']} gives {move['squares']}")
        _, rot, flip = min(options)
        return rot, flip, (ax, ay)

    def build(self, phone: Phone, move: dict) -> None:
        """The tile's button, then as the page works: where a tap on the façade lays the tile's lowest
        square (#facade[data-anchor=lowest]) the square is tapped first and Turn until the preview is the
        place wanted; otherwise Rotate / Flip first, then the bottom-left of the tile's box."""
        page = phone.page
        tile = move["tile"]
        b = page.locator(f"[data-tile='{tile}']")
        if not b.count():
            raise DeadEnd(f"no button for the tile {tile}")
        if b.first.get_attribute("aria-pressed") != "true":
            phone.tap(b.first)
        want = sorted(map(tuple, move["squares"]))
        brick = move.get("brick")

        def shown():
            d = page.evaluate("sbmBoard.draft && sbmBoard.draft.type === 'build' ? sbmBoard.draft : null")
            return d and sorted(map(tuple, d["squares"])) == want and d.get("brick") == brick

        if page.locator("#facade[data-anchor='lowest']").count():
            c, r = min(move["squares"], key=lambda q: (q[1], q[0]))
            phone.tap(self.must(page.locator(f"#facade .hit[data-col='{c}'][data-row='{r}']"), f"square {c},{r}"))
            for _ in range(9):
                with contextlib.suppress(TimeoutError):
                    wait_until(shown, timeout=0.6, what="the preview")
                if shown():
                    break
                phone.tap(self.must(page.locator("#rotate"), "Turn"))
        else:
            rot, flip, (c, r) = self.orientation(move)
            for _ in range(rot):
                phone.tap(self.must(page.locator("#rotate"), "Rotate"))
            if flip:
                phone.tap(self.must(page.locator("#flip"), "Flip"))
            phone.tap(self.must(page.locator(f"#facade .hit[data-col='{c}'][data-row='{r}']"), f"square {c},{r}"))
            with contextlib.suppress(TimeoutError):
                wait_until(shown, timeout=3, what="the preview")
        if not shown():
            raise DeadEnd(f"the page does not show the tile {tile} on {want}")
        page.wait_for_function("sbmBoard.ui.preview !== null", timeout=WAIT_S * 1000)

    def discard(self, phone: Phone, move: dict) -> None:
        page = phone.page
        need = Counter(move["cards"])
        if self.named:          # the colours of the cards discarded, a tap each
            for c in move["cards"]:
                phone.tap(self.must(page.locator(f"#actions [data-discard='{c}']"), f"a {c} card to discard"))
            return
        box = page.locator("#actions [data-discard], #actions .harbour button")
        labels = box.evaluate_all("els => els.map(e => [e.dataset.discard || e.getAttribute('aria-label') "
                                  "|| e.textContent, e.getAttribute('aria-pressed') === 'true'])")
        colours = {c.name.lower(): c.id for c in self.data.colours}
        for k, (label, pressed) in enumerate(labels):
            cid = next((cid for name, cid in colours.items() if name in (label or "").lower()), None)
            if cid and need[cid] > 0 and not pressed:
                phone.tap(box.nth(k))
                need[cid] -= 1
        if +need:
            raise DeadEnd(f"no cards to discard for {dict(+need)}")

    # ---- the player ----
    def choose(self, s: dict) -> dict:
        p = s["current"]
        legal = self.rules.legal_moves(s).moves
        plain = [m for m in legal if not m.get("abilities") and m["type"] != "correct-card"]
        if s["phase"] == "discard":
            hand = s["players"][p]["hand"]
            return min(plain, key=lambda m: (sum(hand[c] for c in m["cards"]), self.rng.random()))
        if s["phase"] == "coats":
            whites = [m for m in plain if m["type"] == "special-tile"]
            if whites:
                return max(whites, key=lambda m: (self.gain(s, m), -m["square"][1], self.rng.random()))
            abil = [m for m in plain if m["type"] in ("take-ability", "reactivate")]
            return self.rng.choice(abil) if abil else next(m for m in plain if m["type"] == "decline")
        builds = [m for m in plain if m["type"] == "build"]
        takes = [m for m in plain if m["type"] == "take"]
        hand = s["players"][p]["hand"]
        if builds:
            def value(m):
                return self.gain(s, m), len(m["squares"]), -sum(q[1] for q in m["squares"])
            top = max(value(m) for m in builds)
            # among places as good, the tile as it lies (fewest quarter turns, unflipped), then any
            best = min((m for m in builds if value(m) == top),
                       key=lambda m: (sum(self.orientation(m)[:2]), self.rng.random()))
            if self.gain(s, best) > 0 or len(best["squares"]) >= 3 or sum(hand.values()) >= 6 or not takes:
                return best
        if takes:
            def fit(m):
                cards = [s["harbour"][i] for i in m["spaces"]]
                return sum(hand[c] for c in cards) + 2 * (cards[0] == cards[-1]) + self.rng.random()
            return max(takes, key=fit)
        return next(m for m in legal if m["type"] == "end-turn")

    def gain(self, s: dict, m: dict) -> int:
        try:
            after = self.rules.apply(s, m)
        except Exception:  # noqa: BLE001
            return -1
        p = m["player"]
        return after["players"][p]["points"] - s["players"][p]["points"]

    # ---- the game ----
    def play(self) -> dict:
        t0 = time.perf_counter()
        box = Box(self.data, self.n, random.Random(self.seed * 7919 + 1)) if self.mode == "table" else None
        self.setup()
        if box is not None and self.named:
            self.shadow = self.deal_shadow(box)
        elif box is not None:
            self.deal(box)
        turns_started = 0
        last_turn = None
        while True:
            s = self.state()
            if s["phase"] == "over":
                self.ended = True
                break
            if s["turn"] != last_turn:
                if self.max_turns is not None and turns_started >= self.max_turns:
                    break
                turns_started += 1
                last_turn = s["turn"]
                self.log(f"  turn {s['turn']} ({NAMES[s['current']]}): {s['players'][s['current']]['points']} pt")
            self.tally.phase = f"turn {s['turn']}"
            if s["phase"] == "refill":
                before = self.tally.taps[self.tally.phase]
                cards = box.draw(7 - len(s["harbour"]), s["discard"])
                self.enter(self.phones[s["current"]], {"type": "refill", "cards": cards})
                self.entry_taps[self.tally.phase] += self.tally.taps[self.tally.phase] - before
                continue
            if self.named:
                self.play_named(box, s)
                continue
            move = self.choose(s)
            self.enter(self.phones[s["current"]], move)
        seconds = time.perf_counter() - t0
        errors = [e for ph in self.phones for e in ph.errors]
        turns = [k for k in self.tally.taps if k != "setup"]
        return {"code": self.code, "turns": len(turns), "ended": self.ended, "moves": self.moves,
                "setup_taps": self.tally.taps["setup"], "setup_screens": self.tally.scroll_px["setup"] / HEIGHT,
                "taps": [self.tally.taps[k] for k in turns],
                "screens": [self.tally.scroll_px[k] / HEIGHT for k in turns],
                "entry_taps": [self.entry_taps[k] for k in turns],
                "seconds": seconds, "errors": errors}

    # ---- cards named when paid ----
    def deal_shadow(self, box: Box) -> dict:
        """The table deals (nothing is tapped): the local copy of the game gets the same cards the
        entered way would have had, in the same order."""
        sh = self.rules.setup(NAMES[:self.n], {"deck": "table"}, 0)
        sh = self.rules.apply(sh, {"type": "fill-harbour", "cards": box.draw(self.data.turn.harbour, sh["discard"])})
        hands = {}
        for k in range(self.n):
            p = (sh["start_player"] + k) % self.n
            hands[p] = box.draw(self.data.starting_hand(k + 1), sh["discard"])
        for p in range(self.n):
            sh = self.rules.apply(sh, {"type": "deal-hand", "player": p, "cards": hands[p]})
        self.in_step(sh, self.state())
        return sh

    def play_named(self, box: Box, s: dict) -> None:
        """One move chosen from the table as it lies, tapped into the mover's phone; the refill that
        ends a turn is laid out from the box (nothing tapped but the end card)."""
        sh = self.shadow
        p = sh["current"]
        move = self.choose(sh)
        self.enter(self.phones[p], move)
        sh = self.rules.apply(sh, move)
        if sh["phase"] == "refill":
            cards = box.draw(self.data.turn.harbour - len(sh["harbour"]), sh["discard"])
            sh = self.rules.apply(sh, {"type": "refill", "cards": cards})
            if END in cards and self.state()["phase"] != "over":
                before = self.tally.taps[self.tally.phase]
                page = self.phones[p].page
                seq = self.seq()
                self.synced(self.phones[p])
                self.phones[p].tap(self.must(page.locator("#end-came"), "the end card"))
                wait_until(lambda: self.seq() > seq, timeout=WAIT_S, what="the end card")
                self.moves += self.seq() - seq
                self.entry_taps[self.tally.phase] += self.tally.taps[self.tally.phase] - before
        self.shadow = sh
        self.in_step(sh, self.state())

    def in_step(self, sh: dict, s: dict) -> None:
        """The companion's counts agree with the table as it lies (or the run stops: a dead end)."""
        mine = (sh["phase"], sh["current"], sh["turn"], len(sh["harbour"]), sh["discard"], sh["shuffles"],
                [sum(p["hand"].values()) for p in sh["players"]], [p["facade"] for p in sh["players"]])
        theirs = (s["phase"], s["current"], s["turn"], len(s["harbour"]), s["discard"], s["shuffles"],
                  [sum(p["hand"].values()) for p in s["players"]], [p["facade"] for p in s["players"]])
        if sh["phase"] == "over":
            mine, theirs = mine[0], theirs[0]
        if mine != theirs:
            raise DeadEnd(f"the companion's counts left the table's: {theirs} at the companion, {mine} at the table")

    def deal(self, box: Box) -> None:
        """Table deck: the host lays out and enters the harbour; each player enters their own hand,
        dealt in turn order."""
        s = self.state()
        harbour = box.draw(self.data.turn.harbour, s["discard"])
        self.enter(self.phones[0], {"type": "fill-harbour", "cards": harbour})
        hands = {}
        for k in range(self.n):
            p = (s["start_player"] + k) % self.n
            hands[p] = box.draw(self.data.starting_hand(k + 1), s["discard"])
        for p in range(self.n):
            self.enter(self.phones[p], {"type": "deal-hand", "player": p, "cards": hands[p]})


play_game = Game.run
