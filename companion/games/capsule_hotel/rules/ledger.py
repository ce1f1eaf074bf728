"""Tokyo Capsule Hotel's ledger arithmetic: what the (Italian) rules text spells out over the canonical
data. Pure functions of `data` (generator.canon.load("capsule-hotel")) and plain numbers; every
amount comes from the data, only the way they combine is written here.
"""
from __future__ import annotations

from generator.canon.capsule_hotel import PINK, CapsuleHotel


def capsule_price(data: CapsuleHotel, colour: str) -> int:
    """Price of a non-pink colour: the capsule board position of its group (all are taken)."""
    c = data.capsule[colour]
    if c.id == PINK:
        raise ValueError("pink capsules are priced per purchase: use pink_capsule_cost(data, n)")
    return next(p.price for p in data.capsule_board.position if p.pieces == c.for_sale)


def pink_capsule_cost(data: CapsuleHotel, n: int) -> int:
    """Cost of `n` pink capsules bought in one purchase: the first 2,000, each further one 500."""
    if n < 1:
        raise ValueError("at least one pink capsule")
    return data.purchase.pink_first + data.purchase.pink_each_further * (n - 1)


def interest(data: CapsuleHotel, loan: int) -> int:
    """Interest per round: a percentage of the starting loan."""
    return loan * data.loan.interest_percent // 100


def debt(data: CapsuleHotel, loan: int, round_: int) -> int:
    """Total debt in a round: loan + interest x current round."""
    return loan + interest(data, loan) * round_


def purchase_limit(data: CapsuleHotel, players: int) -> int:
    """The round's purchase limit for this many players."""
    return data.purchase_limit.by_players[str(players)]


def franchise_income(data: CapsuleHotel, hotels: int, lots: int) -> int:
    """100 x (hotels of the franchise on the map + lots holding at least one of them)."""
    if not (hotels == lots == 0 or 1 <= lots <= hotels):
        raise ValueError(f"{hotels} hotels cannot stand in {lots} lots")
    return data.income.franchise_per_unit * (hotels + lots)


def franchise_coupons(data: CapsuleHotel, before: int, after: int) -> int:
    """Coupons each owner of a hotel of the franchise gains when its income goes before -> after."""
    crossed = sum(1 for t in data.franchise.coupon_thresholds if before < t <= after)
    return crossed * data.franchise.coupons_per_threshold


def cemetery_deduction(data: CapsuleHotel, cemeteries: int) -> int:
    """What the cemeteries of a lot take from each of its hotels' income."""
    if not 0 <= cemeteries <= data.income.max_cemeteries_per_lot:
        raise ValueError(f"a lot holds 0-{data.income.max_cemeteries_per_lot} cemeteries, not {cemeteries}")
    return data.income.cemetery_deduction * cemeteries


def hotel_income(data: CapsuleHotel, franchise: int, attraction: int, cemeteries: int, capsules: int,
                 no_cemetery: bool = False) -> int:
    """Franchise + attraction - cemetery deduction (never below 100 by it), then the cap of
    1,000 x capsules applied last. `no_cemetery`: a die or card cancels the deduction."""
    gross = franchise + attraction
    deduction = 0 if no_cemetery else cemetery_deduction(data, cemeteries)
    net = max(gross - deduction, min(gross, data.income.hotel_floor))
    return min(net, data.income.capsule_cap * capsules)
