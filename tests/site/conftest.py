"""The built site, once per test run: as files, and served on 127.0.0.1 for the browser.

A build costs tens of CPU seconds; under ``pytest -n`` the workers share one, built by the
first worker that needs it while the others wait on a lock. ``make test`` builds the site
just before the tests (``make site``) and hands them that build.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import ROOT
from tests.site.helpers import build_site, serve

BUILT = "TRUCO_SITE_BUILT"
"""Set by ``make test`` to the folder its ``make site`` step has just built (``mkdocs build
--strict`` with the default settings, as below): the tests read that build, not one more."""


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The site built with the default settings, once for all workers (or by ``make``)."""
    built = os.environ.get(BUILT)
    if built:
        out = ROOT / built
        assert (out / "index.html").exists(), f"{BUILT}={built} holds no built site"
        return out
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
