/* Façade calculator: paint squares -> POST /api/shin-bikkuri-man/score -> points, rows, columns. */
(function () {
  "use strict";
  const { el, $ } = tk;
  const page = tk.pageData().page;
  const rows = Array.from({ length: page.rows }, () => ".".repeat(page.columns));
  let brush = page.colours[0].letter;
  let pending = 0;

  function renderBrush() {
    $("#brush").replaceChildren(...page.colours.map((c) => {
      const b = el("button", { type: "button", class: "secondary", "aria-pressed": String(c.letter === brush),
                               onclick: () => { brush = c.letter; renderBrush(); } });
      b.append(SBM.chip(page, c.id));
      return b;
    }));
  }
  function set(col, row) {
    const k = page.rows - row;
    const ch = $("#brick").checked && brush !== "w" ? brush.toUpperCase() : brush;
    const line = [...rows[k]];
    line[col - 1] = line[col - 1] === ch ? "." : ch;
    rows[k] = line.join("");
    draw(); score();
  }
  function draw() { SBM.facade($("#facade"), page, rows, { onTap: set, label: "Your façade" }); }
  async function score() {
    const mine = ++pending;
    const r = await tk.api("POST", "/api/shin-bikkuri-man/score", { board: rows });
    if (mine !== pending) return;
    if (r.status !== 200) { tk.say("#msg", "bad", r.body.error, r.body.reasons); return; }
    tk.say("#msg", "info", "");
    $("#points").textContent = r.body.points;
    $("#lines").replaceChildren(
      ...r.body.rows.map((x) => el("li", null, "Row " + x.row + ": " + x.points)),
      ...r.body.columns.map((x) => el("li", null, "Column " + x.column + ": " + x.points)));
  }
  $("#clear").addEventListener("click", () => { rows.fill(".".repeat(page.columns)); draw(); score(); });
  renderBrush(); draw();
})();
