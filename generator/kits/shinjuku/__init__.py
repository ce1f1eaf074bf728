"""Shinjuku's print-and-play kit: the map board, 72 ward cards, customers, tokens, player pieces and
the score sheet. Everything counted, named or scored comes from the canonical data (assets/shinjuku/);
sizes, boxes and colours come from layouts/shinjuku.toml (layout.py). One module per job:

    layout.py   the layout file's dataclasses          style.py    colours as drawn (ink saver)
    map.py      the map's geometry (areas, slots, labels), before any drawing
    board.py    the map board                           cards.py    ward cards, front and back
    pieces.py   customers, tokens, stores, track        sheet.py    the end-game score sheet
    reference.py  the rules reference card (a turn; wild cards, the end, the scoring)
    twin.py     the board twin: the map as one SVG with ids for the companion's board page

`build_kit(data, ctx)` says what the kit holds; `render_component(data, kind, item_id)` draws the
components only this kit knows how to draw alone (generator.render.component_svg calls it).
"""
from __future__ import annotations

from ...canon.shinjuku import Shinjuku
from ..base import BoardSection, CardSection, Item, Kit, KitContext, NotPrinted, PageSection
from .board import draw_board
from .cards import draw_ward_card, draw_ward_card_back
from .layout import load_layout
from .map import map_model
from .pieces import piece_sections
from .reference import FULL_RULES, draw_reference_back, draw_reference_front, reference_copies
from .sheet import draw_score_sheet
from .style import Palette
from .twin import twin_svg

GAME = "shinjuku"
#: The QR kind printed on ward cards: /q/shinjuku/ward/<ward-id> opens the ward's page (the
#: companion's Shinjuku /q handler registers the same kind).
WARD_QR_KIND = "ward"
#: The board twin: the companion's interactive map (twin.py).
TWIN = ("board-twin", "map")
#: What render_component draws (kind, id) besides the printed faces.
DRAWN_ALONE = (TWIN,)


def build_kit(data: Shinjuku, ctx: KitContext) -> Kit:
    layout = load_layout()
    model = map_model(data, layout)
    pal = Palette(layout.colours, ctx.ink_saver)
    card = layout.card

    def front(canvas, item: Item) -> None:
        draw_ward_card(canvas, data, layout, model, pal, item.data, item.qr[1])

    def back(canvas, item: Item) -> None:
        draw_ward_card_back(canvas, data, layout, pal)

    ward_items = tuple(
        Item(w.id, w.cards, f"{w.name} {w.kanji}",
             qr=(WARD_QR_KIND, ctx.qr_payload(GAME, WARD_QR_KIND, w.id)), data=w)
        for w in data.wards)
    sections = [
        BoardSection("board", "map", "Tokyo map board", layout.board.size,
                     lambda canvas: draw_board(canvas, data, layout, model, ctx)),
        CardSection("ward-card", "Ward cards", card.size, ward_items, front, back),
        CardSection("reference-card", "Rules reference cards (one per player)", card.size,
                    (Item("reference", reference_copies(data, ctx), "Rules reference card", counts_as=()),),
                    lambda canvas, item: draw_reference_front(canvas, data, layout, pal),
                    lambda canvas, item: draw_reference_back(canvas, data, layout, pal)),
        *piece_sections(data, layout, pal),
        PageSection("score-sheet", "score-sheet", "Score sheet (end-game sets)",
                    lambda canvas, w, h: draw_score_sheet(canvas, w, h, data, layout, pal), counts_as=()),
    ]
    return Kit(GAME, data.name, tuple(sections), notes=(
        f"Map board: {layout.board.size[0]:.0f} × {layout.board.size[1]:.0f} mm; glue it on card (tiles: "
        "edge on the dashed line, the registration ticks continuing across each seam).",
        f"Rules: the rules reference cards (one per player, in {GAME}-cards) sum up a turn and the "
        f"scoring. {FULL_RULES}",
        "Customers go in a bag; tokens with a “2” count as two customers in scoring.",
        "Player pieces: cut the squares out; stack track pieces by colour.",
    ), not_printed=(
        NotPrinted("bag", "customer-bag", 1, f"the {sum(t.count for t in data.customers.type)} "
                   "customers are drawn from it at random: any opaque cloth bag or a cup",
                   label="A bag for the customers"),
    ))


def render_component(data: Shinjuku, kind: str, item_id: str) -> str | None:
    """SVG of a component only this kit draws (the board twin); None for the kit's printed faces,
    which generator.render draws from build_kit's sections."""
    if (kind, item_id) == TWIN:
        return twin_svg(data)
    return None
