"""The flood budgets, shared by every process of the bot.

Telegram allows about 20 messages a minute in one group and 30 a second per bot,
whatever the number of processes sending them. Every send, edit and deletion is
counted by the rate limiter (``bot.telegram.app.SharedLimiter``); the table job
looks first (``wait``) and comes back later rather than queue behind its own group.

- A group's minute is counted in the database (``bot.domain.flood``): any replica
  may post in any group, and each group has its own row, so groups never wait on
  each other.
- The bot's second is split between the processes alive: each counts its share
  (30 a second over the number of replicas, rounded down) in memory. Counting it in
  the database made every send of every process queue on one locked row, and the
  bot sent 13 messages a second where Telegram allows 30. Replicas note themselves
  alive once a second; a new one sends only once the others have seen it, and a dead
  one's share goes to the survivors a few seconds after it stopped noting itself.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.domain import flood
from bot.domain.store import Database
from bot.telegram.jobs import worker_name

ALIVE_EVERY = 1.0
"""Seconds between two notes that this process is alive (and counts of the others)."""
ALIVE_FOR = 3.0
"""A process not heard of for this long has stopped: its share of the bot's budget is free."""


@dataclass
class SharedBudget:
    """The group (per minute) and bot (per second) budgets of one bot token."""

    db: Database
    group_limit: int = 20
    bot_limit: int = 30
    clock: Callable[[], float] = time.time
    worker: str = field(default_factory=worker_name)
    replicas: int = 1
    """Processes alive when last counted (always 1 on SQLite: one process)."""
    _taking: asyncio.Lock = field(default_factory=asyncio.Lock)
    _sent: deque[float] = field(default_factory=deque)
    _counted_at: float | None = None
    _ready_at: float = 0.0

    def budgets(self, chat_id: int | None) -> list[flood.Budget]:
        """The database budgets a call to ``chat_id`` draws on (a group's; none in private)."""
        if chat_id is not None and chat_id < 0:
            return [flood.group_budget(chat_id, self.group_limit)]
        return []

    @property
    def share(self) -> int:
        """Calls a second this process may make."""
        return max(1, self.bot_limit // max(1, self.replicas))

    async def wait(self, chat_id: int, needed: int) -> float:
        """Seconds before ``needed`` more calls to a group fit (nothing is counted)."""
        budgets = self.budgets(chat_id)
        if not budgets:
            return 0.0
        return await asyncio.to_thread(flood.wait, self.db, budgets, self.clock(), needed)

    async def take(self, chat_id: int | None) -> None:
        """Count one call, waiting until it fits the group's budget and this process's share."""
        budgets = self.budgets(chat_id)
        while True:
            async with self._taking:
                now = self.clock()
                await self._count_replicas(now)
                wait = max(self._ready_at - now, self._second_wait(now))
                if wait <= 0:
                    self._sent.append(now)  # held while the group's minute is asked
            if wait <= 0 and budgets:
                wait = await asyncio.to_thread(flood.take, self.db, budgets, now)
                if wait > 0:
                    self._sent.remove(now)  # the group said no: the slot goes back
            if wait <= 0:
                return
            await asyncio.sleep(wait)

    def _second_wait(self, now: float) -> float:
        while self._sent and now - self._sent[0] >= 1.0:
            self._sent.popleft()
        budget = flood.Budget("bot", self.share, 1.0)
        return flood.seconds_to_wait(list(self._sent), budget, now, 1, spaced=False)

    async def _count_replicas(self, now: float) -> None:
        """Note this process alive and count the others (PostgreSQL; once a second)."""
        if self.db.engine.dialect.name != "postgresql":
            return
        if self._counted_at is not None and now - self._counted_at < ALIVE_EVERY:
            return
        first = self._counted_at is None
        self._counted_at = now
        self.replicas = await asyncio.to_thread(flood.alive, self.db, self.worker, now, ALIVE_FOR)
        if first:  # the others count this process from their next look on
            self._ready_at = now + ALIVE_EVERY


@dataclass(frozen=True)
class Looked:
    """A budget already looked at: how long the caller would wait (for sync readers)."""

    seconds: float

    def wait(self, chat_id: int, needed: int) -> float:
        """The wait found when looking."""
        return self.seconds
