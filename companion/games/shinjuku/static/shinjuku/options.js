/* Shinjuku's new-table options: who draws the cards and customers, and with the table's own deck
 * whether hands are entered (new_table.js calls tkOptions). Hands kept and named at play ("named")
 * unless the box is ticked; a table created without "hands" (before the option) keeps "entered". */
window.tkOptions = function (advanced) {
  const deck = document.querySelector("input[name=deck]:checked").value;
  const out = Object.assign({}, advanced, { deck });
  if (deck === "table") out.hands = document.querySelector("input[name=hands-entered]").checked ? "entered" : "named";
  return out;
};
