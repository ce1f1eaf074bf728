/* Home page: the tables this phone joined lately (localStorage), each a link back to it that says
 * which game, who plays, whose turn it is (or how it ended) and when the last move was made.
 * Each table is asked once (GET the table, and its last event for the time); a table the companion
 * no longer has, or no connection, still leaves the link. */
(function () {
  const { el } = tk;
  const data = tk.pageData();
  const mine = tk.myTables().slice(0, 5);
  if (!mine.length) return;
  document.getElementById("mine").hidden = false;
  const gameName = (id) => (data.games || {})[id] || id;

  function ago(ms) {
    const s = Math.max(0, (Date.now() - ms) / 1000);
    if (s < 60) return "just now";
    if (s < 3600) return Math.floor(s / 60) + " min ago";
    if (s < 86400) return tk.count(Math.floor(s / 3600), "hour") + " ago";
    if (s < 7 * 86400) return tk.count(Math.floor(s / 86400), "day") + " ago";
    return new Date(ms).toLocaleDateString();
  }
  function state(t, me) {
    const you = (i) => (i === me ? "you (" + t.players[i] + ")" : t.players[i]);
    if (t.result) {
      const w = t.result.winners || [];
      return "over: " + (w.length ? w.map(you).join(" and ") + (w.length > 1 || w[0] === me ? " won" : " won") : "no winner");
    }
    if (t.turn !== null && t.turn !== undefined) return t.turn === me ? "your turn" : t.players[t.turn] + " to play";
    const seats = (t.actors && t.actors.seats) || [];
    if (t.actors && t.actors.mode === "all") return "everyone plays";
    if (seats.length) return "waiting for " + seats.map(you).join(", ");
    return t.seq ? "in play" : "not started";
  }

  const items = mine.map((m) => {
    const line = el("span", { class: "small table-state" }, "…");
    const li = el("li", { "data-code": m.code },
      el("a", { href: "/t/" + encodeURIComponent(m.code), class: "table-link" },
        el("strong", null, gameName(m.game)), " ",
        el("span", { class: "small muted code" }, m.code.slice(0, 4) + "-" + m.code.slice(4)),
        el("br"), line));
    fill(m, line);
    return li;
  });
  document.getElementById("my-tables").replaceChildren(...items);

  async function fill(m, line) {
    const url = "/api/tables/" + encodeURIComponent(m.code);
    const r = await tk.api("GET", url, undefined, { token: m.token || m.host || undefined });
    if (r.status === 404) { line.textContent = "This companion no longer has this table."; return; }
    if (r.status !== 200) { line.textContent = "Opened " + ago(m.at) + " on this phone (no connection now)."; return; }
    const t = r.body;
    const me = typeof m.player === "number" && m.player >= 0 ? m.player : null;
    const parts = [t.players.join(", "), state(t, me)];
    let when = null;
    if (t.seq > 0) {
      const e = await tk.api("GET", url + "/events?since=" + (t.seq - 1));
      const last = e.status === 200 && (e.body.events || []).slice(-1)[0];
      if (last && last.at_ms) when = "last move " + ago(last.at_ms);
    }
    parts.push(when || "opened " + ago(m.at));
    line.textContent = parts.join(" · ");
  }
})();
