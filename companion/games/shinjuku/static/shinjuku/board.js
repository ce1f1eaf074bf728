/* Shinjuku board twin: each move built by tapping (wards, stations, cards, customers), sent to the
 * engine; its reasons are shown when it refuses (422). Move format: companion/games/shinjuku.
 * The map (static/board_map.js) shows the live state and takes taps: a station fills the move's
 * station or extends its path, a track slot (or two neighbouring stations) its connection, a ward
 * its ward or card; the lists above it (under "Enter a move") stay as the accessible way to enter the same move. */
(function () {
  "use strict";
  const { el, $ } = tk;
  const data = tk.pageData(), { board: B, code } = data;
  const LABEL = {
    "deal-hand": "Deal a hand", "seed-ward": "Starting customers", "place-matsuri": "Place Matsuri",
    "fill-queue": "Fill the queue", "place-customers": "Place customers", "move-matsuri": "Move Matsuri",
    "open-store": "Open store", "expand-track": "Expand track", "upgrade-store": "Upgrade store",
    "income": "Draw income", "decline-income": "Decline income", "move-customers": "Move customers",
  };
  const wardName = (id) => (B.wards.find((w) => w.id === id) || { name: id }).name;
  const stName = (id) => (B.stations[id] || { name: id }).name;
  const tokenLabel = (id) => (B.tokens.find((t) => t.id === id) || { label: id }).label;
  // One wording wherever the page asks for a move (the map's hint, the Play bar, a tap on the map):
  // it names the section, which is above the map (a move's fields come first, then the map to tap).
  const CHOOSE = "Choose a move under “Enter a move”";
  const goodsName = (id) => (B.goods.find((g) => g.id === id) || { name: id }).name;

  const map = tk.BoardMap ? new tk.BoardMap($("#map"), data.map_url, {
    onTap: (hit) => stayPut(() => mapTap(hit)), onMount: () => { if (st) renderMap(); }, tokenOrder: B.tokens.map((t) => t.id), wardOf: (sid) => B.stations[sid].ward,
  }) : null;
  window.tkMap = map;          // for the browser tests
  window.tkDraft = () => draft;   // (the table replay) the move being built, to read its card
  window.tkFarPath = true;     // (and the table replay) a tap further along built track extends a path there

  let table = null, st = null, needs = null;
  let draft = null;          // the move being built
  let ui = {};               // per-field UI state (which ward a station picker shows, ...)

  let pendingHit = null;     // a map tap made before choosing the move, when it fits several: {hit, types}
  // The tap that makes a move whole plays it after a moment (a setting; Play stays for the rest).
  const autoplay = new tk.AutoPlay($("#autoplay-note"), $("#autoplay-on"), () => playDraft());
  const PLAY_MS = autoplay.ms, GUESS_MS = 3000;    // the moment before a whole move plays; longer for a guessed card

  let timerPrimed = false;
  let played = null;            // the seq of this phone's last move: its history line is the answer
  let sending = false;          // this phone's own move is on its way (its answer is no news)
  const link = new tk.TableLink(code, {
    events(fresh) {
      undo.render();
      const mine = played && fresh.find((e) => e.seq === played);
      if (mine && mine.summary) { tk.say("#msg", "good", "Played: " + mine.summary); played = null; }
    },
    table(t) {
      const first = !table;
      const fresh = !table || t.seq !== table.seq;
      const elsewhere = fresh && table && !sending;      // another phone changed the table
      table = t; st = t.state; needs = t.needs || { moves: [], players: [] };
      if (elsewhere || (draft && !needs.moves.includes(draft.type))) { pendingHit = null; autoplay.cancel(); }
      if (draft && (elsewhere || !needs.moves.includes(draft.type))) {
        draft = null; ui = {};
        if (elsewhere) tk.say("#msg", "info", "The table changed on another phone: choose your move again.");
      }
      renderSeat();
      if (!timerPrimed) { timer.primed(t); timerPrimed = true; }
      timer.update(t);
      undo.render();
      tk.renderResult($("#result"), t, link);
      renderCorrect();
      if (t.result) { $("#seat").hidden = true; $(".sticky-actions").hidden = true; }
      if (first) restoreDraft();
      const myTurnNow = fresh && !sending && needs.players && needs.players.includes(me());
      render();
      // the move is this phone's now (another phone's move ended): the game screen from its top
      if (myTurnNow && elsewhere && window.scrollY > 0) window.scrollTo(0, 0);
      if (first && scanned) useCard(scanned);
      else if (draft && !fields(draft.type).length && mover() === me()) armIfWhole();   // nothing to choose: it plays by itself (its seat's phone only)
    },
  });

  // ---------- a card scanned: "Use this card" on its QR page opens this page with ?card=<ward> ----------
  const scanned = new URLSearchParams(location.search).get("card");
  if (scanned) history.replaceState(null, "", location.pathname + location.hash);
  // The move being built outlives a reload or a scan (each scan opens the page again): kept for this
  // tab as long as the table has not moved on.
  const DRAFT = "tk.draft." + code;
  function keepDraft() {
    try {
      if (draft && table) sessionStorage.setItem(DRAFT, JSON.stringify({ seq: table.seq, draft, ui }));
      else sessionStorage.removeItem(DRAFT);
    } catch (e) { /* private mode */ }
  }
  function restoreDraft() {
    let kept = null;
    try { kept = JSON.parse(sessionStorage.getItem(DRAFT)); } catch (e) { kept = null; }
    if (kept && kept.seq === table.seq && kept.draft && needs.moves.includes(kept.draft.type)) { draft = kept.draft; ui = kept.ui || {}; }
  }
  /** The fields a card drawn from the deck fills: the cards dealt or drawn, a ward drawn. */
  const drawnFields = (t) => fields(t).filter(([, kind, opt]) => kind === "cards" || (kind === "ward" && opt.drawn));
  function useCard(w) {
    if (!B.wards.some((x) => x.id === w)) return;
    let t = draft && drawnFields(draft.type).length ? draft.type : null;
    if (!t) {      // the one move waiting for a drawn card (Income is the player's choice: never picked for them)
      const waiting = offeredTypes().filter((x) => x !== "income" && drawnFields(x).length);
      if (!waiting.length) { say("No move waits for a card drawn now: " + wardName(w) + " was not entered."); return; }
      if (waiting.length > 1) {      // which move the card is for: one tap, by the message
        tk.say("#msg", "info", wardName(w) + ": for which move? ");
        $("#msg").append(...waiting.map((x) => el("button", { type: "button", class: "hint-choice",
          onclick: () => { startType(x); useCard(w); } }, LABEL[x] || x)));
        return;
      }
      t = waiting[0];
      draft = { type: t }; ui = {}; render();
    }
    const f = drawnFields(t).find(([name, kind, opt]) => kind === "cards" ? (draft[name] || []).length < opt.count : draft[name] === undefined);
    if (!f) { say("Every card of this move is entered: " + wardName(w) + " was not added."); return; }
    const [name, kind] = f;
    set(name, kind === "cards" ? (draft[name] || []).concat([w]) : w);
    tk.say("#msg", "good", wardName(w) + " entered from its card.");
  }

  // Undo and the table's timer on this page too (the table page has them as well).
  const undo = new tk.UndoButton($("#undo"), $("#undo-msg"), link);
  const timer = new tk.TimerWidget($("#timer"), link, "table");

  // ---------- correcting a card entered wrongly (table deck) ----------
  const fix = { player: null, was: null, now: null };
  function renderCorrect() {
    const box = $("#correct");
    const seats = st.players.map((pl, i) => i).filter((i) => Array.isArray(hand(i)) && hand(i).length);
    box.hidden = !tableMode() || !seats.length || !!table.result;
    if (box.hidden) return;
    // Entries that cannot all be right (issue 26): the state lists them for this hand's owner and
    // the host only; the box opens on the first, with its card chosen, to set it right.
    const conflicts = Array.isArray(st.conflicts) ? st.conflicts : [];
    const warn = $("#conflicts");
    warn.hidden = !conflicts.length;
    warn.replaceChildren(...conflicts.map((c) => el("p", {}, c.text)));
    const seen = conflicts.map((c) => c.card + ":" + (c.players || []).join()).join("|");
    if (conflicts.length && seen !== fix.conflicts) {
      const c = conflicts[0];
      const p = (c.players || []).find((i) => seats.includes(i));
      if (p !== undefined) { fix.player = p; fix.was = c.card; fix.now = null; }
      box.open = true;
    }
    fix.conflicts = seen;
    if (!seats.includes(fix.player)) fix.player = seats.includes(me()) ? me() : seats[0];
    const h = hand(fix.player) || [];
    if (!h.includes(fix.was)) fix.was = null;
    const rows = [];
    if (seats.length > 1) rows.push(section("Whose hand", pickGrid(seats.map((i) =>
      pickButton(data.players[i], null, fix.player === i, () => { fix.player = i; fix.was = null; renderCorrect(); })))));
    rows.push(section("The card entered", pickGrid([...new Set(h)].map((w) =>
      pickButton(wardName(w), null, fix.was === w, () => { fix.was = w; renderCorrect(); })))));
    rows.push(section("It really was", pickGrid(B.wards.map((w) => w.id).filter((w) => w !== fix.was).map((w) =>
      pickButton(wardName(w), null, fix.now === w, () => { fix.now = w; renderCorrect(); })))));
    rows.push(el("button", { type: "button", class: "wide", disabled: !(fix.was && fix.now), onclick: async () => {
      const r = await link.send("/moves", { move: { type: "correct-card", player: fix.player, was: fix.was, now: fix.now } });
      tk.say("#correct-msg", r.ok ? "good" : "bad", r.ok ? "Corrected: " + wardName(fix.now) + " instead of " + wardName(fix.was) + "." : tk.explain(r),
             r.body && r.body.reasons);
      if (r.ok) { fix.was = fix.now = null; }
    } }, fix.was && fix.now ? "Correct: " + wardName(fix.was) + " → " + wardName(fix.now) : "Choose both cards"));
    $("#correct-fields").replaceChildren(...rows);
  }

  // ---------- who am I ----------
  const me = () => tk.me(code);
  // One tap takes a free seat (the table page also hands seats over); the host acts for everyone.
  function renderSeat() { tk.renderSeat(link, data.game, data.players, (text) => say(text), renderSeat); }
  renderSeat();

  // ---------- who moves ----------
  function mover() {
    if (draft && draft.player !== undefined) return draft.player;
    const ps = needs.players || [];
    if (ps.length === 1) return ps[0];
    if (ps.includes(me())) return me();
    return ps.length ? ps[0] : null;
  }
  const hand = (p) => (st.players[p] && st.players[p].hand) || null;
  const tableMode = () => st.mode === "table";
  /** Named hands (the table's deck, "hands": "named"): nobody's hand is entered; a card is named
   *  when it is played, from the wards a hand may hold. */
  const namedHands = () => st.hands === "named";
  /** The wards a hand may hold: those not every copy of which is public (the queue's cards, the
   *  discard pile), as the companion checks a card named. */
  function freeWards() {
    const pub = {};
    for (const q of st.queue || []) if (q.card) pub[q.card] = (pub[q.card] || 0) + 1;
    for (const c of st.discard || []) pub[c] = (pub[c] || 0) + 1;
    return B.wards.filter((w) => (pub[w.id] || 0) < (w.cards || 0)).map((w) => w.id);
  }


  // ---------- the fields of each move ----------
  function fields(type) {
    const p = mover();
    switch (type) {
      case "deal-hand": return [["player", "player", { choices: st.deal.hands.map((d, i) => d ? null : i).filter((i) => i !== null) }],
                                ["cards", "cards", { count: B.hand_size, title: "The cards dealt" }]];
      case "seed-ward": return [["ward", "ward", { drawn: true, choices: wardsByName().map((w) => w.id).filter((w) => !st.deal.seeded.includes(w)) }],
                                ["customers", "tokens", { count: B.seed_customers, title: "Customers drawn for it" }]];
      case "place-matsuri": return [["ward", "ward", { drawn: true }]];
      case "fill-queue": return [["cards", "cards", { count: B.queue_slots, title: "Cards for ①, ②, ③, ④ in that order" }],
                                 ["customers", "tokens", { count: B.queue_start, title: "Customers drawn" }]];
      case "place-customers": return tableMode() ? [
        ["card", "ward", { drawn: true, optional: needs.enter && needs.enter.cards === 0, title: "The card drawn for ④" }],
        ["customers", "tokens", { count: needs.enter ? needs.enter.customers : 0, title: "Customers drawn for the queue" }]] : [];
      case "move-matsuri": return [["ward", "ward", { choices: needs.wards }]];
      // named hands: the card after the station (the card row is short once the station is known,
      // and next to the map the station was tapped on)
      case "open-store": return namedHands() ? [["station", "station", { free: true }], ["goods", "goods", {}], ["card", "card", {}]]
                                             : [["card", "card", {}], ["station", "station", { free: true }], ["goods", "goods", {}]];
      case "expand-track": return [["connection", "connection", {}], ["second", "connection", { optional: true, after: "connection" }],
                                   ["card", "card", { optional: true, title: "Card for the second segment" }]];
      case "upgrade-store": return [["station", "station", { mine: p }], ["card", "card", {}], ["customer", "token", { of: p }]];
      case "income": return tableMode() && !namedHands() ? [["cards", "cards", { count: needs.income_cards ? needs.income_cards[p] : 0, title: "Cards drawn" }]] : [];
      case "move-customers": return namedHands() ? [["path", "path", {}], ["card", "card", {}], ["take", "take", { optional: true }]]
                                                 : [["card", "card", {}], ["path", "path", {}], ["take", "take", { optional: true }]];
      default: return [];
    }
  }

  // ---------- rendering ----------
  function render() {
    if (!st) return;
    keepDraft();
    $("#prompt").textContent = needs.prompt || (st.phase === "over" ? "The game is over." : "");
    const p = table.turn;
    const said = document.getElementById("turn-line");       // the turn cue names whose turn it is
    const named = said && !said.hidden && said.textContent.trim();
    $("#turninfo").textContent = "Turn " + st.turn + " · round " + st.round + (p !== null && p !== undefined && !named ? " · " + data.players[p] + " to play" : "");
    renderHand();
    renderTypes();
    renderBuilder();
    renderOverview();
    renderMap();
    fitMap();
  }
  /** The map's frame reaches down to the bar at the bottom of the screen (the page scrolled to its
   *  top): the move's buttons and the map fill one screen. Measured while no move is being built,
   *  kept while one is (the fields a move adds push the map down; the window follows: stayPut). */
  function fitMap() {
    const frame = document.querySelector("#map .map-scroll");
    if (!frame || (draft && frame.style.height)) return;
    const bar = document.querySelector(".sticky-actions");
    const top = frame.getBoundingClientRect().top + window.scrollY;
    const h = Math.max(230, Math.round(window.innerHeight - (bar && !bar.hidden ? bar.offsetHeight : 0) - top - 6));
    if (frame.style.height !== h + "px") { frame.style.height = h + "px"; if (map) map.sizeHits(); }
  }
  window.addEventListener("resize", () => { const f = document.querySelector("#map .map-scroll"); if (f) f.style.height = ""; fitMap(); });

  /** The hand at the top of the game screen: the mover's when this phone may see it, else its own
   *  (a card that is wild for its owner, by the Matsuri or a store of theirs, is marked). */
  function renderHand() {
    const line = $("#hand-line");
    if (namedHands() && !table.result) {       // the hand is in the player's hand: only its size here
      const p = [mover(), me()].find((i) => i !== null && i !== undefined && i >= 0 && st.players[i]);
      if (p === undefined) { line.hidden = true; return; }
      const pl = st.players[p];
      line.hidden = false;
      line.replaceChildren(el("strong", null, (p === me() ? "Your hand" : data.players[p] + "’s hand") + ": "),
        tk.count(pl.hand_size || 0, "card") + " (name a card as you play it)",
        el("span", { class: "muted" }, " · track " + pl.track + " · customers " + pl.customers.reduce((n, t) => n + tokenKind(t)[1], 0)));
      return;
    }
    const p = [mover(), me()].find((i) => i !== null && i !== undefined && i >= 0 && Array.isArray(hand(i)));
    if (p === undefined || table.result) { line.hidden = true; return; }
    const pl = st.players[p];
    const wild = (w) => st.matsuri === w || Object.entries(st.stations || {}).some(([sid, x]) => x.owner === p && B.stations[sid].ward === w);
    const cards = hand(p).slice().sort((a, b) => wardName(a).localeCompare(wardName(b)));
    line.hidden = false;
    line.replaceChildren(el("strong", null, (p === me() ? "Your hand" : data.players[p] + "’s hand") + ": "),
      ...(cards.length ? cards.map((w) => el("span", { class: "hand-card" + (wild(w) ? " wild" : "") }, wardName(w) + (wild(w) ? " ★" : "")))
                       : [el("span", { class: "muted" }, "no cards")]),
      el("span", { class: "muted" }, " · track " + pl.track + " · customers " + pl.customers.reduce((n, t) => n + tokenKind(t)[1], 0)));
  }

  function offeredTypes() {
    let types = needs.moves || [];
    if (st.phase === "actions" && needs.actions_left) types = types.filter((t) => needs.actions_left.includes(t));
    return types;
  }
  function renderTypes() {
    const types = offeredTypes();
    // while a move is built, the other moves shrink to one compact row (a tap still switches): its fields come next
    const building = !!draft && types.length > 1 && types.includes(draft.type);
    $("#types").classList.toggle("building", building);
    $("#types").replaceChildren(...types.map((t) => el("button", {
      type: "button", "aria-pressed": String(!!draft && draft.type === t), "data-enter": t,
      class: [pendingHit && pendingHit.types.includes(t) ? "suggested" : "", building && draft.type !== t ? "minor" : ""].join(" ").trim() || null,
      onclick: () => startType(t),
    }, LABEL[t] || t)));
    if (!types.length) $("#types").append(el("p", { class: "muted" }, "Nothing to enter now."));
    if (types.length === 1 && !draft) { draft = { type: types[0] }; }
  }

  function startType(t) {
    const hit = pendingHit && pendingHit.types.includes(t) ? pendingHit.hit : null;
    pendingHit = null;
    draft = { type: t }; ui = {}; tk.say("#msg", "info", ""); render();
    if (hit) mapTap(hit);            // the station tapped before the move was chosen
    else armIfWhole();               // a move with nothing to choose: this tap plays it
  }

  function section(title, ...body) {
    return el("div", { class: "card" }, el("h3", { style: "margin-top:0" }, title), ...body);
  }
  const pickGrid = (items, dense) => el("div", { class: dense ? "picks dense" : "picks" }, items);
  /** Wards as a card drawn from the deck is looked up: by name, a compact grid, no sub-labels. */
  const wardsByName = () => B.wards.slice().sort((a, b) => a.name.localeCompare(b.name));
  function pickButton(label, sub, pressed, onclick) {
    return el("button", { type: "button", "aria-pressed": String(!!pressed), onclick }, label, sub ? el("span", { class: "sub" }, sub) : null);
  }
  function chips(list, labelOf, onRemove) {
    return el("ul", { class: "sets" }, list.map((v, i) => el("li", null, labelOf(v), " ",
      el("button", { type: "button", class: "secondary", style: "min-height:44px;min-width:44px;padding:0 .5rem",
                     "aria-label": "Remove " + labelOf(v), onclick: () => onRemove(i) }, "×"))));
  }
  const set = (name, value) => {
    if (pendingHit && pendingHit.from) pendingHit = null;    // the store move it is: a station tap now moves the store
    if (name === "card") ui.cardGuessed = false;              // the player's own choice of card
    if (value === undefined) delete draft[name]; else draft[name] = value;
    let defaulted = false;
    if (value !== undefined) defaulted = preselect(name);
    else if (name === "second" && draft.type === "expand-track") delete draft.card;   // the second segment's card goes with it
    render();
    if (defaulted) autoplay.cancel();    // a default the player has not seen yet: Play (or a tap on it) decides
    else armIfWhole();
  };

  function renderBuilder() {
    const box = $("#builder");
    box.replaceChildren();
    if (!draft) { summary(); return; }
    draft.player = draft.player !== undefined ? draft.player : mover();
    for (const [name, kind, opt] of fields(draft.type)) {
      if (kind !== "player" || (opt.choices || []).includes(draft[name])) continue;
      const c = opt.choices || [];        // whose hand: this phone's own seat preselected, else a choice
      draft[name] = c.includes(me()) ? me() : c.length === 1 ? c[0] : undefined;
    }
    for (const [name, kind, opt] of fields(draft.type)) {
      if (kind === "player") box.append(playerField(name, opt));
      else if (kind === "ward") box.append(wardField(name, opt));
      else if (kind === "cards") box.append(cardsField(name, opt));
      else if (kind === "tokens") box.append(tokensField(name, opt));
      else if (kind === "token") box.append(tokenField(name, opt));
      else if (kind === "card") box.append(cardField(name, opt));
      else if (kind === "station") box.append(stationField(name, opt));
      else if (kind === "goods") box.append(goodsField(name));
      else if (kind === "connection") box.append(connectionField(name, opt));
      else if (kind === "path") box.append(pathField(name));
      else if (kind === "take") { const f = takeField(); if (f) box.append(f); }
    }
    if ((needs.players || []).length > 1 && draft.type !== "deal-hand") box.prepend(playerField("player", { choices: needs.players }));
    summary();
  }

  function playerField(name, opt) {
    return section("Who", pickGrid((opt.choices || []).map((i) =>
      pickButton(data.players[i], null, draft[name] === i, () => set(name, i)))));
  }
  function wardField(name, opt) {
    if (opt.drawn && draft[name] !== undefined) {     // entered: one line, so what comes next moves up
      return section((opt.title || "Ward") + ": " + wardName(draft[name]), el("div", { class: "row" },
        pickGrid([pickButton(wardName(draft[name]), null, true, () => {})], true),
        el("button", { type: "button", class: "secondary", onclick: () => set(name, undefined) }, "Change")));
    }
    const choices = opt.choices || (opt.drawn ? wardsByName() : B.wards).map((w) => w.id);
    return section(opt.title || "Ward" + (opt.optional ? " (if any)" : ""), pickGrid(choices.map((id) => {
      const w = B.wards.find((x) => x.id === id);
      const waiting = st.wards && st.wards[id] ? st.wards[id].length : 0;
      if (opt.drawn) return pickButton(w.name, null, draft[name] === id, () => set(name, draft[name] === id ? undefined : id));
      return pickButton(w.name + " " + w.kanji, waiting ? tk.count(waiting, "customer") + " waiting" : null,
        draft[name] === id, () => set(name, draft[name] === id ? undefined : id));
    }), opt.drawn));
  }
  function cardsField(name, opt) {
    const list = draft[name] || [];
    return section((opt.title || "Cards") + " — " + list.length + " of " + opt.count,
      chips(list, wardName, (i) => { list.splice(i, 1); set(name, list.slice()); }),
      list.length < opt.count ? pickGrid(wardsByName().map((w) => pickButton(w.name, null, false,
        () => set(name, list.concat([w.id])))), true) : null);
  }
  function tokensField(name, opt) {
    const list = draft[name] || [];
    return section((opt.title || "Customers") + " — " + list.length + " of " + opt.count,
      chips(list, tokenLabel, (i) => { list.splice(i, 1); set(name, list.slice()); }),
      list.length < opt.count ? pickGrid(B.tokens.map((t) => pickButton(t.label, null, false,
        () => set(name, list.concat([t.id]))))) : null);
  }
  function tokenField(name, opt) {
    const mine = (st.players[opt.of] || {}).customers || [];
    // only a customer of the store's goods can be spent on it; with one such, it is chosen already
    const store = draft.station && (st.stations || {})[draft.station];
    const distinct = [...new Set(mine)].filter((t) => !store || !store.goods || tokenKind(t)[0] === store.goods);
    if (store && distinct.length === 1 && draft[name] === undefined) draft[name] = distinct[0];
    return section("Customer to spend", distinct.length ? pickGrid(distinct.map((t) =>
      pickButton(tokenLabel(t), null, draft[name] === t, () => set(name, t))))
      : el("p", { class: "muted" }, "This player has no customers yet."));
  }
  /** Named hands: the card played is named from the wards a hand may hold, or three cards as one
   *  wild, which match anything and are not named (one tap: "card": 3). Once the station (path,
   *  track) is chosen, one short row: the cards that match there (its ward's, the wild ones: the
   *  Matsuri's, a store's), the three as one wild, and "Another ward" for the whole list; before,
   *  the whole list, the matching and wild wards first. A ward that does not match here plays as one
   *  of three cards as one wild. */
  function namedCardField(name, opt) {
    const value = draft[name];
    const targets = targetWards();
    const rank = (w) => (targets && targets.includes(w) ? 0 : wildHint(w) ? 1 : 2);
    const free = freeWards().sort((a, b) => rank(a) - rank(b) || wardName(a).localeCompare(wardName(b)));
    const size = (st.players[draft.player] || {}).hand_size || 0;
    const short = targets && !ui[name + ":all"];
    const shown = short ? free.filter((w) => rank(w) < 2 || w === value) : free;
    const three = value === B.cards_as_wild;
    const wild = pickButton(B.cards_as_wild + " cards", "as one wild", three, () => set(name, three ? undefined : B.cards_as_wild));
    if (size < B.cards_as_wild) wild.disabled = true;
    const items = shown.map((w) => pickButton(wardName(w), targets && targets.includes(w) ? "matches" : wildHint(w), value === w, () => {
      if (targets && !targets.includes(w) && !wildHint(w)) {
        set(name, size >= B.cards_as_wild ? B.cards_as_wild : undefined);
        say(wardName(w) + " does not match here" + (size >= B.cards_as_wild ? ": played with two more cards as one wild (no need to name them)." : "."));
        return;
      }
      set(name, w);
    }));
    items.push(wild);
    if (short && shown.length < free.length) {
      items.push(el("button", { type: "button", class: "secondary", onclick: () => { ui[name + ":all"] = true; render(); } }, "Another ward"));
    }
    const title = (opt.title || "Card to play") + (opt.optional ? " (if needed)" : "") + (value !== undefined ? "" : " — hand of " + size);
    return section(title, pickGrid(items, true));
  }
  function cardField(name, opt) {
    if (namedHands()) return namedCardField(name, opt);
    const p = draft.player;
    const h = hand(p);
    const three = ui[name + ":three"];
    const value = draft[name];
    const list = Array.isArray(value) ? value : [];
    const toggle = el("button", { type: "button", class: "secondary", "aria-pressed": String(!!three),
      onclick: () => { ui[name + ":three"] = !three; ui[name + ":picked"] = []; ui[name + ":kept"] = []; set(name, undefined); } },
      three ? "Play one card" : "Play " + B.cards_as_wild + " cards as one wild");
    const source = h ? h.map((w, i) => ({ w, i })) : B.wards.map((w) => ({ w: w.id, i: w.id }));
    let grid;
    const need = B.cards_as_wild;
    // With one or two cards more than the wild needs, saying which to keep is fewer taps than
    // picking the three: a tap on a card not played yet keeps it; the cards neither kept nor
    // already played are played once the kept ones leave exactly three.
    const keeping = three && h && h.length > need && h.length - need <= 2;
    const keepWords = (extra) => "tap the " + (extra === 1 ? "card" : tk.count(extra, "card"));
    let title = opt.title || "Card to play";
    if (three) {
      const played = ui[name + ":picked"] || [], kept = ui[name + ":kept"] || [];
      if (keeping && !Array.isArray(value)) title += " — " + need + " as one wild: " + keepWords(h.length - need) + " to keep";
      grid = pickGrid(source.map(({ w, i }) => pickButton(wardName(w), keeping ? (kept.includes(i) ? "kept" : played.includes(i) ? "played" : null) : null, played.includes(i), () => {
        let p = ui[name + ":picked"] || [], k = ui[name + ":kept"] || [];
        if (keeping && !p.includes(i)) {
          k = k.includes(i) ? k.filter((x) => x !== i) : k.concat([i]).slice(-(h.length - need));
          if (k.length === h.length - need) p = source.map((x) => x.i).filter((x) => !k.includes(x));
        } else {
          p = p.includes(i) ? p.filter((x) => x !== i) : p.concat([i]).slice(-need);
          k = k.filter((x) => x !== i);
        }
        ui[name + ":picked"] = p; ui[name + ":kept"] = k;
        set(name, p.length === need ? p.map((x) => h ? h[x] : x) : undefined);
      })));
    } else {
      grid = pickGrid(source.map(({ w, i }) => pickButton(wardName(w), wildHint(w), value === w, () => {
        const targets = targetWards();
        if (h && targets && !targets.includes(w) && !wildHint(w)) {
          // not playable alone here: the first of the cards played as one wild (no toggle tap needed)
          ui[name + ":three"] = true; ui[name + ":picked"] = [i]; ui[name + ":kept"] = [];
          set(name, undefined);
          const extra = h.length - B.cards_as_wild;
          say(wardName(w) + " does not match here: it is 1 of " + B.cards_as_wild + " cards played as one wild — " +
              (extra >= 1 && extra <= 2 ? keepWords(extra) + " you keep"
                                        : "pick " + (B.cards_as_wild - 1) + " more") + " (or “Play one card”).");
          return;
        }
        set(name, w);                  // tapping the chosen card keeps it (it may be the preselected one)
      })));
    }
    return section(title + (opt.optional ? " (if needed)" : "") + (h ? "" : " — hand not visible: pick the ward"),
      grid, el("p", { style: "margin:.5rem 0 0" }, toggle), list.length ? el("p", { class: "small" }, list.map(wardName).join(" + ")) : null);
  }
  /** The wards a single card must match for the move as built so far (null: not known yet). */
  function targetWards() {
    if (!draft) return null;
    if (draft.station) return [B.stations[draft.station].ward];
    if (draft.path && draft.path.length) return [B.stations[draft.path[0]].ward];
    if (draft.type === "expand-track" && draft.connection) return draft.connection.map((sid) => B.stations[sid].ward);
    return null;
  }
  function wildHint(ward) {
    if (st.matsuri === ward) return "wild: Matsuri";
    const p = draft.player;
    for (const sid of Object.keys(st.stations || {})) {
      if (st.stations[sid].owner === p && B.stations[sid].ward === ward) return "wild: your store";
    }
    return null;
  }
  function stationChoices(opt) {
    return Object.keys(B.stations).filter((sid) => {
      const here = (st.stations || {})[sid];
      if (opt.free) return !here;
      if (opt.mine !== undefined) return here && here.owner === opt.mine && here.kind === "store" && B.stations[sid].sakura;
      return true;
    });
  }
  function stationField(name, opt) {
    const choices = stationChoices(opt);
    const value = draft[name];
    let ward = ui[name + ":ward"];
    if (!ward && !ui[name + ":any"] && typeof draft.card === "string" && !wildHint(draft.card)) ward = draft.card;
    const wardsWith = B.wards.filter((w) => w.stations.some((s) => choices.includes(s)));
    const body = [];
    if (value && choices.includes(value)) {      // chosen (on the map, mostly): one line, the map shows it
      const x = B.stations[value];
      return section("Station: " + stName(value), el("div", { class: "row" },
        el("span", { class: "small muted" }, wardName(x.ward) + (x.sakura ? " · sakura" : "")),
        el("button", { type: "button", class: "secondary", onclick: () => set(name, undefined) }, "Change")));
    }
    if (opt.mine !== undefined || choices.length <= 12) {
      body.push(pickGrid(choices.map((sid) => stationButton(sid, value === sid, () => set(name, sid)))));
    } else if (!ward) {
      body.push(el("p", { class: "small muted", style: "margin:0 0 .4rem" }, "Which ward?"),
        pickGrid(wardsWith.map((w) => pickButton(w.name + " " + w.kanji, null, false, () => { ui[name + ":ward"] = w.id; render(); }))));
    } else {
      body.push(pickGrid(B.wards.find((w) => w.id === ward).stations.filter((s) => choices.includes(s))
        .map((sid) => stationButton(sid, value === sid, () => set(name, sid)))),
        el("p", { style: "margin:.5rem 0 0" }, el("button", { type: "button", class: "secondary",
          onclick: () => { ui[name + ":ward"] = null; ui[name + ":any"] = true; set(name, undefined); } }, "Another ward")));
    }
    if (!choices.length) body.push(el("p", { class: "muted" }, opt.mine !== undefined ? "No store of this player can be upgraded (sakura stations only)." : "No station is free."));
    return section("Station" + (value ? ": " + stName(value) : ""), ...body);
  }
  function stationButton(sid, pressed, onclick) {
    const s = B.stations[sid];
    const here = (st.stations || {})[sid];
    const sub = [wardName(s.ward), s.sakura ? "sakura" : "", here ? data.players[here.owner] + " " + (here.kind === "store" ? goodsName(here.goods) : "dept.") : ""].filter(Boolean).join(" · ");
    return pickButton(s.name + " " + s.kanji, sub, pressed, onclick);
  }
  function goodsField(name) {
    // the goods the mover has stores of left; with one left it is the only answer: chosen already
    const left = ((st.players[draft.player] || {}).stores) || null;
    const has = (g) => !left || !(g in left) || left[g] > 0;
    const open = B.goods.filter((g) => has(g.id));
    if (open.length === 1 && draft[name] === undefined) draft[name] = open[0].id;
    return section("Goods", el("div", { class: "picks goods" }, B.goods.map((g) => {
      const b = pickButton(g.name, has(g.id) ? null : "none left", draft[name] === g.id, () => set(name, g.id));
      if (!has(g.id)) b.disabled = true;
      return b;
    })));
  }
  const connId = (a, b) => [a, b].sort().join("--");
  function connectionField(name, opt) {
    const value = draft[name];
    const built = st.tracks || {};
    let from = ui[name + ":from"];
    const body = [];
    if (value) {
      body.push(el("p", { style: "margin:0" }, stName(value[0]) + " – " + stName(value[1]) + " ",
        el("button", { type: "button", class: "secondary", onclick: () => { ui[name + ":from"] = null; set(name, undefined); } }, "Change")));
    } else if (!from) {
      let starts = Object.keys(B.stations);
      if (opt.after) {
        const first = draft[opt.after];
        if (!first) return section("Second segment (optional)", el("p", { class: "muted" }, "Choose the first segment before."));
        starts = first;
      }
      const free = starts.filter((sid) => B.stations[sid].links.some(([o, c]) => !(c in built)));
      const w = ui[name + ":ward"];
      if (!opt.after && !w) {
        body.push(el("p", { class: "small muted", style: "margin:0 0 .4rem" }, "From which ward?"),
          pickGrid(B.wards.map((x) => pickButton(x.name + " " + x.kanji, null, false, () => { ui[name + ":ward"] = x.id; render(); }))));
      } else {
        const list = opt.after ? free : free.filter((sid) => B.stations[sid].ward === w);
        body.push(el("p", { class: "small muted", style: "margin:0 0 .4rem" }, "From station:"),
          pickGrid(list.map((sid) => stationButton(sid, false, () => { ui[name + ":from"] = sid; render(); }))));
        if (!opt.after) body.push(el("p", { style: "margin:.5rem 0 0" }, el("button", { type: "button", class: "secondary", onclick: () => { ui[name + ":ward"] = null; render(); } }, "Another ward")));
      }
    } else {
      const to = B.stations[from].links.filter(([o, c]) => !(c in built) && (!draft.connection || name === "connection" || connId(...draft.connection) !== c));
      body.push(el("p", { class: "small muted", style: "margin:0 0 .4rem" }, "From " + stName(from) + " to:"),
        pickGrid(to.map(([o]) => stationButton(o, false, () => { ui[name + ":from"] = null; set(name, [from, o]); }))),
        el("p", { style: "margin:.5rem 0 0" }, el("button", { type: "button", class: "secondary", onclick: () => { ui[name + ":from"] = null; render(); } }, "Another start")));
    }
    return section(opt.after ? "Second segment (optional)" : "Track segment", ...body);
  }
  function pathField(name) {
    const path = draft[name] || [];
    const built = st.tracks || {};
    const body = [];
    if (path.length) body.push(el("p", { style: "margin:0 0 .4rem" }, path.map(stName).join(" → ")));
    let choices;
    if (!path.length) {
      const ward = typeof draft.card === "string" && !wildHint(draft.card) ? draft.card : ui.pathWard;
      if (!ward) {
        const withCustomers = B.wards.filter((w) => st.wards && st.wards[w.id] && st.wards[w.id].length);
        body.push(el("p", { class: "small muted", style: "margin:0 0 .4rem" }, "Customers of which ward?"),
          pickGrid(withCustomers.map((w) => pickButton(w.name + " " + w.kanji, st.wards[w.id].map(tokenLabel).join(", "), false, () => { ui.pathWard = w.id; render(); }))));
        return section("Path", ...body);
      }
      body.push(el("p", { class: "small muted", style: "margin:0 0 .4rem" }, "Start at a station of " + wardName(ward) + ":"));
      choices = B.wards.find((w) => w.id === ward).stations;
    } else {
      const last = path[path.length - 1];
      choices = B.stations[last].links.filter(([o, c]) => c in built && !path.includes(o)).map(([o]) => o);
      body.push(el("p", { class: "small muted", style: "margin:0 0 .4rem" }, choices.length ? "Next station along built track:" : "No further built track from here."));
    }
    body.push(pickGrid(choices.map((sid) => stationButton(sid, false, () => set(name, path.concat([sid]))))));
    if (path.length) body.push(el("p", { style: "margin:.5rem 0 0" }, el("button", { type: "button", class: "secondary", onclick: () => set(name, path.length > 1 ? path.slice(0, -1) : undefined) }, "Back one station")));
    return section("Path", ...body);
  }

  // ---------- moving customers: which customer each store on the path takes ----------
  // "If more than one customer matches ..., then you may choose which single customer is given to the
  // store owner." The page walks the path as the rules do (a store takes one customer of its goods, a
  // department store one of any type, in path order) to show each store's choice, the default
  // preselected (for the mover's own store a "2" first, for another player's a single first; then
  // the goods in the data's order), and sends every store's customer in "take": the engine checks
  // them, so what the page showed is what happens.
  const tokenKind = (t) => B.token_kinds[t] || [t, 1];
  const goodsPos = (g) => { const i = B.goods.findIndex((x) => x.id === g); return i < 0 ? B.goods.length : i; };
  function defaultPick(candidates, own) {
    const key = (t) => { const [g, v] = tokenKind(t); return [own ? -v : v, goodsPos(g)]; };
    return candidates.slice().sort((a, b) => { const [x, y] = [key(a), key(b)]; return x[0] - y[0] || x[1] - y[1]; })[0];
  }
  /** The stores of the path that take a customer: [{station, owner, kind, goods, choices, pick}]. */
  function takeStops() {
    const path = draft && draft.path;
    if (!path || !path.length) return [];
    const remaining = (st.wards[B.stations[path[0]].ward] || []).slice();
    const picks = ui.take || {};
    const stops = [];
    for (const sid of path) {
      const store = (st.stations || {})[sid];
      if (!store) continue;
      const candidates = store.kind === "department-store" ? remaining.slice() : remaining.filter((t) => tokenKind(t)[0] === store.goods);
      if (!candidates.length) continue;
      const pick = candidates.includes(picks[sid]) ? picks[sid] : defaultPick(candidates, store.owner === draft.player);
      stops.push({ station: sid, owner: store.owner, kind: store.kind, goods: store.goods, choices: [...new Set(candidates)], pick });
      remaining.splice(remaining.indexOf(pick), 1);
    }
    return stops;
  }
  const storeWords = (stop) => data.players[stop.owner] + "’s " + stName(stop.station) + " " + (stop.kind === "store" ? goodsName(stop.goods).toLowerCase() + " store" : "department store");
  function takeField() {
    const stops = takeStops();
    if (!stops.length) return null;
    const rows = stops.map((stop) => {
      if (stop.choices.length === 1) return el("p", { class: "small", style: "margin:.3rem 0" }, storeWords(stop) + " takes " + tokenLabel(stop.pick) + ".");
      return el("div", { class: "take-stop" }, el("p", { class: "small", style: "margin:.3rem 0" }, storeWords(stop) + " takes:"),
        pickGrid(stop.choices.map((t) => pickButton(tokenLabel(t), null, stop.pick === t, () => {
          ui.take = Object.assign({}, ui.take, { [stop.station]: t }); render(); armIfWhole();
        }))));
    });
    const choice = stops.some((x) => x.choices.length > 1);
    return section(choice ? "Who takes which customer" : "Stores on the way", ...rows);
  }

  /** The first field the move still needs, or null when it is complete. */
  function missing() {
    if (!draft) return null;
    return fieldsNow().find(([name, kind, opt]) => (!opt.optional || (draft.type === "expand-track" && name === "card" && draft.second))
      && (kind === "tokens" ? (draft[name] || []).length < opt.count : kind === "cards" ? false : draft[name] === undefined)) || null;
  }

  // ---------- fewer taps: sensible defaults, and the last tap plays ----------
  /** After `name` was chosen: the card a player would play there, preselected (one tap changes it) —
   *  a card of the station's ward (or of the first segment's ends) from the hand. */
  function preselect(name) {
    if (draft.card !== undefined || ui["card:three"] || !fieldsNow().some(([n, kind]) => n === "card" && kind === "card")) return false;
    if (namedHands()) {
      // the card of the ward tapped (the station's, the path's first, the first segment's ends) is
      // the one a player names there: chosen already, shown in the bar, and it plays with the move
      // after the moment unless another card is tapped (as a store's default customer does)
      let wards = [];
      if (name === "station" && draft.station) wards = [B.stations[draft.station].ward];
      else if (name === "path" && draft.path && draft.path.length === 1) wards = [B.stations[draft.path[0]].ward];
      else if (name === "second" && draft.connection) wards = draft.connection.map((sid) => B.stations[sid].ward);
      const size = (st.players[draft.player] || {}).hand_size || 0;
      const pick = size ? wards.find((w) => freeWards().includes(w)) : undefined;
      if (pick) { draft.card = pick; ui.cardGuessed = true; }
      // no card of these wards can be in a hand and no wild one either: three as one wild it is
      else if (wards.length && size >= B.cards_as_wild && !freeWards().some((w) => wildHint(w))) draft.card = B.cards_as_wild;
      return false;
    }
    const h = hand(draft.player);
    if (!h || !h.length) return false;
    let wards = [];
    if (name === "station" && draft.station) wards = [B.stations[draft.station].ward];
    else if (name === "path" && draft.path && draft.path.length === 1) wards = [B.stations[draft.path[0]].ward];
    else if (name === "second" && draft.connection) wards = draft.connection.map((sid) => B.stations[sid].ward);
    const pick = h.find((w) => wards.includes(w));
    if (pick) {
      draft.card = pick;
      // the only ward in hand that can be played alone here is no default to check: the move may play
      return new Set(h.filter((w) => wards.includes(w) || wildHint(w))).size > 1;
    }
    if (wards.length && h.length >= B.cards_as_wild && !h.some((w) => wildHint(w))) {
      // no card can be played alone here: the only way is three as one wild (no toggle tap); with
      // exactly three in hand there is nothing left to choose
      ui["card:three"] = true; ui["card:picked"] = []; ui["card:kept"] = [];
      if (h.length === B.cards_as_wild) { ui["card:picked"] = h.map((w, i) => i); draft.card = h.slice(); }
    }
    return false;
  }
  /** The move is whole and nothing optional is left to add: the tap that made it so may play it. */
  function whole() {
    if (!draft || missing()) return false;
    for (const [name, kind, opt] of fieldsNow()) {
      if ((kind === "cards" || kind === "tokens") && (draft[name] || []).length < opt.count) return false;
    }
    if (draft.type === "expand-track" && !draft.second) {
      const me_ = st.players[draft.player] || {};
      const h = hand(draft.player), ends = targetWards() || [];
      const canPay = !h || h.length >= B.cards_as_wild || h.some((w) => ends.includes(w) || wildHint(w));
      if ((me_.track || 0) >= 2 && nextConnections(draft.connection).length && canPay) return false;   // a second segment may follow
    }
    if (draft.type === "move-customers") {
      if (pathNext(draft.path).length) return false;                     // the customers may go further
      // which customer a store takes: the rules' default is shown (summary and field) and plays with
      // the move unless the mover taps another one (Clear stops it meanwhile)
    }
    return true;
  }
  function armIfWhole() {
    // named hands: a card the page chose (the ward tapped) is a guess at the player's hand: a longer
    // moment to see it and tap another before the move plays
    autoplay.ms = draft && ui.cardGuessed && draft.card !== undefined ? GUESS_MS : PLAY_MS;
    if (whole() && !sending && !whoToChoose() && autoplay.arm("“" + $("#summary").textContent.replace(/ — ready$/, "") + "”")) {
      $("#map-hint").textContent = "Ready: it plays by itself in a moment (Clear stops it).";
    } else autoplay.cancel();
  }
  /** Several players may make this move (answers to a track bonus) and this phone may enter it for
   *  another (the host's): who it is for is the player's to say — no move plays by itself then. */
  function whoToChoose() {
    const ps = needs.players || [];
    return ps.length > 1 && (tk.isHost(code) || !ps.includes(me()));
  }
  const NEEDED = { ward: "the ward", station: "the station", connection: "the track", card: "the card to play",
                   goods: "the goods", token: "the customer to spend", tokens: "the customers drawn",
                   player: "who plays", path: "the path", cards: "the cards drawn" };

  function summary() {
    const play = $("#play");
    if (!draft) { $("#summary").textContent = CHOOSE + "."; play.disabled = true; return; }
    const parts = [LABEL[draft.type] || draft.type];
    if (draft.player !== undefined && draft.player !== null) parts.unshift(data.players[draft.player] + ":");
    if (draft.ward) parts.push(wardName(draft.ward));
    if (draft.card) parts.push(typeof draft.card === "number" ? draft.card + " cards as one wild"
                               : "card " + (Array.isArray(draft.card) ? draft.card.map(wardName).join("+") : wardName(draft.card)));
    if (draft.station) parts.push("at " + stName(draft.station));
    if (draft.goods) parts.push(goodsName(draft.goods));
    if (draft.connection) parts.push(stName(draft.connection[0]) + "–" + stName(draft.connection[1]));
    if (draft.second) parts.push("+ " + stName(draft.second[0]) + "–" + stName(draft.second[1]));
    if (draft.path) parts.push(draft.path.map(stName).join("→"));
    if (draft.type === "move-customers") for (const stop of takeStops()) parts.push("· " + stName(stop.station) + ": " + data.players[stop.owner] + " gets " + tokenLabel(stop.pick));
    if (draft.cards) parts.push(draft.cards.map(wardName).join(", "));
    if (draft.customers) parts.push(draft.customers.map(tokenLabel).join(", "));
    if (draft.customer) parts.push("spending " + tokenLabel(draft.customer));
    const left = missing();
    $("#summary").textContent = parts.join(" ") + (left ? " — still to choose: " + (NEEDED[left[1]] || left[0]) : " — ready");
    play.disabled = !!left;          // Play only for a whole move: a half-built one has nothing to say yet
  }

  $("#play").addEventListener("click", () => playDraft());
  async function playDraft() {
    autoplay.cancel();
    if (!draft || missing() || sending) return;
    const move = Object.assign({}, draft);
    if (move.player === null) delete move.player;
    if (move.type === "move-customers") {
      const stops = takeStops();
      if (stops.length) move.take = Object.fromEntries(stops.map((x) => [x.station, x.pick]));
    }
    $("#play").disabled = true;
    sending = true;
    const r = await link.send("/moves", { move });
    sending = false;
    $("#play").disabled = false;
    if (r.ok) {
      draft = null; ui = {};
      played = r.body && r.body.seq;
      const e = link.events.get(played);
      tk.say("#msg", "good", e && e.summary ? "Played: " + e.summary : "Played.");
      render();
      // The next move's fields replace this one's (often shorter): the page goes back to its top,
      // where the hand, the moves and the map below them fill the screen.
      if (window.scrollY > 0) window.scrollTo(0, 0);      // the game screen, from its top
    }
    else tk.say("#msg", "bad", tk.explain(r), r.body && r.body.reasons);
  }
  $("#clear").addEventListener("click", () => { autoplay.cancel(); pendingHit = null; draft = null; ui = {}; tk.say("#msg", "info", ""); render(); });

  // ---------- the map: marks, hint, taps ----------
  /** A tap on the map changes the fields above it: the map stays where it is on the screen (the
   *  next tap is on it too), the fields grow or shrink out of sight above it. */
  function stayPut(tap) {
    const box = $("#map"), before = box.getBoundingClientRect().top;
    tap();
    const moved = box.getBoundingClientRect().top - before;
    if (Math.abs(moved) > 1) window.scrollBy(0, moved);
  }
  const fieldsNow = () => (draft ? fields(draft.type) : []);
  const builtTracks = () => st.tracks || {};
  const colourName = (id) => { const c = (B.colour_names || {})[id]; return c || id; };
  /** The player's colour with its symbol (the one printed on their pieces; app.css draws it). */
  const seatMark = (pl, i) => el("span", { class: "seat-mark", "data-seat": String(i), "data-symbol": (B.colour_symbols || {})[pl.colour] || null,
                                           style: "--seat:" + (B.colours[pl.colour] || "#999"), "aria-hidden": "true" });
  function freeConnections() { return Object.keys(B.connections).filter((c) => !(c in builtTracks())); }
  function nextConnections(first) {
    const [a, b] = first;
    return freeConnections().filter((c) => c !== connId(a, b) && B.connections[c].some((x) => x === a || x === b));
  }
  function pathStarts() {
    const ward = typeof draft.card === "string" && !wildHint(draft.card) ? draft.card : ui.pathWard;
    const wards = ward ? [ward] : B.wards.filter((w) => st.wards[w.id] && st.wards[w.id].length).map((w) => w.id);
    return B.wards.filter((w) => wards.includes(w.id)).flatMap((w) => w.stations);
  }
  function pathNext(path) {
    const last = path[path.length - 1];
    return B.stations[last].links.filter(([o, c]) => c in builtTracks() && !path.includes(o)).map(([o]) => o);
  }
  /** The field of the move a tap on the map fills next: stations, track and wards first, then cards. */
  function mapField() {
    const fs = fieldsNow();
    for (const [name, kind, opt] of fs) {
      if (kind === "station" || kind === "connection" || kind === "path") {
        if (kind === "connection" && opt.after) continue;        // optional: offered after the cards
        if (draft[name] === undefined || kind === "path") return [name, kind, opt];
      }
      if (kind === "ward" && draft[name] === undefined && !opt.optional) return [name, kind, opt];
    }
    for (const [name, kind, opt] of fs) {
      if (kind === "card" && draft[name] === undefined && (!opt.optional || draft.second)) return [name, kind, opt];
      if (kind === "cards" && (draft[name] || []).length < opt.count) return [name, kind, opt];
    }
    for (const [name, kind, opt] of fs) {
      if (kind === "connection" && opt.after && draft[opt.after] && draft[name] === undefined) return [name, kind, opt];
    }
    return null;
  }
  function mapMarks() {
    const m = { stations: [], connections: [], wards: [], path: null, from: null,
                cand: { stations: [], connections: [], wards: [] }, want: { stations: null, connections: null } };
    if (!draft) return m;
    for (const [name, kind, opt] of fieldsNow()) {
      const v = draft[name];
      if (kind === "station") {
        if (v) m.stations.push(v);
        const choices = stationChoices(opt);
        m.want.stations = choices;
        if (!v && choices.length <= 12) m.cand.stations = choices;
      } else if (kind === "connection") {
        if (v) m.connections.push(connId(v[0], v[1]));
        const from = ui[name + ":from"];
        if (from && !v) {
          m.from = from;
          m.cand.connections = B.stations[from].links.map(([, c]) => c).filter((c) => !(c in builtTracks()));
        }
        if (!v && !from && opt.after && draft[opt.after]) m.cand.connections = nextConnections(draft[opt.after]);
        if (!v && !opt.after) m.want.connections = freeConnections();
        else if (!v && opt.after && draft[opt.after]) m.want.connections = m.cand.connections;
      } else if (kind === "path") {
        m.path = v || [];
        const next = m.path.length ? pathNext(m.path) : pathStarts();
        m.cand.stations = next;
        m.want.stations = next.concat(m.path);
      } else if (kind === "ward") {
        if (v) m.wards.push(v);
        else if (opt.choices && opt.choices.length < B.wards.length) m.cand.wards = opt.choices;
      } else if (kind === "card" && typeof v === "string") {
        m.wards.push(v);
      }
    }
    return m;
  }
  function mapHint() {
    if (!st) return "";
    if (!draft) return "";             // the bar says it: choose a move, or tap the map
    const f = mapField();
    if (!f) {
      const left = fieldsNow().find(([name, kind, opt]) => !opt.optional && (kind === "tokens"
        ? (draft[name] || []).length < opt.count : kind !== "cards" && draft[name] === undefined));
      if (left) return { goods: "Now choose the goods above the map.", token: "Now choose the customer to spend above the map.",
                         tokens: "Now enter the customers above the map.", player: "Now choose who above the map." }[left[1]] || "Now finish the move above the map.";
      return "Ready: check the move and press Play.";
    }
    const [name, kind, opt] = f;
    const also = " (or use the buttons above)";
    if (kind === "station") return (opt.mine !== undefined ? "Tap your store to upgrade (a sakura hexagon)" : "Tap a free station for the store") + also + ".";
    if (kind === "connection") {
      const from = ui[name + ":from"];
      if (from) return "From " + stName(from) + ": tap the next station.";
      return (opt.after ? "Second segment? Tap a track slot next to the first" : "Tap a track slot, or two neighbouring stations") + also + ".";
    }
    if (kind === "path") {
      const path = draft[name] || [];
      const card = draft.card === undefined ? " Pick the card above." : "";
      if (!path.length) return "Tap the station the customers start from" + also + "." + card;
      if (!pathNext(path).length) return "No built track goes further: check the path and press Play (tap the last station to take it back)." + card;
      return "Tap the next station along built track, or one further on (the last one again takes it back)." + card;
    }
    if (kind === "ward") return (opt.title || "Tap a ward") + (opt.title ? ": tap its ward" : "") + also + ".";
    if (kind === "card") return "Card: pick it above, or tap its ward on the map.";
    if (kind === "cards") return (opt.title || "Cards") + ": tap each card's ward" + also + ".";
    return "";
  }
  function renderMap() {
    $("#map-hint").textContent = mapHint();
    if (pendingHit && !draft) {      // a tap that fits several moves: which one, right here by the map
      $("#map-hint").replaceChildren("Which move? ", ...pendingHit.types.map((t) =>
        el("button", { type: "button", class: "hint-choice", onclick: () => startType(t) }, LABEL[t] || t)));
    } else if (pendingHit && pendingHit.from && draft) {     // the store move, or the customers from here
      $("#map-hint").replaceChildren(mapHint() + " To move the customers of " + wardName(B.stations[pendingHit.from].ward) +
        " instead, tap the next station along the track, or ",
        el("button", { type: "button", class: "hint-choice", onclick: () => startType("move-customers") }, LABEL["move-customers"]));
    }
    const key = st.players.map((pl, i) => el("span", null,
      seatMark(pl, i), el("strong", null, pl.name), " " + colourName(pl.colour)));
    if (st.matsuri) key.push(el("span", null, "Matsuri 祭: " + wardName(st.matsuri)));
    $("#map-key").replaceChildren(...key);
    if (map) map.render(st, data.players, mapMarks());
    if (map && map.svg) {
      const f = focusPoint();
      if (f && f.key !== focusKey) { focusKey = f.key; map.focus(f.x, f.y); }
    }
  }
  /** The part of the map in play, where the map opens close up: the station or track chosen, the
   *  end of the path, the ward chosen; with nothing chosen yet, the ward the customers go to (placing
   *  them), the Matsuri's (moving it), the wards of the mover's hand (their actions). */
  let focusKey = null;
  function focusPoint() {
    const S = (sid) => map.stations[sid] ? { x: map.stations[sid].x, y: map.stations[sid].y } : null;
    const W = (w) => { const x = map.wards[w]; return x ? { x: x.spot[0] + x.spot[2] / 2, y: x.spot[1] + x.spot[3] / 2 } : null; };
    const keyed = (key, pt) => pt ? Object.assign(pt, { key }) : null;
    if (draft) {
      if (draft.station) return keyed("s:" + draft.station, S(draft.station));
      if (draft.path && draft.path.length) {     // the stations the customers can go on to: the next tap is one of them
        const end = draft.path[draft.path.length - 1], on = onward(draft.path).map(S).filter(Boolean);
        return keyed("p:" + end, on.length ? bestView(on, S(end)) : S(end));
      }
      const c = draft.second || draft.connection;
      if (c) {
        const x = map.connections[connId(c[0], c[1])];
        if (!x) return null;
        const at_ = { x: x.centre[0], y: x.centre[1] }, C = (id) => map.connections[id] ? { x: map.connections[id].centre[0], y: map.connections[id].centre[1] } : null;
        // the first segment chosen: the second one (if any) is a free slot at one of its ends
        const next = !draft.second && fieldsNow().some(([n]) => n === "second") ? nextConnections(draft.connection).map(C).filter(Boolean) : [];
        return keyed("c:" + connId(c[0], c[1]), next.length ? bestView(next, at_) : at_);
      }
      const from = ui["connection:from"] || ui["second:from"];
      if (from) return keyed("f:" + from, S(from));
      if (typeof draft.ward === "string") return keyed("w:" + draft.ward, W(draft.ward));
      if (typeof draft.card === "string" && draft.type !== "place-customers") return keyed("k:" + draft.card, W(draft.card));
    }
    const at = "@" + table.seq;
    if (st.phase === "matsuri" && st.matsuri) return keyed("m" + at, W(st.matsuri));
    if (st.phase === "place" && st.queue[0] && st.queue[0].card) return keyed("q" + at, W(st.queue[0].card));
    if (st.phase === "actions" || st.phase === "bonus") {
      const p = mover();
      // where the first tap of an action will be: the stations of the wards a card of the hand
      // (or a wild: the Matsuri's, a store's) plays at, and the mover's stores; the close-up shows
      // as many of them as it can at once
      const mine = Object.keys(st.stations || {}).filter((sid) => st.stations[sid].owner === p);
      // (named hands: no hand to read; the wards with customers waiting, where a move of them starts)
      const guess = namedHands() ? B.wards.filter((w) => (st.wards[w.id] || []).length).map((w) => w.id) : [];
      const wards = new Set((hand(p) || guess).concat(mine.map((sid) => B.stations[sid].ward), st.matsuri ? [st.matsuri] : []));
      const pts = Object.keys(B.stations).filter((sid) => wards.has(B.stations[sid].ward) || mine.includes(sid)).map(S).filter(Boolean);
      if (!pts.length) return null;
      return keyed("a" + at, bestView(pts));
    }
    return null;
  }
  /** The stations along built track from the end of `path` (no station twice): where the customers
   *  can go on to, a tap on any of them extends the path (one way) or asks for the next station. */
  function onward(path) {
    const seen = new Set(path), out = [], todo = [path[path.length - 1]];
    while (todo.length) {
      for (const [o, c] of B.stations[todo.pop()].links) {
        if (!(c in builtTracks()) || seen.has(o)) continue;
        seen.add(o); out.push(o); todo.push(o);
      }
    }
    return out;
  }
  /** The middle of the close-up view (the zoom the map opens at, every name >= 11 px) that shows the
   *  most of `pts` (map mm) at once, with `must` in it when given: the box of the points it shows. */
  function bestView(pts, must) {
    const v = map.closeView(44);
    if (!v) return pts[0];
    const [w, h] = v, all = must ? pts.concat([must]) : pts;
    let best = null, count = -1;
    for (const a of all) for (const b of all) {      // a window with a point on its left and its top edge
      const x0 = a.x, y0 = b.y;
      if (must && !(must.x >= x0 && must.x <= x0 + w && must.y >= y0 && must.y <= y0 + h)) continue;
      const inside = all.filter((q) => q.x >= x0 && q.x <= x0 + w && q.y >= y0 && q.y <= y0 + h);
      if (inside.length > count) { count = inside.length; best = inside; }
    }
    if (!best || !best.length) return must || pts[0];
    const xs = best.map((q) => q.x), ys = best.map((q) => q.y);
    return { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: (Math.min(...ys) + Math.max(...ys)) / 2 };
  }
  const say = (text) => tk.say("#msg", "info", text);

  /** The moves a map tap can start: a free station opens a store, the mover's sakura store is
   *  upgraded, a station of a ward with customers waiting starts their path, a track slot expands. */
  function typesFor(hit) {
    const offered = offeredTypes(), p = mover(), out = [];
    const sid = hit.onMarker || (hit.connection ? null : hit.station);
    if (sid) {
      const here = (st.stations || {})[sid];
      if (!here) out.push("open-store");
      else if (here.owner === p && here.kind === "store" && B.stations[sid].sakura) out.push("upgrade-store");
      if ((st.wards[B.stations[sid].ward] || []).length) out.push("move-customers");
    } else if (hit.connection && !(hit.connection in builtTracks())) out.push("expand-track");
    return out.filter((t) => offered.includes(t));
  }
  function mapTap(hit) {
    if (!st) return;
    if (!draft) {
      const types = typesFor(hit);
      pendingHit = null;
      if (types.length === 1) { draft = { type: types[0] }; ui = {}; render(); return mapTap(hit); }
      const sid = hit.onMarker || hit.station;
      const store = types.find((t) => t !== "move-customers");
      if (types.length === 2 && store && types.includes("move-customers")) {
        // A station of a ward with customers waiting: its store move first (the tap is on the
        // station); a next tap along built track from here moves the customers instead, so
        // neither move costs a "which move?" tap.
        draft = { type: store }; ui = {}; render(); mapTap(hit);
        if (draft && draft.type === store) { pendingHit = { hit, types, from: sid }; render(); }
        return;
      }
      if (types.length > 1) {
        pendingHit = { hit, types };
        render();
        say(types.map((t) => LABEL[t]).join(" or ") + "? Choose the move by the map: the tap is kept.");
        return;
      }
      say(CHOOSE + " first."); return;
    }
    if (pendingHit && pendingHit.from && hit.station && hit.station !== pendingHit.from
        && (pathNext([pendingHit.from]).includes(hit.station) || routesTo([pendingHit.from], hit.station, 2).length === 1)) {
      const from = pendingHit.from;           // along the track from the first tap: the customers move
      pendingHit = null; autoplay.cancel();
      draft = { type: "move-customers" }; ui = {}; render();
      tapPath("path", from); tapPath("path", hit.station);
      say("Moving the customers of " + wardName(B.stations[from].ward) + " from " + stName(from) + ".");
      return;
    }
    const fs = fieldsNow();
    const find = (kinds) => fs.find(([, kind]) => kinds.includes(kind));
    const stationF = find(["station"]), pathF = find(["path"]);
    const connF = fs.filter(([, kind]) => kind === "connection");
    const f = mapField();
    const wardF = f && ["ward", "card", "cards"].includes(f[1]) ? f : find(["ward", "card", "cards"]);
    tk.say("#msg", "info", "");
    // once the station is chosen, only a tap right on a station changes it: other taps pick the card
    const stationHit = stationF && (draft[stationF[0]] === undefined ? hit.station : hit.onStation);
    if (stationF && stationHit) return tapStation(stationF, stationHit);
    if (pathF && hit.station) return tapPath(pathF[0], hit.station);
    if (connF.length && hit.connection && !hit.onMarker && !ui[connTarget() + ":from"]) return tapConnection(hit.connection);
    if (connF.length && hit.onStation) return tapConnStation(hit.onStation);
    if (connF.length && hit.connection) return tapConnection(hit.connection);
    if (wardF && hit.ward) return tapWard(wardF, hit.ward);
    if (stationF || pathF) say("Tap on a station.");
    else if (connF.length) say("Tap on a track slot between two stations.");
    else say("Nothing on the map to tap for " + (LABEL[draft.type] || draft.type) + ": use the buttons.");
  }
  function tapStation([name, , opt], sid) {
    const here = (st.stations || {})[sid];
    if (!stationChoices(opt).includes(sid)) {
      if (opt.free) say(stName(sid) + " already has " + (here && here.kind === "store" ? "a store" : "a department store") + ".");
      else if (!B.stations[sid].sakura) say(stName(sid) + " is not a sakura station: only those can be upgraded.");
      else if (here && here.kind !== "store") say(stName(sid) + " is a department store already.");
      else say("Upgrade one of " + data.players[opt.mine] + "'s own stores.");
      return;
    }
    ui[name + ":ward"] = B.stations[sid].ward;
    set(name, draft[name] === sid ? undefined : sid);
  }
  function tapPath(name, sid) {
    const path = draft[name] || [];
    const ward = B.stations[sid].ward;
    if (!path.length) {
      if (!(st.wards[ward] || []).length) { say("No customers wait in " + wardName(ward) + "."); return; }
      ui.pathWard = ward;
      set(name, [sid]);
      return;
    }
    const at = path.indexOf(sid);
    if (at === path.length - 1) { set(name, path.length > 1 ? path.slice(0, -1) : undefined); return; }
    if (at >= 0) { set(name, path.slice(0, at + 1)); return; }
    if (!pathNext(path).includes(sid)) {
      // a station further along: the customers follow the built track there when there is one way
      const routes = routesTo(path, sid, 2);
      if (routes.length === 1) { set(name, path.concat(routes[0])); return; }
      say(routes.length ? "More than one way along the track to " + stName(sid) + ": tap the next station first."
                        : "No built track from " + stName(path[path.length - 1]) + " to " + stName(sid) + ".");
      return;
    }
    set(name, path.concat([sid]));
  }
  /** The ways along built track from the end of `path` to `to` that visit no station twice (at most
   *  `most` of them; each the stations after the end of the path). */
  function routesTo(path, to, most) {
    const found = [];
    const walk = (at, seen, route) => {
      if (found.length >= most || route.length > 12) return;
      for (const [o, c] of B.stations[at].links) {
        if (!(c in builtTracks()) || seen.has(o)) continue;
        if (o === to) { found.push(route.concat([o])); if (found.length >= most) return; continue; }
        seen.add(o); walk(o, seen, route.concat([o])); seen.delete(o);
      }
    };
    walk(path[path.length - 1], new Set(path), []);
    return found;
  }
  function connTarget() {
    if (!draft.connection) return "connection";
    if (fieldsNow().some(([n]) => n === "second") && !draft.second) return "second";
    return null;
  }
  function tapConnStation(sid) {
    const name = connTarget();
    if (!name) { say("Both segments are chosen: tap one to take it back, or Clear."); return; }
    const from = ui[name + ":from"];
    if (!from || from === sid) { ui[name + ":from"] = from === sid ? null : sid; render(); return; }
    const link_ = B.stations[from].links.find(([o]) => o === sid);
    if (!link_) { ui[name + ":from"] = sid; say(stName(from) + " and " + stName(sid) + " are not neighbours: starting again from " + stName(sid) + "."); render(); return; }
    if (link_[1] in builtTracks()) { say(stName(from) + "–" + stName(sid) + " is already built."); return; }
    ui[name + ":from"] = null;
    set(name, [from, sid]);
  }
  function tapConnection(cid) {
    const ends = B.connections[cid];
    const first = draft.connection && connId(...draft.connection);
    const second = draft.second && connId(...draft.second);
    ui["connection:from"] = ui["second:from"] = null;
    if (cid === first) { delete draft.second; set("connection", undefined); return; }
    if (cid === second) { set("second", undefined); return; }
    if (cid in builtTracks()) { say(stName(ends[0]) + "–" + stName(ends[1]) + " is already built."); return; }
    const name = connTarget();
    if (name === "second" && !nextConnections(draft.connection).includes(cid)) {
      delete draft.second; set("connection", ends.slice()); return;   // not next to the first: a new first
    }
    if (!name) { say("Both segments are chosen: tap one to take it back, or Clear."); return; }
    set(name, ends.slice());
  }
  function tapWard([name, kind, opt], ward) {
    if (kind === "cards") {
      const list = draft[name] || [];
      if (list.length >= opt.count) { say("All " + tk.count(opt.count, "card") + " are entered: remove one to change it."); return; }
      set(name, list.concat([ward]));
      return;
    }
    if (kind === "ward" && opt.choices && !opt.choices.includes(ward)) {
      say(draft.type === "move-matsuri" ? "The Matsuri moves to a neighbouring ward: " + opt.choices.map(wardName).join(", ") + "."
                                        : wardName(ward) + " cannot be chosen here.");
      return;
    }
    if (kind === "card") {
      const h = hand(draft.player);
      if (h && !h.includes(ward)) { say("No " + wardName(ward) + " card in " + data.players[draft.player] + "'s hand."); return; }
      ui[name + ":three"] = false; ui[name + ":picked"] = [];
    }
    set(name, draft[name] === ward ? undefined : ward);
  }

  // ---------- overview ----------
  function renderOverview() {
    const rows = [];
    rows.push(el("p", null, el("strong", null, "Matsuri: "), st.matsuri ? wardName(st.matsuri) : "not placed yet"));
    rows.push(el("p", null, el("strong", null, "Queue ①→④: "), st.queue.map((q, i) =>
      "①②③④"[i] + " " + (q.card ? wardName(q.card) : "—") + (q.customers.length ? " (" + q.customers.map(tokenLabel).join(", ") + ")" : "")).join(" · ")));
    const waiting = B.wards.filter((w) => st.wards[w.id] && st.wards[w.id].length);
    rows.push(el("p", null, el("strong", null, "Customers waiting: "), waiting.length ? waiting.map((w) => w.name + " (" + st.wards[w.id].map(tokenLabel).join(", ") + ")").join("; ") : "none"));
    rows.push(el("ul", { class: "list" }, st.players.map((pl, i) => el("li", null,
      seatMark(pl, i), el("strong", null, pl.name),
      " — " + tk.count(pl.customers.reduce((n, t) => n + tokenKind(t)[1], 0), "customer") + ", " +
      tk.count((pl.bonus_tokens || []).length, "bonus token") + ", " + tk.count(pl.track, "track piece") + " left, " +
      (pl.hand ? "hand: " + (pl.hand.map(wardName).join(", ") || "empty") : (pl.hand_size !== undefined ? tk.count(pl.hand_size, "card") : ""))))));
    const stores = Object.entries(st.stations || {});
    rows.push(el("p", null, el("strong", null, "Stores: "), stores.length ? stores.map(([sid, s]) =>
      stName(sid) + " (" + data.players[s.owner] + ", " + (s.kind === "store" ? goodsName(s.goods) : "department store") + ")").join("; ") : "none yet"));
    $("#overview").replaceChildren(el("div", { class: "card" }, rows));
  }

  tk.clock.sync(3).then(() => link.start());
  window.tkTable = link;
})();
