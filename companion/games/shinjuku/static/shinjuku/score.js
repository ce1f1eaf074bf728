/* Shinjuku scoring calculator: steppers -> POST /api/shinjuku/score -> points and the best sets. */
(function () {
  "use strict";
  const { el, $, $$ } = tk;
  const data = tk.pageData();
  const controls = $$(".ctl");
  const names = {};
  for (const c of controls) if (c.dataset.weight === "1" && c.dataset.kind !== "wild")
    names[c.dataset.kind] = c.closest(".stepper").querySelector(".name").textContent;
  names.wild = "Wild";
  let pending = 0;

  function counts() {
    const customers = Object.fromEntries(data.types.map((t) => [t, 0]));
    let wild = 0;
    for (const c of controls) {
      const n = Number(c.querySelector("output").textContent);
      if (c.dataset.kind === "wild") wild = n;
      else customers[c.dataset.kind] += n * Number(c.dataset.weight);
    }
    return { customers, wild };
  }
  async function score() {
    const mine = ++pending;
    const r = await tk.api("POST", "/api/shinjuku/score", counts());
    if (mine !== pending) return;         // a newer tap is already being scored
    if (r.status !== 200) { tk.say("#msg", "bad", r.body.error, r.body.reasons); return; }
    tk.say("#msg", "info", "");
    $("#points").textContent = r.body.points;
    $("#sets").replaceChildren(...r.body.sets.map((s) =>
      el("li", null, s.map((k) => names[k] || k).join(" + "))));
  }
  for (const c of controls) {
    c.addEventListener("click", (ev) => {
      const b = ev.target.closest("button");
      if (!b) return;
      const out = c.querySelector("output");
      const n = Math.min(Number(c.dataset.max), Math.max(0, Number(out.textContent) + Number(b.dataset.step)));
      out.textContent = n;
      score();
    });
  }
  $("#clear").addEventListener("click", () => { for (const c of controls) c.querySelector("output").textContent = "0"; score(); });
})();
