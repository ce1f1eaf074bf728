"""The store's one-statement write of a move (issue 24): Tx.append_after appends event n+1 and remembers
its answer only while the table is at n and the Idempotency-Key is unused; otherwise it writes nothing
and says why (the seq, what the key remembers). And SQLite's group commit without a savepoint for the
writer that begins the group: a failed writer still takes back its own writes and nobody else's."""
from __future__ import annotations

import threading
import time

import pytest

from companion.store.sqlite import Store, TableRow


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    if request.param == "sqlite":
        s = Store(tmp_path / "c.sqlite3")
    else:
        from companion.store.postgres import PgStore
        s = PgStore(request.getfixturevalue("pg_url"))
    with s.write() as tx:
        tx.insert_table(TableRow("T1", "counter", ["A", "B"], {}, 1, 0, "h"))
    yield s
    s.close()


def _log(store) -> tuple[list[tuple], list[str]]:
    with store.read() as tx:
        events = [(e.seq, e.kind, e.body) for e in tx.events("T1", 0)]
        keys = [k for k in ("k1", "k2", "k3") if tx.remembered("T1", k)]
    return events, keys


@pytest.mark.parametrize("last", [False, True])
def test_append_after_appends_only_at_the_expected_seq_and_with_an_unused_key(store, last):
    with store.write() as tx:
        assert tx.append_after("T1", 0, "move", {"n": 1}, 5, "k1", "fp1", {"seq": 1}, last=last) is None
    with store.write() as tx:                                       # no key: the event alone
        assert tx.append_after("T1", 1, "move", {"n": 2}, 6, None, "", {"seq": 2}, last=last) is None
    assert _log(store) == ([(1, "move", {"n": 1}), (2, "move", {"n": 2})], ["k1"])

    with store.write() as tx:                                       # a stale seq: nothing written
        assert tx.append_after("T1", 1, "move", {"n": 3}, 7, "k2", "fp2", {"seq": 2}, last=last) == (2, None)
    with store.write() as tx:
        assert tx.append_after("T1", 0, "move", {"n": 3}, 7, None, "", {"seq": 1}, last=last) == (2, None)
    # a used key: nothing written, and what it remembers (even at the right seq)
    with store.write() as tx:
        seq, hit = tx.append_after("T1", 2, "move", {"n": 3}, 7, "k1", "fp9", {"seq": 3}, last=last)
    assert seq == 2 and (hit.request, hit.status, hit.response) == ("fp1", 200, {"seq": 1})
    assert _log(store) == ([(1, "move", {"n": 1}), (2, "move", {"n": 2})], ["k1"])

    with store.write() as tx:                                       # and the table goes on
        assert tx.append_after("T1", 2, "move", {"n": 3}, 8, "k3", "fp3", '{"seq":3}', last=last) is None
    assert _log(store) == ([(1, "move", {"n": 1}), (2, "move", {"n": 2}), (3, "move", {"n": 3})], ["k1", "k3"])


def test_a_write_that_raises_after_append_after_leaves_nothing(store):
    with pytest.raises(RuntimeError):
        with store.write() as tx:
            assert tx.append_after("T1", 0, "move", {"n": 1}, 5, "k1", "fp1", {"seq": 1}) is None
            raise RuntimeError("the rest of the write failed")
    assert _log(store) == ([], [])


def test_postgresql_notifies_a_change_only_when_the_event_is_appended(pg_url):
    """... and only while a worker follows the table (its lease, pgstore.follow): an event appended
    to a table nobody follows sends no NOTIFY."""
    import psycopg
    from companion.store.postgres import PgStore, channel, follow
    store = PgStore(pg_url)
    with store.write() as tx:
        tx.insert_table(TableRow("T1", "counter", ["A"], {}, 1, 0, "h"))
    with psycopg.connect(pg_url, autocommit=True) as listener:
        listener.execute(f'LISTEN "{channel("T1")}"')
        with store.write() as tx:
            tx.append_after("T1", 0, "move", {}, 1, None, "", {}, last=True)
        unfollowed = [n.payload for n in listener.notifies(timeout=0.5)]
        follow(listener, ["T1"])
        for after, last in ((1, True), (1, True), (2, False), (1, False)):
            with store.write() as tx:
                tx.append_after("T1", after, "move", {}, 1, None, "", {}, last=last)
        with store.write() as tx:
            tx.append("T1", 4, "undo", {}, 1)
        heard = [n.payload for n in listener.notifies(timeout=1, stop_after=5)]
        follow(listener, ["T1"], lease_ms=-1)         # the lease has run out
        with store.write() as tx:
            tx.append("T1", 5, "undo", {}, 1)
        after_lease = [n.payload for n in listener.notifies(timeout=0.5)]
    store.close()
    assert unfollowed == [] and heard == ["T1", "T1", "T1"] and after_lease == []


