"""Tokyo Jutaku in real time (issue 20): "stop!" only while building, expired clocks that stay
expired, the sentence phones show when a clock runs out, and the simultaneous phases' keys (moves
of several seats at once commute within a phase; the phase-ending move changes the key)."""
from __future__ import annotations

import time

import pytest

from companion import create_app
from companion.games import clock
from companion.games.contract import HOST, Ctx
from companion.games.jutaku.rules import JutakuRules
from companion.testing import FakeClock, token_client
from generator import canon

T0 = 1_700_000_000_000
NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi"]
SITES = ["suginami-1", "taito-2", "setagaya-3", "shinagawa-4", "suginami-3"]


@pytest.fixture(scope="module")
def R():
    return JutakuRules(canon.load("jutaku"))


def play(R, state, *moves, now=T0):
    for m in moves:
        assert R.validate(state, m, Ctx(now, HOST)) == [], m
        state = R.apply(state, m, Ctx(now, HOST))
    return state


def placed(R, n=2, **opts):
    s = R.setup(NAMES[:n], opts, 1)
    return play(R, s, *({"type": "start", "player": p, "site": SITES[p]} for p in range(n)))


def started(R, n=2, **opts):
    return play(R, placed(R, n, **opts), {"type": "begin"})


def stop(p):
    return {"type": "stop", "player": p}


def verdict(p, builder, ok=True):
    return {"type": "verdict", "player": p, "builder": builder, "ok": ok}


# ------------------------------------------------------------------------- 1. stop only while building
def test_stops_said_at_the_same_time_are_checked_together(R):
    """"If multiple players say 'stop' at the same time, all successfully-built site cards are
    completed and kept for scoring." Before anyone has judged a building, a second stop is the
    same moment: both are checked."""
    s = play(R, started(R, 3), stop(0))
    assert s["phase"] == "check"
    assert R.validate(s, stop(2)) == []
    assert stop(2) in R.legal_moves(s, 2).moves
    s = play(R, s, stop(2), verdict(1, 0), verdict(1, 2))
    assert sorted(p for p, pl in enumerate(s["players"]) if pl["kept"]) == [0, 2]


def test_no_stop_once_the_check_is_under_way(R):
    """"Everyone pauses their building and checks": once a verdict is given the check is under
    way and a new "stop!" is refused; a player who calls it after the first building was
    confirmed does not complete that round."""
    s = play(R, started(R, 4), stop(0), stop(2), verdict(1, 0, True))
    assert s["phase"] == "check"
    reasons = R.validate(s, stop(3))
    assert reasons and reasons[0].startswith("too late to call stop"), reasons
    assert not [m for m in R.legal_moves(s).moves if m["type"] == "stop"]
    assert {m["type"] for m in R.legal_moves(s, 3).moves} == {"verdict"}     # Dan may judge, not stop
    s = play(R, s, verdict(1, 2, True))
    assert s["phase"] != "check"
    assert [len(pl["kept"]) for pl in s["players"]] == [1, 0, 1, 0]
    assert s["players"][3]["site"] == SITES[3]      # Dan keeps building on his card next round


def test_a_failed_check_lets_everyone_build_on_and_stop_again(R):
    """"If the player did not fulfill all requirements, everyone continues building until another
    player says 'stop!'"."""
    s = play(R, started(R, 3), stop(0), verdict(1, 0, False))
    assert s["phase"] == "building"
    assert R.validate(s, stop(1)) == [] and R.validate(s, stop(0)) == []
    s = play(R, s, stop(1), verdict(2, 1, True))
    assert [len(pl["kept"]) for pl in s["players"]] == [0, 1, 0]


def test_a_rejected_verdict_also_closes_the_window(R):
    """A rejection is a verdict too: the check is under way, no new stop until it is over."""
    s = play(R, started(R, 4), stop(0), stop(1), verdict(2, 0, False))
    assert R.validate(s, stop(3))[0].startswith("too late to call stop")
    s = play(R, s, verdict(2, 1, False))
    assert s["phase"] == "building" and R.validate(s, stop(3)) == []


