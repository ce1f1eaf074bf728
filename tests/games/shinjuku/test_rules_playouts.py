"""Shinjuku rules engine, property-based: seeded random playouts (companion and table decks).

At every step of every game:
  * the state is plain JSON and keeps its invariants: 72 customers (bag + queue + map + collected),
    72 cards (deck + discard + hands + queue), supplies never exceeded nor negative, pieces on the
    map + in supply = the player's pieces, bonus tokens taken = upgrades while tokens lasted;
  * random candidate moves (mutated legal moves and garbage) are checked: validate never raises,
    never changes the state; a refused move makes apply raise IllegalMove with the state unchanged;
    an accepted one applies and keeps the invariants;
  * apply never mutates its input; legal_moves is never empty and lists only moves validate
    accepts; Income is always among them in the actions phase;
and at the end, replaying the move log from the set-up state gives exactly the final state, and
the result's breakdowns add up to the scores.
"""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.contract import Ctx, IllegalMove
from companion.games.shinjuku.rules import RULES
from companion.games.shinjuku.rules.moves import ALL_MOVES
from companion.games.shinjuku.rules.playout import choose
from companion.games.shinjuku.rules.state import card_pool
from generator.canon import load

D = load("shinjuku")
R = RULES(D)
IX = R.ix
NAMES = ["Aki", "Ben", "Cho", "Dai"]
TOTALS = {"moves": 0, "candidates": 0, "refused": 0, "oracle": 0, "games": 0}


def snapshot(state):
    return json.loads(json.dumps(state))          # independent deep copy; also proves JSON-ness


def check_invariants(s: dict) -> None:
    assert json.loads(json.dumps(s)) == s
    n = len(s["players"])
    assert s["phase"] in ("deal", "place", "matsuri", "actions", "bonus", "over")
    assert 0 <= s["current"] < n and 0 <= s["start_player"] < n
    # customers: every token is somewhere, exactly once
    where = Counter(s["bag"])
    for slot in s["queue"]:
        where.update(slot["customers"])
        if slot["customers"]:
            assert slot["card"] is not None
            assert len({IX.token[t][0] for t in slot["customers"]}) == 1   # one type per card
    for tokens in s["wards"].values():
        where.update(tokens)
    for p in s["players"]:
        where.update(p["customers"])
    assert where == Counter(IX.token_counts) - Counter(), where
    assert sum(where.values()) == 72
    # the queue: customers sit on cards ① .. k
    held = [bool(slot["customers"]) for slot in s["queue"]]
    if s["phase"] != "deal":
        assert all(slot["card"] is not None for slot in s["queue"])    # the queue keeps its cards
        assert held == sorted(held, reverse=True)
    if s["final_round"]:
        assert s["bag"] == []            # the end starts only once the last customer is drawn
    # cards
    cards = Counter(s["deck"]) + Counter(s["discard"]) + Counter(slot["card"] for slot in s["queue"]
                                                                 if slot["card"] is not None)
    for p in s["players"]:
        cards.update(p["hand"])
    if s["phase"] != "deal":
        # every card is somewhere once; a card a table-deck entry took that only a hand could hold
        # (judged on public information, issue 26) is owed: counted twice until it is corrected
        assert cards == Counter(IX.card_counts) + Counter(s.get("owed", []))
        # the count everyone sees is the table's: the game's cards less hands, queue and discards
        public = len(IX.full_deck) - sum(len(p["hand"]) for p in s["players"]) \
            - sum(1 for slot in s["queue"] if slot["card"] is not None)
        assert len(s["deck"]) + len(s["discard"]) - len(s.get("owed", [])) == public
    # pieces
    for i, p in enumerate(s["players"]):
        on_map = Counter(st["goods"] for st in s["stations"].values() if st["owner"] == i and st["kind"] == "store")
        dept = sum(1 for st in s["stations"].values() if st["owner"] == i and st["kind"] == "department-store")
        for goods, n_total in IX.stores_by_type.items():
            assert 0 <= p["stores"][goods] <= n_total
            assert p["stores"][goods] + on_map[goods] == n_total
        assert 0 <= p["department_stores"] and p["department_stores"] + dept == IX.department_stores
        assert 0 <= p["track"] and p["track"] + sum(1 for o in s["tracks"].values() if o == i) == IX.track
        assert len(p["bonus_tokens"]) <= dept
        assert p["hand"] == IX.sort_cards(p["hand"]) and p["customers"] == IX.sort_tokens(p["customers"])
    assert sum(len(p["bonus_tokens"]) for p in s["players"]) + len(s["bonus_stack"]) == len(IX.bonus_values)
    for sid, store in s["stations"].items():
        assert sid in IX.station_ward and 0 <= store["owner"] < n
        assert store["kind"] == "store" or sid in IX.sakura
    for cid, owner in s["tracks"].items():
        assert cid in IX.conn_ends
        assert (owner is None) == (cid in IX.prebuilt)
    assert all(w in IX.neighbours for w in [s["matsuri"]] if w is not None)
    assert set(s["bonus"]) <= set(range(n)) and s["current"] not in s["bonus"]
    assert len(s["actions"]) <= IX.actions_per_turn and len(set(s["actions"])) == len(s["actions"])


