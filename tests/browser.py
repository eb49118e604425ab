"""Shared set-up of the real-browser tests: Debian chromium driven by Playwright for Python.

Browsers cannot be downloaded here, so Playwright drives ``/usr/bin/chromium``. Outside CI a
missing chromium skips the test module; in CI (``CI`` set) it fails, since ``.ci/run``
installs it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
"""Without the background-networking flags chromium keeps calling Google's hosts."""
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def require_chromium() -> None:
    """Skip the calling test module when chromium is missing (outside CI)."""
    if not os.access(CHROMIUM, os.X_OK) and not os.environ.get("CI"):
        pytest.skip(
            f"{CHROMIUM} is not installed (apt-get install -y chromium)", allow_module_level=True
        )


def launch() -> Iterator[Any]:
    """A headless chromium for the duration of a fixture."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


def shot(page: Any, name: str, *, full_page: bool = False) -> None:
    """Save a screenshot to ``artifacts/<name>``."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=full_page)
