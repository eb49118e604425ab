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
  A call counts from when it is taken until a second after Telegram answered it (it
  reached Telegram somewhere in between), so 30 taken in one second never land in one.
- A group's call is marked when it is taken; one answered late (it waited for a thread,
  the budget's lock or the network) is marked again at its answer, which is no earlier
  than when Telegram counted it: a mark older than the call would leave the window
  before Telegram's does.

Every call to a group goes through ``take``. The table job's calls (its edits, the
announcements, reposts: ``table_traffic``) and the questions that must be asked (/cancelar's)
are planned before they are made (``bot.telegram.planner``: the calls of a match go at once,
the table's other traffic at its pace) and are never refused here; every other kind (answers
to commands, marcadores, anything added later) goes only while ``reserve`` calls of the
minute stay free for the calls, and waits outside the chat's queue meanwhile (``room``).
Calls to one group are a second apart, counted from Telegram's answer to the call before.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections import deque
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field

from sqlmodel import Session
from telegram.error import TelegramError

from bot.clock import WALL, Clock
from bot.domain import flood
from bot.domain.store import Database
from bot.telegram.job_runner import worker_name
from bot.telegram.planner import urgent_keep

ALIVE_EVERY = 1.0
"""Seconds between two notes that this process is alive (and counts of the others)."""
ALIVE_FOR = 3.0
"""A process not heard of for this long has stopped: its share of the bot's budget is free."""

PATIENCE = 15.0
"""Seconds a call other than the table's waits for room in its group before it is dropped."""
SPACING = 1.0
"""Seconds between two calls to one group (Telegram: about one message a second per chat)."""
LATE = (flood.GROUP_WINDOW - 60.0) / 2
"""A group's call answered this long after it was taken is marked again at its answer (half
the second by which a group's window exceeds Telegram's minute)."""

_TABLE: ContextVar[bool] = ContextVar("table_traffic", default=False)


@contextlib.contextmanager
def table_traffic() -> Iterator[None]:
    """Within this block (and the tasks it starts) group calls are planned already (the table
    job's, a question that must be asked): never refused for the reserve."""
    token = _TABLE.set(True)
    try:
        yield
    finally:
        _TABLE.reset(token)


_PATIENCE: ContextVar[float] = ContextVar("patience", default=PATIENCE)


@contextlib.contextmanager
def patience(seconds: float) -> Iterator[None]:
    """Within this block a call other than the table's waits at most ``seconds`` for room
    (a job that would rather come back later than hold its slot)."""
    token = _PATIENCE.set(seconds)
    try:
        yield
    finally:
        _PATIENCE.reset(token)


_FIRST: ContextVar[Callable[[Session], bool] | None] = ContextVar("first", default=None)


@contextlib.contextmanager
def counted_with(step: Callable[[Session], bool]) -> Iterator[None]:
    """Within this block a group's call runs ``step`` in the transaction that counts it
    (``flood.take_alive``'s ``first``: ``flood.Withdrawn`` when it finds nothing to send).
    A call to a private chat counts nothing there: the caller runs its step itself."""
    token = _FIRST.set(step)
    try:
        yield
    finally:
        _FIRST.reset(token)


def for_table() -> bool:
    """Whether the calls made here are the table's (``table_traffic``)."""
    return _TABLE.get()


class Crowded(TelegramError):
    """A call other than the table's found no room in its group for ``PATIENCE`` seconds."""


@dataclass
class SharedBudget:
    """The group (per minute) and bot (per second) budgets of one bot token."""

    db: Database
    group_limit: int = 20
    bot_limit: int = 30
    clock: Clock = WALL
    """The time budgets are counted and waited by (tests hold it)."""
    worker: str = field(default_factory=worker_name)
    replicas: int = 1
    """Processes alive when last counted (always 1 on SQLite: one process)."""
    _taking: asyncio.Lock = field(default_factory=asyncio.Lock)
    _sent: deque[float] = field(default_factory=deque)
    _counted_at: float | None = None
    _ready_at: float = 0.0
    gone: set[int] = field(default_factory=set)
    """Groups the bot was removed from: nothing is sent there until it is added again."""

    def budgets(self, chat_id: int | None) -> list[flood.Budget]:
        """The database budgets a call to ``chat_id`` draws on (a group's; none in private)."""
        if chat_id is not None and chat_id < 0:
            return [flood.group_budget(chat_id, self.group_limit)]
        return []

    @property
    def reserve(self) -> int:
        """Calls of a group's minute kept for the calls of a match (``planner.urgent_keep``):
        the rest is for everything else."""
        return urgent_keep(self.group_limit)

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

    async def room(self, chat_id: int) -> None:
        """Wait until a call other than the table's fits in the group with the table's
        reserve kept (a look; ``Crowded`` after ``PATIENCE`` seconds)."""
        budgets = self.budgets(chat_id)
        if not budgets:
            return
        most = _PATIENCE.get()
        give_up = self.clock() + most
        while True:
            now = self.clock()
            wait = await asyncio.to_thread(flood.wait, self.db, budgets, now, 1 + self.reserve)
            if wait <= 0:
                return
            if now + wait > give_up:
                raise Crowded(f"no room in {chat_id} for {most:g} s: the table comes first")
            await self.clock.sleep(wait)

    async def take(self, chat_id: int | None, *, table: bool = True) -> float | None:
        """Count one call, waiting until it fits the group's budget and this process's share;
        the time it was counted at (for ``sent``).

        ``table``: the table's own call. Any other keeps the group's ``reserve`` free and
        never waits for it here (where it would hold the chat's queue): ``None`` when the
        group has no room now (``room`` waits for it).
        """
        budgets = self.budgets(chat_id)
        needed = 1 if table or not budgets else 1 + self.reserve
        while True:
            async with self._taking:
                now = self.clock()
                # after the first count, a group's call notes this process alive with its
                # own transaction (``flood.take_alive``): one transaction, not two
                counting = bool(budgets) and self._counted_at is not None and self._count_due(now)
                if counting:
                    self._counted_at = now
                else:
                    await self._count_replicas(now)
                wait = max(self._ready_at - now, self._second_wait(now))
                if wait <= 0:
                    self._sent.append(now)  # held while the group's minute is asked
            if counting and wait > 0:  # no call now: the note goes on its own
                self.replicas = await asyncio.to_thread(
                    flood.alive, self.db, self.worker, now, ALIVE_FOR
                )
            if wait <= 0 and budgets:
                alive_as = (self.worker, ALIVE_FOR) if counting else None
                take = functools.partial(
                    flood.take_alive, needed=needed, spaced=True, alive_as=alive_as
                )
                try:
                    wait, found = await asyncio.to_thread(
                        take, self.db, budgets, now, first=_FIRST.get()
                    )
                except flood.Withdrawn:
                    self._sent.remove(now)  # nothing sent: the slot goes back
                    raise
                if found:
                    self.replicas = found
                if wait > 0:
                    self._sent.remove(now)  # the group said no: the slot goes back
                    if needed > 1:
                        return None
            if wait <= 0:
                return now
            await self.clock.sleep(wait)

    async def sent(self, taken_at: float, chat_id: int | None = None) -> None:
        """The call counted at ``taken_at`` was answered: it counts a second from now, and
        in its group's minute from now if it was answered ``LATE``."""
        now = self.clock()
        with contextlib.suppress(ValueError):  # already forgotten
            self._sent.remove(taken_at)
        self._sent.append(max(taken_at, now))
        budgets = self.budgets(chat_id)
        if budgets and now - taken_at > LATE:
            await asyncio.to_thread(flood.remark, self.db, budgets, taken_at, now)

    def _second_wait(self, now: float) -> float:
        while self._sent and now - self._sent[0] >= 1.0:
            self._sent.popleft()
        budget = flood.Budget("bot", self.share, 1.0)
        return flood.seconds_to_wait(list(self._sent), budget, now, 1, spaced=False)

    def _count_due(self, now: float) -> bool:
        """Whether this process should note itself alive now (PostgreSQL; once a second)."""
        if self.db.engine.dialect.name != "postgresql":
            return False
        return self._counted_at is None or now - self._counted_at >= ALIVE_EVERY

    async def _count_replicas(self, now: float) -> None:
        """Note this process alive and count the others (PostgreSQL; once a second)."""
        if not self._count_due(now):
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