# ---------------------------------------------------------------------------------------------
# Candidate moves: mutated legal moves and garbage

WARDS = IX.ward_ids
STATIONS = IX.station_ids
TOKENS = list(IX.token)
CONNS = IX.connection_ids


def mutate(rng: random.Random, move: dict, n_players: int):
    m = dict(move)
    for _ in range(rng.choice((1, 1, 2))):
        k = rng.randrange(17)
        if k == 0:
            m["player"] = rng.choice([-1, n_players, "0", True, None, 1.0,
                                      (m.get("player", 0) + 1) % n_players if isinstance(m.get("player"), int) else 0])
        elif k == 1:
            m["type"] = rng.choice(list(ALL_MOVES) + ["fly", None, 3, ["end-turn"], "end-turn"])
        elif k == 2:
            m["card"] = rng.choice([rng.choice(WARDS), [rng.choice(WARDS)], rng.sample(WARDS, 2),
                                    [rng.choice(WARDS) for _ in range(3)], 7, None, "nowhere", {}, [[]]])
        elif k == 3:
            m["station"] = rng.choice(STATIONS + [None, 5, "nowhere", ["tokyo"]])
        elif k == 4:
            path = list(m.get("path") or [rng.choice(STATIONS)])
            m["path"] = rng.choice([path[::-1], path + [rng.choice(STATIONS)], path + path[:1],
                                    [], rng.sample(STATIONS, 3), path[1:], "shinjuku", [None]])
        elif k == 5:
            m["connection"] = rng.choice([rng.choice(CONNS), rng.sample(STATIONS, 2), [rng.choice(STATIONS)] * 2,
                                          "a--b", None, [1, 2]])
        elif k == 6:
            m["second"] = rng.choice([rng.choice(CONNS), rng.sample(STATIONS, 2), m.get("connection"), 4])
        elif k == 7:
            m["goods"] = rng.choice(IX.types + ["department-store", None, "", 1])
        elif k == 8:
            m["customer"] = rng.choice(TOKENS + ["food-3", None, 2])
        elif k == 9:
            m["ward"] = rng.choice(WARDS + ["atlantis", None, 0])
        elif k == 10:
            keys = [key for key in m if key != "type"]
            if keys:
                del m[rng.choice(keys)]
        elif k == 11:
            m[rng.choice(["extra", "cards", "take", "customers", "second"])] = rng.choice([1, "x", [], {}])
        elif k == 12:
            m["take"] = rng.choice([{rng.choice(STATIONS): rng.choice(TOKENS)}, {}, [], "x",
                                    {s: rng.choice(TOKENS) for s in (m.get("path") or [])[:2]
                                     if isinstance(s, str)}])
        elif k == 13:
            m["cards"] = rng.choice([[rng.choice(WARDS) for _ in range(rng.randrange(6))], None, "ota", [3]])
        elif k == 14:
            m["customers"] = rng.choice([[rng.choice(TOKENS) for _ in range(rng.randrange(4))], None, "food"])
        elif k == 15:
            return rng.choice([None, [], "end-turn", 5, {}, {"type": "end-turn"}, [m], {"player": 0}])
        else:
            m = {"type": rng.choice(list(ALL_MOVES)), "player": rng.randrange(n_players)}
    return m


