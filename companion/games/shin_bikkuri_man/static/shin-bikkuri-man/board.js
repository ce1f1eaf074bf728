/* Shin Bikkuri Man board twin: the harbour, every seat's façade (drawn over the printed board's grid
 * from the generator), hands (own seat only), abilities and scores; moves built by tapping.
 * Build: choose a tile, rotate / flip it, tap where it goes; the cost, coats of arms and points come
 * from POST /api/shin-bikkuri-man/place before Play, and illegal placements say why. With Change of
 * Colours the player chooses the cards paid (the tile's own colour first preselected). Table deck:
 * the card entries are marked data-enter="<move type>" for the set-up walk's "Enter it now".
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
  let ui = { tile: null, rot: 0, flip: false, anchor: null, spaces: [], abilities: [], cards: [], preview: null, own: null };
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
    ui = { tile: ui.tile, rot: ui.rot, flip: ui.flip, anchor: null, spaces: [], abilities: [], cards: [], preview: null, own: null };
  }
  const mover = () => (needs.players && needs.players.length ? needs.players[0] : null);
  const canAct = () => { const p = mover(); return p !== null && (tk.isHost(code) || me() === p); };

  // ---------- drawing ----------
  function render() {
    if (!st) return;
    $("#prompt").textContent = needs.prompt || "";
    $("#turninfo").textContent = "Turn " + st.turn + (st.phase === "coats" ? " · coat-of-arms actions left: " + st.coats : "");
    $("#deckinfo").textContent = "deck: " + (st.deck_size === undefined || st.deck_size === null ? "? cards" : tk.count(st.deck_size, "card")) + (needs.last_cards ? " · the end card may come now" : "");
    renderConflicts();
    renderHarbour();
    if (viewSeat === null) viewSeat = me() !== null && me() >= 0 ? me() : (st.current || 0);
    renderSeats();
    renderFacade();
    renderActions();
    renderSummary();
  }

  /**
   * Table mode: an entry that cannot be right with a hand (more cards of a colour than the game
   * has). Only the hand's owner and the host are told (the state's "conflicts"); each hand this phone
   * may correct gets one tap per colour the card really was ("correct-card").
   */
  function renderConflicts() {
    const list = Array.isArray(st.conflicts) ? st.conflicts : [];
    $("#conflicts").hidden = !list.length;
    $("#conflict-list").replaceChildren(...list.map((c) => {
      const fixers = (c.players || []).filter((p) => tk.isHost(code) || me() === p);
      return el("div", { class: "conflict" }, el("p", { style: "margin:.2rem 0" }, c.text),
        ...fixers.map((p) => el("div", { class: "row small", style: "align-items:center;gap:.3rem" },
          (fixers.length > 1 || tk.isHost(code) ? st.players[p].name + "'s " : "Your ") + colourName(c.card) + " card was really:",
          ...page.colours.filter((k) => k.id !== "white" && k.id !== c.card).map((k) => {
            const b = el("button", { type: "button", class: "secondary", "data-correct": p + ":" + k.id,
                                     "aria-label": colourName(k.id), style: "min-height:44px;min-width:44px",
                                     onclick: () => send({ type: "correct-card", player: p, was: c.card, now: k.id }) });
            b.append(SBM.chip(page, k.id));
            return b;
          }))));
    }));
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
      if (ui.abilities.includes("change-of-colours")) parts.push(recolourPicker(), paymentChooser(p));
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

  /** The colour whose cards count as the tile's: any other colour the hand holds. */
  function recolourPicker() {
    const own = ui.tile && ui.tile !== "white-1" ? ui.tile.split("-")[0] : null;
    const hand = st.players[mover()].hand || {};
    return el("div", { class: "row small" }, "Pay with: ", ...page.colours.filter((c) => c.id !== "white" && c.id !== own && (hand[c.id] || 0) > 0).map((c) => {
      const b = el("button", { type: "button", class: "secondary", "aria-pressed": String(ui.recolour === c.id),
                               "data-recolour": c.id, "aria-label": colourName(c.id) + " cards as the tile's colour",
                               onclick: () => { ui.recolour = c.id; ui.own = null; renderActions(); renderSummary(); } });
      b.append(SBM.chip(page, c.id));
      return b;
    }));
  }

  /**
   * With Change of Colours the player chooses how many cards of each colour pay for the tile: the
   * tile's own colour and the colour chosen to stand for it. Preselected: the tile's own colour first
   * (the ability then stays face up when those suffice), the rest in the other colour.
   */
  function payment(p) {
    const pv = ui.preview;
    if (!ui.tile || ui.tile === "white-1" || !ui.recolour || !pv || pv.bad) return null;
    const colour = ui.tile.split("-")[0];
    if (ui.recolour === colour) return null;
    const hand = st.players[p].hand || {};
    const cost = pv.cost, mine = hand[colour] || 0, theirs = hand[ui.recolour] || 0;
    const lo = Math.max(0, cost - theirs), hi = Math.min(cost, mine);
    if (lo > hi) return { colour, cost, lo, hi, own: null };
    const own = ui.own === null ? hi : Math.min(hi, Math.max(lo, ui.own));
    return { colour, cost, lo, hi, own };
  }

  function paymentChooser(p) {
    const pay = payment(p);
    if (!pay) return el("p", { class: "small muted", id: "pay-choice" },
      ui.recolour ? "Place the tile to choose how to pay." : "Choose the colour that pays as the tile's colour.");
    if (pay.own === null) return el("p", { class: "small bad", id: "pay-choice" },
      "Your hand holds too few " + colourName(pay.colour) + " and " + colourName(ui.recolour) + " cards for " + tk.count(pay.cost, "card") + ".");
    const other = pay.cost - pay.own;
    const step = (d) => () => { ui.own = Math.min(pay.hi, Math.max(pay.lo, pay.own + d)); renderActions(); renderSummary(); };
    return el("div", { class: "card", id: "pay-choice", style: "margin:0;padding:.4rem" },
      el("div", { class: "small" }, "Pay " + tk.count(pay.cost, "card") + ":"),
      el("div", { class: "stepper" },
        el("span", { class: "name" }, SBM.chip(page, pay.colour, String(pay.own)), " " + colourName(pay.colour)),
        el("span", { class: "ctl", "data-pay": pay.colour },
          el("button", { type: "button", class: "secondary", "aria-label": "one " + colourName(pay.colour) + " card fewer", disabled: pay.own <= pay.lo, onclick: step(-1) }, "−"),
          el("button", { type: "button", class: "secondary", "aria-label": "one " + colourName(pay.colour) + " card more", disabled: pay.own >= pay.hi, onclick: step(1) }, "+"))),
      el("div", { class: "small" }, SBM.chip(page, ui.recolour, String(other)), " " + colourName(ui.recolour) + " as " + colourName(pay.colour)),
      el("p", { class: "small muted", style: "margin:.2rem 0 0" }, other ? "Change of Colours is used (turned face down)."
        : "No " + colourName(ui.recolour) + " card: Change of Colours stays face up."));
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

  /**
   * Table mode: the harbour laid out, each starting hand, each refill, entered card by card in order.
   * The entry being made is a pressed button marked data-enter="<move type>" (the set-up walk's
   * "Enter it now" opens this page on it); the host may choose whose starting hand to enter.
   */
  function cardEntry() {
    let type = st.phase === "refill" ? "refill" : "fill-harbour", player = null, want;
    let kinds = [];
    if (st.phase === "deal" && st.deal && st.deal.harbour) {
      const open = st.deal.hands.map((done, i) => (done ? null : i)).filter((i) => i !== null);
      const m = me();
      const mayEnter = tk.isHost(code) ? open : open.filter((i) => i === m);
      if (!mayEnter.length) return el("p", { class: "muted" }, "Waiting for the starting hands.");
      type = "deal-hand";
      if (!mayEnter.includes(ui.handFor)) ui.handFor = mayEnter[0];
      player = ui.handFor;
      const seat = (player - st.start_player + st.players.length) % st.players.length;
      want = page.starting_hands[seat];
      kinds = mayEnter.map((i) => {
        const k = (i - st.start_player + st.players.length) % st.players.length;
        return [i, st.players[i].name + "'s hand (" + tk.count(page.starting_hands[k], "card") + ")"];
      });
    } else {
      want = st.phase === "refill" ? (needs.enter || {}).cards : page.harbour;
      kinds = [[null, st.phase === "refill" ? "The cards revealed" : "The harbour (" + tk.count(page.harbour, "card") + ")"]];
    }
    const picks = () => (draft && draft.type === type && (player === null || draft.player === player) ? draft.cards : []);
    const add = (c) => {
      draft = Object.assign({ type, cards: [...picks(), c] }, player === null ? {} : { player });
      renderActions(); renderSummary();
    };
    const choose = el("div", { class: "row", role: "group", "aria-label": "What to enter" }, ...kinds.map(([i, label]) =>
      el("button", { type: "button", class: "secondary", "data-enter": type, "aria-pressed": String(i === player),
                     onclick: () => { if (i !== player) { ui.handFor = i; draft = null; } renderActions(); renderSummary(); } }, label)));
    const who = type === "deal-hand" ? st.players[player].name + "'s starting hand" : "the card(s) revealed";
    return el("div", null, choose, el("p", null, "Enter " + who + (want ? " (" + want + ")" : "") + ", in order:"),
      el("div", { class: "row" }, ...page.colours.filter((c) => c.id !== "white").map((c) => {
        const b = el("button", { type: "button", class: "secondary", "data-card": c.id, "aria-label": colourName(c.id), onclick: () => add(c.id) });
        b.append(SBM.chip(page, c.id));
        return b;
      }), st.phase === "refill" ? el("button", { type: "button", class: "secondary", "data-card": "end", onclick: () => add("end") }, "End card") : null),
      el("p", { class: "small" }, "Entered: " + (picks().map(colourName).join(", ") || "none yet")));
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
    if (m.type === "build" && abil.includes("change-of-colours") && ui.recolour) {
      m.recolour = ui.recolour;
      const pay = payment(m.player);
      if (pay && pay.own !== null) m.pay = Object.fromEntries([[pay.colour, pay.own], [ui.recolour, pay.cost - pay.own]].filter(([, n]) => n));
    }
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
      else if (pv) text = (m.type === "build" ? "Cost " + tk.count(pv.cost, "card") + (m.pay ? " (" + Object.entries(m.pay).map(([c, n]) => n + " " + colourName(c)).join(" + ") + ")" : "") + " · " : "") + tk.count(pv.coats_of_arms, "coat of arms", "coats of arms") + " · +" + tk.count(pv.points, "point");
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
