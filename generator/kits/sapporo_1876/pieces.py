"""Sapporo 1876's tiles (front: price, name, printed effect and QR code; back: the kind only, one
back for every tile of a kind, so a shuffled stack is drawn blind), tokens and the
rules reference card. Colour is never the only cue: resources have a letter and a shape, black pieces
are round and white pieces square, and every piece names what it is."""
from __future__ import annotations

import math

from ...canon.sapporo_1876 import Sapporo
from ...draw import Canvas, Style, text_width
from ...draw.base import PT
from ...draw.fit import TextFitError
from ...qr import LABEL_STRIP, draw_qr, footprint, qr_size
from .common import (LINE, Palette, event_icon, fame_icon, label, paragraph, resource_icon, shape,
                     worker_shape)
from .layout import Layout


def draw_tile_front(canvas: Canvas, data: Sapporo, layout: Layout, pal: Palette, tile, kind: str,
                    payload: str) -> None:
    """The face: price, name, effect and the QR code of the tile's page in the companion (on the face,
    so the backs of a kind are all the same and a shuffled stack is drawn blind)."""
    t = layout.tile
    w, h = t.size
    person = kind == "influential-person"
    canvas.rect(0, 0, w, h, Style(fill=pal.tint("#c9b27c" if person else "#9bb7a0", 0.55), stroke=None))
    x, y, cw, ch = t.cost
    canvas.circle(x + cw / 2, y + ch / 2, cw / 2, Style(fill=pal.paper, stroke=pal.ink, width=0.4))
    label(canvas, (x, y, cw, ch), str(tile.cost), t.cost_style, fill=pal.ink, where=f"{tile.id} cost")
    label(canvas, t.name, tile.name, t.name_style, anchor="start", fill=pal.ink, where=f"{tile.id} name")
    tx, ty, tw, th = t.text
    canvas.rect(tx - 1, ty - 1, tw + 2, th + 2, Style(fill=pal.paper, stroke=None), radius=1.5)
    # the code in the text panel's bottom right corner (its quiet zone is the panel's white); the
    # effect flows round it: full width above the code, beside it lower down
    size = qr_size(payload)
    qx, qy = tx + tw + 1 - size + LABEL_STRIP / 2, ty + th + 1 - size
    fx, _, _, _ = footprint(qx, qy, size)
    left = tx + (5 if person else 0.5)
    if person:
        fame_icon(canvas, tx + 2.5, ty + 2.5, 2.2, pal)
    flow_text(canvas, (left, ty, tx + tw - left, th), qy, fx - 0.5 - left, tile.text, t.text_style,
              fill=pal.ink, where=f"{tile.id} text")
    draw_qr(canvas, payload, qx, qy, size)


def flow_text(canvas: Canvas, box, below: float, narrow: float, text: str, style, *, fill: str,
              where: str) -> float:
    """`text` from the top of box (x, y, w, h): lines whose glyphs end above y = `below` are w wide,
    lower ones `narrow` wide (beside something in the box's bottom right). The largest size from
    the style's down to its minimum at which it fits; TextFitError if none does."""
    x, y, w, h = box
    size = style.size
    while size >= style.min - 1e-9:
        pitch = size * PT * LINE
        lines, line, n = [], "", 0

        def width(i: int) -> float:
            return w if y + (i + 1) * pitch <= below else narrow

        ok = True
        for word in text.split(" "):
            cand = f"{line} {word}" if line else word
            if text_width(cand, size, style.font) <= width(len(lines)):
                line = cand
            elif line and text_width(word, size, style.font) <= width(len(lines) + 1):
                lines.append(line)
                line = word
            else:
                ok = False
                break
        if ok and line:
            lines.append(line)
        n = len(lines)
        if ok and n * pitch <= h + 1e-6:
            for i, s in enumerate(lines):
                canvas.text(x, y + (i + 0.8) * pitch, s, size, font=style.font, fill=fill)
            return size
        size -= 0.25
    raise TextFitError(where, text, narrow, style.min)


