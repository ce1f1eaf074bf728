"""What every browser test needs: Debian's Chromium, driven by Playwright, as a phone would open the pages."""
from __future__ import annotations

import os

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


#: For a module whose other tests need no browser: skip only the browser test when Chromium is missing.
needs_chromium = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                    reason=f"{CHROMIUM} is not installed (apt-get install chromium)")


def require_chromium():
    """Playwright's sync API; skips the calling test module (saying why) without Chromium or Playwright."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")


def module_browser():
    """Chromium launched once for the tests of a module (conftest's `browser` fixture), closed after
    them; each test opens contexts of its own (its phones) and closes them.

    Once per module, not per session: while Playwright's sync API is open it marks an asyncio loop
    as running on the main thread, which would break asyncio.run() in other modules' tests and any
    module that starts a Playwright of its own."""
    sync_api = require_chromium()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def close_contexts(browser) -> None:
    """Close every context (phone) a test opened on the module's browser."""
    for context in list(browser.contexts):
        context.close()
