"""What every game's table replay shares: phones that count taps and scrolling, the companion in-process,
a headless Chromium, reading buttons from the DOM, the figures table.

A game's driver is a module beside this one (`benchmarks/replay/<game>.py`) with
    GAMES = [(label, players, mode), ...]          # mode: how chance is handled ("table", "companion", ...)
    def play_game(browser, server, services, players, mode, seed, turns, log) -> dict
returning {"turns", "ended", "setup_taps", "setup_screens", "taps": [per turn], "screens": [per turn],
"seconds", "moves", "errors"}. A tap is a click or a fill on a phone (`Phone.tap`, `Phone.type`); before
every tap the element is scrolled into view explicitly and |scrollY after - scrollY before| is counted, in
screens of 844 px. `Tally.phase` is "setup" until the driver sets it to the turn being played.
"""
from __future__ import annotations

import contextlib
import os
import re
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import companion
from companion import create_app
from companion.testing import ServerThread, chromium_path, launch_chromium

CHROMIUM = chromium_path()
WIDTH, HEIGHT = 390, 844
NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi"]
WAIT_S = 15.0
TRACE = os.environ.get("TABLE_REPLAY_TRACE")       # a file: every tap, with its scroll, one per line
SNAPS = os.environ.get("TABLE_REPLAY_SNAPS")       # a directory: a screenshot of the phone before every tap


class DeadEnd(Exception):
    """The page offers no way to enter the move the player wants."""


# ---------------------------------------------------------------------------------------------------
# counting taps and scrolling

@dataclass
class Tally:
    phase: str = "setup"
    taps: Counter = field(default_factory=Counter)
    scroll_px: Counter = field(default_factory=Counter)

    def record(self, px: float) -> None:
        self.taps[self.phase] += 1
        self.scroll_px[self.phase] += px


class Phone:
    """One player's phone: a browser context at 390 x 844; every tap and fill is counted."""

    def __init__(self, browser, name: str, tally: Tally, base: str):
        self.name = name
        self.tally = tally
        self.base = base
        self.ctx = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, is_mobile=True,
                                       has_touch=True, bypass_csp=True)
        self.ctx.set_default_timeout(WAIT_S * 1000)
        self.page = self.ctx.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _act(self, loc, action) -> None:
        """Scroll `loc` into view (measured), then act on it; once more if a re-render (a live update)
        replaced the element in between."""
        from playwright.sync_api import Error
        for attempt in range(4):
            try:
                before = self.page.evaluate("window.scrollY")
                if SNAPS:                   # what the player sees just before the tap
                    n = len(os.listdir(SNAPS))
                    self.page.screenshot(path=f"{SNAPS}/{n:03d}-{self.tally.phase}-{self.name}.png")
                loc.scroll_into_view_if_needed(timeout=WAIT_S * 1000)
                after = self.page.evaluate("window.scrollY")
                action()
            except Error as exc:
                if attempt == 3 or "not attached" not in str(exc) and "detached" not in str(exc):
                    raise
                time.sleep(0.1)
                continue
            self.tally.record(abs(after - before))
            if TRACE:
                with open(TRACE, "a", encoding="utf-8") as f:
                    f.write(f"{self.tally.phase}\t{self.name}\t{after - before:+.0f}\t{loc}\n")
            return

    def tap(self, loc, timeout: float = WAIT_S) -> None:
        self._act(loc, lambda: loc.click(timeout=timeout * 1000))

    def type(self, loc, text: str) -> None:
        self._act(loc, lambda: loc.fill(text, timeout=WAIT_S * 1000))

    def close(self) -> None:
        self.ctx.close()




def button_texts(scope) -> list[tuple[str, bool, bool, bool]]:
    """(text, pressed, disabled, visible) of every button in `scope` (read from the DOM)."""
    return [tuple(x) for x in scope.locator("button").evaluate_all(LABELS_JS)]


# A button's label: its own text (a sub-label in a child element, "2 customers waiting", left out), else
# the first line of what it shows.
LABELS_JS = """els => els.map(e => {
  let own = [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join(' ');
  own = own.replace(/\\s+/g, ' ').trim();
  if (!own) own = (e.innerText || e.textContent || '').split('\\n')[0].replace(/\\s+/g, ' ').trim();
  return [own, e.getAttribute('aria-pressed') === 'true', e.disabled,
          !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length)];
})"""


def starts_with_name(text: str, name: str) -> bool:
    """`text` is the label of `name` (a ward, station, player), perhaps followed by kanji or a sub-label,
    but not another name that begins the same way ("Kita" is not "Kita Senju")."""
    return re.match(r"\s*" + re.escape(name) + r"(?![A-Za-z])(?!\s[A-Za-z])", text) is not None


