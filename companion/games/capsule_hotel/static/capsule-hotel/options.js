/* Tokyo Capsule Hotel's options on the new-table form (new_table.js calls tkOptions): the bonus
 * dice, the variants and the count's length. A file, not an inline script: the companion's
 * Content-Security-Policy runs only its own files. */
window.tkOptions = function (advanced) {
  const v = (id) => document.getElementById(id);
  return Object.assign({}, advanced, {
    dice: document.querySelector("input[name=ch-dice]:checked").value,
    attraction_cards: v("ch-cards").value,
    tallest_hotel: v("ch-tallest").checked,
    outside_money: v("ch-outside").checked,
    declare_seconds: Math.max(1, Math.min(30, parseInt(v("ch-seconds").value, 10) || 5)),
  });
};
