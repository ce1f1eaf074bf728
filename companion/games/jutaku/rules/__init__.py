"""Tokyo Jutaku's rules, pure (no Flask, no I/O, importable on its own).

So far only the Countdown mode's clock (countdown.py). No `RULES` yet: the game's engine (a
companion.games.contract.Rules subclass) comes with the game's issue and builds on it.
"""