def draw_tile_back(canvas: Canvas, data: Sapporo, layout: Layout, pal: Palette, kind: str) -> None:
    """The one back of every tile of a kind: the kind and its emblem, never the tile's name (the
    rules shuffle each kind's tiles before laying them out)."""
    t = layout.tile
    w, h = t.size
    person = kind == "influential-person"
    canvas.rect(0, 0, w, h, Style(fill=pal.tint("#c9b27c" if person else "#9bb7a0", 0.3), stroke=None))
    label(canvas, (3, 4, w - 6, 6), "INFLUENTIAL PERSON" if person else "BUILDING", t.name_style,
          fill=pal.ink, where=f"{kind} back")
    if person:
        fame_icon(canvas, w / 2, h / 2 + 1, 9, pal)
    else:
        event_icon(canvas, "settlement", w / 2, h / 2 + 1, 9, pal)
    label(canvas, (3, h - 9, w - 6, 5), data.name, t.text_style, fill=pal.ink, where=f"{kind} back: game")


def draw_resource(canvas: Canvas, data: Sapporo, layout: Layout, pal: Palette, resource) -> None:
    d = layout.tokens.resource
    r = d / 2
    canvas.circle(r, r, r, Style(fill=pal.tint(resource.hex, 0.55), stroke=None))
    resource_icon(canvas, resource, r, r - d * 0.08, d * 0.26, pal)
    label(canvas, (r - d * 0.34, r + d * 0.2, d * 0.68, d * 0.16), resource.name.upper(), layout.tokens.label,
          fill=pal.ink, where=f"resource {resource.id}")


def draw_banknote(canvas: Canvas, data: Sapporo, layout: Layout, pal: Palette, note) -> None:
    w, h = layout.tokens.banknote
    colour = "#cfe8c9" if note.value == 1 else "#f2d0a4"
    canvas.rect(0, 0, w, h, Style(fill=pal.tint(colour, 0.0), stroke=None))
    canvas.rect(1.2, 1.2, w - 2.4, h - 2.4, Style(stroke=pal.ink, width=0.3))
    label(canvas, (2, 2, 14, h - 4), str(note.value), layout.tokens.big, fill=pal.ink, where=f"{note.id} value")
    label(canvas, (16, 3, w - 19, h / 2 - 3), "YEN ¥", layout.tokens.label, fill=pal.ink, where=f"{note.id} yen")
    label(canvas, (16, h / 2, w - 19, h / 2 - 3), "1 AP" if note.value == 1 else f"{note.value} AP",
          layout.tokens.label, fill=pal.ink, where=f"{note.id} ap")


def draw_worker(canvas: Canvas, data: Sapporo, layout: Layout, pal: Palette, colour, marker: bool) -> None:
    d = layout.tokens.score_marker if marker else layout.tokens.worker
    r = d / 2
    text = "#ffffff" if colour.id == "black" else pal.ink
    body = colour.hex if not pal.ink_saver or colour.id != "black" else "#555555"
    shape(canvas, worker_shape(colour.id), r, r, r * (1.0 if worker_shape(colour.id) == "circle" else 1.15),
          Style(fill=body, stroke=pal.ink, width=0.5))
    if marker:
        fame_icon(canvas, r, r - d * 0.1, d * 0.2, pal)
    label(canvas, (r - d * 0.36, r + (d * 0.08 if marker else -d * 0.1), d * 0.72, d * 0.2),
          colour.name.upper(), layout.tokens.label, fill=text, where=f"worker {colour.id}")


def draw_pawn(canvas: Canvas, data: Sapporo, layout: Layout, pal: Palette, which: str) -> None:
    t = layout.tokens
    d = t.pawn if which == "action-pawn" else t.marker
    r = d / 2
    canvas.circle(r, r, r, Style(fill=pal.paper, stroke=pal.ink, width=0.7))
    if which == "action-pawn":
        canvas.polygon([(r, r - d * 0.32), (r + d * 0.18, r + d * 0.05), (r - d * 0.18, r + d * 0.05)],
                       Style(fill=pal.ink, stroke=None))
        text = "Action pawn"
    else:
        event_icon(canvas, which.split("-")[0], r, r - d * 0.1, d * 0.22, pal)
        text = which.split("-")[0].capitalize()
    # Mixed case, in the widest band under the icon: capitals would need type under 6 pt. The band is
    # the ring's chord at its lowest line, clear of the ring's pen, so the word stays inside the disc.
    top, height = r + d * 0.13, d * 0.15
    half = math.sqrt((r - 0.35 - 0.15) ** 2 - (top + height - r) ** 2)
    label(canvas, (r - half, top, 2 * half, height), text, t.label, fill=pal.ink, where=f"{which}")


