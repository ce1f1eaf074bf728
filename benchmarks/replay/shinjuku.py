"""Shinjuku at the table (benchmarks/table_replay.py --game shinjuku): every move tapped into the pages.

    .venv/bin/python benchmarks/table_replay.py            # quick: 3 games, the first 4 turns each
    .venv/bin/python benchmarks/table_replay.py --full     # 3 games to their end (several minutes each)
    .venv/bin/python benchmarks/table_replay.py --turns 10 --seed 7

The three games of the issue-9 review: 2 players with the table's own deck, 4 players with the table's
own deck, 4 players with the companion's deck. The companion runs in-process (companion.testing.ServerThread,
a temporary data directory); each player is one headless Chromium context at phone size (390 x 844). The
first phone opens the home page, creates the table (names typed, the deck chosen), takes its seat and shows
the invite code; every other phone types the code on its home page, joins and takes its seat; each opens the
board. Then turn after turn, the player whose move it is taps it into their own phone's board page
(Playwright clicks and fills only; no move is sent by script).

Choices: a seeded random player (companion.games.shinjuku.rules.playout.choose: an action type first,
weighted, then one of its legal moves) picks each move from the moves the rules allow at that moment (the
state is read from the server in-process: reading only); the driver then finds the page's buttons for it.
The mover's "which customer a store takes" is left at the page's default. Table-deck mode: the driver keeps
the table's physical deck and bag (seeded shuffles), deals and draws from them as players would (a
duplicate starting ward goes to the bottom of the deck; the discard pile is reshuffled when the deck runs
out) and taps what was drawn face up into the page. With the table's deck the table plays the new-table
page's default, hands kept ("hands": "named"): each player keeps the physical hand (never entered: not
at the deal, not at Income) and names a card when playing it; the random player chooses from the moves
the rules allow with the hands known (a shadow game of the same moves in the "entered" way, in-process,
so the choices are the same as the earlier runs'), and after every move the driver checks that the
server's public state matches the shadow's (discard pile, queue, map, hand and deck sizes). Mode
"table-entered" plays the older way (every card drawn into a hand entered). Companion-deck mode: the
table is created with a seeded shuffle (the server's random seed is replaced in-process, so the runs are
reproducible).

Measured: taps (clicks + fills) and scrolling (before every tap the element is scrolled into view
explicitly: |scrollY after - scrollY before|, summed, in screen heights of 844 px; where the map is shown
close up in a frame of its own and the point to tap is not in it, the driver drags the map there first:
that distance is counted apart, "map_drags", and printed with -v), for setup (from the home
page to the first turn's first move: creating, joining, seats, opening the board and, with the table's
deck, entering the deal) and per turn (one player's turn: placing customers, the Matsuri, two actions, and
other players' answers to a track bonus). Figures only, no assertion on speed.

How the player taps (as a person who knows the page): a move that happens on the board (open or upgrade a
store, expand track, move customers) starts with a tap on the map (the station, the track slot; a map tap
counts as a tap, the scrolling to bring the point on screen as scrolling); when the page asks which move
the tap was for, the choice by the map. A card that does not match the chosen station starts the "three
cards as one wild" by itself. When the page plays a whole move by itself (its setting, on by default),
Play is not tapped. TABLE_REPLAY_TRACE=<file> writes every tap with its scroll; TABLE_REPLAY_SNAPS=<dir>
a screenshot before every tap; TABLE_REPLAY_SHOTS=<file> the page when the driver meets a dead end.
"""
from __future__ import annotations

import contextlib
import os
import random
import re
import time
from collections import Counter

from replay.common import (HEIGHT, NAMES, TRACE, WAIT_S, DeadEnd, Phone, TableDriver, Tally, button_texts,  # noqa: F401
                           page_seq, seeded_tables, starts_with_name, wait_until)

GAMES = [("2 players, table deck", 2, "table"), ("4 players, table deck", 4, "table"),
         ("4 players, companion deck", 4, "companion")]

# What each move is called on the board page (the button that starts building it).
MOVE_LABELS = {
    "deal-hand": r"deal", "seed-ward": r"starting customers|seed", "place-matsuri": r"place (the )?matsuri",
    "fill-queue": r"(fill )?the queue", "place-customers": r"place customers", "move-matsuri": r"move (the )?matsuri",
    "open-store": r"open (a )?store", "expand-track": r"expand (the )?track", "upgrade-store": r"upgrade",
    "income": r"^(draw )?income", "decline-income": r"decline", "move-customers": r"move customers",
}



