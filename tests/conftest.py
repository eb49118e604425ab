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


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say once, in one line, what to install when the browser tests could not run."""
    if browsers.find.cache_info().currsize:
        missing = browsers.find().missing
        if missing is not None:
            terminalreporter.write_line(f"browser tests skipped: {missing}", yellow=True)