# ------------------------------------------------------------------ 2. an expired clock stays expired
def test_the_round_clock_stays_expired_until_the_next_begin(R):
    """API.md: "an expired timer stays expired until it is started again"."""
    s = started(R, 2, round_seconds=90)
    deadline = s["timer"]["deadline_ms"]
    s = R.on_expire(s, "round", Ctx(deadline, None))
    assert s["phase"] == "ready"
    rec = R.timers(s)["round"]
    assert rec["status"] == clock.EXPIRED and rec["remaining_ms"] == 0
    assert clock.due(rec) is None                    # the server never delivers it again
    pub = clock.public("round", rec, deadline + 5_000)
    assert pub["status"] == "expired" and pub["remaining_ms"] == 0
    s = play(R, s, {"type": "begin"}, now=deadline + 20_000)
    assert R.timers(s)["round"]["status"] == clock.RUNNING
    assert R.timers(s)["round"]["deadline_ms"] == deadline + 20_000 + 90_000


def test_the_floor_clock_stays_expired_while_the_count_is_entered(R):
    s = play(R, R.setup(NAMES[:2], {"mode": "countdown"}, 1), {"type": "begin"})
    deadline = s["timer"]["deadline_ms"]
    s = R.on_expire(s, "floor", Ctx(deadline, None))
    rec = R.timers(s)["floor"]
    assert s["phase"] == "count" and rec["status"] == clock.EXPIRED and clock.due(rec) is None
    s = play(R, s, {"type": "pieces", "player": 0, "pieces": 3}, now=deadline + 4_000)
    assert R.timers(s)["floor"]["status"] == clock.EXPIRED
    s = play(R, s, {"type": "pieces", "player": 1, "pieces": 2}, now=deadline + 9_000)
    assert R.timers(s)["floor"]["status"] == clock.RUNNING and s["floor"] == 2


def test_an_expired_clock_is_not_expired_twice(R):
    s = started(R, 2, round_seconds=30)
    s = R.on_expire(s, "round", Ctx(s["timer"]["deadline_ms"], None))
    with pytest.raises(Exception):
        R.on_expire(s, "round", Ctx(s["timer"]["deadline_ms"] + 1, None))


# ------------------------------------------------------------------------- 3. what the phones say
def test_the_round_clock_running_out_says_what_happened_and_what_now(R):
    before = started(R, 2, round_seconds=60)
    after = R.on_expire(before, "round", Ctx(before["timer"]["deadline_ms"], None))
    text = R.describe_expiry(before, "round", after)
    assert text.startswith("Time! Nobody finished round 1")
    assert "Press Begin!" in text and "site card" in text
    assert "drink" not in text.lower()             # the base game has no drinks
    needs = R.needs(after)
    assert needs["prompt"].startswith("Time! Nobody finished round 1")
    assert "drink" not in needs["prompt"].lower()
    assert "drink" not in R.needs(placed(R, 2))["prompt"].lower()


def test_with_bottle_bonus_the_expiry_mentions_drinks_and_the_lost_blue(R):
    """BLUE: "If you do not win this round, discard this drink." """
    s = placed(R, 2, bottle_bonus=True, round_seconds=60)
    s["players"][0]["drinks"] = {"blue": 1}
    s["box"]["blue"] -= 1
    before = play(R, s, {"type": "spend", "player": 0, "drink": "blue"}, {"type": "begin"})
    after = R.on_expire(before, "round", Ctx(before["timer"]["deadline_ms"], None))
    text = R.describe_expiry(before, "round", after)
    assert text.startswith("Time! Nobody finished round 1") and "Aki loses the blue drink" in text
    assert "Spend drinks" in text and "Begin!" in text
    assert "Round 2: press Begin!" in R.needs(after)["prompt"]        # nobody holds a drink to spend now


def test_the_floor_clock_running_out_names_who_enters_now(R):
    before = play(R, R.setup(NAMES[:3], {"mode": "countdown"}, 1), {"type": "begin"})
    before = play(R, before, {"type": "pieces", "player": 1, "pieces": 4})
    s = R.on_expire(before, "floor", Ctx(before["timer"]["deadline_ms"], None))
    assert R.describe_expiry(before, "floor", s) == \
        "Time! Floor 1 is over: Aki and Chie, enter the pieces you added on it (0 pieces puts you out of the game)."
    s = play(R, s, {"type": "pieces", "player": 0, "pieces": 2}, {"type": "pieces", "player": 2, "pieces": 1})
    before = s
    s = R.on_expire(before, "floor", Ctx(before["timer"]["deadline_ms"], None))
    assert R.describe_expiry(before, "floor", s).startswith("Time! Floor 2 is over: Aki, Ben and Chie, enter")


