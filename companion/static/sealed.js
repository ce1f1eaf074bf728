/* Sealed choices as a table sees them, on every game page of a table (loaded by at_table.html): the
 * table's "sealed" (contract.Rules.sealed: {label, seats: [{seat, sealed}], reveal: {id, title?,
 * text, values}}) shown as each seat's status ("Aki sealed ✓ · Ben choosing…") while choices are
 * sealed, and the last reveal as a banner on every phone ("Aki ¥500 · Ben ¥300 → Aki first") that
 * stays until it is dismissed (the dismissed reveal's id is remembered per table in localStorage)
 * or the next reveal comes.
 *
 * Where: the element with id "sealed" if the page has one, else a box inserted under #facts.
 * API: tk.renderSealed(box, table, code) draws it (the page calls nothing: every "tk:table" event
 * redraws it). */
(function () {
  "use strict";
  if (!window.tk || tk.renderSealed) return;
  const { el } = tk;

  const CSS = `
#sealed { margin: .5rem 0; display: grid; gap: .4rem; }
#sealed[hidden] { display: none; }
.sealed-seats { list-style: none; margin: 0; padding: .45rem .7rem; display: flex; flex-wrap: wrap; gap: .3rem .9rem;
  border-radius: 10px; background: var(--wash, #eef2f8); font-size: .95rem; }
.sealed-seats li { display: inline-flex; gap: .3rem; align-items: baseline; min-height: 28px; }
.sealed-seats li.done { font-weight: 700; color: #1b5e20; }
.sealed-seats li.wait { color: #5c3200; }
.sealed-seats li.me { text-decoration: underline; text-underline-offset: 3px; }
.sealed-head { font-weight: 700; width: 100%; font-size: .8rem; text-transform: uppercase; letter-spacing: .03em; color: #444; }
.sealed-reveal { display: flex; gap: .6rem; align-items: center; padding: .6rem .7rem; border-radius: 12px;
  background: #fff5d6; border: 2px solid #8a6d00; color: #2b2100; }
.sealed-reveal .text { flex: 1 1 auto; min-width: 0; overflow-wrap: anywhere; }
.sealed-reveal .text strong { display: block; font-size: .8rem; text-transform: uppercase; letter-spacing: .03em; }
.sealed-reveal .text span { font-size: 1.1rem; font-weight: 800; }
.sealed-reveal button { flex: none; min-height: 44px; min-width: 44px; }
`;

  function style() {
    if (document.getElementById("sealed-css")) return;
    const s = document.createElement("style");
    s.id = "sealed-css";
    s.textContent = CSS;
    document.head.append(s);
  }

  const key = (code) => "tk.sealed." + code;
  function dismissed(code) { try { return localStorage.getItem(key(code)) || ""; } catch (e) { return ""; } }
  function dismiss(code, id) { try { localStorage.setItem(key(code), id); } catch (e) { /* private mode */ } }

  /** The box: #sealed, or one made under #facts (or at the end of the page's main content). */
  function box() {
    let b = document.getElementById("sealed");
    if (b) return b;
    b = el("div", { id: "sealed", "aria-live": "polite", hidden: "" });
    const facts = document.getElementById("facts");
    if (facts) facts.after(b);
    else (document.querySelector("main") || document.body).append(b);
    return b;
  }

  tk.renderSealed = function (root, table, code) {
    if (!root) return;
    style();
    const s = (table && table.sealed) || null;
    const names = (table && table.players) || [];
    const me = table && table.you && typeof table.you.player === "number" ? table.you.player : null;
    const parts = [];
    if (s && s.seats && s.seats.length && !(table && table.result)) {
      const waiting = s.seats.filter((x) => !x.sealed).length;
      parts.push(el("ul", { class: "sealed-seats", "aria-label": "Sealed " + (s.label || "choices") },
        el("li", { class: "sealed-head" }, "Sealed " + (s.label || "choices") + ": " +
          (waiting ? waiting + " still choosing" : "everyone has sealed")),
        s.seats.map((x) => el("li", { class: (x.sealed ? "done" : "wait") + (x.seat === me ? " me" : ""),
                                      "data-seat": String(x.seat) },
          (names[x.seat] || "Seat " + (x.seat + 1)) + (x.sealed ? " sealed ✓" : " choosing…")))));
    }
    const r = s && s.reveal;
    if (r && r.id && dismissed(code) !== r.id) {
      parts.push(el("div", { class: "sealed-reveal", role: "status", "data-reveal": r.id },
        el("div", { class: "text" }, el("strong", null, r.title || "Revealed"), el("span", null, r.text)),
        el("button", { type: "button", class: "secondary", "aria-label": "Dismiss the reveal",
                       onclick: () => { dismiss(code, r.id); tk.renderSealed(root, table, code); } }, "OK")));
    }
    root.replaceChildren(...parts);
    root.hidden = !parts.length;
  };

  document.addEventListener("tk:table", (ev) => {
    const { link, table } = ev.detail;
    tk.renderSealed(box(), table, (link && link.code) || (table && table.code));
  });
})();