def page_seq(page) -> int | None:
    return page.evaluate("window.tkTable && tkTable.table ? tkTable.table.seq : null")


def wait_until(predicate, timeout: float = WAIT_S, what: str = "") -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.05)
    raise TimeoutError(f"waited {timeout:.0f} s for {what}")




@contextlib.contextmanager
def seeded_tables(seed: int):
    """Tables created through the pages get a known shuffle (companion deck): the server's random
    seed is replaced in-process, so the companion-deck game is the same on every run."""
    import companion.tables.service as tables_mod
    real = tables_mod.secrets

    class Seeded:
        def __getattr__(self, name):
            return getattr(real, name)

        @staticmethod
        def randbits(k):
            return seed

    tables_mod.secrets = Seeded()
    try:
        yield
    finally:
        tables_mod.secrets = real


@contextlib.contextmanager
def companion_server(data_dir: str | None = None):
    with tempfile.TemporaryDirectory(prefix="table-replay-") as tmp:
        app = create_app({"DATA_DIR": data_dir or tmp, "SSE_HEARTBEAT_S": 2, "SSE_PER_CLIENT": 16})
        with ServerThread(app, threads=24) as server:
            yield server, app.extensions["tokyo"]


@contextlib.contextmanager
def chromium():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Replayed:
    """A short table replayed through the pages, for the tests that keep a driver working: the driver's
    result dict, the driver itself (its table code, its own bookkeeping), the table's state and seq at
    the end, and the moves of its log in order."""
    result: dict
    game: object
    state: dict
    seq: int
    moves: list[dict]

    @property
    def kinds(self) -> list[str]:
        return [m["type"] for m in self.moves]


def replayed(driver, data_dir: str, players: int, mode: str, seed: int, turns: int, **options) -> Replayed:
    """`turns` turns of a seeded table played by `driver` (a driver module's `Game`) through the pages
    of a fresh companion in `data_dir`, on a fresh headless Chromium; the phones are closed whatever
    happens."""
    with companion_server(data_dir) as (server, services), chromium() as browser:
        game = driver(browser, server, services, players, mode, seed=seed, turns=turns, **options)
        try:
            with seeded_tables(seed):
                result = game.play()
            state, seq = game.state(), game.seq()
            log, _ = services.tables.events(game.code, 0)
        finally:
            game.close()
    return Replayed(result, game, state, seq, [e["move"] for e in log if e.get("kind") == "move"])


def revision() -> str:
    import subprocess
    root = Path(companion.__file__).resolve().parents[1]
    try:
        rev = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "companion"],
                               capture_output=True, text=True).stdout.strip()
        return rev + (" + uncommitted changes in companion/" if dirty else "")
    except Exception:  # noqa: BLE001 - not a git checkout
        return "unknown"


def table(rows: list[tuple[str, str, int, str, dict]]) -> str:
    """The figures: one line per game played (rows of (game, label, players, mode, result))."""
    head = f"{'game':<18} {'table':<28} {'players':>7} {'mode':>9} {'turns':>6} {'end':>4} {'setup taps':>10} " \
           f"{'setup screens':>13} {'taps/turn':>9} {'screens/turn':>12} {'seconds':>8}"
    lines = [head, "-" * len(head)]
    for game, name, n, mode, r in rows:
        if "error" in r:
            lines.append(f"{game:<18} {name:<28} {n:>7} {mode:>9}   failed: {r['error']}")
            continue
        taps = statistics.mean(r["taps"]) if r["taps"] else 0.0
        screens = statistics.mean(r["screens"]) if r["screens"] else 0.0
        lines.append(f"{game:<18} {name:<28} {n:>7} {mode:>9} {r['turns']:>6} {'yes' if r['ended'] else 'no':>4} "
                     f"{r['setup_taps']:>10} {r['setup_screens']:>13.1f} {taps:>9.1f} {screens:>12.2f} "
                     f"{r['seconds']:>8.0f}")
    return "\n".join(lines)


