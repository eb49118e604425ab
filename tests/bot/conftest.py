"""The bot tests' fixtures: a running fake Bot API, and the bot connected to it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from telegram import Bot

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
    """The bot running against the fake server, with robots that do not wait, on the held
    clock (``FakeClock``): the bot's own waits cost no wall time, and a person's deadline
    passes only when the test moves the clock there (``Harness.advance``)."""
    async with running(server, tmp_path, FakeClock()) as h:
        yield h


@pytest.fixture
async def bot(server: FakeTelegram) -> AsyncIterator[Bot]:
    """A real PTB Bot pointed at the fake server (the test module's ``server`` if it has one)."""
    b = Bot(TOKEN, base_url=server.api_url + "/bot")
    async with b:
        yield b