def near(rng: random.Random, s: dict) -> dict:
    """A plausible move for the current position: right shape, ids that exist, often legal."""
    n = len(s["players"])
    p = rng.choice(s["bonus"]) if s["phase"] == "bonus" and s["bonus"] else s["current"]
    if rng.random() < 0.1:
        p = rng.randrange(n)
    hand = s["players"][p]["hand"]

    def card():
        r = rng.random()
        if hand and r < 0.75:
            return rng.choice(hand)
        if len(hand) >= 3 and r < 0.9:
            return rng.sample(hand, 3)
        return rng.choice(WARDS)

    t = rng.choice(["open-store", "expand-track", "upgrade-store", "move-customers", "income",
                    "end-turn", "decline-income", "move-matsuri", "place-customers"])
    m = {"type": t, "player": p}
    if t == "open-store":
        m.update(card=card(), station=rng.choice(STATIONS), goods=rng.choice(IX.types))
    elif t == "expand-track":
        m["connection"] = rng.choice(CONNS)
        if rng.random() < 0.6:
            a, b = IX.conn_ends[m["connection"]]
            m["second"] = rng.choice([cid for _, cid in IX.adjacency[rng.choice((a, b))]])
            if rng.random() < 0.9:
                m["card"] = card()
    elif t == "upgrade-store":
        own = [sid for sid, st in s["stations"].items() if st["owner"] == p]
        m["station"] = rng.choice(own) if own and rng.random() < 0.8 else rng.choice(STATIONS)
        mine = s["players"][p]["customers"]
        m["customer"] = rng.choice(mine) if mine and rng.random() < 0.8 else rng.choice(TOKENS)
        m["card"] = card()
    elif t == "move-customers":
        full = [w for w in WARDS if s["wards"][w]]
        ward = rng.choice(full) if full and rng.random() < 0.9 else rng.choice(WARDS)
        path = [rng.choice(IX.stations_in[ward])]
        for _ in range(rng.randrange(5)):
            steps = [o for o, cid in IX.adjacency[path[-1]] if cid in s["tracks"] or rng.random() < 0.05]
            if not steps:
                break
            path.append(rng.choice(steps))
        m.update(card=card(), path=path)
        stores = [x for x in path if x in s["stations"]]
        if rng.random() < 0.5:
            where = rng.choice(stores) if stores and rng.random() < 0.8 else rng.choice(path)
            m["take"] = {where: rng.choice(s["wards"][ward] or TOKENS)}
    elif t == "move-matsuri":
        m["ward"] = rng.choice(IX.neighbours[s["matsuri"]] + WARDS[:3]) if s["matsuri"] else rng.choice(WARDS)
    return m


def candidates(rng: random.Random, state: dict, move: dict, n: int) -> list:
    out = [mutate(rng, move, len(state["players"])) for _ in range(n)]
    if state["phase"] != "deal":
        out += [near(rng, state) for _ in range(n)]
    if state["phase"] == "actions":
        # a legal-looking move by the wrong player, and an action already taken this turn
        other = (state["current"] + 1) % len(state["players"])
        out.append({**move, "player": other})
    return out


# ---------------------------------------------------------------------------------------------
# An independent reference for companion-mode moves, written from the rules text (not the engine)

KEYS = {"place-customers": set(), "move-matsuri": {"ward"}, "income": set(),
        "decline-income": set(), "open-store": {"card", "station", "goods"},
        "expand-track": {"connection", "second", "card"}, "upgrade-store": {"card", "station", "customer"},
        "move-customers": {"card", "path", "take"}}


