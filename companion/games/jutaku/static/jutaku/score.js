/* Site card yen: tap cards (white, blue, off) -> POST /api/jutaku/score -> total yen. */
(function () {
  "use strict";
  const { $, $$ } = tk;
  let pending = 0;
  let blue = 0;                 // Bottle Bonus: blue drinks kept beside the site cards
  async function score() {
    const sites = $$(".jt-site").filter((b) => b.dataset.state !== "0")
      .map((b) => b.dataset.site + (b.dataset.state === "2" ? ":blue" : ""));
    const mine = ++pending;
    $("#blue").textContent = String(blue);
    const r = await tk.api("POST", "/api/jutaku/score", { sites, blue_drinks: blue });
    if (mine !== pending) return;
    $("#count").textContent = sites.length ? sites.length + " card" + (sites.length > 1 ? "s" : "") +
      (sites.length === 4 ? " — a 4th card ends the game" : "") : "No card yet.";
    if (r.status !== 200) { $("#yen").textContent = "—"; tk.say("#msg", "bad", r.body.error, r.body.reasons); return; }
    tk.say("#msg", "info", "");
    $("#yen").textContent = r.body.yen.toLocaleString("en-US");
  }
  for (const b of $$(".jt-site")) {
    b.addEventListener("click", () => {
      b.dataset.state = String((Number(b.dataset.state) + 1) % 3);
      b.setAttribute("aria-pressed", b.dataset.state !== "0" ? "true" : "false");
      score();
    });
  }
  $("#blue-less").addEventListener("click", () => { blue = Math.max(0, blue - 1); score(); });
  $("#blue-more").addEventListener("click", () => { blue += 1; score(); });
  $("#clear").addEventListener("click", () => { for (const b of $$(".jt-site")) { b.dataset.state = "0"; b.setAttribute("aria-pressed", "false"); } blue = 0; score(); });
})();
