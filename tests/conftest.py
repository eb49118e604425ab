"""Fixtures every part of the test suite may use (the bot's live in ``tests/bot/conftest.py``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests import browsers


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless chromium (found, or installed on first use; see ``tests/browsers.py``)."""
    found = browsers.find()
    if found.missing is not None:
        if os.environ.get("CI"):
            pytest.fail(found.missing, pytrace=False)
        pytest.skip(found.missing)
    yield from browsers.launch(found)


def pytest_configure(config: Any) -> None:
    """Under ``pytest -n``, each worker gets its own PostgreSQL database.

    The bot's tests empty the database of ``TRUCO_TEST_DATABASE_URL`` before using it;
    two workers sharing one would empty it under each other's feet.
    """
    url = os.environ.get("TRUCO_TEST_DATABASE_URL")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return
    from sqlalchemy import make_url, text

    from bot.domain.store import Database

    parsed = make_url(url)
    own = parsed.set(database=f"{parsed.database}_{worker}")
    admin = Database(url, migrate=False)
    try:
        with admin.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            exists = conn.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": own.database}
            ).first()
            if exists is None:
                conn.execute(text(f'CREATE DATABASE "{own.database}"'))
    finally:
        admin.close()
    os.environ["TRUCO_TEST_DATABASE_URL"] = own.render_as_string(hide_password=False)


def pytest_collection_modifyitems(items: list[Any]) -> None:
    """Under ``pytest -n``, each worker starts with its share of the tests marked ``long``.

    ``--dist worksteal`` first hands each worker one contiguous part of the collection, and
    an idle worker later takes the second half of the longest queue left. In collection
    order the longest tests (browser, processes, whole matches) sit near the end, so one of
    them could start in the last minute and keep one core busy while the other waits. Here
    they are dealt round the parts, each part opens with them, and a worker that takes from
    another's queue takes short tests. Every worker computes the same order, as xdist needs.
    """
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 0)
    if workers < 2:
        return
    long = [item for item in items if item.get_closest_marker("long")]
    rest = [item for item in items if not item.get_closest_marker("long")]
    ordered: list[Any] = []
    left = len(items)
    for part in range(workers):
        size = left // (workers - part)  # the sizes worksteal gives the parts, in order
        left -= size
        opening = long[part::workers]
        ordered += opening
        ordered += rest[: max(0, size - len(opening))]
        rest = rest[max(0, size - len(opening)) :]
    items[:] = ordered + rest


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say once, in one line, what to install when the browser tests could not run."""
    if browsers.find.cache_info().currsize:
        missing = browsers.find().missing
        if missing is not None:
            terminalreporter.write_line(f"browser tests skipped: {missing}", yellow=True)
