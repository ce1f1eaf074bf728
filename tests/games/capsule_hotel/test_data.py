"""Tokyo Capsule Hotel's canonical data against the (Italian) rules text, its cross-references, and
the loader's errors on broken files. (The rules' arithmetic over it: test_rules_ledger.py.)

Each test checks the data first; the rules' own sentences (../shared/rules/capsule-hotel.it.txt) are
checked last, and skipped with a reason when ../shared is not beside the repository."""
import re
from collections import Counter

import pytest

from generator import canon
from generator.canon.capsule_hotel import PINK

RULES = "capsule-hotel.it.txt"
GAME = "capsule-hotel"


@pytest.fixture(scope="module")
def game():
    return canon.load(GAME)


def yen(s: str) -> int:
    """'1.000' (Italian thousands separator) -> 1000."""
    return int(s.replace(".", ""))


# --------------------------------------------------------------------------- totals of the rules

def test_component_list_of_the_rules(game, rules_text):
    inv = game.inventory
    stated = {
        r"10x fogli Mappa": inv.map_sheets == 10,
        r"1x blocco del Registro di partita": inv.game_ledger_pads == 1,
        r"5x blocchi del Registro del giocatore": inv.player_ledger_pads == 5,
        r"·5 - Plance dei Lotti": inv.lot_boards == 5 == len(game.lot_boards),
        r"1x Rendita franchising": inv.franchise_income_boards == 1,
        r"1x plancia delle Capsule": inv.capsule_boards == 1,
        r"2x plance delle Attrazioni": inv.attraction_boards == 2 == len(game.attraction_boards),
        r"1x Plancia delle Spese del round": inv.round_expenses_boards == 1,
        r"2x segnalini delle Spese del round": inv.round_expenses_markers == 2,
        r"5x Sigilli dei giocatori": inv.seals == 5 == len(game.seals),
        r"·26 - Coupon e carte Attrazione": inv.coupons_and_attraction_cards == 26,
        r"·20 - Ingressi": inv.entrances == 20,
        r"·88 - Capsule": inv.capsules == 88 == sum(c.count for c in game.capsules),
        r"·4 - Cimiteri": inv.cemeteries == 4,
        r"·20 - Distributori automatici": inv.vending_machines == 20,
        r"·11 - Edifici": inv.buildings == 11 == sum(b.count for b in game.buildings),
        r"·3 - Dadi bonus": inv.bonus_dice == 3 == len(game.dice),
    }
    for phrase, agrees in stated.items():
        assert agrees, phrase
    text = rules_text(RULES)
    for phrase in stated:
        assert phrase in text, phrase


def test_coupons_and_attraction_cards(game, rules_text):
    # One attraction card for each building with a side B: the five "larger" buildings.
    larger = ("Sweets Buffet", "Tokyo Spike", "Park", "Arcade", "Sumo Dohyo")
    for name in larger:
        assert game.building[name.lower().replace(" ", "-")].card is not None
    assert game.building["coin-laundry"].card is None
    assert len(game.attraction_cards) == 5
    assert game.coupons == 21
    assert game.coupons + len(game.attraction_cards) == 26
    text = rules_text(RULES)
    for name in larger:
        assert re.search(rf"\n{name}: ", text), name


