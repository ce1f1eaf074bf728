/* Sapporo 1876 board twin: the move builder. The suggested moves above it are a sample; here a player
 * enters any legal move by choosing its parts: the action at the pawn's spot (how many workers to
 * educate, fame, the tier bonus; the pioneering spaces one by one; the tile to invest in; the council
 * space), a building tile with its resources of your choice and its action, the workers taken back at
 * a harvest. The cost and the cheapest payments come from POST /api/sapporo-1876/tables/<code>/plan
 * (the rules, on the server) as the move changes; "Pay otherwise" takes any mix.
 * SapporoBuilder(ctx) -> [elements]; ctx: {B, st, code, may(seat), send(move, button), payText(pay),
 * otherPayment(option), withPay(option, pay), resName}. */
(function () {
  "use strict";
  const { el } = tk;
  const ACTION_NAMES = { educate: "Educate", pioneer: "Pioneer", invest: "Invest", appoint: "Appoint" };

  function stepper(label, value, min, max, onChange, key) {
    const out = el("output", null, String(value));
    const minus = el("button", { type: "button", class: "secondary", "aria-label": label + ": one fewer" }, "−");
    const plus = el("button", { type: "button", class: "secondary", "aria-label": label + ": one more" }, "+");
    const set = (v) => {
      value = Math.max(min, Math.min(max, v));
      out.textContent = String(value);
      minus.disabled = value <= min; plus.disabled = value >= max;
      onChange(value);
    };
    minus.addEventListener("click", () => set(value - 1));
    plus.addEventListener("click", () => set(value + 1));
    minus.disabled = value <= min; plus.disabled = value >= max;
    return el("div", { class: "stepper", "data-field": key }, el("span", { class: "name" }, label),
      el("span", { class: "ctl" }, minus, out, plus));
  }

  /** One-of buttons (aria-pressed); `choices`: [[value, label], …]. */
  function choice(title, choices, onPick, key) {
    const buttons = choices.map(([value, label]) => {
      const b = el("button", { type: "button", class: "secondary", "aria-pressed": "false", "data-value": value }, label);
      b.addEventListener("click", () => {
        for (const x of buttons) x.setAttribute("aria-pressed", String(x === b));
        onPick(value);
      });
      return b;
    });
    return el("fieldset", { class: "pick", "data-field": key }, el("legend", null, title), buttons);
  }

  function resourceChoice(ctx, title, onPick, key) {
    return choice(title, ctx.B.resources.map((r) => [r.id, r.name]), onPick, key);
  }

  /** The fields of an action: {node, spec()}; `columns` narrows pioneering (a building's action:
   *  one of its columns per use); `ap`: {unit: AP} the action takes, `extraYen` what the player gains
   *  before paying (a building's yen). */
  function actionFields(ctx, action, p, columns, changed, ap, extraYen) {
    const { B, st } = ctx;
    const pl = st.players[p];
    const spec = {};
    const parts = [];
    if (action === "educate") {
      const size = B.tiers.reduce((a, t) => a + t.workers, 0);
      const left = size - pl.educated;
      spec.workers = Math.min(1, left);
      parts.push(stepper("Workers educated (lowest tier first)", spec.workers, 0, left, (v) => { spec.workers = v; changed(); }, "workers"));
      // "You can combine these any number of times in one action": as many as the player could pay
      const A = B.academy;
      const payable = pl.yen + (extraYen || 0) + Object.entries(ap || {}).reduce((a, [r, v]) => a + (pl.resources[r] || 0) * v, 0);
      parts.push(stepper("× " + A.when_empty_fame + " fame for " + A.when_empty_ap + " AP (academy empty)", 0, 0,
        Math.floor(payable / A.when_empty_ap), (v) => { if (v) spec.fame = v; else delete spec.fame; changed(); }, "fame"));
      parts.push(resourceChoice(ctx, "Tier bonus of your choice (if a tier with one is completed)", (r) => { spec.bonus = r; changed(); }, "bonus"));
    } else if (action === "pioneer") {
      spec.steps = [];
      const said = el("p", { class: "small", "data-field": "steps-text" }, "Spaces: none yet");
      const either = !!(columns && columns.length);        // a building: one of its columns per use
      const cols = B.columns.filter((c) => !either || columns.includes(c.id));
      const buttons = cols.map((c) => el("button", { type: "button", class: "secondary", "data-column": c.id,
        onclick: () => { spec.steps.push(c.id); show(); } }, "+ " + (ctx.resName[c.id] || c.name)));
      const show = () => {
        said.textContent = "Spaces: " + (spec.steps.map((c) => ctx.resName[c] || c).join(", ") || "none yet");
        if (either) for (const b of buttons) b.disabled = spec.steps.length > 0 && b.dataset.column !== spec.steps[0];
        changed();
      };
      parts.push(el("p", { class: "small" }, either
        ? "Tap " + cols.map((c) => ctx.resName[c.id] || c.name).join(" or ") + " once per space its worker advances (one column per use):"
        : "Tap a column once per space its worker advances (a new column starts at its bottom):"),
        el("div", { class: "row", "data-field": "steps" }, buttons),
        el("div", { class: "row" }, said, el("button", { type: "button", class: "secondary", onclick: () => { spec.steps.pop(); show(); } }, "Remove the last")));
    } else if (action === "invest") {
      const tiles = [...st.persons, ...st.buildings].filter(Boolean);
      parts.push(choice("The tile", tiles.map((id) => [id, B.tiles[id].name + " · " + B.tiles[id].cost]), (t) => { spec.tile = t; changed(); }, "tile"));
    } else if (action === "appoint") {
      const spaces = [];
      for (const c of B.council) c.spaces.forEach((ap, i) => { if (st.council[c.id][i] === null) spaces.push([c.id + ":" + i, c.name + ", space " + (i + 1) + " · " + ap + " AP"]); });
      parts.push(choice("The council space", spaces, (v) => { const [c, i] = v.split(":"); spec.column = c; spec.space = Number(i); changed(); }, "space"));
    }
    return { node: el("div", { class: "stack" }, parts), spec: () => JSON.parse(JSON.stringify(spec)) };
  }

  /** The cost, reasons and payments of the move `moveOf()` returns, asked again on every change. */
  function planBox(ctx, moveOf, playLabel) {
    const box = el("div", { class: "plan", "aria-live": "polite" });
    let asked = 0;
    async function refresh() {
      const move = moveOf();
      if (!move) { box.replaceChildren(); return; }
      const mine = ++asked;
      const r = await tk.api("POST", "/api/sapporo-1876/tables/" + encodeURIComponent(ctx.code) + "/plan", { move });
      if (mine !== asked) return;                 // a later change is being asked about
      if (r.status !== 200) { box.replaceChildren(el("p", { class: "msg bad" }, (r.body && r.body.error) || "The move could not be checked.")); return; }
      const plan = r.body;
      if (plan.reasons.length) {
        box.replaceChildren(el("ul", { class: "msg bad small reasons" }, plan.reasons.map((x) => el("li", null, x.charAt(0).toUpperCase() + x.slice(1)))));
        return;
      }
      if (plan.cost === null) {
        const b = el("button", { type: "button", class: "wide", onclick: () => ctx.send(move, b) }, playLabel);
        box.replaceChildren(b);
        return;
      }
      const option = { move, cost: plan.cost, values: plan.values, pay_in: plan.pay_in };
      box.replaceChildren(
        el("p", { class: "small", "data-cost": plan.cost }, "Costs " + plan.cost + " AP. Pay:"),
        el("div", { class: "pay-alt" }, plan.payments.map((pay, i) => {
          const b = el("button", { type: "button", class: i ? "secondary" : null, onclick: () => ctx.send(ctx.withPay(option, pay), b) }, "Pay " + ctx.payText(pay));
          return b;
        })),
        ctx.otherPayment(option));
    }
    return { node: box, refresh };
  }

  function section(title, key, ...body) {
    return el("details", { class: "card builder", "data-builder": key, style: "margin:0;padding:.5rem" },
      el("summary", { style: "min-height:44px;display:flex;align-items:center;font-weight:700" }, title), ...body);
  }

  function actionBuilder(ctx, action, p) {
    let fields = null;
    const plan = planBox(ctx, () => ({ type: action, player: p, ...fields.spec() }), ACTION_NAMES[action]);
    const spot = ctx.B.spots.find((s) => s.id === ctx.st.pawn);
    fields = actionFields(ctx, action, p, null, () => plan.refresh(), spot ? spot.ap : {});
    const s = section("Choose every part of your " + ACTION_NAMES[action].toLowerCase() + " action…", action, fields.node, plan.node);
    s.addEventListener("toggle", () => { if (s.open) plan.refresh(); }, { once: true });
    return s;
  }

  function buildingBuilder(ctx, p, free) {
    const { B } = ctx;
    const body = el("div", { class: "stack" });
    let move = null, fields = null, withAction = false;
    const plan = planBox(ctx, () => {
      if (!move) return null;
      const m = Object.assign({}, move);
      if (withAction && fields) m.action = fields.spec();
      return m;
    }, "Use this building");
    const pickTile = (id) => {
      const how = B.buildings[id];
      move = { type: "use-building", player: p, tile: id };
      fields = null; withAction = false;
      const parts = [el("p", { class: "small" }, B.tiles[id].text)];
      if (how.give) parts.push(resourceChoice(ctx, "The resource you pay", (r) => { move.give = r; plan.refresh(); }, "give"));
      if (how.take) parts.push(resourceChoice(ctx, "The resource you gain", (r) => { move.take = r; plan.refresh(); }, "take"));
      if (how.action) {
        const anyAt = Object.fromEntries(B.resources.map((r) => [r.id, how.action.ap]));
        fields = actionFields(ctx, how.action.action, p, how.action.columns, () => plan.refresh(), anyAt, how.yen);
        const extra = el("div", { hidden: true }, fields.node);
        const box = el("input", { type: "checkbox", "data-field": "with-action",
                                  onchange: () => { withAction = box.checked; extra.hidden = !box.checked; plan.refresh(); } });
        parts.push(el("label", { class: "check" }, box, "Also " + ACTION_NAMES[how.action.action].toLowerCase() +
          " (any resource at " + how.action.ap + " AP, or yen)"), extra);
      }
      tileBody.replaceChildren(...parts);
      plan.refresh();
    };
    const tileBody = el("div", { class: "stack" });
    body.append(choice("The building tile (a worker from your worker area goes on it)",
      free.map((b) => [b.id, B.tiles[b.id].name]), pickTile, "building"), tileBody, plan.node);
    return section("Use a building tile…", "use-building", body);
  }

  function returnsBuilder(ctx, p) {
    const { B, st } = ctx;
    const chosen = new Set();
    const occupied = st.players[p].buildings.filter((b) => b.worker).map((b) => b.id);
    const go = el("button", { type: "button", disabled: true }, "Take these workers back");
    go.addEventListener("click", () => ctx.send({ type: "return-workers", player: p, tiles: occupied.filter((id) => chosen.has(id)) }, go));
    const boxes = occupied.map((id) => {
      const box = el("input", { type: "checkbox", value: id, onchange: () => { if (box.checked) chosen.add(id); else chosen.delete(id); go.disabled = !chosen.size; } });
      return el("label", { class: "check" }, box, B.tiles[id].name);
    });
    return section("Choose the building tiles to free…", "return-workers",
      el("p", { class: "small" }, "The first is free, each more costs 1 yen."), ...boxes, go);
  }

  window.SapporoBuilder = function (ctx) {
    const { st, B } = ctx;
    const out = [];
    if (st.phase === "action" && ctx.may(st.acting)) {
      const spot = B.spots.find((s) => s.id === st.pawn);
      if (spot) out.push(actionBuilder(ctx, spot.action, st.acting));
    }
    // "At any time during your turn" (steps 1 to 7, a harvest and the other player's step 5 included):
    // the active player only
    const cur = st.current;
    if (["move", "action", "returns", "end"].includes(st.phase) && ctx.may(cur)) {
      const pl = st.players[cur];
      const free = pl.buildings.filter((b) => !b.worker);
      if (pl.area > 0 && free.length) out.push(buildingBuilder(ctx, cur, free));
    }
    if (st.phase === "returns" && st.returns && st.returns.length && ctx.may(st.returns[0])) out.push(returnsBuilder(ctx, st.returns[0]));
    return out;
  };
})();
