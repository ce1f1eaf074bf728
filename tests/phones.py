"""What every browser test needs: Debian's Chromium, driven by Playwright, as a phone would open the pages."""
from __future__ import annotations

import os

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def require_chromium():
    """Playwright's sync API; skips the calling test module (saying why) without Chromium or Playwright."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")
