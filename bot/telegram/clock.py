"""The one clock the bot runs by: deadlines, flood budgets, spacing and waits.

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


class WallClock:
    """The real time (what production runs by)."""

    def __call__(self) -> float:
        """``time.time()``."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        """``asyncio.sleep``."""
        await asyncio.sleep(seconds)


WALL = WallClock()
"""The real clock."""
