"""What the bot's two adapters share, below both: the running process's services and its
notifier.

The Telegram adapter (``bot.telegram``) and the Mini App (``bot.webapp``) are siblings
over the domain: neither imports the other. Both reach the process's configuration,
database and rules through ``Services`` (``services_of(app)``; the Telegram adapter's
``Runtime`` is one, with its own parts added), run domain calls on the same threads, and
say what they stored to the ``Notifier``, which tells whoever subscribed: the job runner
(start the jobs the change recorded), the Telegram adapter (a signal's private pings) and
the open Mini App pages.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar, cast

from telegram.ext import Application

from bot.clock import WALL, Clock
from bot.config import Config
from bot.domain import Database, Rules
from bot.domain.values.game import Change

P = ParamSpec("P")
T = TypeVar("T")
UPDATE_THREADS = 8
"""Threads that run the domain calls of updates (a press, a command, a tap), apart from
the jobs'."""
SERVICES_KEY = "runtime"
"""Where the services sit in the Application's ``bot_data``."""

BotApp = Application[Any, Any, Any, Any, Any, Any]
"""The running bot's Application, as code outside the Telegram adapter sees it: where its
``Services`` are kept (``bot_data``)."""


class Notifier:
    """Who in this process hears what it stored: each adapter subscribes at start."""

    def __init__(self) -> None:
        """Nobody listens yet."""
        self._on_change: list[Callable[[Change], None]] = []
        self._on_jobs: list[Callable[[], None]] = []

    def on_change(self, listener: Callable[[Change], None]) -> None:
        """Call ``listener`` with every change this process stores from now on."""
        self._on_change.append(listener)

    def on_jobs(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` whenever this process records jobs (a change records some too)."""
        self._on_jobs.append(listener)

    def changed(self, change: Change) -> None:
        """A change was stored, with its jobs: tell every listener (none may block).

        The runner already knows when the jobs of a ``timed`` change are due: woken for
        each change, it looked for jobs most of which were due seconds later."""
        if not change.timed:
            self.jobs_recorded()
        for listener in self._on_change:
            listener(change)

    def jobs_recorded(self) -> None:
        """Jobs were recorded outside a change (a redraw asked for): start them now.

        The database already holds them, so nothing depends on this; it only saves the
        job runner's poll interval."""
        for listener in self._on_jobs:
            listener()


@dataclass(kw_only=True)
class Services:
    """The process's configuration, database, rules and notifier (no game state: that is
    in the database), and the threads the adapters' domain calls run on."""

    config: Config
    db: Database
    rules: Rules
    clock: Clock = WALL
    """The time everything runs by, and its waits (``rules.clock`` is the same one; tests
    hold it: ``tests/bot/harness.FakeClock``)."""
    notifier: Notifier = field(default_factory=Notifier)
    _updates: ThreadPoolExecutor | None = None

    def update_threads(self) -> ThreadPoolExecutor:
        """The threads of the updates' and taps' domain calls (made when first needed).

        Jobs and sends use the event loop's default threads; a burst of redraws waiting
        on the flood budget's row lock must never leave a press without a thread.
        """
        if self._updates is None:
            self._updates = ThreadPoolExecutor(UPDATE_THREADS, thread_name_prefix="updates")
        return self._updates

    async def call(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a domain call off the event loop, on the updates' threads.

        Every call into ``bot.domain`` from a handler or a tap goes through here: a
        database round trip on the loop would stall every other table of the process.
        """
        loop = asyncio.get_running_loop()
        run = functools.partial(contextvars.copy_context().run, fn, *args, **kwargs)
        return await loop.run_in_executor(self.update_threads(), run)

    def close(self) -> None:
        """Let the updates' threads go (the calls running finish on their own)."""
        if self._updates is not None:
            self._updates.shutdown(wait=False)
            self._updates = None


def services_of(app: BotApp) -> Services:
    """The services of a running bot's application."""
    return cast(Services, app.bot_data[SERVICES_KEY])
