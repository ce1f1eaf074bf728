"""Tokyo Jutaku's print-and-play kit: 32 double-sided site cards, the 69 building pieces packed on
a page in their exact shapes, architect tokens, the Bottle Bonus and Izakaya parts (drinks, stock
cards, turn-order track, pyramids, discs, yen coins), a Countdown score pad and a reference card
for the main game and each variant. Everything counted, named or valued comes from the canonical
data (assets/jutaku/); sizes and colours from layouts/jutaku.toml (layout.py).

    layout.py   the layout file's dataclasses     pack.py    the polyomino packer of the pieces
    draw.py     every printed face

QR codes: a site card (on each face with room for one) opens /q/jutaku/site-card/<id>; a reference
card opens /q/jutaku/reference/<game> (the table's clock and "stop!" at a joined table).
"""
from __future__ import annotations

from ...canon.jutaku import Jutaku
from ..base import CardSection, Item, Kit, KitContext, NotPrinted, PageSection
from . import draw as d
from .layout import load_layout
from .pack import pack

GAME = "jutaku"
SITE_QR_KIND = "site-card"
REFERENCE_QR_KIND = "reference"
TOKEN_STOCK = "card stock (300 g/m² or thicker), single-sided"
PIECE_STOCK = "thick card stock (or paper glued on 1-2 mm card), single-sided"


def piece_blocks(data: Jutaku):
    layout = load_layout()
    cols, rows = layout.pieces.grid
    return pack(data.pieces, cols, rows)


def build_kit(data: Jutaku, ctx: KitContext) -> Kit:
    layout = load_layout()
    pal = d.Palette(layout, ctx.ink_saver)
    t, c = layout.tokens, layout.cards
    card = data.card.size_mm
    labels = {x.id: x.label for x in data.components() if x.kind == "site-card"}

    sites = tuple(Item(s.id, 1, labels[s.id], qr=(SITE_QR_KIND, ctx.qr_payload(GAME, SITE_QR_KIND, s.id)),
                       data=s) for s in data.sites)
    blocks = piece_blocks(data)
    iz = data.izakaya
    metro = iz.metro.colour
    refs = tuple(Item(r, 1, f"Reference card: {title}",
                      qr=(REFERENCE_QR_KIND, ctx.qr_payload(GAME, REFERENCE_QR_KIND, r)), data=r, counts_as=())
                 for r, title in d.REFERENCE_TITLES.items())
    coins = tuple(sorted(iz.money.coins.items(), key=lambda kv: int(kv[0])))
    sections = [
        CardSection("site-card", "Site cards (white side front, blue side back)", card, sites,
                    lambda cv, item: d.draw_site_face(cv, data, layout, pal, item.data, "white", item.qr[1]),
                    lambda cv, item: d.draw_site_face(cv, data, layout, pal, item.data, "blue", item.qr[1])),
        *[PageSection("piece-sheet", f"pieces-{i}",
                      f"Building pieces{f' ({i} of {len(blocks)})' if len(blocks) > 1 else ''}: "
                      f"{len(b.placed)} pieces",
                      (lambda cv, w, h, b=b, i=i: d.draw_piece_block(cv, w, h, data, layout, pal, b, i, len(blocks))),
                      stock=PIECE_STOCK, file="pieces", holds=tuple(("piece", p.piece, 1) for p in b.placed))
          for i, b in enumerate(blocks, 1)],
        CardSection("architect", "Architect tokens", (t.architect, t.architect),
                    tuple(Item(a.id, 1, f"Architect {a.number} ({a.name})", data=a) for a in data.architects),
                    lambda cv, item: d.draw_architect(cv, layout, pal, item.data), shape="circle",
                    stock=TOKEN_STOCK, file="tokens"),
        CardSection("reference", "Reference cards (main game and each variant)", c.reference, refs,
                    lambda cv, item: d.draw_reference(cv, data, layout, pal, item.data, item.qr[1]),
                    stock=TOKEN_STOCK, file="tokens"),
        CardSection("drink", "Drinks (Bottle Bonus, Izakaya)", (t.drink, t.drink),
                    tuple(Item(x.id, data.drink_info.per_colour, f"{x.name} drink", data=x) for x in data.drinks),
                    lambda cv, item: d.draw_drink(cv, layout, pal, item.data), shape="circle",
                    stock=TOKEN_STOCK, file="tokens"),
        CardSection("stock-card", "Stock cards (Izakaya): six colours and the price adjustment card", c.stock,
                    tuple(Item(x, 1, f"{data.drink[x].name} stock card", data=x) for x in iz.stock.order)
                    + (Item("shape", 1, "Shape stock card (price adjustment)", data=None),),
                    lambda cv, item: d.draw_stock_card(cv, data, layout, pal, item.data),
                    stock=TOKEN_STOCK, file="tokens"),
        CardSection("turn-order-track", "Izakaya turn-order track", c.track,
                    (Item("turn-order", 1, "Turn-order track", counts_as=()),),
                    lambda cv, item: d.draw_track(cv, data, layout, pal), stock=TOKEN_STOCK, file="tokens"),
        CardSection("pyramid", "Pyramids (Izakaya site claims)", (t.pyramid, t.pyramid),
                    tuple(Item(x.id, iz.pyramids, f"{x.name} pyramid", data=x) for x in metro),
                    lambda cv, item: d.draw_pyramid(cv, layout, pal, item.data), stock=TOKEN_STOCK, file="tokens"),
        CardSection("disc", "Discs (Izakaya actions, claims and turn order)", (t.disc, t.disc),
                    tuple(Item(x.id, iz.discs + iz.turn_order_discs, f"{x.name} disc", data=x) for x in metro),
                    lambda cv, item: d.draw_disc(cv, layout, pal, item.data), shape="circle",
                    stock=TOKEN_STOCK, file="tokens"),
        *[CardSection("coin", f"¥{v} coins", (t.coin[i], t.coin[i]),
                      (Item(v, n, f"{int(v):,} yen", data=int(v)),),
                      (lambda cv, item, size=t.coin[i]: d.draw_coin(cv, layout, pal, item.data, size)),
                      shape="circle", stock=TOKEN_STOCK, file="tokens")
          for i, (v, n) in enumerate(coins)],
        PageSection("score-pad", "countdown", "Countdown score pad",
                    lambda cv, w, h: d.draw_countdown_pad(cv, w, h, data, layout, pal), counts_as=()),
    ]
    return Kit(GAME, data.name, tuple(sections), notes=(
        "Site cards: print double-sided (white side front, blue side back) on card stock; lay 32 of "
        "them 6 × 6 around the pieces, grouped by district.",
        "Pieces: cut the red lines of the piece sheet; stack them as floors on the site borders.",
        "Bottle Bonus and Izakaya use the drink, stock card, disc, pyramid and coin tokens.",
        f"Rules: the reference cards (in {GAME}-tokens) sum up the main game and each variant. Full "
        "rules: the published Tokyo Jutaku rulebook. The companion runs the clock and keeps the scores.",
    ), not_printed=(
        NotPrinted("crate", "crate", len(iz.stock.order),
                   "any six cups or bowls hold the drinks below the stock cards"),
        NotPrinted("vending-machine", "vending-machine", 1,
                   "Bottle Bonus drops drinks into the vending machine from Tokyo Jidohanbaiki: tip them "
                   "from a cup onto the table instead, and each other player grabs one",
                   label="A vending machine (Bottle Bonus)"),
        NotPrinted("drink-bag", "drink-bag", 1,
                   "Bottle Bonus draws drinks at random: an opaque bag or cup to draw them from",
                   label="A bag for the drinks (Bottle Bonus)"),
    ))