def test_costs_stated_by_the_rules(game, rules_text):
    p = game.purchase
    assert p.lot_price_range == (3000, 6000)
    assert sorted(b.price for b in game.lot_boards)[0] == 3000
    assert sorted(b.price for b in game.lot_boards)[-1] == 6000
    assert p.capsule_price_range == (1000, 4000)
    prices = [pos.price for pos in game.capsule_board.position]
    assert min(prices) == 1000 and max(prices) == 4000
    assert (p.pink_first, p.pink_each_further) == (2000, 500)
    assert (p.vending_machine, p.cemetery, p.entrance) == (500, -200, 1000)
    assert p.building_price_range == (2000, 6000)
    assert p.declare_seconds == 5 and p.items_per_purchase == 1

    text = rules_text(RULES)
    lo, hi = re.search(r"Lotto: Costo: ([\d.]+)-([\d.]+)円", text).groups()
    assert p.lot_price_range == (yen(lo), yen(hi))
    lo, hi = re.search(r"Capsule: \(diverse dalle rosa\) Costo: ([\d.]+)-([\d.]+)円", text).groups()
    assert p.capsule_price_range == (yen(lo), yen(hi))
    first, further = re.search(r"Costo: ([\d.]+)円 per la prima \+ ([\d.]+)円 per ogni ulteriore",
                               text).groups()
    assert (p.pink_first, p.pink_each_further) == (yen(first), yen(further))
    assert "Distributore automatico: Costo: 500円" in text
    assert "Cimitero: Costo: −200円 (guadagni 200円)" in text
    assert "Costo: 1.000円 per l’Ingresso" in text
    lo, hi = re.search(r"Edifici: Costo: ([\d.]+)-([\d.]+)円", text).groups()
    assert p.building_price_range == (yen(lo), yen(hi))
    assert "contare 5 secondi" in text
    assert "Puoi Acquistare un solo oggetto per azione di Acquisto" in text


def _faces(listing: str) -> list[dict]:
    """Parse the rules' die listing ('[Coupon] 200円 / 400円 (2x) / [Niente cimitero]')."""
    faces = []
    for part in listing.split(" / "):
        times = 2 if "(2x)" in part else 1
        money = re.search(r"([\d.]+)円", part)
        faces.append({"yen": yen(money.group(1)) if money else 0,
                      "coupons": part.count("[Coupon]"),
                      "no_cemetery": "[Niente cimitero]" in part, "times": times})
    return faces


def test_buildings_and_die_faces_exactly_as_listed(game, rules_text):
    assert [(b.name, b.cost) for b in game.buildings] == [
        ("Coin Laundry", 2000), ("Sweets Buffet", 3000), ("Tokyo Spike", 3000), ("Park", 4000),
        ("Arcade", 5000), ("Sumo Dohyo", 6000)]
    text = rules_text(RULES)
    listed = re.findall(r"·([A-Za-z ]+?) · ([\d.]+)円 · facce del dado: (.+)", text)
    assert [name for name, _, _ in listed] == [b.name for b in game.buildings]
    for name, cost, faces in listed:
        b = next(b for b in game.buildings if b.name == name)
        assert b.cost == yen(cost), name
        assert [dict(yen=f.yen, coupons=f.coupons, no_cemetery=f.no_cemetery, times=f.times)
                for f in b.faces] == _faces(faces), name
    assert "(2x) = questa faccia compare due volte sul dado" in text


def test_each_die_shows_every_face_as_often_as_listed(game, rules_text):
    # "(2x) = questa faccia compare due volte sul dado": a face without (2x) is on the die once, so a
    # die has exactly as many sides as its buildings' lists count faces (an 8-sided die printing the
    # Park's 4 faces twice each would show "[Coupon] 500円" twice, which the rules would mark (2x)).
    for b in game.buildings:
        assert game.die[b.die].sides == len(b.rolled_faces), b.id
    assert {b.die for b in game.buildings} == set(game.die)
    assert len(game.building["arcade"].rolled_faces) == game.die[game.building["arcade"].die].sides == 8
    assert len(game.building["park"].rolled_faces) == game.die[game.building["park"].die].sides == 4
    assert len(game.building["sumo-dohyo"].rolled_faces) == 4
    assert Counter(f.yen for f in game.building["park"].rolled_faces) == Counter([500, 1000, 2000, 3000])
    assert "(2x) = questa faccia compare due volte sul dado" in rules_text(RULES)


