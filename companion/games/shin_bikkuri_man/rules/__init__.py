"""Shin Bikkuri Man's rules, pure (no Flask, no I/O, importable on its own).

So far only the arithmetic of building the façade (facade.py): what a tile costs, what a completed
row or column scores. No `RULES` yet: the game's engine (a companion.games.contract.Rules subclass)
comes with the game's issue and builds on it.
"""
