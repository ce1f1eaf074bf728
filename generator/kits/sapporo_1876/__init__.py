"""Sapporo 1876's print-and-play kit: the main board (tiled), the two personal boards, the 10
influential person and 13 building tiles (front and back), resource tokens, banknotes, workers, score
markers, the action pawn, the harvest and settlement markers and a rules reference card.

Everything counted, named or scored comes from the canonical data (assets/sapporo-1876/); sizes,
boxes and colours from layouts/sapporo-1876.toml (layout.py). Modules: board.py (main and personal
boards), pieces.py (tiles, tokens, reference card), common.py (palette, paragraphs, icons).

QR codes (the companion's /q handlers use the same kinds): each tile's face →
/q/sapporo-1876/influential-person/<id> or /building-tile/<id> (its effect and when it scores); each
personal board → /q/sapporo-1876/personal-board/<colour> (that seat's final-score preview at the
joined table, or the calculator).
"""
from __future__ import annotations

from ...canon.sapporo_1876 import Sapporo
from ..base import BoardSection, CardSection, Item, Kit, KitContext, PageSection
from .board import draw_main_board, draw_personal_board
from .common import Palette
from .layout import load_layout
from .pieces import (draw_banknote, draw_pawn, draw_reference, draw_resource, draw_tile_back,
                     draw_tile_front, draw_worker)

GAME = "sapporo-1876"
TOKEN_STOCK = "card stock (300 g/m² or thicker), single-sided"


def build_kit(data: Sapporo, ctx: KitContext) -> Kit:
    layout = load_layout()
    pal = Palette(layout.colours, ctx.ink_saver)
    t = layout.tokens

    def qr(kind, item_id):
        return (kind, ctx.qr_payload(GAME, kind, item_id))

    boards = tuple(Item(c.id, 1, f"{c.name} personal board", qr=qr("personal-board", c.id), data=c,
                        counts_as=(("board", "personal-board", 1),))
                   for c in data.colours)
    persons = tuple(Item(p.id, 1, p.name, qr=qr("influential-person", p.id), data=p) for p in data.persons)
    buildings = tuple(Item(b.id, 1, b.name, qr=qr("building-tile", b.id), data=b) for b in data.building_tiles)

    def tile_section(kind, title, items):
        return CardSection(kind, title, layout.tile.size, items,
                           lambda c, item: draw_tile_front(c, data, layout, pal, item.data, kind, item.qr[1]),
                           lambda c, item: draw_tile_back(c, data, layout, pal, kind),
                           file="tiles")

    workers = tuple(Item(c.id, c.workers, f"{c.name} worker", data=c) for c in data.colours)
    markers = tuple(Item(c.id, c.score_markers, f"{c.name} score marker", data=c) for c in data.colours)
    inv = data.inventory
    sections = [
        BoardSection("board", "main-board", "Main board", layout.main_board.size,
                     lambda canvas: draw_main_board(canvas, data, layout, pal)),
        CardSection("personal-board", "Personal boards (one per player colour)", layout.personal_board.size,
                    boards, lambda c, item: draw_personal_board(c, data, layout, pal, item.data, item.qr[1]),
                    stock="paper or thin card", file="boards"),
        tile_section("influential-person", "Influential person tiles", persons),
        tile_section("building-tile", "Building tiles", buildings),
        CardSection("resource", "Resource tokens", (t.resource, t.resource),
                    tuple(Item(r.id, r.tokens, r.name, data=r) for r in data.resources),
                    lambda c, item: draw_resource(c, data, layout, pal, item.data), shape="circle",
                    stock=TOKEN_STOCK, file="tokens"),
        CardSection("banknote", "Banknotes", t.banknote,
                    tuple(Item(n.id, n.count, n.name, data=n) for n in data.banknotes),
                    lambda c, item: draw_banknote(c, data, layout, pal, item.data), stock=TOKEN_STOCK,
                    file="tokens"),
        CardSection("worker", "Workers (black round, white square)", (t.worker, t.worker), workers,
                    lambda c, item: draw_worker(c, data, layout, pal, item.data, False), stock=TOKEN_STOCK,
                    file="tokens"),
        CardSection("score-marker", "Score markers", (t.score_marker, t.score_marker), markers,
                    lambda c, item: draw_worker(c, data, layout, pal, item.data, True), stock=TOKEN_STOCK,
                    file="tokens"),
        CardSection("pawn", "Action pawn", (t.pawn, t.pawn),
                    (Item("action-pawn", inv.action_pawns, "Action pawn", data="action-pawn"),),
                    lambda c, item: draw_pawn(c, data, layout, pal, item.data), shape="circle",
                    stock=TOKEN_STOCK, file="tokens"),
        CardSection("marker", "Harvest and settlement markers", (t.marker, t.marker),
                    (Item("harvest-marker", inv.harvest_markers, "Harvest marker", data="harvest-marker"),
                     Item("settlement-marker", inv.settlement_markers, "Settlement marker",
                          data="settlement-marker")),
                    lambda c, item: draw_pawn(c, data, layout, pal, item.data), shape="circle",
                    stock=TOKEN_STOCK, file="tokens"),
        PageSection("reference", "reference-card", "Rules reference card",
                    lambda canvas, w, h: draw_reference(canvas, w, h, data, layout, pal), copies=2, counts_as=()),
    ]
    b = layout.main_board
    return Kit(GAME, data.name, tuple(sections), notes=(
        f"Main board: {b.size[0]:.0f} × {b.size[1]:.0f} mm; glue it on card (tiles: edge on the dashed "
        "line, the registration ticks continuing across each seam).",
        f"Rules: the rules reference card (in {GAME}-sheets) sums up a turn and the scoring. Full rules: "
        "the published Sapporo 1876 rulebook. The companion checks every move and scores the game.",
        "Tiles: print double-sided; each kind has one back, so shuffled tiles are drawn blind; the face "
        "carries the QR code of the tile's page in the companion.",
        "Workers: black round, white square. The supply of banknotes and resources is not limited: "
        "coins or spare tokens can stand in.",
    ))