def draw_reference(canvas: Canvas, w: float, h: float, data: Sapporo, layout: Layout, pal: Palette) -> None:
    """The rules reference card: the turn, AP, the four actions, harvest, settlement, the end."""
    b = layout.main_board
    label(canvas, (0, 0, w, 14), f"{data.name} · rules reference", b.title, anchor="start", fill=pal.ink)
    spots = "; ".join(f"{s.name}: " + ", ".join(f"{data.resource[r].name.lower()} {a} AP" for r, a in
                                                  sorted(s.ap.items(), key=lambda kv: -kv[1]))
                      for s in data.action_spots)
    tiers = ", ".join(f"{t.name.lower()} {t.cost} AP" for t in data.academy.tier)
    council = "; ".join(f"{c.name.lower()}: {c.higher}/{c.lower} at a settlement, {c.final_per_worker} "
                        f"per worker at the end" for c in data.council)
    blocks = [
        ("Turn", "1 Move the action pawn to another spot (it may never stay) and take its banknotes. "
                 "2 Put a 1-yen note on each of the 2 edge-adjacent spots. 3 Orange spot: the harvest "
                 "marker goes 1 up; blue spot: the settlement marker 1 down. 4 The active player performs "
                 "the action. 5 The other player performs it too (never using buildings). 6 A harvest or "
                 "settlement if the marker reached its icon. 7 The active player may still use buildings."),
        ("Action points", f"Each spot takes two resources: {spots}. Banknotes pay their face value "
                          "anywhere. Any mix; leftover AP is lost and no change is given."),
        ("Educate", f"From the lowest tier up ({tiers}); a completed tier gives its bonus. With the "
                    f"academy empty: {data.academy.when_empty_ap} AP for {data.academy.when_empty_fame} fame, "
                    "as often as you pay."),
        ("Pioneer", "A new column costs its bottom space (a worker from your area); each step up the cost "
                    "of the next space. Any number of steps and columns in one action."),
        ("Invest", "One tile from the main board for its price in AP. Nothing is replenished. Buildings: "
                   "on your turn, put a worker from your area on one for its effect, once until a harvest."),
        ("Appoint", f"One worker on an empty council space for its AP ({council})."),
        ("Harvest", "Each player gains what each pioneering worker's space and every space below it "
                    "show; then takes 1 worker back from a building for free, more for 1 yen each."),
        ("Settlement", "Per council column: more workers take the higher fame, fewer the lower; a 1-1 tie "
                       "goes to the worker on the higher space; no worker, no fame. Workers stay."),
        ("The end", f"After the turn of the {data.end.events}th harvest or settlement in total. Add: "
                    f"academy ({', '.join(str(t.final_fame) for t in data.academy.tier if t.final_fame)}), "
                    f"pioneering ({data.pioneering.second_from_top_fame} second from top, "
                    f"{data.pioneering.top_fame} top), persons, council, 1 per "
                    f"{data.final_scoring.leftover_items_per_fame} banknotes (yen) and resources left. "
                    "Tie: the last active player wins."),
    ]
    y = 18
    per = (h - 20) / len(blocks)
    for title, text in blocks:
        label(canvas, (0, y, 40, 7), title.upper(), b.head, anchor="start", fill=pal.ink, where=f"ref {title}")
        paragraph(canvas, (42, y, w - 42, per - 2), text, b.reference, fill=pal.ink, where=f"ref {title}")
        canvas.line(0, y + per - 1, w, y + per - 1, Style(stroke="#999999", width=0.2))
        y += per
