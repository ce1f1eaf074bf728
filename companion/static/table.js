/* The table page: who I am, players and whose turn, the timers, history with undo, a move box
 * (the set-up walk and the turn cues: at_table.js, fed by the same link). */
(function () {
  "use strict";
  const { el, $ } = tk;
  const data = tk.pageData();
  const code = data.code;
  let primed = false;

  const link = new tk.TableLink(code, {
    table(t) {
      if (!primed) { timer.primed(t); primed = true; }
      lastTable = t;
      renderSeat(t);
      renderPlayers(t);
      tk.renderResult($("#result"), t, link);
      timer.update(t);
      renderUndo();
      if (data.showState) $("#state").textContent = JSON.stringify(t.state, null, 2);
    },
    events() { renderHistory(); renderUndo(); if (lastTable) tk.renderResult($("#result"), lastTable, link); },
  });
  const timer = new tk.Timers($("#timer"), link);

  // ---- seat ----
  // One tap takes a seat (POST …/seats gives this phone the seat's token). A taken seat can be
  // handed over by the phone holding it ("Give up this seat") or by the host (who can take any,
  // after saying so under the buttons: "Take over Ben's seat" / "Keep it"; no browser dialog).
  let lastTable = null;
  let asking = null;          // the taken seat the host tapped: its take-over waits for a yes
  function renderSeat(t) {
    t = t || lastTable;
    const me = tk.me(code), host = tk.isHost(code);
    const box = $("#seat");
    box.hidden = me !== null;
    const who = me === null ? "" : me >= 0 ? "You are " + data.players[me] + "." : "You are watching.";
    $("#whoami").textContent = who + (host ? " This phone started the table: it can enter moves for everyone." : "");
    $("#change-seat").hidden = me === null;
    $("#change-seat").textContent = me !== null && me >= 0 ? "Give up this seat" : "Change";
    const seats = (t && t.seats) || data.players.map((name, i) => ({ player: i, name, claimed: false }));
    $("#seat-buttons").replaceChildren(...seats.map((s) =>
      el("button", { type: "button", class: s.claimed && !host ? "secondary" : null,
                     disabled: s.claimed && !host,
                     onclick: () => s.claimed ? ask(s.player) : choose(s.player) },
        s.name + (s.claimed ? (host ? " (take over)" : " (taken)") : ""))),
      el("button", { type: "button", class: "secondary", onclick: () => { asking = null; tk.watch(code, data.game); renderSeat(); link.restream(); } }, "Just watching"));
    renderAsk(false);
  }
  /** "Another phone holds Ben's seat. Take it over?" in the page, under the seat buttons. */
  function ask(i) { asking = i; renderAsk(true); }
  function renderAsk(focus) {
    let box = $("#seat-ask");
    if (!box) {
      box = el("div", { id: "seat-ask", class: "msg info", role: "group", "aria-labelledby": "seat-ask-q" });
      $("#seat-buttons").after(box);
    }
    const name = asking === null ? "" : data.players[asking];
    box.hidden = asking === null;
    if (box.dataset.seat === String(asking)) return;        // already asked (a table update redraws the seats)
    box.dataset.seat = String(asking);
    if (box.hidden) { box.replaceChildren(); return; }
    const yes = el("button", { type: "button", id: "seat-ask-yes", onclick: () => { const i = asking; asking = null; choose(i); } },
      "Take over " + name + "'s seat");
    box.replaceChildren(
      el("p", { id: "seat-ask-q", style: "margin:0 0 .5rem" }, "Another phone holds " + name + "'s seat. Take it over? That phone can then only watch."),
      el("div", { class: "row" }, yes,
        el("button", { type: "button", class: "secondary", onclick: () => { asking = null; renderAsk(false); } }, "Keep it")));
    if (focus) yes.focus();
  }
  async function choose(i) {
    asking = null;
    const r = await tk.claim(code, data.game, i);
    if (r.status !== 201) { tk.say("#seat-msg", "bad", tk.explain(r)); link.reload(); return; }
    tk.say("#seat-msg", "info", "");
    renderSeat(); link.restream();
  }
  $("#change-seat").addEventListener("click", async () => {
    if (tk.me(code) !== null && tk.me(code) >= 0) {
      const r = await tk.release(code, data.game);
      if (r.status !== 200) { tk.say("#seat-msg", "bad", tk.explain(r)); return; }
    }
    tk.remember(code, data.game, { player: null, token: null });
    renderSeat(); link.restream();
  });
  tk.remember(code, data.game);   // this phone's latest table (for the scan pages)
  renderSeat();

  // ---- players ----
  function renderPlayers(t) {
    const me = tk.me(code);
    $("#players").replaceChildren(...t.players.map((name, i) =>
      el("li", { class: (i === t.turn ? "turn " : "") + (i === me ? "me" : "") },
        el("span", { class: "marker", "aria-hidden": "true" }, i === t.turn ? "▶" : ""),
        el("span", null, name), i === t.turn ? el("span", { class: "sr-only" }, " (to play)") : null)));
    $("#turn").textContent = tk.turnLine(code, t) || "";
    $("#seq").textContent = String(t.seq);
  }

  // ---- history and undo ----
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
  const undo = new tk.UndoButton($("#undo"), $("#undo-msg"), link);
  function renderUndo() { undo.render(); }

  // ---- turn cues ----
  const cues = $("#cues");
  if (cues) {
    cues.checked = tk.cuesOn();
    cues.addEventListener("change", () => { tk.setCues(cues.checked); if (cues.checked) tk.alarm.chime(); });
  }

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
