"""Tokyo Capsule Hotel's rules, pure (no Flask, no I/O, importable on its own).

So far only the ledger's arithmetic (ledger.py): prices, loans and interest, the purchase limit and
the incomes, as the rules text spells them out over the canonical data. No `RULES` yet: the game's
engine (a companion.games.contract.Rules subclass) comes with the game's issue and builds on it.
"""
