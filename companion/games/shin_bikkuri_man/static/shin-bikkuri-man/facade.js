/* Shin Bikkuri Man: a façade on screen. The printed board's grid (GET /shin-bikkuri-man/facade.svg,
 * drawn by the generator) is inlined once; the live squares are laid over it in its own millimetres,
 * each with its colour, its colour's symbol (the kit's colour-blind cue) and a window or brickwork.
 * Façade notation as API.md: 9 strings, top row first, "." empty, lower case window, upper case brick. */
(function () {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";
  const SBM = (window.SBM = window.SBM || {});
  let gridText = null;

  SBM.loadGrid = async function (url) {
    if (gridText) return gridText;
    const r = await fetch(url, { credentials: "same-origin" });
    gridText = await r.text();
    return gridText;
  };

  function svgEl(tag, attrs) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  }
  SBM.svgEl = svgEl;

  SBM.symbolPoints = function (kind, cx, cy, r) {
    if (kind === "triangle") return [0, 1, 2].map((k) => [cx + r * Math.sin(k * 2 * Math.PI / 3), cy - r * Math.cos(k * 2 * Math.PI / 3)]);
    if (kind === "square") { const s = r * 0.8; return [[cx - s, cy - s], [cx + s, cy - s], [cx + s, cy + s], [cx - s, cy + s]]; }
    if (kind === "diamond") return [[cx, cy - r], [cx + r, cy], [cx, cy + r], [cx - r, cy]];
    if (kind === "star") return [...Array(10).keys()].map((k) => { const rr = k % 2 ? r * 0.45 : r; const a = k * Math.PI / 5; return [cx + rr * Math.sin(a), cy - rr * Math.cos(a)]; });
    return null;
  };

  SBM.symbol = function (kind, cx, cy, r, fill, stroke) {
    const pts = SBM.symbolPoints(kind, cx, cy, r);
    const st = { fill: fill || "#fff", stroke: stroke || "#1e1e1e", "stroke-width": 0.3 };
    if (!pts) return svgEl("circle", Object.assign({ cx, cy, r: r * 0.85 }, st));
    return svgEl("polygon", Object.assign({ points: pts.map((p) => p.join(",")).join(" ") }, st));
  };

  /** One square (colour id, brick?) at (x, y) of size s, as an SVG group. */
  SBM.square = function (page, colourId, brick, x, y, s, opts) {
    const o = opts || {};
    const col = page.colours.find((c) => c.id === colourId) || { hex: "#fff", symbol: "none" };
    const g = svgEl("g", { class: "sq", "data-colour": colourId, "data-brick": brick ? "1" : "0" });
    g.appendChild(svgEl("rect", { x, y, width: s, height: s, fill: col.hex, stroke: "#1e1e1e", "stroke-width": 0.5,
                                  opacity: o.opacity || 1 }));
    if (brick) {
      for (let k = 1; k < 5; k++) g.appendChild(svgEl("line", { x1: x, y1: y + k * s / 5, x2: x + s, y2: y + k * s / 5, stroke: "#8d3b2a", "stroke-width": 0.4 }));
      for (let k = 0; k < 5; k++) for (let j = 0; j < 3; j++) {
        const bx = x + (k % 2 ? s / 6 : 0) + j * s / 3;
        if (bx > x && bx < x + s) g.appendChild(svgEl("line", { x1: bx, y1: y + k * s / 5, x2: bx, y2: y + (k + 1) * s / 5, stroke: "#8d3b2a", "stroke-width": 0.4 }));
      }
    } else {
      const m = s * 0.24;
      g.appendChild(svgEl("rect", { x: x + m, y: y + m * 0.9, width: s - 2 * m, height: s - 1.8 * m, fill: "#cfe6f5", stroke: "#1e1e1e", "stroke-width": 0.35, rx: 0.6 }));
      g.appendChild(svgEl("line", { x1: x + s / 2, y1: y + m * 0.9, x2: x + s / 2, y2: y + s - m * 0.9, stroke: "#1e1e1e", "stroke-width": 0.35 }));
    }
    if (colourId !== "white") g.appendChild(SBM.symbol(col.symbol, x + 2.8, y + 2.8, 1.7));
    return g;
  };

  /**
   * Draw a façade into `box` (an element): the printed grid plus the squares of `rows`.
   * opts.onTap(col, row) makes each square tappable; opts.preview = {cells: [[col,row,brick]], colour, bad}.
   * Returns the <svg>.
   */
  SBM.facade = async function (box, page, rows, opts) {
    const o = opts || {};
    const text = await SBM.loadGrid(page.facade_url);
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const svg = document.importNode(doc.documentElement, true);
    svg.removeAttribute("width"); svg.removeAttribute("height");
    svg.classList.add("facade-svg");
    // the printed row and column numbers are a few pixels tall on a phone: left to the paper
    if (o.numbers === false) for (const t of svg.querySelectorAll("[data-text]")) t.remove();
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", o.label || "Façade");
    const grid = svg.querySelector("[id$=facade-grid]") || svg.querySelector("[data-square]");
    const s = Number(grid.dataset.square), pad = Number(grid.dataset.pad);
    const R = page.rows, C = page.columns;
    const at = (c, r) => [pad + (c - 1) * s, pad + (R - r) * s];
    const live = svgEl("g", { id: "live-squares" });
    rows.forEach((line, k) => {
      const r = R - k;
      [...line].forEach((ch, i) => {
        if (ch === ".") return;
        const colour = (page.colours.find((c) => c.letter === ch.toLowerCase()) || {}).id;
        const [x, y] = at(i + 1, r);
        const g = SBM.square(page, colour, ch !== ch.toLowerCase(), x, y, s);
        g.dataset.square = (i + 1) + "," + r;
        live.appendChild(g);
      });
    });
    svg.appendChild(live);
    if (o.preview && o.preview.cells.length) {
      const pv = svgEl("g", { id: "preview", class: o.preview.bad ? "bad" : "good" });
      for (const [c, r, brick] of o.preview.cells) {
        if (c < 1 || c > C || r < 1 || r > R) continue;
        const [x, y] = at(c, r);
        pv.appendChild(SBM.square(page, o.preview.colour, brick, x, y, s, { opacity: 0.75 }));
        pv.appendChild(svgEl("rect", { x: x + 0.6, y: y + 0.6, width: s - 1.2, height: s - 1.2, fill: "none",
                                        stroke: o.preview.bad ? "#c62828" : "#1565c0", "stroke-width": 1.2, "stroke-dasharray": "2 1" }));
      }
      svg.appendChild(pv);
    }
    if (o.onTap) {
      const hits = svgEl("g", { id: "hits" });
      for (let r = 1; r <= R; r++) for (let c = 1; c <= C; c++) {
        const [x, y] = at(c, r);
        const h = svgEl("rect", { x, y, width: s, height: s, fill: "transparent", class: "hit", "data-col": c, "data-row": r });
        h.addEventListener("click", () => o.onTap(c, r));
        hits.appendChild(h);
      }
      svg.appendChild(hits);
    }
    box.replaceChildren(svg);
    return svg;
  };

  /** A card (harbour or hand) as a small coloured chip with its symbol and name. */
  SBM.chip = function (page, colourId, label) {
    const col = page.colours.find((c) => c.id === colourId) || { hex: "#eee", symbol: "none", name: colourId };
    const svg = svgEl("svg", { viewBox: "0 0 10 10", width: 18, height: 18, "aria-hidden": "true" });
    svg.appendChild(SBM.symbol(col.symbol, 5, 5, 4, "#fff", "#1e1e1e"));
    const span = document.createElement("span");
    span.className = "chip";
    span.style.background = col.hex;
    span.append(svg, document.createTextNode(" " + (label || col.name)));
    return span;
  };

  /**
   * A tile's shape as a small SVG (each square with its colour, symbol, window or brick, as on the
   * façade): `cells` [[dx, dy(up), brick]] from SBM.orient.
   */
  SBM.tileSvg = function (page, colourId, cells) {
    const s = 22;
    const w = Math.max(...cells.map((c) => c[0])) + 1, h = Math.max(...cells.map((c) => c[1])) + 1;
    const svg = svgEl("svg", { viewBox: `-1 -1 ${w * s + 2} ${h * s + 2}`, class: "tile-shape", "aria-hidden": "true" });
    for (const [x, y, b] of cells) svg.appendChild(SBM.square(page, colourId, b, x * s, (h - 1 - y) * s, s));
    return svg;
  };

  /** A card as a face (harbour, palette): its colour, its colour's symbol large and a label below. */
  SBM.cardFace = function (page, colourId, label) {
    const col = page.colours.find((c) => c.id === colourId) || { hex: "#eee", symbol: "none", name: colourId };
    const face = document.createElement("span");
    face.className = "card-face";
    face.style.background = col.hex;
    const svg = svgEl("svg", { viewBox: "0 0 10 10", class: "card-symbol", "aria-hidden": "true" });
    svg.appendChild(SBM.symbol(col.symbol, 5, 5, 4, "#fff", "#1e1e1e"));
    const tag = document.createElement("span");
    tag.className = "card-label";
    tag.textContent = label;
    face.append(svg, tag);
    return face;
  };

  /** The cells of a tile turned `rot` quarter turns and flipped: [[dx, dy(up), brick]], normalised. */
  SBM.orient = function (tile, rot, flip) {
    let cells = tile.cells.map(([x, y, ch]) => [x, y, ch === "B"]);
    if (flip) cells = cells.map(([x, y, b]) => [-x, y, b]);
    for (let k = 0; k < rot; k++) cells = cells.map(([x, y, b]) => [y, -x, b]);
    const mx = Math.min(...cells.map((c) => c[0])), my = Math.min(...cells.map((c) => c[1]));
    return cells.map(([x, y, b]) => [x - mx, y - my, b]);
  };
})();
