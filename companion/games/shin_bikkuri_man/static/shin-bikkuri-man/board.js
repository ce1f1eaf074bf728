/* Shin Bikkuri Man board twin: one game screen (issue 23). At the top the harbour in one row of 7 (adjacency
 * as in the game) with the pairs that may be taken under it; below, the façade beside the hand and the
 * move's controls; Play in a one-line bar. Every seat's façade, undo and the setting further down.
 *
 * Take: one tap on a pair under the harbour, or two taps on cards (two cards apart use Any Cards, three
 * Additional Card, when the player holds them). Build: a tile (its shape drawn on its button; the tiles
 * the hand can pay for, the others a tap away), then a tap on the façade where the tile's lowest square
 * goes: the tile lies the way it is turned if it fits there, else the next way that fits; Turn goes on
 * to the next way that fits, Flip mirrors it. The cost, coats of arms and points come from
 * POST /api/shin-bikkuri-man/place before Play, and illegal placements say why. With Change of Colours
 * the player chooses the cards paid (the tile's own colour first preselected).
 * Table deck, cards named when paid (the new tables' way, st.cards): nothing revealed is entered; the
 * harbour shows its spaces (numbered, no colour), a hand its size; a build pays in the tile's colour
 * unless Change of Colours says otherwise (no tap); a discard names its colours (a tap a card); while a
 * refill could have shown the end card, "The END card came up" is one tap above the harbour.
 * Table deck, cards entered: the harbour, each starting hand and each refill are entered card by card into slots (the
 * harbour's own empty spaces for a refill); a tap on an entered card picks it to be changed, so one wrong
 * card is set right alone. The entries are marked data-enter="<move type>" for the set-up walk's
 * "Enter it now".
 * A move made whole by a tap plays itself after a moment (tk.AutoPlay, a setting per phone), unless it
 * spends an ability, is entered by the host for another seat, or is a tile that fits where it was tapped
 * more than one way (Turn may follow: Play decides); Play plays it at once, Clear stops it.
 * Move format: companion/games/shin_bikkuri_man/rules (docstring). */