def oracle(s: dict, m) -> bool:
    """Is `m` legal in `s` (companion mode, play phases)?"""
    if not isinstance(m, dict) or not isinstance(m.get("type"), str) or m["type"] not in KEYS:
        return False
    t, p = m["type"], m.get("player")
    if not set(m) <= {"type", "player"} | KEYS[t]:
        return False
    if type(p) is not int or not 0 <= p < len(s["players"]):
        return False
    phase, me = s["phase"], s["players"][p] if type(p) is int else None
    if phase == "bonus":
        return t in ("income", "decline-income") and p in s["bonus"]
    if p != s["current"]:
        return False
    if phase == "place":
        return t == "place-customers"
    if phase == "matsuri":
        return t == "move-matsuri" and m.get("ward") in D.ward[s["matsuri"]].neighbours
    if phase != "actions" or t not in ("open-store", "expand-track", "upgrade-store", "move-customers",
                                       "income") or t in s["actions"]:
        return False

    def card_ok(card, wards) -> bool:
        if isinstance(card, str):
            card = [card]
        if not isinstance(card, list) or len(card) not in (1, 3) or not all(
                isinstance(c, str) and c in D.ward for c in card):
            return False
        if any(me["hand"].count(c) < k for c, k in Counter(card).items()):
            return False
        if len(card) == 3:
            return True
        c = card[0]
        mine = {D.station[sid].ward for sid, st in s["stations"].items() if st["owner"] == p}
        return c in wards or c == s["matsuri"] or c in mine

    def conn(v):
        if isinstance(v, str):
            return v if v in IX.conn_ends else None
        if isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) for x in v):
            for c in D.connections:
                if set(c.stations) == set(v) and v[0] != v[1]:
                    return c.id
        return None

    if t == "income":
        return True
    if t == "open-store":
        sid, goods = m.get("station"), m.get("goods")
        return (isinstance(sid, str) and sid in D.station and sid not in s["stations"]
                and isinstance(goods, str) and goods in me["stores"] and me["stores"][goods] > 0
                and card_ok(m.get("card"), [D.station[sid].ward]))
    if t == "expand-track":
        first = conn(m.get("connection"))
        if first is None or first in s["tracks"] or me["track"] < 1:
            return False
        if m.get("second") is None:
            return m.get("card") is None
        second = conn(m["second"])
        if second is None or second == first or second in s["tracks"] or me["track"] < 2:
            return False
        ends1, ends2 = set(IX.conn_ends[first]), set(IX.conn_ends[second])
        return bool(ends1 & ends2) and card_ok(m.get("card"), [D.station[x].ward for x in ends1])
    if t == "upgrade-store":
        sid, tok = m.get("station"), m.get("customer")
        st = s["stations"].get(sid) if isinstance(sid, str) else None
        return (st is not None and st["owner"] == p and st["kind"] == "store" and D.station[sid].sakura
                and me["department_stores"] > 0 and isinstance(tok, str) and tok in me["customers"]
                and tok.split("-")[0] == st["goods"] and card_ok(m.get("card"), [D.station[sid].ward]))
    # move-customers
    path, take = m.get("path"), m.get("take")
    if take is None:
        take = {}
    if not isinstance(path, list) or not path or not all(isinstance(x, str) and x in D.station for x in path):
        return False
    if len(set(path)) != len(path) or not isinstance(take, dict):
        return False
    if not all(isinstance(k, str) and isinstance(v, str) and k in path for k, v in take.items()):
        return False
    for a, b in zip(path, path[1:]):
        if conn([a, b]) not in s["tracks"]:
            return False
    travelling = list(s["wards"][D.station[path[0]].ward])
    if not travelling:
        return False
    for sid in path:
        st = s["stations"].get(sid)
        match = [c for c in travelling if st and (st["kind"] == "department-store"
                                                   or c.split("-")[0] == st["goods"])]
        if sid in take and take[sid] not in match:
            return False
        if match:
            travelling.remove(take[sid] if sid in take else default_take(match, st["owner"] == p))
    return card_ok(m.get("card"), [D.station[path[0]].ward])


def default_take(match: list[str], own: bool) -> str:
    """The customer a store takes when "take" does not say (the rules module's Move Customers): a
    "2" first for the mover's own store, a single first for another player's, then types in data order."""
    types = [t.id for t in D.customers.type]

    def key(token: str):
        goods, double = token.removesuffix("-2"), token.endswith("-2")
        return (double != own, types.index(goods))
    return min(match, key=key)


def check_candidate(state: dict, cand) -> None:
    before = snapshot(state)
    reasons = R.validate(state, cand)
    assert isinstance(reasons, list) and all(isinstance(r, str) and r for r in reasons)
    assert state == before
    TOTALS["candidates"] += 1
    assert isinstance(R.describe(state, cand), str)          # history lines never fail
    if state["mode"] == "companion" and state["phase"] != "deal":
        assert (not reasons) == oracle(state, cand), (cand, reasons)
        TOTALS["oracle"] += 1
    if reasons:
        TOTALS["refused"] += 1
        with pytest.raises(IllegalMove):
            R.apply(state, cand)
    else:
        new = R.apply(state, cand)
        check_invariants(new)
    assert state == before


# ---------------------------------------------------------------------------------------------

