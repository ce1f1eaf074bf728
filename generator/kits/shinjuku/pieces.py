"""Shinjuku's tokens and player pieces, each kind drawn by one function.

Ids and copies follow `data.components()` (the manifest): customers "food" / "food-2", the token
"upgrade-bonus", "matsuri", "start-player", stores "red-food", department stores and track "red".
Colour is never the only cue: goods have their icon shape and name, players' pieces their colour's
symbol (assets/shinjuku/components.toml `symbol`, drawn large enough to tell at arm's length) and name.
"""
from __future__ import annotations

from ... import icons
from ...canon.shinjuku import Colour, CustomerType, Shinjuku
from ...draw import Canvas, Style
from ...draw.fit import fit_text
from ..base import CardSection, Item
from .layout import Layout
from .style import Palette, mix

TOKEN_STOCK = "card stock (300 g/m² or thicker), single-sided"


def piece_sections(data: Shinjuku, layout: Layout, pal: Palette) -> list[CardSection]:
    t = layout.tokens
    goods = {c.id: c for c in data.customers.type}
    customers = []
    for ct in data.customers.type:
        customers.append(Item(ct.id, ct.single, ct.name, data=(ct, False)))
        customers.append(Item(f"{ct.id}-2", ct.double, f"{ct.name} “2”", data=(ct, True)))
    p = data.pieces
    stores, departments, tracks = [], [], []
    for colour in p.colour:
        for goods_id, n in p.stores_by_type.items():
            stores.append(Item(f"{colour.id}-{goods_id}", n, f"{colour.name} {goods[goods_id].name.lower()} store",
                               data=(colour, goods[goods_id])))
        departments.append(Item(colour.id, p.department_stores, f"{colour.name} department store", data=colour))
        tracks.append(Item(colour.id, p.track, f"{colour.name} track", data=colour))
    tokens = (Item("matsuri", data.tokens.matsuri, "Matsuri (festival) token", data="matsuri"),
              Item("start-player", data.tokens.start_player, "Start player token", data="start-player"))
    d = t.customer
    return [
        CardSection("customer", "Customers (in the bag)", (d, d), tuple(customers),
                    lambda c, item: draw_customer(c, layout, pal, *item.data), shape="circle", stock=TOKEN_STOCK),
        CardSection("upgrade-bonus-token", "Upgrade bonus tokens", (t.bonus, t.bonus),
                    (Item("upgrade-bonus", data.upgrade_bonus.count, "Upgrade bonus"),),
                    lambda c, item: draw_upgrade_bonus(c, layout, pal), shape="circle", stock=TOKEN_STOCK),
        CardSection("token", "Matsuri and start player tokens", (t.token, t.token), tokens,
                    lambda c, item: draw_token(c, layout, pal, item.data), shape="circle", stock=TOKEN_STOCK),
        CardSection("store", "Stores (per player colour)", t.store, tuple(stores),
                    lambda c, item: draw_store(c, layout, pal, *item.data), stock=TOKEN_STOCK,
                    row_group=p.stores),
        CardSection("department-store", "Department stores", t.department_store, tuple(departments),
                    lambda c, item: draw_department_store(c, layout, pal, item.data), stock=TOKEN_STOCK,
                    row_group=p.department_stores),
        CardSection("track", "Track pieces", t.track, tuple(tracks),
                    lambda c, item: draw_track(c, layout, pal, item.data), stock=TOKEN_STOCK,
                    row_group=p.track),
    ]


def _goods_ink(pal: Palette) -> icons.Ink:
    return icons.Ink(line=pal.ink, fill=pal.paper, paper=pal.paper, width=0.4)


def draw_customer(canvas: Canvas, layout: Layout, pal: Palette, goods: CustomerType, double: bool) -> None:
    """A round customer: goods icon and name on a ring of the goods colour; a big "2" when it counts twice."""
    d = layout.tokens.customer
    r = d / 2
    colour = pal.goods(goods.id)
    ring = max(1.2, d * 0.08)
    body = mix(colour, pal.paper, 0.82 if not pal.ink_saver else 0.93)
    canvas.circle(r, r, r, Style(fill=colour if not pal.ink_saver else pal.paper, stroke=None))
    canvas.circle(r, r, r - ring, Style(fill=body, stroke=colour if pal.ink_saver else None, width=0.5))
    label = layout.tokens.label
    where = f"customer {goods.id}{'-2' if double else ''}"
    if double:
        icons.goods(canvas, goods.id, r - d * 0.17, r - d * 0.13, d * 0.34, _goods_ink(pal))
        fit_text(canvas, (r + d * 0.02, r - d * 0.34, d * 0.30, d * 0.40), "2", layout.tokens.big.size * 1.4,
                 layout.tokens.big.min, font="bold", anchor="middle", fill=pal.ink, where=f"{where}: 2")
    else:
        icons.goods(canvas, goods.id, r, r - d * 0.14, d * 0.38, _goods_ink(pal))
    # The name in the token's widest band that is free of the icon (mixed case: narrower than capitals).
    inner = r - ring
    bottom = d * 0.23
    half = (inner * inner - bottom * bottom) ** 0.5 - 0.4
    fit_text(canvas, (r - half, r + d * 0.08, 2 * half, d * 0.15), goods.name, label.size, label.min,
             font=label.font, anchor="middle", fill=pal.ink, where=f"{where}: name")


