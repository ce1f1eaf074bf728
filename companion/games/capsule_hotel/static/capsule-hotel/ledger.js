/* Tokyo Capsule Hotel: the live ledger and purchase queue of one table (the board twin page).
 * Every phone sees the same queue, the count on its head (the game's timer "count": the pinned bar
 * shows it large; this page says who counts on whom), the round expenses against the purchase limit,
 * the open barters, the income per lot and hotel, and every player's ledger. The head of the queue
 * declares which purchase in one tap (the count stops: "devi dichiarare prontamente quale singolo
 * Acquisto"), then completes it without the clock; a player waiting in the queue prepares the
 * purchase beforehand (kept for this tab in sessionStorage), so at the head one tap declares it and
 * the form is filled. The call (#declare-box) and the count (#count) carry data-pin: the pinned bar
 * shows them. The game screen (issue 23): this phone's holdings in two lines at the top (#mine); once
 * declared, every purchase of that kind is one button with its price (#purchase-options, data-move),
 * so a purchase is two taps (three with joining the queue); Pass and the golden-rule penalty ask on the
 * page (never a native dialog); the income is paid once every die is in, and the host changes one
 * entered die alone. Moves go through tk.TableLink; the engine's reasons are shown when it refuses. Move
 * format: companion/games/capsule_hotel/rules/__init__.py. */