def play(state: dict, seed: int, per_step: int = 3, legal_sample: int = 2) -> tuple[list, dict]:
    rng = random.Random(seed)
    log = []
    check_invariants(state)
    for _ in range(3000):
        if state["phase"] == "over":
            break
        move = choose(R, state, rng)
        assert move is not None, "no legal move: the game is stuck"
        for cand in candidates(rng, state, move, per_step):
            check_candidate(state, cand)
        if legal_sample:
            legal = R.legal_moves(state).moves
            assert legal, "legal_moves is empty while the game runs"
            if state["phase"] == "actions":           # Income is always possible
                assert any(m["type"] == "income" and m["player"] == state["current"] for m in legal)
            for m in rng.sample(legal, min(legal_sample, len(legal))):
                assert R.validate(state, m) == [], m
        assert R.validate(state, move) == [], move
        assert R.needs(state)["phase"] == state["phase"]
        assert R.needs(R.public_view(state, 0)) == R.needs(state)
        before = snapshot(state)
        new = R.apply(state, move)
        assert state == before, "apply mutated its input"
        check_invariants(new)
        log.append(move)
        state = new
        TOTALS["moves"] += 1
    assert state["phase"] == "over", "the game did not end"
    TOTALS["games"] += 1
    return log, state


def replay(start: dict, log: list) -> dict:
    state = start
    for move in log:
        state = R.apply(state, move)
    return state


def finish(start: dict, log: list, end: dict) -> None:
    assert replay(start, log) == end
    out = R.score(end)
    assert out["final"] is True and len(out["players"]) == len(end["players"])
    for row in out["players"]:
        assert row["points"] == sum(IX.set_points[len(s)] for s in row["sets"])
    assert R.validate(end, {"type": "income", "player": 0}) == ["The game is over."]
    result = R.result(end)
    assert [r["score"] for r in result["scores"]] == [r["points"] for r in out["players"]]
    for r in result["scores"]:
        assert r["score"] == sum(b["value"] for b in r["breakdown"])
    assert result["winners"] == out["leaders"]
    assert end["bag"] == [] and not any(q["customers"] for q in end["queue"])


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_companion_deck_playouts(seed, players):
    start = R.setup(NAMES[:players], {"deck": "companion", "start_player": seed % players}, seed)
    log, end = play(start, seed)
    finish(start, log, end)


@pytest.mark.parametrize("seed,players", [(1, 2), (2, 3), (3, 4), (2024, 4)])
def test_companion_deck_playouts_fixed_seeds(seed, players):
    start = R.setup(NAMES[:players], {"deck": "companion"}, seed)
    log, end = play(start, seed)
    finish(start, log, end)
    assert replay(R.setup(NAMES[:players], {"deck": "companion"}, seed), log) == end


@pytest.mark.parametrize("seed,players", [(5, 2), (6, 4)])
def test_table_deck_playouts(seed, players):
    """Table mode: the players enter every draw (here: the first cards/customers still drawable)."""
    start = R.setup(NAMES[:players], {"deck": "table"}, seed)
    assert start["phase"] == "deal"
    log, end = play(start, seed, per_step=2, legal_sample=1)
    finish(start, log, end)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4),
       mode=st.sampled_from(["companion", "table"]))
def test_any_listed_move_again_and_again_reaches_the_end(seed, players, mode):
    """The contract's promises, in both chance modes, choosing uniformly among the listed moves
    (no purposeful player): legal_moves is never empty while the game runs and lists only moves
    validate accepts; every illegal move (mutations of the chosen one, the right move from the
    wrong seat) is rejected by validate and by apply with the state unchanged; the game ends;
    replaying the log gives the final state; the result's breakdowns add up to the scores."""
    rng = random.Random(seed)
    start = R.setup(NAMES[:players], {"deck": mode, "start_player": seed % players}, seed)
    state, log = start, []
    for _ in range(5000):
        if state["phase"] == "over":
            break
        legal = R.legal_moves(state)
        assert legal.moves, "legal_moves is empty while the game runs"
        for m in rng.sample(legal.moves, min(3, len(legal.moves))):
            assert R.validate(state, m) == [], m
        move = rng.choice(legal.moves)
        before = snapshot(state)
        illegal = [mutate(rng, move, players) for _ in range(3)]
        seat = R.mover(move)
        wrong = Ctx(seat=(seat + 1) % players) if seat is not None else None
        for cand, ctx in [(c, Ctx()) for c in illegal] + ([(move, wrong)] if wrong else []):
            reasons = R.validate(state, cand, ctx)
            assert isinstance(reasons, list) and all(isinstance(r, str) and r for r in reasons)
            if reasons:
                with pytest.raises(IllegalMove):
                    R.apply(state, cand, ctx)
            assert state == before
        if wrong:
            assert R.validate(state, move, wrong), "another seat made this seat's move"
        old, state = state, R.apply(state, move, Ctx(seat=seat if seat is not None else "host"))
        assert old == before, "apply mutated its input"
        log.append(move)
    assert state["phase"] == "over", "the game did not end"
    assert R.legal_moves(state).moves == [] and R.result(state) is not None
    finish(start, log, state)


