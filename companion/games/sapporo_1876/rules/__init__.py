"""Sapporo 1876's rules, pure (no Flask, no I/O, importable on its own).

So far only the arithmetic the rules text spells out over the canonical data: action points and
harvests (spots.py), fame at a settlement and at the end (fame.py). No `RULES` yet: the game's engine
(a companion.games.contract.Rules subclass) comes with the game's issue and builds on them.
"""
