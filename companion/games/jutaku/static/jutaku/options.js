/* Tokyo Jutaku's options on the new-table form: which game, who draws, the map side, the clocks. */
window.tkOptions = function (advanced) {
  const mode = document.querySelector("input[name=jt-mode]:checked").value;
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
