/* Shin Bikkuri Man board twin: the harbour, every seat's façade (drawn over the printed board's grid
 * from the generator), hands (own seat only), abilities and scores; moves built by tapping.
 * Build: choose a tile, rotate / flip it, tap where it goes; the cost, coats of arms and points come
 * from POST /api/shin-bikkuri-man/place before Play, and illegal placements say why.
 * Move format: companion/games/shin_bikkuri_man/rules (docstring). */
(function () {
  "use strict";
  const { el, $ } = tk;
  const data = tk.pageData();
  const page = data.page;
  const code = data.code;
  const colourName = (id) => (page.colours.find((c) => c.id === id) || { name: id }).name;
  const abilityName = (id) => (page.abilities.find((a) => a.id === id) || { name: id }).name;

  let table = null, st = null, needs = null;
  let viewSeat = null;          // whose façade is shown
  let draft = null;             // {type, ...} the move being built
  let ui = { tile: null, rot: 0, flip: false, anchor: null, spaces: [], abilities: [], cards: [], preview: null };
  window.sbmBoard = { get ui() { return ui; }, get draft() { return draft; } };   // for the browser tests

  const link = new tk.TableLink(code, {
    status(mode) {
      const s = $("#conn");
      s.className = "status " + mode;
      s.textContent = { live: "Live", polling: "Polling", offline: "Offline", connecting: "Connecting…" }[mode];
    },
    table(t) {
      const fresh = !table || t.seq !== table.seq;
      table = t; st = t.state; needs = t.needs || { moves: [], players: [] };
      if (fresh) resetDraft();
      renderSeat();
      tk.renderResult($("#result"), t, link);
      if (t.result) { $("#seat").hidden = true; $(".sticky-actions").hidden = true; }
      render();
    },
  });

  // ---------- who am I ----------
  const me = () => tk.me(code);
  function renderSeat() { tk.renderSeat(link, data.game, data.players, (text) => say(text), renderSeat); }
  renderSeat();

  function say(text, reasons) { tk.say("#msg", reasons || text ? "bad" : "info", text || "", reasons); }
  function resetDraft() {
    draft = null;
    ui = { tile: ui.tile, rot: ui.rot, flip: ui.flip, anchor: null, spaces: [], abilities: [], cards: [], preview: null };
  }
  const mover = () => (needs.players && needs.players.length ? needs.players[0] : null);
  const canAct = () => { const p = mover(); return p !== null && (tk.isHost(code) || me() === p); };

  // ---------- drawing ----------
  function render() {
    if (!st) return;
    $("#prompt").textContent = needs.prompt || "";
    $("#turninfo").textContent = "Turn " + st.turn + (st.phase === "coats" ? " · coat-of-arms actions left: " + st.coats : "");
    $("#deckinfo").textContent = "deck: " + (st.deck_size === undefined || st.deck_size === null ? "? cards" : tk.count(st.deck_size, "card")) + (needs.last_cards ? " · the end card may come now" : "");
    renderHarbour();
    if (viewSeat === null) viewSeat = me() !== null && me() >= 0 ? me() : (st.current || 0);
    renderSeats();
    renderFacade();
    renderActions();
    renderSummary();
  }

  function renderHarbour() {
    $("#harbour").replaceChildren(...st.harbour.map((c, i) => {
      const b = el("button", { type: "button", "aria-pressed": String(ui.spaces.includes(i)),
                               "data-space": i, "aria-label": "Space " + (i + 1) + ": " + colourName(c),
                               onclick: () => tapSpace(i) });
      b.append(SBM.chip(page, c, String(i + 1)));
      return b;
    }));
  }

  function renderSeats() {
    $("#seats").replaceChildren(...st.players.map((p, i) =>
      el("button", { type: "button", class: "secondary", role: "tab", "aria-pressed": String(i === viewSeat),
                     "data-seat": i, onclick: () => { viewSeat = i; render(); } },
         p.name + " · " + p.points + " pt" + (i === st.current && st.phase !== "over" ? " ◀" : ""))));
    const p = st.players[viewSeat];
    const hand = p.hand ? Object.entries(p.hand).filter(([, n]) => n > 0) : null;
    const abil = Object.entries(p.abilities).map(([a, s]) => el("li", { class: s }, abilityName(a) + (s === "used" ? " (used)" : "")));
    $("#seat-info").replaceChildren(
      el("div", null, hand ? el("span", null, "Hand: ", ...hand.map(([c, n]) => SBM.chip(page, c, n + "×"))) :
        tk.count(p.hand_size, "card") + " in hand"),
      el("ul", { class: "abilities" }, ...abil));
  }

  function previewCells() {
    if (!ui.tile || !ui.anchor) return [];
    if (ui.tile === "white-1") return [[ui.anchor[0], ui.anchor[1], false]];
    const tile = page.tiles.find((t) => t.id === ui.tile);
    return SBM.orient(tile, ui.rot, ui.flip).map(([x, y, b]) => [ui.anchor[0] + x, ui.anchor[1] + y, b]);
  }

  function renderFacade() {
    const p = st.players[viewSeat];
    const mine = viewSeat === mover() && canAct();
    const colour = ui.tile === "white-1" ? "white" : ui.tile ? ui.tile.split("-")[0] : null;
    SBM.facade($("#facade"), page, p.facade, {
      label: p.name + "'s façade",
      onTap: mine ? tapSquare : null,
      preview: ui.anchor ? { cells: previewCells(), colour, bad: !!(ui.preview && ui.preview.bad) } : null,
    });
  }

  // ---------- the moves ----------
  function renderActions() {
    const box = $("#actions");
    const parts = [];
    $("#act-h").parentElement.hidden = st.phase === "over";
    if (st.phase === "over") { box.replaceChildren(); return; }
    if (!canAct() && !(st.phase === "deal" || st.phase === "refill")) {
      box.replaceChildren(el("p", { class: "muted" }, "Waiting for " + (st.players[mover()] || {}).name + "."));
      return;
    }
    const moves = needs.moves || [];
    const p = mover();
    if (moves.includes("take")) {
      parts.push(el("p", { class: "small" }, "Take cards: tap two harbour cards next to each other."));
      parts.push(abilityToggles(p, ["any-cards", "additional-card", "both-actions"]));
    }
    if (moves.includes("build")) {
      parts.push(el("h3", null, "Buy a tile"));
      parts.push(tileChooser());
      parts.push(el("div", { class: "row" },
        el("button", { type: "button", class: "secondary", id: "rotate", onclick: () => { ui.rot = (ui.rot + 1) % 4; place(); } }, "Rotate ⟳"),
        el("button", { type: "button", class: "secondary", id: "flip", "aria-pressed": String(ui.flip), onclick: () => { ui.flip = !ui.flip; place(); } }, "Flip ⇋")));
      parts.push(abilityToggles(p, ["construction-discount", "change-of-colours", "both-actions"]));
      if (ui.abilities.includes("change-of-colours")) parts.push(recolourPicker());
    }
    if (moves.includes("discard")) {
      parts.push(el("p", null, needs.prompt + ": tap the cards to discard."));
      parts.push(handPicker(p));
    }
    if (st.phase === "coats") {
      parts.push(el("p", null, "Tap an empty supported square for a white tile, or:"));
      ui.tile = "white-1";
      const held = st.players[p].abilities;
      parts.push(el("div", { class: "row" },
        ...page.abilities.filter((a) => !(a.id in held)).map((a) =>
          el("button", { type: "button", class: "secondary", onclick: () => send({ type: "take-ability", player: p, ability: a.id }) }, "Take " + a.name)),
        el("button", { type: "button", class: "secondary", disabled: !Object.values(held).includes("used"),
                       onclick: () => send({ type: "reactivate", player: p }) }, "Turn abilities face up"),
        el("button", { type: "button", class: "secondary", onclick: () => send({ type: "decline", player: p }) }, "Forgo")));
    }
    if (moves.includes("end-turn") && st.done && st.done.length) {
      parts.push(el("button", { type: "button", class: "secondary", onclick: () => send({ type: "end-turn", player: p }) }, "End the turn"));
    }
    if (st.phase === "refill" || st.phase === "deal") parts.push(cardEntry());
    box.replaceChildren(...parts);
  }

  function abilityToggles(p, ids) {
    const held = st.players[p].abilities;
    const mine = ids.filter((a) => held[a] === "ready");
    if (!mine.length) return el("span");
    return el("div", { class: "row small" }, "Use: ", ...mine.map((a) =>
      el("label", { style: "display:flex;gap:.3rem;align-items:center" },
        el("input", { type: "checkbox", "data-ability": a, checked: ui.abilities.includes(a) || null,
                      onchange: (ev) => { ui.abilities = ev.target.checked ? [...ui.abilities, a] : ui.abilities.filter((x) => x !== a);
                                          if (ui.anchor) place(); else renderSummary(); renderActions(); } }),
        abilityName(a))));
  }

  function recolourPicker() {
    return el("div", { class: "row small" }, "Pay with: ", ...page.colours.filter((c) => c.id !== "white").map((c) => {
      const b = el("button", { type: "button", class: "secondary", "aria-pressed": String(ui.recolour === c.id),
                               onclick: () => { ui.recolour = c.id; renderActions(); renderSummary(); } });
      b.append(SBM.chip(page, c.id));
      return b;
    }));
  }

  function tileChooser() {
    const left = st.supply || {};
    return el("div", { class: "tiles" }, ...page.tiles.filter((t) => (left[t.id] || 0) > 0).map((t) => {
      const b = el("button", { type: "button", class: "secondary", "data-tile": t.id, "aria-pressed": String(ui.tile === t.id),
                               onclick: () => { ui.tile = t.id; ui.rot = 0; ui.flip = false; ui.anchor = null; ui.preview = null; render(); } });
      b.append(SBM.chip(page, t.colour, t.size + " · " + left[t.id] + " left"));
      return b;
    }));
  }

  function handPicker(p) {
    const hand = st.players[p].hand || {};
    const list = [];
    for (const [c, n] of Object.entries(hand)) for (let k = 0; k < n; k++) list.push(c);
    return el("div", { class: "harbour" }, ...list.map((c, i) => {
      const b = el("button", { type: "button", "aria-pressed": String(ui.cards.includes(i)),
                               onclick: () => { ui.cards = ui.cards.includes(i) ? ui.cards.filter((x) => x !== i) : [...ui.cards, i];
                                                draft = { type: "discard", player: p, cards: ui.cards.map((k) => list[k]) }; renderActions(); renderSummary(); } });
      b.append(SBM.chip(page, c));
      return b;
    }));
  }

  function cardEntry() {
    // table mode: the harbour laid out, each starting hand, each refill: colour buttons in order
    let type = st.phase === "refill" ? "refill" : "fill-harbour", player = null, want;
    if (st.phase === "deal" && st.deal && st.deal.harbour) {
      const open = st.deal.hands.map((done, i) => (done ? null : i)).filter((i) => i !== null);
      const m = me();
      player = tk.isHost(code) ? open[0] : open.includes(m) ? m : null;
      if (player === null || player === undefined) return el("p", { class: "muted" }, "Waiting for the starting hands.");
      type = "deal-hand";
      const seat = (player - st.start_player + st.players.length) % st.players.length;
      want = page.starting_hands[seat];
    } else {
      want = st.phase === "refill" ? (needs.enter || {}).cards : page.harbour;
    }
    const picks = () => (draft && draft.type === type ? draft.cards : []);
    const add = (c) => {
      draft = Object.assign({ type, cards: [...picks(), c] }, player === null ? {} : { player });
      renderActions(); renderSummary();
    };
    const who = type === "deal-hand" ? st.players[player].name + "'s starting hand" : "the card(s) revealed";
    return el("div", null, el("p", null, "Enter " + who + (want ? " (" + want + ")" : "") + ", in order:"),
      el("div", { class: "row" }, ...page.colours.filter((c) => c.id !== "white").map((c) => {
        const b = el("button", { type: "button", class: "secondary", "data-enter": c.id, onclick: () => add(c.id) });
        b.append(SBM.chip(page, c.id));
        return b;
      }), st.phase === "refill" ? el("button", { type: "button", class: "secondary", "data-enter": "end", onclick: () => add("end") }, "End card") : null),
      el("p", { class: "small" }, "Entered: " + (picks().join(", ") || "none yet")));
  }

  function tapSpace(i) {
    if (!canAct() || !(needs.moves || []).includes("take")) return;
    ui.spaces = ui.spaces.includes(i) ? ui.spaces.filter((x) => x !== i) : [...ui.spaces, i].sort((a, b) => a - b);
    draft = { type: "take", player: mover(), spaces: ui.spaces };
    ui.tile = null; ui.anchor = null;
    render();
  }

  function tapSquare(c, r) {
    if (st.phase === "coats") {
      draft = { type: "special-tile", player: mover(), square: [c, r] };
      ui.anchor = [c, r];
      place();
      return;
    }
    if (!ui.tile) { say("Choose a tile first."); return; }
    ui.anchor = [c, r];
    place();
  }

  /** Ask the calculator what the placement costs, earns and scores (or why it may not go there). */
  async function place() {
    if (!ui.tile || !ui.anchor) { render(); return; }
    const cells = previewCells();
    const p = mover();
    const colour = ui.tile === "white-1" ? "w" : page.colours.find((c) => c.id === ui.tile.split("-")[0]).letter;
    const brick = cells.find((x) => x[2]);
    const squares = cells.map((x) => [x[0], x[1]]);
    if (st.phase !== "coats") {
      draft = { type: "build", player: p, tile: ui.tile, squares, brick: brick ? [brick[0], brick[1]] : null };
    }
    const r = await tk.api("POST", "/api/shin-bikkuri-man/place", {
      board: st.players[p].facade, tile: { colour, squares, brick: brick ? [brick[0], brick[1]] : null },
      construction_discount: ui.abilities.includes("construction-discount") });
    ui.preview = r.status === 200 ? r.body : { bad: true, reasons: (r.body && r.body.reasons) || [r.body.error] };
    render();
  }

  function fullDraft() {
    if (!draft) return null;
    const m = Object.assign({}, draft);
    const abil = ui.abilities.filter((a) => (m.type === "take" ? ["any-cards", "additional-card", "both-actions"]
                                             : ["construction-discount", "change-of-colours", "both-actions"]).includes(a));
    if ((m.type === "take" || m.type === "build") && abil.length) m.abilities = abil;
    if (m.type === "build" && abil.includes("change-of-colours") && ui.recolour) m.recolour = ui.recolour;
    return m;
  }

  function renderSummary() {
    const m = fullDraft();
    const box = $("#summary");
    box.className = "small preview-info";
    if (!m) { box.textContent = ""; $("#play").disabled = true; return; }
    let text = "";
    if (m.type === "take") text = "Take " + m.spaces.map((i) => colourName(st.harbour[i])).join(" + ");
    if (m.type === "build" || m.type === "special-tile") {
      const pv = ui.preview;
      if (pv && pv.bad) { box.className += " bad"; text = "Not there: " + pv.reasons.join("; "); }
      else if (pv) text = (m.type === "build" ? "Cost " + tk.count(pv.cost, "card") + " · " : "") + tk.count(pv.coats_of_arms, "coat of arms", "coats of arms") + " · +" + tk.count(pv.points, "point");
    }
    if (m.type === "discard") text = "Discard " + m.cards.map(colourName).join(", ");
    if (m.type === "refill" || m.type === "fill-harbour" || m.type === "deal-hand") text = "Enter " + m.cards.join(", ");
    box.textContent = text;
    $("#play").disabled = !!(ui.preview && ui.preview.bad && (m.type === "build" || m.type === "special-tile"));
  }

  async function send(move) {
    const r = await link.send("/moves", { move });
    if (!r.ok) { say(tk.explain(r), r.body && r.body.reasons); return false; }
    say("");
    resetDraft();
    ui.tile = null; ui.anchor = null;
    render();
    return true;
  }

  $("#play").addEventListener("click", () => { const m = fullDraft(); if (m) send(m); });
  $("#clear").addEventListener("click", () => { resetDraft(); ui.tile = null; say(""); render(); });
  window.tkTable = link;        // for the browser tests
  link.start();
})();
