/* The pinned bar, on every game page of a table (at_table.html): the clock and the call always in view.
 *
 * While a timer of the table runs (the game's own timed phase, a table timer, a chess clock: every
 * timer in table.timers that runs or is paused, or ran out a few seconds ago), and while the page
 * shows an element carrying the attribute `data-pin` (a game's call: STOP!, Confirm / Reject, the
 * count's "I declare…"), a bar sits at the top of the screen (position: sticky: the page's content
 * moves down under it, never hides behind it) with
 *   - each timer large (mm:ss, counted down here from the server's deadline with tk.clock), its name
 *     in words, a chess clock's running seat and every seat's time;
 *   - the data-pin elements themselves, moved into the bar (their handlers go with them) while they
 *     are not hidden, and put back in their place when they become hidden;
 *   - at expiry, the sentence the server wrote in the expire event (the game's describe_expiry, or
 *     "Time is up: <name>"), for RECENT_MS or until the next move.
 * A call appearing chimes and vibrates (the "Chime and vibrate" setting of the table page), expiry
 * rings. Nothing runs and nothing is pinned: the bar is hidden and takes no space.
 * Games may name their timers in words: tk.timerWords[name] = "Time left in the round".
 */
(function () {
  "use strict";
  if (!window.tk || tk.pinned !== undefined) return;      // a page that loads this file twice
  const { el } = tk;
  const RECENT_MS = 10000;      // an expired timer and the expiry sentence stay this long

  tk.timerWords = Object.assign({
    round: "Time left in the round",
    floor: "Time left on this floor",
    count: "The count",
  }, tk.timerWords || {});
  const words = (t) => t.owner === "game"
    ? tk.timerWords[t.name] || (t.name.charAt(0).toUpperCase() + t.name.slice(1)).replace(/[-_]/g, " ")
    : t.name;

  // One sound, however many parts of the page heard the news (the game's page, timer.js, this bar,
  // the turn cue): rings closer than 3 s are one ring, chimes closer than 1.5 s one chime.
  const once = (fn, ms) => {
    let last = -Infinity;
    return function () {
      const now = performance.now();
      if (now - last < ms) return;
      last = now;
      fn();
    };
  };
  tk.alarm.ring = once(tk.alarm.ring.bind(tk.alarm), 3000);
  tk.alarm.chime = once(tk.alarm.chime.bind(tk.alarm), 1500);

  class Pinned {
    constructor() {
      this.bar = el("section", { id: "pinbar", class: "pinbar", hidden: true, "aria-label": "The clock and the call" });
      this.soundSlot = el("div", { class: "pin-sound" });
      this.said = el("p", { class: "pin-said", role: "alert", hidden: true });
      this.clocks = el("div", { class: "pin-clocks" });
      this.calls = el("div", { class: "pin-calls", "aria-live": "polite" });
      this.bar.append(this.soundSlot, this.said, this.clocks, this.calls);
      const main = document.querySelector("main");
      (main || document.body).prepend(this.bar);
      this.link = null; this.table = null; this.ready = false;
      this.faces = [];                   // [{node, t, seat}] counted down every frame
      this.homes = new Map();            // a pinned element -> the comment left in its place
      this.seenEvent = 0; this.saying = null;
      this.seenRunning = new Set(); this.rung = new Set();
      // the page changed (not the bar's own clocks ticking): look at the calls again
      this.observer = new MutationObserver((records) => {
        if (records.some((r) => !this.clocks.contains(r.target) && r.target !== this.said)) this.soon();
      });
      this.observer.observe(document.body, { subtree: true, childList: true, attributes: true,
                                             attributeFilter: ["hidden", "data-pin"] });
      this.tick = this.tick.bind(this);
      requestAnimationFrame(this.tick);
      this.soon();
    }

    soon() {
      if (this.queued) return;
      this.queued = true;
      Promise.resolve().then(() => { this.queued = false; this.pins(); this.layout(); });
    }

    // ---- the calls (data-pin) ----
    pins() {
      const fresh = [];
      for (const [node, home] of this.homes) {
        if (!node.isConnected || !this.calls.contains(node)) {    // the page took it away itself
          home.remove(); this.homes.delete(node);
        } else if (!home.isConnected) {                          // the page redrew its place
          node.remove(); this.homes.delete(node);
        } else if (node.hidden || !node.hasAttribute("data-pin") ||
                   (home.parentElement && home.parentElement.closest("[hidden]"))) {
          home.replaceWith(node); this.homes.delete(node);       // back where the page put it
        }
      }
      for (const node of document.querySelectorAll("[data-pin]")) {
        if (this.bar.contains(node) || node.hidden || node.closest("[hidden]")) continue;
        const home = document.createComment("pinned to the top bar");
        node.replaceWith(home);
        this.calls.append(node);
        this.homes.set(node, home);
        fresh.push(node);
      }
      const sound = document.querySelector(".tm-sound");         // timer.js's "Tap to enable sound"
      if (sound && sound.parentNode !== this.soundSlot) this.soundSlot.append(sound);
      // A call that was not there before (a stop is called, a count starts on you) chimes; the same
      // call drawn again by the page's next render (a new element, the same words) does not.
      const key = (n) => n.id || n.getAttribute("data-pin") || n.textContent.trim().slice(0, 80);
      const keys = new Set([...this.homes.keys()].map(key));
      const news = fresh.some((n) => !(this.keys || new Set()).has(key(n)));
      this.keys = keys;
      if (news && this.ready && tk.cuesOn()) {
        if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
        tk.alarm.chime();
      }
    }

    // ---- the timers ----
    shown(t) {
      if (t.status === "running" || t.status === "paused") return true;
      return t.status === "expired" && t.deadline_ms && tk.clock.now() - t.deadline_ms < RECENT_MS;
    }

    update(link, table) {
      this.link = link; this.table = table;
      for (const t of table.timers || []) if (t.status === "running") this.seenRunning.add(t.name + "@" + t.deadline_ms);
      this.drawClocks();
      this.pins();
      this.heard();
      this.layout();
      this.ready = true;
    }

    drawClocks() {
      const list = ((this.table && this.table.timers) || []).filter((t) => this.shown(t));
      this.showing = list.map((t) => t.name + ":" + t.status + ":" + t.deadline_ms + ":" + (t.seat ?? "")).join("|");
      this.faces = [];
      this.clocks.replaceChildren(...list.map((t) => this.row(t)));
      this.render();
    }

    row(t) {
      const players = (this.table && this.table.players) || [];
      const who = (i) => players[i] || "Seat " + (i + 1);
      const face = el("span", { class: "pin-face", role: "timer", "aria-live": "off" }, "0:00");
      this.faces.push({ node: face, t });
      const state = { paused: "paused", expired: "Time is up!" }[t.status];
      const name = t.owner === "game" ? el("strong", { class: "pin-name" }, words(t))
        : el("button", { type: "button", class: "pin-name linkish", title: "The timer's controls",
                         onclick: () => this.showControls(t.name) }, words(t));
      const head = el("div", { class: "pin-label" }, name,
        t.kind === "chess" ? el("span", { class: "pin-who" }, "▶ " + who(t.seat) + (t.status === "running" ? "’s time runs" : "")) : null,
        state ? el("span", { class: "pin-state" }, state) : null);
      const row = el("div", { class: "pin-timer " + t.status + (t.kind === "chess" ? " chess" : ""), "data-timer": t.name,
                              "data-owner": t.owner || "table" }, head, face);
      if (t.kind === "chess") {
        row.append(el("ul", { class: "pin-seats" }, t.clocks.map((c) => {
          const time = el("span", { class: "pin-seat-time" }, c.flagged ? "⚑" : tk.formatLong(c.remaining_ms));
          if (c.seat === t.seat && t.status === "running" && !c.flagged) this.faces.push({ node: time, t });
          return el("li", { class: (c.seat === t.seat ? "on" : "") + (c.flagged ? " flagged" : ""), "data-seat": String(c.seat) },
            who(c.seat) + " ", time);
        })));
      }
      return row;
    }

    /** A table timer's controls stay in its card: unfold it and bring it into view. */
    showControls(name) {
      const card = [...document.querySelectorAll(".tm-card[data-timer]")].find((c) => c.dataset.timer === name);
      if (!card) return;
      for (let d = card.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
      card.scrollIntoView({ block: "start", behavior: "smooth" });
    }

    left(t) {
      if (t.status === "running") return t.deadline_ms - tk.clock.now();
      return t.remaining_ms;
    }

    render() {
      for (const { node, t } of this.faces) {
        const ms = this.left(t);
        const txt = tk.formatLong(ms);
        if (node.textContent !== txt) node.textContent = txt;
        const low = t.status === "running" && ms < 10000;
        if (node.classList.contains("low") !== low) node.classList.toggle("low", low);
      }
    }

    // ---- what happened at expiry: the expire events' sentences ----
    heard() {
      const link = this.link;
      if (!link || !link.events || link.lastEvent <= this.seenEvent) return;
      const fresh = [...link.events.values()].filter((e) => e.seq > this.seenEvent).sort((a, b) => a.seq - b.seq);
      this.seenEvent = link.lastEvent;
      for (const e of fresh) {
        if (e.kind === "expire") {
          const age = tk.clock.now() - (e.at_ms || e.deadline_ms || 0);
          if (age >= RECENT_MS || !e.summary) continue;
          this.saying = { seq: e.seq, text: e.summary, until: performance.now() + RECENT_MS - Math.max(0, age) };
          const tag = e.timer + "@" + e.deadline_ms;
          if (this.seenRunning.has(tag) && !this.rung.has(tag)) { this.rung.add(tag); tk.alarm.ring(); }
        } else if (e.kind === "move" && this.saying && e.seq > this.saying.seq) {
          this.saying = null;           // the next move: play goes on
        }
      }
      this.say();
    }

    say() {
      const text = this.saying && performance.now() < this.saying.until ? this.saying.text : "";
      if (!text) this.saying = null;
      if (this.said.textContent !== text) this.said.textContent = text;
      if (this.said.hidden !== !text) { this.said.hidden = !text; this.layout(); }
    }

    // ---- the bar itself ----
    layout() {
      const on = this.faces.length > 0 || this.calls.childElementCount > 0 || !this.said.hidden;
      if (this.bar.hidden === on) this.bar.hidden = !on;
      // below the page's own notices (sticky at the top too), and scrollIntoView stops under the bar
      let top = 0;
      for (const b of document.body.children) if (b.classList.contains("banner")) top = Math.max(top, b.offsetHeight);
      const px = top + "px";
      if (this.bar.style.top !== px) this.bar.style.top = px;
      const pad = on ? top + this.bar.offsetHeight + 8 + "px" : "";
      if (document.documentElement.style.scrollPaddingTop !== pad) document.documentElement.style.scrollPaddingTop = pad;
    }

    tick(now) {
      this.render();
      this.heard();
      if (this.saying || !this.said.hidden) this.say();
      if (!(this.lastLook > now - 500)) {          // twice a second: expired timers leave, the bar fits
        this.lastLook = now;
        if (this.table) {
          const showing = (this.table.timers || []).filter((t) => this.shown(t))
            .map((t) => t.name + ":" + t.status + ":" + t.deadline_ms + ":" + (t.seat ?? "")).join("|");
          if (showing !== this.showing) this.drawClocks();
        }
        this.layout();
      }
      requestAnimationFrame(this.tick);
    }
  }

  let bar = null;
  const make = () => { if (!bar) { bar = new Pinned(); tk.pinned = bar; window.tkPinned = bar; } return bar; };
  tk.pinned = null;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", make);
  else make();
  let synced = false;
  document.addEventListener("tk:table", (ev) => {
    const { link, table } = ev.detail;
    if (!synced && !tk.clock.anchor) { synced = true; tk.clock.sync(4); }   // pages that never asked
    make().update(link, table);
  });
})();
