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

from bot.domain.jobs import JobKind
from bot.telegram.handlers import turns
from bot.telegram.job_runner import JobCallback, JobRunner, Lane
from bot.telegram.publish.hands import flush_hands
from bot.telegram.publish.marcador import flush_marcador
from bot.telegram.publish.table import flush_table

TURNS, MESSAGES = "turns", "messages"
SLOTS = {TURNS: 16, MESSAGES: 32}
"""Jobs of each lane running at once in one process; lanes are claimed in this order."""

JOBS: dict[JobKind, tuple[JobCallback, str]] = {
    JobKind.DEADLINE: (turns.on_deadline, TURNS),
    JobKind.ROBOT: (turns.on_robot, TURNS),
    JobKind.TABLE: (flush_table, MESSAGES),
    JobKind.HANDS: (flush_hands, MESSAGES),
    JobKind.MARCADOR: (flush_marcador, MESSAGES),
}
"""kind → (callback, lane)."""

LANES = tuple(
    Lane(name, frozenset(kind for kind, (_, lane) in JOBS.items() if lane == name), slots)
    for name, slots in SLOTS.items()
)
"""The runner's lanes, derived from ``JOBS``."""


def install(runner: JobRunner) -> None:
    """Bind every kind of job to its callback."""
    for kind, (callback, _lane) in JOBS.items():
        runner.register(kind, callback)