def test_attraction_card_side_b_values(game, rules_text):
    def effects(building):
        return {e.effect: e for e in game.building[building].card.side_b}

    sweets = effects("sweets-buffet")
    assert sweets["attraction-income"].amount == 300 and "ignore-cemetery-deduction" in sweets
    assert "roll-bonus-die" not in sweets
    spike = effects("tokyo-spike")
    assert spike["gain-coupons"].amount == 7 and spike["gain-coupons"].when == "purchase"
    assert len(spike) == 1   # no die roll, no attraction income
    park = effects("park")
    assert "roll-bonus-die" in park
    assert park["adjacent-lots-attraction-income"].amount == 500
    assert park["adjacent-lots-attraction-income"].starting_lots_as_one
    arcade = effects("arcade")
    assert arcade["rename"].name == "Manga Hotel"
    assert arcade["gain-coupons"].amount == 1 and arcade["attraction-income"].amount == 1000
    assert effects("sumo-dohyo").keys() == {"waive-golden-rule"}
    # Side A is the building as printed: every building rolls its die.
    for b in game.buildings:
        assert any(e.effect == "roll-bonus-die" for e in b.effects)
    laundry = {e.effect: e for e in game.building["coin-laundry"].effects}
    assert laundry["hotel-on-building"].max_capsules == 2

    text = rules_text(RULES)
    assert "La Rendita attrazione di uno Sweets Buffet è invece fissa a 300円" in text
    assert "una tantum di 7 Coupon al giocatore che lo Acquista" in text
    assert "una Rendita attrazione extra di 500円" in text
    assert "diventa un Manga Hotel e dà un bonus immediato e una tantum di 1 Coupon" in text
    assert "La sua Rendita attrazione è invece fissa a 1.000円" in text
    assert "fino a 2 Capsule dello stesso colore" in text


def test_economy_stated_by_the_rules(game, rules_text):
    assert game.loan.interest_percent == 10 and game.rounds.count == 8
    assert game.money.coupon_value == 500
    assert {o.amount: o.coupons for o in game.loan.option}[4000] == 1
    assert all(o.coupons == 0 for o in game.loan.option if o.amount != 4000)
    assert game.franchise.coupon_thresholds == (500, 1000, 1500)
    assert game.income.franchise_per_unit == 100
    assert game.income.cemetery_deduction == 100
    assert game.income.max_cemeteries_per_lot == 5
    assert game.income.hotel_floor == 100 and game.income.capsule_cap == 1000
    assert game.income.golden_rule_penalty == 1000
    assert game.construction.pink_tower_min_floors == 4
    assert game.variants.tallest_hotel_coupons == 1 and game.variants.placement_vote_percent == 50
    assert game.rounds.end_check_from == 2
    assert game.rounds.phases == ("mark-round", "loans", "purchase-barter", "income")

    text = rules_text(RULES)
    for phrase in ("pari al 10% del valore del prestito iniziale", "alla fine dell’ottavo round",
                   "i Coupon hanno un valore di 500円 ciascuno", "prestito di 4.000円 prendono anche 1 Coupon",
                   "Rendita franchising di 500円, 1.000円 o 1.500円",
                   "Rendita franchising = 100円 × [numero totale di Hotel",
                   "riduce di 100円 la Rendita di tutti gli Hotel di quel Lotto",
                   "possono esserci al massimo 5 Cimiteri", "non può mai superare i 500円",
                   "al di sotto di 100円 dalla Detrazione cimitero",
                   "non può superare 1.000円 × il numero di Capsule", "penale di 1.000円 per ogni Capsula",
                   "almeno 4 piani", "prende 1 Coupon", "almeno il 50% degli altri giocatori",
                   "nei round 2-8"):
        assert phrase in text, phrase


# --------------------------------------------------------------------------- house data

def test_house_values_are_marked(game):
    assert game.players == (2, 5) and game.players_source == "house"
    assert game.players[1] <= game.inventory.seals and game.players[1] <= game.inventory.player_ledger_pads
    assert game.rounds.source_of("coupon_rounds") == "house"
    assert game.rounds.source_of("count") == "rules"
    assert all(1 <= r <= game.rounds.count for r in game.rounds.coupon_rounds)
    assert {o.amount: o.source for o in game.loan.option} == {
        4000: "rules", 6000: "rules", 8000: "house", 10000: "house"}
    assert game.purchase_limit.source == "house"
    for n in range(game.players[0], game.players[1] + 1):
        assert game.purchase_limit.by_players[str(n)] % game.purchase_limit.track_step == 0
    assert all(b.source == "house" for b in game.lot_boards)
    assert game.capsule[PINK].source == "rules" and game.capsule[PINK].source_of("count") == "house"
    assert game.capsule["green"].source == "rules"   # the barter example's green capsules
    for b in game.buildings:
        assert b.source_of("cost") == "rules" and b.source_of("faces") == "rules"
        assert b.source_of("count") == "house"
    assert all(d.source == "house" for d in game.dice)
    with pytest.raises(KeyError):
        game.rounds.source_of("no-such-field")


