"""The one clock the bot runs by: deadlines, flood budgets, spacing and waits (both
adapters': the Mini App's live streams beat by it too).

Production reads the wall clock (budgets are compared across processes, so Unix
time, not a process's monotonic one) and sleeps on the event loop. Tests hand
``build_application`` a clock they move (``tests/bot/harness.FakeClock``): the
deadlines, the budgets and the fake Telegram's counters then all read the same time,
and a wait for the budget costs no wall time.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    """Unix time now, and a way to wait for it to pass."""

    def __call__(self) -> float:
        """Unix time now."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return once ``seconds`` have passed on this clock."""
        ...

    async def wait(self, event: asyncio.Event, seconds: float) -> bool:
        """Wait until ``event`` is set, at most ``seconds`` on this clock; whether it was set.

        The time limit is a timeout, not a wait for time to pass: a held clock (tests)
        moves to the bot's sleeps on its own, never to a timeout.
        """
        ...


class WallClock:
    """The real time (what production runs by)."""

    def __call__(self) -> float:
        """``time.time()``."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        """``asyncio.sleep``."""
        await asyncio.sleep(seconds)

    async def wait(self, event: asyncio.Event, seconds: float) -> bool:
        """``asyncio.wait_for(event.wait(), seconds)``, ``False`` when it timed out."""
        try:
            await asyncio.wait_for(event.wait(), seconds)
        except TimeoutError:
            return False
        return True


WALL = WallClock()
"""The real clock."""
