/* Sapporo 1876's options on the new-table form: who shuffles the tiles, who starts (chosen by the
 * names just typed above: each choice says the name its field holds, or the field's "Player n"). */
(function () {
  "use strict";
  function names() {
    const boxes = document.querySelectorAll("#names input");
    for (const span of document.querySelectorAll("[data-seat-name]")) {
      const box = boxes[Number(span.dataset.seatName)];
      if (box) span.textContent = box.value.trim() || box.placeholder;
    }
  }
  document.addEventListener("input", (ev) => { if (ev.target.closest && ev.target.closest("#names")) names(); });
  document.addEventListener("DOMContentLoaded", names);
  window.tkOptions = function (advanced) {
    return Object.assign({}, advanced, {
      tiles: document.querySelector("input[name=tiles]:checked").value,
      start_player: Number(document.querySelector("input[name=start_player]:checked").value),
    });
  };
})();
