"""The rules summary in English, in the project's own words (the only rulebook is Italian): two pages,
the round and its phases with the purchase queue, then purchases, the golden rule, income and the
variants. Every number is read from the data."""
from __future__ import annotations

from ...canon.capsule_hotel import CapsuleHotel
from ...draw import Canvas, Style
from .common import Palette, label, paragraph, paragraphs_height, yen
from .layout import Layout


def page_one(data: CapsuleHotel) -> list[tuple[str, str]]:
    loans = ", ".join(yen(o.amount) + (" (+1 coupon)" if o.coupons else "") for o in data.loan.option)
    limits = ", ".join(f"{k} players {yen(v)}" for k, v in sorted(data.purchase_limit.by_players.items()))
    return [
        ("Goal", "Borrow, build capsule hotels and pay your debt back first. The game ends in the loans "
         "phase of a round when anyone's yen repays their whole debt, or after round "
         f"{data.rounds.count}. The most yen left after repaying wins (or the lowest net debt); ties share."),
        ("Money", f"Debt = starting loan + interest × current round; interest is "
         f"{data.loan.interest_percent} % of the loan each round (6,000 → 7,200 in round 2). Debt is repaid "
         f"only in full and only with yen. A coupon is worth {yen(data.money.coupon_value)} in a purchase; it "
         "is not yen, never repays debt and is worth nothing at the end."),
        ("Setup", "Lay a map sheet in the middle with the lot boards beside it. Each player takes a player "
         "ledger and a seal and copies the seal into the ledger's circle. One capsule of each colour goes "
         "on the franchise income board, the rest by colour beside the capsule board, entrances on its "
         "right half. Each player claims one starting lot (outline it in your pen); with "
         f"{data.players[1]} players the last one claims none and takes "
         f"{data.setup.no_starting_lot_coupons} coupons instead."),
        ("A round", "1 Mark the round: tick it on every ledger; a round with a coupon mark gives everyone a "
         f"coupon (rounds {', '.join(map(str, data.rounds.coupon_rounds))}). 2 Loans: in round 1 everyone "
         f"chooses a loan in secret ({loans}) and reveals together; from round 2, check whether anyone "
         "can repay. 3 Purchase/barter, in real time. 4 Income."),
        ("The purchase queue", "At the start of the phase every seal enters the queue on the round "
         "expenses board by yen: fewest first, ties by a random first player then clockwise. The seal at "
         "the head must declare one purchase at once; otherwise another player may warn and count "
         f"{data.purchase.declare_seconds} seconds aloud, then remove the seal. After your purchase, note "
         "it in both ledgers, move the round expenses marker by its price (yen and coupons; never "
         "backwards) and take your seal back. You may leave the queue at any time and rejoin at the back "
         "when you are not bartering."),
        ("The purchase limit", f"{limits}. The purchase that reaches or passes it is completed; then the "
         "seals in the queue go back, no new barter starts, barters under way finish, and the phase ends. "
         "Passing (seal on “Pass”) is final for the round; when everyone passed the phase ends."),
        ("Barter", "Players whose seals are in front of them trade anything: yen, coupons, capsules from "
         "their area, land with everything on it (subdividing: the owner draws the new outline, the golden "
         "rule must hold on both parts) and promises, which are not binding. Each side offers something. "
         "Barter does not move the round expenses marker. The companion records a barter when both phones "
         "confirm it."),
    ]


