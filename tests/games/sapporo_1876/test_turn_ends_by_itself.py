"""Sapporo 1876: a turn with nothing left to do ends by itself (issue 23), in the rules, so that undo and
the replay of every stored log stay exact: step 7 is skipped when the active player can place no worker
on a building tile (none payable included), and ends after the last tile used in it; an "end-turn" a log
written before this holds right after such an end is accepted and changes nothing."""
import copy
import json
import random

import pytest

from companion import create_app
from companion.games.sapporo_1876.rules import RULES
from generator import canon


@pytest.fixture(scope="module")
def rules():
    return RULES(canon.load("sapporo-1876"))


def started(rules, seed=3):
    s = rules.setup(["Aki", "Ben"], {"tiles": "companion"}, seed)
    s = rules.apply(s, {"type": "buy-building", "player": 1, "tile": s["beside"][0]})
    s = rules.apply(s, {"type": "buy-building", "player": 0, "tile": s["beside"][0]})
    s = rules.apply(s, {"type": "place-pioneer", "player": 0, "column": "wheat"})
    return rules.apply(s, {"type": "place-pioneer", "player": 1, "column": "sheep"})


def to_step_7(rules, s, yen=None):
    """Aki moves the pawn (no harvest or settlement there), both do nothing."""
    s = rules.apply(s, {"type": "move-pawn", "player": 0, "spot": "agricultural-college"})
    if yen is not None:
        s["players"][0]["yen"] = yen
    s = rules.apply(s, {"type": "pass", "player": 0})
    return rules.apply(s, {"type": "pass", "player": 1})


def test_the_last_tile_used_at_step_7_ends_the_turn(rules):
    s = started(rules)
    s["players"][0]["buildings"] = [{"id": "toyohira-bridge", "worker": False}]
    s = to_step_7(rules, s)
    assert s["phase"] == "end" and s["current"] == 0          # a tile to use: step 7 waits
    assert [m["type"] for m in rules.legal_moves(s).moves] == ["end-turn", "use-building"]
    after = rules.apply(s, {"type": "use-building", "player": 0, "tile": "toyohira-bridge"})
    assert after["players"][0]["yen"] == s["players"][0]["yen"] + 2
    assert after["phase"] == "move" and after["current"] == 1 and after["turn"] == s["turn"] + 1
    assert rules.needs(after)["players"] == [1]


def test_a_tile_still_free_keeps_step_7(rules):
    s = started(rules)
    s["players"][0]["buildings"] = [{"id": "toyohira-bridge", "worker": False},
                                    {"id": "drill-hall", "worker": False}]
    s = to_step_7(rules, s)
    s = rules.apply(s, {"type": "use-building", "player": 0, "tile": "toyohira-bridge"})
    assert s["phase"] == "end" and s["current"] == 0


def test_step_7_is_skipped_when_no_tile_can_be_paid(rules):
    s = started(rules)
    s["players"][0]["buildings"] = [{"id": "flour-mill", "worker": False},          # pays 1 yen
                                    {"id": "sapporo-shrine", "worker": False}]     # pays 1 resource
    s["players"][0]["resources"] = {r: 0 for r in s["players"][0]["resources"]}
    skipped = to_step_7(rules, s, yen=0)
    assert skipped["phase"] == "move" and skipped["current"] == 1
    waits = to_step_7(rules, s, yen=1)                # 1 yen pays the Flour Mill: step 7 waits
    assert waits["phase"] == "end" and waits["current"] == 0


def test_an_end_turn_sent_after_the_turn_ended_by_itself_changes_nothing(rules):
    s = started(rules)
    s["players"][0]["buildings"] = [{"id": "toyohira-bridge", "worker": False}]
    s = to_step_7(rules, s)
    auto = rules.apply(s, {"type": "use-building", "player": 0, "tile": "toyohira-bridge"})
    # the log of a game played before: the tile, then "end-turn"
    old = rules.apply(auto, {"type": "end-turn", "player": 0})
    assert "turn_ended" not in old
    assert old == {k: v for k, v in auto.items() if k != "turn_ended"}
    # only the player whose turn ended, and only right after
    assert rules.validate(auto, {"type": "end-turn", "player": 1})
    assert rules.validate(old, {"type": "end-turn", "player": 0})
    moved = rules.apply(auto, {"type": "move-pawn", "player": 1, "spot": "pioneer-village"})
    assert "turn_ended" not in moved and rules.validate(moved, {"type": "end-turn", "player": 0})


