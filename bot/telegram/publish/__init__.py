"""From stored state to Telegram: the table message, hand messages, announcements.

Nothing here decides a rule or keeps game state: every job asks the domain what
the messages must show now and draws it. The jobs themselves are durable
(``bot.domain.jobs``): the domain records them with the change that calls for them,
and any process runs them (``bot.telegram.job_runner``).

- ``table``: the public table of each chat and its announcements (the outbox),
  within the chat's shared flood budget.
- ``hands``: each person's private hand message.
- ``marcador``: the ``/marcador`` scoreboards' messages, within the same budget.
- ``sending``: sends and edits, what to retry.
"""

from __future__ import annotations

from bot.domain.values.game import Change
from bot.telegram.context import TrucoApp, runtime_of
from bot.telegram.publish.hands import schedule_hands
from bot.telegram.publish.table import schedule_table

__all__ = ["refresh", "schedule_hands", "schedule_table", "subscribe"]


def refresh(app: TrucoApp, change: Change) -> None:
    """After a stored change: tell the process's notifier (``bot.services``), whose
    listeners start the jobs it recorded (robot, deadline, redraws) and tell the open Mini
    App pages (a signal is said by the redraw of the hands that know it, not pinged).

    The change's transaction already holds the jobs, so nothing that follows a committed
    action depends on this process, or on a Telegram call, succeeding afterwards;
    waking the runner only saves the poll interval.
    """
    runtime_of(app).notifier.changed(change)


def subscribe(app: TrucoApp) -> None:
    """The Telegram adapter's listener: the job runner wakes for every change or job
    recorded in this process."""
    rt = runtime_of(app)
    rt.notifier.on_jobs(rt.jobs.wake)
