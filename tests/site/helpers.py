"""Building the site for the tests (into a temporary folder: the work tree never changes)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

from bot.config import DEFAULT_RULEBOOK_URL
from tests import ROOT

PREFIX = urlsplit(DEFAULT_RULEBOOK_URL).path.rstrip("/")
"""The path the site is published under, and served under in the browser tests."""


def build_site(out: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` into ``out`` with extra environment (the hooks read it)."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(out)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **env},
        capture_output=True,
        text=True,
        timeout=300,
    )