def test_house_boards_and_setup(game):
    reb = game.round_expenses_board
    assert len(reb.markers) == game.inventory.round_expenses_markers == 2
    assert reb.queue_spaces >= game.players[1]
    assert reb.track_max >= max(game.purchase_limit.by_players.values())
    assert reb.source_of("queue_spaces") == "house"
    assert game.setup.source == "house"
    claimed = game.setup.starting_lots_per_player * game.players[1]
    assert claimed - game.starting_lots.count == 1     # with 5 players, one player has none ...
    assert game.setup.no_starting_lot_coupons * game.money.coupon_value < min(
        b.price for b in game.lot_boards)              # ... and some coupons towards a lot instead
    assert game.franchise.track_max >= game.franchise.coupon_thresholds[-1]


def test_house_capsules_fit_the_capsule_board(game):
    # 1 of each colour sits by the franchise income board; the rest stand at the board position for
    # their number, one colour per position.
    positions = {p.pieces for p in game.capsule_board.position}
    non_pink = [c for c in game.capsules if c.id != PINK]
    assert sorted(c.for_sale for c in non_pink) == sorted(positions)
    assert any(c.id == "green" for c in game.capsules)


def test_house_geometry_fits(game):
    w, h = game.map_sheet.size
    for b in game.lot_boards:
        assert min(b.size) <= min(w, h) and max(b.size) <= max(w, h)
    s = game.starting_lots
    assert len(s.corners) == s.count == 4
    for x, y in s.corners:
        assert 0 <= x and x + s.side <= w and 0 <= y and y + s.side <= h
    # A 2-capsule hotel with its entrance and a vending machine fits in a starting lot.
    cw, cl, _ = game.pieces.capsule
    assert cl + game.pieces.entrance[0] + game.pieces.vending_machine[0] + 3 <= s.side


# --------------------------------------------------------------------------- cross-references

def test_cross_references(game):
    on_boards = [b for board in game.attraction_boards for b in board.buildings]
    assert sorted(on_boards) == sorted(game.building)
    for b in game.buildings:
        assert b.die in game.die
    card_ids = [c.id for c in game.attraction_cards]
    assert len(card_ids) == len(set(card_ids))


def test_components_rows_add_up(game):
    rows = game.components()
    by_kind = Counter()
    for row in rows:
        by_kind[row.kind] += row.count
        assert row.source in ("rules", "reference", "house")
        assert row.label
    assert len({(r.kind, r.id) for r in rows}) == len(rows)
    assert by_kind["map-sheet"] == 10
    assert by_kind["ledger"] == 6
    assert by_kind["lot-board"] == 5
    assert by_kind["board"] == 5
    assert by_kind["marker"] == 2 and by_kind["seal"] == 5
    assert by_kind["attraction-card"] + by_kind["coupon"] == 26
    assert by_kind["entrance"] == 20
    assert by_kind["capsule"] == 88
    assert by_kind["cemetery"] == 4
    assert by_kind["vending-machine"] == 20
    assert by_kind["building"] == 11
    assert by_kind["bonus-die"] == 3


def test_the_interface_every_game_offers(game):
    assert game.id == GAME and game.name == "Tokyo Capsule Hotel"
    assert canon.load(GAME) is game


# --------------------------------------------------------------------------- broken files