# ---------------------------------------------------------------------- 4. the simultaneous phases
def commute(R, s, a, b):
    """Two seats' moves in one phase: each legal now, both legal in either order, the key the same
    before and after each; the states they reach agree (as far as the order does not matter)."""
    key = R.phase(s)
    assert key is not None
    assert R.validate(s, a) == [] and R.validate(s, b) == []
    ab = play(R, play(R, s, a), b)
    ba = play(R, play(R, s, b), a)
    assert R.phase(play(R, s, a)) == key and R.phase(play(R, s, b)) == key
    return ab, ba


def test_architects_are_placed_at_once(R):
    s = R.setup(NAMES[:3], {}, 1)
    ab, ba = commute(R, s, {"type": "start", "player": 0, "site": SITES[0]},
                     {"type": "start", "player": 1, "site": SITES[1]})
    assert ab == ba
    assert R.phase(play(R, ab, {"type": "start", "player": 2, "site": SITES[2]})) != R.phase(s)


def test_drinks_spent_before_the_round_at_once_then_begin(R):
    s = placed(R, 2, bottle_bonus=True)
    s["players"][0]["drinks"], s["players"][1]["drinks"] = {"black": 1}, {"white": 1}
    s["box"]["black"] -= 1
    s["box"]["white"] -= 1
    ab, ba = commute(R, s, {"type": "spend", "player": 0, "drink": "black"},
                     {"type": "spend", "player": 1, "drink": "white"})
    assert ab["players"] == ba["players"] and ab["box"] == ba["box"]
    assert R.phase(play(R, ab, {"type": "begin"})) != R.phase(s)


def test_stops_from_two_phones_commute_and_a_failed_check_is_a_new_phase(R):
    s = started(R, 3)
    ab, ba = commute(R, s, stop(0), stop(2))
    assert ab["phase"] == ba["phase"] == "check" and sorted(ab["stops"]) == sorted(ba["stops"]) == [0, 2]
    key = R.phase(s)
    # a verdict ends nothing while another building waits: still the same stretch
    assert R.phase(play(R, ab, verdict(1, 0, False))) == key
    rejected = play(R, ab, verdict(1, 0, False), verdict(1, 2, False))
    assert rejected["phase"] == "building" and R.phase(rejected) != key       # builds on: a new stretch
    done = play(R, ab, verdict(1, 0, True), verdict(1, 2, False))
    assert R.phase(done) != key
    # a late stop from an older seq is refused on the current state, whatever the key says
    assert R.validate(play(R, ab, verdict(1, 0, False)), stop(1))[0].startswith("too late")


def test_two_verdicts_on_two_buildings_commute(R):
    s = play(R, started(R, 4), stop(0), stop(1))
    ab, ba = commute(R, s, verdict(2, 0, True), verdict(3, 1, False))
    assert ab["players"] == ba["players"] and ab["phase"] == ba["phase"] == "move"


def test_the_drinks_are_grabbed_at_once(R):
    s = play(R, started(R, 3, bottle_bonus=True, chance="companion"), stop(0), verdict(1, 0, True))
    assert s["phase"] == "grab"
    ab, ba = commute(R, s, {"type": "grab", "player": 1, "drink": s["offer"][0]},
                     {"type": "grab", "player": 2, "drink": None})
    assert ab == ba and ab["phase"] == "move" and R.phase(ab) != R.phase(s)


def test_countdown_entries_commute_within_a_floor(R):
    s = play(R, R.setup(NAMES[:3], {"mode": "countdown"}, 1), {"type": "begin"})
    ab, ba = commute(R, s, {"type": "pieces", "player": 0, "pieces": 3},
                     {"type": "pieces", "player": 1, "pieces": 0})
    assert ab == ba and R.phase(ab) == ["floor", 1]
    # the clock running out does not end the floor's entries: the same key
    counted = R.on_expire(ab, "floor", Ctx(ab["timer"]["deadline_ms"], None))
    assert counted["phase"] == "count" and R.phase(counted) == ["floor", 1]
    nxt = play(R, counted, {"type": "pieces", "player": 2, "pieces": 1})
    assert nxt["floor"] == 2 and R.phase(nxt) == ["floor", 2]


def test_izakaya_sealed_bids_commute_and_the_reveal_ends_the_phase(R):
    s = play(R, R.setup(NAMES[:3], {"mode": "izakaya"}, 1), {"type": "turn-order", "order": [0, 1, 2]})
    assert R.phase(R.setup(NAMES[:3], {"mode": "izakaya"}, 1)) is None      # the order: the table's
    ab, ba = commute(R, s, {"type": "bid", "player": 0, "amount": 200}, {"type": "bid", "player": 2, "amount": 0})
    assert ab == ba and R.phase(ab) == ["bid", 1]
    revealed = play(R, ab, {"type": "bid", "player": 1, "amount": 100})
    assert revealed["phase"] == "actions" and R.phase(revealed) is None


