"""Tokyo Capsule Hotel's purchase queue in real time (issue 20): declare, then complete; the count's
length in the history; the count's timer once it ran out; the simultaneous phases' keys.

The rules (capsule-hotel.it.txt, "Acquisto/Baratto"): "Non appena il tuo Sigillo raggiunge la testa
della coda, devi dichiarare prontamente quale singolo Acquisto stai effettuando. Se non lo fai, un
altro giocatore può avvisarti e poi contare 5 secondi ad alta voce; se non dichiari un Acquisto prima
che arrivi a 5, il giocatore che ha contato può rimuovere il tuo Sigillo [...] facendoti perdere
l'azione di Acquisto" and "Dopo aver dichiarato che cosa stai Acquistando, completa il tuo Acquisto".
The count waits for a declaration only; the purchase is completed after it, without the clock.
"""
import pytest

from companion.games import clock
from companion.games.capsule_hotel.rules import RULES
from companion.games.contract import HOST, Ctx, IllegalMove
from companion.web.openapi import document_for
from generator import canon

TEXT = "capsule-hotel.it.txt"
T0 = 1_700_000_000_000
NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi"]


@pytest.fixture(scope="module")
def rules():
    return RULES(canon.load("capsule-hotel"))


def play(rules, state, *moves, now=T0, seat=HOST):
    for m in moves:
        state = rules.apply(state, m, Ctx(now, seat))
    return state


def start(rules, loans=(6000, 8000), options=None, seed=1):
    s = rules.setup(NAMES[:len(loans)], {"dice": "table", **(options or {})}, seed)
    return play(rules, s, *[{"type": "choose-loan", "player": p, "amount": a} for p, a in enumerate(loans)])


def test_the_rules_say_declare_then_complete(rules_text):
    text = " ".join(rules_text(TEXT).split())
    assert "devi dichiarare prontamente quale singolo Acquisto stai effettuando" in text
    assert "se non dichiari un Acquisto prima che arrivi a 5" in text
    assert "Dopo aver dichiarato che cosa stai Acquistando, completa il tuo Acquisto" in text


def test_declaring_stops_the_count_and_the_purchase_is_completed_after_it_without_the_clock(rules):
    """"se non dichiari un Acquisto prima che arrivi a 5": a declaration in time stops the count;
    "Dopo aver dichiarato … completa il tuo Acquisto": no clock runs while the head completes it."""
    s = start(rules)
    aki, ben = s["queue"]
    s = play(rules, s, {"type": "start-count", "player": ben, "head": aki}, now=T0 + 1000, seat=ben)
    assert rules.timers(s)["count"]["status"] == "running"
    s = play(rules, s, {"type": "declare", "player": aki, "item": "capsules"}, now=T0 + 5900, seat=aki)
    assert s["declared"] == {"player": aki, "item": "capsules"}
    assert all(clock.due(rec) is None for rec in rules.timers(s).values())     # nothing left to run out
    with pytest.raises(IllegalMove):
        rules.on_expire(s, "count", Ctx(T0 + 6000, None))
    assert s["queue"][0] == aki                                               # still at the head
    # nobody may count on a head who has declared
    assert "declared" in " ".join(rules.validate(s, {"type": "start-count", "player": ben}, Ctx(T0, ben)))
    # completed a minute later: the clock no longer matters
    done = play(rules, s, {"type": "purchase", "player": aki, "item": "capsules", "colour": "yellow"},
                now=T0 + 60_000, seat=aki)
    assert done["players"][aki]["capsules"] == {"yellow": 4}
    assert done["declared"] is None and done["queue"] == [ben]


def test_completing_another_kind_than_declared_is_refused_with_the_reason(rules):
    s = start(rules)
    aki = s["queue"][0]
    s = play(rules, s, {"type": "declare", "player": aki, "item": "capsules"})
    land = next(k for k, v in s["lands"].items() if v["owner"] == aki)
    reasons = rules.validate(s, {"type": "purchase", "player": aki, "item": "vending-machine", "land": land})
    assert reasons and "declared" in reasons[0] and "capsules" in reasons[0]
    with pytest.raises(IllegalMove):
        rules.apply(s, {"type": "purchase", "player": aki, "item": "vending-machine", "land": land})
    # a second declaration is refused too: the first one stands
    assert rules.validate(s, {"type": "declare", "player": aki, "item": "lot"})
    # leaving the queue drops the declaration; back at the head, a new one may be made
    s = play(rules, s, {"type": "leave-queue", "player": aki})
    assert s["declared"] is None


def test_only_the_head_declares_a_kind_of_purchase(rules):
    s = start(rules)
    aki, ben = s["queue"]
    assert "head" in " ".join(rules.validate(s, {"type": "declare", "player": ben, "item": "capsules"}))
    assert "item" in " ".join(rules.validate(s, {"type": "declare", "player": aki, "item": "hotel"}))
    assert rules.validate(s, {"type": "declare", "player": aki, "item": "capsules"}, Ctx(T0, ben))  # 403-ish
    assert rules.validate(s, {"type": "declare", "player": aki, "item": "capsules"}, Ctx(T0, aki)) == []


def test_a_purchase_without_a_declaration_declares_and_completes_at_once(rules):
    s = start(rules)
    aki = s["queue"][0]
    s = play(rules, s, {"type": "purchase", "player": aki, "item": "capsules", "colour": "yellow"})
    assert s["players"][aki]["capsules"] == {"yellow": 4}


