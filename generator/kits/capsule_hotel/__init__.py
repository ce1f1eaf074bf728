"""Tokyo Capsule Hotel's print-and-play kit: the pads (player ledgers, game ledger, map sheets), the
boards (5 lot board stencils, franchise income, capsules, 2 attraction boards, round expenses), every
piece as a token (capsules, entrances, vending machines, cemetery stencils, buildings, seals with
their "Pass" side, coupons, round expenses markers, attraction cards A/B), the six-sided bonus die's
net, the roll table of the other dice and an English rules summary.

Counts, prices, names and the sizes of the pieces, lot boards, buildings and map sheet come from the
canonical data (assets/capsule-hotel/); page and board sizes, text styles and colours from
layouts/capsule-hotel.toml (layout.py). Modules: pads.py, boards.py, pieces.py, summary.py, common.py.

QR codes (the companion's /q handlers use the same kinds): player ledger n →
/q/capsule-hotel/ledger/<n> (that seat's live ledger); the round expenses board →
/q/capsule-hotel/queue/round-expenses-board (the purchase queue); the franchise income board →
/q/capsule-hotel/franchise/franchise-income-board; each attraction card (both sides) →
/q/capsule-hotel/attraction/<card id>.
"""
from __future__ import annotations

from ...canon.capsule_hotel import CapsuleHotel
from ..base import CardSection, Item, Kit, KitContext, NotPrinted, PageSection
from .boards import (draw_attraction_board, draw_capsule_board, draw_franchise_board, draw_lot_boards_page,
                     draw_round_expenses_board)
from .common import Palette
from .layout import load_layout
from .pads import draw_game_ledger, draw_map_sheet, draw_player_ledger
from .pieces import (cube_dice, die_net_size, draw_attraction_card, draw_buildings_page, draw_capsule,
                     draw_coupon, draw_die_net, draw_entrance, draw_marker, draw_roll_table, draw_seal,
                     draw_seal_back, draw_vending)
from .summary import draw_summary

GAME = "capsule-hotel"
TOKEN_STOCK = "thick card, single-sided"
BOARD_STOCK = "card stock"
#: QR kinds and ids (companion/games/capsule_hotel/web.py registers the same kinds)
LEDGER_QR, QUEUE_QR, FRANCHISE_QR, ATTRACTION_QR = "ledger", "queue", "franchise", "attraction"
QUEUE_ID, FRANCHISE_ID = "round-expenses-board", "franchise-income-board"