def test_turn_based_phases_have_no_key(R):
    s = play(R, started(R, 2), stop(0), verdict(1, 0, True))
    assert s["phase"] == "move" and R.phase(s) is None
    assert R.phase(R.setup(NAMES[:2], {"mode": "countdown"}, 1)) is None


def test_keys_are_plain_json(R):
    import json
    for s in (R.setup(NAMES[:2], {}, 1), started(R, 2), R.setup(NAMES[:2], {"mode": "izakaya"}, 1)):
        key = R.phase(s)
        assert json.loads(json.dumps(key)) == key


# ----------------------------------------------------------------------------- over HTTP, the server
@pytest.fixture
def fake():
    return FakeClock()


@pytest.fixture
def client(tmp_path, fake):
    return token_client(create_app({"DATA_DIR": tmp_path, "CLOCK": fake}))


def _wait_seq(client, code, want):
    for _ in range(300):
        if client.get(f"/api/tables/{code}").json["seq"] >= want:
            return
        time.sleep(0.01)
    raise AssertionError(f"seq {want} never came")


def test_the_server_keeps_an_expired_round_clock_and_never_expires_it_again(client, fake):
    r = client.post("/api/tables", json={"game": "jutaku", "players": ["Aki", "Ben"],
                                         "options": {"round_seconds": 60}})
    code = r.json["code"]
    for m in ({"type": "start", "player": 0, "site": SITES[0]}, {"type": "start", "player": 1, "site": SITES[1]},
              {"type": "begin"}):
        seq = client.get(f"/api/tables/{code}").json["seq"]
        assert client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq, "move": m}).status_code == 200
    fake.advance(60_000)
    _wait_seq(client, code, 4)
    t = client.get(f"/api/tables/{code}").json
    assert t["state"]["phase"] == "ready"
    (timer,) = [x for x in t["timers"] if x["owner"] == "game"]
    assert (timer["name"], timer["status"], timer["remaining_ms"]) == ("round", "expired", 0)
    events = client.get(f"/api/tables/{code}/events?since=3", headers={"Accept": "application/json"}).json["events"]
    assert [e["kind"] for e in events] == ["expire"]
    assert events[0]["summary"].startswith("Time! Nobody finished round 1")
    assert t["needs"]["prompt"].startswith("Time! Nobody finished round 1")
    fake.advance(120_000)                              # an expired clock is not due again
    time.sleep(0.2)
    again = client.get(f"/api/tables/{code}").json
    assert again["seq"] == 4 and [x["status"] for x in again["timers"] if x["owner"] == "game"] == ["expired"]


def test_two_phones_stop_on_the_same_seq_and_a_late_stop_is_told_why(client):
    """Two stops sent at the same instant (the same expected_seq) are both accepted and checked
    together; a stop sent before the first verdict but arriving after it is refused with the
    reason (validated on the current state), not a bare 409."""
    code = client.post("/api/tables", json={"game": "jutaku", "players": NAMES[:4], "options": {}}).json["code"]
    seats = [{"Authorization": "Bearer " + client.post(f"/api/tables/{code}/seats", json={"player": p},
                                                        auth=False).json["token"]} for p in range(4)]

    def send(m, who, seq=None):
        seq = client.get(f"/api/tables/{code}").json["seq"] if seq is None else seq
        return client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq, "move": m}, headers=who,
                           auth=False)
    for p in range(4):
        assert send({"type": "start", "player": p, "site": SITES[p]}, seats[p]).status_code == 200
    assert send({"type": "begin"}, seats[0]).status_code == 200
    seq = client.get(f"/api/tables/{code}").json["seq"]
    assert send(stop(0), seats[0], seq).status_code == 200
    assert send(stop(2), seats[2], seq).status_code == 200          # the same moment: both checked
    seq = client.get(f"/api/tables/{code}").json["seq"]
    assert send(verdict(1, 0), seats[1], seq).status_code == 200
    late = send(stop(3), seats[3], seq)
    assert late.status_code == 422 and late.json["reasons"][0].startswith("too late to call stop")
    assert client.get(f"/api/tables/{code}").json["state"]["stops"] == [0, 2]
