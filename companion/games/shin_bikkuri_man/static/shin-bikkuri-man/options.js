/* Shin Bikkuri Man's new-table options: who deals and refills the harbour and, with our own deck,
 * whether cards are named only when paid (the default) or every card is entered (new_table.js calls
 * tkOptions). */
window.tkOptions = function (advanced) {
  const deck = document.querySelector("input[name=deck]:checked").value;
  const out = Object.assign({}, advanced, { deck });
  if (deck === "table" && !("cards" in out)) {
    out.cards = document.querySelector("input[name=cards-entered]").checked ? "entered" : "named-when-paid";
  }
  return out;
};