def page_two(data: CapsuleHotel) -> list[tuple[str, str]]:
    lots = ", ".join(yen(b.price) for b in data.lot_boards)
    blds = "; ".join(f"{b.name} {yen(b.cost)}" for b in data.buildings)
    pf, pe = data.purchase.pink_first, data.purchase.pink_each_further
    inc = data.income
    return [
        ("Purchases (one item each)", f"Lot ({lots}): place the lot board touching an existing lot along "
         "a side and trace it. Capsules (not pink): the whole colour at the capsule board's price. Pink "
         f"capsules: {yen(pf)} for the first + {yen(pe)} each further in one purchase (4 for "
         f"{yen(pf + 3 * pe)}, later 3 for {yen(pf + 2 * pe)}). Vending machine {yen(data.purchase.vending_machine)}. "
         f"Cemetery: you gain {yen(-data.purchase.cemetery)} (the marker does not move); trace the stencil, "
         f"draw the small figure inside; at most {inc.max_cemeteries_per_lot} per lot. Entrance "
         f"{yen(data.purchase.entrance)} with a new hotel. Buildings: {blds}."),
        ("Hotels", "A hotel is one entrance (or a Coin Laundry) with any number of capsules of one colour; "
         "it never changes once built. Ground-floor capsules share sides; no more floors than ground-floor "
         f"capsules, except a single pink stack of {data.construction.pink_tower_min_floors}+ floors. A Coin "
         "Laundry holds 0, 1 or 2 capsules on top. A franchise is every hotel of one colour."),
        ("Golden rule of hotel placement", "A land area (lot or subdivision) never holds more hotels than "
         "vending machines + cemeteries in it. Only the Sumo Dohyo on side B lifts it in its lot. Broken by "
         f"mistake: pay {yen(inc.golden_rule_penalty)} per capsule of that hotel per income phase since it "
         "was built (all you have if short); it earns nothing until the rule holds again."),
        ("Income", "Hotel income = franchise income + the lot's attraction income − cemetery deduction. "
         f"Franchise income = {inc.franchise_per_unit} × (hotels of that colour on the map + lots holding "
         "one; subdivisions never count). Attraction income = the yen of the bonus dice rolled for the "
         f"lot's buildings. Cemetery deduction = {inc.cemetery_deduction} per cemetery in the lot (at most "
         f"{inc.cemetery_deduction * inc.max_cemeteries_per_lot}), none after a no-cemetery face; it never "
         f"takes a hotel below {yen(inc.hotel_floor)}. Then the cap: at most {yen(inc.capsule_cap)} × the "
         "hotel's capsules. Coupon faces give the building's owner a coupon. One player leads: lot by lot, "
         "hotel by hotel."),
        ("Franchise coupons", "When a franchise's income reaches or passes " + ", ".join(
            yen(t) for t in data.franchise.coupon_thresholds) + ", every owner of a hotel of that colour "
         "takes 1 coupon at once."),
        ("Variants", "Attraction cards: the buyer of a larger building chooses side A (roll its die) or B "
         "(see the card), or side B for all; the Sweets Buffet's side is chosen once for all of them. "
         "Tallest hotel: a new hotel taller than every other (not the first one built) earns a coupon. "
         "Outside money: money tokens instead of writing yen; the ledger still counts them."),
        ("The companion", "Scan a player ledger's code for that seat's live ledger, the round expenses "
         "board's for the purchase queue, the franchise income board's for the franchises, an attraction "
         "card's for its sides. It keeps every entry with who made it and why."),
    ]


def draw_summary(canvas: Canvas, width: float, height: float, data: CapsuleHotel, layout: Layout,
                 pal: Palette, page: int) -> None:
    t = layout.text
    items = page_one(data) if page == 1 else page_two(data)
    label(canvas, (2, 2, width - 4, 10), f"{data.name} — rules summary ({page}/2)", t.title, anchor="start",
          fill=pal.ink, where="summary title")
    y = 15.0
    # the largest body size (down to the minimum) at which the page holds its text
    size = t.body.size
    while size > t.body.min:
        need = sum(5.5 + paragraphs_height(width - 6, [text], t.body, size) + 2 for _, text in items)
        if need <= height - y - 2:
            break
        size -= 0.25
    for head, text in items:
        canvas.rect(2, y, 1.2, 4.5, Style(fill=pal.accent, stroke=None))
        label(canvas, (5, y, width - 8, 5), head, t.head, anchor="start", fill=pal.ink, where=f"summary {head}")
        y = paragraph(canvas, 5, y + 5.5, width - 8, text, t.body, pal.ink, size=size) + 2
