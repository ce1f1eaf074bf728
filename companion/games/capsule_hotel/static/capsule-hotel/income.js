/* The income calculator: lots (cemeteries, dice faces, hotels) -> POST /api/capsule-hotel/income. */
(function () {
  "use strict";
  const { el, $ } = tk;
  const B = tk.pageData().board;
  const yen = (n) => (n < 0 ? "−" : "") + Math.abs(n).toLocaleString("en-US") + " ¥";
  const lots = [{ cemeteries: 0, faces: [], hotels: [{ owner: 0, colour: B.colours[0].id, capsules: 1 }] }];
  const faceOptions = [];
  B.buildings.forEach((b) => b.faces.forEach((f) => faceOptions.push({ label: b.name + ": " + [f.yen ? yen(f.yen) : "", f.coupons ? tk.count(f.coupons, "coupon") : "", f.no_cemetery ? "no cemetery" : ""].filter(Boolean).join(" + "), face: { yen: f.yen, coupons: f.coupons, no_cemetery: f.no_cemetery } })));
  const num = (v, min, max, set, label) => { const i = el("input", { type: "number", inputmode: "numeric", min: String(min), max: String(max), value: String(v), style: "width:4.5rem;min-height:44px", "aria-label": label || null }); i.onchange = () => { set(parseInt(i.value, 10) || 0); compute(); }; return i; };
  function render() {
    $("#lots").replaceChildren(...lots.map((l, i) => el("section", { class: "card" },
      el("h2", { style: "margin-top:0" }, "Lot " + (i + 1)),
      el("label", { class: "row" }, el("span", { class: "grow" }, "Cemeteries (0–" + B.max_cemeteries + ")"), num(l.cemeteries, 0, B.max_cemeteries, (v) => { l.cemeteries = v; })),
      // each face entered is removed on its own (a wrong one is fixed alone)
      el("p", { class: "small", style: "margin:.3rem 0" }, "Dice rolled: ", l.faces.length ? "" : "none"),
      l.faces.length ? el("ul", { class: "list ch-faces" }, l.faces.map((f, k) => el("li", { class: "row" }, el("span", { class: "grow" }, f.label),
        el("button", { type: "button", class: "secondary", "aria-label": "Remove " + f.label, onclick: () => { l.faces.splice(k, 1); render(); } }, "×")))) : null,
      (() => { const s = el("select", { style: "min-height:44px;width:100%", "aria-label": "Add a die face rolled for lot " + (i + 1) }, [el("option", { value: "" }, "Add a die face…")].concat(faceOptions.map((o, k) => el("option", { value: String(k) }, o.label)))); s.onchange = () => { if (s.value !== "") { l.faces.push(faceOptions[+s.value]); render(); } }; return s; })(),
      el("h3", null, "Hotels"),
      ...l.hotels.map((h, k) => el("div", { class: "row" },
        (() => { const s = el("select", { style: "min-height:44px", "aria-label": "Hotel " + (k + 1) + "'s colour" }, B.colours.map((c) => el("option", { value: c.id, selected: c.id === h.colour ? "" : null }, c.name))); s.onchange = () => { h.colour = s.value; compute(); }; return s; })(),
        el("span", { class: "small" }, "capsules"), num(h.capsules, 1, 20, (v) => { h.capsules = Math.max(1, v); }, "Hotel " + (k + 1) + "'s capsules"),
        el("span", { class: "small" }, "player"), num(h.owner + 1, 1, 5, (v) => { h.owner = Math.max(0, v - 1); }, "Hotel " + (k + 1) + "'s player (1–5)"),
        el("button", { type: "button", class: "secondary", "aria-label": "Remove hotel " + (k + 1), onclick: () => { l.hotels.splice(k, 1); render(); } }, "×"))),
      el("button", { type: "button", class: "secondary", onclick: () => { l.hotels.push({ owner: 0, colour: B.colours[0].id, capsules: 1 }); render(); } }, "Add a hotel"))));
    compute();
  }
  async function compute() {
    const body = { lots: lots.map((l, i) => ({ id: "Lot " + (i + 1), cemeteries: l.cemeteries, faces: l.faces.map((f) => f.face),
      hotels: l.hotels.map((h, k) => ({ id: "Lot " + (i + 1) + " hotel " + (k + 1), owner: h.owner, colour: h.colour, capsules: h.capsules })) })) };
    const r = await tk.api("POST", "/api/capsule-hotel/income", body);
    if (r.status !== 200) {       // no income for a map the game cannot show: the reasons only
      $("#out").replaceChildren(el("span", { class: "muted" }, "No income to show: this map needs a change."));
      tk.say("#msg", "bad", r.body.error, r.body.reasons);
      return;
    }
    tk.say("#msg", "ok", "");
    const res = r.body;
    $("#out").replaceChildren(
      el("p", null, el("strong", null, "Franchises: "), Object.entries(res.franchise).map(([c, v]) => (B.colours.find((x) => x.id === c) || { name: c }).name + " " + yen(v)).join(" · ") || "none"),
      el("ul", { class: "list" }, res.hotels.map((h) => el("li", null, h.id + ": " + yen(h.franchise) + " + " + yen(h.attraction) + " − " + yen(h.deduction) + " → ", el("strong", null, yen(h.income)), h.capped ? " (capped)" : ""))),
      el("p", { class: "ch-price" }, res.players.map((p) => "Player " + (p.player + 1) + ": " + yen(p.income)).join(" · ")));
  }
  $("#add-lot").onclick = () => { lots.push({ cemeteries: 0, faces: [], hotels: [] }); render(); };
  render();
})();