def test_a_count_names_the_head_it_counts_on(rules):
    """A count sent for a head who has since left (the phones saw an older queue) is refused: it
    would count on someone else."""
    s = start(rules, (6000, 8000, 10000))
    aki, ben, chie = s["queue"]
    s = play(rules, s, {"type": "leave-queue", "player": aki})
    reasons = rules.validate(s, {"type": "start-count", "player": chie, "head": aki}, Ctx(T0, chie))
    assert reasons and "Aki" in reasons[0] and "Ben" in reasons[0]
    assert rules.validate(s, {"type": "start-count", "player": chie, "head": ben}, Ctx(T0, chie)) == []


def test_move_types_and_openapi_have_the_declaration(rules):
    mt = rules.move_type("declare")
    assert mt is not None and mt.who == "seat"
    item = next(f for f in mt.fields if f.name == "item")
    assert set(item.schema["enum"]) == {"lot", "capsules", "vending-machine", "cemetery", "entrance", "building"}
    game = type("G", (), {"id": "capsule-hotel", "playable": True, "move_types": rules.move_types, "web": None})
    doc = document_for([game()])
    schema = doc["components"]["schemas"]["Move.capsule-hotel.declare"]
    assert schema["required"] == ["type", "player", "item"] and schema["x-who"] == "seat"
    assert "head" in doc["components"]["schemas"]["Move.capsule-hotel.start-count"]["properties"]


def test_legal_moves_offer_the_declaration_then_only_the_declared_kind(rules):
    s = start(rules)
    aki = s["queue"][0]
    legal = rules.legal_moves(s, aki).moves
    kinds = {m["item"] for m in legal if m["type"] == "declare"}
    assert "capsules" in kinds and kinds <= {m["item"] for m in legal if m["type"] == "purchase"}
    s = play(rules, s, {"type": "declare", "player": aki, "item": "capsules"})
    legal = rules.legal_moves(s, aki).moves
    assert not [m for m in legal if m["type"] == "declare"]
    assert {m["item"] for m in legal if m["type"] == "purchase"} == {"capsules"}
    assert not [m for m in rules.legal_moves(s).moves if m["type"] == "start-count"]


def test_describe_says_the_tables_count_length(rules):
    s = start(rules, options={"declare_seconds": 9})
    aki, ben = s["queue"]
    line = rules.describe(s, {"type": "start-count", "player": ben, "head": aki})
    assert "9 seconds" in line and "5 seconds" not in line and "Aki" in line
    assert rules.move_type("start-count").label == "Start the count"
    assert rules.describe(s, {"type": "declare", "player": aki, "item": "capsules"}) == \
        "Aki declares a purchase: capsules."
    assert rules.describe(s, {"type": "declare", "player": aki, "item": "vending-machine"}) == \
        "Aki declares a purchase: a vending machine."


def test_the_count_stays_expired_until_the_next_count_starts(rules):
    """API.md: an expired timer stays expired until it is started again."""
    s = start(rules, (6000, 8000, 10000))
    aki, ben, chie = s["queue"]
    s = play(rules, s, {"type": "start-count", "player": ben}, now=T0, seat=ben)
    after = rules.on_expire(s, "count", Ctx(T0 + 5000, None))
    rec = rules.timers(after)["count"]
    assert rec["status"] == "expired" and rec["remaining_ms"] == 0 and clock.due(rec) is None
    assert after["queue"] == [ben, chie] and after["players"][aki]["seal"] == "front"
    assert rules.describe_expiry(s, "count", after) == (
        "Time! Aki declared no purchase: Ben takes Aki's seal off the queue (Aki may join again "
        "at the back). Ben is at the head now.")
    # other moves leave it expired; the next count replaces it
    after = play(rules, after, {"type": "join-queue", "player": aki}, now=T0 + 6000)
    assert rules.timers(after)["count"]["status"] == "expired"
    after = play(rules, after, {"type": "start-count", "player": chie}, now=T0 + 7000, seat=chie)
    rec = rules.timers(after)["count"]
    assert rec["status"] == "running" and rec["deadline_ms"] == T0 + 12_000


def test_phase_keys_of_the_loans_and_the_queue(rules):
    """Round 1's loans are chosen "at once": two seats' choices are legal in either order within one
    phase; the reveal (the last choice) moves the table to the queue, another key."""
    s = rules.setup(NAMES[:3], {"dice": "table"}, 4)
    key = rules.phase(s)
    assert key == ["loans", 1]
    a = {"type": "choose-loan", "player": 0, "amount": 4000}
    b = {"type": "choose-loan", "player": 1, "amount": 6000}
    ab = play(rules, s, a, seat=0)
    ba = play(rules, s, b, seat=1)
    assert rules.validate(ab, b, Ctx(T0, 1)) == [] and rules.validate(ba, a, Ctx(T0, 0)) == []
    assert rules.phase(ab) == rules.phase(ba) == key
    assert play(rules, ab, b, seat=1) == play(rules, ba, a, seat=0)
    both = play(rules, ab, b, seat=1)
    last = play(rules, both, {"type": "choose-loan", "player": 2, "amount": 10000}, seat=2)
    assert last["phase"] == "purchase" and rules.phase(last) == ["queue", 1] != key
    # joins, counts and purchases of the queue commute within the round; the income is no such phase
    q = play(rules, last, {"type": "leave-queue", "player": last["queue"][-1]})
    assert rules.phase(q) == ["queue", 1]
    for p in range(3):
        q = play(rules, q, {"type": "pass", "player": p})
    assert q["phase"] == "income" and rules.phase(q) is None
