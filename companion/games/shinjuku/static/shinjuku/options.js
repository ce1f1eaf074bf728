/* Shinjuku's new-table options: who draws the cards and customers (new_table.js calls tkOptions). */
window.tkOptions = function (advanced) {
  return Object.assign({}, advanced, { deck: document.querySelector("input[name=deck]:checked").value });
};
