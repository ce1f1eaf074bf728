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

  /** The set-up, one step at a time, with Back / Next and the count of steps left. */
  tk.SetupWalk = class {
    constructor(root, link) {
      this.root = root; this.link = link; this.steps = [];
      this.key = "tk.setup." + link.code;
      const saved = (() => { try { return JSON.parse(localStorage.getItem(this.key)) || {}; } catch (e) { return {}; } })();
      this.i = saved.i || 0; this.closed = !!saved.closed;
      this.board = root.dataset.board || null;
    }
    save() { try { localStorage.setItem(this.key, JSON.stringify({ i: this.i, closed: this.closed })); } catch (e) { /* private */ } }
    update(table) {
      const steps = (table && !table.result && table.setup) || [];
      const same = JSON.stringify(steps.map((s) => s.title)) === JSON.stringify(this.steps.map((s) => s.title));
      this.steps = steps;
      if (!same && this.i >= steps.length) this.i = 0;
      this.render();
    }
    go(i) { this.i = Math.max(0, Math.min(this.steps.length - 1, i)); this.save(); this.render(); this.root.scrollIntoView({ block: "nearest" }); }
    render() {
      const r = this.root, n = this.steps.length;
      r.hidden = !n;
      if (!n) { r.replaceChildren(); return; }
      if (this.closed) {
        r.replaceChildren(el("button", { type: "button", class: "secondary wide", onclick: () => { this.closed = false; this.save(); this.render(); } },
          "Show the set-up steps (" + n + ")"));
        return;
      }
      const s = this.steps[this.i], left = n - this.i - 1;
      const input = s.input ? el("div", { class: "walk-input" },
        s.done ? el("p", { class: "msg good" }, "✓ Entered.") : null,
        this.board ? el("a", { class: "button wide" + (s.done ? " secondary" : ""), href: this.board + "?enter=" + encodeURIComponent(s.input) },
          s.done ? "Change it on the board" : "Enter it now") : null) : null;
      r.replaceChildren(
        el("div", { class: "walk-head" }, el("h2", null, "Set-up"),
          el("span", { class: "walk-count", "aria-live": "polite" }, "Step " + (this.i + 1) + " of " + n)),
        el("ol", { class: "walk-dots", "aria-hidden": "true" }, this.steps.map((x, j) =>
          el("li", { class: (j === this.i ? "on " : "") + (j < this.i || x.done ? "past" : "") }))),
        el("h3", { class: "walk-title" }, s.title),
        el("p", { class: "walk-text" }, s.text),
        input || "",
        el("p", { class: "small muted walk-left" }, left ? left + (left === 1 ? " step" : " steps") + " left after this one." : "This is the last step."),
        el("div", { class: "row walk-nav" },
          el("button", { type: "button", class: "secondary", disabled: this.i === 0, onclick: () => this.go(this.i - 1) }, "Back"),
          left ? el("button", { type: "button", class: "grow", onclick: () => this.go(this.i + 1) }, "Next")
            : el("button", { type: "button", class: "grow", onclick: () => { this.closed = true; this.save(); this.render(); } }, "Done: set up")));
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
    const control = [...document.querySelectorAll("[data-enter]")].find((b) => b.dataset.enter === want);
    if (!control) return;
    entered = true;
    if (control.getAttribute("aria-pressed") !== "true") control.click();
    control.scrollIntoView({ block: "start" });
  }

  // Every page of a table: fill #facts and #setup-walk from each table the page's link receives.
  let walk = null;
  document.addEventListener("tk:table", (ev) => {
    const { link, table } = ev.detail;
    window.tkAtTable = link;          // the page's table link (browser tests, curious players)
    tk.renderFacts(document.getElementById("facts"), table);
    const w = document.getElementById("setup-walk");
    if (w) { if (!walk) { walk = new tk.SetupWalk(w, link); window.tkWalk = walk; } walk.update(table); }
    enterAsked();
  });
})();
