"""Tables and time: the game tables people play at, built on the event store (companion/store/).

    service.py      `Tables`: create tables, claim seats, derive a table's state from its event log,
                    append moves, undos and timer actions (one transaction each), the read cache
    timers.py       table timers, pure: the server holds deadlines and alone decides expiry
    chess_clock.py  a chess clock for the table, pure: one countdown per seat
    expiry.py       the expiry scheduler: every timer's end delivered at its deadline
    walk.py         the table's set-up walk-through, one for the whole table
    codes.py        join codes (ABCD-EFGH)
    names.py        player names that cannot be mistaken for one another

The rules of each game come in through the contract (companion/games/contract.py) and the catalog
(companion/catalog.py); nothing here names a game or imports the web layer.
"""
