/* Sapporo 1876's options on the new-table form: who shuffles the tiles, who starts. */
window.tkOptions = function (advanced) {
  return Object.assign({}, advanced, {
    tiles: document.querySelector("input[name=tiles]:checked").value,
    start_player: Number(document.querySelector("select[name=start_player]").value),
  });
};