def reference_move(s: dict, p: int, path: list, take: dict):
    """Move Customers from the rules text: (deliveries, leftovers ward, leftovers, bonus players)
    or None when illegal. Defaults: own store takes a "2" first, another's a single first, then
    types in data order."""
    travelling = list(s["wards"][D.station[path[0]].ward])
    if not travelling or len(set(path)) != len(path) or any(k not in path for k in take):
        return None
    used = []
    for a, b in zip(path, path[1:]):
        cid = "--".join(sorted((a, b)))
        if cid not in s["tracks"]:
            return None
        used.append(cid)
    got = []
    for sid in path:
        st = s["stations"].get(sid)
        match = [c for c in travelling if st and (st["kind"] == "department-store"
                                                   or c.split("-")[0] == st["goods"])]
        if sid in take and take[sid] not in match:
            return None
        if not match:
            continue
        if sid in take:
            pick = take[sid]
        else:
            own = st["owner"] == p
            pick = sorted(match, key=lambda c: ((-1 if own else 1) * (2 if c.endswith("-2") else 1),
                                                IX.types.index(c.split("-")[0])))[0]
        travelling.remove(pick)
        got.append((st["owner"], pick))
    owners = {s["tracks"][c] for c in used} - {None, p}
    n = len(s["players"])
    bonus = [(p + i) % n for i in range(1, n) if (p + i) % n in owners]
    return got, D.station[path[-1]].ward, sorted(travelling), bonus


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_move_customers_against_reference(seed):
    rng = random.Random(seed)
    n = rng.randint(2, 4)
    s = R.setup(NAMES[:n], {"deck": "companion"}, seed)
    s.update(phase="actions", current=rng.randrange(n), actions=[], matsuri="adachi",
             wards={w: [] for w in WARDS}, stations={}, bag=[])
    p = s["current"]
    for sid in rng.sample(STATIONS, rng.randint(0, 16)):
        owner = rng.randrange(n)
        if sid in IX.sakura and rng.random() < 0.5:
            s["stations"][sid] = {"owner": owner, "kind": "department-store", "goods": None}
        else:
            s["stations"][sid] = {"owner": owner, "kind": "store", "goods": rng.choice(IX.types)}
    for cid in rng.sample(CONNS, rng.randint(0, 40)):
        s["tracks"].setdefault(cid, rng.randrange(n))
    ward = rng.choice(WARDS)
    s["wards"][ward] = IX.sort_tokens(rng.choice(TOKENS) for _ in range(rng.randint(0, 5)))
    s["players"][p]["hand"] = [ward]
    path = [rng.choice(IX.stations_in[ward])]
    for _ in range(rng.randint(0, 6)):
        steps = [o for o, cid in IX.adjacency[path[-1]] if cid in s["tracks"] or rng.random() < 0.03]
        if not steps:
            break
        path.append(rng.choice(steps))
    take = {}
    for sid in path:
        if rng.random() < 0.3:
            take[sid] = rng.choice(s["wards"][ward] or TOKENS)
    move = {"type": "move-customers", "player": p, "card": ward, "path": path, "take": take}
    expected = reference_move(s, p, path, take)
    reasons = R.validate(s, move)
    assert (expected is not None) == (reasons == []), (move, reasons)
    if expected is None:
        return
    got, to, left, bonus = expected
    new = R.apply(s, move)
    for q in range(n):
        mine = sorted(c for owner, c in got if owner == q)
        assert sorted(new["players"][q]["customers"]) == mine
    assert sorted(new["wards"][to]) == left
    assert new["bonus"] == bonus and new["phase"] == ("bonus" if bonus else "actions")
    assert all_customers(new) == all_customers(s)


