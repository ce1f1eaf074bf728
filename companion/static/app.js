/* Tokyo table kit companion: the shared client code (no build step, no libraries).
 *
 * tk.api(method, url, body)   JSON request with an Idempotency-Key, retried on network errors
 * tk.clock                     server clock offset from GET /api/time (shortest round trip wins)
 * tk.TableLink                 one table kept in sync: SSE with Last-Event-ID, polling fallback,
 *                              writes with expected_seq, 409 resync, 422 reasons
 * tk.alarm / tk.wake           sound + vibration at expiry, screen kept awake while a timer runs
 * tk.me / tk.claim / tk.release   this phone's seat and token at a table (localStorage + cookie);
 *                              the phone that created a table keeps its host token (tk.isHost)
 * Every piece of text from the server goes through textContent: names are never parsed as HTML.
 */
(function () {
  "use strict";
  const tk = (window.tk = {});

  // ---------- small DOM helpers ----------
  tk.$ = (sel, root) => (root || document).querySelector(sel);
  tk.$$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  tk.el = function (tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  };
  /** "1 card", "2 cards", "1 customer": a count with its noun (the plural given, or noun + "s"). */
  tk.count = (n, noun, plural) => n + " " + (n === 1 ? noun : plural || noun + "s");
  tk.pageData = function () {
    const node = document.getElementById("page-data");
    return node ? JSON.parse(node.textContent) : {};
  };
  /** Show a message (and reasons) in a .msg box; kind: bad | good | info. */
  tk.say = function (box, kind, text, reasons) {
    if (typeof box === "string") box = tk.$(box);
    if (!box) return;
    box.className = "msg " + (kind || "info");
    box.replaceChildren();
    if (!text) return;
    box.append(text);
    if (reasons && reasons.length) box.append(tk.el("ul", null, reasons.map((r) => tk.el("li", null, r))));
  };

  // ---------- API ----------
  tk.newKey = function () {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);     // works on plain http:// LAN addresses (randomUUID does not)
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  };
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  /**
   * One user action = one key, reused on every retry: the server appends one event however often the
   * request arrives. Retries on network errors and 5xx; returns {status, body} (status 0: offline).
   */
  tk.api = async function (method, url, body, opts) {
    const key = (opts && opts.key) || (method === "GET" || method === "DELETE" ? null : tk.newKey());
    const headers = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (key) headers["Idempotency-Key"] = key;
    if (opts && opts.token) headers.Authorization = "Bearer " + opts.token;
    if (opts && opts.headers) Object.assign(headers, opts.headers);
    const delays = [0, 300, 800, 1600, 3000];
    let last = { status: 0, body: { error: "No connection to the companion. Check the Wi-Fi and try again." } };
    for (const delay of delays) {
      if (delay) await sleep(delay);
      try {
        const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body),
                                       cache: "no-store" });
        let data = null;
        try { data = await res.json(); } catch (e) { data = { error: "The companion sent an unreadable answer." }; }
        last = { status: res.status, body: data };
        if (res.status < 500) return last;
      } catch (e) { /* offline: retry with the same key */ }
    }
    return last;
  };

  // ---------- clock ----------
  /**
   * The server's clock as a function of performance.now(): several GET /api/time samples, keep the
   * one with the shortest round trip (its error is at most half of it). Independent of Date.now(),
   * so a phone whose own clock is wrong still counts down with everyone else.
   */
  tk.clock = {
    anchor: null,      // {server: ms, perf: performance.now() at the midpoint, rtt}
    async sync(samples) {
      let best = null;
      for (let i = 0; i < (samples || 6); i++) {
        const t0 = performance.now();
        try {
          const res = await fetch("/api/time", { cache: "no-store" });
          const { now_ms } = await res.json();
          const t1 = performance.now();
          const s = { server: now_ms, perf: (t0 + t1) / 2, rtt: t1 - t0 };
          if (!best || s.rtt < best.rtt) best = s;
        } catch (e) { break; }
      }
      if (best && (!this.anchor || best.rtt <= this.anchor.rtt * 1.5 || performance.now() - this.anchor.perf > 60000)) {
        this.anchor = best;
      }
      return this.anchor;
    },
    now() {
      if (!this.anchor) return Date.now();
      return this.anchor.server + (performance.now() - this.anchor.perf);
    },
  };

  // ---------- sound, vibration, wake lock ----------
  tk.alarm = {
    ctx: null,
    /** Two soft notes: your turn. */
    chime() {
      const ctx = this.ctx;
      if (!ctx) return;
      const t = ctx.currentTime + 0.02;
      [660, 880].forEach((f, i) => {
        const osc = ctx.createOscillator(), gain = ctx.createGain();
        osc.type = "sine"; osc.frequency.value = f;
        gain.gain.setValueAtTime(0.0001, t + i * 0.18);
        gain.gain.exponentialRampToValueAtTime(0.25, t + i * 0.18 + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, t + i * 0.18 + 0.3);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t + i * 0.18); osc.stop(t + i * 0.18 + 0.32);
      });
    },
    unlock() {
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return;
      if (!this.ctx) this.ctx = new AC();
      if (this.ctx.state === "suspended") this.ctx.resume();
      const buf = this.ctx.createBuffer(1, 1, 22050);   // a silent sound: iOS unlocks audio on a tap
      const src = this.ctx.createBufferSource();
      src.buffer = buf; src.connect(this.ctx.destination); src.start(0);
    },
    ring() {
      if (navigator.vibrate) navigator.vibrate([300, 150, 300, 150, 600]);
      const ctx = this.ctx;
      if (!ctx) return;
      const t = ctx.currentTime + 0.02;
      for (let i = 0; i < 3; i++) {
        const osc = ctx.createOscillator(), gain = ctx.createGain();
        osc.type = "square"; osc.frequency.value = 880;
        gain.gain.setValueAtTime(0.0001, t + i * 0.35);
        gain.gain.exponentialRampToValueAtTime(0.4, t + i * 0.35 + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, t + i * 0.35 + 0.25);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t + i * 0.35); osc.stop(t + i * 0.35 + 0.26);
      }
    },
  };
  document.addEventListener("pointerdown", () => tk.alarm.unlock(), { once: true, capture: true });

  tk.wake = {
    wanted: false, sentinel: null,
    async set(on) {
      this.wanted = on;
      if (on && !this.sentinel && "wakeLock" in navigator && document.visibilityState === "visible") {
        try {
          this.sentinel = await navigator.wakeLock.request("screen");
          this.sentinel.addEventListener("release", () => { this.sentinel = null; });
        } catch (e) { this.sentinel = null; }
      } else if (!on && this.sentinel) {
        const s = this.sentinel; this.sentinel = null; s.release().catch(() => {});
      }
    },
  };
  // The browser drops the wake lock whenever the page is hidden: ask again on return.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && tk.wake.wanted) tk.wake.set(true);
  });

  // ---------- who am I at this table ----------
  // localStorage "tk.tables": {code: {game, player (seat index or null), token (the seat's),
  // host (the host token, on the phone that created the table), at}}. Tokens never go in a URL.
  const STORE = "tk.tables";
  const readSeats = () => { try { return JSON.parse(localStorage.getItem(STORE)) || {}; } catch (e) { return {}; } };
  const seatOf = (code) => readSeats()[code] || null;
  tk.me = function (code) { const s = seatOf(code); return s && s.player !== undefined ? s.player : null; };
  tk.isHost = function (code) { const s = seatOf(code); return !!(s && s.host); };
  /** The token this phone sends at `code`: its seat's, else the host's (which acts for everyone). */
  tk.token = function (code) { const s = seatOf(code); return s ? (s.token || s.host || null) : null; };
  tk.remember = function (code, game, patch) {
    const seats = readSeats();
    seats[code] = Object.assign({ player: null }, seats[code] || {}, patch || {}, { game, at: Date.now() });
    try { localStorage.setItem(STORE, JSON.stringify(seats)); } catch (e) { /* private mode */ }
    const age = "; path=/; max-age=" + 60 * 60 * 24 * 30 + "; samesite=strict";
    // for the scan (/q/) pages: which table, and the token that shows this phone's view of it
    document.cookie = "tk_table=" + encodeURIComponent(code) + age;
    document.cookie = "tk_table_token=" + encodeURIComponent(tk.token(code) || "") + age;
  };
  /** Take seat `player` (one tap); returns the API answer ({status, body}). */
  tk.claim = async function (code, game, player) {
    // The host may also take a seat another phone holds (that phone's token is then void).
    const host = (seatOf(code) || {}).host || null;
    const r = await tk.api("POST", "/api/tables/" + encodeURIComponent(code) + "/seats", { player },
                           { token: host });
    if (r.status === 201) tk.remember(code, game, { player, token: r.body.token });
    return r;
  };
  /** Give this phone's seat up (or, as the host, free seat `player` for another phone). */
  tk.release = async function (code, game, player) {
    const mine = tk.me(code);
    const target = player === undefined ? mine : player;
    if (target === null || target === undefined) return { status: 200, body: {} };
    const r = await tk.api("DELETE", "/api/tables/" + encodeURIComponent(code) + "/seats/" + target,
                           undefined, { token: target === mine ? seatOf(code).token : seatOf(code).host });
    if (r.status === 200 && target === mine) tk.remember(code, game, { player: null, token: null });
    return r;
  };
  /** Just watching: no seat (a host phone keeps its host token). */
  tk.watch = function (code, game) { tk.remember(code, game, { player: -1, token: null }); };
  tk.myTables = function () {
    return Object.entries(readSeats()).map(([code, s]) => ({ code, ...s })).sort((a, b) => b.at - a.at);
  };

  tk.formatMs = function (ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  };

  // ---------- one table, kept in sync ----------
  /**
   * Keeps `table` (GET /api/tables/<code>) and `events` (the log) current.
   * Live: EventSource; each numbered message is one event (dedup by seq, gaps filled by a JSON
   * request); the unnumbered `table` message carries the table. If the stream cannot be opened
   * (or the server says 503) it polls ?since= every second and tries the stream again later.
   */
  tk.TableLink = class {
    constructor(code, handlers) {
      this.code = code;
      this.h = handlers || {};
      this.table = null;
      this.events = new Map();
      this.lastEvent = 0;
      this.mode = "connecting";
      this.source = null;
      this.pollTimer = null;
      this.busy = false;
    }
    /** API URL of this table (what the server shows depends on the token sent, never the URL). */
    url(suffix, query) {
      const q = new URLSearchParams(query || {});
      const qs = q.toString();
      return "/api/tables/" + encodeURIComponent(this.code) + (suffix || "") + (qs ? "?" + qs : "");
    }
    /** The connection's mode ("live", "polling", "offline", "connecting"): the handler's `status`, or
     * else the page's #conn badge. */
    status(mode) {
      this.mode = mode;
      if (this.h.status) return this.h.status(mode);
      const s = document.getElementById("conn");
      if (!s) return;
      s.className = "status " + mode;
      s.textContent = { live: "Live", polling: "Polling", offline: "Offline", connecting: "Connecting…" }[mode];
    }

    async start() {
      await this.reload();
      await this.catchUp();
      this.started = true;          // from now on, events are news (undo notices)
      this.openStream();
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState !== "visible") return;
        tk.clock.sync(4);
        this.catchUp();
        if (!this.source || this.source.readyState === 2) this.openStream();
      });
      window.addEventListener("online", () => { this.catchUp(); this.openStream(); });
    }

    get token() { return tk.token(this.code); }

    async reload() {
      const r = await tk.api("GET", this.url(), undefined, { token: this.token });
      if (r.status === 200) { this.setTable(r.body); if (tk.outbox.items().length) tk.outbox.flush(this); }
      else if (r.status === 0) this.status("offline");
      else if (r.status === 401 && this.forgetSeat()) return this.reload();
      return r;
    }

    /** The seat token this phone held is void (the phone that started the table took the seat over,
     * or it was given up from another phone): forget it, say so, and read the table as any phone
     * may (the table page offers the seats again). True when there was a seat token to forget. */
    forgetSeat() {
      const held = (tk.myTables().find((s) => s.code === this.code)) || null;
      if (!held || !held.token) return false;
      const name = this.table && held.player >= 0 ? this.table.players[held.player] : null;
      tk.remember(this.code, held.game, { player: null, token: null });
      tk.notice((name ? name + "'s seat" : "This phone's seat") +
                " was taken over by another phone: choose a seat again, or just watch.", "warn");
      return true;
    }

    setTable(t) {
      if (this.table && t.seq < this.table.seq) return;   // an older answer overtaken by a newer one
      const before = this.table;
      this.table = t;
      tk.turnCue(this.code, before, t);
      if (this.h.table) this.h.table(t);
      // for what every page of a table shows beside the game's own (timers, turn cues: at_table.js)
      document.dispatchEvent(new CustomEvent("tk:table", { detail: { link: this, table: t } }));
    }

    /** Events after the last one seen, by JSON (first load, gaps, polling, coming back online). */
    async catchUp() {
      const r = await tk.api("GET", this.url("/events", { since: this.lastEvent }), undefined, { token: this.token });
      if (r.status !== 200) { if (r.status === 0) this.status("offline"); return false; }
      this.addEvents(r.body.events);
      if (!this.table || r.body.seq > this.table.seq) await this.reload();
      return true;
    }

    addEvents(list) {
      const fresh = [];
      for (const e of list) {
        if (e.seq <= this.lastEvent) continue;          // a duplicate (replay after reconnect)
        this.events.set(e.seq, e);
        this.lastEvent = e.seq;
        fresh.push(e);
      }
      if (fresh.length && this.h.events) this.h.events(fresh, this);
      if (fresh.length && this.started) this.tellUndos(fresh);
    }

    /** "Ben undid your move": an undo from another phone of a move this phone's seat made. */
    tellUndos(fresh) {
      const me = tk.me(this.code);
      if (me === null || me < 0) return;
      for (const e of fresh) {
        if (e.kind !== "undo" || e.by === me) continue;
        const target = this.events.get(e.undoes);
        if (!target || !target.move || target.move.player !== me) continue;
        const players = (this.table && this.table.players) || [];
        const who = e.by === "host" ? "The host" : players[e.by] || "Another phone";
        tk.notice(who + " undid your move: " + (target.summary || "#" + target.seq), "info");
      }
    }

    openStream() {
      if (!("EventSource" in window)) { this.poll(); return; }
      if (this.source && this.source.readyState !== 2) return;
      const src = (this.source = new EventSource(this.url("/events", { since: this.lastEvent })));
      src.onopen = () => { this.stopPolling(); this.status("live"); };
      src.onmessage = (m) => {
        const e = JSON.parse(m.data);
        if (e.seq > this.lastEvent + 1) { this.catchUp(); return; }   // a gap: fetch what is missing
        this.addEvents([e]);
      };
      // The stream shows what everyone may see; a phone with a token asks for its own view.
      src.addEventListener("table", (m) => {
        if (this.token) this.reloadSoon(); else this.setTable(JSON.parse(m.data));
      });
      src.onerror = () => {
        if (src.readyState === 2) {          // closed for good (e.g. 503): poll, retry the stream later
          this.poll();
          setTimeout(() => this.openStream(), 30000);
        } else {
          this.status(navigator.onLine === false ? "offline" : "connecting");
        }
      };
    }

    reloadSoon() {
      if (this.reloading) { this.again = true; return; }
      this.reloading = (async () => {
        do { this.again = false; await this.reload(); } while (this.again);
        this.reloading = null;
      })();
    }

    /** This phone changed seat: the server shows it another player's view from now on. */
    restream() {
      if (this.source) { this.source.close(); this.source = null; }
      this.reload();
      if (!this.pollTimer) this.openStream();
    }

    poll() {
      if (this.pollTimer) return;
      this.status("polling");
      const tick = async () => {
        const ok = await this.catchUp();
        this.status(ok ? "polling" : "offline");
        this.pollTimer = setTimeout(tick, 1000);
      };
      this.pollTimer = setTimeout(tick, 0);
    }
    stopPolling() { if (this.pollTimer) { clearTimeout(this.pollTimer); this.pollTimer = null; } }

    /**
     * Send one write (moves | undo | timers) based on the seq this phone has seen.
     * Returns {ok, status, body}; on 409 the table is reloaded (someone else was first) and the
     * answer's body.changed says what changed, in words. A seat's move made while several seats act
     * at once, overtaken only by other seats' moves, is sent once more on the new state (the server
     * lets such moves through itself unless the phase changed; then it says why not): {resent: true}.
     */
    async send(path, payload, again) {
      if (!this.table) return { ok: false, status: 0, body: { error: "Not connected yet." } };
      const before = this.table;
      const body = Object.assign({ expected_seq: this.table.seq }, payload);
      const key = tk.newKey();
      // A move is answered with its seq alone (Prefer: return=minimal): the page reads the whole
      // table just after it (below), so the state would come twice.
      const r = await tk.api("POST", this.url(path), body, { token: this.token, key,
                                                            headers: path === "/moves" ? { Prefer: "return=minimal" } : null });
      if (r.status === 0) {
        // No connection: the move waits on this phone, with its key, and is sent when the
        // connection returns (a retry of the same key can never count twice).
        tk.outbox.add({ url: this.url(path), body, key, token: this.token, code: this.code,
                        label: (payload.move && payload.move.type) || path.replace("/", "") });
        return { ok: false, queued: true, status: 0,
                 body: { error: "No connection: this is kept on the phone and sent when the connection returns." } };
      }
      if (r.status === 200) {
        if ("state" in r.body || "timers" in r.body) {     // (an undo's state, a timer's timers)
          const t = Object.assign({}, this.table, { seq: r.body.seq });
          if ("state" in r.body) t.state = r.body.state;
          if ("timers" in r.body) t.timers = r.body.timers;
          this.setTable(t);
        }
        // What the answer does not carry (the next move's needs, the result) comes with the table:
        // fetch it now rather than keep the last move's prompt until the stream says so.
        await this.reload();
        this.catchUp();
      } else if (r.status === 409) {
        await this.reload();
        await this.catchUp();
        const since = (r.body && r.body.since) || [];
        const changed = since.map((e) => e.summary).filter(Boolean);
        if (r.body && changed.length) r.body.changed = changed;
        const move = payload.move, seat = move && typeof move.player === "number" ? move.player : null;
        const acts = before.actors || {};
        if (!again && seat !== null && since.length && ["all", "several"].includes(acts.mode) &&
            (acts.seats || []).includes(seat) && since.every((e) => e.kind === "move" && e.player !== null && e.player !== seat)) {
          const second = await this.send(path, payload, true);
          second.resent = true;
          if (!second.ok && second.body && changed.length) second.body.changed = changed;
          return second;
        }
      }
      return { ok: r.status === 200, status: r.status, body: r.body };
    }
  };

  // ---------- moves made offline ----------
  /**
   * Writes that found no connection wait here (localStorage "tk.outbox") with their idempotency
   * keys, and are sent in order when the connection returns. One the table no longer accepts (it
   * moved on meanwhile) is dropped and the player is told plainly.
   */
  const OUTBOX = "tk.outbox";
  tk.outbox = {
    items() { try { return JSON.parse(localStorage.getItem(OUTBOX)) || []; } catch (e) { return []; } },
    save(list) { try { localStorage.setItem(OUTBOX, JSON.stringify(list)); } catch (e) { /* private mode */ } this.show(); },
    add(item) { this.save(this.items().concat([Object.assign({ at: Date.now() }, item)])); },
    busy: false,
    async flush(link) {
      if (this.busy) return;
      this.busy = true;
      try {
        let list = this.items();
        while (list.length) {
          const item = list[0];
          const r = await tk.api("POST", item.url, item.body, { token: item.token, key: item.key });
          if (r.status === 0) break;                      // still offline: keep it and stop
          list = this.items().slice(1);
          this.save(list);
          if (r.status !== 200) {
            tk.notice("Not sent: “" + item.label + "” — " + (r.status === 409
              ? "the table moved on while this phone was offline; look at the table and play it again."
              : (r.body && r.body.error) || "the companion refused it."), "bad");
          } else {
            tk.notice("Sent: “" + item.label + "”, made while this phone was offline.", "good");
          }
        }
      } finally { this.busy = false; }
      if (link) { link.reload(); link.catchUp(); }
    },
    show() {
      const n = this.items().length;
      let box = document.getElementById("tk-outbox");
      if (!n) { if (box) box.remove(); return; }
      if (!box) {
        box = tk.el("div", { id: "tk-outbox", class: "banner warn", role: "status" });
        document.body.prepend(box);
      }
      box.textContent = n === 1 ? "1 change waits for the connection." : n + " changes wait for the connection.";
    },
  };
  window.addEventListener("online", () => tk.outbox.flush(window.tkTable));
  document.addEventListener("DOMContentLoaded", () => tk.outbox.show());

  /** A short message at the top of the page that goes away by itself (kind: good | bad | info). */
  tk.notice = function (text, kind) {
    const box = tk.el("div", { class: "banner " + (kind || "info"), role: "status" }, text);
    document.body.prepend(box);
    setTimeout(() => box.remove(), 8000);
  };

  // ---------- an app on the home screen ----------
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* pages work without */ });
  }

  // ---------- the end of a game ----------
  /** A score in its unit: "−7,100 ¥" (yen), "12 points", "1 point", "9 fame". */
  tk.formatScore = function (n, unit) {
    if (typeof n !== "number") return String(n);
    const abs = Math.abs(n).toLocaleString("en-US"), sign = n < 0 ? "−" : "";
    if (unit === "yen") return sign + abs + " ¥";
    if (unit === "") return sign + abs;
    const u = unit || "points";
    return sign + abs + " " + (Math.abs(n) === 1 && /s$/.test(u) ? u.slice(0, -1) : u);
  };
  /** "1st", "2nd", "3rd", "4th"… */
  tk.ordinal = (n) => n + ((n % 100 >= 11 && n % 100 <= 13) ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"));
  /** Each player's place: the winners first (the game's tie-breaks chose them), then by score; equal places are shared. */
  tk.places = function (res) {
    const key = (s) => [res.winners.includes(s.player) ? 1 : 0, s.score];
    const better = (a, b) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
    const out = {};
    for (const s of res.scores) out[s.player] = 1 + res.scores.filter((o) => better(key(o), key(s))).length;
    return out;
  };
  const joinNames = (names) => names.length > 1 ? names.slice(0, -1).join(", ") + " and " + names[names.length - 1] : names[0] || "";
  const SCORE_KEYS = new Set(["player", "name", "score", "breakdown", "colour", "color", "symbol"]);
  /**
   * Why the game ended and how a tie was broken, in sentences, from what the result and the public
   * state say: "ended" ({"why"} or a sentence; a bare code is left for the last move's summary,
   * which is what ended it) and "tiebreak"; without them, the winners and their scores, and for a
   * tie, the numbers of the result that set the tied players apart (a score row's extra fields).
   */
  tk.resultSentences = function (t, res, events) {
    const out = [];
    const unit = res.unit || "points";
    const ended = res.ended || (t.state && t.state.ended) || null;
    const why = ended && typeof ended === "object" ? ended.why : ended;
    const moves = events.filter((e) => e.kind === "move");
    const last = moves.length ? moves[moves.length - 1] : null;
    if (typeof why === "string" && /\s/.test(why)) out.push("The game ended at " + why.replace(/\.$/, "") + ".");
    else if (last && last.summary) out.push("The game ended with the last move: " + last.summary.replace(/\.$/, "") + ".");
    const byPlayer = {}; for (const s of res.scores) byPlayer[s.player] = s;
    const winners = res.winners.map((w) => byPlayer[w]).filter(Boolean);
    if (!winners.length) { out.push("Nobody wins."); return out; }
    const best = Math.max(...winners.map((w) => w.score));
    const tied = res.scores.filter((s) => s.score === best && !res.winners.includes(s.player));
    const wn = joinNames(winners.map((w) => w.name));
    if (winners.length > 1) out.push(wn + " share the victory with " + tk.formatScore(best, unit) + " each.");
    else out.push(wn + " wins with " + tk.formatScore(best, unit) + ".");
    if (tied.length) {
      const all = winners.concat(tied);
      let how = typeof res.tiebreak === "string" ? res.tiebreak : null;
      if (!how) {
        const keys = Object.keys(all[0]).filter((k) => !SCORE_KEYS.has(k) && all.every((s) => typeof s[k] === "number")
          && new Set(all.map((s) => s[k])).size > 1);
        how = keys.length ? keys.map((k) => k.replace(/_/g, " ") + ": " + all.map((s) => s.name + " " + s[k].toLocaleString("en-US")).join(", ")).join("; ")
          : null;
      }
      out.push(joinNames(all.map((s) => s.name)) + " tied at " + tk.formatScore(best, unit) + "; the rules' tie-break gave the win to " + wn +
        (how ? " (" + how + ")." : "."));
    }
    return out;
  };
  /** A player's colour and symbol where the game has them (the score row's, else the public state's player's). */
  tk.seatMark = function (t, s) {
    const p = (t.state && Array.isArray(t.state.players) && t.state.players[s.player]) || {};
    const colour = s.colour || s.color || (typeof p.colour === "string" ? p.colour : null) || (typeof p.color === "string" ? p.color : null);
    const symbol = s.symbol || (typeof p.symbol === "string" ? p.symbol : null);
    if (!colour || !(window.CSS && CSS.supports("color", colour))) return null;
    return tk.el("span", { class: "seat-mark", style: "--seat: " + colour, "data-symbol": symbol || "circle",
                           title: colour, "aria-label": colour });
  };
  /**
   * The chart of the game (GET /api/plays/<code>/chart): each player's running score in the
   * result's unit, by round or by move, as an inline SVG line per player in the player's colour
   * (a palette otherwise) with a legend; nothing where the game keeps no running score.
   */
  const PALETTE = ["#0b57d0", "#c5221f", "#188038", "#a142f4", "#e37400", "#007b83"];
  const charts = {};
  tk.renderChart = async function (box, t, res) {
    const key = t.code + ":" + t.seq;
    if (!(key in charts)) charts[key] = tk.api("GET", "/api/plays/" + encodeURIComponent(t.code) + "/chart").then((r) => r.status === 200 ? r.body : null);
    const c = await charts[key];
    if (!c || !c.points || c.points.length < 2) { box.hidden = true; return; }
    // the result's scores close the line where they differ from the running number (a debt paid
    // back at the end, points scored only at the end)
    const final = t.players.map((_, p) => { const s = res.scores.find((r) => r.player === p); return s ? s.score : null; });
    const points = c.points.slice();
    if (final.every((v) => typeof v === "number") && final.some((v, p) => v !== points[points.length - 1].values[p]))
      points.push({ final: true, values: final });
    c.points = points;
    const NS = "http://www.w3.org/2000/svg";
    const svg = (tag, attrs, text) => {
      const n = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
      if (text !== undefined) n.textContent = text;
      return n;
    };
    const W = 340, H = 190, L = 64, R = 8, T = 10, B = 30;
    const all = c.points.flatMap((p) => p.values);
    let lo = Math.min(0, ...all), hi = Math.max(0, ...all);
    if (hi === lo) hi = lo + 1;
    const x = (i) => L + (W - L - R) * i / (c.points.length - 1);
    const y = (v) => T + (H - T - B) * (hi - v) / (hi - lo);
    const unit = c.unit === "yen" ? "yen" : "";
    const colourOf = (p) => {
      const s = res.scores.find((r) => r.player === p) || { player: p };
      const m = tk.seatMark(t, s);
      return m ? m.style.getPropertyValue("--seat") : PALETTE[p % PALETTE.length];
    };
    const g = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img",
      "aria-label": "How the game went: each player's " + (c.unit || "score") + " by " + c.x + "." });
    for (const v of [hi, 0, lo].filter((v, i, a) => a.indexOf(v) === i)) {
      g.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: v === 0 ? "#555" : "#ccc", "stroke-width": 1 }));
      g.append(svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#333" }, tk.formatScore(v, unit)));
    }
    const first = c.points[0], lastP = c.points[c.points.length - 1];
    const xl = (p) => p.final ? "final score" : !p.seq || (c.x === "round" && !p.round) ? "start" : c.x === "round" ? "round " + p.round : "move #" + p.seq;
    g.append(svg("text", { x: L, y: H - 8, "font-size": 11, fill: "#333" }, xl(first)));
    g.append(svg("text", { x: W - R, y: H - 8, "text-anchor": "end", "font-size": 11, fill: "#333" }, xl(lastP)));
    const n = first.values.length;
    for (let p = 0; p < n; p++) {
      const col = colourOf(p);
      const pts = c.points.map((q, i) => x(i).toFixed(1) + "," + y(q.values[p]).toFixed(1)).join(" ");
      // an ink outline under each line keeps white and yellow visible on the card
      g.append(svg("polyline", { points: pts, fill: "none", stroke: "#222", "stroke-width": 4.5, "stroke-linejoin": "round", opacity: .55 }));
      g.append(svg("polyline", { points: pts, fill: "none", stroke: col, "stroke-width": 2.5, "stroke-linejoin": "round", "data-player": p }));
    }
    box.replaceChildren(
      tk.el("h3", { style: "margin:.6rem 0 .2rem" }, "How it went: " + (c.unit || "score") + " by " + c.x +
        (lastP.final ? ", then the final score" : "")),
      g,
      tk.el("ul", { class: "legend small" }, t.players.map((name, p) => {
        const s = res.scores.find((r) => r.player === p) || { player: p };
        return tk.el("li", null, tk.seatMark(t, s) || tk.el("span", { class: "seat-mark", style: "--seat: " + colourOf(p), "data-symbol": "circle" }),
          name);
      })));
    box.hidden = false;
  };
  /**
   * BG Stats' link with the play's date in this phone's own time (the server writes UTC): its
   * playDate is "YYYY-MM-DD HH:MM:SS" of the start, as the players' clocks said.
   */
  tk.localBgstats = function (href, startedMs) {
    const at = href.indexOf("?data=");
    if (at < 0 || !startedMs) return href;
    try {
      const data = JSON.parse(decodeURIComponent(href.slice(at + 6)));
      const d = new Date(Number(startedMs)), two = (n) => String(n).padStart(2, "0");
      data.playDate = d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate()) + " " +
        two(d.getHours()) + ":" + two(d.getMinutes()) + ":" + two(d.getSeconds());
      return href.slice(0, at + 6) + encodeURIComponent(JSON.stringify(data));
    } catch (e) { return href; }
  };
  document.addEventListener("DOMContentLoaded", () => {
    tk.$$("a.bgstats[data-started-ms]").forEach((a) => { a.href = tk.localBgstats(a.href, a.dataset.startedMs); });
  });
  /** The link that logs this play in BG Stats (api_plays.bgstats_link), fetched once per table. */
  const bgstats = {};
  async function bgstatsLink(code) {
    if (!(code in bgstats)) bgstats[code] = tk.api("GET", "/api/plays?table=" + encodeURIComponent(code))
      .then((r) => {
        const p = r.status === 200 && r.body.plays[0];
        if (!p) delete bgstats[code];
        return p ? tk.localBgstats(p.bgstats, p.started_ms) : null;
      });
    return bgstats[code];
  }
  /**
   * The end screen in `box`: places (shared ones said so), each player's colour and symbol, the
   * scores in their unit with their breakdown, why the game ended and how a tie was broken, a chart
   * of the game where the game's history gives a running score (tk.renderChart), the play's length,
   * "Log this play in BG Stats" and links to the history and all plays. Hidden while `t.result` is
   * null. While a result is in, the page's <html> carries data-game-over: what the page said for
   * the game in progress (its prompt, its notes) is hidden under GAME OVER (app.css).
   */
  tk.renderResult = function (box, t, link) {
    if (!box) return;
    const res = t && t.result;
    document.documentElement.toggleAttribute("data-game-over", !!res);
    box.hidden = !res;
    if (!res) { box.replaceChildren(); box.dataset.drawn = ""; return; }
    const events = link ? [...link.events.values()].sort((a, b) => a.seq - b.seq) : [];
    const stamp = t.code + ":" + t.seq + ":" + events.length;
    if (box.dataset.drawn === stamp) return;    // the same end: keep what is open (breakdowns)
    box.dataset.drawn = stamp;
    const names = res.winners.map((w) => t.players[w]);
    const head = names.length > 1 ? "Shared victory: " + joinNames(names) + "!"
      : names.length ? names[0] + " wins!" : "The game is over.";
    let length = null;
    if (events.length) {
      const ms = events[events.length - 1].at_ms - events[0].at_ms;
      const min = Math.round(ms / 60000);
      length = min >= 60 ? Math.floor(min / 60) + " h " + (min % 60) + " min" : min + " min";
    }
    const unit = res.unit || "points";
    const place = tk.places(res);
    const shared = {}; for (const p of Object.values(place)) shared[p] = (shared[p] || 0) + 1;
    const rows = [...res.scores].sort((a, b) => place[a.player] - place[b.player] || b.score - a.score);
    const el = tk.el;
    const log = el("a", { class: "button wide bgstats", href: "#", target: "_blank", rel: "noopener", hidden: "" }, "Log this play in BG Stats");
    const chart = el("div", { class: "result-chart", hidden: "" });
    box.replaceChildren(
      el("p", { class: "badge-over" }, "Game over"),
      el("h2", { style: "margin-top:.2rem" }, head),
      el("p", { class: "result-why" }, tk.resultSentences(t, res, events).join(" ")),
      el("ol", { class: "list scores" }, rows.map((s) => {
        const won = res.winners.includes(s.player), pl = place[s.player];
        return el("li", { class: won ? "winner" : "", "data-place": String(pl) },
          el("div", { class: "row" },
            el("span", { class: "place" }, tk.ordinal(pl), shared[pl] > 1 ? el("span", { class: "small" }, " shared") : null),
            el("strong", { class: "grow name" }, tk.seatMark(t, s), s.name,
              won ? [" ", el("span", { class: "badge win" }, "winner")] : null),
            el("strong", { class: "score" }, tk.formatScore(s.score, unit))),
          el("details", null, el("summary", { class: "small" }, "How it adds up"),
            el("table", { class: "breakdown small" }, s.breakdown.map((b) =>
              el("tr", null, el("td", null, b.label), el("td", { class: "num" }, tk.formatScore(b.value, unit === "yen" ? "yen" : "")))),
              el("tr", { class: "sum" }, el("td", null, "Total"), el("td", { class: "num" }, tk.formatScore(s.score, unit))))));
      })),
      chart,
      el("p", { class: "small muted" }, (length ? "Played in " + length + " · " : "") + t.seq + " steps."),
      log,
      el("p", { class: "small links" },
        el("a", { href: "/t/" + encodeURIComponent(t.code) + "#history-section" }, "The whole history"), " · ",
        el("a", { href: "/plays" }, "All plays"), " · ",
        el("a", { href: "/api/plays.csv", download: "" }, "CSV")));
    bgstatsLink(t.code).then((href) => { if (href) { log.href = href; log.hidden = false; } });
    if (tk.renderChart) tk.renderChart(chart, t, res);
  };

  // Times the server wrote as epoch ms (<time data-ms>) in the phone's own time zone and language.
  document.addEventListener("DOMContentLoaded", () => {
    tk.$$("time[data-ms]").forEach((t) => {
      t.textContent = new Date(Number(t.dataset.ms)).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
    });
  });

  // ---------- your turn ----------
  /**
   * When it becomes this phone's seat's turn (or the seat is among those to act at once): a dot in
   * the page title, and, unless turned off on the table page, a chime and a vibration.
   */
  const TITLE = document.title;
  tk.cuesOn = () => localStorage.getItem("tk.cues") !== "off";
  tk.setCues = (on) => { try { localStorage.setItem("tk.cues", on ? "on" : "off"); } catch (e) { /* private */ } };
  tk.myTurn = function (code, t) {
    const me = tk.me(code);
    return !!(t && !t.result && me !== null && me >= 0 && t.actors && t.actors.seats.includes(me));
  };
  tk.turnCue = function (code, before, after) {
    const now = tk.myTurn(code, after);
    document.title = (now ? "● " : "") + TITLE;
    if (now && before && !tk.myTurn(code, before) && tk.cuesOn()) {
      if (navigator.vibrate) navigator.vibrate([120, 80, 120]);
      tk.alarm.chime();
    }
  };

  /**
   * Whose turn it is, said to this phone: "Your turn, Aki!" to the seat to play, "Ben's turn." to
   * the others, "Ben's turn: this phone can enter it." on the host phone when the turn is another
   * seat's (the host phone never says "your" for someone else's turn). Null when nobody's turn.
   */
  tk.turnLine = function (code, t) {
    if (!t) return null;
    if (t.result) return "The game is over.";
    const acts = t.actors || {};
    if (acts.mode === "all") return (t.needs && t.needs.prompt) || "Everyone plays at once.";
    const seats = (acts.seats && acts.seats.length ? acts.seats : (typeof t.turn === "number" ? [t.turn] : []))
      .filter((p) => p >= 0 && p < t.players.length);
    if (!seats.length) return null;
    const me = tk.me(code), host = tk.isHost(code);
    const names = seats.map((p) => t.players[p]);
    const list = names.length > 1 ? names.slice(0, -1).join(", ") + " and " + names[names.length - 1] : names[0];
    if (me !== null && me >= 0 && seats.includes(me)) {
      const others = names.filter((_, j) => seats[j] !== me);
      return "Your turn, " + t.players[me] + "!" + (others.length ? " (with " + others.join(", ") + ")" : "");
    }
    const whose = names.length > 1 ? list + " play." : list + "'s turn.";
    return host ? whose.replace(/\.$/, "") + ": this phone can enter it." : whose;
  };

  // ---------- "Who are you?" on a game's own page ----------
  /**
   * Renders #seat, #whoami and #seat-buttons of a game page: one tap takes a free seat (the table
   * page also hands seats over); the phone holding the host token acts for everyone. `again` is the
   * page's own render function, called after a tap; `onError(text)` says a refusal.
   */
  tk.renderSeat = function (link, game, players, onError, again) {
    const code = link.code, m = tk.me(code), host = tk.isHost(code);
    tk.$("#seat").hidden = m !== null || host;
    tk.$("#whoami").textContent = (m === null ? "" : m >= 0 ? "you are " + players[m] : "watching") +
      (host ? (m !== null ? " · " : "") + "this phone can move for everyone" : "");
    const seats = (link.table && link.table.seats) || players.map((name, i) => ({ player: i, name, claimed: false }));
    tk.$("#seat-buttons").replaceChildren(...seats.map((s) =>
      tk.el("button", { type: "button", disabled: s.claimed, class: s.claimed ? "secondary" : null,
                        onclick: async () => {
                          const r = await tk.claim(code, game, s.player);
                          if (r.status !== 201) onError(tk.explain(r));
                          (again || (() => {}))(); link.restream();
                          // the page redraws for its new seat now, not at the table's next change
                          // (a phone that had just taken its seat kept its moves disabled till then)
                          if (r.status === 201 && link.table && link.h.table) link.h.table(link.table);
                        } }, s.name + (s.claimed ? " (taken)" : ""))));
  };

  // ---------- undo, on every page of a table ----------
  /** The latest move not undone yet, from the log. */
  tk.undoTarget = function (link) {
    const stack = [];
    for (const e of [...link.events.values()].sort((a, b) => a.seq - b.seq)) {
      if (e.kind === "move") stack.push(e);
      else if (e.kind === "undo") stack.pop();
    }
    return stack.length ? stack[stack.length - 1] : null;
  };
  /** An undo button in `button` (two taps: the first says what would be undone), messages in `msg`. */
  tk.UndoButton = class {
    constructor(button, msg, link) {
      this.b = button; this.msg = msg; this.link = link; this.armed = null;
      button.addEventListener("click", () => this.tap());
    }
    render() {
      const target = tk.undoTarget(this.link);
      // a watcher (no seat, not the host) can undo nothing: no button at all
      const can = !!tk.token(this.link.code);
      this.b.hidden = !can;
      if (!can) { this.b.disabled = true; return; }
      this.b.disabled = !target;
      if (!this.armed) this.b.textContent = target ? "Undo #" + target.seq : "Nothing to undo";
    }
    async tap() {
      const target = tk.undoTarget(this.link);
      if (!target) return;
      if (!this.armed) {
        this.armed = setTimeout(() => { this.armed = null; this.render(); }, 4000);
        this.b.textContent = "Tap again to undo: " + target.summary;
        return;
      }
      clearTimeout(this.armed); this.armed = null;
      const r = await this.link.send("/undo", {});
      tk.say(this.msg, r.ok ? "good" : "bad", r.ok ? "Undone." : tk.explain(r), r.body && r.body.reasons);
      this.render();
    }
  };

  // ---------- playing a move as soon as it is whole ----------
  /**
   * The tap that completes a move plays it, after a short moment in which it can still be changed
   * or stopped (Clear, or any change to the move): no separate Play tap. A setting per phone
   * (localStorage "tk.autoplay", on unless turned off), shown as a checkbox `toggle`. `note` says
   * what is about to happen; `fire()` plays the move. The page calls arm() after a tap that made the
   * move whole (and final: nothing optional left to add) and cancel() on every other change.
   */
  tk.autoPlayOn = () => localStorage.getItem("tk.autoplay") !== "off";
  tk.AutoPlay = class {
    constructor(note, toggle, fire, ms) {
      this.note = note; this.fire = fire; this.ms = ms || 1200; this.timer = null;
      if (toggle) {
        toggle.checked = tk.autoPlayOn();
        toggle.addEventListener("change", () => {
          try { localStorage.setItem("tk.autoplay", toggle.checked ? "on" : "off"); } catch (e) { /* private */ }
          if (!toggle.checked) this.cancel();
        });
      }
    }
    get armed() { return this.timer !== null; }
    arm(what) {
      this.cancel();
      if (!tk.autoPlayOn()) return false;
      this.timer = setTimeout(() => { this.timer = null; this.show(); this.fire(); }, this.ms);
      this.show("Playing " + (what || "the move") + " in a moment — change it or tap Clear to stop.");
      return true;
    }
    cancel() { if (this.timer !== null) { clearTimeout(this.timer); this.timer = null; } this.show(); }
    show(text) {
      if (!this.note) return;
      this.note.textContent = text || "";
      this.note.hidden = !text;
      document.documentElement.toggleAttribute("data-autoplay-armed", !!text);
    }
  };

  /** A friendly sentence for a failed write. */
  tk.explain = function (r) {
    const changed = (r.body && r.body.changed) || [];
    const meanwhile = changed.length ? " Meanwhile: " + changed.slice(-3).join("; ") + (changed.length > 3 ? " (and " + (changed.length - 3) + " more)" : "") + "." : "";
    if (r.status === 409) return "The table changed before your move arrived." + meanwhile + " It is updated now: check it and play again.";
    if (r.resent && r.status === 422) return "The table changed before your move arrived, and it cannot be played now." + meanwhile + " " + ((r.body && r.body.reasons) || []).join(" ");
    if (r.status === 401) return "This phone has no seat at this table: take a seat on the table page first.";
    if (r.status === 403) return (r.body && r.body.error) || "This phone may not do that.";
    if (r.status === 0) return r.body.error;
    return (r.body && r.body.error) || "That did not work.";
  };
})();