def test_sqlite_a_failed_writer_takes_back_its_own_writes_and_nobody_elses(tmp_path):
    store = Store(tmp_path / "c.sqlite3")
    with store.write() as tx:
        tx.insert_table(TableRow("T1", "counter", ["A", "B"], {}, 1, 0, "h"))
    # the writer that begins the group fails alone: nothing of it is left, the next write works
    with pytest.raises(RuntimeError):
        with store.write() as tx:
            tx.append("T1", 1, "move", {"who": "first"}, 1)
            raise RuntimeError
    with store.write() as tx:
        tx.append("T1", 1, "move", {"who": "second"}, 2)
    # a writer that joins an open group and fails takes back its own write only: the one that
    # began the group commits with it
    joined = threading.Event()

    def opener():
        with store.write() as tx:
            tx.append("T1", 2, "move", {"who": "opener"}, 3)
            while store._queued == 0:               # (the other writer waits for the lock)
                time.sleep(0.001)
            joined.set()

    def failing():
        with pytest.raises(RuntimeError):
            with store.write() as tx:
                tx.append("T1", 3, "move", {"who": "joiner"}, 4)
                raise RuntimeError

    a = threading.Thread(target=opener)
    a.start()
    while not store._open:
        time.sleep(0.001)
    b = threading.Thread(target=failing)
    b.start()
    a.join(10)
    b.join(10)
    assert joined.is_set() and not a.is_alive() and not b.is_alive()
    with store.read() as tx:
        assert [e.body["who"] for e in tx.events("T1", 0)] == ["second", "opener"]
    store.close()


def test_a_move_with_a_remembered_seat_token_is_checked_by_its_own_statement(pg_url):
    """Several workers: a worker remembers a table's seat tokens, and a move trusts them only inside
    its own statement. A seat handed over by another worker (its row changed under this one) is
    refused as if read afresh: 401, nothing written, and no 409 or replay shows the seat's state."""
    from companion import create_app
    from companion.tables.service import token_hash
    from companion.testing import seat_headers, token_client
    from pg_cluster import run_sql
    from testgames import COUNTER
    config = {"DATABASE_URL": pg_url, "EXTRA_GAMES": {"counter": COUNTER}}
    client = token_client(create_app(config))
    code = client.post("/api/tables", json={"game": "counter", "players": ["A", "B"],
                                            "options": {"goal": 1000}}).json["code"]
    old = seat_headers(client, code, 0)
    host = {"Authorization": f"Bearer {client.host_tokens[code]}"}

    def move(headers, seq, player, key):
        return client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq, "move": {
            "player": player, "add": 1}}, headers={**headers, "Idempotency-Key": key}, auth=False)

    assert move(old, 0, 0, "a").status_code == 200            # (the tokens read, and kept)
    assert move(host, 1, 1, "b").status_code == 200
    assert move(old, 2, 0, "c").status_code == 200            # the remembered token, checked by the move
    # another worker hands seat 0 to a new phone: this worker's memory of the tokens is now stale
    new_token = "the-new-phone's-token"
    run_sql(config, "UPDATE seats SET token_hash = ? WHERE code = ? AND player = 0",
            (token_hash(new_token), code))
    assert move(host, 3, 1, "d").status_code == 200
    for seq, key in ((4, "e"), (2, "f"), (2, "c")):          # the move, a stale seq, a retry of "c"
        r = move(old, seq, 0, key)
        assert r.status_code == 401 and "state" not in r.json, (seq, key, r.json)
    assert client.get(f"/api/tables/{code}").json["seq"] == 4
    new = {"Authorization": f"Bearer {new_token}"}
    assert move(new, 4, 0, "g").status_code == 200
    r = move(new, 4, 0, "h")                                   # a 409 for the seat's holder, as ever
    assert r.status_code == 409 and r.json["seq"] == 5