class ShinjukuPhone(Phone):
    """A phone that also taps the map at a point given in map millimetres."""

    drags: Counter = Counter()           # px the map was dragged in its frame, per phase (set per game)

    def tap_map(self, x_mm: float, y_mm: float, what: str = "") -> None:
        """Tap the board page's map at a point given in map millimetres, as a finger would: if the point
        is not on screen (above it, or under the sticky Play bar) the page is scrolled to bring it to the
        middle first (measured like every other scroll)."""
        page = self.page
        where = MAP_POINT_JS % (x_mm, y_mm)
        before = page.evaluate("window.scrollY")
        # a map shown close up (the page opens it on the part in play): a finger drags it until the
        # point is in its frame; the drag is counted apart (`drags`, px the map moved), not as a tap
        # and not in the page's scrolling
        pan = page.evaluate(PAN_JS % (x_mm, y_mm))
        x, y, top, bottom = page.evaluate(where)
        if not top + 8 <= y <= bottom - 8:
            page.evaluate(f"window.scrollBy(0, {y - HEIGHT * 0.4})")
            time.sleep(0.05)
            x, y, top, bottom = page.evaluate(where)
        after = page.evaluate("window.scrollY")
        page.mouse.click(x, y)
        self.tally.record(abs(after - before))
        self.drags[self.tally.phase] += pan
        if TRACE:
            with open(TRACE, "a", encoding="utf-8") as f:
                f.write(f"{self.tally.phase}\t{self.name}\t{after - before:+.0f}\tmap {what}"
                        + (f" (map dragged {pan:.0f} px)" if pan else "") + "\n")


# the table's physical deck and bag (table-deck mode)

class Box:
    """The game box on the table: a shuffled deck of ward cards and a bag of customers, seeded."""

    def __init__(self, ix, rng: random.Random):
        self.rng = rng
        self.deck = list(ix.full_deck)
        self.bag = list(ix.full_bag)
        rng.shuffle(self.deck)
        rng.shuffle(self.bag)

    def draw(self, n: int, discard: list[str]) -> list[str]:
        out = []
        for _ in range(n):
            if not self.deck:                       # the discard pile becomes the new deck
                self.deck = list(discard)
                discard = []
                self.rng.shuffle(self.deck)
            out.append(self.deck.pop(0))
        return out

    def customers(self, n: int) -> list[str]:
        out, self.bag = self.bag[:n], self.bag[n:]
        return out



# A point of the map (millimetres) on the screen, and the band of the screen where the map shows it
# (below the top of the map's frame and the window, above the sticky Play bar).
MAP_POINT_JS = """(() => { const p = new DOMPoint(%f, %f).matrixTransform(tkMap.svg.getScreenCTM());
  const frame = document.querySelector('#map .map-scroll').getBoundingClientRect();
  const bar = document.querySelector('.sticky-actions');
  const barTop = bar ? bar.getBoundingClientRect().top : innerHeight;
  return [p.x, p.y, Math.max(0, frame.top), Math.min(innerHeight, frame.bottom, barTop)]; })()"""

# Drag the map (a close-up in a frame of its own) so a point (millimetres) is in the middle of the frame
# when it is not in view: the distance it moved, in px (0 on a page whose map shows it already).
# A point under the zoom buttons (over the map's corner) is not in view either.
PAN_JS = """(() => { const x = %f, y = %f;
  if (typeof tkMap.shows !== 'function') return 0;
  const p = new DOMPoint(x, y).matrixTransform(tkMap.svg.getScreenCTM());
  const z = document.querySelector('#map .zoom'), r = z ? z.getBoundingClientRect() : null;
  const under = r && p.x >= r.left - 12 && p.x <= r.right + 12 && p.y >= r.top - 12 && p.y <= r.bottom + 12;
  if (tkMap.shows(x, y, 24) && !under) return 0;
  const s = tkMap.scroll, x0 = s.scrollLeft, y0 = s.scrollTop; tkMap.reveal(x, y);
  return Math.hypot(s.scrollLeft - x0, s.scrollTop - y0); })()"""

PAGE_NEEDS_JS = """() => { const t = window.tkTable && tkTable.table; if (!t || !t.needs) return null;
  return [t.seq, t.needs.prompt, t.needs.players, t.needs.actions_left]; }"""


# one game

