/* Shin Bikkuri Man's new-table options: who deals and refills the harbour (new_table.js calls tkOptions). */
window.tkOptions = function (advanced) {
  return Object.assign({}, advanced, { deck: document.querySelector("input[name=deck]:checked").value });
};
