"""The built site, once per test run: as files, and served on 127.0.0.1 for the browser.

A build costs tens of CPU seconds; under ``pytest -n`` the workers share one, built by the
first worker that needs it while the others wait on a lock.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.site.helpers import build_site, serve


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The site built with the default settings, once for all workers."""
    if worker_id == "master":
        out = tmp_path_factory.mktemp("site")
        result = build_site(out)
        assert result.returncode == 0, result.stderr
        return out
    shared = tmp_path_factory.getbasetemp().parent  # this run's folder, one per run
    out, done = shared / "site", shared / "site.built"
    with open(shared / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            result = build_site(out)
            assert result.returncode == 0, result.stderr
            done.touch()
    return out


@pytest.fixture(scope="session")
def base_url(site: Path) -> Iterator[str]:
    """The site served at ``http://127.0.0.1:<port>/regras`` (the public address's path)."""
    with serve(site) as base:
        yield base
