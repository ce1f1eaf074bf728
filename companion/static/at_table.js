/* What every page of a table shows beside the game's own: turn cues (a last-round banner, the counts
 * left in the deck and bag where the game's rules know them: the table's "facts") and, on the table
 * page, the set-up walked step by step (the table's "setup" steps, while the game is set up).
 * Each fills its element when present: #facts, #setup-walk (data-board: the page that enters moves). */
(function () {
  "use strict";
  if (window.tk && tk.renderFacts) return;
  const { el } = tk;

  /** The last-round banner and the counts left, from table.facts (nothing when unknown). */
  tk.renderFacts = function (box, table) {
    if (!box) return;
    const f = (table && !table.result && table.facts) || {};
    const counts = (f.counts || []).filter((c) => c && typeof c.n === "number");
    box.hidden = !f.last_round && !counts.length;
    box.replaceChildren(
      f.last_round ? el("p", { class: "facts-last", role: "status" }, "Last round!",
        f.last_round_note ? el("span", { class: "small" }, " " + f.last_round_note) : null) : "",
      counts.length ? el("ul", { class: "facts-counts" }, counts.map((c) =>
        el("li", null, el("span", null, c.label), el("strong", { class: "n" }, String(c.n))))) : "");
  };

  /**
   * The set-up, one step at a time, with Back / Next and the count of steps left: one walk for the
   * whole table. The step shown is the table's (GET/POST /api/tables/<code>/walk, a `walk` event in
   * its log): a Next or Back on one phone moves every phone's walk. A phone without a seat or the
   * host's token (a watcher) follows it and may look back and forth on its own. Once play has begun
   * the steps stay readable, folded under "Set-up steps". Folding is this phone's own choice.
   */
  tk.SetupWalk = class {
    constructor(root, link) {
      this.root = root; this.link = link; this.steps = []; this.i = 0; this.shared = null;
      this.playing = false; this.asked = -1; this.seq = -1;
      this.key = "tk.setup." + link.code;
      const saved = (() => { try { return JSON.parse(localStorage.getItem(this.key)) || {}; } catch (e) { return {}; } })();
      this.closed = !!saved.closed;
      this.board = root.dataset.board || null;
    }
    save() { try { localStorage.setItem(this.key, JSON.stringify({ closed: this.closed })); } catch (e) { /* private */ } }
    update(table) {
      if (!table) return;
      this.over = !!table.result;
      const live = table.setup || [];
      if (live.length) {
        this.playing = false;
        this.steps = live;
        if (this.i >= live.length) this.i = live.length - 1;
      }
      this.render();
      // the table's step, once per seq while the set-up runs; once play has begun, the set-up's
      // steps kept to read, once (they no longer change)
      if (table.seq !== this.seq && (live.length || !this.kept)) { this.seq = table.seq; this.fetch(); }
    }
    async fetch() {
      const seq = this.seq;
      const r = await tk.api("GET", "/api/tables/" + encodeURIComponent(this.link.code) + "/walk");
      if (r.status !== 200 || seq !== this.seq || this.sending) return;   // (this phone's own walk goes first)
      this.adopt(r.body);
    }
    adopt(w) {
      this.playing = !!w.playing;
      this.kept = this.playing;
      this.steps = w.steps || [];
      const n = this.steps.length;
      if (w.step !== this.shared) {
        const first = this.shared === null;
        this.shared = w.step;
        // the table moved its walk: this phone shows that step (done: the walk folds)
        if (w.step >= n) { this.closed = true; this.i = this.playing ? 0 : Math.max(0, n - 1); }
        else { this.i = w.step; if (!first) this.closed = false; }
      }
      this.render();
    }
    canWalk() { return !this.playing && !!tk.token(this.link.code); }
    async go(i) {
      const n = this.steps.length;
      i = Math.max(0, Math.min(n, i));
      if (i < n) this.i = i;
      if (i === n) this.closed = true;
      this.render();
      this.root.scrollIntoView({ block: "nearest" });
      if (!this.canWalk()) { this.save(); return; }
      this.shared = i;
      this.want = i;
      if (!this.sending) this.flush();
    }
    /** Sends the step this phone walked to, one request at a time (the latest tap wins). */
    async flush() {
      this.sending = true;
      let done;
      this.sent = new Promise((resolve) => { done = resolve; });
      try {
        while (this.want !== null && this.want !== undefined) {
          const i = this.want;
          this.want = null;
          let r = await this.link.send("/walk", { step: i });
          if (r.status === 409) r = await this.link.send("/walk", { step: i });   // another phone was first
          if (!r.ok && r.status !== 0) tk.say(this.root.querySelector(".walk-msg"), "bad", tk.explain(r));
        }
      } finally { this.sending = false; done(); }
      this.fetch();
    }
    /**
     * Leaving the page (the board, to enter a draw) while a step is on its way would cancel it and
     * the table's walk would stay a step behind: the link waits for the step to be stored (4 s at
     * most: a phone with no connection still goes).
     */
    leave(ev) {
      if (!this.sending || ev.button || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;   // (a new tab: as asked)
      ev.preventDefault();
      const href = ev.currentTarget.href;
      Promise.race([this.sent, new Promise((resolve) => setTimeout(resolve, 4000))])
        .then(() => { location.href = href; });
    }
    render() {
      const r = this.root, n = this.over ? 0 : this.steps.length;
      r.hidden = !n;
      if (!n) { r.replaceChildren(); return; }
      if (this.closed) {
        r.replaceChildren(el("button", { type: "button", class: "secondary wide", "aria-expanded": "false",
                                         onclick: () => { this.closed = false; this.save(); this.render(); } },
          (this.playing ? "Set-up steps (" : "Show the set-up steps (") + n + ")"));
        return;
      }
      const s = this.steps[this.i], left = n - this.i - 1, walks = this.canWalk();
      const input = s.input && !this.playing ? el("div", { class: "walk-input" },
        s.done ? el("p", { class: "msg good" }, "✓ Entered.") : null,
        this.board ? el("a", { class: "button wide" + (s.done ? " secondary" : ""), href: this.board + "?enter=" + encodeURIComponent(s.input),
                                onclick: (ev) => this.leave(ev) },
          s.done ? "Change it on the board" : "Enter it now") : null) : null;
      const fold = () => { this.closed = true; this.save(); this.render(); };
      r.replaceChildren(
        el("div", { class: "walk-head" }, el("h2", null, this.playing ? "Set-up steps" : "Set-up"),
          el("span", { class: "walk-count", "aria-live": "polite" }, "Step " + (this.i + 1) + " of " + n)),
        el("ol", { class: "walk-dots", "aria-hidden": "true" }, this.steps.map((x, j) =>
          el("li", { class: (j === this.i ? "on " : "") + (j < this.i || x.done ? "past" : "") }))),
        el("h3", { class: "walk-title" }, s.title),
        el("p", { class: "walk-text" }, s.text),
        input || "",
        el("p", { class: "small muted walk-left" }, this.playing ? "Play has begun: these are the set-up's steps, to read again."
          : (left ? left + (left === 1 ? " step" : " steps") + " left after this one." : "This is the last step.") +
            (walks ? " Every phone at the table follows this walk." : " This phone follows the table's walk.")),
        el("div", { class: "walk-msg msg", role: "status" }),
        el("div", { class: "row walk-nav" },
          el("button", { type: "button", class: "secondary", disabled: this.i === 0, onclick: () => this.go(this.i - 1) }, "Back"),
          left ? el("button", { type: "button", class: "grow", onclick: () => this.go(this.i + 1) }, "Next")
            : this.playing ? el("button", { type: "button", class: "grow secondary", onclick: fold }, "Fold the steps")
              : el("button", { type: "button", class: "grow", onclick: () => this.go(n) }, "Done: set up")),
        this.playing && left ? el("button", { type: "button", class: "secondary wide", onclick: fold }, "Fold the steps") : "");
    }
  };

  /**
   * A set-up step's "Enter it now" opens the game's page with ?enter=<move type>: once the page has
   * drawn its controls, the one marked data-enter="<move type>" (what starts entering that move) is
   * tapped for the player and brought into view. Once only.
   */
  let entered = false;
  function enterAsked() {
    if (entered) return;
    const want = new URLSearchParams(location.search).get("enter");
    if (!want) { entered = true; return; }
    const find = () => [...document.querySelectorAll("[data-enter]")].find((b) => b.dataset.enter === want);
    const control = find();
    if (!control) return;
    entered = true;
    if (control.getAttribute("aria-pressed") !== "true") control.click();
    // (6 s: on a slow phone, or a busy server, the live table's first drawing can come after 2)
    keepInView(find, 6000);
  }

  /**
   * Bring the element `find()` returns to the top of the screen, and again whenever the page's
   * layout changes in the next `ms` (the live table's first drawing, the pinned bar, a late font can
   * push it down), until the player touches, scrolls or types. Found anew each time: the game's page
   * may have drawn the control again meanwhile, and the one found first is then no longer shown.
   */
  function keepInView(find, ms) {
    const bring = () => { const el = find(); if (el) el.scrollIntoView({ block: "start" }); };
    bring();
    if (!window.ResizeObserver) return;
    const watch = new ResizeObserver(bring);
    const stop = () => {
      watch.disconnect();
      for (const type of ["pointerdown", "wheel", "keydown", "touchstart"]) removeEventListener(type, stop, true);
    };
    watch.observe(document.body);
    for (const type of ["pointerdown", "wheel", "keydown", "touchstart"]) addEventListener(type, stop, true);
    setTimeout(stop, ms);
  }

  /**
   * A game's own page: under its prompt, whose turn it is said to this phone (tk.turnLine: the host
   * phone names the seat to play), and a heading "Your move(s)" names that seat when the move is
   * not this phone's seat's. The table page says it itself (#turn).
   */
  function turnOnBoard(link, t) {
    const prompt = document.getElementById("prompt");
    if (!prompt || document.getElementById("turn")) return;
    let line = document.getElementById("turn-line");
    if (!line) {
      line = el("p", { id: "turn-line", class: "turn-line small" });
      prompt.insertAdjacentElement("afterend", line);
    }
    const text = tk.turnLine(link.code, t);
    line.textContent = text || "";
    // (everyone at once: the line is the table's prompt, which the page shows just above it)
    line.hidden = !text || !!t.result || text === ((t.needs && t.needs.prompt) || null);
    const acts = t.actors || {}, seats = acts.seats || [];
    const mine = tk.myTurn(link.code, t);
    for (const h of document.querySelectorAll("h2, h3")) {
      const said = h.textContent.trim();
      const orig = h.dataset.yourHeading || (/^Your moves?$/.test(said) ? said : null);
      if (!orig) continue;
      h.dataset.yourHeading = orig;
      const plural = orig.endsWith("s") ? "s" : "";
      h.textContent = mine || !seats.length || acts.mode === "all" ? orig
        : seats.length === 1 ? t.players[seats[0]] + "'s move" + plural : "Their move" + plural;
    }
  }

  // Every page of a table: fill #facts and #setup-walk from each table the page's link receives.
  let walk = null;
  document.addEventListener("tk:table", (ev) => {
    const { link, table } = ev.detail;
    window.tkAtTable = link;          // the page's table link (browser tests, curious players)
    tk.renderFacts(document.getElementById("facts"), table);
    const w = document.getElementById("setup-walk");
    if (w) { if (!walk) { walk = new tk.SetupWalk(w, link); window.tkWalk = walk; } walk.update(table); }
    turnOnBoard(link, table);
    enterAsked();
  });
})();
