"""companion.games.words.count: the singular for one, in every game's sentences."""
from companion.games.words import count


def test_count_says_one_card_and_two_cards():
    assert count(1, "card") == "1 card"
    assert count(0, "card") == "0 cards"
    assert count(2, "customer") == "2 customers"
    assert count(1, "coat of arms", "coats of arms") == "1 coat of arms"
    assert count(3, "cemetery", "cemeteries") == "3 cemeteries"
