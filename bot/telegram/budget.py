"""The flood budgets, shared by every process through the database.

Telegram allows about 20 messages a minute in one group and 30 a second per bot,
whatever the number of processes sending them. Every send, edit and deletion is
counted by the rate limiter (``bot.telegram.app.SharedLimiter``); the table job
looks first (``wait``) and comes back later rather than queue behind its own group.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.domain import flood
from bot.domain.store import Database


@dataclass
class SharedBudget:
    """The group (per minute) and bot (per second) budgets of one bot token."""

    db: Database
    group_limit: int = 20
    bot_limit: int = 30
    clock: Callable[[], float] = time.time
    _taking: asyncio.Lock = field(default_factory=asyncio.Lock)

    def budgets(self, chat_id: int | None) -> list[flood.Budget]:
        """The budgets a call to ``chat_id`` draws on (groups have their own; all share the bot's)."""
        found = [flood.bot_budget(self.bot_limit)]
        if chat_id is not None and chat_id < 0:
            found.append(flood.group_budget(chat_id, self.group_limit))
        return found

    async def wait(self, chat_id: int, needed: int) -> float:
        """Seconds before ``needed`` more calls to a group fit (nothing is counted)."""
        budgets = [b for b in self.budgets(chat_id) if b.key != "bot"]
        if not budgets:
            return 0.0
        return await asyncio.to_thread(flood.wait, self.db, budgets, self.clock(), needed)

    async def take(self, chat_id: int | None) -> None:
        """Count one call, waiting until it fits every budget it draws on."""
        budgets = self.budgets(chat_id)
        while True:
            # One count at a time per process: every count locks the bot's budget row, and
            # dozens of sends waiting on that lock would hold every thread of the loop's
            # pool (the jobs' database calls wait for those threads).
            async with self._taking:
                wait = await asyncio.to_thread(flood.take, self.db, budgets, self.clock())
            if wait <= 0:
                return
            await asyncio.sleep(wait)


@dataclass(frozen=True)
class Looked:
    """A budget already looked at: how long the caller would wait (for sync readers)."""

    seconds: float

    def wait(self, chat_id: int, needed: int) -> float:
        """The wait found when looking."""
        return self.seconds