def test_a_move_right_after_the_database_closed_the_pooled_connections_is_appended_once(pg_url):
    """A move's one statement has no BEGIN before it to find a pooled connection dead: the first
    statement itself is sent again on a new connection (PgStore._lend), and appends once."""
    from companion import create_app
    from companion.testing import token_client
    from pg_cluster import run_sql
    from testgames import COUNTER
    config = {"DATABASE_URL": pg_url, "EXTRA_GAMES": {"counter": COUNTER}}
    client = token_client(create_app(config))
    code = client.post("/api/tables", json={"game": "counter", "players": ["A", "B"],
                                            "options": {"goal": 1000}}).json["code"]
    for seq in range(4):
        if seq in (1, 3):                           # the server drops every connection (a restart)
            run_sql(config, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
                            "current_database() AND pid <> pg_backend_pid()")
        r = client.post(f"/api/tables/{code}/moves", json={"expected_seq": seq, "move": {
            "player": seq % 2, "add": 1}}, headers={"Idempotency-Key": f"k{seq}"})
        assert r.status_code == 200 and r.json["seq"] == seq + 1, r.json
    assert run_sql(config, "SELECT count(*) FROM events WHERE code = ?", (code,)) == [(4,)]


def test_the_prepared_append_is_prepared_again_when_the_server_forgot_it_and_raises_psycopgs_errors(pg_url):
    """PgTx.append_after's usual statement runs through libpq, prepared once per connection
    (postgres.Prepared): a server that forgot it (DEALLOCATE ALL, as a pooler's DISCARD ALL does)
    gets it prepared again; a refusal is psycopg's own error, the connection stays usable, and a
    racing worker's event (a unique key) is Duplicate through the store, as for any statement."""
    import psycopg
    from psycopg import errors as pgerrors
    from companion.store.postgres import _APPEND_PREPARED, Duplicate, PgStore
    store = PgStore(pg_url)
    with store.write() as tx:
        tx.insert_table(TableRow("T1", "counter", ["A"], {}, 1, 0, "h"))
    statement = _APPEND_PREPARED[True, False]

    def values(after, key, status=200):
        return {"code": "T1", "after": after, "seq": after + 1, "kind": "move", "body": '{"n":1}', "at": 5,
                "key": key, "request": "fp", "status": status, "response": '{"seq":1}', "player": None,
                "held": None}
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert statement.run(conn, values(0, "k1"))[4] == b"1"
        conn.execute("DEALLOCATE ALL")
        assert statement.run(conn, values(1, "k2"))[4] == b"1"
        again = statement.run(conn, values(1, "k2"))        # a used key: its answer, nothing appended
        assert again[:4] == [b"2", b"fp", b"200", b'{"seq":1}'] and again[4] is None
        with pytest.raises(pgerrors.InvalidTextRepresentation):
            statement.run(conn, values(2, "k3", status="two hundred"))
        assert statement.run(conn, values(2, "k3"))[4] == b"1"
    # another worker's event 5, not yet committed when this one's statement looks (the table at 3)
    other = psycopg.connect(pg_url)
    other.execute("INSERT INTO events (code, seq, kind, body, at_ms) VALUES ('T1', 4, 'move', '{}', 1)")
    raised = []

    def append():
        try:
            with store.write() as tx:
                tx.append_after("T1", 3, "move", {}, 1, "k4", "fp", {}, last=True)
        except Exception as exc:  # noqa: BLE001 - what is raised is the point
            raised.append(exc)
    writer = threading.Thread(target=append)
    writer.start()
    writer.join(0.5)                                # (it waits for the other's unique key)
    other.commit()
    other.close()
    writer.join(10)
    assert len(raised) == 1 and isinstance(raised[0], Duplicate), raised
    assert _log(store)[0][-1][0] == 4
    store.close()
