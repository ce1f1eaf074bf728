"""Live updates: every change of a table reaches every phone that follows it.

    sse.py              Server-Sent Events with replay from Last-Event-ID, and the `Hub` that wakes
                        the streams of one process
    streams.py          the live streams of one server process, held by one asyncio loop
    pg_fanout.py        changes from the other workers (PostgreSQL LISTEN/NOTIFY)
    loopback_phones.py  many live phones on this machine's loopback, for tests and benchmarks

Streams read tables through companion/tables/; the web layer (companion/web/api_tables.py) opens them.
"""
