"""Shinjuku's part of the companion (DESIGN.md, "One game, one set of folders").

    rules/        the rules, pure Python (no Flask, no I/O): `rules.RULES`, a contract.Rules subclass
    web.py        its web part (board twin, calculators, /q handlers, its OpenAPI part)
    templates/shinjuku/, static/shinjuku/     the web part's files

This package imports nothing, so `import companion.games.shinjuku.rules` loads the rules alone.
"""