def build_kit(data: CapsuleHotel, ctx: KitContext) -> Kit:
    layout = load_layout()
    pal = Palette(layout, ctx.ink_saver)
    t = layout.tokens
    inv = data.inventory

    def qr(kind, item_id):
        return (kind, ctx.qr_payload(GAME, kind, item_id))

    ledgers = tuple(Item(str(n), 1, f"Player ledger {n}", qr=qr(LEDGER_QR, str(n)), data=n,
                         counts_as=(("ledger", "player-ledger", 1),))
                    for n in range(1, inv.player_ledger_pads + 1))
    # the data's (kind, id, count) of the components drawn together on one page
    of_kind = {k: tuple((c.kind, c.id, c.count) for c in data.components() if c.kind in k)
               for k in (("lot-board",), ("building", "cemetery"))}
    sections: list = [
        CardSection("player-ledger", "Player ledgers (one per player; print more as pads)", layout.pads.ledger,
                    ledgers, lambda c, item: draw_player_ledger(c, data, layout, pal, item.data, item.qr[1]),
                    stock="paper", file="pads"),
        PageSection("game-ledger", "game-ledger", "Game ledger",
                    lambda c, w, h: draw_game_ledger(c, w, h, data, layout, pal), copies=inv.game_ledger_pads,
                    file="pads", counts_as=(("ledger", "game-ledger", 1),)),
        PageSection("map-sheet", "map-sheet", "Map sheet (blue; outline land in pen)",
                    lambda c, w, h: draw_map_sheet(c, w, h, data, layout, pal), copies=inv.map_sheets,
                    file="pads"),
    ]
    sections.append(PageSection("lot-board", "lot-boards", "Lot boards (5 stencils on one page)",
                                lambda c, w, h: draw_lot_boards_page(c, w, h, data, layout, pal),
                                stock=BOARD_STOCK, file="boards", holds=of_kind[("lot-board",)]))
    bs = layout.boards.size
    sections += [
        CardSection("franchise-income-board", "Franchise income board", bs,
                    (Item(FRANCHISE_ID, inv.franchise_income_boards, "Franchise income board",
                          qr=qr(FRANCHISE_QR, FRANCHISE_ID), counts_as=(("board", "franchise-income", 1),)),),
                    lambda c, item: draw_franchise_board(c, data, layout, pal, item.qr[1]),
                    stock=BOARD_STOCK, file="boards"),
        CardSection("capsule-board", "Capsule board", bs,
                    (Item("capsule-board", inv.capsule_boards, "Capsule board",
                          counts_as=(("board", "capsule-board", 1),)),),
                    lambda c, item: draw_capsule_board(c, data, layout, pal), stock=BOARD_STOCK, file="boards"),
        CardSection("attraction-board", "Attraction boards", bs,
                    tuple(Item(a.id, 1, a.name, data=a, counts_as=(("board", a.id, 1),))
                          for a in data.attraction_boards),
                    lambda c, item: draw_attraction_board(c, data, layout, pal, item.data),
                    stock=BOARD_STOCK, file="boards"),
        CardSection("round-expenses-board", "Round expenses board", bs,
                    (Item(QUEUE_ID, inv.round_expenses_boards, "Round expenses board", qr=qr(QUEUE_QR, QUEUE_ID),
                          counts_as=(("board", "round-expenses", 1),)),),
                    lambda c, item: draw_round_expenses_board(c, data, layout, pal, item.qr[1]),
                    stock=BOARD_STOCK, file="boards"),
    ]
    cap = data.pieces.capsule
    sections += [
        CardSection("capsule", "Capsules (letter and pattern name the colour)", (cap[0], cap[1]),
                    tuple(Item(c.id, c.count, f"{c.name} capsule", data=c) for c in data.capsules),
                    lambda c, item: draw_capsule(c, data, layout, pal, item.data), stock=TOKEN_STOCK,
                    file="tokens"),
        CardSection("entrance", "Entrances", data.pieces.entrance,
                    (Item("entrance", inv.entrances, "Entrance"),),
                    lambda c, item: draw_entrance(c, data, layout, pal), stock=TOKEN_STOCK, file="tokens"),
        CardSection("vending-machine", "Vending machines", data.pieces.vending_machine,
                    (Item("vending-machine", inv.vending_machines, "Vending machine"),),
                    lambda c, item: draw_vending(c, data, layout, pal), stock=TOKEN_STOCK, file="tokens"),
    ]
    sections.append(PageSection("building", "buildings", "Buildings and cemetery stencils",
                                lambda c, w, h: draw_buildings_page(c, w, h, data, layout, pal),
                                stock=TOKEN_STOCK, file="tokens", holds=of_kind[("building", "cemetery")]))
    coupons = data.coupons
    sections += [
        CardSection("coupon", "Coupons", t.coupon, (Item("coupon", coupons, "Coupon"),),
                    lambda c, item: draw_coupon(c, data, layout, pal), stock=TOKEN_STOCK, file="tokens"),
        CardSection("round-expenses-marker", "Round expenses markers", (t.marker, t.marker),
                    tuple(Item(role, 1, f"Round expenses marker ({role})", data=role,
                               counts_as=(("marker", "round-expenses-marker", 1),))
                          for role in data.round_expenses_board.markers),
                    lambda c, item: draw_marker(c, data, layout, pal, item.data), shape="circle",
                    stock=TOKEN_STOCK, file="tokens"),
        CardSection("seal", "Player seals (front; “Pass” on the back)", (t.seal, t.seal),
                    tuple(Item(s.id, 1, f"{s.name} seal", data=s) for s in data.seals),
                    lambda c, item: draw_seal(c, data, layout, pal, item.data),
                    lambda c, item: draw_seal_back(c, data, layout, pal, item.data), shape="circle",
                    file="cards"),
        CardSection("attraction-card", "Attraction cards (side A front, side B back)", t.card,
                    tuple(Item(b.card.id, 1, f"{b.name} attraction card", qr=qr(ATTRACTION_QR, b.card.id), data=b)
                          for b in data.buildings if b.card),
                    lambda c, item: draw_attraction_card(c, data, layout, pal, item.data, "A", item.qr[1]),
                    lambda c, item: draw_attraction_card(c, data, layout, pal, item.data, "B", item.qr[1]),
                    file="cards"),
    ]
    nets = cube_dice(data)
    if nets:
        sections.append(CardSection("die-net", "Bonus die net (cut, fold, glue)", die_net_size(layout),
                                    tuple(Item(d.id, 1, d.name, data=d, counts_as=(("bonus-die", d.id, 1),))
                                          for d in nets),
                                    lambda c, item: draw_die_net(c, data, layout, pal, item.data),
                                    stock="thin card", file="tokens"))
    sections += [
        PageSection("roll-table", "bonus-dice", "Bonus dice roll table",
                    lambda c, w, h: draw_roll_table(c, w, h, data, layout, pal), file="sheets", counts_as=()),
        PageSection("rules-summary", "rules-summary-1", "Rules summary (English), page 1",
                    lambda c, w, h: draw_summary(c, w, h, data, layout, pal, 1), file="sheets", counts_as=()),
        PageSection("rules-summary", "rules-summary-2", "Rules summary (English), page 2",
                    lambda c, w, h: draw_summary(c, w, h, data, layout, pal, 2), file="sheets", counts_as=()),
    ]
    not_printed = tuple(
        NotPrinted("bonus-die", d.id, 1, f"a {d.sides}-sided die is not a cube: roll an ordinary d{d.sides} "
                   "and read the roll table, or let the companion roll the bonus dice", label=f"A d{d.sides}")
        for d in data.dice if d.sides != 6) + (
        NotPrinted("pen", "pens", 0, "players outline land on the map sheets with their own pens, one "
                   "colour each", label="Pens, one colour per player"),)
    return Kit(GAME, data.name, tuple(sections), notes=(
        "Pads: a player ledger per player and a map sheet per game; print more as needed.",
        "Bonus dice: fold the six-sided net; roll an ordinary d4 and d8 with the roll table, or let "
        "the companion roll.",
        f"Rules: the rules summary (English, in {GAME}-sheets) sums up a round and the scoring. Full "
        "rules: the published Tokyo Capsule Hotel rulebook (Italian). The companion keeps the ledgers "
        "and checks every purchase.",
    ), not_printed=not_printed)