def draw_upgrade_bonus(canvas: Canvas, layout: Layout, pal: Palette) -> None:
    """Earned by upgrading at a sakura station; scores as one wild customer."""
    d = layout.tokens.bonus
    r = d / 2
    canvas.circle(r, r, r, Style(fill=pal.sakura if not pal.ink_saver else pal.paper, stroke=pal.ink, width=0.4))
    canvas.circle(r, r, r - 1.4, Style(fill=pal.paper, stroke=None))
    # the icon a little smaller and lower, so BONUS sits where the white disc is wide enough for it
    icons.wild(canvas, r, r + d * 0.02, d * 0.38, _goods_ink(pal))
    label = layout.tokens.label
    fit_text(canvas, (r - d * 0.3, r - d * 0.34, d * 0.6, d * 0.13), "BONUS", label.size, label.min,
             font=label.font, anchor="middle", fill=pal.ink, where="upgrade bonus: title")
    fit_text(canvas, (r - d * 0.3, r + d * 0.25, d * 0.6, d * 0.13), "any 1", label.size, label.min,
             font=label.font, anchor="middle", fill=pal.ink, where="upgrade bonus: wild")


def draw_token(canvas: Canvas, layout: Layout, pal: Palette, which: str) -> None:
    """The Matsuri (festival) lantern and the start player's pennant."""
    d = layout.tokens.token
    r = d / 2
    canvas.circle(r, r, r, Style(fill=pal.paper, stroke=pal.ink, width=0.6))
    canvas.circle(r, r, r - 1.2, Style(stroke=pal.ink, width=0.25))
    ink = icons.Ink(line=pal.ink, fill=pal.paper, paper=pal.paper, width=0.4)
    label = layout.tokens.label
    if which == "matsuri":
        icons.matsuri(canvas, r, r - d * 0.11, d * 0.46, ink, body=pal.matsuri)
        text = "MATSURI 祭"
    else:
        icons.start_player(canvas, r, r - d * 0.11, d * 0.44, icons.Ink(pal.ink, pal.sakura, pal.paper, 0.4))
        text = "START PLAYER"
    fit_text(canvas, (r - d * 0.34, r + d * 0.16, d * 0.68, d * 0.12), text, label.size * 1.3, label.min,
             font=label.font, anchor="middle", fill=pal.ink, where=f"token {which}")


def _piece_base(canvas: Canvas, w: float, h: float, pal: Palette, colour: Colour) -> str:
    fill, text = pal.piece(colour.hex)
    canvas.rect(0, 0, w, h, Style(fill=fill, stroke=colour.hex if pal.ink_saver else None, width=0.8))
    return text


def _symbol(canvas: Canvas, pal: Palette, colour: Colour, cx: float, cy: float, size: float) -> None:
    """The player colour's symbol: white with a dark outline, so it reads on every piece colour."""
    icons.player_symbol(canvas, colour.symbol, cx, cy, size, pal.paper, pal.ink, width=0.35)


def draw_store(canvas: Canvas, layout: Layout, pal: Palette, colour: Colour, goods: CustomerType) -> None:
    """A store: the goods it sells (icon and letter) on the player's colour, with the colour's symbol
    (top right) and name."""
    w, h = layout.tokens.store
    text = _piece_base(canvas, w, h, pal, colour)
    icons.goods(canvas, goods.id, w * 0.47, h * 0.47, min(w, h) * 0.48, _goods_ink(pal))
    _symbol(canvas, pal, colour, w - h * 0.19, h * 0.19, h * 0.30)
    label = layout.tokens.label
    fit_text(canvas, (0.6, 0.4, w * 0.3, h * 0.22), icons.goods_letter(goods.name), label.size, label.min,
             font="bold", fill=text, where=f"store {colour.id}-{goods.id}: letter")
    fit_text(canvas, (0.8, h * 0.76, w - 1.6, h * 0.2), colour.name.upper(), label.size, label.min,
             font=label.font, anchor="middle", fill=text, where=f"store {colour.id}-{goods.id}: colour")


def draw_department_store(canvas: Canvas, layout: Layout, pal: Palette, colour: Colour) -> None:
    w, h = layout.tokens.department_store
    text = _piece_base(canvas, w, h, pal, colour)
    icons.department_store(canvas, w * 0.56, h * 0.44, min(w, h) * 0.52, _goods_ink(pal))
    _symbol(canvas, pal, colour, h * 0.17, h * 0.17, h * 0.27)
    label = layout.tokens.label
    fit_text(canvas, (0.8, h * 0.77, w - 1.6, h * 0.19), colour.name.upper(), label.size, label.min,
             font=label.font, anchor="middle", fill=text, where=f"department store {colour.id}")


def draw_track(canvas: Canvas, layout: Layout, pal: Palette, colour: Colour) -> None:
    """A track piece: the colour's symbol at its left end and the colour's name beside it (a symbol
    at both ends would leave the name too little room for 6 pt type)."""
    w, h = layout.tokens.track
    text = _piece_base(canvas, w, h, pal, colour)
    s = h * 0.7
    _symbol(canvas, pal, colour, 0.5 + s / 2, h / 2, s)
    label = layout.tokens.label
    pad = 0.5 + s + 0.3
    fit_text(canvas, (pad, h * 0.15, w - pad - 0.5, h * 0.7), colour.name.upper(), label.size, label.min,
             font=label.font, anchor="middle", fill=text, where=f"track {colour.id}")
