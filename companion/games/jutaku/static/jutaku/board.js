/* Tokyo Jutaku's live page: the map, the round / floor clock (the server's, through tk.clock),
 * "stop!", confirm or reject, movement, drinks; Countdown's floors; Izakaya's bids and actions.
 * Every move goes through the table's API (tk.TableLink); the server checks it. */
(function () {
  "use strict";
  const { el, $ } = tk;
  const data = tk.pageData();
  const B = data.board;
  const code = data.code;
  let legal = [];           // legal moves of the seat this phone acts for
  let legalSeq = -1;
  const rung = new Set();
  let lastTimer = null;
  let asked = 0;

  const link = new tk.TableLink(code, {
    table: () => { render(); refreshLegal(); },
    status: (mode) => { const c = $("#conn"); c.textContent = { live: "Live", polling: "Polling", offline: "Offline", connecting: "Connecting…" }[mode] || mode; c.className = "status " + mode; },
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
  }

  function button(label, onclick, cls) { return el("button", { type: "button", class: cls || "", onclick }, label); }

  // ---------------------------------------------------------------- Tokyo Jutaku and Bottle Bonus
  function renderJutaku(t, s) {
    const a = actor();
    const phase = s.phase;
    // the same sentences as the rules' needs().prompt (main.prompt), from the state at hand
    const timedOut = !!(s.last && s.last.timeout);
    const ready = (timedOut ? "Time! Nobody finished round " + s.round + ": everyone keeps their site card. " : "Ready? ") +
      (s.bottle_bonus ? "Spend drinks now if you wish, then press Begin!"
        : timedOut ? "Press Begin! to start the round again." : "Press Begin! and everyone builds.");
    const prompts = {
      start: "Choose your starting site card on the outer ring of the map.",
      ready,
      building: "Everyone builds! Press STOP! when your building meets your card.",
      check: andList(s.stops.map(name)) + " called stop! Check the building" + (s.stops.length > 1 ? "s" : "") + ": confirm or reject.",
      draw: "Enter the drinks drawn from the box.",
      grab: "Grab at most one drink from the machine.",
      move: "Move: " + name(s.movers[s.mover]) + " — up to 2 spaces, no diagonals, gaps passed through.",
      over: "The game is over.",
    };
    const last = couldBeLast(s);
    $("#prompt").textContent = (prompts[phase] || phase) + (last ? " " + last : "");
    $("#info").textContent = (s.bottle_bonus ? "Bottle Bonus · " : "") + "Round " + Math.max(1, s.round) + " · map on its " + s.side + " side";
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
    setCall(phase === "ready" && link.token ? [el("div", { "data-enter": "begin" },
      button("Begin!", () => send({ type: "begin" }), "wide jt-big"))] : []);
    // controls
    const controls = [];
    if (phase === "start" && has("start")) controls.push(architectPicker(s, a));
    const spends = legal.filter((m) => m.type === "spend");
    if (spends.length) controls.push(el("div", { class: "card jt-drinks" }, el("strong", null, "Spend a drink"),
      el("div", { class: "row" }, spends.map((m) => button(B.drinks[m.drink].name, () => send(m, B.drinks[m.drink].text), "secondary")))));
    if (phase === "grab") {
      const grabs = legal.filter((m) => m.type === "grab");
      controls.push(el("div", { class: "card jt-drinks" },
        el("div", null, "Out of the machine: " + s.offer.map((d) => B.drinks[d].name).join(", ")),
        grabs.length ? el("div", { class: "row" }, grabs.map((m) => button(m.drink ? B.drinks[m.drink].name : "Nothing",
          () => send(m), m.drink ? "" : "secondary"))) : el("div", { class: "small muted" }, "Waiting for the others to grab.")));
    }
    if (phase === "draw") controls.push(drawForm(s));
    if (phase === "move" && has("stay")) controls.push(button("Keep my site card", () => send({ type: "stay", player: a }), "secondary wide"));
    $("#controls").replaceChildren(...controls);
    drawMap(s);
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

  /** "Each player chooses one architect token": the tokens not on the map yet (one held by a player
   * who has not placed changes hands); the seat's own is preselected. The map tap sends the choice. */
  const chosenArch = {};
  function architectPicker(s, a) {
    const mine = chosenArch[a] || s.players[a].architect;
    const free = Object.keys(B.architects).sort((x, y) => B.architects[x].number - B.architects[y].number).filter((id) => !s.players.some((q, i) => i !== a && q.at && q.architect === id));
    return el("div", { class: "card", id: "architects" },
      el("strong", null, "Your architect token"), el("div", { class: "small muted" }, "Choose one, then tap your starting card on the outer ring."),
      el("div", { class: "jt-archs" }, free.map((id) => {
        const arch = B.architects[id];
        return el("button", { type: "button", class: "secondary", "aria-pressed": String(id === mine), "data-architect": id,
                              onclick: () => { chosenArch[a] = id; render(); } },
          el("span", { class: "jt-dot", style: "background:" + arch.hex }), arch.number + " " + arch.name);
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

  function drawForm(s) {
    const want = s.players.length - 1;
    const picked = [];
    const out = el("output", null, "");
    const show = () => { out.textContent = picked.length ? picked.map((d) => B.drinks[d].name).join(", ") : "none yet"; };
    show();
    return el("div", { class: "card" }, el("div", null, "Drinks drawn (" + want + "): ", out),
      el("div", { class: "row jt-drinks" }, Object.keys(B.drinks).map((d) => button(B.drinks[d].name, () => {
        if (picked.length < want) picked.push(d); show(); }, "secondary"))),
      el("div", { class: "row" }, button("Clear", () => { picked.length = 0; show(); }, "secondary"),
        button("Enter", () => send({ type: "draw-drinks", drinks: picked.slice() }))));
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
      if (centre.has(k)) cell = el("div", { class: "jt-cell centre", "aria-label": "pieces" }, c === 2 && r === 2 ? "pieces" : "");
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
    const box = el("div", { class: "card", id: "pieces-entry" }, el("div", { class: "stepper" },
      el("span", { class: "name" }, "Pieces I added on floor " + s.floor),
      el("span", { class: "ctl" }, button("−", () => step(-1), "secondary"), out, button("+", () => step(1), "secondary"))));
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
  function renderIzakaya(t, s) {
    const a = actor();
    $("#map").hidden = true; $("#stop").hidden = true; $("#clock-box").hidden = true; $("#checks").replaceChildren();
    $("#checks").hidden = true; setCall([]);
    const cur = s.phase === "actions" ? (s.bonus !== null ? s.bonus : s.order[s.turn % s.order.length]) : null;
    const free = s.bonus_left > 1 ? s.bonus_left + " free pieces" : "a free piece";
    $("#prompt").textContent = s.phase === "order" ? "Draw the players' discs 1 at a time and enter the turn order." :
      s.phase === "bid" ? "Bid for turn order, in secret." :
      s.phase === "actions" ? (s.bonus !== null ? name(cur) + ": a line of 3! Place " + free + "." : "Actions: " + name(cur) + "'s turn.") : "The game is over.";
    $("#info").textContent = "Izakaya · yen bid so far " + yen(s.pile) + " of " + yen(s.threshold) + (s.final ? " · last action phase!" : "") +
      (s.phase === "order" ? "" : " · order " + s.order.map(name).join(", "));
    const controls = [];
    if (s.phase === "order") controls.push(orderForm(s));
    if (has("bid")) {
      let n = 0;
      const out = el("output", null, "0");
      const max = s.players[a].yen;
      const step = (d) => { n = Math.min(max, Math.max(0, n + d)); out.textContent = String(n); };
      controls.push(el("div", { class: "card" }, el("div", { class: "stepper" }, el("span", { class: "name" }, "My sealed bid (yen)"),
        el("span", { class: "ctl" }, button("−", () => step(-B.coin), "secondary"), out, button("+", () => step(B.coin), "secondary"))),
        button("Seal my bid", () => send({ type: "bid", player: a, amount: n }, "Bid sealed."), "wide")));
    } else if (s.phase === "bid") {
      controls.push(el("p", { class: "small" }, "Sealed: " + (Object.keys(s.bids).map((p) => name(Number(p))).join(", ") || "nobody yet")));
    }
    if (s.phase === "actions" && cur === a) controls.push(actionForm(s, a));
    controls.push(el("div", { class: "card small" }, el("strong", null, "Market "), Object.entries(s.prices).map(([d, v]) =>
      el("span", { style: "margin-right:.6rem;white-space:nowrap" }, el("span", { class: "jt-dot", style: "background:" + B.drinks[d].hex }),
        B.drinks[d].name + " " + yen(v) + " (" + s.crates[d] + " left)"))));
    $("#controls").replaceChildren(...controls);
    drawGrid(s);
    $("#players").replaceChildren(...s.players.map((pl, i) => el("li", { class: (i === me() ? "me " : "") + (i === cur ? "turn" : "") },
      el("span", { class: "seat-mark", "data-seat": String(i), "data-symbol": B.metro[pl.colour].symbol || null,
                   style: "--seat:" + B.metro[pl.colour].hex, title: B.metro[pl.colour].name }),
      el("span", { class: "grow" }, pl.name, el("div", { class: "small muted" }, tk.count(pl.discs, "claim disc") + " · " + tk.count(pl.pyramids, "pyramid"))),
      el("strong", null, yen(pl.yen)))));
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
  const spotName = (i) => String.fromCharCode(65 + (i % 26)) + (i >= 26 ? Math.floor(i / 26) : "");

  function sel(options, value) {
    const s = el("select", { style: "width:auto" }, options.map(([v, label]) => el("option", { value: String(v) }, label)));
    if (value !== undefined) s.value = String(value);
    return s;
  }

  function actionForm(s, a) {
    const n = s.size;
    const cards = []; for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
      const site = s.cards[c + "," + r];
      cards.push([c + "," + r, "r" + (r + 1) + " c" + (c + 1) + (site ? " " + B.sites[site].label : "")]);
    }
    const corners = cornerSpots(s).map((k, i) => [k, "spot " + spotName(i)]);
    const colours = Object.keys(s.prices).map((d) => [d, B.drinks[d].name]);
    const pos = (v) => v.split(",").map(Number);
    const box = el("div", { class: "card stack" });
    const bonus = s.bonus !== null;
    if (!bonus) {
      const bc = sel(colours.filter(([d]) => (!s.limits.bottle || s.used.filter((u) => u === d).length < s.limits.bottle) && s.crates[d] > 0)), bk = sel(corners.length ? corners : [["", "no spot left"]]);
      box.append(el("div", { class: "row" }, el("strong", null, "Bottle"), bc, "corner", bk,
        button("Place", () => send({ type: "bottle", player: a, drink: bc.value, corner: pos(bk.value) }))));
      if (!s.limits.price || s.price_uses < s.limits.price) {
        const pf = sel(colours), pt = sel(colours, colours[1][0]);
        box.append(el("div", { class: "row" }, el("strong", null, "Price"), pf, "→", pt,
          button("Move ¥100", () => send({ type: "price", player: a, from: pf.value, to: pt.value }))));
      }
      const ca = sel(cards), cd = sel([["right", "and the card to its right"], ["down", "and the card below"]]),
        cp = sel([["0", "pyramid on the first"], ["1", "pyramid on the second"]]);
      box.append(el("div", { class: "row" }, el("strong", null, "Claim"), ca, cd, cp, button("Claim", () => {
        const [c, r] = pos(ca.value);
        const other = cd.value === "right" ? [c + 1, r] : [c, r + 1];
        send({ type: "claim", player: a, edge: [[c, r], other], site: cp.value === "0" ? [c, r] : other });
      })));
    }
    const bs = sel(cards.filter(([k]) => k !== s.blocked)), bb = sel([["0", "building 1"], ["1", "building 2"]]);
    const bf = el("input", { type: "number", min: "1", value: "1", inputmode: "numeric", style: "width:4.5rem" });
    box.append(el("div", { class: "row" }, el("strong", null, "Build"), bs, bb, "floors after", bf,
      button("Build", () => send({ type: "build", player: a, site: pos(bs.value), building: Number(bb.value), floors: Number(bf.value) }))));
    if (has("pass")) box.append(button(bonus ? "No free piece" : "Pass (no action possible)", () => send({ type: "pass", player: a }), "secondary"));
    return box;
  }

  function drawGrid(s) {
    const wrap = $("#grid");
    wrap.hidden = false;
    const n = s.size, u = 60, pad = 10, size = n * u + 2 * pad;
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 " + size + " " + size);
    const add = (tag, attrs, text) => { const e = document.createElementNS(NS, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (text !== undefined) e.textContent = text; svg.append(e); return e; };
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
      const k = c + "," + r, owner = s.owners[k];
      add("rect", { x: pad + c * u + 2, y: pad + r * u + 2, width: u - 4, height: u - 4, rx: 4,
        fill: k === s.blocked ? "#dbe9f7" : owner !== undefined ? B.metro[s.players[owner].colour].hex + "55" : "#fafafa", stroke: "#555" });
      const b = s.buildings[k] || [];
      if (b.length) add("text", { x: pad + c * u + u / 2, y: pad + r * u + u / 2 + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700 },
        b.map((x) => x.floors + "F").join(" / "));
      if (owner !== undefined) add("text", { x: pad + c * u + 6, y: pad + r * u + 16, "font-size": 11 }, "▲" + s.players[owner].name.slice(0, 4));
    }
    if (s.phase === "actions") cornerSpots(s).forEach((k, i) => {
      const [x, y] = k.split(",").map(Number);
      add("circle", { cx: pad + x * u, cy: pad + y * u, r: 7, fill: "#fff", stroke: "#2e7d32", "stroke-width": 1.5 });
      add("text", { x: pad + x * u, y: pad + y * u + 3.5, "text-anchor": "middle", "font-size": 9, "font-weight": 700 }, spotName(i));
    });
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
      const site = s.cards[c + "," + r];
      add("text", { x: pad + c * u + u - 6, y: pad + r * u + u - 7, "text-anchor": "end", "font-size": 8, fill: "#555" },
        site ? B.sites[site].label : "r" + (r + 1) + " c" + (c + 1));
    }
    for (const [k, d] of Object.entries(s.corners)) {
      const [x, y] = k.split(",").map(Number);
      add("circle", { cx: pad + x * u, cy: pad + y * u, r: 8, fill: B.drinks[d].hex, stroke: "#111", "stroke-width": 2 });
    }
    for (const [k, p] of Object.entries(s.edges)) {
      const [a, b] = k.split("|").map((v) => v.split(",").map(Number));
      const cx = pad + ((a[0] + b[0]) / 2 + 0.5) * u, cy = pad + ((a[1] + b[1]) / 2 + 0.5) * u;
      const m = B.metro[s.players[p].colour];       // the player's colour in its printed symbol's shape
      if (m.shape) add("polygon", { points: m.shape.map(([x, y]) => (cx + 7.5 * x).toFixed(1) + "," + (cy + 7.5 * y).toFixed(1)).join(" "),
                                    fill: m.hex, stroke: "#111", "stroke-width": 1.5, "data-symbol": m.symbol });
      else add("circle", { cx, cy, r: 6.5, fill: m.hex, stroke: "#111", "stroke-width": 1.5, "data-symbol": m.symbol || "circle" });
    }
    wrap.replaceChildren(svg);
  }

  // ---------------------------------------------------------------- start
  tk.clock.sync(6).then(() => requestAnimationFrame(tick));
  link.start();
  setInterval(() => tk.clock.sync(3), 60000);
})();
