/* Sapporo 1876 board twin: the main board, both personal boards and the final-score preview from the
 * table's state; the moves the engine suggests (needs.options), each action with its cheapest
 * payments, sent as they are, and below them the move builder (builder.js) for every other legal
 * move; the engine's reasons are shown when it refuses (422). */
(function () {
  "use strict";
  const { el, $ } = tk;
  const data = tk.pageData();
  const B = data.board;
  const code = data.code;
  const resName = Object.fromEntries(B.resources.map((r) => [r.id, r.name]));
  const resHex = Object.fromEntries(B.resources.map((r) => [r.id, r.hex]));
  let table = null, st = null, needs = null;

  const link = new tk.TableLink(code, {
    status(mode) {
      const s = $("#conn");
      s.className = "status " + mode;
      s.textContent = { live: "Live", polling: "Polling", offline: "Offline", connecting: "Connecting…" }[mode];
    },
    table(t) {
      // After our own move the link has the new seq and state before the new hints (needs) arrive:
      // show no moves until they do, so a stale suggestion is never tapped.
      const stale = table && t.seq !== table.seq && t.needs === table.needs;
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

  async function send(move, button) {
    if (button) button.disabled = true;
    const r = await link.send("/moves", { move });
    if (button) button.disabled = false;
    if (r.ok) tk.say("#msg", "good", "Done.");
    else tk.say("#msg", "bad", tk.explain(r), r.body && r.body.reasons);
  }

  function render() {
    if (!st) return;
    $("#prompt").textContent = needs.prompt || "";
    $("#turninfo").textContent = "Turn " + (st.turn + 1) + " · harvests and settlements " + st.events + " of " + B.events +
      (table.turn !== null && table.turn !== undefined ? " · " + data.players[table.turn] + " to play" : "");
    renderMoves(); renderSpots(); renderTracks(); renderCouncil(); renderTiles(); renderBoards(); renderPreview();
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

  let movesFor = null;        // the seq and seat the moves were drawn for: a reload of the same
                             // table keeps them (and an open "Pay otherwise" with its numbers)
  function renderMoves() {
    const m = me(), host = tk.isHost(code);
    // (the options too: after a move the table has the new seq before its new hints arrive)
    const key = table.seq + "/" + m + "/" + host + "/" + JSON.stringify(needs.options || []);
    if (key === movesFor) return;
    movesFor = key;
    if (st.phase === "tiles") {
      if (!$("#lay-out")) $("#moves").replaceChildren(el("div", { class: "stack", "data-enter": "lay-out-tiles" }, ...layoutForm()));
      return;
    }
    const mine = (needs.options || []).filter((o) => host || o.move.player === undefined || o.move.player === m);
    $("#moves-section").hidden = !!table.result;
    const built = st.phase === "over" ? [] : SapporoBuilder({
      B, st, code, resName, payText, withPay, otherPayment, send, may: (p) => host || p === m });
    if (!mine.length && !built.length) {
      $("#moves").replaceChildren(el("p", { class: "muted small" },
        st.phase === "over" ? "The game is over." : "Waiting for " + (needs.players || []).map((p) => data.players[p]).join(", ") + "."));
      return;
    }
    // the suggested moves, one group per move type (data-enter: the set-up walk's "Enter it now"
    // brings the group into view), then the builder for every other choice
    const groups = new Map();
    for (const o of mine) {
      if (!groups.has(o.move.type)) groups.set(o.move.type, []);
      groups.get(o.move.type).push(option(o));
    }
    $("#moves").replaceChildren(...[...groups].map(([type, nodes]) => el("div", { class: "options", "data-enter": type }, nodes)),
      built.length ? el("p", { class: "small muted", style: "margin:.4rem 0 0" }, mine.length ? "Or build any other move:" : "Build your move:") : "",
      ...built);
  }

  /** A suggested move: one tap, or its cheapest payments and "Pay otherwise". */
  function option(o) {
    if (!o.payments || !o.payments.length) {
      const b = el("button", { type: "button", class: o.move.type === "pass" || o.move.type === "end-turn" ? "secondary" : null,
                               "data-type": o.move.type, onclick: () => send(o.move, b) }, o.text);
      return b;
    }
    return el("div", { class: "card", style: "margin:0;padding:.5rem" },
      el("div", null, o.text.split(" for ")[0], el("span", { class: "small muted" }, " · " + o.cost + " AP")),
      el("div", { class: "pay-alt" }, o.payments.map((p, i) => {
        const b = el("button", { type: "button", class: i ? "secondary" : null, "data-type": o.move.type,
                                 onclick: () => send(withPay(o, p), b) }, "Pay " + payText(p));
        return b;
      })),
      otherPayment(o));
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