class TableDriver:
    """What every game's driver does alike: the phones, the server read in-process (reading only), and
    the set-up through the pages: the first phone opens the home page, starts a table of `game_id`
    (names typed, `options` chosen: the game's own), takes its seat and shows the invite code; every
    other phone types the code on its home page, joins and takes its seat; each opens the board. A
    game's driver adds how its moves are chosen and tapped."""

    game_id = ""
    phone_class = Phone
    tally_class = Tally
    #: the board page has drawn the table (a JS expression)
    board_ready = "window.tkTable && tkTable.table && tkTable.table.state"
    #: the table's seq as the page shows it (a JS expression)
    page_seq_js = "window.tkTable && tkTable.table ? tkTable.table.seq : null"

    def __init__(self, browser, server, services, players: int, mode: str, seed: int, turns: int | None,
                 log=None):
        import random
        self.browser, self.server, self.services = browser, server, services
        self.n, self.mode, self.seed, self.max_turns = players, mode, seed, turns
        self.game = services.games[self.game_id]
        self.rng = random.Random(seed)
        self.tally = self.tally_class()
        self.log = log or (lambda *a: None)
        self.phones = [self.phone_class(browser, NAMES[i], self.tally, server.url) for i in range(players)]
        self.code: str | None = None
        self.moves = 0
        self.ended = False

    # ---- the server, read in-process ----
    def state(self) -> dict:
        return self.services.tables.state(self.code)[1]

    def seq(self) -> int:
        return self.services.tables.seq(self.code)

    # ---- set-up ----
    def options(self, host: Phone, page) -> None:
        """Choose the game's options on the new-table page (the names are typed already)."""

    def setup(self) -> None:
        host = self.phones[0]
        page = host.page
        page.goto(self.server.url + "/")
        new = page.locator(f"a[href*='{self.game_id}']", has_text=re.compile("new table", re.I))
        host.tap(new.first)
        page.wait_for_load_state()
        for i in range(self.n):
            box = page.locator(f"#p{i}")
            if not box.count() or not box.is_visible():
                host.tap(page.get_by_role("button", name=re.compile(r"\+\s*player", re.I)))
                box = page.locator(f"#p{i}")
            host.type(box, NAMES[i])
        self.options(host, page)
        host.tap(page.get_by_role("button", name=re.compile("start the table", re.I)))
        page.wait_for_url(re.compile(r"/t/[0-9A-Z]{8}$"))
        self.code = page.url.rsplit("/", 1)[1]
        self.take_seat(host, 0)
        invite = page.get_by_role("button", name=re.compile("invite", re.I))
        if invite.count() and invite.first.get_attribute("aria-expanded") != "true":
            host.tap(invite.first)
        shown = page.locator(".joincode")
        code_text = shown.first.inner_text() if shown.count() else self.code
        for i, phone in enumerate(self.phones[1:], start=1):
            p = phone.page
            p.goto(self.server.url + "/")
            box = p.locator("input[name=code]").first
            phone.type(box, code_text)
            phone.tap(p.locator("form", has=box).get_by_role("button", name=re.compile("join", re.I)))
            p.wait_for_url(re.compile(f"/t/{self.code}$"))
            self.take_seat(phone, i)
        for phone in self.phones:
            self.open_board(phone)

    def take_seat(self, phone: Phone, i: int) -> None:
        p = phone.page
        p.wait_for_function("window.tkTable && tkTable.table", timeout=WAIT_S * 1000)
        if p.locator("#seat").is_visible():
            seats = p.locator("#seat-buttons button")
            idx = [k for k, (t, *_r) in enumerate(button_texts(p.locator("#seat-buttons")))
                   if starts_with_name(t, NAMES[i])]
            if not idx:
                raise DeadEnd(f"no seat button for {NAMES[i]}")
            phone.tap(seats.nth(idx[0]))
            p.wait_for_function(f"tk.me({self.code!r}) === {i}", timeout=WAIT_S * 1000)

    def open_board(self, phone: Phone) -> None:
        p = phone.page
        if "/board" not in p.url:
            link = p.get_by_role("link", name=re.compile("open the board|enter moves|board", re.I))
            phone.tap(link.first)
        p.wait_for_function(self.board_ready, timeout=WAIT_S * 1000)

    # ---- waiting ----
    def synced(self, phone: Phone) -> None:
        """Wait until `phone`'s page shows the table as it is now, and stays so for a moment."""
        want = self.seq()
        settled = 0
        end = time.monotonic() + 3 * WAIT_S
        while settled < 2:
            if time.monotonic() > end:
                raise TimeoutError(f"{phone.name}'s page did not show step {want}")
            settled = settled + 1 if phone.page.evaluate(self.page_seq_js) == want else 0
            time.sleep(0.03)

    def close(self) -> None:
        for ph in self.phones:
            with contextlib.suppress(Exception):
                ph.close()

    def log_result(self, r: dict) -> None:
        """Lines of the game's own about a finished run (with -v)."""

    @classmethod
    def run(cls, browser, server, services, players: int, mode: str, seed: int, turns: int | None,
            log=None) -> dict:
        """Play one table (table_replay.py's `play_game`): the companion's shuffles seeded, the phones
        closed whatever happens."""
        game = cls(browser, server, services, players, mode, seed, turns, log)
        try:
            with seeded_tables(seed):
                r = game.play()
            if log:
                game.log_result(r)
            return r
        finally:
            game.close()
