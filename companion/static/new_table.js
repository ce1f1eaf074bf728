/* New table: player names (in playing order) and options, one POST with an Idempotency-Key.
 * A name left blank is the placeholder the field shows ("Player 2"), as the page says. */
(function () {
  "use strict";
  const { el, $, $$ } = tk;
  const data = tk.pageData();
  const names = $("#names");
  function add() {
    const n = names.children.length;
    if (n >= data.max) return;
    names.append(el("div", null,
      el("label", { for: "p" + n }, "Player " + (n + 1)),
      el("input", { id: "p" + n, type: "text", maxlength: "24", autocomplete: "off", enterkeyhint: "next",
                    placeholder: "Player " + (n + 1) })));
    buttons();
  }
  function buttons() {
    $("#add").disabled = names.children.length >= data.max;
    $("#remove").disabled = names.children.length <= data.min;
    seats();
  }
  // A seat chosen on this form (a game's option such as who starts) is chosen by the names typed
  // above, never "first player": every <select data-seats> of the game's options lists the players,
  // as named so far, in playing order (value: the seat index), and every element marked
  // data-seat-name="<seat index>" (a radio button's words) says that seat's name.
  function seats() {
    const typed = $$("#names input").map((i) => i.value.trim() || i.placeholder);
    for (const span of $$("#create [data-seat-name]")) {
      const name = typed[Number(span.dataset.seatName)];
      if (name !== undefined && span.textContent !== name) span.textContent = name;
    }
    for (const sel of $$("#create select[data-seats]")) {
      const was = Number(sel.value) || 0;
      sel.replaceChildren(...typed.map((name, i) => el("option", { value: String(i) }, name)));
      sel.value = String(was < typed.length ? was : 0);
    }
  }
  $("#add").addEventListener("click", add);
  $("#remove").addEventListener("click", () => { if (names.children.length > data.min) names.lastElementChild.remove(); buttons(); });
  names.addEventListener("input", seats);
  for (let i = 0; i < Math.max(data.min, 2) && i < data.max; i++) add();

  let key = null;        // one key for this form's submission, reused if it is retried
  $("#create").addEventListener("input", () => { key = null; });
  $("#create").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const players = $$("#names input").map((i) => i.value.trim() || i.placeholder);
    let options = {};
    const box = $("#options");
    if (box) {
      try { options = JSON.parse(box.value || "{}"); } catch (e) { tk.say("#msg", "bad", "Options are not JSON: " + e.message); return; }
    }
    if (window.tkOptions) options = window.tkOptions(options);   // the game's own option controls
    key = key || tk.newKey();
    const submit = $("#create button[type=submit]");
    submit.disabled = true;
    const r = await tk.api("POST", "/api/tables", { game: data.game, players, options }, { key });
    submit.disabled = false;
    if (r.status === 201) {
      tk.remember(r.body.code, data.game, { host: r.body.host_token });   // this phone acts for everyone
      location.href = "/t/" + encodeURIComponent(r.body.code);
    } else {
      tk.say("#msg", "bad", r.body.error || "The table could not be created.", r.body.reasons);
    }
  });
})();
