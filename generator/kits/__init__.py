"""What a game's kit is made of, as data the sheet machinery lays out (see base.py)."""
