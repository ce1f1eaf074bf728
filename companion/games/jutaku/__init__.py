"""Tokyo Jutaku's companion part: rules/ (pure Python: no Flask, no I/O: the main game, Bottle Bonus,
Countdown and Izakaya), web.py (the live page, calculators, QR pages), templates/jutaku/, static/jutaku/."""