def old_log(rules, seed: int) -> tuple[list[dict], list[dict], dict]:
    """A random whole game: its moves now, and the same game as the engine before wrote it (an
    "end-turn" after each turn that ends by itself where that engine stopped at step 7: after a tile
    used there, or with tiles free but none payable)."""
    rng = random.Random(seed)
    s = rules.setup(["Aki", "Ben"], {"tiles": "companion"}, seed)
    now, before = [], []
    while s["phase"] != "over":
        m = rng.choice(rules.legal_moves(s).moves)
        new = rules.apply(s, m)
        now.append(m)
        before.append(m)
        if new.get("turn_ended") is not None:
            p = new["turn_ended"]
            pl = new["players"][p]
            stopped = m["type"] == "use-building" or (
                pl["area"] > 0 and any(not b["worker"] for b in pl["buildings"]))
            if stopped:
                before.append({"type": "end-turn", "player": p})
        s = new
    return now, before, s


def test_logs_written_before_replay_to_the_same_end(rules):
    found = 0
    for seed in range(12):
        now, before, end = old_log(rules, seed)
        found += len(before) - len(now)
        s = rules.setup(["Aki", "Ben"], {"tiles": "companion"}, seed)
        for m in before:
            s = rules.apply(s, m)                      # every move of the old log is accepted
        assert s == {k: v for k, v in end.items() if k != "turn_ended"} or s == end
        assert rules.result(s) == rules.result(end)
    assert found >= 3                                  # the case occurs in random games


def api(client, method, url, body=None, token=None, key=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if key:
        headers["Idempotency-Key"] = key
    r = client.open(url, method=method, data=json.dumps(body) if body is not None else None, headers=headers)
    return r.status_code, r.get_json()


def test_undo_and_the_stored_log_are_exact(tmp_path, rules):
    """On a table: the tile that ended the turn is undone back to step 7, and the table read again
    from its log (a new companion on the same data) is the same, move for move."""
    app = create_app({"DATA_DIR": str(tmp_path)})
    client = app.test_client()
    status, made = api(client, "POST", "/api/tables", {"game": "sapporo-1876", "players": ["Aki", "Ben"],
                                                       "options": {"tiles": "companion"}, "seed": 5})
    assert status == 201
    code, host = made["code"], made["host_token"]
    rng = random.Random(5)
    undone = 0
    for k in range(400):
        status, t = api(client, "GET", f"/api/tables/{code}")
        if t["result"] or undone == 2:
            break
        s = t["state"]
        moves = rules.legal_moves(s).moves
        ends = [m for m in moves if m["type"] == "use-building" and s["phase"] == "end"
                and rules.apply(s, m).get("turn_ended") is not None]
        pawn = [m for m in moves if m["type"] in ("move-pawn", "pass", "return-workers", "end-turn")]
        m = ends[0] if ends else rng.choice(pawn or moves)
        status, r = api(client, "POST", f"/api/tables/{code}/moves", {"move": m, "expected_seq": t["seq"]},
                        host, f"k{k}")
        assert status == 200, r
        if ends and undone < 2:
            status, t2 = api(client, "GET", f"/api/tables/{code}")
            assert t2["state"]["phase"] == "move" and t2["state"]["current"] != s["current"]
            status, r = api(client, "POST", f"/api/tables/{code}/undo", {"expected_seq": t2["seq"]}, host,
                            f"u{k}")
            assert status == 200, r
            status, t3 = api(client, "GET", f"/api/tables/{code}")
            assert t3["state"] == s                   # back at step 7, exactly
            undone += 1
    assert undone == 2
    status, final = api(client, "GET", f"/api/tables/{code}")
    again = create_app({"DATA_DIR": str(tmp_path)}).test_client()
    status, reread = api(again, "GET", f"/api/tables/{code}")
    assert reread["state"] == final["state"] and reread["seq"] == final["seq"]
    assert copy.deepcopy(final["state"]) == reread["state"]
