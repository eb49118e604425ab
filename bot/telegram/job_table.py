"""Every kind of job, in one table: the callback that runs it and the lane it waits in.

A job's kind and data are written by the domain (``bot.domain.jobs``: in a change's
transaction by ``after_change``, or by ``request``); the runner
(``bot.telegram.job_runner.JobRunner``) claims due jobs and runs the callback found here.

Jobs that move a game (deadlines, robot turns) and jobs that draw messages (table,
hands, ``/marcador``) have separate slots, and the game's lane is claimed first:
redraws wait for Telegram's 30 messages a second, and with many tables they would
otherwise take every slot and leave robots and clocks waiting behind them.
"""

from __future__ import annotations

from typing import Any

from bot.domain.jobs import DeadlineJob, HandsJob, MarcadorJob, RobotJob, TableJob
from bot.telegram.handlers import turns
from bot.telegram.job_runner import JobBinding, JobRunner, Lane
from bot.telegram.publish.hands import flush_hands
from bot.telegram.publish.marcador import flush_marcador
from bot.telegram.publish.table import flush_table

TURNS, MESSAGES = "turns", "messages"
SLOTS = {TURNS: 16, MESSAGES: 32}
"""Jobs of each lane running at once in one process; lanes are claimed in this order."""

JOBS: tuple[JobBinding[Any], ...] = (
    JobBinding(DeadlineJob, turns.on_deadline, TURNS),
    JobBinding(RobotJob, turns.on_robot, TURNS),
    JobBinding(TableJob, flush_table, MESSAGES),
    JobBinding(HandsJob, flush_hands, MESSAGES),
    JobBinding(MarcadorJob, flush_marcador, MESSAGES),
)
"""Each kind's payload, callback and lane."""

LANES = tuple(
    Lane(name, frozenset(job.kind for job in JOBS if job.lane == name), slots)
    for name, slots in SLOTS.items()
)
"""The runner's lanes, derived from ``JOBS``."""


def install(runner: JobRunner) -> None:
    """Bind every kind of job to its callback."""
    for binding in JOBS:
        runner.register(binding)
