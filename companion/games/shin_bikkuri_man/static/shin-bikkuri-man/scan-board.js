/* The page behind a player board's QR code: that seat's façade, drawn like the board twin's. */
(function () {
  "use strict";
  const box = document.getElementById("facade");
  if (box) SBM.facade(box, tk.pageData().page, JSON.parse(box.dataset.rows), { label: "Façade" });
})();
