"""Sapporo 1876's rules arithmetic (companion/games/sapporo_1876/rules/) against the rules text's
worked examples. The numbers are checked first; the rules' own sentences
(../shared/rules/sapporo-1876.txt) last, skipped with a reason when ../shared is absent."""
import pytest

from companion.games.sapporo_1876.rules import fame, spots
from generator import canon

RULES = "sapporo-1876.txt"


@pytest.fixture(scope="module")
def game():
    return canon.load("sapporo-1876")


def test_ap_example(game, rules_text):
    assert spots.ap(game, "agricultural-college", {"rice-bale": 2, "cattle": 1, "yen": 4}) == 12
    with pytest.raises(ValueError):
        spots.ap(game, "agricultural-college", {"wheat": 1})   # "You cannot pay wheat or sheep."

    text = rules_text(RULES)
    assert "pay 2 rice bales (6 AP), 1 cattle (2 AP) and 4 yen (4 AP)" in text
    assert "an action worth a total of 12 AP" in text


def test_harvest_example(game, rules_text):
    assert spots.harvest_gain(game, "wheat", 3) == {"wheat": 2, "yen": 1}
    assert spots.harvest_gain(game, "sheep", 5) == {"sheep": 3, "yen": 3}
    # 3 building tiles with workers: 1 back free, 1 more for 1 yen.
    paid = 1
    assert game.harvest.free_building_returns + paid // game.harvest.building_return_cost == 2

    text = rules_text(RULES)
    assert "gained 2 wheat and 1 yen from the wheat pioneering column" in text
    assert "3 sheep and 3 yen from the sheep pioneering column" in text
    assert "Player A paid 1 yen and removed workers from 2 of them" in text


def test_settlement_example(game, rules_text):
    left = fame.settle_column(game, "left", a=[1, 3], b=[2])
    middle = fame.settle_column(game, "middle", a=[], b=[1])
    right = fame.settle_column(game, "right", a=[2], b=[1])
    assert (left, middle, right) == ((3, 1), (0, 4), (5, 3))
    assert sum(x[0] for x in (left, middle, right)) == 8
    assert sum(x[1] for x in (left, middle, right)) == 8
    assert [c.source_of("higher") for c in game.council] == ["rules"] * 3
    assert [c.source_of("lower") for c in game.council] == ["rules", "house", "rules"]

    text = rules_text(RULES)
    assert "Player A (white workers) has 2 workers and Player B (black workers) has 1 worker, " \
           "so Player A gains 3 fame points and Player B gains 1 fame point" in text
    assert "In the middle column only Player B has a worker, so Player B gains 4 fame points" in text
    assert "Player A's worker is on the higher space, so Player A gains 5 fame points and " \
           "Player B gains 3 fame points" in text
    assert "Player A: leftmost column 3 fame points; middle column 0 fame points; rightmost column 5" in text


def test_final_scoring_example(game, rules_text):
    assert fame.academy_fame(game, 3) == 9
    columns = {"wheat": 4, "sheep": 5, "cattle": 4}   # two on the second space from the top, one on top
    assert [fame.pioneering_fame(game, c, s) for c, s in columns.items()] == [2, 5, 2]
    leftover = 1 + 2     # "one 1-yen note and 2 cattle"
    assert fame.person_fame(game.person["b-ryan"].scoring, leftover) == 3
    dunn = game.person["e-dunn"].scoring
    counted = sum(1 for c in dunn.columns if columns.get(c, 0) >= dunn.min_space)
    assert fame.person_fame(dunn, counted) == 7
    assert fame.council_fame(game, {"left": 2, "middle": 1, "right": 1}) == 21
    assert fame.leftover_fame(game, leftover) == 1

    text = rules_text(RULES)
    for phrase in ("9 fame points from the private academy (3 + 6)",
                   "9 fame points from the pioneering columns (2 + 5 + 2)",
                   "3 fame points from the influential person tile [B. Ryan] (3 resources remaining)",
                   "7 fame points from the influential person tile [E. Dunn]",
                   "21 fame points from the city council (3 + 3 + 6 + 9)",
                   "1 fame point from leftover banknotes and resources (one 1-yen note and 2 cattle)"):
        assert phrase in text, phrase


def test_person_fame_at_least_scores_once(game):
    rules = [p.scoring for p in game.persons if p.scoring.at_least]
    for rule in rules:
        assert fame.person_fame(rule, rule.at_least - 1) == 0
        assert fame.person_fame(rule, rule.at_least) == fame.person_fame(rule, rule.at_least * 5) == rule.points
