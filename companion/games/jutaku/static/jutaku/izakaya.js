/* Izakaya scoring: market prices and buildings (floors, drinks on the card's corners)
 * -> POST /api/jutaku/izakaya -> each building's payment and the total. */
(function () {
  "use strict";
  const { el, $, $$ } = tk;
  const data = tk.pageData();
  let pending = 0;
  function prices() {
    const out = {};
    for (const c of $$("[data-price]")) out[c.dataset.price] = Number(c.querySelector("output").textContent);
    return out;
  }
  function buildings() {
    return $$(".jt-building").map((b) => ({ floors: Number(b.querySelector("input").value || 0),
      drinks: $$("select", b).map((s) => s.value).filter(Boolean) }));
  }
  async function score() {
    const mine = ++pending;
    // a coin moved half-way (taken from one price, not yet added to another): say so, briefly
    const total = Object.values(prices()).reduce((a, b) => a + b, 0);
    if (total !== data.coins) {
      $("#yen").textContent = "—"; $("#each").textContent = "";
      tk.say("#msg", "info", "Prices total ¥" + total.toLocaleString("en-US") + ", the coins ¥" +
        data.coins.toLocaleString("en-US") + ": " + (total < data.coins ? "add" : "take") + " ¥" +
        Math.abs(data.coins - total).toLocaleString("en-US") + (total < data.coins ? " to" : " from") + " another drink.");
      return;
    }
    const r = await tk.api("POST", "/api/jutaku/izakaya", { prices: prices(), buildings: buildings() });
    if (mine !== pending) return;
    if (r.status !== 200) {       // no stale total beside the reasons (a coin moved half-way, say)
      $("#yen").textContent = "—"; $("#each").textContent = "";
      tk.say("#msg", "bad", r.body.error, r.body.reasons);
      return;
    }
    tk.say("#msg", "info", "");
    $("#yen").textContent = r.body.yen.toLocaleString("en-US");
    $("#each").textContent = r.body.buildings.map((b, i) => "#" + (i + 1) + " ¥" + b.yen.toLocaleString("en-US")).join(" · ");
  }
  function corner() {
    return el("select", { style: "width:auto", "aria-label": "drink on a corner", onchange: score },
      el("option", { value: "" }, "—"), data.drinks.map((d, i) => el("option", { value: d }, data.names[i])));
  }
  function add() {
    const n = $$(".jt-building").length + 1;
    $("#buildings").append(el("div", { class: "jt-building row" }, el("strong", null, "#" + n),
      el("label", null, "floors ", el("input", { type: "number", min: "1", value: "1", inputmode: "numeric", style: "width:4.5rem", oninput: score })),
      corner(), corner(), corner(), corner()));
    score();
  }
  for (const c of $$("[data-price]")) {
    c.addEventListener("click", (ev) => {
      const b = ev.target.closest("button"); if (!b) return;
      const out = c.querySelector("output");
      out.textContent = String(Math.max(0, Number(out.textContent) + Number(b.dataset.step)));
      score();
    });
  }
  $("#add").addEventListener("click", add);
  add();
})();
