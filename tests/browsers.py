"""A browser for the real-browser tests, found or installed by the tests themselves.

``make test`` must pass on a fresh machine with nothing else done, so the first
browser test looks, in order, for: the chromium named by ``TRUCO_CHROMIUM``,
Debian's ``chromium`` (or ``chromium-browser``) on the PATH, and a browser that
Playwright downloaded earlier. If none is there it installs one: Debian's package
with apt when running as root (as CI does), Playwright's own chromium otherwise.
When that fails too, every browser test is skipped with one line saying what to
install (and in CI, where a browser is part of the machine, they fail with it).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tests import ROOT

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
ARTIFACTS = ROOT / "artifacts"
LOG = ROOT / "artifacts" / "browser-install.log"
INSTALL_SECONDS = 900
HOW_TO = (
    "no chromium here and none could be installed: install Debian's "
    "(sudo apt-get install chromium) or Playwright's (.venv/bin/playwright install chromium)"
)


@dataclass(frozen=True)
class Found:
    """The outcome of the search: a browser to launch, or why there is none."""

    executable: str | None
    """A chromium binary, or ``None`` for the one Playwright manages itself."""
    missing: str | None = None
    """Set when there is no browser: the one line to show."""


def _debian() -> str | None:
    wanted = os.environ.get("TRUCO_CHROMIUM")
    if wanted:
        return wanted if os.access(wanted, os.X_OK) else None
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _playwright_own() -> bool:
    """Whether Playwright's own chromium is downloaded already."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        return Path(p.chromium.executable_path).exists()


def _run(command: list[str], env: dict[str, str] | None = None) -> bool:
    LOG.parent.mkdir(exist_ok=True)
    with LOG.open("a") as log:
        log.write(f"$ {' '.join(command)}\n")
        log.flush()
        try:
            done = subprocess.run(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                timeout=INSTALL_SECONDS,
                env={**os.environ, **(env or {})},
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            log.write(f"{exc}\n")
            return False
    return done.returncode == 0


def _install() -> None:
    """Try to install a browser: apt as root, Playwright's download otherwise."""
    if os.geteuid() == 0 and shutil.which("apt-get"):
        apt = {"DEBIAN_FRONTEND": "noninteractive"}
        if _run(["apt-get", "update", "-qq"], apt):
            _run(["apt-get", "install", "-y", "-qq", "chromium"], apt)
        return
    _run([sys.executable, "-m", "playwright", "install", "chromium"])


@cache
def find() -> Found:
    """The browser to drive, installing one the first time if needed (once per run)."""
    path = _debian()
    if path is not None:
        return Found(path)
    if _playwright_own():
        return Found(None)
    # ``pytest -n`` workers meet here together: one installs, the others wait for it
    LOG.parent.mkdir(exist_ok=True)
    with (ARTIFACTS / ".browser-install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _debian() is None and not _playwright_own():
            _install()
    path = _debian()
    if path is not None:
        return Found(path)
    if _playwright_own():
        return Found(None)
    return Found(None, f"{HOW_TO}; the attempt is logged in {LOG.relative_to(ROOT)}")


def launch(found: Found) -> Iterator[Any]:
    """A headless chromium for the duration of a fixture."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=found.executable, args=ARGS)
        yield browser
        browser.close()


def shot(page: Any, name: str, *, full_page: bool = False) -> None:
    """Save a screenshot to ``artifacts/<name>``."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=full_page)