(function () {
  "use strict";
  const { el, $ } = tk;
  const data = tk.pageData(), { page, code } = data;
  const COLOURS = page.colours.filter((c) => c.id !== "white");
  const colourName = (id) => (id === "end" ? "End card" : (page.colours.find((c) => c.id === id) || { name: id }).name);
  const abilityName = (id) => (page.abilities.find((a) => a.id === id) || { name: id }).name;
  const ability = (id) => page.abilities.find((a) => a.id === id) || {};
  const TAKE_ABILITIES = ["any-cards", "additional-card", "both-actions"];
  const BUILD_ABILITIES = ["construction-discount", "change-of-colours", "both-actions"];

  let table = null, st = null, needs = null;
  let viewSeat = null;          // whose façade is shown
  let lastTurn = null;
  let draft = null;             // {type, ...} the move being built
  let ui = blankUi();
  let sending = false;
  window.sbmBoard = { get ui() { return ui; }, get draft() { return draft; } };   // for the browser tests

  function blankUi(keep) {
    const k = keep || {};
    return { tile: k.tile || null, k: 0, rot: 0, flip: false, anchor: null, spaces: [], abilities: [], cards: [],
             preview: null, own: null, recolour: null, handFor: k.handFor === undefined ? null : k.handFor,
             allTiles: !!k.allTiles, entry: null, note: "" };
  }

  const autoplay = new tk.AutoPlay($("#autoplay-note"), $("#autoplay-on"), () => playDraft());
  const link = new tk.TableLink(code, {
    events() { undo.render(); },
    table(t) {
      const fresh = !table || t.seq !== table.seq;
      table = t; st = t.state; needs = t.needs || { moves: [], players: [] };
      if (fresh) { autoplay.cancel(); resetDraft(); }
      if (st && st.turn !== lastTurn) {       // a new turn: the mover's own façade in view
        lastTurn = st.turn;
        viewSeat = me() !== null && me() >= 0 ? me() : (st.current || 0);
      }
      renderSeat();
      tk.renderResult($("#result"), t, link);
      if (t.result) { $("#seat").hidden = true; $("#sbm-bar").hidden = true; }
      render();
      undo.render();
    },
  });
  const undo = new tk.UndoButton($("#undo"), $("#undo-msg"), link);

  // ---------- who am I ----------
  const me = () => tk.me(code);
  function renderSeat() { tk.renderSeat(link, data.game, data.players, (text) => say(text), renderSeat); }
  renderSeat();

  function say(text, reasons) { tk.say("#msg", reasons || text ? "bad" : "info", text || "", reasons); }
  function resetDraft() {
    draft = null;
    ui = blankUi({ handFor: ui.handFor, allTiles: ui.allTiles });
  }
  const mover = () => (needs.players && needs.players.length ? needs.players[0] : null);
  const canAct = () => { const p = mover(); return p !== null && (tk.isHost(code) || me() === p); };
  const moves = () => needs.moves || [];
  /** This phone acts for the mover and shows the mover's façade (a host phone shows its own seat's
   *  on another seat's turn until asked to enter that seat's move). */
  const actHere = () => canAct() && viewSeat === mover();

  // ---------- the tile's ways to lie, and where it fits ----------
  const orientCache = {};
  /** The distinct ways to lay a tile, in the order Turn goes through them: [{rot, flip, cells}]. */
  function orientations(tileId) {
    if (orientCache[tileId]) return orientCache[tileId];
    const out = [];
    if (tileId === "white-1") out.push({ rot: 0, flip: false, cells: [[0, 0, false]] });
    else {
      const tile = page.tiles.find((t) => t.id === tileId);
      const seen = new Set();
      for (const flip of page.flip ? [false, true] : [false]) {
        for (let rot = 0; rot < (page.rotate ? 4 : 1); rot++) {
          const cells = SBM.orient(tile, rot, flip);
          const key = cells.map((c) => c.join(",")).sort().join(";");
          if (!seen.has(key)) { seen.add(key); out.push({ rot, flip, cells, key }); }
        }
      }
    }
    return (orientCache[tileId] = out);
  }
  /** The tile's lowest square (the leftmost of the lowest row): where a tap on the façade lays it. */
  const lowest = (cells) => cells.reduce((a, c) => (c[1] < a[1] || (c[1] === a[1] && c[0] < a[0]) ? c : a));
  function placed(o, anchor) {
    const low = lowest(o.cells);
    return o.cells.map(([x, y, b]) => [anchor[0] + x - low[0], anchor[1] + y - low[1], b]);
  }
  function occupied(facade) {
    const occ = new Set();
    facade.forEach((line, k) => [...line].forEach((ch, i) => { if (ch !== ".") occ.add((i + 1) + "," + (page.rows - k)); }));
    return occ;
  }
  /** On the board, on free squares, and supported (row 1, or right above a covered square). */
  function fits(cells, facade) {
    const occ = occupied(facade);
    const inside = cells.every(([c, r]) => c >= 1 && c <= page.columns && r >= 1 && r <= page.rows && !occ.has(c + "," + r));
    return inside && cells.some(([c, r]) => r === 1 || occ.has(c + "," + (r - 1)));
  }
  function setWay(k) {
    const o = orientations(ui.tile)[k];
    ui.k = k; ui.rot = o.rot; ui.flip = o.flip;
  }
  /** The first way, from `from` on (wrapping), that fits at the anchor; -1 if none. */
  function nextFitting(from, skipSelf) {
    const os = orientations(ui.tile), facade = st.players[mover()].facade;
    for (let i = skipSelf ? 1 : 0; i <= os.length; i++) {
      const j = (from + i) % os.length;
      if (fits(placed(os[j], ui.anchor), facade)) return j;
    }
    return -1;
  }

  // ---------- drawing ----------
  function render() {
    if (!st) return;
    $("#prompt").textContent = needs.prompt || "";
    $("#turninfo").textContent = "Turn " + st.turn + (st.phase === "coats" ? " · coat-of-arms actions left: " + st.coats : "");
    renderConflicts();
    if (viewSeat === null) viewSeat = me() !== null && me() >= 0 ? me() : (st.current || 0);
    const entry = entryInfo();
    renderHarbour(entry);
    renderEntry(entry);
    renderFacade();
    renderHand();
    renderActions(entry);
    renderSeats();
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
          ...COLOURS.filter((k) => k.id !== c.card).map((k) => {
            const b = el("button", { type: "button", class: "secondary", "data-correct": p + ":" + k.id,
                                     "aria-label": colourName(k.id), style: "min-height:44px;min-width:44px",
                                     onclick: () => send({ type: "correct-card", player: p, was: c.card, now: k.id }) });
            b.append(SBM.chip(page, k.id));
            return b;
          }))));
    }));
  }

  /** The table's deck with cards named when paid: the companion knows spaces and sizes, not colours. */
  const named = () => !!st && st.cards === "named-when-paid";
  const handSize = (p) => (st.players[p] ? (st.players[p].hand_size || 0) : 0);
  /** Cards of a colour that can still be named (the game's less those in the discard pile). */
  const room = (c) => page.cards_per_colour[st.players.length] - ((st.discard || {})[c] || 0);
  const isRun = (xs) => xs.every((x, i) => i === 0 || x === xs[i - 1] + 1);
  const takeOpen = () => actHere() && moves().includes("take") && st.phase === "turn";
  const ready = (p, a) => p !== null && st.players[p] && st.players[p].abilities[a] === "ready";

  /** The harbour: 7 cards in one row; while cards are entered, the spaces being filled are slots. */
  function renderHarbour(entry) {
    const box = $("#harbour");
    const slots = entry && (entry.type === "fill-harbour" || entry.type === "refill");
    const cards = [];
    const n = page.harbour;
    for (let i = 0; i < n; i++) {
      if (slots && (entry.type === "fill-harbour" || i >= st.harbour.length)) {
        const k = entry.type === "fill-harbour" ? i : i - st.harbour.length;
        cards.push(slotButton(entry, k, "Space " + (i + 1)));
      } else if (i < st.harbour.length) {
        const c = st.harbour[i];
        const pressed = ui.spaces.includes(i);
        const b = el("button", { type: "button", class: "card-btn", "aria-pressed": String(pressed), "data-space": i,
                                 "aria-label": "Card " + (i + 1) + (c === "?" ? "" : ": " + colourName(c)), disabled: !takeOpen() || null,
                                 onclick: () => tapSpace(i) });
        b.append(c === "?" ? el("span", { class: "card-face unknown" }, el("span", { class: "card-label" }, String(i + 1))) : SBM.cardFace(page, c, String(i + 1)));
        cards.push(b);
      } else {
        cards.push(el("span", { class: "card-btn empty", "aria-label": "Space " + (i + 1) + ": empty", role: "img" }, String(i + 1)));
      }
    }
    box.replaceChildren(...cards);
    // one tap takes two cards next to each other: a button under each pair
    const pairs = $("#pairs");
    const k = page.take;
    pairs.hidden = !takeOpen() || st.harbour.length < k;
    if (pairs.hidden) { pairs.replaceChildren(); return; }
    const out = [];
    for (let i = 0; i + k <= st.harbour.length; i++) {
      const idx = [...Array(k).keys()].map((j) => i + j);
      const on = ui.spaces.length === k && idx.every((x, j) => ui.spaces[j] === x);
      const b = el("button", { type: "button", class: "pair secondary", "data-pair": i, "aria-pressed": String(on),
                               "aria-label": "Take cards " + idx.map((x) => x + 1).join(" and ") + (named() ? "" : ": " + idx.map((x) => colourName(st.harbour[x])).join(" and ")),
                               onclick: () => tapPair(idx) });
      if (named()) b.append(el("span", { class: "pair-nums", "aria-hidden": "true" }, idx.map((x) => x + 1).join("+")));
      else for (const x of idx) b.append(swatch(st.harbour[x]));
      out.push(b);
    }
    pairs.replaceChildren(...out);
  }

  function swatch(c) {
    const col = page.colours.find((x) => x.id === c) || { hex: "#eee", symbol: "none" };
    const svg = SBM.svgEl("svg", { viewBox: "0 0 10 10", class: "swatch", "aria-hidden": "true" });
    svg.appendChild(SBM.svgEl("rect", { x: 0.5, y: 0.5, width: 9, height: 9, rx: 1.5, fill: col.hex, stroke: "#1e1e1e", "stroke-width": 0.8 }));
    svg.appendChild(SBM.symbol(col.symbol, 5, 5, 3, "#fff", "#1e1e1e"));
    return svg;
  }

  /** A slot of the entry being made: empty, or the card entered (a tap picks it to be changed). */
  function slotButton(entry, k, where) {
    const c = entry.cards[k];
    const next = entry.cursor !== null ? entry.cursor : entry.cards.length;
    const cls = "card-btn slot" + (k === next && !entry.stopped ? " next" : "");
    if (c === undefined || (entry.stopped && k > entry.cards.indexOf("end"))) {
      return el("span", { class: cls + " empty", role: "img", "aria-label": where + ": to enter" + (k === next ? " (next)" : "") }, "?");
    }
    const b = el("button", { type: "button", class: cls, "data-slot": k, "aria-pressed": String(entry.cursor === k),
                             "aria-label": where + ": " + colourName(c) + " (tap to change it)",
                             onclick: () => { if (!entry.mine) return; ui.entry.cursor = ui.entry.cursor === k ? null : k; autoplay.cancel(); render(); } });
    if (c === "end") b.append(el("span", { class: "card-face end" }, el("span", { class: "card-label" }, "End")));
    else b.append(SBM.cardFace(page, c, String(k + 1)));
    return b;
  }

  // ---------- the table's own deck: what this phone enters ----------
  /**
   * The entry at hand: {type, player, want, kinds [[player|null, label]], mine, cards, cursor} or
   * {wait: text}, or null when nothing is entered now.
   */
  function entryInfo() {
    if (st.phase !== "deal" && st.phase !== "refill") return null;
    let type, player = null, want, kinds;
    if (st.phase === "deal" && st.deal && st.deal.harbour) {
      const open = st.deal.hands.map((done, i) => (done ? null : i)).filter((i) => i !== null);
      const m = me();
      const mayEnter = tk.isHost(code) ? open : open.filter((i) => i === m);
      if (!mayEnter.length) return { wait: "Waiting for the starting hands." };
      type = "deal-hand";
      if (!mayEnter.includes(ui.handFor)) ui.handFor = mayEnter.includes(m) ? m : mayEnter[0];
      player = ui.handFor;
      const seat = (player - st.start_player + st.players.length) % st.players.length;
      want = page.starting_hands[seat];
      kinds = mayEnter.map((i) => {
        const k = (i - st.start_player + st.players.length) % st.players.length;
        return [i, st.players[i].name + "'s hand (" + tk.count(page.starting_hands[k], "card") + ")"];
      });
    } else {
      if (!tk.isHost(code) && (me() === null || me() < 0)) return { wait: "Waiting for the cards to be entered." };
      type = st.phase === "refill" ? "refill" : "fill-harbour";
      want = st.phase === "refill" ? (needs.enter || {}).cards : page.harbour;
      kinds = [[null, st.phase === "refill" ? "The cards revealed" : "The harbour (" + tk.count(page.harbour, "card") + ")"]];
    }
    const key = type + ":" + player;
    if (!ui.entry || ui.entry.key !== key) ui.entry = { key, cards: [], cursor: null };
    const e = ui.entry;
    const stopped = e.cards.includes("end");
    // the phone's own seat, or the table's cards: the entry may play itself when whole
    const mine = player === null || player === me();
    return { type, player, want, kinds, cards: e.cards, cursor: e.cursor, stopped, mine: true, own: mine };
  }

  /** Cards named when paid: the refill just made could have shown the end card; one tap if it did. */
  function renderEndCard() {
    const box = $("#end-card");
    const show = named() && st.phase === "turn" && !!st.end_window && (tk.isHost(code) || (me() !== null && me() >= 0));
    box.hidden = !show;
    if (!show) { box.replaceChildren(); return; }
    // one line: the refill was laid out from the deck's last cards; the button only if it showed the end card
    box.replaceChildren(
      el("button", { type: "button", class: "danger", id: "end-came", "data-end-card": "1", onclick: () => send({ type: "end-card" }) },
         "The END card came up in the refill"));
  }

  function renderEntry(entry) {
    renderEndCard();
    const box = $("#entry");
    box.hidden = !entry;
    if (!entry) { box.replaceChildren(); return; }
    if (entry.wait) { box.replaceChildren(el("p", { class: "muted" }, entry.wait)); return; }
    const choose = el("div", { class: "row entry-kinds", role: "group", "aria-label": "What to enter" }, ...entry.kinds.map(([i, label]) =>
      el("button", { type: "button", class: "secondary", "data-enter": entry.type, "aria-pressed": String(i === entry.player),
                     onclick: () => { if (i !== entry.player) { ui.handFor = i; ui.entry = null; draft = null; autoplay.cancel(); } render(); } }, label)));
    const parts = [choose];
    const count = entry.want ? " (" + tk.count(entry.want, "card") + ")" : "";
    if (entry.type === "deal-hand") {
      parts.push(el("p", { class: "small entry-hint" }, "Tap the colours of " + st.players[entry.player].name + "'s starting hand" + count + "; tap a card entered to change it."));
      parts.push(el("div", { class: "hand-slots" }, ...[...Array(entry.want).keys()].map((k) => slotButton(entry, k, "Card " + (k + 1)))));
    } else {
      parts.push(el("p", { class: "small entry-hint" }, (entry.type === "refill" ? "Tap the colours of the cards revealed, in order" : "Tap the colours of the harbour, from space 1") + count + "; tap a card entered to change it."));
    }
    const palette = el("div", { class: "palette" }, ...COLOURS.map((c) => {
      const b = el("button", { type: "button", class: "colour", "data-card": c.id, "aria-label": colourName(c.id), onclick: () => addCard(c.id) });
      b.append(SBM.cardFace(page, c.id, c.name));
      return b;
    }));
    if (entry.type === "refill" && needs.last_cards) {
      palette.append(el("button", { type: "button", class: "secondary end-card", "data-card": "end", onclick: () => addCard("end") }, "End card"));
    }
    parts.push(palette);
    box.replaceChildren(...parts);
  }

  function addCard(c) {
    const entry = entryInfo();
    if (!entry || entry.wait) return;
    const e = ui.entry;
    if (e.cursor !== null) {
      e.cards[e.cursor] = c;
      if (c === "end") e.cards = e.cards.slice(0, e.cursor + 1);
      e.cursor = null;
    } else if (e.cards.includes("end") || e.cards.length >= entry.want) {
      say("All " + tk.count(entry.want, "card") + " are entered: tap one to change it.");
      return;
    } else e.cards.push(c);
    say("");
    draft = Object.assign({ type: entry.type, cards: [...e.cards] }, entry.player === null ? {} : { player: entry.player });
    render();
    const whole = e.cards.length === entry.want || e.cards.includes("end");
    if (whole && entry.own) arm(); else autoplay.cancel();
  }

  function renderFacade() {
    const p = st.players[viewSeat];
    const mine = actHere();
    const colour = ui.tile === "white-1" ? "white" : ui.tile ? ui.tile.split("-")[0] : null;
    $("#facade-of").textContent = viewSeat === me() ? "" : p.name + "'s façade";
    SBM.facade($("#facade"), page, p.facade, {
      label: p.name + "'s façade", numbers: false,
      onTap: mine ? tapSquare : null,
      preview: ui.anchor ? { cells: previewCells(), colour, bad: !!(ui.preview && ui.preview.bad) } : null,
    });
  }

  function renderHand() {
    const p = actHere() || me() === null || me() < 0 ? mover() : me();
    const pl = p === null ? null : st.players[p];
    if (pl && named()) {
      $("#hand").replaceChildren(el("div", { class: "hand", role: "group", "aria-label": (p === me() ? "Your hand" : pl.name + "'s hand") + ": " + tk.count(pl.hand_size, "card") },
        el("span", { class: "small hand-label" }, p === me() ? "Hand" : pl.name + "'s hand"),
        el("span", { class: "hand-card" }, tk.count(pl.hand_size, "card"))));
      return;
    }
    if (!pl || !pl.hand) {
      $("#hand").replaceChildren(pl ? el("p", { class: "small muted" }, pl.name + ": " + tk.count(pl.hand_size, "card") + " in hand") : "");
      return;
    }
    const held = Object.entries(pl.hand).filter(([, n]) => n > 0);
    $("#hand").replaceChildren(el("div", { class: "hand", role: "group", "aria-label": (p === me() ? "Your hand" : pl.name + "'s hand") + ": " + (held.map(([c, n]) => n + " " + colourName(c)).join(", ") || "no card") },
      el("span", { class: "small hand-label" }, p === me() ? "Hand" : pl.name + "'s hand"),
      ...(held.length ? held.map(([c, n]) => el("span", { class: "hand-card" }, swatch(c), el("span", null, String(n)))) : [el("span", { class: "small muted" }, "empty")])));
  }

  function previewCells() {
    if (!ui.tile || !ui.anchor) return [];
    return placed(orientations(ui.tile)[ui.k], ui.anchor);
  }

  // ---------- the moves ----------
  function renderActions(entry) {
    const box = $("#actions");
    const parts = [], wide = [];      // the side column's controls; those as wide as the screen below
    $("#act-h").hidden = st.phase === "over";
    $("#wide").replaceChildren();
    if (st.phase === "over") { box.replaceChildren(); return; }
    if (entry) {
      box.replaceChildren(entry.wait ? "" : el("p", { class: "small" }, entry.type === "refill" ? "Refill the harbour above." : "Enter the cards above."));
      return;
    }
    if (!actHere()) {
      const who = (st.players[mover()] || {}).name;
      box.replaceChildren(el("p", { class: "muted small" }, "Waiting for " + who + "."),
        canAct() ? el("button", { type: "button", class: "secondary", id: "act-for", onclick: () => { viewSeat = mover(); render(); } },
                      "Enter " + who + "'s move") : "");
      return;
    }
    const p = mover();
    if (moves().includes("take") && moves().includes("build") && !ui.tile) {
      parts.push(el("p", { class: "small hint" }, "Take a pair ↑ or build a tile:"));
    } else if (moves().includes("take") && !moves().includes("build")) {
      parts.push(el("p", { class: "small hint" }, "Take a pair of cards ↑"));
    }
    if (moves().includes("build")) {
      // Turn and Flip above the tiles, there before a tile is chosen: nothing moves under the finger
      parts.push(el("div", { class: "turn-row" },
        el("button", { type: "button", class: "secondary", id: "rotate", disabled: !ui.tile, onclick: () => turnTile() }, "Turn ⟳"),
        page.flip ? el("button", { type: "button", class: "secondary", id: "flip", disabled: !ui.tile, "aria-pressed": String(ui.flip), onclick: () => flipTile() }, "Flip ⇋") : null));
      if (ui.note) parts.push(el("p", { class: "small muted" }, ui.note));
      parts.push(tileChooser(p));
      parts.push(abilityToggles(p, ui.tile ? BUILD_ABILITIES : ["both-actions"]));
      if (ui.abilities.includes("change-of-colours")) wide.push(recolourPicker(), paymentChooser(p));
    }
    if (moves().includes("discard")) {
      parts.push(el("p", { class: "small" }, (needs.prompt || "Discard") + ": tap the cards to discard."));
      parts.push(handPicker(p));
    }
    if (st.phase === "coats") {
      parts.push(el("p", { class: "small" }, "A white tile: tap the façade. Or take an ability:"));
      ui.tile = "white-1";
      const held = st.players[p].abilities;
      parts.push(el("div", { class: "coat-actions" },
        ...page.abilities.filter((a) => !(a.id in held)).map((a) =>
          el("button", { type: "button", class: "secondary", "data-take": a.id, "aria-label": "Take " + a.name,
                         onclick: () => send({ type: "take-ability", player: p, ability: a.id }) }, a.name)),
        el("button", { type: "button", class: "secondary", disabled: !Object.values(held).includes("used"),
                       onclick: () => send({ type: "reactivate", player: p }) }, "Turn abilities face up"),
        el("button", { type: "button", class: "secondary", onclick: () => send({ type: "decline", player: p }) }, "Forgo")));
    }
    if (moves().includes("end-turn") && st.done && st.done.length) {
      parts.push(el("button", { type: "button", class: "secondary", onclick: () => send({ type: "end-turn", player: p }) }, "End the turn"));
    }
    box.replaceChildren(...parts);
    $("#wide").replaceChildren(...wide);
  }

  function abilityToggles(p, ids) {
    const held = st.players[p].abilities;
    const mine = ids.filter((a) => held[a] === "ready" && !(a === "both-actions" && st.done && st.done.length));
    if (!mine.length) return el("span");
    return el("div", { class: "toggles small" }, ...mine.map((a) =>
      el("label", { class: "toggle" },
        el("input", { type: "checkbox", "data-ability": a, checked: ui.abilities.includes(a) || null,
                      onchange: (ev) => { ui.abilities = ev.target.checked ? [...ui.abilities, a] : ui.abilities.filter((x) => x !== a);
                                          autoplay.cancel();
                                          if (ui.anchor) place(); else { renderActions(entryInfo()); renderSummary(); } } }),
        el("span", null, "Use " + abilityName(a)))));
  }

  /** The colour whose cards count as the tile's: any other colour the hand holds. */
  function recolourPicker() {
    const own = ui.tile && ui.tile !== "white-1" ? ui.tile.split("-")[0] : null;
    const hand = st.players[mover()].hand || {};
    return el("div", { class: "row small" }, "Pay with: ", ...COLOURS.filter((c) => c.id !== own && (named() ? room(c.id) > 0 : (hand[c.id] || 0) > 0)).map((c) => {
      const b = el("button", { type: "button", class: "secondary", "aria-pressed": String(ui.recolour === c.id),
                               "data-recolour": c.id, "aria-label": colourName(c.id) + " cards as the tile's colour",
                               onclick: () => { ui.recolour = c.id; ui.own = null; autoplay.cancel(); renderActions(entryInfo()); renderSummary(); } });
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
    const cost = pv.cost;
    const mine = named() ? Math.min(handSize(p), room(colour)) : hand[colour] || 0;
    const theirs = named() ? Math.min(handSize(p), room(ui.recolour)) : hand[ui.recolour] || 0;
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
      (named() ? "Too few cards can be named " + colourName(pay.colour) + " or " + colourName(ui.recolour) + " for " + tk.count(pay.cost, "card") + "."
       : "Your hand holds too few " + colourName(pay.colour) + " and " + colourName(ui.recolour) + " cards for " + tk.count(pay.cost, "card") + "."));
    const other = pay.cost - pay.own;
    const step = (d) => () => { ui.own = Math.min(pay.hi, Math.max(pay.lo, pay.own + d)); renderActions(entryInfo()); renderSummary(); };
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

  /** Can the hand pay for a tile somewhere (its colour, the same-colour discount where that colour is
   *  already on the façade, and the abilities held face up)? */
  function payable(t, p) {
    const pl = st.players[p];
    const hand = pl.hand || {};
    const letter = (page.colours.find((c) => c.id === t.colour) || {}).letter;
    const near = pl.facade.some((line) => line.toLowerCase().includes(letter)) ? page.same_colour_discount : 0;
    const disc = ready(p, "construction-discount") ? (ability("construction-discount").discount || 0) : 0;
    const other = ready(p, "change-of-colours") ? Math.max(0, ...COLOURS.filter((c) => c.id !== t.colour).map((c) => hand[c.id] || 0)) : 0;
    if (named()) return handSize(p) + near + disc >= t.size && (ready(p, "change-of-colours") || room(t.colour) + near + disc >= t.size);
    return (hand[t.colour] || 0) + near + disc + other >= t.size;
  }

  /** The tiles left, each drawn in its shape: those the hand can pay for, the others a tap away. */
  function tileChooser(p) {
    const left = st.supply || {};
    const all = page.tiles.filter((t) => (left[t.id] || 0) > 0);
    const can = all.filter((t) => payable(t, p));
    // cards named when paid: the hand's colours are the player's own, so every tile is there, a row a
    // colour and a column a size (a tile never moves under the finger); the ones too dear dashed
    const grid = named();
    const sizes = [...new Set(page.tiles.map((t) => t.size))].sort((a, b) => a - b);
    const colours = [...new Set(page.tiles.map((t) => t.colour))];
    const shown = ui.allTiles || grid ? all : all.filter((t) => can.includes(t) || t.id === ui.tile);
    const buttons = shown.map((t) => {
      const way = t.id === ui.tile ? orientations(t.id)[ui.k] : orientations(t.id)[0];
      const b = el("button", { type: "button", class: "tile-btn" + (can.includes(t) ? "" : " dear"), "data-tile": t.id,
                               "aria-pressed": String(ui.tile === t.id),
                               "aria-label": colourName(t.colour) + " tile of " + t.size + " squares, " + left[t.id] + " left" + (can.includes(t) ? "" : " (your hand cannot pay for it)"),
                               onclick: () => chooseTile(t.id) });
      if (grid) b.style.gridArea = (colours.indexOf(t.colour) + 1) + " / " + (sizes.indexOf(t.size) + 1);
      b.append(SBM.tileSvg(page, t.colour, way.cells), el("span", { class: "tile-left", "aria-hidden": "true" }, "×" + left[t.id]));
      return b;
    });
    if (grid) return el("div", { class: "tiles by-size", style: "grid-template-columns:repeat(" + sizes.length + ",minmax(0,1fr))", role: "group", "aria-label": "Tiles" }, ...buttons);
    const more = all.length - can.length;
    if (more > 0 || ui.allTiles) {
      buttons.push(el("button", { type: "button", class: "secondary more-tiles", "aria-pressed": String(ui.allTiles), id: "all-tiles",
                                  "aria-label": ui.allTiles ? "Only the tiles your hand can pay for" : "All " + all.length + " tiles (" + more + " your hand cannot pay for)",
                                  onclick: () => { ui.allTiles = !ui.allTiles; renderActions(entryInfo()); } },
        ui.allTiles ? "Fewer" : "All"));
    }
    if (!shown.length) buttons.unshift(el("p", { class: "small muted" }, "No tile your hand can pay for."));
    return el("div", { class: "tiles", role: "group", "aria-label": "Tiles" }, ...buttons);
  }

  function chooseTile(id) {
    autoplay.cancel();
    if (ui.tile === id) return;
    ui.tile = id; ui.anchor = null; ui.preview = null; ui.note = "";
    setWay(0);
    if (draft && draft.type === "take") { draft = null; ui.spaces = []; }
    render();
  }

  function turnTile() {
    if (!ui.tile) return;
    autoplay.cancel();
    const os = orientations(ui.tile);
    ui.note = "";
    if (ui.anchor && mover() !== null) {
      const j = nextFitting(ui.k, true);
      if (j === -1 || j === ui.k) ui.note = "Only this way fits here.";
      if (j !== -1) setWay(j);
    } else setWay((ui.k + 1) % os.length);
    place();
  }

  function flipTile() {
    if (!ui.tile) return;
    autoplay.cancel();
    const os = orientations(ui.tile);
    const tile = page.tiles.find((t) => t.id === ui.tile);
    const key = SBM.orient(tile, ui.rot, !ui.flip).map((c) => c.join(",")).sort().join(";");
    let j = os.findIndex((o) => o.key === key);
    ui.note = "";
    if (ui.anchor && mover() !== null && j !== -1 && !fits(placed(os[j], ui.anchor), st.players[mover()].facade)) {
      const f = nextFitting(j, false);
      if (f !== -1) j = f;
    }
    if (j !== -1) setWay(j);
    place();
  }

  /** Cards named when paid: the colours of the cards discarded, a tap each (a tap on a chosen card
   *  takes it back). */
  function namedDiscard(p) {
    const extra = handSize(p) - page.hand_limit;
    const chosen = ui.cards;
    const pick = (list) => {
      ui.cards = list;
      draft = list.length ? { type: "discard", player: p, cards: [...list] } : null;
      render();
      if (list.length === extra) arm(); else autoplay.cancel();
    };
    return el("div", { class: "stack" },
      el("div", { class: "palette", role: "group", "aria-label": "The colours of the cards you discard" }, ...COLOURS.map((c) => {
        const b = el("button", { type: "button", class: "colour", "data-discard": c.id, "aria-label": "Discard a " + colourName(c.id) + " card",
                                 disabled: chosen.length >= extra || chosen.filter((x) => x === c.id).length >= room(c.id) || null,
                                 onclick: () => pick([...chosen, c.id]) });
        b.append(SBM.cardFace(page, c.id, c.name));
        return b;
      })),
      el("div", { class: "row small", "aria-label": "Chosen" }, chosen.length ? "Discarding:" : "", ...chosen.map((c, i) => {
        const b = el("button", { type: "button", class: "secondary", "data-undiscard": i, "aria-label": "Keep the " + colourName(c) + " card",
                                 style: "min-height:44px;min-width:44px", onclick: () => pick(chosen.filter((_, k) => k !== i)) });
        b.append(SBM.chip(page, c));
        return b;
      })));
  }

  function handPicker(p) {
    if (named()) return namedDiscard(p);
    const hand = st.players[p].hand || {};
    const list = [];
    for (const [c, n] of Object.entries(hand)) for (let k = 0; k < n; k++) list.push(c);
    return el("div", { class: "discards" }, ...list.map((c, i) => {
      const b = el("button", { type: "button", class: "card-btn", "aria-pressed": String(ui.cards.includes(i)), "data-discard": c,
                               "aria-label": colourName(c),
                               onclick: () => { ui.cards = ui.cards.includes(i) ? ui.cards.filter((x) => x !== i) : [...ui.cards, i];
                                                draft = { type: "discard", player: p, cards: ui.cards.map((k) => list[k]) };
                                                render();
                                                const extra = list.length - page.hand_limit;
                                                if (ui.cards.length === extra) arm(); else autoplay.cancel(); } });
      b.append(SBM.cardFace(page, c, colourName(c)));
      return b;
    }));
  }

  function tapPair(idx) {
    if (!takeOpen()) return;
    ui.spaces = [...idx];
    ui.abilities = ui.abilities.filter((a) => a === "both-actions");
    draft = { type: "take", player: mover(), spaces: ui.spaces };
    ui.tile = null; ui.anchor = null; ui.preview = null;
    render();
    armIfWhole();
  }

  function tapSpace(i) {
    if (!takeOpen()) return;
    ui.spaces = ui.spaces.includes(i) ? ui.spaces.filter((x) => x !== i) : [...ui.spaces, i].sort((a, b) => a - b);
    draft = ui.spaces.length ? { type: "take", player: mover(), spaces: ui.spaces } : null;
    ui.tile = null; ui.anchor = null; ui.preview = null;
    render();
    armIfWhole();
  }

  /** The abilities a take needs: Any Cards for cards apart, Additional Card for a third. */
  function takeNeeds(spaces) {
    const out = [];
    if (!isRun(spaces)) out.push("any-cards");
    if (spaces.length === page.take + 1) out.push("additional-card");
    return out;
  }
  /** Why the cards chosen cannot be taken (null when they can). */
  function takeProblem(spaces, p) {
    if (spaces.length < page.take) return "Tap " + (page.take - spaces.length) + " more card" + (page.take - spaces.length > 1 ? "s" : "") + " (or a pair ↑).";
    if (spaces.length > page.take + 1 || (spaces.length === page.take + 1 && !ready(p, "additional-card"))) return "Take " + page.take + " cards.";
    if (!isRun(spaces) && !ready(p, "any-cards")) return "Cards " + spaces.map((x) => x + 1).join(" and ") + " are not next to each other.";
    return null;
  }

  function tapSquare(c, r) {
    autoplay.cancel();
    if (st.phase === "coats") {
      draft = { type: "special-tile", player: mover(), square: [c, r] };
      ui.tile = "white-1"; setWay(0);
      ui.anchor = [c, r];
      place(true);
      return;
    }
    if (!ui.tile) { say("Choose a tile first."); return; }
    ui.anchor = [c, r];
    ui.note = "";
    // the way the tile is turned if it fits here, else the next way that does
    const j = nextFitting(ui.k, false);
    if (j !== -1) setWay(j);
    place(true);
  }

  /** Ask the calculator what the placement costs, earns and scores (or why it may not go there);
   *  `tapped`: a tap that may make the move whole (it may then play itself). */
  async function place(tapped) {
    if (!ui.tile || !ui.anchor) { render(); return; }
    const cells = previewCells();
    const p = mover();
    const colour = ui.tile === "white-1" ? "w" : page.colours.find((c) => c.id === ui.tile.split("-")[0]).letter;
    const brick = cells.find((x) => x[2]);
    const squares = cells.map((x) => [x[0], x[1]]);
    if (st.phase !== "coats") {
      draft = { type: "build", player: p, tile: ui.tile, squares, brick: brick ? [brick[0], brick[1]] : null };
    }
    const asked = JSON.stringify(squares) + ui.tile;
    ui.asked = asked;
    ui.preview = null;
    render();
    const r = await tk.api("POST", "/api/shin-bikkuri-man/place", {
      board: st.players[p].facade, tile: { colour, squares, brick: brick ? [brick[0], brick[1]] : null },
      construction_discount: ui.abilities.includes("construction-discount") });
    if (ui.asked !== asked) return;                 // a later tap asked again
    ui.preview = r.status === 200 ? r.body : { bad: true, reasons: (r.body && r.body.reasons) || [r.body.error] };
    render();
    if (tapped !== false) armIfWhole();
  }

  function fullDraft() {
    if (!draft) return null;
    const m = Object.assign({}, draft);
    let abil = ui.abilities.filter((a) => (m.type === "take" ? TAKE_ABILITIES : BUILD_ABILITIES).includes(a));
    if (m.type === "take") abil = [...new Set([...takeNeeds(m.spaces), ...abil])];
    if ((m.type === "take" || m.type === "build") && abil.length) m.abilities = abil;
    if (m.type === "build" && abil.includes("change-of-colours") && ui.recolour) {
      m.recolour = ui.recolour;
      const pay = payment(m.player);
      if (pay && pay.own !== null) m.pay = Object.fromEntries([[pay.colour, pay.own], [ui.recolour, pay.cost - pay.own]].filter(([, n]) => n));
    }
    return m;
  }

  /** The move is whole and spends no ability: it may play itself (the seat's own phone only). */
  function armIfWhole() {
    const m = fullDraft();
    if (!m || m.abilities || sending) { autoplay.cancel(); return; }
    if (m.player !== undefined && m.player !== me()) { autoplay.cancel(); return; }
    if (m.type === "take" && !takeProblem(m.spaces, m.player)) return arm();
    if ((m.type === "build" || m.type === "special-tile") && ui.preview && !ui.preview.bad) {
      if (m.type === "build") {
        const hand = st.players[m.player].hand || {};
        const have = named() ? Math.min(handSize(m.player), room(m.tile.split("-")[0])) : hand[m.tile.split("-")[0]] || 0;
        if (have < ui.preview.cost) { autoplay.cancel(); return; }
        // final only when the tile fits here one way: with a choice, Turn may follow and Play decides
        const facade = st.players[m.player].facade;
        if (orientations(ui.tile).filter((o) => fits(placed(o, ui.anchor), facade)).length !== 1) { autoplay.cancel(); return; }
      }
      return arm();
    }
    autoplay.cancel();
  }
  /** Play by itself in a moment, said shortly: "Playing “Take Red + Blue” in a moment — …". */
  function arm() {
    if (sending || !draft) return;
    const t = draft.type;
    const what = t === "take" ? $("#summary").textContent
      : t === "build" ? "the " + colourName(draft.tile.split("-")[0]) + " tile"
      : t === "special-tile" ? "the white tile"
      : t === "discard" ? "the discard"
      : t === "deal-hand" ? st.players[draft.player].name + "'s hand"
      : t === "refill" ? "the refill" : "the harbour";
    autoplay.arm("“" + what + "”");
  }

  function renderSummary() {
    const m = fullDraft();
    const box = $("#summary");
    box.className = "small preview-info";
    if (!m) {
      box.textContent = st && actHere() && st.phase === "turn" ? (ui.tile ? "Tap where its lowest square goes." : "") : "";
      $("#play").disabled = true;
      return;
    }
    let text = "", bad = false;
    if (m.type === "take") {
      const why = takeProblem(m.spaces, m.player);
      if (why) { text = why; bad = m.spaces.length >= page.take; }
      else text = "Take " + m.spaces.map((i) => colourName(st.harbour[i])).join(" + ") + (m.abilities ? " (using " + m.abilities.map(abilityName).join(", ") + ")" : "");
    }
    if (m.type === "build" || m.type === "special-tile") {
      const pv = ui.preview;
      if (pv && pv.bad) { bad = true; text = "Not there: " + pv.reasons.join("; "); }
      else if (pv) {
        const gains = [pv.coats_of_arms ? tk.count(pv.coats_of_arms, "coat of arms", "coats of arms") : "",
                       pv.points ? "+" + tk.count(pv.points, "point") : ""].filter(Boolean);
        text = [m.type === "build" ? "Cost " + tk.count(pv.cost, "card") + (m.pay ? " (" + Object.entries(m.pay).map(([c, n]) => n + " " + colourName(c)).join(" + ") + ")" : "")
                                   : "A white tile", ...gains].join(" · ");
        if (m.type === "build" && !m.abilities && named()) {
          const col = m.tile.split("-")[0];
          if (pv.cost) text += " · pay " + pv.cost + " " + colourName(col);
          if (handSize(m.player) < pv.cost) text += " · you hold " + tk.count(handSize(m.player), "card");
          else if (room(col) < pv.cost) text += " · only " + room(col) + " " + colourName(col) + " can be left";
        } else if (m.type === "build" && !m.abilities) {
          const have = (st.players[m.player].hand || {})[m.tile.split("-")[0]] || 0;
          if (have < pv.cost) text += " · you hold " + have + " " + colourName(m.tile.split("-")[0]);
        }
      } else text = "…";
    }
    if (m.type === "discard") text = "Discard " + m.cards.map(colourName).join(", ");
    if (m.type === "refill" || m.type === "fill-harbour" || m.type === "deal-hand") {
      const want = (entryInfo() || {}).want;
      text = "Enter " + m.cards.map(colourName).join(", ") + (want && m.cards.length < want && !m.cards.includes("end") ? " (" + (want - m.cards.length) + " to go)" : "");
    }
    if (bad) box.className += " bad";
    box.textContent = text;
    let disabled = bad;
    if (m.type === "take") disabled = !!takeProblem(m.spaces, m.player);
    if (m.type === "build" || m.type === "special-tile") disabled = !ui.preview || !!ui.preview.bad;
    if (m.type === "refill" || m.type === "fill-harbour" || m.type === "deal-hand") {
      const want = (entryInfo() || {}).want;
      disabled = !(m.cards.length === want || m.cards.includes("end"));
    }
    $("#play").disabled = disabled || sending;
  }

  function renderSeats() {
    $("#seats").replaceChildren(...st.players.map((p, i) =>
      el("button", { type: "button", class: "secondary", "aria-pressed": String(i === viewSeat),
                     "data-seat": i, onclick: () => { viewSeat = i; render(); } },
         p.name + " · " + p.points + " pt" + (i === st.current && st.phase !== "over" ? " ◀" : ""))));
    const p = st.players[viewSeat];
    const hand = p.hand && !named() ? Object.entries(p.hand).filter(([, n]) => n > 0) : null;
    const abil = Object.entries(p.abilities).map(([a, s]) => el("li", { class: s }, abilityName(a) + (s === "used" ? " (used)" : "")));
    $("#seat-info").replaceChildren(
      el("div", null, p.name + ": ", hand ? el("span", null, "hand ", ...hand.map(([c, n]) => SBM.chip(page, c, n + "×"))) :
        tk.count(p.hand_size, "card") + " in hand"),
      el("ul", { class: "abilities" }, ...abil));
  }

  async function send(move) {
    autoplay.cancel();
    sending = true;
    $("#play").disabled = true;
    const r = await link.send("/moves", { move });
    sending = false;
    if (!r.ok) { say(tk.explain(r), r.body && r.body.reasons); renderSummary(); return false; }
    say("");
    resetDraft();
    ui.tile = null; ui.anchor = null;
    render();
    return true;
  }

  function playDraft() {
    autoplay.cancel();
    const m = fullDraft();
    if (m && !sending) send(m);
  }

  $("#play").addEventListener("click", () => playDraft());
  $("#clear").addEventListener("click", () => { autoplay.cancel(); resetDraft(); ui.tile = null; say(""); render(); });
  window.tkTable = link;        // for the browser tests
  link.start();
})();
