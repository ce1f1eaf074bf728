/* The table page: who I am, players and whose turn, the timer, history with undo, a move box. */
(function () {
  "use strict";
  const { el, $ } = tk;
  const data = tk.pageData();
  const code = data.code;
  let primed = false;

  const link = new tk.TableLink(code, {
    status(mode) {
      const s = $("#conn");
      s.className = "status " + mode;
      s.textContent = { live: "Live", polling: "Polling", offline: "Offline", connecting: "Connecting…" }[mode];
    },
    table(t) {
      if (!primed) { timer.primed(t); primed = true; }
      renderPlayers(t);
      timer.update(t);
      renderUndo();
      if (data.showState) $("#state").textContent = JSON.stringify(t.state, null, 2);
    },
    events() { renderHistory(); renderUndo(); },
  });
  const timer = new tk.TimerWidget($("#timer"), link, "table");

  // ---- seat ----
  function renderSeat() {
    const me = tk.me(code);
    const box = $("#seat");
    box.hidden = me !== null;
    $("#whoami").textContent = me === null ? "" : me >= 0 ? "You are " + data.players[me] + "." : "You are watching.";
    $("#change-seat").hidden = me === null;
  }
  $("#seat-buttons").append(...data.players.map((name, i) =>
    el("button", { type: "button", onclick: () => choose(i) }, name)),
    el("button", { type: "button", class: "secondary", onclick: () => choose(-1) }, "Just watching"));
  function choose(i) { tk.remember(code, data.game, i); renderSeat(); link.restream(); }
  $("#change-seat").addEventListener("click", () => { $("#seat").hidden = false; });
  if (tk.me(code) !== null) tk.remember(code, data.game, tk.me(code));   // this phone's latest table
  renderSeat();

  // ---- players ----
  function renderPlayers(t) {
    const me = tk.me(code);
    $("#players").replaceChildren(...t.players.map((name, i) =>
      el("li", { class: (i === t.turn ? "turn " : "") + (i === me ? "me" : "") },
        el("span", { class: "marker", "aria-hidden": "true" }, i === t.turn ? "▶" : ""),
        el("span", null, name), i === t.turn ? el("span", { class: "sr-only" }, " (to play)") : null)));
    const turn = $("#turn");
    if (t.turn === null || t.turn === undefined) turn.textContent = "";
    else turn.textContent = t.turn === me ? "Your turn!" : t.players[t.turn] + " is playing.";
    $("#seq").textContent = String(t.seq);
  }

  // ---- history and undo ----
  function undoTarget() {
    const stack = [];
    for (const e of [...link.events.values()].sort((a, b) => a.seq - b.seq)) {
      if (e.kind === "move") stack.push(e);
      else if (e.kind === "undo") stack.pop();
    }
    return stack.length ? stack[stack.length - 1] : null;
  }
  const SHORT = 8;
  let showAll = false;
  $("#history-more").addEventListener("click", () => { showAll = !showAll; renderHistory(); });
  function renderHistory() {
    const all = [...link.events.values()].sort((a, b) => b.seq - a.seq);
    const undone = new Set(all.filter((e) => e.kind === "undo").map((e) => e.undoes));
    const events = showAll ? all : all.slice(0, SHORT);
    const more = $("#history-more");
    more.hidden = all.length <= SHORT;
    more.textContent = showAll ? "Show the latest only" : "Show all " + all.length + " steps";
    $("#history").replaceChildren(...(events.length ? events.map((e) =>
      el("li", { class: undone.has(e.seq) ? "undone" : "" },
        el("span", { class: "seq" }, "#" + e.seq),
        el("span", { class: "text" }, e.summary),
        el("span", { class: "when" }, new Date(e.at_ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }))))
      : [el("li", { class: "muted" }, "Nothing has happened yet.")]));
  }
  let armed = null;
  function renderUndo() {
    const target = undoTarget();
    const b = $("#undo");
    b.disabled = !target;
    if (!armed) b.textContent = target ? "Undo #" + target.seq : "Nothing to undo";
  }
  $("#undo").addEventListener("click", async () => {
    const target = undoTarget();
    if (!target) return;
    if (!armed) {          // two taps: the first says what would be undone
      armed = setTimeout(() => { armed = null; renderUndo(); }, 4000);
      $("#undo").textContent = "Tap again to undo: " + target.summary;
      return;
    }
    clearTimeout(armed); armed = null;
    const r = await link.send("/undo", {});
    tk.say("#undo-msg", r.ok ? "good" : "bad", r.ok ? "Undone." : tk.explain(r), r.body && r.body.reasons);
    renderUndo();
  });

  // ---- a move as JSON (games without a board twin, and for checking) ----
  const moveForm = $("#move-form");
  if (moveForm) moveForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    let move;
    try { move = JSON.parse($("#move").value); } catch (e) {
      tk.say("#move-msg", "bad", "That is not JSON: " + e.message); return;
    }
    const r = await link.send("/moves", { move });
    tk.say("#move-msg", r.ok ? "good" : "bad", r.ok ? "Played." : tk.explain(r), r.body && r.body.reasons);
  });

  // ---- invite ----
  $("#invite-toggle").addEventListener("click", () => {
    const box = $("#invite");
    box.hidden = !box.hidden;
    $("#invite-toggle").setAttribute("aria-expanded", String(!box.hidden));
  });

  tk.clock.sync(6).then(() => link.start());
  window.tkTable = link;    // for the browser tests and for curious players
  window.tkTimer = timer;
})();
