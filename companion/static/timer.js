/* The table timer: counts down locally from the server's deadline (tk.clock), rings when the server
 * says it has expired, keeps the screen awake while it runs. One widget per timer name. */
(function () {
  "use strict";
  const { el, $ } = tk;

  tk.TimerWidget = class {
    constructor(root, link, name) {
      this.root = root; this.link = link; this.name = name;
      this.timer = null; this.rung = new Set(); this.seenRunning = new Set(); this.asked = null;
      this.face = el("div", { class: "timer-face", role: "timer", "aria-live": "off" }, "0:00");
      this.note = el("p", { class: "muted small", style: "text-align:center;margin:0" });
      this.msg = el("div", { class: "msg", role: "status" });
      this.choices = el("div", { class: "choices" },
        [30, 60, 120, 180].map((s) => el("button", { class: "secondary", type: "button",
          onclick: () => this.act("start", s) }, tk.formatMs(s * 1000))));
      this.pause = el("button", { type: "button", onclick: () => this.act("pause") }, "Pause");
      this.resume = el("button", { type: "button", onclick: () => this.act("resume") }, "Resume");
      this.reset = el("button", { class: "secondary", type: "button", onclick: () => this.act("reset") }, "Reset");
      root.append(this.face, this.note, el("div", { class: "row", style: "justify-content:center;margin:.5rem 0" },
        this.pause, this.resume, this.reset), el("p", { class: "small muted", style: "margin:.4rem 0 .3rem" },
        "Start a countdown:"), this.choices, this.msg);
      this.tick = this.tick.bind(this);
      requestAnimationFrame(this.tick);
    }

    update(table) {
      const t = (table.timers || []).find((x) => x.name === this.name) || null;
      const tag = t && t.name + "@" + t.deadline_ms;
      if (t && t.status === "running") this.seenRunning.add(tag);
      if (t && t.status === "expired" && this.seenRunning.has(tag) && !this.rung.has(tag)) {
        this.rung.add(tag);
        tk.alarm.ring();                     // the server decided: ring now
      }
      this.timer = t;
      this.asked = null;
      tk.wake.set(!!(table.timers || []).some((x) => x.status === "running"));
      const status = t ? t.status : "idle";
      this.pause.hidden = status !== "running";
      this.resume.hidden = status !== "paused";
      this.reset.hidden = status === "idle";
      this.note.textContent = { idle: "Ready", running: "Running", paused: "Paused",
                                expired: "Time is up!" }[status];
      this.face.className = "timer-face " + status;
      this.render();
    }

    remaining() {
      const t = this.timer;
      if (!t) return 0;
      if (t.status === "running") return t.deadline_ms - tk.clock.now();
      return t.remaining_ms;
    }

    render() { this.face.textContent = tk.formatMs(this.remaining()); }

    tick() {
      this.render();
      const t = this.timer;
      // Our countdown reached zero: ask the server for its verdict unless the live stream brings it.
      if (t && t.status === "running" && this.remaining() <= 0) {
        const waited = this.asked ? performance.now() - this.asked : Infinity;
        if (waited > (this.link.mode === "live" ? 1500 : 400)) {
          this.asked = performance.now();
          this.link.reload();
        }
      }
      requestAnimationFrame(this.tick);
    }

    async act(action, seconds) {
      tk.say(this.msg, "info", "");
      const payload = { timer: this.name, action };
      if (action === "start") payload.seconds = seconds;
      const r = await this.link.send("/timers", payload);
      if (!r.ok) tk.say(this.msg, "bad", tk.explain(r), r.body && r.body.reasons);
    }

    /** Timers already expired when the page opened do not ring. */
    primed(table) {
      for (const t of table.timers || []) if (t.status === "expired") this.rung.add(t.name + "@" + t.deadline_ms);
    }
  };
})();
