"""Every piece of the box as a printable token: capsules by colour (colour, pattern and letter),
entrances, vending machines, cemetery stencils, buildings, player seals (front; "Pass" on the back),
coupons, the round expenses markers, the attraction cards (side A front, side B back), the die net of
the six-sided bonus die and the roll table of the dice that are not cubes."""
from __future__ import annotations

import math

from ...canon.capsule_hotel import Building, CapsuleHotel
from ...draw import Canvas, Style
from .common import Palette, coupon_mark, label, paragraph, pattern, qr_block, yen
from .layout import Layout


def draw_capsule(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette, colour) -> None:
    w, _, _ = data.pieces.capsule
    h = data.pieces.capsule[1]
    canvas.rect(0, 0, w, h, Style(fill=pal.fill(colour.hex), stroke=pal.ink, width=0.3))
    ink = "#ffffff" if not pal.ink_saver and colour.id in ("black", "blue", "purple") else pal.ink
    pattern(canvas, colour.pattern, 0.5, 4.5, w - 1, h - 5, ink)
    label(canvas, (0.3, 0.3, w - 0.6, 4), capsule_code(data, colour.id), layout.text.token, fill=ink,
          where=f"capsule {colour.id}")


def capsule_code(data: CapsuleHotel, colour_id: str) -> str:
    """The shortest start of the colour's name no other colour shares ("Y", "Pi", "Pu", "Blu", "Bla")."""
    name = data.capsule[colour_id].name
    others = [c.name.lower() for c in data.capsules if c.id != colour_id]
    for n in range(1, len(name) + 1):
        if not any(o.startswith(name[:n].lower()) for o in others):
            return name[:n]
    return name


def draw_entrance(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette) -> None:
    w, h = data.pieces.entrance
    canvas.rect(0, 0, w, h, Style(fill=pal.tint, stroke=pal.ink, width=0.3))
    # the word on top, the door under it with a clear gap (the door's top ran into the letters)
    label(canvas, (0.3, 0.2, w - 0.6, h * 0.3), "ENTR", layout.text.token, fill=pal.ink, where="entrance")
    canvas.rect(w * 0.3, h * 0.38, w * 0.4, h * 0.62, Style(fill=None, stroke=pal.ink, width=0.3))


def draw_vending(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette) -> None:
    w, h = data.pieces.vending_machine
    canvas.rect(0, 0, w, h, Style(fill=pal.fill("#d8ecff"), stroke=pal.ink, width=0.3))
    label(canvas, (0.2, 0.5, w - 0.4, h - 1), "VM", layout.text.token, fill=pal.ink, where="vending")


def draw_cemetery(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette) -> None:
    w, h = data.pieces.cemetery
    canvas.rect(0, 0, w, h, Style(fill=pal.fill("#e6e6e6"), stroke=pal.ink, width=0.3))
    # the small figure (the no-cemetery symbol) players draw inside the outline
    cx = w / 2
    canvas.circle(cx, h * 0.3, h * 0.09, Style(fill=pal.ink, stroke=None))
    canvas.line(cx, h * 0.38, cx, h * 0.62, Style(stroke=pal.ink, width=0.4))
    canvas.line(cx - w * 0.14, h * 0.47, cx + w * 0.14, h * 0.47, Style(stroke=pal.ink, width=0.4))
    label(canvas, (0.3, h * 0.68, w - 0.6, h * 0.28), "CEMETERY", layout.text.token, fill=pal.ink, where="cemetery")


