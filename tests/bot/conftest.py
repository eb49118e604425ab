"""The bot tests' fixtures: a running fake Bot API, and the bot connected to it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sandbox.fakeapi import FakeTelegram
from tests.bot.harness import TOKEN, FakeClock, Harness, running


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    """A running fake Bot API server."""
    s = FakeTelegram(token=TOKEN, bot_username="TrucoBot")
    await s.start(host="127.0.0.1", port=0)
    yield s
    await s.stop()


@pytest.fixture
async def harness(server: FakeTelegram, tmp_path: Path) -> AsyncIterator[Harness]:
    """The bot running against the fake server, with robots that do not wait, on a clock
    the test holds (``h.clock``: it moves to the bot's own waits, never to a person's
    deadline unless the test says so)."""
    async with running(server, tmp_path, clock=FakeClock()) as h:
        yield h
