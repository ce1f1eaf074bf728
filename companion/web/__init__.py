"""The web: every page and every JSON route a phone meets, thin views over companion/tables/.

    api_tables.py   /api/games and /api/tables/…: tables, seats, reads, legal moves, moves, undos, timers
    api_plays.py    /api/plays and /api/plays.csv: the finished plays
    api_clock.py    /api/time: the clock phones measure their offset against
    reading.py      reading API requests strictly (a malformed one is a 400 naming what is wrong)
    openapi.py      /api/openapi.json and its validator
    pages.py        the HTML pages every game shares: home, new table, join, table, board, kits
    scan.py         /q/<game>/<kind>/<id>: the page a printed QR code opens
    game.py         `GameWeb`: what a game's web part (companion/games/<pkg>/web.py) gives the pages
    kits.py         the printed kits in output/, for the home page
    app_shell.py    the web app manifest, icons and service worker
    qr.py           QR codes drawn by the companion (SVG for pages, text for the terminal)
    error_pages.py  every error answer: JSON under /api, a friendly page elsewhere, never a bare 500
    security.py     what every answer carries and every write must prove
    reach.py        what a phone cannot reach: the warnings of the home and table pages

Imports run one way: web -> tables -> store.
"""
