/* Tokyo Jutaku's live page: the map, the round / floor clock (the server's, through tk.clock),
 * "stop!", confirm or reject, movement, drinks; Countdown's floors; Izakaya's bids and actions.
 * Every move goes through the table's API (tk.TableLink); the server checks it. */
(function () {
  "use strict";
  const { el, $ } = tk;
  const data = tk.pageData(), { board: B, code } = data;
  let legal = [];           // legal moves of the seat this phone acts for
  let legalSeq = -1;
  const rung = new Set();
  let lastTimer = null;
  let asked = 0;

  const link = new tk.TableLink(code, {
    table: () => { render(); refreshLegal(); },
  });
  window.tkTable = link;

  // ---------------------------------------------------------------- who this phone acts for
  function me() { const m = tk.me(code); return m !== null && m !== undefined && m >= 0 ? m : null; }
  function host() { return tk.isHost(code); }
  function actor() {
    if (me() !== null) return me();
    if (host()) return Number($("#as").value || 0);
    return null;
  }
  function setupActAs() {
    const box = $("#act-as");
    box.hidden = !(me() === null && host());
    const sel = $("#as");
    if (!sel.options.length) {
      data.players.forEach((p, i) => sel.append(el("option", { value: String(i) }, p)));
      sel.addEventListener("change", () => { legalSeq = -1; render(); refreshLegal(); });
    }
    // "Who are you?": one tap takes a free seat here, as on every game's page (board_base.html)
    tk.renderSeat(link, data.game, data.players, (text) => tk.say("#msg", "bad", text), again);
  }
  function again() { legalSeq = -1; render(); refreshLegal(); }

  async function refreshLegal() {
    const t = link.table;
    if (!t || actor() === null) { legal = []; return; }
    const seq = t.seq;
    const r = await tk.api("GET", link.url("/legal", { player: actor() }), undefined, { token: link.token });
    if (r.status === 200 && link.table && link.table.seq === seq) { legal = r.body.moves; legalSeq = seq; render(); }
  }

  async function send(move, okText) {
    tk.say("#msg", "info", "");
    const r = await link.send("/moves", { move });
    if (!r.ok) tk.say("#msg", "bad", tk.explain(r), r.body && r.body.reasons);
    else if (okText) tk.say("#msg", "good", okText);
    return r;
  }
  const has = (type, pred) => legal.some((m) => m.type === type && (!pred || pred(m)));
  const name = (p) => data.players[p];
  const yen = (n) => "¥" + Number(n).toLocaleString("en-US");
  /** A card's face: the page knows the face each card lay on when the page opened; the other only
   * once a black drink flipped it at the table (the state's "faces"): "Players cannot look at the
   * back side before deciding to flip or not". */
  function faceOf(s, id, side) {
    const own = B.sites[id] && B.sites[id][side];
    return own || (s.faces && s.faces[id] && s.faces[id][side]) || { req: "?", yen: 0, plan: [] };
  }
  /** "Once a player finishes their fourth site card, the game ends": a round could be the last as soon
   * as someone holds one card short, never surely (the rules' main.could_be_last). */
  function couldBeLast(s) {
    if (!["ready", "building", "check"].includes(s.phase)) return "";
    const end = B.end_sites;
    const close = s.players.filter((pl) => pl.kept.length >= end - 1).map((pl) => pl.name);
    if (!close.length) return "";
    return "This could be the last round: " + andList(close) + (close.length === 1 ? " has " : " have ") +
      tk.count(end - 1, "site card") + ", and completing one more ends the game.";
  }

  // ---------------------------------------------------------------- the clock
  function gameTimer(t) { return (t.timers || []).find((x) => x.owner === "game") || null; }
  function clockMs() {
    const t = link.table; if (!t) return null;
    const g = gameTimer(t);
    if (g) return g.status === "running" ? g.deadline_ms - tk.clock.now() : g.remaining_ms;
    return null;
  }
  window.tkJutaku = { remaining: clockMs, rung };
  function tick() {
    const t = link.table;
    if (t) {
      const s = t.state, face = $("#clock");
      const g = gameTimer(t);
      if (g) {
        const ms = clockMs();
        face.textContent = tk.formatMs(ms);
        face.dataset.remainingMs = String(Math.round(ms));
        face.className = "timer-face " + g.status + (g.status === "running" && ms < 10000 ? " low" : "");
        const tag = g.name + "@" + g.deadline_ms;
        if (g.status === "running" && ms <= 0) {
          if (!rung.has(tag)) { rung.add(tag); tk.alarm.ring(); }
          if (performance.now() - asked > 1200) { asked = performance.now(); link.reload(); }
        }
      } else if (s.mode === "jutaku" && (s.phase === "building" || s.phase === "check") && s.round_started_ms) {
        face.textContent = tk.formatMs(tk.clock.now() - s.round_started_ms);
        face.className = "timer-face running";
      }
    }
    requestAnimationFrame(tick);
  }

  // ---------------------------------------------------------------- rendering
  function render() {
    const t = link.table;
    if (!t) return;
    setupActAs();
    const s = t.state;
    tk.renderResult($("#result"), t, link);
    const g = gameTimer(t);
    // A running clock that the server ended at its deadline rings here too (the update may come
    // before this phone's own countdown reaches zero); one ended early by a move does not.
    if (lastTimer && lastTimer.status === "running" && (!g || g.status !== "running" || g.deadline_ms !== lastTimer.deadline_ms)) {
      const tag = lastTimer.name + "@" + lastTimer.deadline_ms;
      const expired = g && g.status === "expired" && g.name === lastTimer.name;
      if (!rung.has(tag) && (expired || tk.clock.now() >= lastTimer.deadline_ms - 1500)) { rung.add(tag); tk.alarm.ring(); }
    }
    lastTimer = g;
    tk.wake.set(!!g && g.status === "running" || (s.mode === "jutaku" && s.phase === "building"));
    if (s.mode === "countdown") renderCountdown(t, s);
    else if (s.mode === "izakaya") renderIzakaya(t, s);
    else renderJutaku(t, s);
    dedupeTurnLine(t);
  }

  /** The shared turn line under the prompt (at_table.js) says the table's prompt again when everyone
   * plays at once (the same sentence as #prompt): it is hidden then, so the map and the call stay on
   * the first screen; "Your turn, Ben!" (one seat's turn) stays. Looked at again after the shared
   * code has written it. */
  function dedupeTurnLine(t) {
    const same = () => {
      const line = document.getElementById("turn-line");
      if (line) line.classList.toggle("jt-dup", !!(t.actors && t.actors.mode === "all"));
    };
    same();
    requestAnimationFrame(same);
  }

  function button(label, onclick, cls) { return el("button", { type: "button", class: cls || "", onclick }, label); }

  // ---------------------------------------------------------------- Tokyo Jutaku and Bottle Bonus
  function renderJutaku(t, s) {
    const a = actor();
    const phase = s.phase;
    // the same sentences as the rules' needs().prompt (main.prompt), from the state at hand
    const timedOut = !!(s.last && s.last.timeout);
    // Bottle Bonus: the rules say who is still deciding on their drinks (needs' prompt)
    const ready = s.bottle_bonus && t.needs && t.needs.prompt ? t.needs.prompt.replace(/ This could be the last round.*$/, "") :
      (timedOut ? "Time! Nobody finished round " + s.round + ": everyone keeps their site card. " : "Ready? ") +
      (timedOut ? "Press Begin! to start the round again." : "Press Begin! and everyone builds.");
    const prompts = {
      start: "Choose your starting site card on the outer ring of the map.",
      ready,
      building: "Everyone builds! Press STOP! when your building meets your card.",
      check: andList(s.stops.map(name)) + " called stop! Check the building" + (s.stops.length > 1 ? "s" : "") + ": confirm or reject.",
      draw: (s.completed && s.completed.length ? name(s.completed[0]) + " draws drinks from the box and enters them." : "Enter the drinks drawn from the box."),
      grab: "Grab at most one drink from the machine.",
      move: "Move: " + name(s.movers[s.mover]) + " — up to 2 spaces, no diagonals, gaps passed through.",
      over: "The game is over.",
    };
    const last = couldBeLast(s);
    $("#prompt").textContent = (prompts[phase] || phase) + (last ? " " + last : "");
    $("#info").textContent = (s.bottle_bonus ? "Bottle Bonus · " : "") + "Round " + (phase === "start" || phase === "ready" ? s.round + 1 : Math.max(1, s.round)) + " · map on its " + s.side + " side";
    const g = gameTimer(t);
    $("#clock-box").hidden = !(phase === "building" || phase === "check" || g);
    $("#clock-note").textContent = !g ? "building time" : g.status === "expired" ? "time is up" :
      g.status === "paused" ? "paused while checking" : "left in the round";
    const stop = $("#stop");
    stop.hidden = !has("stop");
    stop.onclick = () => send({ type: "stop", player: a });
    // the checks
    const checks = $("#checks");
    checks.hidden = phase !== "check";
    checks.replaceChildren(...(phase === "check" ? s.stops.map((b) => {
      const pl = s.players[b], site = B.sites[pl.site] || null;
      const done = String(b) in s.verdicts;
      const face = site ? faceOf(s, pl.site, pl.side) : null;
      const mine = legal.filter((m) => m.type === "verdict" && m.builder === b);
      return el("div", { class: "card jt-check", "data-builder": String(b) },
        el("strong", null, name(b) + " called stop!"),
        el("div", null, site ? site.label + ": exactly " + face.req + " (" + reqWords(face.req) + "), " + yen(face.yen) : ""),
        done ? el("div", { class: "small" }, s.verdicts[String(b)] ? "Confirmed." : "Rejected.")
          : mine.length ? el("div", { class: "row" },
            button("Confirm", () => send({ type: "verdict", player: a, builder: b, ok: true })),
            button("Reject", () => send({ type: "verdict", player: a, builder: b, ok: false }), "danger"))
            : el("div", { class: "small muted" }, "Waiting for another player to check it."));
    }) : []));
    // the call: Begin! (the box, not the button, is what a set-up step's "Enter it now" brings
    // into view: it must not begin the round for the players)
    // In Bottle Bonus the round waits for every player holding a drink to spend now (black, white,
    // blue): each taps Ready; Begin! says who is still deciding (the host may begin anyway).
    const canBegin = !!(t.needs && (t.needs.moves || []).includes("begin"));
    const waiting = phase === "ready" && t.actors ? (canBegin ? [] : t.actors.seats) : [];
    const call = [];
    if (phase === "ready" && has("ready")) call.push(button("Ready", () => send({ type: "ready", player: a }), "wide jt-big"));
    if (phase === "ready" && link.token && !has("ready")) {
      call.push(el("div", { "data-enter": "begin", class: "stack" }, canBegin ? button("Begin!", () => send({ type: "begin" }), "wide jt-big") :
        el("div", { class: "jt-waiting", id: "begin-wait", role: "status" }, "Begin! waits for " + andList(waiting.map(name)) +
          ": " + (waiting.length > 1 ? "they decide" : "deciding") + " whether to spend a drink, then tap Ready."),
        !canBegin && host() ? button("Begin anyway (host)", () => send({ type: "begin" }), "secondary wide") : ""));
    }
    setCall(call);
    // controls
    const controls = [];
    $("#after-map").replaceChildren(...(phase === "start" && has("start") ? [architectPicker(s, a)] : []));
    const spends = legal.filter((m) => m.type === "spend");
    // each drink button says what it does
    if (spends.length) controls.push(el("div", { class: "card jt-drinks", id: "spend" }, el("strong", null, "Spend a drink"),
      el("div", { class: "stack" }, spends.map((m) => el("button", { type: "button", class: "secondary jt-spend", "data-drink": m.drink, onclick: () => send(m, B.drinks[m.drink].text) },
        el("span", { class: "jt-dot", style: "background:" + B.drinks[m.drink].hex }), el("strong", null, B.drinks[m.drink].name),
        el("span", { class: "small" }, B.drinks[m.drink].text))))));
    if (phase === "grab") {
      const grabs = legal.filter((m) => m.type === "grab");
      controls.push(el("div", { class: "card jt-drinks" },
        el("div", null, "Out of the machine: " + s.offer.map((d) => B.drinks[d].name).join(", ")),
        grabs.length ? el("div", { class: "row" }, grabs.map((m) => button(m.drink ? B.drinks[m.drink].name : "Nothing",
          () => send(m), m.drink ? "" : "secondary"))) : el("div", { class: "small muted" }, "Waiting for the others to grab.")));
    }
    // the player who completed draws: only their phone (or the host's, acting for no seat) enters it
    if (phase === "draw") {
      const drawer = s.completed[0];
      controls.push(a === drawer || (me() === null && host()) ? drawForm(s)
        : el("div", { class: "card small", id: "draw-wait" }, name(drawer) + " draws " + tk.count(Math.min(s.players.length - 1, Object.values(s.box).reduce((x, y) => x + y, 0)), "drink") +
          " from the box and enters them on their phone; then grab at most one."));
    }
    if (phase === "move" && has("stay")) controls.push(button("Keep my site card", () => send({ type: "stay", player: a }), "secondary wide"));
    $("#controls").replaceChildren(...controls);
    drawMap(s);
    bringIntoView(s, a);
    // players
    $("#players").replaceChildren(...s.players.map((pl, i) => {
      const arch = B.architects[pl.architect];
      const total = pl.kept.reduce((x, k) => x + k.yen, 0) + 200 * pl.blue;
      const drinks = Object.entries(pl.drinks).map(([d, n]) => B.drinks[d].name + (n > 1 ? " ×" + n : "")).join(", ");
      const site = pl.site ? B.sites[pl.site].label + " " + faceOf(s, pl.site, pl.side).req + (pl.side !== s.side ? " (flipped)" : "") : "no card";
      return el("li", { class: (i === me() ? "me " : "") + (s.stops.includes(i) ? "turn" : "") },
        el("span", { class: "jt-dot", style: "background:" + arch.hex }),
        el("span", { class: "grow" }, pl.name + " (" + arch.number + ")", el("div", { class: "small muted" },
          site + " · " + pl.kept.length + " done" + (drinks ? " · " + drinks : ""))),
        el("strong", null, yen(total)));
    }));
  }

  /** `node` brought into view when it is not wholly on the screen (below the pinned bar). */
  function inView(node) {
    requestAnimationFrame(() => {
      const r = node.getBoundingClientRect();
      const bar = document.getElementById("pinbar");
      const top = bar && !bar.hidden ? bar.getBoundingClientRect().bottom : 0;
      if (r.top >= top && r.bottom <= innerHeight) return;
      node.scrollIntoView({ block: r.height > innerHeight - top ? "start" : "nearest", behavior: "smooth" });
    });
  }

  /** The current action brought into view on every phone when it changes (the grab buttons, the
   * draw, the map for the one who moves, Ready / Begin!, the checks). */
  let shownAction = null;
  function bringIntoView(s, a) {
    const k = [s.phase, s.round, s.mover, s.draws, s.checks].join("/");
    if (k === shownAction) return;
    const first = shownAction === null;
    shownAction = k;
    if (first) return;                                  // the page just opened: leave it at the top
    const target = { grab: "#controls", draw: "#controls", ready: "#call", check: "#checks",
                     move: s.movers && s.movers[s.mover] === a ? "#map" : "#prompt" }[s.phase];
    const node = target && document.querySelector(target);
    // a call moved into the pinned bar (Begin!, the checks) is in view already: no scrolling to it
    if (node && !node.hidden && !node.closest("#pinbar")) inView(node);
  }

  /** "Each player chooses one architect token": the tokens not on the map yet (one held by a player
   * who has not placed changes hands); the seat's own is preselected. The map tap sends the choice. */
  const chosenArch = {};
  function architectPicker(s, a) {
    const mine = chosenArch[a] || s.players[a].architect;
    const free = Object.keys(B.architects).sort((x, y) => B.architects[x].number - B.architects[y].number).filter((id) => !s.players.some((q, i) => i !== a && q.at && q.architect === id));
    return el("div", { class: "card", id: "architects" },
      el("strong", null, "Your architect token"), el("div", { class: "small muted" }, "Yours unless you choose another; then tap your starting card on the outer ring above."),
      el("div", { class: "jt-archs" }, free.map((id) => {
        const arch = B.architects[id];
        return el("button", { type: "button", class: "secondary", "aria-pressed": String(id === mine), "data-architect": id,
                              onclick: () => { chosenArch[a] = id; render(); } },
          // the dot and the number on one line, the colour's name under them: "6 Orange" broke
          // after the 6 on a 390 px phone, "3 Green" too at 360
          el("span", { class: "jt-arch-no" }, el("span", { class: "jt-dot", style: "background:" + arch.hex }), String(arch.number)),
          " ", el("span", null, arch.name));
      })));
  }

  function andList(names) {
    return names.length < 2 ? names.join("") : names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
  }

  /** The call box (data-pin): Begin!, Countdown's entry; hidden when there is none. */
  function setCall(children) {
    const box = $("#call");
    box.replaceChildren(...children);
    box.hidden = !children.length;
  }

  function short(site) {
    return B.districts[site.district].name.slice(0, 4) + "·" + site.label.split(" ").pop();
  }

  function reqWords(req) {
    const [h, p] = req.split(".");
    const n = [...p].reduce((x, c) => x + (c === "V" ? 5 : 1), 0);
    return tk.count(Number(h), "storey") + ", " + tk.count(n, "piece");
  }

  /** The drinks drawn from the box, tapped in by colour; each one tapped is a chip that takes it out
   * again (a wrong colour is fixed alone). Kept across redraws (another phone's move redraws). */
  const drawnDrinks = { key: null, picked: [] };
  function drawForm(s) {
    const want = Math.min(s.players.length - 1, Object.values(s.box).reduce((x, y) => x + y, 0));
    const key = s.round + "/" + s.draws;
    if (drawnDrinks.key !== key) Object.assign(drawnDrinks, { key, picked: [] });
    const picked = drawnDrinks.picked;
    const box = el("div", { class: "card stack", id: "draw" });
    const show = () => {
      const left = Object.fromEntries(Object.entries(s.box));
      picked.forEach((d) => { left[d] -= 1; });
      box.replaceChildren(
        el("strong", null, "Drinks drawn: " + picked.length + " of " + want),
        el("div", { class: "jt-drawn", "aria-live": "polite" }, picked.length ? picked.map((d, i) => el("button", {
          type: "button", class: "secondary jt-chip", "aria-label": "Take out " + B.drinks[d].name,
          onclick: () => { picked.splice(i, 1); show(); } }, el("span", { class: "jt-dot", style: "background:" + B.drinks[d].hex }),
          B.drinks[d].name + " ✕")) : el("span", { class: "small muted" }, "Tap each colour drawn; a tap on one here takes it out.")),
        el("div", { class: "jt-drink-grid" }, Object.keys(B.drinks).map((d) => el("button", {
          type: "button", class: "secondary jt-drink", "data-drink": d, disabled: picked.length >= want || !(left[d] > 0),
          onclick: () => { if (picked.length < want) picked.push(d); show(); } },
          el("span", { class: "jt-dot", style: "background:" + B.drinks[d].hex }), B.drinks[d].name))),
        button("Enter", async () => { const r = await send({ type: "draw-drinks", drinks: picked.slice() }); if (r.ok) picked.length = 0; },
          "wide" + (picked.length === want ? "" : " secondary")));
    };
    show();
    return box;
  }

  function drawMap(s) {
    const map = $("#map");
    map.hidden = false;
    $("#grid").hidden = true;
    const [cols, rows] = B.size;
    const centre = new Set(B.centre.map((p) => p.join(",")));
    const at = {};
    s.players.forEach((pl, i) => { if (pl.at) at[pl.at] = i; });
    const targets = {};
    for (const m of legal) if ((m.type === "move" || m.type === "start") && !targets[m.site]) targets[m.site] = m;
    const cells = [];
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
      const k = c + "," + r;
      let cell;
      if (centre.has(k)) cell = el("div", { class: "jt-cell centre" }, c === 2 && r === 2 ? "pieces" : "");
      else if (s.map[k]) {
        // the face the card lies on: the map's, or the other if a black drink flipped it
        const up = (s.turned && s.turned[s.map[k]]) || s.side;
        const site = B.sites[s.map[k]], face = faceOf(s, s.map[k], up);
        const m = targets[s.map[k]];
        cell = el(m ? "button" : "div", { type: m ? "button" : null, class: "jt-cell " + up + (m ? (m.purple ? " purple-target" : " target") : ""),
          "data-site": s.map[k], "aria-label": site.label + " " + face.req + " " + yen(face.yen) },
          el("div", { class: "d", style: "background:" + B.districts[site.district].hex }),
          el("div", { class: "lbl" }, short(site)), el("div", { class: "req" }, face.req),
          el("div", { class: "yen" }, "¥" + face.yen / 1000 + "k"));
        if (m) cell.addEventListener("click", () => {
          const a = actor(), arch = m.type === "start" && a !== null ? chosenArch[a] : undefined;
          send(arch && arch !== s.players[a].architect ? Object.assign({}, m, { architect: arch }) : m);
        });
      } else {
        // a square whose card a player holds: the card's name and requirement, the architect
        // token on a line of its own between them (beside the requirement, never over it)
        const p = at[k];
        const pl = p !== undefined ? s.players[p] : null;
        const site = pl && pl.site ? B.sites[pl.site] : null;
        const token = pl ? el("span", { class: "jt-token", style: "background:" + B.architects[pl.architect].hex, title: pl.name },
          String(B.architects[pl.architect].number)) : null;
        cell = el("div", { class: "jt-cell gap" + (site && pl.side === "blue" ? " blue" : "") + (token ? " held" : "") },
          site ? el("div", { class: "lbl" }, short(site)) : "", token || "",
          site ? el("div", { class: "req" }, faceOf(s, pl.site, pl.side).req) : "");
      }
      cells.push(cell);
    }
    map.replaceChildren(...cells);
  }

  // ---------------------------------------------------------------- Countdown
  function renderCountdown(t, s) {
    const a = actor();
    $("#map").hidden = true; $("#grid").hidden = true; $("#checks").replaceChildren(); $("#checks").hidden = true; $("#stop").hidden = true;
    const prompts = { ready: "Everyone takes a card. Press Begin! to start floor 1.",
      floor: "Floor " + s.floor + ": build as many pieces as you can!", count: "Time! Enter the pieces you added on floor " + s.floor + ".",
      over: "Everyone is out." };
    $("#prompt").textContent = prompts[s.phase];
    $("#info").textContent = "Countdown · floors " + s.floor_seconds.join(" / ") + " s · pieces left " + s.supply;
    $("#clock-box").hidden = s.phase === "ready" || s.phase === "over";
    $("#clock-note").textContent = s.phase === "floor" ? "floor " + s.floor : "time is up";
    const call = [];
    if (s.phase === "ready") call.push(button("Begin!", () => send({ type: "begin" }), "wide jt-big"));
    if (has("pieces")) call.push(piecesEntry(s, a));
    setCall(call);
    const controls = [];
    if (s.phase === "floor" && link.token) controls.push(button("Everyone is done: end the floor", () => send({ type: "end-floor" }), "secondary wide"));
    $("#controls").replaceChildren(...controls);
    $("#players").replaceChildren(...s.players.map((pl, i) => el("li", { class: i === me() ? "me" : "" },
      el("span", { class: "grow" }, pl.name, el("div", { class: "small muted" },
        pl.out ? "out" : pl.entered !== null ? "done this floor" : s.phase === "ready" ? "ready" : "building",
        pl.floors.length ? " · floors " + pl.floors.join(" + ") : "")),
      el("strong", null, String(pl.floors.reduce((x, y) => x + y, 0))))));
  }

  /** Countdown's entry: the pieces added on this floor. The count and a pending "Sure?" live
   * outside the redraw (another phone's entry redraws the page) and belong to one seat's floor.
   * "When a player fails to add any pieces in one of the timed rounds, their game is over": an
   * entry of 0 asks once, in the page, before it is sent. */
  const entry = { key: null, n: 0, sure: false };
  function piecesEntry(s, a) {
    const key = a + "@" + s.floor;
    if (entry.key !== key) Object.assign(entry, { key, n: 0, sure: false });
    const out = el("output", null, String(entry.n));
    const step = (d) => { entry.n = Math.max(0, entry.n + d); entry.sure = false; render(); };
    const enter = () => {
      if (entry.n === 0 && !entry.sure) { entry.sure = true; render(); return; }
      entry.sure = false;
      send({ type: "pieces", player: a, pieces: entry.n }, entry.n ? null : "No piece: you are out.");
    };
    // quick counts: one tap for the usual numbers, − / + beyond them
    const left = s.supply - s.players.reduce((x, p) => x + (p.entered || 0), 0);
    const quick = [...Array(Math.max(0, Math.min(8, left)) + 1).keys()];
    const box = el("div", { class: "card", id: "pieces-entry" }, el("div", { class: "stepper" },
      el("span", { class: "name" }, "Pieces I added on floor " + s.floor),
      el("span", { class: "ctl" }, button("−", () => step(-1), "secondary"), out, button("+", () => step(1), "secondary"))),
      el("div", { class: "jt-chips jt-count", role: "group", "aria-label": "Quick counts" }, quick.map((k) =>
        el("button", { type: "button", class: "secondary", "data-pieces": String(k), "aria-pressed": String(k === entry.n),
                       "aria-label": k + (k === 1 ? " piece" : " pieces"),
                       onclick: () => { entry.n = k; entry.sure = false; render(); } }, String(k)))));
    if (entry.sure) {
      box.append(el("div", { class: "jt-sure", role: "alertdialog", "aria-label": "0 pieces" },
        el("strong", null, "0 pieces puts you out of the game. Sure?"),
        el("div", { class: "row" }, button("Yes, I am out", enter, "danger"),
          button("No, go back", () => { entry.sure = false; render(); }, "secondary"))));
    } else {
      box.append(button("Enter", enter, "wide"));
    }
    return box;
  }

  // ---------------------------------------------------------------- Izakaya
  /** The sealed bid being chosen (kept across redraws: another phone's move redraws the page):
   * per seat and bidding round; `changing`: the seat sealed and taps Change. */
  const bid = { key: null, n: 0, changing: false };
  /** What was tapped on the grid: {kind: "card" | "edge" | "corner", k} (cleared when the turn moves on). */
  let pick = null, pickTurn = null;
  /** The price adjustment chosen so far: the colour losing ¥100. */
  let priceFrom = null;
  window.tkIzakaya = { taps: 0 };   // taps on the Izakaya controls (the browser test counts a round's)
  const tap = (fn) => (ev) => { window.tkIzakaya.taps += 1; fn(ev); };

  function renderIzakaya(t, s) {
    const a = actor();
    $("#map").hidden = true; $("#stop").hidden = true; $("#clock-box").hidden = true; $("#checks").replaceChildren();
    $("#checks").hidden = true; setCall([]);
    const cur = s.phase === "actions" ? (s.bonus !== null ? s.bonus : s.order[s.turn % s.order.length]) : null;
    const free = s.bonus_left > 1 ? s.bonus_left + " free pieces" : "a free piece";
    const turnKey = s.phase + "@" + s.phase_no + "@" + s.turn + "@" + s.bonus + "@" + t.seq;
    if (pickTurn !== turnKey) { pick = null; priceFrom = null; pickTurn = turnKey; }
    const mine = s.phase === "actions" && cur === a && a !== null;
    $("#prompt").textContent = s.phase === "order" ? "Draw the players' discs 1 at a time and enter the turn order." :
      s.phase === "bid" ? "Bid for turn order, in secret." :
      s.phase === "actions" ? (s.bonus !== null ? name(cur) + ": a line of 3! Place " + free + " (tap a card)." :
        mine ? "Your turn: tap a card, an edge or a corner of the grid." : "Actions: " + name(cur) + "'s turn.") : "The game is over.";
    $("#info").textContent = "Izakaya · yen bid so far " + yen(s.pile) + " of " + yen(s.threshold) + (s.final ? " · last action phase!" : "") +
      (s.phase === "order" ? "" : " · order " + s.order.map(name).join(", "));
    const controls = [];
    if (s.phase === "order") controls.push(orderForm(s));
    if (s.phase === "bid" && a !== null) controls.push(bidBox(s, a));
    $("#controls").replaceChildren(...controls);
    drawGrid(s, mine ? a : null);
    const after = [];
    if (mine) after.push(actionPanel(s, a));
    after.push(market(s, mine ? a : null));
    $("#grid").append(...after);
    izakayaInView(s, mine);
    $("#players").replaceChildren(...s.players.map((pl, i) => el("li", { class: (i === me() ? "me " : "") + (i === cur ? "turn" : "") },
      el("span", { class: "seat-mark", "data-seat": String(i), "data-symbol": B.metro[pl.colour].symbol || null,
                   style: "--seat:" + B.metro[pl.colour].hex, title: B.metro[pl.colour].name }),
      el("span", { class: "grow" }, pl.name, el("div", { class: "small muted" }, tk.count(pl.discs, "claim disc") + " · " + tk.count(pl.pyramids, "pyramid"))),
      el("strong", null, yen(pl.yen)))));
  }

  /** What the phone must tap brought into view when it changes: the bid box when bidding starts; on
   * your turn the grid at the top of the screen with its action panel under it. */
  let izShown = null;
  function izakayaInView(s, mine) {
    const k = [s.phase, s.phase_no, mine ? s.turn + "@" + s.bonus : "-"].join("/");
    if (k === izShown) return;
    const first = izShown === null;
    izShown = k;
    if (first && !mine) return;                       // the page just opened: leave it at the top
    if (s.phase === "bid" && $("#bid-box")) inView($("#bid-box"));
    if (mine) requestAnimationFrame(() => {
      const g = $("#grid").getBoundingClientRect(), act = $("#act");
      if (g.top >= 0 && (!act || act.getBoundingClientRect().bottom <= innerHeight)) return;
      window.scrollBy({ top: g.top - 6, behavior: "smooth" });
    });
  }

  /** The sealed bid: quick amount chips, − / +, Seal; once sealed the amount stays shown with a
   * Change (the bid sent again replaces it until every bid is in). */
  function bidBox(s, a) {
    const key = a + "@" + s.phase_no;
    if (bid.key !== key) Object.assign(bid, { key, n: 0, changing: false });
    const own = s.bids[String(a)];
    const max = s.players[a].yen;
    if (typeof own === "number" && !bid.changing) {
      return el("div", { class: "card jt-bid", id: "bid-box" },
        el("div", { class: "jt-bid-sealed" }, el("span", null, "Your sealed bid"), el("strong", { id: "my-bid" }, yen(own))),
        el("div", { class: "small muted" }, "Nobody else sees it until every bid is in."),
        button("Change", tap(() => { bid.changing = true; bid.n = own; render(); }), "secondary wide"));
    }
    const set = (n) => { bid.n = Math.min(max, Math.max(0, n)); render(); };
    const chips = [0, 1, 2, 3, 5].map((k) => k * B.coin).filter((v) => v < max).concat([max]);
    return el("div", { class: "card jt-bid", id: "bid-box" },
      el("strong", null, typeof own === "number" ? "Change your sealed bid" : "Your sealed bid"),
      el("div", { class: "jt-chips", role: "group", "aria-label": "Quick amounts" }, chips.map((v) =>
        el("button", { type: "button", class: "secondary", "aria-pressed": String(v === bid.n), "data-amount": String(v),
                       onclick: tap(() => set(v)) }, v === max && v > 0 ? "All " + yen(v) : yen(v)))),
      el("div", { class: "stepper" }, el("span", { class: "name" }, "Amount"),
        el("span", { class: "ctl" }, button("−", tap(() => set(bid.n - B.coin)), "secondary"), el("output", { id: "bid-amount" }, yen(bid.n)),
          button("+", tap(() => set(bid.n + B.coin)), "secondary"))),
      el("div", { class: "row" },
        typeof own === "number" ? button("Keep " + yen(own), tap(() => { bid.changing = false; render(); }), "secondary") : "",
        button("Seal my bid: " + yen(bid.n), tap(async () => {
          const r = await send({ type: "bid", player: a, amount: bid.n });
          if (r.ok) { bid.changing = false; render(); }
        }), "grow")));
  }

  /** "Using players' remaining disc, randomly draw them 1 at a time, and create the turn order": the
   * table taps the names in the order the discs come out (any phone of the table enters it). */
  const drawn = [];
  function orderForm(s) {
    const n = s.players.length;
    while (drawn.length && drawn.some((p) => p >= n)) drawn.pop();
    const left = s.players.map((_, i) => i).filter((i) => !drawn.includes(i));
    const out = el("ol", { class: "small", id: "order-drawn" }, drawn.map((p) => el("li", null, name(p))));
    const box = el("div", { class: "card stack", id: "order-form", "data-pin": "", "data-enter": "turn-order" },
      el("strong", null, "Turn order drawn"),
      el("div", { class: "small muted" }, "Draw a disc of each player, one at a time, and tap whose it is."),
      drawn.length ? out : el("div", { class: "small muted" }, "No disc drawn yet."),
      left.length ? el("div", { class: "row" }, left.map((p) => button(name(p), () => {
        drawn.push(p); if (drawn.length === n - 1) drawn.push(s.players.map((_, i) => i).find((i) => !drawn.includes(i)));
        render();
      }, "secondary"))) : "",
      el("div", { class: "row" },
        drawn.length ? button("Start again", () => { drawn.length = 0; render(); }, "secondary") : "",
        drawn.length === n && link.token ? button("Enter this order", async () => {
          const r = await send({ type: "turn-order", order: drawn.slice() }, "Turn order entered.");
          if (r.ok) drawn.length = 0;
        }) : ""));
    return box;
  }

  /** Corner spots where a drink may go now: free, shared by 4 cards first, then by 2 (the rules). */
  function cornerSpots(s) {
    const n = s.size;
    const tiers = {};
    const shared = (x, y) => [x - 1, x].filter((c) => c >= 0 && c < n).length * [y - 1, y].filter((r) => r >= 0 && r < n).length;
    for (let y = 0; y <= n; y++) for (let x = 0; x <= n; x++) {
      const k = x + "," + y;
      if (k in s.corners) continue;
      tiers[shared(x, y)] = (tiers[shared(x, y)] || []).concat([k]);
    }
    for (const t of s.spots) if (tiers[t] && tiers[t].length) return tiers[t];
    return [];
  }
  const P = (k) => k.split(",").map(Number);
  const cardName = (s, k) => { const [c, r] = P(k); const site = s.cards[k]; return (site ? B.sites[site].label + " " : "") + "(row " + (r + 1) + ", column " + (c + 1) + ")"; };
  const edgeKey = (a, b) => [a, b].sort((x, y) => (x[0] - y[0]) || (x[1] - y[1])).map((p) => p.join(",")).join("|");
  const bottleFree = (s, d) => (!s.limits.bottle || s.used.filter((u) => u === d).length < s.limits.bottle) && s.crates[d] > 0;
  const priceOpen = (s) => !s.limits.price || s.price_uses < s.limits.price;
  const claimable = (s, k) => k !== s.blocked && !(k in s.owners);

  /** The buttons of what was tapped on the grid, beside it. */
  function actionPanel(s, a) {
    const bonus = s.bonus !== null;
    const box = el("div", { class: "card stack jt-act", id: "act" });
    const head = (text) => el("strong", null, text);
    const row = (...b) => el("div", { class: "row" }, ...b);
    const sendAct = (m) => tap(async () => { const r = await send(m); if (r.ok) pick = null; });
    if (!pick) {
      box.append(el("div", { class: "small" }, bonus ? "Tap a card to place your free piece." :
        "Tap a card to build or claim it, an edge between two cards to claim, a green corner spot for a bottle."));
      if (!bonus && priceOpen(s)) box.append(priceBox(s, a));
    } else if (pick.kind === "card") {
      const k = pick.k, [c, r] = P(k);
      box.append(head(cardName(s, k)));
      if (k === s.blocked) box.append(el("div", { class: "small" }, "The blue centre card is no building site and cannot be claimed."));
      else {
        const have = s.buildings[k] || [];
        const builds = [];
        have.forEach((b, i) => {
          const which = have.length > 1 || i ? (i ? "2nd building" : "1st building") + ": " : "";
          builds.push(button(which + "piece on its top floor (" + b.floors + "F)", sendAct({ type: "build", player: a, site: [c, r], building: i, floors: b.floors }), "secondary"));
          builds.push(button(which + "new floor (" + (b.floors + 1) + "F)", sendAct({ type: "build", player: a, site: [c, r], building: i, floors: b.floors + 1 })));
        });
        if (have.length < 2) builds.push(button(have.length ? "Start a 2nd building (1F)" : "Build here (1F)",
          sendAct({ type: "build", player: a, site: [c, r], building: have.length, floors: 1 }), have.length ? "secondary" : ""));
        if (s.pieces_left > 0) box.append(el("div", { class: "small muted" }, "Build (" + tk.count(s.pieces_left, "piece") + " left)"), el("div", { class: "jt-two" }, builds));
        if (!bonus) {
          const pl = s.players[a];
          const dirs = [["left", [c - 1, r]], ["right", [c + 1, r]], ["top", [c, r - 1]], ["bottom", [c, r + 1]]]
            .filter(([, q]) => q[0] >= 0 && q[1] >= 0 && q[0] < s.size && q[1] < s.size && !(edgeKey([c, r], q) in s.edges));
          if (!claimable(s, k)) box.append(el("div", { class: "small muted" }, name(s.owners[k]) + " has claimed this card."));
          else if (!pl.discs || !pl.pyramids) box.append(el("div", { class: "small muted" }, "You have no claim disc or pyramid left."));
          else if (dirs.length) box.append(el("div", { class: "small muted" }, "Claim it: your disc on its"),
            el("div", { class: "jt-two" }, dirs.map(([d, q]) => button("Claim · disc " + d, sendAct({ type: "claim", player: a, edge: [[c, r], q], site: [c, r] }), "secondary"))));
        }
      }
    } else if (pick.kind === "edge") {
      const [x, y] = pick.k.split("|"), [pa, pb] = [P(x), P(y)];
      const across = pa[1] === pb[1];
      box.append(head("The edge between " + (across ? "row " + (pa[1] + 1) + ", columns " + (pa[0] + 1) + " and " + (pb[0] + 1)
        : "column " + (pa[0] + 1) + ", rows " + (pa[1] + 1) + " and " + (pb[1] + 1))));
      const opts = [[pa, across ? "left" : "upper"], [pb, across ? "right" : "lower"]].filter(([q]) => claimable(s, q.join(",")));
      box.append(opts.length ? row(...opts.map(([q, w]) => button("Claim the " + w + " card", sendAct({ type: "claim", player: a, edge: [pa, pb], site: q }))))
        : el("div", { class: "small muted" }, "Neither card can be claimed."));
    } else if (pick.kind === "corner") {
      const [x, y] = P(pick.k);
      const colours = Object.keys(s.prices).filter((d) => bottleFree(s, d));
      box.append(head("A bottle on this corner"),
        colours.length ? el("div", { class: "jt-drink-grid" }, colours.map((d) => el("button", {
          type: "button", class: "secondary jt-drink", "data-drink": d, onclick: sendAct({ type: "bottle", player: a, drink: d, corner: [x, y] }) },
          el("span", { class: "jt-dot", style: "background:" + B.drinks[d].hex }), B.drinks[d].name + " (" + s.crates[d] + ")")))
          : el("div", { class: "small muted" }, "Every stock card with drinks left holds a disc this action phase."));
    }
    const tail = [];
    if (pick) tail.push(button("Cancel", tap(() => { pick = null; render(); }), "secondary"));
    if (has("pass")) tail.push(button(bonus ? "No free piece" : "Pass (no action possible)", tap(() => send({ type: "pass", player: a })), "secondary"));
    if (tail.length) box.append(row(...tail));
    return box;
  }

  /** The market: prices, crates; on your turn the price adjustment spot (from, to, Move ¥100), or why
   * it is closed. */
  function market(s, a) {
    const box = el("div", { class: "card small jt-market", id: "market" }, el("strong", null, "Market "),
      Object.entries(s.prices).map(([d, v]) => el("span", { style: "margin-right:.6rem;white-space:nowrap" },
        el("span", { class: "jt-dot", style: "background:" + B.drinks[d].hex }), B.drinks[d].name + " " + yen(v) + " (" + s.crates[d] + " left)")));
    if (s.phase !== "actions") return box;
    if (!priceOpen(s)) {
      box.append(el("div", { class: "jt-closed", id: "price-closed" }, "Price adjustment: closed. Its spot takes " +
        tk.count(s.limits.price, "disc") + " per action phase, and " + (s.limits.price > 1 ? "they are" : "it is") + " used in this one."));
    }
    return box;
  }

  /** The price adjustment spot on your turn (in the action panel under the grid): from, then to. */
  function priceBox(s, a) {
    const cols = Object.keys(s.prices);
    return el("div", { class: "stack", id: "price" }, el("strong", null, "Or price adjustment: move ¥" + B.coin + " " + (priceFrom ? "from " + B.drinks[priceFrom].name + " to…" : "from…")),
      el("div", { class: "jt-drink-grid" }, (priceFrom ? cols.filter((d) => d !== priceFrom) : cols.filter((d) => s.prices[d] >= B.coin)).map((d) =>
        el("button", { type: "button", class: "secondary jt-drink", "data-drink": d, onclick: tap(async () => {
          if (!priceFrom) { priceFrom = d; render(); return; }
          const r = await send({ type: "price", player: a, from: priceFrom, to: d });
          if (r.ok) priceFrom = null;
        }) }, el("span", { class: "jt-dot", style: "background:" + B.drinks[d].hex }), B.drinks[d].name + " " + yen(s.prices[d])))),
      priceFrom ? button("Cancel", tap(() => { priceFrom = null; render(); }), "secondary") : "");
  }

  /** The grid as the input: on your turn, cards, edges between them and the corner spots open for a
   * drink are buttons (the tapped one is outlined, its actions below the grid). Drinks are round and
   * filled; claim discs are squares outlined in the seat's colour with its printed symbol. */
  function drawGrid(s, a) {
    const wrap = $("#grid");
    wrap.hidden = false;
    const n = s.size, u = 60, pad = 12, size = n * u + 2 * pad;
    // the grid is drawn to the width of the page: text sizes in its units that come out >= 12 px
    const px = size / Math.max(280, wrap.clientWidth || 354);
    const fs = (base, least = 12) => Math.max(base, Math.ceil(least * px * 10) / 10).toFixed(1);
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 " + size + " " + size);
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", "The Izakaya grid");
    const add = (tag, attrs, text, parent) => { const e = document.createElementNS(NS, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (text !== undefined) e.textContent = text; (parent || svg).append(e); return e; };
    const live = a !== null;
    const hit = (attrs, label, p) => {
      if (!live) return;
      const g = add("g", { class: "hit", role: "button", tabindex: "0", "aria-label": label, "data-pick": p.kind + ":" + p.k });
      const on = tap(() => { pick = p; priceFrom = null; render(); const act = document.getElementById("act"); if (act) act.scrollIntoView({ block: "nearest", behavior: "smooth" }); });
      g.addEventListener("click", on);
      g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); on(); } });
      add(attrs.r ? "circle" : "rect", { ...attrs, fill: "transparent" }, undefined, g);
    };
    const picked = (kind, k) => pick && pick.kind === kind && pick.k === k;
    // cards
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
      const k = c + "," + r, owner = s.owners[k];
      add("rect", { x: pad + c * u + 3, y: pad + r * u + 3, width: u - 6, height: u - 6, rx: 5,
        fill: k === s.blocked ? "#dbe9f7" : owner !== undefined ? B.metro[s.players[owner].colour].hex + "33" : "#fafafa",
        stroke: picked("card", k) ? "#1f4fa8" : "#555", "stroke-width": picked("card", k) ? 4 : 1 });
      const b = s.buildings[k] || [];
      if (b.length) add("text", { x: pad + c * u + u / 2, y: pad + r * u + u / 2 + 5, "text-anchor": "middle", "font-size": fs(14, 14), "font-weight": 700 },
        b.map((x) => x.floors + "F").join(" / "));
      if (owner !== undefined) {       // the pyramid: a triangle in the owner's colour
        const x0 = pad + c * u + 8, y0 = pad + r * u + 8;
        add("polygon", { points: [x0 + 7, y0, x0 + 14, y0 + 12, x0, y0 + 12].join(" "), fill: B.metro[s.players[owner].colour].hex, stroke: "#111", "stroke-width": 1 });
        add("text", { x: x0 + 16, y: y0 + 11, "font-size": fs(10), "font-weight": 700 }, s.players[owner].name.slice(0, 4));
      }
      const site = s.cards[k];
      add("text", { x: pad + c * u + u - 6, y: pad + r * u + u - 7, "text-anchor": "end", "font-size": fs(8, 12.5), fill: "#444" },
        site ? short(B.sites[site]) : "r" + (r + 1) + " c" + (c + 1));
      hit({ x: pad + c * u + 8, y: pad + r * u + 8, width: u - 16, height: u - 16 }, "Card " + cardName(s, k), { kind: "card", k });
    }
    // edges: claim discs placed, and (on your turn, outside a free piece) the free ones to tap
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) for (const q of [[c + 1, r], [c, r + 1]]) {
      if (q[0] >= n || q[1] >= n) continue;
      const ek = edgeKey([c, r], q);
      const cx = pad + ((c + q[0]) / 2 + 0.5) * u, cy = pad + ((r + q[1]) / 2 + 0.5) * u;
      const p = s.edges[ek];
      if (p !== undefined) {
        const m = B.metro[s.players[p].colour];
        const g = add("g", { class: "claim-disc", "data-symbol": m.symbol || "circle", "data-seat": String(p) });
        add("rect", { x: cx - 9, y: cy - 9, width: 18, height: 18, rx: 3, fill: "#fff", stroke: m.hex, "stroke-width": 3.5 }, undefined, g);
        if (m.shape) add("polygon", { points: m.shape.map(([x, y]) => (cx + 5.5 * x).toFixed(1) + "," + (cy + 5.5 * y).toFixed(1)).join(" "), fill: m.hex }, undefined, g);
        else add("circle", { cx, cy, r: 4.5, fill: m.hex }, undefined, g);
      } else if (live && s.bonus === null && (claimable(s, c + "," + r) || claimable(s, q.join(",")))) {
        if (picked("edge", ek)) add("rect", { x: cx - 10, y: cy - 10, width: 20, height: 20, rx: 3, fill: "#fff", stroke: "#1f4fa8", "stroke-width": 3 });
        else add("rect", { x: cx - 5, y: cy - 5, width: 10, height: 10, rx: 2, fill: "#fff", stroke: "#888", "stroke-dasharray": "2 2" });
        hit({ x: cx - 13, y: cy - 13, width: 26, height: 26 }, "Edge between " + cardName(s, c + "," + r) + " and " + cardName(s, q.join(",")), { kind: "edge", k: ek });
      }
    }
    // drinks: round, filled with the drink's colour
    for (const [k, d] of Object.entries(s.corners)) {
      const [x, y] = P(k);
      add("circle", { cx: pad + x * u, cy: pad + y * u, r: 9, fill: B.drinks[d].hex, stroke: "#111", "stroke-width": 2, class: "drink", "data-drink": d });
    }
    // the corner spots a drink may go on now
    if (s.phase === "actions" && s.bonus === null) cornerSpots(s).forEach((k) => {
      const [x, y] = P(k);
      add("circle", { cx: pad + x * u, cy: pad + y * u, r: picked("corner", k) ? 10 : 7, fill: "#fff", stroke: picked("corner", k) ? "#1f4fa8" : "#2e7d32", "stroke-width": picked("corner", k) ? 3.5 : 2 });
      hit({ cx: pad + x * u, cy: pad + y * u, r: 14 }, "Corner spot for a bottle", { kind: "corner", k });
    });
    wrap.replaceChildren(svg);
  }

  // ---------------------------------------------------------------- start
  tk.clock.sync(6).then(() => requestAnimationFrame(tick));
  link.start();
  setInterval(() => tk.clock.sync(3), 60000);
})();
