/* Tokyo Jutaku's options on the new-table form: which game, who draws, the map side, the clocks. Only
 * what the chosen variant uses is shown, and what it is in a sentence (#jt-what) (elements marked data-for="<variants>"): the map side and the
 * round limit for Tokyo Jutaku and Bottle Bonus, the floors for Countdown; who draws is said in the
 * variant's words. */
(function () {
  function chosen() { return document.querySelector("input[name=jt-mode]:checked").value; }
  function show() {
    const mode = chosen();
    document.querySelectorAll(".jt-options [data-for]").forEach((node) => {
      node.hidden = !node.dataset.for.split(" ").includes(mode);
    });
    const what = document.getElementById("jt-what");
    const label = document.querySelector("input[name=jt-mode]:checked").closest("label");
    if (what && label) what.textContent = label.dataset.text;
  }
  document.querySelectorAll("input[name=jt-mode]").forEach((r) => r.addEventListener("change", show));
  show();

  window.tkOptions = function (advanced) {
    const mode = chosen();
    const o = { mode: mode === "bottle" ? "jutaku" : mode };
    if (mode === "bottle") o.bottle_bonus = true;
    if (document.getElementById("jt-companion").checked) o.chance = "companion";
    if (o.mode === "jutaku") {
      o.side = document.getElementById("jt-side").value;
      o.round_seconds = Number(document.getElementById("jt-round").value || 0);
    }
    if (mode === "countdown") {
      o.floor_seconds = document.getElementById("jt-floors").value.split(/[ ,]+/).filter(Boolean).map(Number);
    }
    return Object.assign(o, advanced);
  };
})();
