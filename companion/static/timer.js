/* The table's timers, on every page of a table: any number at once, each with its name and its own
 * controls; a countdown of any duration (mm:ss) or a chess clock (one countdown per seat, "pass"
 * hands the time to the next seat, a seat out of time is flagged). Each counts down locally from
 * the server's deadline (tk.clock), rings when the server says it has expired, keeps the screen
 * awake while one runs, and asks for a tap when the phone's sound is locked (after a reload the
 * browser lets a page sound only after a tap). The game's own timers are shown in the pinned bar
 * (pinned.js), which also shows every running timer of this panel large at the top of the screen
 * and takes the "Tap to enable sound" prompt in; the prompt and the wake lock count the game's
 * running timers too (a game's timed phase rings at its end as well). */
(function () {
  "use strict";
  if (window.tk && tk.Timers) return;          // a page that loads this file twice
  const { el } = tk;
  const NAME = /^[A-Za-z0-9][A-Za-z0-9 _.:-]{0,39}$/;
  const PRESETS = [30, 60, 120, 180, 300];

  /** "1:30", "90", "2:05:00", "1h", "45s" -> seconds (null when it is not a duration). */
  tk.parseDuration = function (text) {
    const s = String(text || "").trim().toLowerCase();
    let m = s.match(/^(\d{1,2}):(\d{1,2}):(\d{1,2})$/);
    if (m) return (+m[1]) * 3600 + (+m[2]) * 60 + (+m[3]);
    m = s.match(/^(\d{1,4}):(\d{1,2})$/);
    if (m) return (+m[1]) * 60 + (+m[2]);
    m = s.match(/^(\d{1,4})\s*(s|sec|m|min|h)?$/);
    if (m) return (+m[1]) * ({ h: 3600, m: 60, min: 60 }[m[2]] || (m[2] ? 1 : 60));
    return null;
  };
  tk.formatLong = function (ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    return s >= 3600 ? Math.floor(s / 3600) + ":" + String(Math.floor(s / 60) % 60).padStart(2, "0") + ":" +
      String(s % 60).padStart(2, "0") : tk.formatMs(ms);
  };
  /** Is the phone's sound locked (no tap yet since the page opened)? */
  tk.soundLocked = function () {
    if (!(window.AudioContext || window.webkitAudioContext)) return false;
    return !tk.alarm.ctx || tk.alarm.ctx.state !== "running";
  };

  tk.Timers = class {
    /** `root`: where the panel goes; `link`: the table (tk.TableLink). */
    constructor(root, link) {
      this.root = root; this.link = link;
      this.table = null; this.focus = null; this.faces = new Map(); this.asked = null;
      this.rung = new Set(); this.seenRunning = new Set();
      // the prompt sits at the top of the page (a game page keeps its timers folded at the bottom)
      this.sound = el("div", { class: "tm-sound", role: "alert", hidden: true },
        // in the pinned bar (pinned.js) the button says "♪ Sound" beside the clock, one line
        el("button", { type: "button", class: "wide", "aria-label": "Tap to enable sound",
                       onclick: () => { tk.alarm.unlock(); this.renderSound(); } },
          el("span", { class: "tm-long" }, "Tap to enable sound"),
          el("span", { class: "tm-short", "aria-hidden": "true" }, "♪ Sound")),
        el("p", { class: "small muted", style: "margin:.3rem 0 0" }, "A timer is running: this phone rings when it runs out only after a tap."));
      this.list = el("div", { class: "tm-list" });
      this.msg = el("div", { class: "msg", role: "status" });
      const main = document.querySelector("main");
      if (main && !document.querySelector(".tm-sound")) main.prepend(this.sound); else root.append(this.sound);
      root.append(this.list, this.msg, this.form());
      this.tick = this.tick.bind(this);
      requestAnimationFrame(this.tick);
    }

    // ---- the "new timer" form ----
    form() {
      const id = "tm" + Math.random().toString(36).slice(2, 7);
      this.nameIn = el("input", { id: id + "n", type: "text", maxlength: "40", autocomplete: "off", value: "Timer" });
      this.durIn = el("input", { id: id + "d", type: "text", inputmode: "numeric", autocomplete: "off",
                                 placeholder: "mm:ss", value: "1:00", "aria-describedby": id + "h" });
      this.chess = el("input", { id: id + "c", type: "checkbox" });
      const start = el("button", { type: "submit" }, "Start");
      const f = el("form", { class: "tm-new", onsubmit: (ev) => { ev.preventDefault(); this.startFromForm(); } },
        el("p", { class: "small muted", style: "margin:.2rem 0 .3rem" }, "Start a countdown:"),
        el("div", { class: "choices tm-presets" }, PRESETS.map((s) => el("button", {
          class: "secondary", type: "button", onclick: () => { this.durIn.value = tk.formatMs(s * 1000); this.startFromForm(); },
        }, tk.formatMs(s * 1000)))),
        el("div", { class: "tm-fields" },
          el("label", { for: id + "n" }, "Name", this.nameIn),
          el("label", { for: id + "d" }, "Duration", this.durIn)),
        el("p", { class: "small muted", id: id + "h", style: "margin:.2rem 0" }, "Minutes:seconds, e.g. 1:30 or 12:00 (or 1:00:00)."),
        el("label", { class: "tm-check", for: id + "c" }, this.chess,
          el("span", null, el("strong", null, "Chess clock"), ": one clock per player, each gets this time; tapping passes to the next player.")),
        start);
      this.chess.addEventListener("change", () => {     // a name the phone chose follows the kind
        const v = this.nameIn.value.trim();
        if (!v || /^(Timer|Chess clock)( \d+)?$/.test(v)) this.nameIn.value = this.freeName(this.chess.checked ? "Chess clock" : "Timer");
      });
      return f;
    }

    freeName(base) {
      const taken = new Set(this.own().map((t) => t.name));
      if (!taken.has(base)) return base;
      for (let i = 2; ; i++) { const n = (base + " " + i).slice(0, 40); if (!taken.has(n)) return n; }
    }

    async startFromForm() {
      const name = this.nameIn.value.trim() || (this.chess.checked ? "Chess clock" : "Timer");
      const seconds = tk.parseDuration(this.durIn.value);
      if (!NAME.test(name)) { tk.say(this.msg, "bad", "A timer's name is 1 to 40 letters, digits, spaces or _ . : -"); return; }
      if (!seconds || seconds > 24 * 3600) { tk.say(this.msg, "bad", "Write the duration as minutes:seconds, e.g. 1:30 (at most 24 hours)."); return; }
      const payload = { seconds };
      if (this.chess.checked) {
        payload.clock = "chess";
        const t = this.table;
        payload.seat = t && Number.isInteger(t.turn) ? t.turn : 0;
      }
      this.focus = name;
      const ok = await this.act(name, "start", payload);
    }

    async act(name, action, more) {
      tk.say(this.msg, "info", "");
      const r = await this.link.send("/timers", Object.assign({ timer: name, action }, more || {}));
      if (!r.ok) tk.say(this.msg, "bad", tk.explain(r), r.body && r.body.reasons);
      return r.ok;
    }

    // ---- the timers ----
    own() { return ((this.table && this.table.timers) || []).filter((t) => t.owner !== "game"); }

    /** The timer this phone looks at most (the one it started last, else the first): tests. */
    get timer() {
      const own = this.own();
      return own.find((t) => t.name === this.focus) || own[0] || null;
    }
    remaining(t) {
      t = t || this.timer;
      if (!t) return 0;
      if (t.status === "running") return t.deadline_ms - tk.clock.now();
      return t.remaining_ms;
    }

    update(table) {
      this.table = table;
      this.asked = null;
      const own = this.own();
      for (const t of table.timers || []) {
        const tag = t.name + "@" + t.deadline_ms;
        if (t.status === "running") this.seenRunning.add(tag);
        if (t.status === "expired" && this.seenRunning.has(tag) && !this.rung.has(tag)) {
          this.rung.add(tag);
          if (t.owner !== "game") tk.alarm.ring();        // the server decided: ring now
        }
      }
      tk.wake.set(this.running());
      const v = this.nameIn.value.trim();
      if (document.activeElement !== this.nameIn && (!v || /^(Timer|Chess clock)( \d+)?$/.test(v))) {
        this.nameIn.value = this.freeName(this.chess.checked ? "Chess clock" : "Timer");
      }
      this.faces.clear();
      this.list.replaceChildren(...own.map((t) => this.card(t)));
      this.renderSound();
      this.render();
    }

    card(t) {
      const status = t.status;
      const face = el("div", { class: "timer-face " + status, role: "timer", "aria-live": "off" }, "0:00");
      this.faces.set(face, { t });
      const btn = (label, action, cls) => el("button", { type: "button", class: cls || null,
                                                         onclick: () => { this.focus = t.name; this.act(t.name, action); } }, label);
      const controls = el("div", { class: "row tm-controls" },
        status === "running" ? btn("Pause", "pause") : null,
        status === "paused" ? btn("Resume", "resume") : null,
        status !== "idle" ? btn("Reset", "reset", "secondary") : null,
        status === "idle" && t.kind !== "chess"        // a reset timer starts again with its duration
          ? el("button", { type: "button", onclick: () => this.restart(t) }, "Start " + tk.formatLong(t.duration_ms)) : null);
      const note = { idle: "Ready", running: "Running", paused: "Paused", expired: "Time is up!" }[status];
      const box = el("div", { class: "tm-card" + (t.kind === "chess" ? " chess" : ""), "data-timer": t.name },
        el("div", { class: "tm-head" }, el("strong", null, t.name),
          el("span", { class: "small muted" }, (t.kind === "chess" && !/chess/i.test(t.name) ? "Chess clock · " : "") + note)));
      if (t.kind === "chess") box.append(this.chessBody(t, face), controls);
      else box.append(face, controls);
      return box;
    }

    restart(t) {
      const more = { seconds: t.duration_ms / 1000 };
      if (t.kind === "chess") Object.assign(more, { clock: "chess", seat: t.seat });
      this.focus = t.name;
      this.act(t.name, "start", more);
    }

    chessBody(t, face) {
      const players = (this.table && this.table.players) || [];
      const seats = el("ol", { class: "tm-seats" }, t.clocks.map((c) => {
        const time = el("span", { class: "tm-seat-time" }, tk.formatLong(c.remaining_ms));
        if (c.seat === t.seat && t.status === "running") this.faces.set(time, { t });
        return el("li", { class: (c.seat === t.seat ? "on " : "") + (c.flagged ? "flagged" : ""), "data-seat": String(c.seat) },
          el("span", { class: "tm-seat-name" }, (c.flagged ? "⚑ " : c.seat === t.seat ? "▶ " : "") + (players[c.seat] || "Seat " + (c.seat + 1))),
          time, c.flagged ? el("span", { class: "small" }, " out of time") : null);
      }));
      const next = this.nextSeat(t);
      const who = players[t.seat] || "Seat " + (t.seat + 1);
      face.setAttribute("aria-label", who + "'s time");
      const name = (i) => players[i] || "Seat " + (i + 1);
      let pass = null;
      if (t.status === "idle") {           // a reset chess clock starts again at its first seat
        pass = el("button", { type: "button", class: "wide tm-pass", onclick: () => this.restart(t) },
          "Start: " + who + "'s time runs");
      } else if (next !== null) {
        pass = el("button", { type: "button", class: "wide tm-pass",
                              onclick: () => { this.focus = t.name; this.act(t.name, "pass"); } },
          t.status === "running" ? who + " is done: pass to " + name(next) : "Go on: " + name(next) + "'s time runs");
      }
      const flagged = t.status === "expired" ? el("p", { class: "msg bad", role: "alert" }, "⚑ " + who + " ran out of time.") : null;
      return el("div", null, el("p", { class: "small", style: "margin:.2rem 0;text-align:center" }, el("strong", null, who), t.status === "running" ? "'s time runs" : ""),
        face, flagged, pass, seats);
    }

    nextSeat(t) {
      const n = t.clocks.length;
      const out = new Set(t.clocks.filter((c) => c.flagged).map((c) => c.seat));
      if (t.status === "running" && t.deadline_ms - tk.clock.now() <= 0) out.add(t.seat);
      for (let step = 1; step <= n; step++) { const s = (t.seat + step) % n; if (!out.has(s)) return s; }
      return null;
    }

    /** Does a timer of the table run (its own, or the game's timed phase)? */
    running() { return ((this.table && this.table.timers) || []).some((t) => t.status === "running"); }

    renderSound() {
      this.sound.hidden = !(this.running() && tk.soundLocked());
    }

    render() {
      for (const [node, { t }] of this.faces) {
        const txt = tk.formatLong(this.remaining(t));
        if (node.textContent !== txt) node.textContent = txt;
      }
    }

    tick() {
      this.render();
      if (!this.sound.hidden && !tk.soundLocked()) this.sound.hidden = true;
      // A countdown reached zero here: ask the server for its verdict unless the stream brings it.
      if (this.own().some((t) => t.status === "running" && this.remaining(t) <= 0)) {
        const waited = this.asked ? performance.now() - this.asked : Infinity;
        if (waited > (this.link.mode === "live" ? 1500 : 400)) {
          this.asked = performance.now();
          this.link.reload();
        }
      }
      requestAnimationFrame(this.tick);
    }

    /** Timers already expired when the page opened do not ring. */
    primed(table) {
      for (const t of table.timers || []) if (t.status === "expired") this.rung.add(t.name + "@" + t.deadline_ms);
    }
  };

  /** The one-timer widget pages used to build (new tk.TimerWidget(root, link, name)): the panel. */
  tk.TimerWidget = class extends tk.Timers {
    constructor(root, link) { super(root, link); }
  };

  /**
   * On a game's own page (board_base.html): the timers panel in #timers unless the page built
   * its own (an element #timer); fed by every table the page's link receives.
   */
  let panel = null, primed = false;
  document.addEventListener("tk:table", (ev) => {
    const { link, table } = ev.detail;
    if (!panel) {
      const box = document.getElementById("timers");
      if (!box || document.getElementById("timer")) return;
      panel = new tk.Timers(box, link);
      window.tkTimer = window.tkTimer || panel;
      const card = document.getElementById("timers-card");
      if (card) card.hidden = false;
    }
    if (!primed) { panel.primed(table); primed = true; }
    panel.update(table);
    const card = document.getElementById("timers-card");
    if (card && card.tagName === "DETAILS" && panel.own().some((t) => t.status === "running" || t.status === "expired")) card.open = true;
  });
})();
