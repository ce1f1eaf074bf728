"""Tokyo Capsule Hotel's ledger arithmetic (companion/games/capsule_hotel/rules/ledger.py) against the
rules text's worked examples. The numbers are checked first; the rules' own sentences
(../shared/rules/capsule-hotel.it.txt) last, skipped with a reason when ../shared is absent."""
import pytest

from companion.games.capsule_hotel.rules import ledger
from generator import canon
from generator.canon.capsule_hotel import PINK

RULES = "capsule-hotel.it.txt"


@pytest.fixture(scope="module")
def game():
    return canon.load("capsule-hotel")


def test_capsule_prices(game):
    prices = [ledger.capsule_price(game, c.id) for c in game.capsules if c.id != PINK]
    assert min(prices) == 1000 and max(prices) == 4000
    with pytest.raises(ValueError, match="pink_capsule_cost"):
        ledger.capsule_price(game, PINK)


def test_debt_example(game, rules_text):
    assert 6000 in {o.amount for o in game.loan.option}
    assert ledger.interest(game, 6000) == 600
    assert ledger.debt(game, 6000, 2) == 7200
    assert ledger.debt(game, 4000, 8) == 4000 + 8 * 400   # end of round 8: the loan and 8 rounds of interest
    assert ("se il tuo prestito iniziale era di 6.000円, nel secondo round il tuo Debito totale "
            "sarebbe di 7.200円 (6.000円 + 2×600円)") in rules_text(RULES)


def test_pink_capsule_example(game, rules_text):
    assert ledger.pink_capsule_cost(game, 4) == 3500
    assert ledger.pink_capsule_cost(game, 3) == 3000
    assert ledger.pink_capsule_cost(game, 1) == 2000
    with pytest.raises(ValueError):
        ledger.pink_capsule_cost(game, 0)
    text = rules_text(RULES)
    assert "Acquista 4 Capsule rosa al costo di 3.500円 (2.000円 + 3×500円)" in text
    assert "altre 3 Capsule rosa al costo di 3.000円 (2.000円 + 2×500円)" in text


def test_purchase_limit_can_be_passed_by_one_purchase(game, rules_text):
    pink_for_sale = game.capsule[PINK].for_sale
    largest = max(max(b.price for b in game.lot_boards), max(b.cost for b in game.buildings),
                  max(ledger.capsule_price(game, c.id) for c in game.capsules if c.id != PINK),
                  ledger.pink_capsule_cost(game, pink_for_sale))
    limits = {n: ledger.purchase_limit(game, n) for n in range(game.players[0], game.players[1] + 1)}
    assert min(limits.values()) <= largest
    # With 2 players, buying the 6,000 lot board alone ends the round's Purchase/Barter phase.
    assert ledger.purchase_limit(game, 2) <= max(b.price for b in game.lot_boards)
    assert list(limits.values()) == sorted(limits.values())   # more players, more spending
    text = rules_text(RULES)
    # "Nota: in alcuni casi è possibile che il Limite di acquisto venga superato con un solo Acquisto e
    # che la fase termini prima che tutti i giocatori abbiano avuto l'occasione di fare qualcosa."
    assert "il Limite di acquisto venga superato con un solo Acquisto" in text
    # "Raggiungere esattamente il Limite di acquisto termina la fase proprio come superarlo"
    assert "Raggiungere esattamente il Limite di acquisto termina la fase" in text


def test_franchise_track_shows_every_reachable_income(game):
    # A hotel has at least 1 capsule; a franchise earns 100 x (its hotels + the lots holding them).
    hotels = max(c.for_sale for c in game.capsules)
    assert hotels <= game.inventory.entrances + game.building["coin-laundry"].count
    assert ledger.franchise_income(game, hotels, hotels) <= game.franchise.track_max
    assert game.franchise.source_of("track_max") == "house"


def test_cemetery_deduction(game, rules_text):
    assert ledger.cemetery_deduction(game, 5) == 500
    assert ledger.cemetery_deduction(game, 0) == 0
    with pytest.raises(ValueError, match="0-5 cemeteries"):
        ledger.cemetery_deduction(game, 6)
    assert "non può mai superare i 500円" in rules_text(RULES)


def test_hotel_income_examples(game, rules_text):
    # "un Hotel composto da 2 Capsule riceverà ... al massimo 2.000円"
    assert ledger.hotel_income(game, franchise=1200, attraction=3000, cemeteries=0, capsules=2) == 2000
    # "tutti gli Hotel in un Lotto che contiene 3 Cimiteri avranno la propria Rendita ridotta di 300円"
    assert ledger.hotel_income(game, 800, 500, 0, 4) - ledger.hotel_income(game, 800, 500, 3, 4) == 300
    # Never below 100 by the cemetery deduction; the cap comes last.
    assert ledger.hotel_income(game, 300, 0, 5, 1) == 100
    assert ledger.hotel_income(game, 300, 0, 5, 1, no_cemetery=True) == 300
    assert ledger.hotel_income(game, 2600, 0, 5, 2) == 2000   # 2,100 after the deduction, capped to 2,000
    text = rules_text(RULES)
    assert "composto da 2 Capsule riceverà per quell’Hotel una Rendita di al massimo 2.000円" in text
    assert "3 Cimiteri avranno la propria Rendita ridotta di 300円" in text


def test_franchise_examples(game):
    # 100 x (hotels + lots): 3 hotels of one colour in 2 lots earn 500 each and pass the first threshold.
    assert ledger.franchise_income(game, 3, 2) == 500
    assert ledger.franchise_income(game, 1, 1) == 200
    assert ledger.franchise_income(game, 0, 0) == 0
    with pytest.raises(ValueError):
        ledger.franchise_income(game, 1, 2)
    assert ledger.franchise_coupons(game, 400, 500) == 1
    assert ledger.franchise_coupons(game, 500, 600) == 0     # already reached: no second coupon
    assert ledger.franchise_coupons(game, 900, 1600) == 2


def test_the_rules_import_alone():
    """Pure: no Flask, no store (a fresh interpreter, so nothing else loaded them first)."""
    import subprocess
    import sys
    code = ("import sys, companion.games.capsule_hotel.rules.ledger; "
            "print(sorted(m for m in ('flask', 'companion.store', 'companion.app') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