def draw_building(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette, b: Building) -> None:
    w, h = b.size
    canvas.rect(0, 0, w, h, Style(fill=pal.fill("#fff4c2"), stroke=pal.ink, width=0.4))
    words = b.name.split(" ")
    lines = [" ".join(words[: len(words) // 2 or 1]), " ".join(words[len(words) // 2 or 1:])]
    lines = [x for x in lines if x]
    lh = (h * 0.6) / len(lines)
    for i, line in enumerate(lines):
        label(canvas, (0.5, 0.8 + i * lh, w - 1, lh), line, layout.text.token, fill=pal.ink, where=f"{b.id} name")
    label(canvas, (0.5, h * 0.68, w - 1, h * 0.28), yen(b.cost), layout.text.token, fill=pal.ink, where=f"{b.id} cost")


def draw_seal(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette, seal) -> None:
    d = layout.tokens.seal
    r = d / 2
    canvas.circle(r, r, r, Style(fill=pal.fill("#fbe3e3"), stroke="#b3261e", width=0.6))
    canvas.circle(r, r, r - 1.5, Style(fill=None, stroke="#b3261e", width=0.3))
    s = Style(fill=None, stroke="#b3261e", width=0.5)
    with canvas.frame(0, -2):      # the icon a little above the centre, the name under it
        _seal_icon(canvas, seal.id, r, s)
    # the name on the chord of the inner ring at its baseline, so it stays inside the ring
    top, height = r + 2.6, 2.4
    inner = r - 1.5 - 0.15 - 0.3
    half = math.sqrt(inner ** 2 - (top + height - r) ** 2)
    label(canvas, (r - half, top, 2 * half, height), seal.name, layout.text.token, fill=pal.ink,
          where=f"seal {seal.id}")


def _seal_icon(canvas: Canvas, icon: str, r: float, s: Style) -> None:
    if icon == "crane":
        canvas.polyline([(r - 6, r + 1), (r, r - 4), (r + 6, r + 1), (r, r - 1), (r - 6, r + 1)], s)
    elif icon == "wave":
        canvas.path([("M", r - 6, r), ("Q", r - 3, r - 5, r, r), ("Q", r + 3, r + 5, r + 6, r)], s)
    elif icon == "plum":
        for dx, dy in ((0, -2.5), (2.4, -0.8), (1.5, 2), (-1.5, 2), (-2.4, -0.8)):
            canvas.circle(r + dx, r - 1 + dy, 1.6, s)
    elif icon == "fan":
        canvas.path([("M", r, r + 3), ("L", r - 6, r - 3), ("Q", r, r - 7, r + 6, r - 3), ("Z",)], s)
    else:
        canvas.polygon([(r - 6, r + 2), (r - 1, r - 5), (r + 1, r - 2), (r + 3, r - 4), (r + 6, r + 2)], s)


def draw_seal_back(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette, seal) -> None:
    d = layout.tokens.seal
    r = d / 2
    canvas.circle(r, r, r, Style(fill=pal.fill("#eeeeee"), stroke=pal.ink, width=0.6))
    label(canvas, (2, r - 4, d - 4, 7), "PASS", layout.text.head, fill=pal.ink, where="seal back")
    label(canvas, (2, r + 3, d - 4, 3), seal.name, layout.text.token, fill=pal.ink, where="seal back name")


def draw_coupon(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette) -> None:
    w, h = layout.tokens.coupon
    canvas.rect(0, 0, w, h, Style(fill=pal.paper, stroke=pal.coupon, width=0.6), radius=1.5)
    coupon_mark(canvas, 3, 3, 12, pal)
    label(canvas, (17, 2, w - 19, 7), "COUPON", layout.text.head, anchor="start", fill=pal.ink, where="coupon")
    label(canvas, (3, 10, w - 6, 7), f"= {yen(data.money.coupon_value)} in a purchase", layout.text.body,
          fill=pal.ink, where="coupon value")
    label(canvas, (3, 17, w - 6, 5), "not yen · never repays debt", layout.text.small, fill=pal.ink,
          where="coupon note")


def draw_marker(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette, role: str) -> None:
    d = layout.tokens.marker
    r = d / 2
    canvas.circle(r, r, r, Style(fill=pal.fill("#dde7f7"), stroke=pal.ink, width=0.5))
    text = {"expenses": "SPENT", "limit": "LIMIT"}.get(role, role.upper())
    label(canvas, (1.5, r - 4.6, d - 3, 4.6), text, layout.text.token, fill=pal.ink, where=f"marker {role}")
    # "round expenses" on two lines: one line would need type under 6 pt on a marker this small.
    label(canvas, (2.5, r + 0.2, d - 5, 2.5), "round", layout.text.small, fill=pal.ink, where="marker caption")
    label(canvas, (2.5, r + 2.7, d - 5, 2.5), "expenses", layout.text.small, fill=pal.ink, where="marker caption")


def draw_attraction_card(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette, b: Building,
                         side: str, payload: str) -> None:
    w, h = layout.tokens.card
    t = layout.text
    card = b.card
    canvas.rect(0, 0, w, h, Style(fill=pal.paper, stroke=pal.ink, width=0.5), radius=2.5)
    canvas.rect(0, 0, w, 14, Style(fill=pal.fill(pal.accent if side == "A" else "#7b4bb3"), stroke=None),
                radius=2.5)
    ink = pal.ink if pal.ink_saver else "#ffffff"
    label(canvas, (3, 1, w - 16, 7), b.name, t.head, anchor="start", fill=ink, where=f"{card.id} name")
    label(canvas, (3, 8, w - 16, 5), f"Attraction card · {yen(b.cost)}", t.small, anchor="start", fill=ink,
          where=f"{card.id} sub")
    canvas.circle(w - 7, 7, 5, Style(fill=pal.paper, stroke=pal.ink, width=0.4))
    label(canvas, (w - 12, 2, 10, 10), side, t.title, fill=pal.ink, where=f"{card.id} side")
    text = card.side_a_text if side == "A" else card.side_b_text
    y = paragraph(canvas, 4, 17, w - 8, text, t.body, pal.ink)
    if side == "A":
        y += 1
        for f in b.faces:
            parts = ([yen(f.yen)] if f.yen else []) + ([f"{f.coupons} coupon"] if f.coupons else []) + \
                (["no cemetery"] if f.no_cemetery else [])
            label(canvas, (5, y, w - 10, 3.6), "• " + " + ".join(parts) + (f" (×{f.times})" if f.times > 1 else ""),
                  t.small, anchor="start", fill=pal.ink, where=f"{card.id} face")
            y += 3.8
    q = layout.tokens.qr
    qr_block(canvas, payload, (w - q) / 2, h - q - 6, q, f"side {side} in the companion", t.small, pal)


# ------------------------------------------------------------------------------ bonus dice

def cube_dice(data: CapsuleHotel):
    return [d for d in data.dice if d.sides == 6]


def die_buildings(data: CapsuleHotel, die_id: str) -> list[Building]:
    return [b for b in data.buildings if b.die == die_id]


def face_text(f) -> str:
    parts = ([f"{f.yen:,}"] if f.yen else []) + (["C" * f.coupons] if f.coupons else []) + \
        (["no cem."] if f.no_cemetery else [])
    return " ".join(parts)


def die_net_size(layout: Layout) -> tuple[float, float]:
    s, tab = layout.tokens.die_face, layout.tokens.die_tab
    return 4 * s + 2 * tab, 3 * s + 2 * tab


def draw_die_net(canvas: Canvas, data: CapsuleHotel, layout: Layout, pal: Palette, die) -> None:
    """A cross-shaped net of a six-sided die: each face one band per building (rolled once per
    building), in the order of the buildings' faces; glue tabs around."""
    s, tab = layout.tokens.die_face, layout.tokens.die_tab
    blds = die_buildings(data, die.id)
    faces = {b.id: b.rolled_faces for b in blds}
    cells = [(1, 0), (0, 1), (1, 1), (2, 1), (3, 1), (1, 2)]
    cut = Style(fill=None, stroke=pal.ink, width=0.35)
    fold = Style(stroke=pal.rule, width=0.25, dash=(1.2, 0.8))
    for k, (c, r) in enumerate(cells):
        x, y = tab + c * s, tab + r * s
        canvas.rect(x, y, s, s, Style(fill=pal.paper, stroke=pal.rule, width=0.2, dash=(1.2, 0.8)))
        band = (s - 2) / len(blds)
        for i, b in enumerate(blds):
            f = faces[b.id][k]
            by = y + 1 + i * band
            label(canvas, (x + 0.6, by, s * 0.36, band), "".join(w[0] for w in b.name.split()), layout.text.small,
                  anchor="start", fill=pal.ink, where=f"{die.id} band")
            label(canvas, (x + s * 0.36, by, s * 0.62, band), face_text(f), layout.text.token, anchor="end",
                  fill=pal.ink, where=f"{die.id} face")
    # seven glue tabs: one edge of each pair of outer edges that meet when the cross is folded
    tabs = [((0, 1), "top"), ((2, 1), "top"), ((3, 1), "top"), ((0, 1), "bottom"), ((2, 1), "bottom"),
            ((3, 1), "bottom"), ((3, 1), "right")]
    for (c, r), edge in tabs:
        x, y = tab + c * s, tab + r * s
        if edge == "top":
            pts = [(x, y), (x + tab, y - tab), (x + s - tab, y - tab), (x + s, y)]
        elif edge == "bottom":
            pts = [(x, y + s), (x + tab, y + s + tab), (x + s - tab, y + s + tab), (x + s, y + s)]
        else:
            pts = [(x + s, y), (x + s + tab, y + tab), (x + s + tab, y + s - tab), (x + s, y + s)]
        canvas.polygon(pts, Style(fill=pal.tint, stroke=pal.ink, width=0.35))
    # cut on the outline of the net, fold on the dashed lines between faces
    occupied = set(cells)
    tabbed = {(cell, edge) for cell, edge in tabs}
    for c, r in cells:
        x, y = tab + c * s, tab + r * s
        for (dc, dr), edge, seg in (((0, -1), "top", (x, y, x + s, y)), ((0, 1), "bottom", (x, y + s, x + s, y + s)),
                                    ((-1, 0), "left", (x, y, x, y + s)), ((1, 0), "right", (x + s, y, x + s, y + s))):
            inner = (c + dc, r + dr) in occupied or ((c, r), edge) in tabbed
            canvas.line(*seg, fold if inner else cut)


def draw_roll_table(canvas: Canvas, width: float, height: float, data: CapsuleHotel, layout: Layout,
                    pal: Palette) -> None:
    t = layout.text
    y = 2.0
    label(canvas, (2, y, width - 4, 9), "Bonus dice: how to read them", t.title, anchor="start", fill=pal.ink,
          where="roll table title")
    y += 11
    y = paragraph(canvas, 2, y, width - 4, "In each Income phase, roll the die of every building that rolls "
                  "(side A; the Park on side B too), once per building; the yen of all dice rolled for a lot "
                  "is that lot's attraction income. A coupon (C) goes to the building's owner; “no cem.” "
                  "cancels the lot's cemetery deduction. The six-sided die has a net to fold; the others are "
                  "not cubes: roll an ordinary die of that many sides and read the row below, or let the "
                  "companion roll (table option). On the net each face has a band per building: " + ", ".join(
                      f"{''.join(w[0] for w in b.name.split())} = {b.name}" for d in cube_dice(data)
                      for b in die_buildings(data, d.id)) + ".", t.body, pal.ink) + 3
    for die in data.dice:
        blds = die_buildings(data, die.id)
        label(canvas, (2, y, width - 4, 6), f"{die.name} — a {die.sides}-sided die", t.head, anchor="start",
              fill=pal.ink, where="die head")
        y += 7
        cw = [16] + [(width - 4 - 16) / len(blds)] * len(blds)
        canvas.rect(2, y, width - 4, 5.5, Style(fill=pal.tint, stroke=pal.ink, width=0.3))
        label(canvas, (3, y, cw[0] - 2, 5.5), "Roll", t.small, fill=pal.ink, where="roll head")
        for i, b in enumerate(blds):
            label(canvas, (2 + cw[0] + i * cw[1] + 1, y, cw[1] - 2, 5.5), b.name, t.small, fill=pal.ink,
                  where="roll head")
        y += 5.5
        for k in range(die.sides):
            canvas.line(2, y + 5, width - 2, y + 5, Style(stroke=pal.rule, width=0.2))
            label(canvas, (3, y, cw[0] - 2, 5), str(k + 1), t.small, fill=pal.ink, where="roll n")
            for i, b in enumerate(blds):
                f = b.rolled_faces[k]
                parts = ([yen(f.yen)] if f.yen else []) \
                    + ([f"{f.coupons} coupon" + ("s" if f.coupons > 1 else "")] if f.coupons else []) \
                    + (["no cemetery deduction"] if f.no_cemetery else [])
                label(canvas, (2 + cw[0] + i * cw[1] + 1, y, cw[1] - 2, 5), " + ".join(parts), t.small, fill=pal.ink,
                      where="roll cell")
            y += 5
        y += 4


def draw_buildings_page(canvas: Canvas, width: float, height: float, data: CapsuleHotel, layout: Layout,
                        pal: Palette) -> None:
    """Every building at its footprint (as many as the box holds) and the cemetery stencils."""
    from .boards import shelf
    label(canvas, (2, 1, width - 4, 8), "Buildings and cemetery stencils — cut on the outlines",
          layout.text.head, anchor="start", fill=pal.ink, where="buildings title")
    pieces = []
    for b in data.buildings:
        pieces += [(f"{b.id}#{i}", *b.size) for i in range(b.count)]
    cw, ch = data.pieces.cemetery
    pieces += [(f"cemetery#{i}", cw, ch) for i in range(data.inventory.cemeteries)]
    at = shelf(pieces, width, height, gap=3.0, file="buildings.toml", key="building")
    for sid, _, _ in pieces:
        x, y = at[sid]
        kind = sid.split("#")[0]
        with canvas.frame(x, y):
            if kind == "cemetery":
                draw_cemetery(canvas, data, layout, pal)
            else:
                draw_building(canvas, data, layout, pal, data.building[kind])