@pytest.mark.parametrize("name, old, new, key, problem", [
    ("buildings.toml", "cost = 2000", 'cost = "2000"', "building[0].cost", "expected a whole number"),
    ("buildings.toml", "cost = 2000", "cost = 1500", "building", "building cost 1500 is outside"),
    ("buildings.toml", 'die = "die-6"', 'die = "die-7"', "building[0].die", "unknown die 'die-7'"),
    ("buildings.toml", "{ yen = 100 },", "{ yen = 100, times = 0 },", "building[0].faces[1]",
     "times: at least 1"),
    ("buildings.toml", "amount = 7", "amount = 0", "building[2].card.side_b[0]",
     "'gain-coupons' needs a positive amount"),
    ("buildings.toml", "count = 4", "count = 5", "building",
     "building counts add up to 12, the rules say 11"),
    ("buildings.toml", "{ yen = 500 },\n]", "{ yen = 500 },\n  { yen = 600 },\n]", "building[0].faces",
     "7 faces as the rules list them"),
    ("buildings.toml", "sides = 4", "sides = 8", "building[3].faces",
     "4 faces as the rules list them ((2x) counted twice), but die 'die-4-park-sumo' has 8 sides"),
    ("components.toml", "count = 11", "count = 12", "capsule",
     "capsule counts add up to 89, the rules say 88"),
    ("components.toml", "entrances = 20", "entrances = 19", "inventory.entrances", "the rules say 20"),
    ("components.toml", "bonus_dice = 3", "bonus_dice = 4", "inventory.bonus_dice",
     "bonus dice add up to 4, the rules say 3"),
    ("components.toml", '"coin-laundry", "sweets-buffet"', '"coin-laundy", "sweets-buffet"',
     "attraction_board[0].buildings[0]", "unknown building 'coin-laundy'"),
    ("components.toml", "price = 3000", "price = 2500", "lot_board", "lot price 2500 is outside"),
    ("components.toml", "count = 5", "count = 6", "capsule", "capsule counts add up to 89"),
    ("components.toml", 'hex = "#f5d000"', 'hex = "yellow"', "capsule[1]", "is not a colour"),
    ("components.toml", "corners = [[50, 85]", "corners = [[150, 85]", "starting_lots.corners[0]",
     "not wholly on the map sheet"),
    ("game.toml", 'coupon_rounds_source = "house"', 'coupon_round_source = "house"',
     "rounds.coupon_round_source", "'coupon_round' is not a field here"),
    ("game.toml", 'coupon_rounds_source = "house"', 'coupon_rounds_source = "rules"',
     "rounds.coupon_rounds_source", "the item's source is 'rules' already"),
    ("game.toml", 'coupon_rounds_source = "house"', 'coupon_rounds_source = "folk"',
     "rounds.coupon_rounds_source", "expected one of 'rules', 'reference', 'house'"),
    ("game.toml", "2 = 6000,", "2 = 6100,", "purchase_limit", "6100 is not a positive multiple"),
    ("game.toml", "2 = 6000,", "2 = 8000,", "purchase_limit.by_players",
     "the smallest limit (8000) is above the largest single purchase (6500)"),
    ("game.toml", "track_max = 3200", "track_max = 3000", "franchise.track_max",
     "a franchise can reach 3200 (16 hotels in as many lots)"),
    ("game.toml", "4 = 12000, 5 = 15000", "4 = 12000", "",
     "expected one limit for each player count 2-5"),
    ("game.toml", 'source = "house"\nby_players', 'source = "homemade"\nby_players',
     "purchase_limit.source", "expected one of"),
    ("game.toml", "coupon_rounds = [3, 6]", "coupon_rounds = [3, 9]", "rounds", "coupon_rounds"),
    ("game.toml", "players = [2, 5]", "players = [2, 6]", "",
     "expected one limit for each player count 2-6"),
    ("game.toml", ("players = [2, 5]", "5 = 15000 }"), ("players = [2, 6]", "5 = 15000, 6 = 18000 }"),
     "players",
     "there are only 5 seals and 5 player ledger pads"),
    ("game.toml", "[loan]", "[loan\n", "", "not valid TOML"),
    ("game.toml", "starting_lots_per_player = 1", "starting_lots_per_player = 3",
     "setup.starting_lots_per_player", "cannot claim 3 of the 4 starting lots"),
    ("components.toml", 'markers = ["expenses", "limit"]', 'markers = ["expenses"]',
     "round_expenses_board.markers", "each of the 2 round expenses markers"),
    ("components.toml", "track_max = 15000", "track_max = 14000", "round_expenses_board.track_max",
     "reaching the largest purchase limit (15000)"),
])
def test_broken_file_names_file_key_and_problem(refused_data, name, old, new, key, problem):
    refused_data(GAME, name, old, new, key, problem)