(function () {
  "use strict";
  const { el, $, $$ } = tk;
  const data = tk.pageData(), { board: B, code } = data;
  const yen = (n) => (n < 0 ? "−" : "") + Math.abs(n).toLocaleString("en-US") + " ¥";
  const colour = (id) => B.colours.find((c) => c.id === id) || { id, name: id, hex: "#ccc" };
  const building = (id) => B.buildings.find((b) => b.id === id) || { id, name: id, faces: [] };
  const swatch = (id) => el("span", { class: "ch-sw", style: "background:" + colour(id).hex, "aria-hidden": "true" });

  let table = null, st = null, acting = null;

  const link = new tk.TableLink(code, {
    table(t) {
      table = t; st = t.state;
      renderSeat();
      tk.renderResult($("#result"), t, link);
      render();
    },
  });

  // ---------- who am I ----------
  const me = () => tk.me(code);
  const host = () => tk.isHost(code);
  function who() {                     // the seat this phone moves for
    const m = me();
    if (m !== null && m >= 0) return m;
    if (host()) return acting === null ? 0 : acting;
    return null;
  }
  function renderSeat() {
    tk.renderSeat(link, data.game, data.players, (text) => say("bad", text), renderSeat);
    const m = me(), h = host();
    const act = $("#acting");
    act.hidden = !(h && (m === null || m < 0));
    const sel = $("#acting-as");
    if (!act.hidden && sel.options.length !== data.players.length) {
      sel.replaceChildren(...data.players.map((n, i) => el("option", { value: String(i) }, n)));
      sel.onchange = () => { acting = parseInt(sel.value, 10); render(); };
    }
  }
  renderSeat();

  function say(kind, text, reasons) { tk.say("#msg", kind, text, reasons); }

  async function send(move) {
    const r = await link.send("/moves", { move });
    if (!r.ok) say("bad", (r.body && r.body.error) || tk.explain(r), r.body && r.body.reasons);
    else say("ok", "");
    return r;
  }

  // ---------- rendering ----------
  const name = (p) => (st && st.players[p] ? st.players[p].name : "?");

  function render() {
    if (!st) return;
    const w = who();
    const phase = st.phase;
    const prompts = {
      loans: "Round 1 · Loans: everyone chooses a loan, in secret.",
      purchase: st.queue.length ? (st.declared && st.declared.player === st.queue[0]
        ? name(st.queue[0]) + " completes the purchase: " + kindName(st.declared.item) + "."
        : name(st.queue[0]) + " declares a purchase (head of the queue).") :
        (st.limit_reached ? "The purchase limit is reached: finish the open barters." : "Join the queue, barter or pass."),
      income: "Income: " + (st.options.dice === "companion" ? "the companion rolled the bonus dice." : "enter the bonus dice, then pay."),
      over: "The game is over" + (st.ended ? ": " + st.ended.why + "." : "."),
    };
    // the title: the round and phase (the line under it, at_table.js's, says who acts: the needs' prompt)
    const titles = { loans: "Loans", purchase: "Purchase and barter", income: "Income" };
    $("#prompt").textContent = phase === "over" || !titles[phase] ? prompts[phase] || phase
      : "Round " + st.round + " of " + B.rounds + " · " + titles[phase];
    $("#prompt").dataset.says = prompts[phase] || "";
    $("#roundinfo").textContent = st.options.outside_money ? "Outside money: hold what the ledger says." : "";
    $("#roundinfo").hidden = !st.options.outside_money;
    // the loans phase from round 2: nobody chooses, the end is checked (each player's yen vs debt)
    const lc = st.loans_check, check = $("#loans-check");
    check.hidden = !(lc && lc.round === st.round);
    if (!check.hidden) {
      check.textContent = "Loans phase of round " + lc.round + ": " +
        (lc.can_repay.length ? lc.can_repay.map(name).join(" and ") + " can repay: the game ends."
          : "nobody can repay their debt yet, the round goes on.") + " " +
        lc.players.map((r) => name(r.seat) + " " + yen(r.yen) + " of " + yen(r.debt)).join(" · ");
    }
    const bar = $("#limitbar");
    bar.hidden = phase !== "purchase";
    if (!bar.hidden) {
      const pct = Math.min(100, Math.round(100 * st.expenses / st.limit));
      bar.querySelector(".ch-limit-fill").style.width = pct + "%";
      bar.classList.toggle("full", st.limit_reached);
      bar.querySelector(".ch-limit-text").textContent = "Spent " + yen(st.expenses) + " of the limit " + yen(st.limit) + (st.limit_reached ? " · reached" : "");
    }
    renderMine(w);
    renderLoans(w);
    renderDeclare(w);
    tick();
    renderQueue(w);
    renderPurchase(w);
    renderBarter(w);
    renderIncome();
    renderLedgers(w);
    renderFranchises();
    renderMap();
    renderCorrections();
  }

  // ---------- what this phone's player holds (two lines at the top) ----------
  function renderMine(w) {
    const box = $("#mine");
    box.hidden = w === null || !st.players[w] || st.phase === "loans";
    if (box.hidden) return;
    const p = st.players[w];
    const interest = p.loan ? p.loan * B.interest_percent / 100 : 0;
    const lands = Object.keys(st.lands).filter((l) => st.lands[l].owner === w);
    const caps = Object.entries(p.capsules);
    box.replaceChildren(
      el("p", { class: "ch-mine-money" }, el("strong", null, (me() === w ? "You, " : "") + p.name + ": "),
        el("strong", { class: "ch-mine-yen" }, yen(p.yen)),
        " · " + tk.count(p.coupons, "coupon") + (p.loan ? " · debt " + yen(p.loan + interest * st.round) : "")),
      el("p", { class: "small ch-mine-things" },
        caps.length ? caps.map(([c, n]) => el("span", { class: "ch-mine-cap" }, swatch(c), n + " " + colour(c).name)) : el("span", null, "No capsules"),
        el("span", null, " · " + (lands.length ? "land " + lands.join(", ") : "no land"))));
  }

  // ---------- corrections (entries of the table, any phone) ----------
  const corr = { player: 0, yen: 0, coupons: 0, note: "" };
  // A player's holdings change only by their own phone or the host's: a seat's phone corrects its
  // own ledger and enters the penalty only on its own hotel that breaks the golden rule in the
  // record; the host corrects anyone and may rule the penalty on any hotel.
  function renderCorrections() {
    const box = $("#correction-form");
    if (st.phase === "over") { $("#corrections").hidden = true; return; }
    const mine = host() ? null : me();
    if (mine !== null && mine >= 0) corr.player = mine;
    if (box.dataset.built !== String(table.seq)) {
      box.dataset.built = String(table.seq);
      const note = el("input", { type: "text", value: corr.note, placeholder: "why (shown in the ledger)" });
      note.oninput = () => { corr.note = note.value; };
      const num = (key) => { const i = el("input", { type: "number", inputmode: "numeric", value: String(corr[key]) }); i.onchange = () => { corr[key] = parseInt(i.value, 10) || 0; }; return i; };
      const who = el("select", { disabled: mine !== null && mine >= 0 ? "" : null },
        st.players.map((p, i) => el("option", { value: String(i), selected: i === corr.player ? "" : null }, p.name)));
      who.onchange = () => { corr.player = parseInt(who.value, 10); };
      box.replaceChildren(field("Player", who),
        mine !== null && mine >= 0 ? el("p", { class: "small muted" }, "Your own ledger only; the host's phone corrects anyone's. A balance never goes below 0.") : "", field("Yen (negative: taken)", num("yen")), field("Coupons (negative: taken)", num("coupons")),
        field("Note", note), el("button", { type: "button", class: "secondary", onclick: async () => {
          const r = await send({ type: "correction", player: corr.player, yen: corr.yen, coupons: corr.coupons, note: corr.note });
          if (r.ok) { corr.yen = 0; corr.coupons = 0; corr.note = ""; box.dataset.built = ""; }
        } }, "Record the correction"));
    }
    const broken = (h) => {
      const land = st.lands[h.land] || {};
      return (st.hotels || []).filter((x) => x.land === h.land).length > (land.vending || 0) + (land.cemeteries || 0);
    };
    const owner = (h) => (st.lands[h.land] ? st.lands[h.land].owner : null);
    const hs = (st.hotels || []).filter((h) => !h.withheld &&
      (mine === null || mine < 0 || (owner(h) === mine && broken(h))));
    $("#penalties").replaceChildren(el("h3", null, "Golden rule broken"),
      el("p", { class: "small muted" }, "A hotel that should not have been built: its owner pays " + yen(B.penalty) + " per capsule per income phase since it was built, and it earns nothing until a vending machine or cemetery is added to its land."),
      ...(hs.length ? hs.map((h) => el("div", { class: "row" }, el("span", { class: "grow" }, swatch(h.colour), h.id + " on " + h.land + " (" + tk.count(h.capsules, colour(h.colour).name + " capsule") + ")"),
        // no native confirm: the penalty asks on the page
        penaltyAsk === h.id
          ? el("span", { class: "row", role: "group", "aria-label": "Record the golden rule penalty for " + h.id + "?" },
            el("button", { type: "button", class: "danger", "data-penalty-yes": h.id, onclick: async () => { penaltyAsk = null; await send({ type: "golden-rule-penalty", hotel: h.id }); renderCorrections(); } }, "Record the penalty"),
            el("button", { type: "button", class: "secondary", onclick: () => { penaltyAsk = null; renderCorrections(); } }, "Cancel"))
          : el("button", { type: "button", class: "secondary", "data-penalty": h.id, onclick: () => { penaltyAsk = h.id; renderCorrections(); } }, "Penalty")))
        : [el("p", { class: "small muted" }, mine === null || mine < 0 || !(st.hotels || []).length ? "No hotel yet."
          : "None of your hotels breaks the golden rule in the record; the host's phone may rule a penalty on any hotel.")]));
  }

  let penaltyAsk = null;         // the hotel whose penalty waits for its confirmation on this phone

  // Round 1's loans: who has sealed is sealed.js's line on every phone ("Aki sealed ✓ · Ben
  // choosing…", from the table's "sealed"); this phone's own sealed amount stays shown with a Change
  // until the reveal (withdraw-loan: the choice is taken back, the amounts are offered again). The
  // reveal is sealed.js's banner, on every phone until dismissed.
  async function changeLoan(w) {
    let r = await send({ type: "withdraw-loan", player: w });
    // another seat sealed meanwhile (the table moved on): still before the reveal, so send it again
    if (r.status === 409 && st.phase === "loans" && (st.loan_choices || {})[String(w)] !== undefined) {
      r = await send({ type: "withdraw-loan", player: w });
    }
    return r;
  }
  function renderLoans(w) {
    const sec = $("#loans");
    sec.hidden = st.phase !== "loans";
    if (sec.hidden) return;
    const chosen = st.loan_choices || {};
    const amount = w === null ? undefined : chosen[String(w)];
    const mine = amount !== undefined;
    const buttons = $("#loan-buttons");
    buttons.hidden = mine;
    buttons.replaceChildren(...B.loans.map((o) => el("button", {
      type: "button", disabled: w === null, class: "secondary",
      onclick: () => send({ type: "choose-loan", player: w, amount: o.amount }),
    }, yen(o.amount), el("br"), el("span", { class: "small" }, yen(o.interest) + " a round" + (o.coupons ? " · +" + tk.count(o.coupons, "coupon") : "")))));
    const box = $("#loan-mine");
    box.hidden = !mine;
    if (mine) {
      box.replaceChildren(
        el("span", { class: "ch-loan-mine-text" }, (me() === w ? "Your loan: " : name(w) + "'s loan: "),
          el("strong", null, typeof amount === "number" ? yen(amount) : "sealed"), " · sealed until everyone has chosen"),
        el("button", { type: "button", class: "secondary", id: "loan-change", onclick: () => changeLoan(w) }, "Change"));
    }
    $("#loan-status").textContent = w === null ? "" : mine ? "" : "Tap an amount: nobody sees it until everyone has chosen.";
  }

  // the count: the game's own timer, counted down from the server's deadline
  function countTimer() { return table && (table.timers || []).find((x) => x.name === "count" && x.owner === "game"); }
  // Who counts on whom, in words: the number is the pinned bar's (it draws every running timer);
  // a page without the bar shows it here.
  function tick() {
    const t = countTimer();
    const box = $("#count");
    const c = st && st.phase === "purchase" ? st.count : null;
    const w = who();
    if (c && t && t.status === "running") {
      const left = Math.max(0, t.deadline_ms - tk.clock.now());
      const n = tk.pinned ? "" : " " + (left > 0 ? Math.ceil(left / 1000) + "…" : "0!");
      box.hidden = w !== null && c.head === w;          // the head's own call says it (#declare-box)
      setText(box, name(c.by) + " counts on " + name(c.head) + ":" + n + (n ? "" : " " + name(c.head) + " must declare a purchase."));
      box.dataset.remaining = String(left);
      if (!$("#declare-box").hidden) setText($("#declare-say"), name(c.by) + " is counting: declare now!" + n);
    } else {
      box.hidden = true;
      setText(box, "");
    }
  }
  function setText(node, text) { if (node.textContent !== text) node.textContent = text; }
  setInterval(tick, 100);      // not requestAnimationFrame: a phone in the background still counts

  /** The heights a hotel may have (the rules' engine.allowed_floors): no more floors than capsules on
   * the ground floor, so f floors take 2f - 1 capsules; a pink hotel of pink_tower_min or more may be a
   * single stack as tall as its capsules; on a Coin Laundry (the ground floor) 1 to its capsules. */
  function allowedFloors(colour, caps, laundry) {
    const out = [];
    const top = laundry ? caps : Math.floor((caps + 1) / 2);
    for (let f = 1; f <= Math.max(1, top); f++) out.push(f);
    if (!laundry && colour === "pink" && caps >= B.pink_tower_min && caps > top) out.push(caps);
    return out;
  }
  function floorsWords(h) {
    let run = h.slice(); const tail = [];
    while (run.length > 1 && run[run.length - 1] !== run[run.length - 2] + 1) tail.unshift(run.pop());
    return (run.length > 1 ? "1 to " + run[run.length - 1] : String(run[0])) + tail.map((t) => ", or " + t).join("");
  }

  function renderQueue(w) {
    const sec = $("#queue-section");
    sec.hidden = st.phase !== "purchase";
    if (sec.hidden) return;
    $("#queue").replaceChildren(...(st.queue.length ? st.queue.map((p, i) => el("li", { class: i === 0 ? "head" : "" },
      el("span", null, el("span", { class: "ch-seal", "aria-hidden": "true" }, String(i + 1)), name(p), " · " + yen(st.players[p].yen)),
      el("span", { class: "small" }, i === 0 ? (st.declared && st.declared.player === p ? "completing: " + kindName(st.declared.item)
        : st.count ? name(st.count.by) + " counts" : "to declare") : "waiting")))
      : [el("li", { class: "muted" }, "No seal in the queue.")]));
    const others = st.players.map((p, i) => ({ p, i })).filter((x) => !st.queue.includes(x.i));
    // a seal out of the queue: in front of its player (who may join again) or on its Pass side
    const out = (x) => x.p.name + (x.p.seal === "pass" ? " (passed)" : st.limit_reached ? "" : " (can join)");
    if (others.length) $("#queue").append(el("li", { class: "small ch-out" }, "Not in the queue: " + others.map(out).join(" · ")));
    const acts = [];
    if (w !== null && st.players[w].seal !== "pass") {
      const pl = st.players[w];
      if (st.queue.includes(w)) acts.push(el("button", { type: "button", class: "secondary", onclick: () => send({ type: "leave-queue", player: w }) }, "Leave the queue"));
      else if (!st.limit_reached) acts.push(el("button", { type: "button", id: "join", onclick: () => send({ type: "join-queue", player: w }) }, "Join the queue"));
      if (st.queue.length && st.queue[0] !== w && !st.count && !st.declared) {
        const head = st.queue[0];
        acts.push(el("button", { type: "button", id: "start-count", onclick: () => send({ type: "start-count", player: w, head }) },
          "Count " + (st.options.declare_seconds || 5) + " s on " + name(head)));
      }
      // no native confirm: Pass asks on the page, Yes or Keep playing (in the head's call while it shows)
      if ($("#declare-box").hidden) acts.push(passButton(w));
      void pl;
    }
    if (passAsk !== null && (passAsk !== w || w === null || st.players[w].seal === "pass")) passAsk = null;
    if (passAsk !== null && $("#declare-box").hidden) {
      $("#queue-actions").replaceChildren(passAskBox(w));
      return;
    }
    $("#queue-actions").replaceChildren(...acts);
  }
  let passAsk = null;            // the seat whose Pass waits for its Yes on this phone
  function passButton(w) {
    return el("button", { type: "button", class: "secondary", id: "pass", onclick: () => { passAsk = w; render(); } }, "Pass");
  }
  function passAskBox(w) {
    return el("div", { class: "ch-ask", role: "group", "aria-labelledby": "pass-q" },
      el("p", { id: "pass-q" }, "Pass for the rest of round " + st.round + "? You cannot purchase again this round."),
      el("div", { class: "row" },
        el("button", { type: "button", id: "pass-yes", class: "danger", onclick: async () => {
          passAsk = null; const r = await send({ type: "pass", player: w }); if (!r.ok) render(); } }, "Yes, pass"),
        el("button", { type: "button", id: "pass-no", class: "secondary", onclick: () => { passAsk = null; render(); } }, "Keep playing")));
  }

  // ---------- declare, then complete ----------
  const KINDS = [["lot", "Lot"], ["capsules", "Capsules"], ["vending-machine", "Vending machine"],
    ["cemetery", "Cemetery (you gain 200)"], ["entrance", "Entrance + hotel"], ["building", "Building"]];
  const kindName = (k) => (KINDS.find((x) => x[0] === k) || [k, k])[1];
  // the purchase being prepared or completed: {item, …its fields, prepared: touched by the player}
  let draft = { item: "capsules" };
  let draftOf = null;                    // the seat whose draft it is (a host phone switches seats)
  const draftKey = (w) => "tk.ch.draft." + code + "." + w;
  function loadDraft(w) {
    if (draftOf === w) return;
    draftOf = w;
    try { draft = JSON.parse(sessionStorage.getItem(draftKey(w)) || "null") || { item: "capsules" }; }
    catch (e) { draft = { item: "capsules" }; }
  }
  function saveDraft() {
    try { sessionStorage.setItem(draftKey(draftOf), JSON.stringify(draft)); } catch (e) { /* private mode */ }
  }
  function clearDraft() {
    draft = { item: "capsules" };
    try { sessionStorage.removeItem(draftKey(draftOf)); } catch (e) { /* private mode */ }
  }
  const set = (key) => (v) => { draft[key] = v; draft.prepared = true; saveDraft(); };

  let declaring = false;
  async function declare(w, kind) {
    if (declaring) return;
    declaring = true;
    if (draft.item !== kind) { draft = { item: kind }; }
    draft.prepared = true;
    saveDraft();
    $$("#declare-buttons button").forEach((b) => { b.disabled = true; });
    try {
      const r = await send({ type: "declare", player: w, item: kind });
      if (r.ok) {       // the count is over: the form to complete, its button in view
        setTimeout(() => { const o = $("#purchase-options"); if (!$("#purchase").hidden && !o.hidden) o.scrollIntoView({ block: "nearest" }); }, 50);
      }
    }
    finally { declaring = false; $$("#declare-buttons button").forEach((b) => { b.disabled = false; }); }
  }

  // The head's call: one tap declares (the prepared kind first); the count stops.
  function renderDeclare(w) {
    const box = $("#declare-box");
    const head = st.phase === "purchase" && st.queue.length ? st.queue[0] : null;
    box.hidden = !(w !== null && head === w && !st.declared);
    // hidden, it holds nothing (its Pass would be a second #pass beside the queue's)
    if (box.hidden) { box.dataset.built = ""; $("#declare-buttons").replaceChildren(); return; }
    loadDraft(w);
    // what the purchase is paid with, in the call itself (it stays on the screen, pinned at the top)
    const pl = st.players[w];
    if (!st.count) setText($("#declare-say"), "Your turn: declare a purchase. You have " + yen(pl.yen) +
      (pl.coupons ? " + " + tk.count(pl.coupons, "coupon") : "") + ".");
    const asking = passAsk === w && st.players[w].seal !== "pass";
    const built = [w, draft.prepared ? draft.item : "", KINDS.map(([k]) => kindPossible(w, k) ? 1 : 0).join(""), asking].join(":");
    if (box.dataset.built === built) return;             // the same buttons: a tap in progress stays
    box.dataset.built = built;
    if (asking) { $("#declare-buttons").replaceChildren(passAskBox(w)); return; }
    const kinds = draft.prepared ? KINDS.filter(([k]) => k !== draft.item) : KINDS;
    const short = (k) => kindName(k).replace(/ \(.*\)$/, "");
    $("#declare-buttons").replaceChildren(...[
      draft.prepared ? el("button", { type: "button", id: "declare", class: "wide ch-declare-main",
                                      onclick: () => declare(w, draft.item) }, "I declare: " + short(draft.item)) : null,
      el("div", { class: "ch-kinds-head" }, el("p", { class: "small ch-kinds-label" }, draft.prepared ? "or declare another kind:" : "I declare:"),
        passButton(w)),
      el("div", { class: "ch-kinds" }, kinds.map(([k]) =>
        el("button", { type: "button", class: draft.prepared ? "secondary" : "", "data-kind": k,
                       disabled: kindPossible(w, k) ? null : "", title: kindPossible(w, k) ? null : "Nothing of this kind to buy now",
                       "aria-label": "I declare: " + short(k), onclick: () => declare(w, k) }, short(k))))].filter(Boolean));
  }

  // ---------- purchase ----------
  function field(label, input) { return el("label", { class: "ch-field" }, el("span", { class: "small" }, label), input); }
  function select(options, value, onchange) {
    const s = el("select", null, options.map(([v, t]) => el("option", { value: v, selected: String(value) === String(v) ? "" : null }, t)));
    s.onchange = () => { onchange(s.value); renderPurchase(who()); };
    return s;
  }
  function number(value, min, max, onchange) {
    const i = el("input", { type: "number", inputmode: "numeric", min: String(min), max: String(max), value: String(value) });
    i.onchange = () => { onchange(parseInt(i.value, 10) || 0); renderPurchase(who()); };
    return i;
  }
  function lands(p) { return Object.keys(st.lands).filter((l) => st.lands[l].owner === p); }
  function lots() { return Object.keys(st.lands).filter((l) => st.lands[l].parent === null); }

  // A prepared purchase may outlive what it names (a land bartered away, a colour sold out): each
  // choice falls back to what its field then shows first, so the form and the move always agree.
  function fit(w) {
    const pl = st.players[w];
    const left = B.colours.filter((c) => st.supply.capsules[c.id] > 0).map((c) => c.id);
    if (!left.includes(draft.colour)) draft.colour = left[0];
    if (!lands(w).includes(draft.land)) draft.land = lands(w)[0];
    const bs = B.buildings.filter((b) => st.supply.buildings[b.id] > 0).map((b) => b.id);
    if (!bs.includes(draft.building)) draft.building = bs[0];
    if (!Object.prototype.hasOwnProperty.call(pl.capsules, draft.hcolour)) draft.hcolour = Object.keys(pl.capsules)[0];
    if (draft.adjoins) draft.adjoins = draft.adjoins.filter((l) => lots().includes(l));
    if (draft.coupons > pl.coupons) draft.coupons = pl.coupons;
  }
  function purchaseMove(w) {
    fit(w);
    const m = { type: "purchase", player: w, item: draft.item };
    if (draft.coupons) m.coupons = draft.coupons;
    if (draft.item === "lot") { m.board = draft.board || B.lot_boards[0].id; m.adjoins = (draft.adjoins && draft.adjoins.length) ? draft.adjoins.slice() : [lots()[0]]; }
    if (draft.item === "capsules") { m.colour = draft.colour || "pink"; if (m.colour === "pink") m.count = draft.count || 1; }
    if (["vending-machine", "cemetery", "entrance", "building"].includes(draft.item)) m.land = draft.land || lands(w)[0];
    if (draft.item === "entrance" || (draft.item === "building" && building(draft.building || "coin-laundry").laundry && draft.capsules)) {
      const caps = st.players[w].capsules;
      m.colour = draft.hcolour || Object.keys(caps)[0];
      m.capsules = draft.capsules || (caps[m.colour] || 1);
      if (st.options.tallest_hotel) m.floors = draft.floors || 1;
    }
    if (draft.item === "building") {
      m.building = draft.building || B.buildings[0].id;
      const b = building(m.building);
      if (b.card && st.options.attraction_cards === "buyer-chooses" && !st.cards[b.card]) m.side = draft.side || "A";
    }
    return m;
  }
  function priceOf(m) {
    if (m.item === "lot") return (B.lot_boards.find((b) => b.id === m.board) || {}).price;
    if (m.item === "capsules") return m.colour === "pink" ? B.prices.pink_first + B.prices.pink_each * ((m.count || 1) - 1) : colour(m.colour).price;
    if (m.item === "vending-machine") return B.prices.vending;
    if (m.item === "cemetery") return B.prices.cemetery;
    if (m.item === "entrance") return B.prices.entrance;
    if (m.item === "building") return building(m.building).cost;
    return 0;
  }

  // ---------- the purchases of the declared kind, one button each ----------
  // Each button is a whole purchase (data-move: the move without type and player): one tap completes
  // it. Coupons pay only when the yen alone do not (then as many as the price takes, as the rules'
  // own samples do). The lot's neighbours, the building's land and attraction side and the number of
  // pink capsules are chips above the buttons, preset to the likely choice.
  const opt = { key: null };
  function payable(price, pl) {
    if (price <= pl.yen) return { ok: true, coupons: 0 };
    const c = Math.min(pl.coupons, Math.floor(Math.max(price, 0) / B.prices.coupon));
    return { ok: price - c * B.prices.coupon <= pl.yen, coupons: c };
  }
  function ownLots(w) { return lots().filter((l) => st.lands[l].owner === w); }
  function kindPossible(w, k) {
    const pl = st.players[w];
    if (k === "lot") return lots().length > 0 && B.lot_boards.some((b) => payable(b.price, pl).ok);
    if (k === "capsules") return B.colours.some((c) => st.supply.capsules[c.id] > 0 && payable(c.price || B.prices.pink_first, pl).ok);
    if (!lands(w).length) return false;
    if (k === "vending-machine") return st.supply.vending > 0 && payable(B.prices.vending, pl).ok;
    if (k === "entrance") return Object.keys(pl.capsules).length > 0 && st.supply.entrances > 0 && payable(B.prices.entrance, pl).ok;
    if (k === "building") return B.buildings.some((b) => st.supply.buildings[b.id] > 0 && payable(b.cost, pl).ok);
    return true;
  }
  function chips(label, key, values, pressed, onpick) {
    return el("div", { class: "ch-chips", role: "group", "aria-label": label }, el("span", { class: "small" }, label),
      values.map(([v, text]) => el("button", { type: "button", class: "secondary", "data-opt": key, "data-val": v,
        "aria-pressed": pressed(v) ? "true" : "false", onclick: () => { onpick(v); renderPurchase(who()); } }, text)));
  }
  function renderOptions(w, kind) {
    const box = $("#purchase-options");
    const pl = st.players[w];
    const key = [st.round, w, kind, st.entries.length].join(":");
    if (opt.key !== key) {            // a new declaration: the likely choices
      const own = ownLots(w);
      Object.assign(opt, { key, pink: 3, side: "A", adjoins: [own.length ? own[own.length - 1] : lots()[lots().length - 1]],
        land: lands(w)[lands(w).length - 1] });
    }
    if (!lands(w).includes(opt.land)) opt.land = lands(w)[lands(w).length - 1];
    const rows = [];                    // the chips above the buttons
    const after = [];                   // and below them
    const buttons = [];
    const offer = (m, text, price, sub) => {
      const pay = payable(price, pl);
      if (pay.coupons) m.coupons = pay.coupons;
      buttons.push(el("button", { type: "button", class: "ch-buy", "data-move": JSON.stringify(m), disabled: pay.ok ? null : "",
        onclick: async (ev) => {
          const b = ev.currentTarget; b.disabled = true;
          try { const r = await send(Object.assign({ type: "purchase", player: w }, m)); if (r.ok) { clearDraft(); $("#purchase").dataset.built = ""; } }
          finally { b.disabled = false; }
        } },
        el("span", { class: "ch-buy-what" }, text),
        el("span", { class: "ch-buy-price" }, (price < 0 ? "you gain " + yen(-price) : yen(price)) +
          (pay.coupons ? " (" + tk.count(pay.coupons, "coupon") + ")" : "") + (pay.ok ? "" : " · too dear") + (sub ? " · " + sub : ""))));
    };
    if (kind === "lot") {
      rows.push(chips("Beside", "adjoins", lots().map((l) => [l, l]), (v) => opt.adjoins.includes(v), (v) => {
        const on = opt.adjoins.includes(v);
        if (on && opt.adjoins.length > 1) opt.adjoins = opt.adjoins.filter((x) => x !== v);
        else if (!on) opt.adjoins = lots().filter((x) => x === v || opt.adjoins.includes(x));
      }));
      B.lot_boards.forEach((b) => offer({ item: "lot", board: b.id, adjoins: opt.adjoins.slice() }, b.name.replace(/\s*[\d,.]+$/, "") || b.name, b.price));
    } else if (kind === "capsules") {
      B.colours.filter((c) => st.supply.capsules[c.id] > 0).forEach((c) => {
        const left = st.supply.capsules[c.id];
        if (c.id === "pink") {
          // 1, 2 and 3 pink capsules a tap each; the last button's count goes higher with + (more than 3 left)
          opt.pink = Math.max(Math.min(3, left), Math.min(opt.pink, left));
          const pink = (n) => offer({ item: "capsules", colour: "pink", count: n }, c.name + " ×" + n,
            B.prices.pink_first + B.prices.pink_each * (n - 1), n === opt.pink ? left + " left" : "");
          [1, 2].filter((n) => n < opt.pink).forEach(pink);
          pink(opt.pink);
        } else offer({ item: "capsules", colour: c.id }, c.name + " ×" + left, c.price);
      });
      if (st.supply.capsules.pink > 3) {
        after.push(el("div", { class: "ch-chips", role: "group", "aria-label": "More pink capsules" }, el("span", { class: "small" }, "More pink: ×" + opt.pink),
          el("button", { type: "button", class: "secondary", "data-opt": "count", "data-val": "-1", "aria-label": "One pink capsule fewer",
            disabled: opt.pink > 3 ? null : "", onclick: () => { opt.pink--; renderPurchase(who()); } }, "−"),
          el("button", { type: "button", class: "secondary", "data-opt": "count", "data-val": "+1", "aria-label": "One pink capsule more",
            disabled: opt.pink < st.supply.capsules.pink ? null : "", onclick: () => { opt.pink++; renderPurchase(who()); } }, "+")));
      }
    } else if (kind === "vending-machine" || kind === "cemetery") {
      lands(w).forEach((l) => offer({ item: kind, land: l }, "On " + l, kind === "cemetery" ? B.prices.cemetery : B.prices.vending));
    } else if (kind === "entrance") {
      lands(w).forEach((l) => Object.entries(pl.capsules).forEach(([c, n]) => {
        const m = { item: "entrance", land: l, colour: c, capsules: n };
        if (st.options.tallest_hotel) m.floors = 1;
        offer(m, l + ": hotel of " + n + " " + colour(c).name, B.prices.entrance, st.options.tallest_hotel ? "1 floor" : "");
      }));
    } else if (kind === "building") {
      rows.push(chips("On", "land", lands(w).map((l) => [l, l]), (v) => v === opt.land, (v) => { opt.land = v; }));
      const sides = st.options.attraction_cards === "buyer-chooses";
      if (sides) rows.push(chips("New card's side", "side", [["A", "A"], ["B", "B"]], (v) => v === opt.side, (v) => { opt.side = v; }));
      B.buildings.filter((b) => st.supply.buildings[b.id] > 0).forEach((b) => {
        const m = { item: "building", building: b.id, land: opt.land };
        if (b.card && sides && !st.cards[b.card]) m.side = opt.side;
        offer(m, b.name, b.cost);
      });
    }
    box.hidden = false;
    box.replaceChildren(...rows, el("div", { class: "ch-buys" }, buttons), ...after);
  }

  const ordinal = (n) => n + (n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th");

  // The purchase form: at the head, completed after the declaration (of the declared kind);
  // waiting in the queue, prepared (the head's one tap then declares it, the form already filled).
  function renderPurchase(w) {
    const sec = $("#purchase");
    const place = st.phase === "purchase" && w !== null ? st.queue.indexOf(w) : -1;
    sec.hidden = place < 0;
    if (sec.hidden) { sec.dataset.built = ""; return; }
    loadDraft(w);
    const atHead = place === 0;
    const declared = st.declared && st.declared.player === w ? st.declared.item : null;
    if (declared && draft.item !== declared) { draft = { item: declared, prepared: true }; saveDraft(); }
    fit(w);
    // at the head the form comes first, right under the call; waiting, under the queue
    if (atHead && sec.nextElementSibling !== $("#queue-actions")) $("#queue-actions").before(sec);
    if (!atHead && sec.previousElementSibling !== $("#queue")) $("#queue").after(sec);
    const pl = st.players[w];
    const built = JSON.stringify([w, place, declared, draft, pl, st.supply, st.cards, Object.keys(st.lands).length,
      lands(w).map((l) => st.lands[l]), [opt.pink, opt.side, opt.land, opt.adjoins]]);
    if (sec.dataset.built === built) return;             // nothing changed for it: a field being filled stays
    sec.dataset.built = built;
    $("#purchase-h").textContent = declared ? "Complete your purchase: " + kindName(declared)
      : atHead ? "Your purchase" : "Prepare your purchase";
    $("#purchase-note").textContent = declared ? "Declared, the count is off: tap one to complete it."
      : atHead ? "Declare above to stop the count, or purchase at once."
      : "You are " + ordinal(place + 1) + " in the queue. At the head, one tap declares it; then complete it here.";
    const showOpts = atHead && !!declared;
    if (showOpts) renderOptions(w, declared); else $("#purchase-options").hidden = true;
    $("#purchase-or").hidden = !showOpts;
    const f = [];
    if (!declared) f.push(field("What", select(KINDS, draft.item, set("item"))));
    if (draft.item === "lot") {
      f.push(field("Lot board", select(B.lot_boards.map((b) => [b.id, b.name + " · " + yen(b.price)]), draft.board, set("board"))));
      if (!draft.adjoins || !draft.adjoins.length) draft.adjoins = [lots()[0]];
      const adj = el("div", { class: "row" }, lots().map((l) => {
        const c = el("input", { type: "checkbox", checked: draft.adjoins.includes(l) ? "" : null });
        c.onchange = () => { set("adjoins")(lots().filter((x) => x === l ? c.checked : draft.adjoins.includes(x))); };
        return el("label", { class: "small" }, c, " " + l);
      }));
      f.push(field("Shares part of a side with (every such lot: the Park's side B needs it)", adj));
    }
    if (draft.item === "capsules") {
      const left = B.colours.filter((c) => st.supply.capsules[c.id] > 0);
      f.push(field("Colour", select(left.map((c) => [c.id, c.name + " · " + st.supply.capsules[c.id] + (c.price ? " for " + yen(c.price) : " left")]), draft.colour || "pink", set("colour"))));
      if ((draft.colour || "pink") === "pink") f.push(field("Pink capsules", number(draft.count || 1, 1, st.supply.capsules.pink, set("count"))));
    }
    if (["vending-machine", "cemetery", "entrance", "building"].includes(draft.item)) {
      f.push(field("On your land", select(lands(w).map((l) => [l, l + (st.lands[l].parent ? " (subdivision of " + st.lands[l].parent + ")" : "")]), draft.land, set("land"))));
    }
    if (draft.item === "building") {
      f.push(field("Building", select(B.buildings.filter((b) => st.supply.buildings[b.id] > 0).map((b) => [b.id, b.name + " · " + yen(b.cost)]), draft.building, set("building"))));
      const b = building(draft.building || B.buildings[0].id);
      if (b.card && st.options.attraction_cards === "buyer-chooses" && !st.cards[b.card]) f.push(field("Attraction card side", select([["A", "Side A"], ["B", "Side B"]], draft.side, set("side"))));
      if (b.laundry) f.push(field("Capsules on it (0-2)", number(draft.capsules || 0, 0, 2, set("capsules"))));
    }
    if (draft.item === "entrance" || (draft.item === "building" && building(draft.building || "").laundry && draft.capsules)) {
      const caps = Object.keys(pl.capsules);
      f.push(field("Hotel colour", caps.length ? select(caps.map((c) => [c, colour(c).name + " (" + pl.capsules[c] + ")"]), draft.hcolour, set("hcolour"))
        : el("span", { class: "small muted" }, "No capsules yet: buy capsules first.")));
      if (draft.item === "entrance") f.push(field("Capsules in the hotel", number(draft.capsules || pl.capsules[draft.hcolour || caps[0]] || 1, 1, 99, set("capsules"))));
      if (st.options.tallest_hotel) {
        const laundry = draft.item === "building", hc = draft.hcolour || caps[0];
        const n = Number(draft.capsules || (laundry ? 0 : pl.capsules[hc] || 1));
        f.push(field("Floors (" + floorsWords(allowedFloors(hc, n, laundry)) + ")", number(draft.floors || 1, 1, 20, set("floors"))));
      }
    }
    if (pl.coupons) f.push(field("Coupons to use (500 each; you have " + pl.coupons + ")", number(draft.coupons || 0, 0, pl.coupons, set("coupons"))));
    $("#purchase-form").replaceChildren(...f);
    const m = purchaseMove(w);
    const price = priceOf(m);
    $("#purchase-price").textContent = "Price " + yen(price || 0) + (m.coupons ? " = " + tk.count(m.coupons, "coupon") + " + " + yen(price - m.coupons * B.prices.coupon) : "");
    const buy = $("#buy");
    buy.hidden = !atHead;
    buy.textContent = declared ? "Complete the purchase" : "Declare and purchase";
    // the declaration just came in (this phone's tap, or another phone of the seat): the button to
    // complete it in view, once the page (and the pinned bar above it) has settled
    const dkey = declared ? [st.round, w, declared, st.entries.length].join(":") : null;
    if (dkey && atHead && renderPurchase.shown !== dkey) {
      renderPurchase.shown = dkey;
      requestAnimationFrame(() => setTimeout(() => { const o = $("#purchase-options"); if (!o.hidden) o.scrollIntoView({ block: "nearest" }); }, 60));
    }
    buy.onclick = async () => {
      buy.disabled = true;
      try { const r = await send(purchaseMove(w)); if (r.ok) { clearDraft(); sec.dataset.built = ""; } }
      finally { buy.disabled = false; }
    };
  }

  // ---------- barter ----------
  const offerText = (o) => {
    const parts = [];
    if (o.yen) parts.push(yen(o.yen));
    if (o.coupons) parts.push(tk.count(o.coupons, "coupon"));
    Object.entries(o.capsules || {}).forEach(([c, n]) => parts.push(tk.count(n, colour(c).name + " capsule")));
    (o.lands || []).forEach((l) => parts.push("land " + l + " with everything on it"));
    if (o.subdivision) parts.push("a subdivision of " + o.subdivision.of);
    if (o.promise) parts.push("promise: “" + o.promise + "” (not binding)");
    return parts.join(", ") || "nothing";
  };
  const bd = { give: {}, get: {} };
  function renderBarter(w) {
    const sec = $("#barter");
    sec.hidden = st.phase !== "purchase";
    if (sec.hidden) return;
    $("#barters").replaceChildren(...(st.barters.length ? st.barters.map((b) => el("div", { class: "ch-barter", "data-barter": b.id },
      el("div", null, el("strong", null, name(b.from)), " gives " + offerText(b.give) + "; ", el("strong", null, name(b.to)), " gives " + offerText(b.get) + "."),
      el("div", { class: "row" },
        w === b.to ? el("button", { type: "button", class: "confirm", onclick: () => send({ type: "confirm-barter", player: w, barter: b.id }) }, "Confirm") : el("span", { class: "small muted" }, "Waiting for " + name(b.to) + " to confirm"),
        (w === b.from || w === b.to) ? el("button", { type: "button", class: "secondary", onclick: () => send({ type: "cancel-barter", player: w, barter: b.id }) }, "Abandon") : null),
      // a proposal received is not bartering: its player may still join the queue, which declines it
      w === b.to && !st.limit_reached ? el("div", { class: "small muted" }, "Joining the queue declines it.") : null))
      : [el("p", { class: "small muted" }, st.limit_reached ? "No new barter once the limit is reached." : "No open barter. Both seals must be in front of their players.")]));
    const pf = $("#propose-form");
    if (w === null || st.limit_reached) { pf.replaceChildren(el("p", { class: "small muted" }, "Not now.")); return; }
    if (pf.dataset.built === String(w) + ":" + table.seq) return;
    pf.dataset.built = String(w) + ":" + table.seq;
    const others = st.players.map((p, i) => i).filter((i) => i !== w);
    if (bd.with === undefined || bd.with === w) bd.with = others[0];
    const side = (key, p) => {
      const o = bd[key];
      const caps = Object.keys(st.players[p].capsules);
      return el("fieldset", { class: "card", style: "margin:0" }, el("legend", null, key === "give" ? "You give" : name(p) + " gives"),
        field("Yen", number(o.yen || 0, 0, 1e6, (v) => { o.yen = v; })),
        field("Coupons", number(o.coupons || 0, 0, 99, (v) => { o.coupons = v; })),
        caps.length ? field("Capsules", select([["", "none"]].concat(caps.map((c) => [c, colour(c).name + " (has " + st.players[p].capsules[c] + ")"])), o.capColour || "", (v) => { o.capColour = v; })) : null,
        o.capColour ? field("How many", number(o.capN || 1, 1, 99, (v) => { o.capN = v; })) : null,
        lands(p).length ? field("Land (with everything on it)", select([["", "none"]].concat(lands(p).map((l) => [l, l])), o.land || "", (v) => { o.land = v; })) : null,
        lands(p).length ? field("Subdivide (the new area goes to the other player)", select([["", "no"]].concat(lands(p).map((l) => [l, "part of " + l])), o.subOf || "", (v) => { o.subOf = v; o.subH = []; o.subB = []; pf.dataset.built = ""; renderBarter(who()); })) : null,
        o.subOf ? subFields(o) : null,
        field("Promise (a note, not binding)", (() => { const i = el("input", { type: "text", value: o.promise || "" }); i.oninput = () => { o.promise = i.value; }; return i; })()));
    };
    const subFields = (o) => {
      const land = st.lands[o.subOf];
      const box = el("div", { class: "stack small" });
      if (land.vending) box.append(field("Vending machines in it (of " + land.vending + ")", number(o.subV || 0, 0, land.vending, (v) => { o.subV = v; })));
      if (land.cemeteries) box.append(field("Cemeteries in it (of " + land.cemeteries + ")", number(o.subC || 0, 0, land.cemeteries, (v) => { o.subC = v; })));
      const check = (list, id, text) => {
        const c = el("input", { type: "checkbox", checked: list.includes(id) ? "" : null });
        c.onchange = () => { const k = list.indexOf(id); if (c.checked && k < 0) list.push(id); if (!c.checked && k >= 0) list.splice(k, 1); };
        return el("label", { class: "row" }, c, text);
      };
      st.hotels.filter((h) => h.land === o.subOf).forEach((h) => box.append(check(o.subH, h.id, "hotel " + h.id + " (" + colour(h.colour).name + ")")));
      st.buildings.filter((b) => b.land === o.subOf).forEach((b) => box.append(check(o.subB, b.id, building(b.kind).name + " " + b.id)));
      box.append(el("p", { class: "muted" }, "The golden rule must hold in the new area and in what is left."));
      return box;
    };
    const build = (o) => {
      const out = {};
      if (o.yen) out.yen = o.yen;
      if (o.coupons) out.coupons = o.coupons;
      if (o.capColour) out.capsules = { [o.capColour]: o.capN || 1 };
      if (o.land) out.lands = [o.land];
      if (o.subOf) {
        out.subdivision = { of: o.subOf };
        if (o.subV) out.subdivision.vending = o.subV;
        if (o.subC) out.subdivision.cemeteries = o.subC;
        if (o.subH && o.subH.length) out.subdivision.hotels = o.subH.slice();
        if (o.subB && o.subB.length) out.subdivision.buildings = o.subB.slice();
      }
      if (o.promise && o.promise.trim()) out.promise = o.promise.trim();
      return out;
    };
    pf.replaceChildren(
      field("With", select(others.map((i) => [String(i), name(i)]), String(bd.with), (v) => { bd.with = parseInt(v, 10); bd.get = {}; pf.dataset.built = ""; renderBarter(who()); })),
      side("give", w), side("get", bd.with),
      el("button", { type: "button", id: "propose-send", onclick: async () => {
        const r = await send({ type: "propose-barter", player: w, with: bd.with, give: build(bd.give), get: build(bd.get) });
        if (r.ok) { bd.give = {}; bd.get = {}; pf.dataset.built = ""; $("#propose").open = false; }
      } }, "Propose"));
  }

  // ---------- income ----------
  function faceText(f) {
    const p = [];
    if (f.yen) p.push(yen(f.yen));
    if (f.coupons) p.push(f.coupons + "× coupon");
    if (f.no_cemetery) p.push("no cemetery");
    return p.join(" + ");
  }
  function renderIncome() {
    const sec = $("#income");
    sec.hidden = st.phase !== "income";
    if (sec.hidden) return;
    const rolling = (st.buildings || []).filter((b) => {
      const bb = building(b.kind);
      if (b.side !== "B" || !bb.card) return true;
      return b.kind === "park";
    });
    $("#rolls").replaceChildren(...rolling.map((b) => {
      const bb = building(b.kind);
      const face = st.rolls[b.id];
      if (st.options.dice === "companion" || (face !== undefined && changing !== b.id)) {
        // a die entered by hand: the host's phone changes that one entry alone (the rules: only the host)
        const change = st.options.dice !== "companion" && host() && face !== undefined
          ? el("button", { type: "button", class: "secondary", "data-change": b.id, onclick: () => { changing = b.id; renderIncome(); } }, "Change") : null;
        return el("div", { class: "row ch-die" }, el("span", { class: "grow" }, el("strong", null, bb.name + " " + b.id + " (" + b.land + "): "), face === undefined ? "…" : faceText(bb.faces[face])), change);
      }
      // "il proprietario di ciascun Edificio … tira il Dado bonus": its owner's phone (or the host's)
      const owner = st.lands[b.land] ? st.lands[b.land].owner : null;
      if (!host() && owner !== null && me() !== owner) {
        return el("p", null, el("strong", null, bb.name + " " + b.id + " (" + b.land + "): "), name(owner) + " rolls its die and enters it.");
      }
      return el("div", { class: "row" }, el("span", { class: "grow" }, bb.name + " " + b.id + " (" + b.land + ") rolled:"),
        ...bb.faces.map((f, i) => el("button", { type: "button", class: "secondary", "aria-pressed": face === i ? "true" : null,
          onclick: async () => { const r = await send({ type: "roll", building: b.id, face: i }); if (r.ok && changing === b.id) { changing = null; renderIncome(); } } }, faceText(f))),
        changing === b.id ? el("button", { type: "button", class: "secondary", onclick: () => { changing = null; renderIncome(); } }, "Keep it") : null);
    }));
    // the income is paid once every die is in
    const missing = rolling.filter((b) => st.rolls[b.id] === undefined);
    const pay = $("#pay");
    pay.disabled = missing.length > 0;
    const note = $("#pay-note");
    note.hidden = !missing.length;
    note.textContent = missing.length ? "Enter " + (missing.length === 1 ? "the bonus die of " : "the " + missing.length + " bonus dice of ") +
      missing.map((b) => building(b.kind).name + " " + b.id).join(", ") + " first." : "";
    const inc = st.income;
    const box = $("#income-lots");
    box.replaceChildren();
    if (inc) {
      inc.lots.filter((l) => l.hotels.length || l.attraction).forEach((l) => {
        box.append(el("h3", null, "Lot " + l.lot + " · attraction " + yen(l.attraction) + " · deduction " + (l.no_cemetery ? "none (no-cemetery)" : yen(l.deduction))),
          el("table", { class: "ch-hotels small" }, el("tr", null, el("th", null, "Hotel"), el("th", null, "Owner"), el("th", { class: "num" }, "Franchise"), el("th", { class: "num" }, "Income")),
            l.hotels.map((h) => el("tr", null, el("td", null, swatch(h.colour), h.id + " · " + h.capsules + " " + colour(h.colour).name), el("td", null, h.owner === null ? "—" : name(h.owner)),
              el("td", { class: "num" }, yen(h.franchise)), el("td", { class: "num" }, h.withheld ? "0 (golden rule)" : yen(h.income))))));
      });
      if (!box.children.length) box.append(el("p", { class: "small muted" }, "No hotel earns income this round."));
      box.append(el("p", null, el("strong", null, "Totals: "), st.players.map((p, i) => p.name + " " + yen((inc.by_owner || {})[String(i)] || 0)).join(" · ")));
    }
    pay.onclick = () => send({ type: "pay-income" });
  }
  let changing = null;           // the building whose entered die the host is changing

  // ---------- ledgers ----------
  function renderLedgers(w) {
    $("#ledgers").replaceChildren(...st.players.map((p, i) => {
      const interest = p.loan ? p.loan * B.interest_percent / 100 : 0;
      const debt = p.loan ? p.loan + interest * st.round : null;
      const entries = st.entries.filter((e) => e.seat === i).slice().reverse();
      return el("div", { class: "ch-led" + (i === w ? " me" : ""), id: "ledger-" + i },
        el("div", { class: "row" }, el("strong", { class: "grow" }, p.name), el("span", { class: "small" }, p.seal === "pass" ? "passed" : p.seal === "queue" ? "in the queue" : "")),
        el("table", { class: "small" },
          el("tr", null, el("td", null, "Yen"), el("td", { class: "num ch-yen" }, yen(p.yen))),
          el("tr", null, el("td", null, "Coupons (500 when purchasing; not yen)"), el("td", { class: "num" }, String(p.coupons))),
          el("tr", null, el("td", null, "Loan"), el("td", { class: "num" }, p.loan ? yen(p.loan) : "—")),
          el("tr", null, el("td", null, "Interest per round"), el("td", { class: "num" }, p.loan ? yen(interest) : "—")),
          el("tr", null, el("td", null, "Total debt (round " + st.round + ")"), el("td", { class: "num" }, debt === null ? "—" : yen(debt))),
          el("tr", null, el("td", null, "Yen after repaying"), el("td", { class: "num" }, debt === null ? "—" : yen(p.yen - debt)))),
        Object.keys(p.capsules).length ? el("p", { class: "small" }, "Capsules: ", ...Object.entries(p.capsules).map(([c, n]) => el("span", null, swatch(c), n + " " + colour(c).name + " "))) : null,
        el("details", null, el("summary", { class: "small" }, entries.length + (entries.length === 1 ? " entry" : " entries")),
          el("ol", { class: "list ch-entries small", reversed: "" }, entries.map((e) => el("li", null,
            "R" + e.round + " · " + (e.yen ? yen(e.yen) : "") + (e.coupons ? (e.yen ? ", " : "") + (e.coupons > 0 ? "+" : "") + tk.count(e.coupons, "coupon") : "") +
            " · " + e.why + " · by " + (e.by === "host" ? "host" : e.by === null || e.by === undefined ? "the companion" : name(e.by)))))));
    }));
    const m = location.hash.match(/^#ledger-(\d+)$/);
    if (m && !renderLedgers.scrolled) { renderLedgers.scrolled = true; const t = $("#ledger-" + m[1]); if (t) t.scrollIntoView(); }
  }

  function renderFranchises() {
    const fr = {};
    (st.hotels || []).forEach((h) => {
      let l = h.land;
      while (st.lands[l].parent) l = st.lands[l].parent;
      const f = fr[h.colour] || (fr[h.colour] = { hotels: 0, lots: new Set() });
      f.hotels++; f.lots.add(l);
    });
    const rows = Object.entries(fr);
    $("#franchises").replaceChildren(rows.length ? el("table", { class: "ch-hotels" },
      el("tr", null, el("th", null, "Franchise"), el("th", { class: "num" }, "Hotels"), el("th", { class: "num" }, "Lots"), el("th", { class: "num" }, "Income")),
      rows.map(([c, f]) => el("tr", null, el("td", null, swatch(c), colour(c).name), el("td", { class: "num" }, String(f.hotels)),
        el("td", { class: "num" }, String(f.lots.size)), el("td", { class: "num" }, yen(100 * (f.hotels + f.lots.size))))))
      : el("p", { class: "muted" }, "No hotel yet. Coupons at " + B.thresholds.map(yen).join(", ") + " of franchise income."));
  }

  function renderMap() {
    const items = Object.entries(st.lands).map(([id, l]) => {
      const hs = st.hotels.filter((h) => h.land === id);
      const bs = st.buildings.filter((b) => b.land === id);
      return el("li", null, el("strong", null, id), (l.parent ? " (in " + l.parent + ")" : l.start ? " (starting lot)" : "") + " · " +
        (l.owner === null ? "nobody" : name(l.owner)) + " · " + tk.count(l.vending, "vending machine") + ", " + tk.count(l.cemeteries, "cemetery", "cemeteries") +
        (hs.length ? " · hotels " + hs.map((h) => h.id + " " + colour(h.colour).name + "×" + h.capsules + (h.withheld ? " (withheld)" : "")).join(", ") : "") +
        (bs.length ? " · " + bs.map((b) => building(b.kind).name + " " + b.id + (b.side ? " (" + b.side + ")" : "")).join(", ") : ""));
    });
    $("#map").replaceChildren(el("ul", { class: "list" }, items));
  }

  tk.clock.sync(6);
  setInterval(() => tk.clock.sync(3), 60000);
  link.start();
  window.tkLink = link;     // for the browser tests
})();
