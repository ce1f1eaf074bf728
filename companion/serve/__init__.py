"""Serving the companion: the process a person starts.

    cli.py     `python -m companion` / `tokyo-companion`: the command line, workers, signals
    server.py  the HTTP server (waitress) with what a table night on a shared Wi-Fi needs on top
    lan.py     being reachable from phones: the `.local` name (mDNS) and the base URL

It builds the app (companion/app.py) and serves it; nothing below it imports it.
"""
