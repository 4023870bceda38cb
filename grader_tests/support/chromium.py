"""Debian's chromium, headless, driven by Playwright: the one browser every browser test uses.

    from chromium import launch
    browser = pytest.fixture(scope="module")(launch)

`unavailable(message)` skips on a developer's machine and fails under CI (the variable CI
set), where the browser must be there (.ci/run installs it).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("COURSE_CHROMIUM", "/usr/bin/chromium"))
# Headless, as root, and quiet: without the background-networking flags chromium keeps
# trying to reach Google's servers, which this machine's closed network refuses.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
LAUNCH_TIMEOUT_MS = 60_000


def unavailable(message: str) -> None:
    """Skip on a developer's machine, fail under CI, where everything must be there."""
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def launch():
    """Yield a headless chromium (a Playwright Browser), closed afterwards; a missing
    Playwright or chromium is unavailable() with the command that installs it."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the dev extra installs it
        unavailable("the playwright package is missing: `make test` installs the dev extra")
    if not os.access(CHROMIUM, os.X_OK):
        unavailable(
            f"Debian's chromium is not installed ({CHROMIUM}): `apt-get install chromium` "
            "(CI's .ci/run installs it)"
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            timeout=LAUNCH_TIMEOUT_MS,
        )
        try:
            yield browser
        finally:
            browser.close()
