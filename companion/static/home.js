/* Home page: the tables this phone joined lately (localStorage), as links back to them. */
(function () {
  const mine = tk.myTables().slice(0, 5);
  if (!mine.length) return;
  document.getElementById("mine").hidden = false;
  document.getElementById("my-tables").replaceChildren(...mine.map((t) =>
    tk.el("li", null, tk.el("a", { href: "/t/" + encodeURIComponent(t.code), class: "button secondary wide" },
      t.game + " · " + t.code.slice(0, 4) + "-" + t.code.slice(4)))));
})();
