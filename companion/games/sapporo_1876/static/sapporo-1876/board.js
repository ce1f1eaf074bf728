/* Sapporo 1876 board twin, a game screen: at the top the viewer's holdings and the moves at hand (the
 * engine's suggestions, needs.options): at the start of a turn the action spots themselves, in an action
 * step each choice on one button with its cheapest payment ("Other ways" beside it opens the other
 * payments and any mix), past the ninth choice "More choices", the building tiles the player can use
 * now unfolded two to a line (past the fifth "More building tiles"); below them the move
 * builder (builder.js) for every other legal move, then the main board, both personal boards and the
 * final-score preview. The engine's reasons are shown when it refuses (422); nothing stays once a move
 * went in. */
(function () {
  "use strict";
  const { el, $ } = tk;
  const data = tk.pageData(), { board: B, code } = data;
  const resName = Object.fromEntries(B.resources.map((r) => [r.id, r.name]));
  const resHex = Object.fromEntries(B.resources.map((r) => [r.id, r.hex]));
  let table = null, st = null, needs = null;

  const link = new tk.TableLink(code, {
    table(t) {
      // After our own move the link has the new seq and state before the new hints (needs) arrive:
      // show no moves until they do, so a stale suggestion is never tapped.
      const stale = table && t.seq !== table.seq && t.needs === table.needs;
      if (table && t.seq !== table.seq) clearMsg();        // a refusal is about a step that is gone
      table = t; st = t.state;
      needs = stale ? { options: [], players: [], preview: (t.needs || {}).preview || [], prompt: "Updating…" }
        : t.needs || { options: [], players: [], preview: [] };
      if (stale) link.reloadSoon();
      renderSeat();
      tk.renderResult($("#result"), t, link);
      if (t.result) $("#seat").hidden = true;
      render();
    },
  });

  const me = () => tk.me(code);
  function renderSeat() { tk.renderSeat(link, data.game, data.players, (text) => tk.say("#msg", "bad", text), renderSeat); }
  renderSeat();

  const worker = (seat) => {
    const colour = st.players[seat].colour;
    return el("span", { class: "w " + colour, title: st.players[seat].name + " (" + B.colours[colour].name + ")" },
              B.colours[colour].name[0]);
  };
  const payText = (pay) => Object.entries(pay || {}).filter(([, n]) => n)
    .map(([k, n]) => k === "yen" ? n + " yen" : n + " " + (resName[k] || k)).join(" + ") || "nothing";

  /** The option's move with payment `pay` (in the move, or in its building action: pay_in). */
  const withPay = (o, pay) => o.pay_in === "action"
    ? Object.assign({}, o.move, { action: Object.assign({}, o.move.action, { pay }) })
    : Object.assign({}, o.move, { pay });

  function clearMsg() { tk.say("#msg", "info", ""); }

  /** Send a move; the page redraws when it is in (no "Done." left behind), a refusal says why. */
  async function send(move, button) {
    if (button) button.disabled = true;
    const r = await link.send("/moves", { move });
    if (button) button.disabled = false;
    if (r.ok) clearMsg();
    else tk.say("#msg", "bad", tk.explain(r), r.body && r.body.reasons);
  }

  function render() {
    if (!st) return;
    $("#prompt").textContent = needs.prompt || "";
    // one line: the countdown to the end is in the table's facts just below
    $("#turninfo").textContent = "Turn " + (st.turn + 1) +
      (table.turn !== null && table.turn !== undefined && table.turn !== me() ? " · " + data.players[table.turn] + " to play" : "");
    renderHoldings(); renderMoves(); renderSpots(); renderTracks(); renderCouncil(); renderTiles(); renderBoards(); renderPreview();
  }

  /** Table mode, set-up: tap the tiles the table laid out (6 persons, 6 buildings, 4 beside). */
  function layoutForm() {
    const ids = (kind) => Object.keys(B.tiles).filter((id) => B.tiles[id].kind === kind);
    const groups = [["persons", "On the 6 person spaces", ids("person"), 6], ["buildings", "On the 6 building spaces", ids("building"), 6],
                    ["beside", "The 4 beside the board", ids("building"), 4]];
    const chosen = { persons: [], buildings: [], beside: [] };
    const boxes = [];
    const send_ = el("button", { type: "button", id: "lay-out", disabled: true }, "Lay out these tiles");
    const check = () => {
      const taken = new Set([...chosen.buildings, ...chosen.beside]);
      for (const [box, group, id] of boxes) box.disabled = !box.checked && (
        chosen[group].length >= groups.find((g) => g[0] === group)[3] || (group !== "persons" && taken.has(id)));
      send_.disabled = groups.some(([g, , , n]) => chosen[g].length !== n);
    };
    const sections = groups.map(([group, title, list, n]) => el("fieldset", { class: "card", "data-group": group },
      el("legend", null, title + " (" + n + ")"),
      list.map((id) => {
        const box = el("input", { type: "checkbox", value: id, onchange: () => {
          if (box.checked) chosen[group].push(id); else chosen[group] = chosen[group].filter((x) => x !== id);
          check();
        } });
        boxes.push([box, group, id]);
        return el("label", { class: "check" }, box, B.tiles[id].name + " · " + B.tiles[id].cost);
      })));
    send_.addEventListener("click", () => send({ type: "lay-out-tiles", ...chosen }, send_));
    return [...sections, send_];
  }

  /** Whose holdings the top of the page shows: this phone's seat, else (the host's phone, a watcher)
   *  the player the table waits for. */
  function holder() {
    const m = me();
    if (m !== null && m >= 0 && m < st.players.length) return m;
    const w = (needs.players || [])[0];
    return w !== undefined ? w : st.current;
  }

  function renderHoldings() {
    const seat = holder(), p = st.players[seat];
    // in an action step, what a unit pays at the pawn's spot (yen 1 AP each)
    const spot = st.phase === "action" && st.pawn ? B.spots.find((x) => x.id === st.pawn) : null;
    const res = B.resources.map((r) => el("span", { class: "res" }, el("span", { class: "res-dot", style: "background:" + r.hex }),
                                          r.name + " " + p.resources[r.id], spot && spot.ap[r.id] ? el("span", { class: "ap" }, " (" + spot.ap[r.id] + " AP)") : ""));
    const tiles = p.buildings.map((b) => B.tiles[b.id].name + (b.worker ? " (used)" : ""));
    const rows = [
      el("div", { class: "hrow" }, worker(seat), el("strong", null, p.name), el("span", { class: "yen" }, p.yen + " yen"),
         el("span", null, "fame " + p.fame)),
      el("div", { class: "hrow small" }, ...res),
      el("div", { class: "hrow small" }, p.area + (p.area === 1 ? " worker" : " workers") + " free · " +
         ([...tiles, ...p.persons.map((id) => B.tiles[id].name)].join(", ") || "no tiles yet")),
    ];
    $("#holdings").replaceChildren(el("div", { class: "holdings", "data-seat": seat, "aria-label": p.name + "'s holdings" }, ...rows));
  }

  /** An option's identity without its payment (the replay driver and the tests find a move by it). */
  function keyOf(move) {
    const sorted = (o) => Array.isArray(o) ? o.map(sorted) : o && typeof o === "object"
      ? Object.fromEntries(Object.keys(o).sort().map((k) => [k, sorted(o[k])])) : o;
    const m = Object.assign({}, move);
    delete m.pay;
    if (m.action && typeof m.action === "object") { m.action = Object.assign({}, m.action); delete m.action.pay; }
    return JSON.stringify(sorted(m));
  }

  /** What a button says: the history line without the player's own name (on their own phone) and
   *  without the payment (shown under it). */
  function labelOf(o) {
    if (o.move.type === "pass" && o.move.player === me()) return "Do nothing";
    if (o.move.type === "end-turn" && o.move.player === me()) return "End the turn";
    let t = o.text.split(" for ")[0];
    if (o.move.type === "use-building" && o.move.action && o.move.action.steps)        // "…: pioneer Wheat +2"
      t = t.replace(/: then pioneers .*$/, ": pioneer " + stepsLabel(o.move.action.steps));
    const p = o.move.player, name = p !== undefined && st.players[p] ? st.players[p].name : null;
    if (name && p === me() && t.startsWith(name + " ")) {
      t = t.slice(name.length + 1);
      const verb = t.split(" ")[0];
      t = (VERBS[verb] || verb.charAt(0).toUpperCase() + verb.slice(1)) + t.slice(verb.length);
    }
    return t;
  }

  // the history line's verb as the player's own button says it
  const VERBS = { educates: "Educate", pioneers: "Pioneer", invests: "Invest", appoints: "Appoint", uses: "Use",
                  takes: "Take", buys: "Buy", places: "Place", moves: "Move", ends: "End", performs: "Perform" };
  const SHOWN = 9;            // action choices shown before "More choices" (all nine council spaces)

  let movesFor = null;        // the seq and seat the moves were drawn for: a reload of the same
                             // table keeps them (and an open "Other ways" with its numbers)
  function renderMoves() {
    const m = me(), host = tk.isHost(code);
    // (the options too: after a move the table has the new seq before its new hints arrive)
    const key = table.seq + "/" + m + "/" + host + "/" + JSON.stringify(needs.options || []);
    if (key === movesFor) return;
    movesFor = key;
    if (st.phase === "tiles") {
      $("#move-h").classList.add("sr-only");
      if (!$("#lay-out")) $("#moves").replaceChildren(el("div", { class: "stack", "data-enter": "lay-out-tiles" }, ...layoutForm()));
      return;
    }
    const mine = (needs.options || []).filter((o) => host || o.move.player === undefined || o.move.player === m);
    $("#moves-section").hidden = !!table.result;
    const built = st.phase === "over" ? [] : SapporoBuilder({
      B, st, code, resName, payText, withPay, otherPayment, send, may: (p) => host || p === m });
    if (!mine.length && !built.length) {
      $("#move-h").classList.remove("sr-only");      // "Ben's move" (at_table.js's turn line)
      $("#moves").replaceChildren();
      return;
    }
    // The heading says "Your move", which the table's turn line makes "Ben's move" on another's step
    // (at_table.js); only then is it shown (Ben's step 5: the active player's building tiles
    // meanwhile), on the player's own step the prompt above says it.
    const waiting = !host && !(needs.players || []).includes(m);
    $("#move-h").classList.toggle("sr-only", !waiting);
    const of = (...types) => mine.filter((o) => types.includes(o.move.type));
    const nodes = [];
    if (st.phase === "move") {
      nodes.push(spotGrid(of("move-pawn")));
    } else if (st.phase === "end") {
      nodes.push(...of("end-turn").map((o) => el("button", { type: "button", class: "wide", "data-type": "end-turn", "data-key": keyOf(o.move),
                                                          onclick: (ev) => send(o.move, ev.currentTarget) }, labelOf(o))));
    } else {
      const rows = grouped(mine.filter((o) => !["pass", "use-building"].includes(o.move.type)));
      const pass = of("pass").map((o) => el("button", { type: "button", class: "secondary", "data-type": "pass", "data-key": keyOf(o.move),
                                                       onclick: (ev) => send(o.move, ev.currentTarget) }, labelOf(o)));
      if (rows.length <= 3) {
        nodes.push(el("div", { class: "options", "data-enter": (rows[0] || {}).type || "" }, rows.map((r) => r.node)));
        nodes.push(...pass.map((b) => { b.classList.add("wide"); return b; }));
      } else {
        nodes.push(...choicesGrid(rows, pass));
      }
    }
    const tiles = of("use-building");
    if (tiles.length) nodes.push(...tileGrid(grouped(tiles)));
    $("#moves").replaceChildren(...nodes, ...built);
    // a new step for this phone: its first move in view (the game screen is the top of the page)
    const first = mine.length ? $("#moves button") : null;
    if (first) {
      const r = first.getBoundingClientRect();
      if (r.top < 0 || r.bottom > innerHeight) window.scrollTo(0, 0);
    }
  }

  /** Many choices (invest in one of 12 tiles, appoint to one of 9 council spaces…): two to a line,
   *  each with its cheapest payment, what they share said once above them; past the ninth (when
   *  more than one more) behind "More choices"; "Other ways to pay" opens every choice's other payments. */
  function choicesGrid(rows, pass) {
    const single = rows.filter((r) => r.options.length === 1).map((r) => labelOf(r.options[0]).split(" "));
    let n = 0;
    while (single.length > 1 && single.every((w) => w.length > n + 1 && w[n] === single[0][n])) n++;
    const prefix = single.length > 1 ? single[0].slice(0, n).join(" ") : "";
    const grid = el("div", { class: "choices", "data-enter": rows[0].type });
    const cells = rows.map((r) => {
      if (r.options.length > 1) { r.node.classList.add("span"); return r.node; }
      const o = r.options[0];
      return cell(o, o.move.type === "pioneer" ? stepsLabel(o.move.steps) : labelOf(o).split(" ").slice(n).join(" "));
    });
    const more = moreButton(cells, SHOWN, "More choices");
    grid.append(...cells, ...(more ? [more] : []));
    const anyPay = rows.some((r) => r.options.some((o) => o.payments && o.payments.length));
    const ways = anyPay ? el("button", { type: "button", class: "secondary other-ways-all", "aria-expanded": "false" }, "Other ways to pay") : null;
    if (ways) ways.addEventListener("click", () => {
      const on = grid.classList.toggle("alts");
      ways.setAttribute("aria-expanded", String(on));
      if (on && more && more.isConnected) more.click();
    });
    return [prefix ? el("p", { class: "choices-head" }, prefix + " …") : "", grid,
            el("div", { class: "pair" }, ...(ways ? [ways] : []), ...pass)];
  }

  /** The building tiles the player can use now (each one the rules allow, with its cheapest payment):
   *  unfolded, two to a line under the step's own moves, so using one is one tap (a tile with its
   *  own pioneering: its name once, a button per way); past the fifth behind "More building tiles". */
  function tileGrid(rows) {
    const head = st.phase === "move" ? "Or first use a building tile:" : st.phase === "end" ? "Or use a building tile first:"
      : "Use a building tile:";
    const grid = el("div", { class: "choices tiles-now", "data-enter": "use-building" });
    // a tile with its own action (pioneering): its name once, then a button per way to use it
    const byTile = new Map();
    for (const r of rows) {
      const id = r.options[0].move.tile;
      if (!byTile.has(id)) byTile.set(id, []);
      byTile.get(id).push(r);
    }
    const cells = [];
    for (const [id, rs] of byTile) {
      const acts = rs.filter((r) => r.options.length === 1 && r.options[0].move.action);
      if (acts.length) cells.push(el("p", { class: "span tile-head" }, ((B.tiles[id] || {}).name || id) + ":"));
      for (const r of rs) {
        if (r.options.length > 1) { r.node.classList.add("span"); cells.push(r.node); continue; }
        const o = r.options[0], a = o.move.action;
        const label = !acts.length ? labelOf(o).replace(/^Use /, "")
          : a && a.steps ? "pioneer " + stepsLabel(a.steps)
          : a ? labelOf(o).replace(/^[^:]*: (then )?/, "").replace(/^\w+/, (v) => (VERBS[v] || v).toLowerCase())
          : acts.every((x) => x.options[0].move.action.steps) ? "without pioneering" : "without its action";
        cells.push(cell(o, label));
      }
    }
    const more = moreButton(cells, 5, "More building tiles");
    grid.append(...cells, ...(more ? [more] : []));
    const anyAlt = rows.some((r) => r.options.length === 1 && (r.options[0].payments || []).length > 1);
    const ways = anyAlt ? el("button", { type: "button", class: "secondary other-ways-all", "aria-expanded": "false" },
                             "Other ways to pay for a tile") : null;
    if (ways) ways.addEventListener("click", () => {
      const on = grid.classList.toggle("alts");
      ways.setAttribute("aria-expanded", String(on));
      if (on && more && more.isConnected) more.click();
    });
    return [el("p", { class: "choices-head" }, head), grid, ...(ways ? [ways] : [])];
  }

  /** Past the first `shown` cells (when more than one more), the rest behind one button. */
  function moreButton(cells, shown, text) {
    if (cells.length <= shown + 1) return null;
    for (const c of cells.slice(shown)) c.hidden = true;
    const more = el("button", { type: "button", class: "secondary more", "data-more": "", "aria-expanded": "false" },
                    text + " (" + (cells.length - shown) + ")");
    more.addEventListener("click", () => {
      for (const c of cells.slice(shown)) c.hidden = false;
      more.remove();
    });
    return more;
  }

  /** Pioneering steps as "Wheat +2" or "Wheat +1, Sheep +1" (spaces each column's worker advances). */
  function stepsLabel(steps) {
    const n = new Map();
    for (const c of steps || []) n.set(c, (n.get(c) || 0) + 1);
    return [...n].map(([c, k]) => (resName[c] || c) + " +" + k).join(", ");
  }

  /** One choice of the grid: the move with its cheapest payment; its other payments (shown by
   *  "Other ways to pay") below it. */
  function cell(o, label) {
    const pay = o.payments && o.payments.length ? o.payments[0] : null;
    const main = el("button", { type: "button", class: "opt", "data-type": o.move.type, "data-key": keyOf(o.move),
                                onclick: (ev) => send(pay ? withPay(o, pay) : o.move, ev.currentTarget) },
      label, pay ? el("span", { class: "sub", title: o.cost + " AP" }, payText(pay)) : "");
    if (!pay) return el("div", { class: "cell" }, main);
    return el("div", { class: "cell" }, main, el("div", { class: "alt-pay" },
      o.payments.slice(1).map((p) => el("button", { type: "button", class: "secondary", "data-pay-alt": "",
                                                  onclick: (ev) => send(withPay(o, p), ev.currentTarget) }, "Pay " + payText(p))),
      otherPayment(o)));
  }

  /** Step 1: the action spots, as on the board (the pawn's spot cannot be chosen again). */
  function spotGrid(options) {
    const bySpot = Object.fromEntries(options.map((o) => [o.move.spot, o]));
    const spots = [...B.spots].sort((a, b) => a.position[0] - b.position[0] || a.position[1] - b.position[1]);
    return el("div", { class: "spotgrid", "data-enter": "move-pawn" }, spots.map((s) => {
      const o = bySpot[s.id];
      const body = [el("strong", null, s.name),
        el("span", { class: "sub" }, s.action.charAt(0).toUpperCase() + s.action.slice(1) + " · " +
           Object.entries(s.ap).map(([r, ap]) => resName[r] + " " + ap).join(", ") + " AP"),
        el("span", { class: "notes" }, st.pawn === s.id ? "♟ the pawn's here" : "take " + st.notes[s.id] + " yen")];
      if (!o) return el("div", { class: "spot-btn " + s.background + " here", "data-spot": s.id }, ...body);
      return el("button", { type: "button", class: "spot-btn " + s.background, "data-type": "move-pawn", "data-key": keyOf(o.move),
                            "data-spot": s.id, "aria-label": labelOf(o) + " (take " + st.notes[s.id] + " yen)",
                            onclick: (ev) => send(o.move, ev.currentTarget) }, ...body);
    }));
  }

  /** Options that differ only in a resource of the player's choice (a tier's bonus, a building's
   *  gain) make one row with a button per resource; every other option is a row of its own. */
  function grouped(options) {
    const rows = [], byKey = new Map();
    for (const o of options) {
      const vary = "bonus" in o.move ? "bonus" : "take" in o.move ? "take" : null;
      const k = vary ? keyOf(Object.assign({}, o.move, { [vary]: null })) : keyOf(o.move);
      if (vary && byKey.has(k)) { byKey.get(k).options.push(o); continue; }
      const row = { type: o.move.type, vary, options: [o] };
      if (vary) byKey.set(k, row);
      rows.push(row);
    }
    for (const r of rows) r.node = r.options.length > 1 ? choiceRow(r) : optionRow(r.options[0]);
    return rows;
  }

  /** A suggested move: one button (with its cheapest payment); "Other ways" opens the others. */
  function optionRow(o) {
    const label = labelOf(o);
    if (!o.payments || !o.payments.length) {
      return el("button", { type: "button", class: "opt", "data-type": o.move.type, "data-key": keyOf(o.move),
                            onclick: (ev) => send(o.move, ev.currentTarget) }, label);
    }
    const pay = o.payments[0];
    const main = el("button", { type: "button", class: "opt", "data-type": o.move.type, "data-key": keyOf(o.move),
                                onclick: (ev) => send(withPay(o, pay), ev.currentTarget) },
      label, el("span", { class: "sub" }, "Pay " + payText(pay) + " · " + o.cost + " AP"));
    const panel = el("div", { class: "alt-pay", hidden: true },
      o.payments.slice(1).map((p) => el("button", { type: "button", class: "secondary", "data-pay-alt": "",
                                                  onclick: (ev) => send(withPay(o, p), ev.currentTarget) }, "Pay " + payText(p))),
      otherPayment(o));
    return el("div", { class: "opt-row" }, el("div", { class: "opt-line" }, main, otherWays(panel, label)), panel);
  }

  function otherWays(panel, label) {
    const b = el("button", { type: "button", class: "secondary other-ways", "aria-expanded": "false",
                             "aria-label": "Other ways to pay: " + label }, "Other ways");
    b.addEventListener("click", () => {
      panel.hidden = !panel.hidden;
      b.setAttribute("aria-expanded", String(!panel.hidden));
    });
    return b;
  }

  /** One move with a resource of your choice: a button per resource, the cheapest payment shown
   *  once (the same for each); "Other ways" chooses another payment for them. */
  function choiceRow(r) {
    const o = r.options[0];
    let pay = o.payments && o.payments.length ? o.payments[0] : null;
    const head = labelOf(o).replace(/ \(tier bonus: [^)]*\)|: takes 1 [^,:]*/, "");
    const payLine = el("span", { class: "sub" }, pay ? "Pay " + payText(pay) + " · " + o.cost + " AP" : "");
    const what = r.vary === "bonus" ? " · tier bonus:" : " · gain 1:";
    const buttons = r.options.map((x) => el("button", { type: "button", class: "opt", "data-type": x.move.type, "data-key": keyOf(x.move),
                                                        onclick: (ev) => send(pay ? withPay(x, pay) : x.move, ev.currentTarget) },
                                            resName[x.move[r.vary]] || x.move[r.vary]));
    const parts = [el("div", { class: "choice-head" }, el("div", null, el("strong", null, head), what, el("br"), payLine)),
                   el("div", { class: "choice-line" }, ...buttons)];
    if (pay && o.payments.length > 1) {
      const alts = o.payments.map((p, i) => el("button", { type: "button", class: "secondary", "aria-pressed": String(i === 0),
        onclick: (ev) => {
          pay = p;
          payLine.textContent = "Pay " + payText(p) + " · " + o.cost + " AP";
          for (const b of alts) b.setAttribute("aria-pressed", String(b === ev.currentTarget));
        } }, "Pay " + payText(p)));
      const panel = el("div", { class: "alt-pay", hidden: true }, el("p", { class: "small" }, "Pay this way, then tap the resource:"), alts);
      parts[1].append(otherWays(panel, head));
      parts.push(panel);
    }
    return el("div", { class: "card choice", style: "margin:0;padding:.5rem" }, ...parts);
  }

  /** "Pay otherwise": steppers for the spot's two resources and yen; the engine checks the sum. Any
   *  combination that covers the cost is accepted ("in any combination and in any number"); more
   *  than the cost is warned about ("no change is given"). */
  function otherPayment(o) {
    const kinds = [...Object.keys(o.values || {}), "yen"];
    const pay = Object.fromEntries(kinds.map((k) => [k, 0]));
    const total = el("span", { class: "small" });
    const over = el("p", { class: "msg warn small", "data-overpaid": "", hidden: true });
    const show = () => {
      const ap = kinds.reduce((a, k) => a + pay[k] * (k === "yen" ? 1 : o.values[k]), 0);
      total.textContent = ap + " of " + o.cost + " AP";
      over.hidden = ap <= o.cost;
      over.textContent = ap > o.cost ? (ap - o.cost) + " AP more than it costs: leftover AP is lost and no change is given." : "";
    };
    show();
    const rows = kinds.map((k) => {
      const out = el("output", null, "0");
      const step = (d) => () => { pay[k] = Math.max(0, pay[k] + d); out.textContent = pay[k]; show(); };
      return el("div", { class: "stepper" }, el("span", { class: "name" }, k === "yen" ? "Yen (1 AP)" : resName[k] + " (" + o.values[k] + " AP)"),
        el("span", { class: "ctl", "data-pay": k },
          el("button", { type: "button", class: "secondary", "aria-label": "one fewer", onclick: step(-1) }, "−"), out,
          el("button", { type: "button", class: "secondary", "aria-label": "one more", onclick: step(1) }, "+")));
    });
    const b = el("button", { type: "button", class: "pay-other",
                             onclick: () => send(withPay(o, Object.fromEntries(kinds.filter((k) => pay[k]).map((k) => [k, pay[k]]))), b) }, "Pay this");
    return el("details", { class: "small" }, el("summary", null, "Pay otherwise…"), rows, el("div", { class: "row" }, total, b), over);
  }

  function renderSpots() {
    const spots = [...B.spots].sort((a, b) => a.position[0] - b.position[0] || a.position[1] - b.position[1]);
    $("#spots").replaceChildren(...spots.map((s) => el("div", {
      class: "spot " + s.background + (st.pawn === s.id ? " here" : ""), "data-spot": s.id },
      st.pawn === s.id ? el("span", { class: "pawn", "aria-label": "action pawn" }, "♟") : null,
      el("strong", null, s.name), el("div", { class: "small" }, s.action + " · " + s.background),
      el("div", { class: "small" }, Object.entries(s.ap).map(([r, ap]) => resName[r] + " " + ap + " AP").join(", ")),
      el("div", { class: "notes small" }, "1-yen notes: " + st.notes[s.id]))));
  }

  function track(label, spec, at, start) {
    const cells = [];
    for (let i = 0; i < spec.spaces; i++)
      cells.push(el("span", { class: (spec.icons.includes(i) ? "icon " : "") + (i === at ? "at" : "") },
                    i === at ? "●" : spec.icons.includes(i) ? "★" : String(i)));
    return el("div", null, el("div", null, label + " (" + start + ")"), el("div", { class: "track" }, cells));
  }
  function renderTracks() {
    $("#tracks").replaceChildren(track("Harvest track, up", B.harvest, st.harvest, "★ = harvest"),
                                 track("Settlement track, down", B.settlement, st.settlement, "★ = settlement"));
  }

  function renderCouncil() {
    $("#council").replaceChildren(...B.council.map((c) => el("div", { class: "col" },
      el("strong", null, c.name), el("div", null, c.higher + " / " + c.lower + " fame"),
      [...c.spaces.keys()].reverse().map((i) => el("span", { class: "space" },
        st.council[c.id][i] === null ? c.spaces[i] + " AP" : worker(st.council[c.id][i]))))));
  }

  function tileChip(id, extra) {
    const t = B.tiles[id];
    return el("span", { class: "tile " + t.kind + (extra ? " " + extra : ""), title: t.text, "data-tile": id },
              el("span", { class: "kind" }, t.kind === "person" ? "P" : "B"), " " + t.name + " · " + t.cost,
              extra === "used" ? " · worker on it" : "");
  }
  function renderTiles() {
    const chips = [...st.persons, ...st.buildings].filter(Boolean).map((id) => tileChip(id));
    if (st.beside && st.beside.length) chips.push(el("span", { class: "small" }, " Beside the board:"), ...st.beside.map((id) => tileChip(id)));
    $("#board-tiles").replaceChildren(...(chips.length ? chips : [el("span", { class: "muted small" }, "none")]));
  }

  function renderBoards() {
    $("#pboards").replaceChildren(...st.players.map((p, seat) => {
      let done = p.educated;
      const tiers = B.tiers.map((t) => { const n = Math.min(t.workers, Math.max(0, done)); done -= t.workers; return [t, n]; });
      return el("div", { class: "pboard", "data-seat": seat },
        el("h3", null, worker(seat), " ", p.name, el("span", { class: "small muted" }, " · fame " + p.fame)),
        el("div", { class: "small" }, "Yen " + p.yen + " · ",
           B.resources.map((r) => el("span", null, el("span", { class: "res-dot", style: "background:" + r.hex }), r.name + " " + p.resources[r.id] + " "))),
        el("div", { class: "small" }, "Worker area: " + p.area),
        el("div", { class: "small" }, "Academy: ", [...tiers].reverse().map(([t, n]) =>
          el("span", null, t.name + " " + n + "/" + t.workers + " (" + t.cost + " AP) "))),
        el("div", { class: "pcols" }, B.columns.map((c) => el("div", { class: "pcol" }, el("strong", null, resName[c.id] || c.name),
          [...c.costs.keys()].reverse().map((i) => el("span", { class: "sp" + (p.pioneer[c.id] === i + 1 ? " on" : "") },
            p.pioneer[c.id] === i + 1 ? "● " + (i + 1) : c.costs[i] + " AP"))))),
        el("div", { class: "tiles", style: "margin-top:.3rem" },
           p.buildings.map((b) => tileChip(b.id, b.worker ? "used" : "")), p.persons.map((id) => tileChip(id))));
    }));
  }

  function renderPreview() {
    const rows = needs.preview || [];
    $("#preview").replaceChildren(...rows.map((s) => el("details", { open: true },
      el("summary", null, s.name + ": " + s.score + " fame"),
      el("table", { class: "breakdown small" }, s.breakdown.map((b) =>
        el("tr", null, el("td", null, b.label), el("td", { class: "num" }, String(b.value))))))));
  }

  window.tkTable = link;     // for the browser tests
  link.start();
})();
