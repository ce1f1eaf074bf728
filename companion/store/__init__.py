"""Storage: where every table's event log is kept, durably.

    sqlite.py     the event store on SQLite (one companion, a data folder): `Store`, its transactions
    postgres.py   the same tables on PostgreSQL (the hosted companion, several workers): `PgStore`
    migrate.py    `python -m companion migrate`: the PostgreSQL schema, and a data folder moved into it
    export.py     `python -m companion export`: what a (damaged) database still holds
    datadir.py    the data folder at start-up: one companion per folder, storage that opens or says why

Nothing here knows a game or a web request: the layers above (companion/tables/, then companion/web/)
call down into it, never the other way round.
"""
