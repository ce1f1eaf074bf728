/* Sapporo 1876 final-scoring calculator: steppers and boxes -> POST /api/sapporo-1876/score. */
(function () {
  "use strict";
  const { el, $, $$ } = tk;
  const controls = $$(".ctl");
  let pending = 0;

  function set(obj, path, value) {
    const keys = path.split(".");
    let o = obj;
    for (const k of keys.slice(0, -1)) o = o[k] = o[k] || {};
    o[keys[keys.length - 1]] = value;
  }
  function body() {
    const b = { persons: [] };
    for (const c of controls) set(b, c.dataset.field, Number(c.querySelector("output").textContent));
    for (const box of $$("input[data-field]")) set(b, box.dataset.field, box.checked);
    for (const box of $$("input[data-person]")) if (box.checked) b.persons.push(box.dataset.person);
    const cols = Object.values(b.pioneering.columns);
    const spaces = Number(controls.find((c) => c.dataset.field.startsWith("pioneering.")).dataset.max);
    b.pioneering.top = cols.filter((v) => v === spaces).length;
    b.pioneering.second = cols.filter((v) => v === spaces - 1).length;
    b.resources = Object.values(b.resources_by_kind).reduce((a, n) => a + n, 0);
    return b;
  }
  async function score() {
    const mine = ++pending;
    const r = await tk.api("POST", "/api/sapporo-1876/score", body());
    if (mine !== pending) return;
    if (r.status !== 200) {
      // a board that cannot occur has no score: show none rather than the last one
      $("#points").textContent = "–";
      $("#breakdown").replaceChildren();
      tk.say("#msg", "bad", r.body.error, r.body.reasons);
      return;
    }
    tk.say("#msg", "info", "");
    $("#points").textContent = r.body.points;
    $("#breakdown").replaceChildren(...r.body.breakdown.map((b) =>
      el("tr", null, el("td", null, b.label), el("td", { class: "num" }, String(b.value)))));
  }
  for (const c of controls) {
    c.addEventListener("click", (ev) => {
      const b = ev.target.closest("button");
      if (!b) return;
      const out = c.querySelector("output");
      out.textContent = Math.min(Number(c.dataset.max), Math.max(Number(c.dataset.min || 0), Number(out.textContent) + Number(b.dataset.step)));
      score();
    });
  }
  // the academy is educated from the lowest tier up: a tier ticked ticks those below it, one
  // unticked unticks those above it (the calculator refuses a top tier without the tiers below)
  const tiers = $$("input[data-tier]");
  for (const box of tiers) box.addEventListener("change", () => {
    const n = Number(box.dataset.tier);
    for (const t of tiers) {
      const m = Number(t.dataset.tier);
      if (box.checked && m < n) t.checked = true;
      if (!box.checked && m > n) t.checked = false;
    }
  });
  for (const box of $$("input[type=checkbox]")) box.addEventListener("change", score);
  $("#clear").addEventListener("click", () => {
    for (const c of controls) c.querySelector("output").textContent = c.dataset.min || "0";
    for (const box of $$("input[type=checkbox]")) box.checked = false;
    score();
  });
  score();
})();