def all_customers(s: dict) -> Counter:
    total = Counter(s["bag"])
    for slot in s["queue"]:
        total.update(slot["customers"])
    for w in s["wards"].values():
        total.update(w)
    for pl in s["players"]:
        total.update(pl["customers"])
    return total


@pytest.mark.parametrize("mode", ["companion", "table"])
def test_game_ends_even_when_every_card_is_hoarded(mode):
    """Players who only take Income empty the deck and the discard pile: Income draws nothing, the
    card of queue space ① goes back on ④, and the game still reaches its end (with the bag empty)
    with the invariants intact."""
    state = R.setup(NAMES[:4], {"deck": mode}, 3)
    rng = random.Random(3)
    saw_gap = False
    for _ in range(2000):
        if state["phase"] == "over":
            break
        moves = R.legal_moves(state).moves
        incomes = [m for m in moves if m["type"] == "income"]
        move = incomes[0] if incomes else rng.choice(moves)
        state = R.apply(state, move)
        check_invariants(state)
        saw_gap = saw_gap or (state["phase"] != "deal" and card_pool(state) == 0)
    assert state["phase"] == "over" and saw_gap
    assert card_pool(state) == 0 and state["bag"] == []      # (owed cards counted as drawn)


def test_undo_by_replay_is_exact():
    """The companion undoes by replaying all but the last move: the state equals the one before it."""
    start = R.setup(NAMES[:3], {"deck": "companion"}, 99)
    rng = random.Random(99)
    states, log, state = [start], [], start
    for _ in range(120):
        move = choose(R, state, rng)
        state = R.apply(state, move)
        log.append(move)
        states.append(state)
    for cut in (0, 1, 17, 60, 119):
        assert replay(start, log[:cut]) == states[cut]


def test_enough_moves_were_checked():
    """Runs last in this file: the playouts above covered thousands of moves and candidates."""
    if TOTALS["games"] < 16:
        pytest.skip("run with the whole file to count")
    assert TOTALS["moves"] >= 2000 and TOTALS["candidates"] >= 6000 and TOTALS["refused"] >= 3000
    print(f"\nshinjuku playouts: {TOTALS}")


def containers(value, path=()):
    """(path, object) of every dict and list inside `value`."""
    if isinstance(value, dict):
        yield path, value
        for k, v in value.items():
            yield from containers(v, path + (k,))
    elif isinstance(value, list):
        yield path, value
        for i, v in enumerate(value):
            yield from containers(v, path + (i,))


@pytest.mark.parametrize("mode", ["companion", "table"])
def test_clone_is_a_deep_copy_of_every_state(mode):
    """apply copies the state along its known shape (state.clone); the copy must equal the state
    and share no list or dict with it, in every phase, and for odd states too, but for the records
    the moves only ever replace ("last", "owed", the deck, the discard pile, the bag, the bonus
    stack, "actions", "bonus", a ward's customers, a station's store, a queue slot, a player's
    hand, stores, customers and bonus tokens: test_move_cost_shinjuku_clone.py
    and test_move_cost_shinjuku_rules.py check that no move changes an earlier state). The
    set-up record "deal", which the deal moves change in place, and unknown fields are copied."""
    from companion.games.shinjuku.rules.state import clone
    start = R.setup(NAMES[:3], {"deck": mode}, 8)
    rng = random.Random(8)
    states, state = [start], start
    while state["phase"] != "over":
        state = R.apply(state, rng.choice(R.legal_moves(state).moves))
        states.append(state)
    states += [R.public_view(state, 1), {**state, "extra": {"a": [1]}}, {"players": None, "x": [[]]}]

    def replaced_only(path) -> bool:
        return (path[:1] in (("last",), ("owed",), ("deck",), ("discard",), ("bag",), ("bonus_stack",),
                             ("actions",), ("bonus",))
                or (len(path) >= 2 and path[0] in ("wards", "stations", "queue"))
                or (len(path) >= 3 and path[0] == "players"
                    and path[2] in ("hand", "stores", "customers", "bonus_tokens")))
    for s in states:
        copy_ = clone(s)
        assert copy_ == s
        ids = {id(obj) for _, obj in containers(s)}
        shared = [path for path, obj in containers(copy_) if id(obj) in ids and not replaced_only(path)]
        assert not shared, shared