class Game(TableDriver):
    game_id = "shinjuku"
    phone_class = ShinjukuPhone
    board_ready = "window.tkTable && tkTable.table && tkTable.table.needs"

    def __init__(self, browser, server, services, players: int, mode: str, seed: int, turns: int | None,
                 log=None, use_map: bool = True):
        from companion.games.shinjuku.rules import playout
        super().__init__(browser, server, services, players, mode, seed, turns, log)
        self.choose = playout.choose
        self.drags: Counter = Counter()
        for ph in self.phones:
            ph.drags = self.drags
        self.use_map = use_map

    @property
    def named(self) -> bool:
        """The table's deck with hands kept and named at play (the new-table page's default)."""
        return self.mode == "table"

    def options(self, host: Phone, page) -> None:
        deck = "companion" if self.mode == "companion" else "table"
        radio = page.locator(f"input[name=deck][value={deck}]")
        if radio.count() and not radio.is_checked():
            label = page.locator("label", has=radio)
            host.tap(label if label.count() else radio)
        if self.mode == "table-entered":
            box = page.locator("input[name=hands-entered]")
            if box.count() and not box.is_checked():
                host.tap(box)

    def open_board(self, phone: Phone) -> None:
        super().open_board(phone)
        p = phone.page
        with contextlib.suppress(Exception):    # the map drawn: the page's height no longer changes under a tap
            p.wait_for_function("!window.tkMap || !!tkMap.svg", timeout=WAIT_S * 1000)

    # ---- entering one move on a phone ----
    def synced(self, phone: Phone) -> None:
        """Wait until `phone`'s page shows the table as it is now (its step and what it waits for), and
        stays so for a moment: a tap on a page about to redraw would hit a button that is going away."""
        want_seq = self.seq()

        def shows():
            # the table as it is now: a move a page played by itself meanwhile (the next mover's
            # placing, with the companion's deck) moves what the page must show on
            nonlocal want_seq
            want_seq = self.seq()
            needs = self.game.needs(self.state()) or {}
            want = [want_seq, needs.get("prompt"), needs.get("players"), needs.get("actions_left")]
            got = phone.page.evaluate(PAGE_NEEDS_JS)
            return got is None and page_seq(phone.page) == want_seq or got == want
        settled = 0
        end = time.monotonic() + 3 * WAIT_S            # a loaded machine: the stream may lag
        while settled < 2:
            if time.monotonic() > end:
                raise TimeoutError(f"{phone.name}'s page did not show step {want_seq}")
            settled = settled + 1 if shows() else 0
            time.sleep(0.03)

    def builder(self, page):
        for sel in ("#builder", "main", "body"):
            loc = page.locator(sel)
            if loc.count():
                return loc.first
        return page.locator("body")

    def section(self, page, heading: str):
        """The part of the move builder under a heading matching `heading` (a regex), or None."""
        root = self.builder(page)
        heads = root.locator("h2, h3, h4, legend").filter(has_text=re.compile(heading, re.I))
        for k in range(heads.count()):
            h = heads.nth(k)
            if h.is_visible():
                return h.locator("xpath=..")
        return None

    def tap_named(self, phone: Phone, scope, name: str, nth: int = 0, exact: bool = False,
                  unpressed: bool = False) -> bool:
        """Tap the `nth` visible button of `scope` labelled `name`; False if there is none."""
        found = [k for k, (t, pressed, disabled, visible) in enumerate(button_texts(scope))
                 if visible and not disabled and (t == name if exact else starts_with_name(t, name))
                 and not (unpressed and pressed)]
        if len(found) <= nth:
            return False
        phone.tap(scope.locator("button").nth(found[nth]))
        return True

    def tap_named_rx(self, phone: Phone, scope, rx: str) -> bool:
        """Tap the first visible button of `scope` whose label matches `rx`; False if there is none."""
        for k, (t, _p, disabled, visible) in enumerate(button_texts(scope)):
            if visible and not disabled and re.search(rx, t, re.I):
                phone.tap(scope.locator("button").nth(k))
                return True
        return False

    def pressed(self, scope, name: str) -> bool:
        return any(p and starts_with_name(t, name) for t, p, _d, v in button_texts(scope) if v)

    def choose_type(self, phone: Phone, mtype: str) -> None:
        page = phone.page
        types = page.locator("#types")
        rx = re.compile(MOVE_LABELS[mtype], re.I)
        for _attempt in range(20):
            offered = [x for x in button_texts(types) if x[3] and not x[2]]
            for k, (t, pressed, disabled, visible) in enumerate(button_texts(types)):
                if visible and not disabled and rx.search(t):
                    if not pressed and not (len(offered) == 1 and self.chosen(page)):
                        phone.tap(types.locator("button").nth(k))
                    return
            time.sleep(0.1)
        if not types.locator("button").count() and mtype in ("place-customers", "move-matsuri"):
            return                                   # a single move needs no choosing
        if self.seq() > self._before:
            return                                   # the page played it by itself meanwhile
        if os.environ.get("TABLE_REPLAY_SHOTS"):
            page.screenshot(path=os.environ["TABLE_REPLAY_SHOTS"], full_page=True)
        raise DeadEnd(f"no button for the move {mtype!r} (offered: {[t for t, *_ in button_texts(types)]})")

    def chosen(self, page) -> bool:
        """The page chose the only move there is by itself: its fields are shown, or Play is ready
        (a person sees that and does not tap the move's button)."""
        play = page.get_by_role("button", name="Play", exact=True)
        if play.count() and play.is_enabled():
            return True
        root = self.builder(page)
        return root.locator("button").count() > 0

    def enter(self, phone: Phone, move: dict, at: int | None = None) -> None:
        """Tap `move` into `phone`'s board page and press Play; wait for the server to take it. A move
        the page made by itself meanwhile (a move with nothing to choose, on its mover's phone: placing
        the customers with the companion's deck) is counted as entered, with no tap."""
        page = phone.page
        self.synced(phone)
        if at is not None and self.seq() != at:
            self.moves += self.seq() - at
            return
        before = self._before = self.seq()
        play = page.get_by_role("button", name="Play", exact=True)
        try:
            if not (self.use_map and self.map_first(phone, move)):
                self.choose_type(phone, move["type"])
            self.fill_fields(phone, move)
            # the page plays a whole move by itself after a moment (the setting, on by default)
            # (15 s: on a loaded machine a page that plays by itself may take a while to arm)
            wait_until(lambda: self.seq() > before or self.armed(page) or play.is_enabled(), 15,
                       f"Play to be enabled for {move}")
        except Exception:
            if os.environ.get("TABLE_REPLAY_SHOTS"):
                page.screenshot(path=os.environ["TABLE_REPLAY_SHOTS"], full_page=True)
            raise
        # Play, unless the page is playing it by itself (it may start to just before the tap: then the
        # tap finds Play disabled, is not made, and is not counted)
        if not (self.seq() > before or self.armed(page)):
            try:
                phone.tap(play, timeout=4)
            except Exception:
                with contextlib.suppress(TimeoutError):
                    wait_until(lambda: self.seq() > before, 10)
                if not (self.seq() > before or self.armed(page)):
                    raise

        def taken():
            if self.seq() > before:
                return True
            bad = page.locator("#msg.bad")
            if bad.count() and bad.first.is_visible():
                raise DeadEnd(f"the page refused {move}: {bad.first.inner_text()}")
            return False
        wait_until(taken, what=f"the move {move}")
        self.moves += 1
        self.synced(phone)

    def gone(self, page) -> bool:
        """The move is whole and sent, or about to be by itself (the page's autoplay, armed only when
        nothing it chose is a default to check): nothing is left to tap."""
        return self.seq() > self._before or self.armed(page)

    @staticmethod
    def armed(page) -> bool:
        return page.evaluate("document.documentElement.hasAttribute('data-autoplay-armed')")

    # ---- the map: where a player taps first for a move that starts on the board ----
    def station_mm(self, page, sid: str) -> tuple[float, float]:
        return tuple(page.evaluate(f"[tkMap.stations[{sid!r}].x, tkMap.stations[{sid!r}].y]"))

    def connection_mm(self, page, a: str, b: str) -> tuple[float, float]:
        cid = "--".join(sorted((a, b)))
        return tuple(page.evaluate(f"tkMap.connections[{cid!r}].centre"))

    def drafted(self, page) -> str | None:
        """The move the page is building (its pressed move button), or None."""
        for t, pressed, _d, visible in button_texts(page.locator("#types")):
            if pressed and visible:
                return t
        return None

    def map_first(self, phone: Phone, m: dict) -> bool:
        """Start `m` by tapping the map where it happens (a station, a track slot) before choosing the
        move: the page starts the move it can only mean, or asks which one (the tap is kept). False when
        the move does not start on the map."""
        page, t = phone.page, m["type"]
        if t not in ("open-store", "upgrade-store", "expand-track", "move-customers") or self.drafted(page):
            return False
        if not page.evaluate("!!(window.tkMap && tkMap.svg)"):
            return False
        if t == "expand-track":
            a, b = self.ends(m["connection"])
            phone.tap_map(*self.connection_mm(page, a, b), f"track {a}-{b}")
        else:
            sid = m["path"][0] if t == "move-customers" else m["station"]
            phone.tap_map(*self.station_mm(page, sid), f"station {sid}")
        label = self.drafted(page)
        if label is None:                       # several moves fit: the page asks which (the tap is kept)
            hint = page.locator("#map-hint")
            if not self.tap_named_rx(phone, hint, MOVE_LABELS[t]):
                self.choose_type(phone, t)
        elif t == "move-customers" and not re.search(MOVE_LABELS[t], label, re.I) \
                and re.search(r"open|upgrade", label, re.I):
            # the page took the tap for the station's store move: the next station along the track
            # moves the customers instead (or, for a path of one station, the hint's button)
            if len(m["path"]) > 1:
                j = self.furthest(page, m["path"], 1)
                phone.tap_map(*self.station_mm(page, m["path"][j]), f"path {m['path'][j]}")
            elif not self.tap_named_rx(phone, page.locator("#map-hint"), MOVE_LABELS[t]):
                self.choose_type(phone, t)
            label = self.drafted(page) or ""
            if not re.search(MOVE_LABELS[t], label, re.I):
                raise DeadEnd(f"a map tap for {t} started {label!r}")
        elif not re.search(MOVE_LABELS[t], label, re.I):
            raise DeadEnd(f"a map tap for {t} started {label!r}")
        return True

    # ---- the fields of each move ----
    def fill_fields(self, phone: Phone, m: dict) -> None:
        t = m["type"]
        page = phone.page
        who = self.section(page, r"^\s*who\s*$")         # whose move (shown when it is not obvious)
        if who is not None and m.get("player") is not None and not self.pressed(who, NAMES[m["player"]]):
            self.must(self.tap_named(phone, who, NAMES[m["player"]]), f"player {NAMES[m['player']]}")
        if t == "deal-hand":
            self.cards(phone, r"dealt|hand", m["cards"])
        elif t == "seed-ward":
            self.ward(phone, r"ward|card", m["ward"])
            self.tokens(phone, r"customers", m["customers"])
        elif t == "place-matsuri":
            self.ward(phone, r"ward|matsuri|card", m["ward"])
        elif t == "fill-queue":
            self.cards(phone, r"cards|queue", m["cards"])
            self.tokens(phone, r"customers", m["customers"])
        elif t == "place-customers":
            if m.get("card"):
                self.ward(phone, r"card|④|ward", m["card"])
            if m.get("customers"):
                self.tokens(phone, r"customers", m["customers"])
        elif t == "move-matsuri":
            self.ward(phone, r"ward|matsuri", m["ward"])
        elif t == "open-store":
            chosen = f"at {self.sname(m['station'])}" in page.locator("#summary").inner_text()
            self.card(phone, m["card"], m["player"], targets=[self.ward_of(m["station"])] if chosen else None)
            self.station(phone, m["station"])
            sec = self.must(self.section(page, r"^\s*goods"), "the goods")
            goods = {g["id"]: g["name"] for g in self.board["goods"]}[m["goods"]]
            if not self.pressed(sec, goods):
                self.must(self.tap_named(phone, sec, goods), f"goods {goods}")
        elif t in ("expand-track", "move-customers") and self.gone(page) and not (
                self.named and m.get("card") is not None and self.page_card(page) != self.named_card(m["card"])):
            return                           # whole with the map tap: playing by itself
        elif t == "expand-track" and self.use_map and self.on_map(page):
            summary = page.locator("#summary")
            a, b = self.ends(m["connection"])
            if not self.names_connection(summary.inner_text(), a, b):
                phone.tap_map(*self.connection_mm(page, a, b), f"track {a}-{b}")
            if m.get("second"):
                c, d = self.ends(m["second"])
                phone.tap_map(*self.connection_mm(page, c, d), f"second {c}-{d}")
            if not self.names_connection(summary.inner_text(), a, b) or \
                    m.get("second") and not self.names_connection(summary.inner_text(), c, d):
                raise DeadEnd(f"the map did not take the track {m} ({summary.inner_text()})")
            if m.get("second") and m.get("card") is not None:
                self.card(phone, m["card"], m["player"], heading=r"card", targets=[self.ward_of(a), self.ward_of(b)])
        elif t == "expand-track":
            a, b = self.ends(m["connection"])
            second = self.ends(m["second"]) if m.get("second") else None
            if second:                      # start the first segment away from the shared end
                shared = a if a in second else b
                a, b = (b, a) if shared == a else (a, b)
            self.connection(phone, r"track segment|^\s*track|first", a, b, first=True)
            if second:
                s = b if b in second else a
                o = second[1] if second[0] == s else second[0]
                self.connection(phone, r"second", s, o, first=False)
                if m.get("card") is not None:
                    self.card(phone, m["card"], m["player"], heading=r"card")
        elif t == "upgrade-store":
            self.station(phone, m["station"])
            self.card(phone, m["card"], m["player"], targets=[self.ward_of(m["station"])])
            sec = self.must(self.section(page, r"customer"), "the customer to spend")
            label = self.token_label(m["customer"])
            if not any(p and tt == label for tt, p, _d, _v in button_texts(sec)):
                self.must(self.tap_named(phone, sec, label, exact=True), f"customer {label}")
        elif t == "income":
            if m.get("cards"):
                self.cards(phone, r"cards", m["cards"])
        elif t == "decline-income":
            pass
        elif t == "move-customers" and self.use_map and self.on_map(page):
            self.card(phone, m["card"], m["player"],      # the card first (the start's ward is preselected)
                      targets=[self.ward_of(m["path"][0])] if self.path_shown(page) else None)
            if self.gone(page):
                return
            shown = self.path_shown(page)
            path = m["path"]
            if [self.sname(x) for x in path[:len(shown)]] != shown:
                raise DeadEnd(f"the path shows {shown}, not {path}")
            k = len(shown)
            while k < len(path):              # the next station, or one further along the only way there
                j = self.furthest(page, path, k)
                phone.tap_map(*self.station_mm(page, path[j]), f"path {path[j]}")
                k = j + 1
            if self.path_shown(page) != [self.sname(x) for x in m["path"]]:
                raise DeadEnd(f"the map did not take the path {m['path']} ({self.path_shown(page)})")
        elif t == "move-customers":
            self.card(phone, m["card"], m["player"])
            self.path(phone, m["path"])
        else:
            raise DeadEnd(f"unknown move {t}")

    @staticmethod
    def on_map(page) -> bool:
        return page.evaluate("!!(window.tkMap && tkMap.svg)")

    def furthest(self, page, path: list[str], k: int) -> int:
        """The station of `path` to tap after its first `k`: on a page that follows built track to a
        station further on (when there is one way there), the furthest whose only way is the path's;
        else the next one."""
        if k == 0 or not page.evaluate("!!window.tkFarPath"):
            return k
        for j in range(len(path) - 1, k, -1):
            routes = self.routes(path[:k], path[j], 2)
            if len(routes) == 1 and routes[0] == path[k:j + 1]:
                return j
        return k

    def routes(self, prefix: list[str], to: str, most: int) -> list[list[str]]:
        """The ways along built track from the end of `prefix` to `to` visiting no station twice (as
        the page finds them: at most `most`, at most 13 stations long)."""
        built = self.state()["tracks"]
        found: list[list[str]] = []

        def walk(at, seen, route):
            if len(found) >= most or len(route) > 12:
                return
            for o, c in self.board["stations"][at]["links"]:
                if c not in built or o in seen:
                    continue
                if o == to:
                    found.append(route + [o])
                    if len(found) >= most:
                        return
                    continue
                seen.add(o)
                walk(o, seen, route + [o])
                seen.discard(o)
        walk(prefix[-1], set(prefix), [])
        return found

    def names_connection(self, text: str, a: str, b: str) -> bool:
        x, y = self.sname(a), self.sname(b)
        return f"{x}–{y}" in text or f"{y}–{x}" in text

    def path_shown(self, page) -> list[str]:
        """The path as the page's Path card shows it ("A → B → C"), as station names."""
        sec = self.section(page, r"^\s*path")
        if sec is None:
            return []
        first = sec.locator("p").first
        if not first.count():
            return []
        text = first.inner_text()
        return [x.strip() for x in text.split("→")] if "→" in text or not re.search(r"\?|:", text) else []

    def must(self, value, what: str):
        if value is None or value is False:
            raise DeadEnd(f"the page offers no way to enter {what}")
        return value

    def wname(self, w: str) -> str:
        return self.wards[w]["name"]

    def wards_named(self, label: str) -> str | None:
        """The ward whose name labels a card button, or None."""
        for w in self.wards.values():
            if starts_with_name(label, w["name"]):
                return w["id"]
        return None

    def ward_of(self, sid: str) -> str:
        return self.board["stations"][sid]["ward"]

    def sname(self, s: str) -> str:
        return self.board["stations"][s]["name"]

    def token_label(self, t: str) -> str:
        return {x["id"]: x["label"] for x in self.board["tokens"]}[t]

    def ends(self, c) -> list[str]:
        return list(c) if isinstance(c, list) else c.split("--")

    def ward(self, phone: Phone, heading: str, ward: str) -> None:
        sec = self.must(self.section(phone.page, heading), f"the ward ({heading})")
        if not self.pressed(sec, self.wname(ward)):
            self.must(self.tap_named(phone, sec, self.wname(ward)), f"ward {self.wname(ward)}")

    def cards(self, phone: Phone, heading: str, cards: list[str]) -> None:
        for c in cards:
            sec = self.must(self.section(phone.page, heading), f"the cards ({heading})")
            self.must(self.tap_named(phone, sec, self.wname(c), unpressed=False), f"card {self.wname(c)}")

    def tokens(self, phone: Phone, heading: str, tokens: list[str]) -> None:
        for tok in tokens:
            sec = self.must(self.section(phone.page, heading), f"the customers ({heading})")
            self.must(self.tap_named(phone, sec, self.token_label(tok), exact=True), f"customer {tok}")

    def card(self, phone: Phone, card, player: int, heading: str = r"card to play|^\s*card",
             targets: list[str] | None = None) -> None:
        """The card to play; three as one wild: with `targets` (the wards a single card must match,
        the station or path already chosen), a card that matches none of them (and is not wild) starts
        the wild by itself; otherwise the toggle first."""
        page = phone.page
        if self.seq() > self._before or (self.gone(page) and not self.named):
            return
        if self.named and self.gone(page) and self.page_card(page) == self.named_card(card):
            return                     # the card the page chose (the ward tapped): it plays with the move
        sec = self.must(self.section(page, heading), "the card to play")
        if self.named and not isinstance(card, str):
            # three cards as one wild: not named, one button
            if self.page_card(page) != self.named_card(card):
                wild = rf"^{self.ix.cards_as_wild} cards$|as one wild"
                self.must(self.tap_named_rx(phone, sec, wild), "three cards as one wild")
            return
        if isinstance(card, str):
            if not self.pressed(sec, self.wname(card)):
                self.must(self.tap_named(phone, sec, self.wname(card)), f"card {self.wname(card)}")
            return
        toggle = re.compile(r"cards as one wild|as one wild|three|^play one card", re.I)
        on = any(v and toggle.search(t) and p for t, p, _d, v in button_texts(sec))
        seen = Counter()
        card = list(card)
        if not on and targets is not None:
            s = self.state()
            wild = {s["matsuri"]} | {self.board["stations"][sid]["ward"] for sid, x in s["stations"].items()
                                     if x["owner"] == player}
            odd = [c for c in card if c not in targets and c not in wild]
            if odd:
                card.remove(odd[0])
                card.insert(0, odd[0])
                self.must(self.tap_named(phone, sec, self.wname(odd[0])), f"wild card {self.wname(odd[0])}")
                seen[odd[0]] += 1
                sec = self.must(self.section(page, heading), "the card to play")
                on = any(v and toggle.search(t) and p for t, p, _d, v in button_texts(sec))
                if not on:
                    raise DeadEnd(f"{odd[0]} did not start a wild")
        if not on:          # the toggle, then the three cards (the same ward's copies in turn)
            for k, (t, pressed, _d, v) in enumerate(button_texts(sec)):
                if v and toggle.search(t) and not pressed:
                    phone.tap(sec.locator("button").nth(k))
                    break
        sec = self.must(self.section(page, heading), "the card to play")
        played = Counter(self.wards_named(t) for t, p, _d, v in button_texts(sec) if v and p)
        played.pop(None, None)
        if sum(played.values()) == len(card):      # the page played the whole hand (three cards, no choice)
            return
        if re.search(r"to keep", sec.inner_text(), re.I):
            # the page asks which card(s) to keep: those of the hand not in the wild
            keep = Counter(self.state()["players"][player]["hand"]) - Counter(card)
            for c, n in keep.items():
                for k in range(n):         # a kept card stays unpressed: the next copy is the k-th
                    sec = self.must(self.section(page, heading), "the card to play")
                    self.must(self.tap_named(phone, sec, self.wname(c), nth=k, unpressed=True),
                              f"kept card {self.wname(c)}")
            return
        for c in card[sum(seen.values()):]:
            sec = self.must(self.section(page, heading), "the card to play")
            # named hands: one button per ward, each tap adds a card of it
            self.must(self.tap_named(phone, sec, self.wname(c), nth=0 if self.named else seen[c]),
                      f"wild card {self.wname(c)}")
            seen[c] += 1

    def named_card(self, card):
        """A card as the page plays it with named hands: three as one wild are not named (3)."""
        return card if isinstance(card, str) else self.ix.cards_as_wild

    @staticmethod
    def page_card(page):
        """The card of the move the page is building (named hands: what it plays)."""
        return page.evaluate("window.tkDraft && tkDraft() && tkDraft().card !== undefined ? tkDraft().card : null")

    @staticmethod
    def asks_ward(sec) -> bool:
        """The picker asks for a ward first ("Which ward?") rather than offering stations."""
        return re.search(r"which ward", sec.inner_text(), re.I) is not None

    def station(self, phone: Phone, sid: str) -> None:
        page = phone.page
        name, ward = self.sname(sid), self.board["stations"][sid]["ward"]
        for _ in range(4):
            sec = self.must(self.section(page, r"^\s*station"), "the station")
            if starts_with_name(sec.locator("h3").first.inner_text().removeprefix("Station:").strip(), name):
                return                                  # chosen already (on the map): one line
            if self.asks_ward(sec):
                self.must(self.tap_named(phone, sec, self.wname(ward)), f"ward {self.wname(ward)}")
                continue
            if self.pressed(sec, name) or self.tap_named(phone, sec, name):
                return
            if not self.tap_named(phone, sec, "Another ward", exact=True):
                break
        raise DeadEnd(f"the page offers no way to choose the station {name}")

    def connection(self, phone: Phone, heading: str, a: str, b: str, first: bool) -> None:
        page = phone.page
        ward = self.board["stations"][a]["ward"]
        steps = 0
        while steps < 6:
            steps += 1
            sec = self.must(self.section(page, heading), f"the track ({heading})")
            texts = button_texts(sec)
            shown = " ".join(t for t, *_ in texts)
            if any(t == "Change" for t, *_ in texts) or not texts and self.sname(a) in sec.inner_text():
                return
            hint = sec.inner_text()
            if re.search(r"from " + re.escape(self.sname(a)) + r" to", hint, re.I):
                self.must(self.tap_named(phone, sec, self.sname(b)), f"track to {self.sname(b)}")
                return
            if first and self.asks_ward(sec):
                self.must(self.tap_named(phone, sec, self.wname(ward)), f"ward {self.wname(ward)}")
                continue
            if self.tap_named(phone, sec, self.sname(a)):
                continue
            if self.tap_named(phone, sec, "Another start", exact=True) or \
                    self.tap_named(phone, sec, "Another ward", exact=True):
                continue
            raise DeadEnd(f"no way to choose the track {self.sname(a)}–{self.sname(b)} ({shown[:200]})")
        raise DeadEnd(f"the track {self.sname(a)}–{self.sname(b)} took too many taps")

    def path(self, phone: Phone, path: list[str]) -> None:
        page = phone.page
        ward = self.board["stations"][path[0]]["ward"]
        k = 0
        steps = 0
        while k < len(path):
            steps += 1
            if steps > len(path) + 4:
                raise DeadEnd(f"the path {path} took too many taps")
            sec = self.must(self.section(page, r"^\s*path"), "the path")
            if k == 0 and self.asks_ward(sec):
                self.must(self.tap_named(phone, sec, self.wname(ward)), f"ward {self.wname(ward)}")
                continue
            if self.tap_named(phone, sec, self.sname(path[k])):
                k += 1
                continue
            raise DeadEnd(f"no button for station {self.sname(path[k])} of the path")

    # ---- the game ----
    def play(self) -> dict:
        from companion.games.shinjuku.web import board_data
        self.ix = self.game.rules.ix
        self.board = board_data(self.game.data)
        self.wards = {w["id"]: w for w in self.board["wards"]}
        box = Box(self.ix, random.Random(self.seed * 7919 + 1)) if self.mode != "companion" else None
        t0 = time.perf_counter()
        self.setup()
        self.shadow = None
        if self.named:                  # the hands as the players hold them (see the module docstring)
            s = self.state()
            self.shadow = self.game.rules.setup(
                [p["name"] for p in s["players"]],
                {"deck": "table", "start_player": s["start_player"], "colours": [p["colour"] for p in s["players"]]},
                0)
        self.log(f"  table {self.code}: {self.tally.taps['setup']} taps to join and open the board")
        turn_started, turn = 0, None
        if self.mode == "table":
            self.deal(box)
        while True:
            at = self.seq()
            s = self.state()
            if s["phase"] == "over":
                self.ended = True
                break
            if self.shadow is not None:
                s = self.shadow                 # the random player knows the hands (the server does not)
            if s["turn"] != turn:               # a new turn (its placing may have played by itself)
                if self.max_turns is not None and turn_started >= self.max_turns:
                    break
                turn_started, turn = turn_started + 1, s["turn"]
                self.log(f"  turn {s['turn']} ({NAMES[s['current']]}), {self.tally.taps['setup']} setup taps"
                         if turn_started == 1 else f"  turn {s['turn']} ({NAMES[s['current']]})")
            self.tally.phase = f"turn {s['turn']}"
            move = self.next_move(s, box)
            actor = move["player"] if move.get("player") is not None else s["current"]
            self.enter(self.phones[actor], self.told(move), at)
            self.follow(move)
        seconds = time.perf_counter() - t0
        errors = [e for ph in self.phones for e in ph.errors]
        turns = [k for k in self.tally.taps if k != "setup"]
        drags = [round(self.drags[k] / HEIGHT, 2) for k in turns]
        self.log(f"  map dragged in its frame, screens per turn (not in the figures): {drags}, "
                 f"mean {sum(drags) / max(1, len(drags)):.2f}")
        return {"code": self.code, "turns": len(turns), "ended": self.ended, "moves": self.moves,
                "setup_taps": self.tally.taps["setup"], "setup_screens": self.tally.scroll_px["setup"] / HEIGHT,
                "taps": [self.tally.taps[k] for k in turns],
                "screens": [self.tally.scroll_px[k] / HEIGHT for k in turns],
                "map_drags": [self.drags[k] / HEIGHT for k in turns],
                "seconds": seconds, "errors": errors}

    def told(self, move: dict) -> dict:
        """The move as the page gets it: with named hands, no card drawn into a hand."""
        if self.named and move["type"] in ("income", "deal-hand"):
            return {k: v for k, v in move.items() if k != "cards"}
        if self.named and isinstance(move.get("card"), list):
            return {**move, "card": self.ix.cards_as_wild}        # three as one wild: not named
        return move

    def follow(self, move: dict) -> None:
        """Named hands: the shadow game takes the same move, and the server's public state must
        match it (what is public is the same; the hands and the deck by their sizes)."""
        if self.shadow is None:
            return
        self.shadow = self.game.rules.apply(self.shadow, move)
        a, b = self.state(), self.shadow
        same = {k: a[k] == b[k] for k in ("phase", "turn", "current", "queue", "wards", "stations",
                                         "tracks", "bag", "matsuri", "actions", "bonus")}
        # the discard pile: the cards named are in the hands' discard too; the wilds' are counted
        same["discard"] = (not Counter(a["discard"]) - Counter(b["discard"])
                           and len(a["discard"]) + a["discard_unnamed"] == len(b["discard"]))
        same["hands"] = [p["hand_size"] for p in a["players"]] == [len(p["hand"]) for p in b["players"]]
        same["deck"] = a["deck_count"] == len(b["deck"])
        bad = [k for k, ok in same.items() if not ok]
        if bad:
            raise AssertionError(f"the server and the hands as held differ in {bad} after {move}")

    def deal(self, box: Box) -> None:
        """Table deck: each player enters their own hand; the first player enters the starting wards,
        the Matsuri and the queue, as the rules' setup goes."""
        ix = self.ix
        for p in range(self.n):
            s = self.state()
            hand = box.draw(ix.hand_size, s["discard"])
            if self.named:                  # kept in the hand: nothing entered
                self.shadow = self.game.rules.apply(self.shadow, {"type": "deal-hand", "player": p, "cards": hand})
                continue
            self.enter(self.phones[p], {"type": "deal-hand", "player": p, "cards": hand})
        seeded: list[str] = []
        while len(seeded) < ix.seed_wards:
            s = self.state()
            (w,) = box.draw(1, s["discard"])
            if w in seeded:
                box.deck.append(w)                  # a duplicate is put aside (under the deck) and redrawn
                continue
            seeded.append(w)
            self.entered(self.phones[0], {"type": "seed-ward", "player": 0, "ward": w,
                                          "customers": box.customers(ix.seed_customers)})
        (w,) = box.draw(1, self.state()["discard"])
        self.entered(self.phones[0], {"type": "place-matsuri", "player": 0, "ward": w})
        cards = box.draw(ix.slots, self.state()["discard"])
        self.entered(self.phones[0], {"type": "fill-queue", "player": 0, "cards": cards,
                                      "customers": box.customers(ix.queue_start)})

    def entered(self, phone: Phone, move: dict) -> None:
        self.enter(phone, move)
        if self.shadow is not None:
            self.shadow = self.game.rules.apply(self.shadow, {k: v for k, v in move.items() if k != "player"})

    def next_move(self, s: dict, box: Box | None) -> dict:
        ix = self.ix
        if box is not None:
            self.check_box(s, box)
        if s["phase"] == "place":
            m = {"type": "place-customers", "player": s["current"]}
            if box is not None:
                if len(s["deck"]) + len(s["discard"]):
                    (m["card"],) = box.draw(1, s["discard"])
                m["customers"] = box.customers(min(len(s["queue"][0]["customers"]), len(box.bag)))
            return m
        m = self.choose(self.game.rules, s, self.rng)
        if m is None:
            raise DeadEnd(f"no legal move in phase {s['phase']}")
        m = {k: v for k, v in m.items() if k != "take"}       # the page's default: which customer a store takes
        if m["type"] == "income" and box is not None:
            from companion.games.shinjuku.rules import moves as mv
            m["cards"] = box.draw(mv.income_count(ix, s, m["player"])[1], s["discard"])
        return m

    def check_box(self, s: dict, box: Box) -> None:
        """The physical deck and bag hold what the companion believes can still be drawn."""
        if Counter(box.deck) != Counter(s["deck"]) and box.deck:
            raise AssertionError("the driver's deck and the companion's differ")
        if Counter(box.bag) != Counter(s["bag"]):
            raise AssertionError("the driver's bag and the companion's differ")


play_game = Game.run


