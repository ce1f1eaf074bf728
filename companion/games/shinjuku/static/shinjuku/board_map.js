/* The board twin's map: the printed map (GET /shinjuku/map.svg, drawn by companion/shinjuku_map.py
 * from the printed board's own geometry, in board millimetres) with the live state drawn on top:
 * track pieces, stores, customers waiting, the Matsuri; marks for what the move being built has
 * chosen; zoom; and taps turned into stations, connections and wards. What a tap means for the move
 * is board.js's business (onTap). Pieces are the printed pieces' faces (<use> of #map-pieces), so a
 * colour always comes with its name or a goods icon and letter.
 *
 *   const map = new tk.BoardMap(box, url, { onTap(hit) {...} });
 *   map.render(state, players, marks)   marks: {stations, connections, wards, path, card,
 *                                               cand: {stations, connections, wards},
 *                                               want: {stations, connections}}   (lists of ids)
 *   hit = {station, onStation, onMarker, connection, ward}   (ids or null)
 */
(function () {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";
  // The close-up level: 3.0 CSS px per map millimetre puts the smallest name on the map at 11.1 px:
  // on the phone every name is at least 3.704 mm to the em (the smallest ward name's size; the
  // stations' kanji, printed at 3.175 mm, and Akihabara's squeezed names are grown to it), so the
  // close-up shows a third more map than at the kanji's printed size (fewer drags to the station).
  const CLOSE_PX_PER_MM = 3.0;
  const CLOSE = 2;              // its index in levels()
  const MIN_LABEL_MM = 3.704;   // the smallest name on the phone's map, in mm to the em
  const STATION_R = 6.5;        // mm, the printed station marker (layouts/shinjuku.toml)
  const TOKEN = 13;             // mm, a waiting customer as drawn on the map (printed: 18 mm)
  const MIN_TOKEN = 10;         // mm, the smallest it gets when a ward is crowded

  function svgEl(tag, attrs, ...children) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined) continue;
      if (k === "href") node.setAttributeNS("http://www.w3.org/1999/xlink", "xlink:href", v);   // older Safari
      node.setAttribute(k, v);
    }
    for (const c of children) if (c) node.append(c);
    return node;
  }
  const nums = (text) => (text || "").trim().split(/\s+/).map(Number);
  function segDist(p, a, b) {
    const dx = b[0] - a[0], dy = b[1] - a[1];
    const len2 = dx * dx + dy * dy || 1;
    const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
    return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
  }

  class BoardMap {
    constructor(box, url, opts) {
      this.box = box;
      this.opts = opts || {};
      this.scroll = box.querySelector(".map-scroll");
      this.zoom = 0;
      this.pending = null;
      this.svg = null;
      const zin = box.querySelector("[data-zoom=in]"), zout = box.querySelector("[data-zoom=out]");
      if (zin) zin.addEventListener("click", () => this.setZoom(this.zoom + 1));
      if (zout) zout.addEventListener("click", () => this.setZoom(this.zoom - 1));
      const whole = box.querySelector("[data-zoom=whole]");
      if (whole) whole.addEventListener("click", () => {
        if (this.zoom === 0) this.setZoom(CLOSE, this.lastFocus || null); else this.setZoom(0);
      });
      this.ready = fetch(url).then((r) => {
        if (!r.ok) throw new Error("map " + r.status);
        return r.text();
      }).then((text) => this.mount(text)).catch((e) => {
        this.scroll.replaceChildren(Object.assign(document.createElement("p"), {
          className: "muted", textContent: "The map could not be loaded; the buttons above still enter every move." }));
        console.warn(e);
      });
      window.addEventListener("resize", () => this.sizeHits());
    }

    mount(text) {
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      const svg = document.importNode(doc.documentElement, true);
      svg.removeAttribute("aria-label");
      svg.setAttribute("aria-hidden", "true");   // the buttons above are the accessible way in
      svg.setAttribute("class", "map-svg");
      this.svg = svg;
      this.vb = nums(svg.getAttribute("viewBox"));
      this.layer = {};
      for (const id of ["live-tracks", "live-marks", "live-pieces", "live-customers", "map-outlines"]) {
        this.layer[id] = svg.querySelector("#" + id);
      }
      // Station names over the stores: a store or department store stands on its station and would
      // hide the name printed beside it (the printed board's names are under the pieces too, but a
      // player can lift a piece; here the name must stay readable). shinjuku.css gives them a halo.
      const labels = svg.querySelector("#map-labels");
      // A few names are printed smaller where the board is crowded (Akihabara): on the phone each is
      // at least MIN_LABEL_MM to the em, grown from its own start, so no name is under 11 px close up.
      for (const g of labels ? labels.querySelectorAll("[data-text]") : []) {
        const m = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)\s*scale\(([\d.]+)\)/.exec(g.getAttribute("transform") || "");
        if (m && +m[3] * 1000 < MIN_LABEL_MM) g.setAttribute("transform", `translate(${m[1]} ${m[2]}) scale(${MIN_LABEL_MM / 1000})`);
      }
      if (labels && this.layer["live-pieces"]) this.layer["live-pieces"].after(labels);
      this.stations = {};
      for (const g of svg.querySelectorAll("[data-station]")) {
        const hit = g.querySelector("circle[fill-opacity='0']");
        if (hit) hit.setAttribute("class", "hit");
        this.stations[g.dataset.station] = { g, hit, x: +g.dataset.x, y: +g.dataset.y, sakura: !!g.dataset.sakura };
      }
      this.connections = {};
      for (const g of svg.querySelectorAll("[data-connection]")) {
        const [x1, y1, x2, y2] = nums(g.dataset.ends);
        const d = Math.hypot(x2 - x1, y2 - y1) || 1, ux = (x2 - x1) / d, uy = (y2 - y1) / d;
        this.connections[g.dataset.connection] = {
          g, prebuilt: !!g.dataset.prebuilt, centre: nums(g.dataset.centre), angle: +g.dataset.angle,
          a: [x1 + ux * STATION_R, y1 + uy * STATION_R], b: [x2 - ux * STATION_R, y2 - uy * STATION_R] };
      }
      this.wards = {};
      for (const g of svg.querySelectorAll("[data-ward]")) this.wards[g.dataset.ward] = { g, spot: nums(g.dataset.spot) };
      this.outlines = {};
      for (const g of svg.querySelectorAll("[data-outline]")) this.outlines[g.dataset.outline] = g;
      this.faces = {};
      for (const g of svg.querySelectorAll("[data-piece]")) this.faces[g.dataset.piece] = { id: g.dataset.face, w: +g.dataset.w, h: +g.dataset.h };
      svg.addEventListener("click", (ev) => this.click(ev));
      this.scroll.replaceChildren(svg);
      this.box.classList.add("loaded");
      this.setZoom(0);
      if (this.pendingFocus) { this.focus(...this.pendingFocus); this.pendingFocus = null; }
      if (this.pending) this.render(...this.pending);
      if (this.opts.onMount) this.opts.onMount();
    }

    // ---------- zoom ----------
    /** The zoom levels, as multiples of the map fitted to the frame's width: the whole map, twice
     *  that, CLOSE (the level where every station and ward name is at least 11 CSS px: the page
     *  opens there, on the part in play) and closer still. */
    levels() {
      const fit = (this.scroll.clientWidth || 360) / (this.vb ? this.vb[2] : 490);    // px per mm, whole map
      const close = Math.max(1, CLOSE_PX_PER_MM / fit);
      return [1, Math.max(1, Math.min(2, close / 1.5)), close, close * 1.5];
    }
    setZoom(i, at) {
      if (!this.svg) return;
      const zooms = this.levels();
      i = Math.max(0, Math.min(zooms.length - 1, i));
      const s = this.scroll;
      let cx, cy;
      if (at) { [cx, cy] = at; } else {       // keep the middle of what is shown in the middle
        const k = this.scale();
        cx = this.vb[0] + (s.scrollLeft + s.clientWidth / 2) / k;
        cy = this.vb[1] + (s.scrollTop + s.clientHeight / 2) / k;
      }
      this.zoom = i;
      this.svg.style.width = zooms[i] * 100 + "%";
      this.box.dataset.zoom = String(i);
      this.reveal(cx, cy);
      const zin = this.box.querySelector("[data-zoom=in]"), zout = this.box.querySelector("[data-zoom=out]");
      const whole = this.box.querySelector("[data-zoom=whole]");
      if (zin) zin.disabled = i === zooms.length - 1;
      if (zout) zout.disabled = i === 0;
      if (whole) {
        whole.setAttribute("aria-pressed", String(i === 0));
        whole.textContent = i === 0 ? "Close up" : "Whole map";
      }
      this.sizeHits();
    }
    /** Close up on a point of the map (millimetres): the part in play. */
    focus(x, y) {
      this.lastFocus = [x, y];
      if (!this.svg) { this.pendingFocus = [x, y]; return; }
      if (this.zoom < CLOSE) this.setZoom(CLOSE, [x, y]);
      else this.reveal(x, y);
    }
    /** The part of the map (mm: [width, height]) the frame shows at the close-up zoom, less `margin`
     *  px on every side (null before the map is drawn). */
    closeView(margin) {
      if (!this.vb || !this.scroll.clientWidth) return null;
      const k = this.levels()[CLOSE] * this.scroll.clientWidth / this.vb[2], m = 2 * (margin || 0);
      return [Math.max(10, (this.scroll.clientWidth - m) / k), Math.max(10, (this.scroll.clientHeight - m) / k)];
    }
    /** Pixels per map millimetre, as shown now. */
    scale() {
      if (!this.svg) return 1;
      return (this.svg.getBoundingClientRect().width || 1) / this.vb[2];
    }
    /** Station tap circles: ~44 px across when zoomed in, at least ~34 px on the whole map (where
     *  they overlap, a tap goes to the nearest station: see click). */
    sizeHits() {
      if (!this.svg) return;
      const r = Math.max(12, Math.min(22, 22 / this.scale()));
      for (const s of Object.values(this.stations)) if (s.hit) s.hit.setAttribute("r", r.toFixed(1));
      this.hitR = r;
    }
    /** Scroll so a point of the map (millimetres) is in the middle of the frame. */
    reveal(x, y) {
      const s = this.scroll, k = this.scale();
      s.scrollLeft = (x - this.vb[0]) * k - s.clientWidth / 2;
      s.scrollTop = (y - this.vb[1]) * k - s.clientHeight / 2;
    }
    /** Whether a point of the map (millimetres) is in the frame's view now. */
    shows(x, y, margin) {
      const s = this.scroll, k = this.scale(), m = margin || 0;
      const px = (x - this.vb[0]) * k - s.scrollLeft, py = (y - this.vb[1]) * k - s.scrollTop;
      return px >= m && py >= m && px <= s.clientWidth - m && py <= s.clientHeight - m;
    }

    // ---------- taps ----------
    point(ev) {
      const m = this.svg.getScreenCTM();
      const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
      return [p.x, p.y];
    }
    click(ev) {
      if (!this.svg) return;
      const p = this.point(ev);
      const want = (this.marks && this.marks.want) || {};
      const k = this.scale();
      const hit = { station: null, onStation: null, onMarker: null, connection: null, ward: null, point: p };
      // on a station's marker (a little bigger than drawn, at least ~28 px across)
      const markerR = Math.max(STATION_R + 1.5, 14 / k);
      let best = null;
      for (const [sid, s] of Object.entries(this.stations)) {
        const d = Math.hypot(p[0] - s.x, p[1] - s.y);
        if (d <= markerR && (!best || d < best[1])) best = [sid, d];
      }
      if (best) hit.onStation = best[0];
      // right on the drawn marker (not a finger's width off it, on the track beside it)
      if (best && best[1] <= STATION_R + 1.5) hit.onMarker = best[0];
      // a station: the nearest within its tap circle, else the nearest one the move can use nearby
      const r = this.hitR || 12;
      const near = (pool, reach) => {
        let found = null;
        for (const sid of pool) {
          const s = this.stations[sid];
          if (!s) continue;
          const d = Math.hypot(p[0] - s.x, p[1] - s.y);
          if (d <= reach && (!found || d < found[1])) found = [sid, d];
        }
        return found && found[0];
      };
      hit.station = near(Object.keys(this.stations), r) || near(want.stations || [], r * 1.5);
      // a connection: the nearest one (the move can use) within a finger's width
      const pool = want.connections || Object.keys(this.connections);
      const reach = Math.max(6, 18 / k);
      best = null;
      for (const cid of pool) {
        const c = this.connections[cid];
        if (!c) continue;
        const d = segDist(p, c.a, c.b);
        if (d <= reach && (!best || d < best[1])) best = [cid, d];
      }
      if (best) hit.connection = best[0];
      // the ward under the finger
      for (const node of document.elementsFromPoint(ev.clientX, ev.clientY)) {
        const w = node.closest && node.closest("[data-ward]");
        if (w) { hit.ward = w.dataset.ward; break; }
      }
      if (!hit.ward && hit.onStation && this.opts.wardOf) hit.ward = this.opts.wardOf(hit.onStation);
      if (this.opts.onTap) this.opts.onTap(hit);
    }

    // ---------- drawing the live state ----------
    use(piece, transform, extra) {
      const f = this.faces[piece];
      if (!f) return null;
      return svgEl("use", Object.assign({ href: "#" + f.id, transform }, extra || {}));
    }
    render(state, players, marks) {
      if (!this.svg) { this.pending = [state, players, marks]; return; }
      this.pending = null;
      this.state = state; this.marks = marks || {};
      this.drawTracks(state);
      this.drawStores(state);
      this.drawCustomers(state, players);
      this.drawMarks(this.marks, state);
    }
    colourOf(state, owner) {
      const pl = owner === null || owner === undefined ? null : state.players[owner];
      return pl ? pl.colour : null;
    }
    drawTracks(state) {
      const out = [];
      for (const [cid, owner] of Object.entries(state.tracks || {})) {
        const c = this.connections[cid];
        if (!c) continue;
        const colour = this.colourOf(state, owner);
        if (colour === null && c.prebuilt) continue;          // printed: built from the start
        let a = c.angle;                                        // keep the colour name upright
        if (a > 90) a -= 180; else if (a <= -90) a += 180;
        const f = this.faces["track-" + colour];
        const t = `translate(${c.centre[0]} ${c.centre[1]}) rotate(${a})`;
        if (f) {
          out.push(svgEl("g", { "data-track": cid, "data-owner": String(owner) },
            this.use("track-" + colour, t + ` translate(${-f.w / 2} ${-f.h / 2})`)));
        } else {                                                // owned by nobody: a plain dark piece
          out.push(svgEl("g", { "data-track": cid, "data-owner": "none", transform: t },
            svgEl("rect", { x: -8.5, y: -3, width: 17, height: 6, rx: 0.8, fill: "#3a3a3c" })));
        }
      }
      this.layer["live-tracks"].replaceChildren(...out);
    }
    drawStores(state) {
      const out = [];
      for (const [sid, s] of Object.entries(state.stations || {})) {
        const at = this.stations[sid];
        const colour = this.colourOf(state, s.owner);
        if (!at || !colour) continue;
        const piece = s.kind === "store" ? "store-" + colour + "-" + s.goods : "department-store-" + colour;
        const f = this.faces[piece];
        if (!f) continue;
        out.push(svgEl("g", { "data-store": sid, "data-owner": String(s.owner), "data-kind": s.kind },
          // a white halo so the piece reads on any ward colour, as a real piece casts an edge
          svgEl("rect", { x: at.x - f.w / 2 - 0.8, y: at.y - f.h / 2 - 0.8, width: f.w + 1.6, height: f.h + 1.6,
                          rx: 1.2, fill: "#ffffff", stroke: "#1d1d1f", "stroke-width": 0.5 }),
          this.use(piece, `translate(${at.x - f.w / 2} ${at.y - f.h / 2})`)));
      }
      this.layer["live-pieces"].replaceChildren(...out);
    }
    drawCustomers(state, players) {
      const out = [];
      const order = this.opts.tokenOrder || [];
      for (const [wid, w] of Object.entries(this.wards)) {
        const here = (state.wards && state.wards[wid]) || [];
        const counts = new Map();
        for (const t of order) if (here.includes(t)) counts.set(t, here.filter((x) => x === t).length);
        for (const t of here) if (!counts.has(t)) counts.set(t, here.filter((x) => x === t).length);
        const items = [];
        if (state.matsuri === wid) items.push(["matsuri", 1]);
        for (const [t, n] of counts) items.push(["customer-" + t, n]);
        if (!items.length) continue;
        const [sx, sy, sw, sh] = w.spot;
        // as big as the ward's free spot allows (at most TOKEN); never so small that the goods and
        // the "2" cannot be told apart: then the last rows run on below the spot
        const gap = 1.6;
        let size = TOKEN, cols = 1;
        for (size = TOKEN; size > MIN_TOKEN; size -= 0.5) {
          cols = Math.max(1, Math.floor((sw + gap) / (size + gap)));
          if (Math.ceil(items.length / cols) * (size + gap) - gap <= sh + 0.01) break;
        }
        cols = Math.max(1, Math.min(items.length, Math.floor((sw + gap) / (size + gap))));
        const g = svgEl("g", { "data-customers": wid });
        items.forEach(([piece, n], i) => {
          const f = this.faces[piece];
          if (!f) return;
          const col = i % cols, row = Math.floor(i / cols);
          const x = sx + col * (size + gap), y = sy + row * (size + gap);
          const k = size / f.w;
          const node = this.use(piece, `translate(${x} ${y}) scale(${k})`, { "data-token": piece.replace(/^customer-/, "") });
          g.append(svgEl("circle", { cx: x + size / 2, cy: y + size / 2, r: size / 2 + 0.5, fill: "#ffffff" }), node);
          if (n > 1) {
            const r = size * 0.3, bx = x + size - r * 0.35, by = y + r * 0.45;
            g.append(svgEl("g", { class: "count", "data-count": String(n) },
              svgEl("circle", { cx: bx, cy: by, r, fill: "#1d1d1f", stroke: "#ffffff", "stroke-width": 0.6 }),
              svgEl("text", { x: bx, y: by + r * 0.43, "text-anchor": "middle", "font-size": r * 1.22, "font-weight": 700, fill: "#ffffff" }, document.createTextNode("×" + n))));
          }
        });
        out.push(g);
      }
      this.layer["live-customers"].replaceChildren(...out);
      for (const [wid, g] of Object.entries(this.outlines)) g.classList.toggle("matsuri", state.matsuri === wid);
    }
    drawMarks(marks, state) {
      const out = [];
      const ring = (x, y, r, cls) => cls.startsWith("pick")
        ? svgEl("g", { class: cls }, svgEl("circle", { cx: x, cy: y, r, class: "halo" }), svgEl("circle", { cx: x, cy: y, r }))
        : svgEl("circle", { cx: x, cy: y, r, class: cls });
      const cand = marks.cand || {};
      for (const wid of cand.wards || []) if (this.outlines[wid]) out.push(this.outlineCopy(wid, "cand"));
      for (const wid of marks.wards || []) if (this.outlines[wid]) out.push(this.outlineCopy(wid, "pick"));
      for (const cid of cand.connections || []) {
        const c = this.connections[cid];
        if (c) out.push(svgEl("line", { x1: c.a[0], y1: c.a[1], x2: c.b[0], y2: c.b[1], class: "cand-conn" }));
      }
      for (const cid of marks.connections || []) {
        const c = this.connections[cid];
        if (c) out.push(svgEl("line", { x1: c.a[0], y1: c.a[1], x2: c.b[0], y2: c.b[1], class: "pick-conn" }));
      }
      for (const sid of cand.stations || []) {
        const s = this.stations[sid];
        if (s) out.push(ring(s.x, s.y, 9.5, "cand"));
      }
      const path = marks.path || [];
      if (path.length > 1) {
        out.push(svgEl("polyline", { points: path.map((sid) => this.stations[sid].x + "," + this.stations[sid].y).join(" "), class: "pick-path" }));
      }
      path.forEach((sid, i) => {
        const s = this.stations[sid];
        out.push(ring(s.x, s.y, 10, "pick"),
          svgEl("g", { class: "step" }, svgEl("circle", { cx: s.x + 8, cy: s.y - 8, r: 4.2 }),
            svgEl("text", { x: s.x + 8, y: s.y - 6.3, "text-anchor": "middle" }, document.createTextNode(String(i + 1)))));
      });
      for (const sid of marks.stations || []) {
        const s = this.stations[sid];
        if (s) out.push(ring(s.x, s.y, 10, "pick"));
      }
      if (marks.from && this.stations[marks.from]) {
        const s = this.stations[marks.from];
        out.push(ring(s.x, s.y, 10, "pick from"));
      }
      this.layer["live-marks"].replaceChildren(...out);
    }
    outlineCopy(wid, cls) {
      const path = this.outlines[wid].querySelector("path");
      return svgEl("path", { d: path.getAttribute("d"), class: "ward-" + cls });
    }
  }

  tk.BoardMap = BoardMap;
})();
