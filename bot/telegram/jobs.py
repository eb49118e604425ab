"""Job scheduling: the one place that talks to the JobQueue (PTB's public API only).

A job is a kind (``JobKind``: what runs) and a key (whose: ``<chat>:<game>``, or
``<chat>:<topic>`` for a group's table); kinds are bound to their callbacks once,
at start-up (``register``), so a job is plain data: kind, key, time, payload.
A kind and key have at most one job waiting; ``pending`` finds it without
scanning the queue, so a bot with thousands of tables pays nothing per lookup.
A job runs however late the event loop gets to it: a deadline is never dropped
because the bot was busy.

The interface is ``register``, ``run_once``, ``pending`` and ``cancel``, so that
durable jobs (stored in PostgreSQL) can replace this module without touching
its callers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import Any

from telegram.ext import CallbackContext, Job, JobQueue

JobCallback = Callable[[Any], Awaitable[None]]
"""An ``async def callback(context)``; ``context.job.data`` is the data given here."""


class JobKind(StrEnum):
    """What a job does."""

    TABLE = "table"
    """Redraw a chat's public table messages (data: a set of game ids)."""
    HANDS = "hands"
    """Redraw a game's private hand messages (data: the game id)."""
    DEADLINE = "deadline"
    """Play the default action of whoever let the clock run out (data: game, version)."""
    ROBOT = "robot"
    """A robot's turn (data: game, version, seat)."""
    MARCADOR = "marcador"
    """Redraw a ``/marcador`` message (data: the scoreboard id)."""


class Jobs:
    """The one-off jobs of one application, by kind and key."""

    def __init__(self) -> None:
        """No job waits yet; no kind is bound."""
        self._waiting: dict[str, Job[Any]] = {}
        self._callbacks: dict[JobKind, JobCallback] = {}

    def register(self, kind: JobKind, callback: JobCallback) -> None:
        """Bind a kind of job to the callback that runs it."""
        self._callbacks[kind] = callback

    def run_once(
        self,
        job_queue: JobQueue[Any] | None,
        kind: JobKind,
        key: str,
        when: float,
        data: Any,
        chat_id: int | None = None,
    ) -> None:
        """Run a job of ``kind`` in ``when`` seconds, replacing the one of that key waiting."""
        if job_queue is None:
            raise RuntimeError("the application has no JobQueue (install the job-queue extra)")
        name = f"{kind}:{key}"
        callback = self._callbacks[kind]
        self._drop(name)

        async def run(context: CallbackContext[Any, Any, Any, Any]) -> None:
            if self._waiting.get(name) is context.job:
                del self._waiting[name]  # from now on a new job of that name may wait
            await callback(context)

        self._waiting[name] = job_queue.run_once(
            run,
            when=max(0.0, when),
            name=name,
            data=data,
            chat_id=chat_id,
            job_kwargs={"misfire_grace_time": None},
        )

    def pending(self, kind: JobKind, key: str) -> Any | None:
        """The data of the job of that kind and key still waiting to run, or ``None``."""
        job = self._waiting.get(f"{kind}:{key}")
        return None if job is None or job.removed else job.data

    def cancel(self, kind: JobKind, key: str) -> None:
        """Drop the job of that kind and key if it still waits."""
        self._drop(f"{kind}:{key}")

    def _drop(self, name: str) -> None:
        job = self._waiting.pop(name, None)
        if job is not None and not job.removed:
            job.schedule_removal()
