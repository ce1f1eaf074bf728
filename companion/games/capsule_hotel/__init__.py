"""Tokyo Capsule Hotel's companion part: rules/ (pure Python: no Flask, no I/O: the engine, the
ledger arithmetic and the Income phase), web.py (the live ledger and purchase queue, the income
calculator, the QR pages), templates/capsule-hotel/ and static/capsule-hotel/."""
