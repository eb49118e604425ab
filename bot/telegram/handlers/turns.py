"""Job callbacks that move a game without a person pressing: deadlines (R10) and robots."""

from __future__ import annotations

import asyncio
import logging
import time

from bot.domain import Refused, Source, Stale, tables
from bot.domain.jobs import DeadlineJob, RobotJob
from bot.domain.values.game import GameStatus
from bot.robot_workers import INLINE_LEVELS, decide
from bot.telegram.context import TrucoApp, runtime_of
from bot.telegram.job_runner import ClaimedJob, Postpone
from bot.telegram.publish import refresh
from engine.actions import Act, Action
from engine.robots import get_robot, normalize_level
from engine.turns import RobotTurn

log = logging.getLogger(__name__)


async def on_deadline(app: TrucoApp, job: ClaimedJob, due: DeadlineJob) -> None:
    """Time is up: apply the default action of whoever had to decide (R10)."""
    rt = runtime_of(app)
    game_id, version = due.game, due.version
    change = await asyncio.to_thread(tables.time_out, rt.db, game_id, version, rt.rules)
    if change is not None:
        rt.metrics.actions.labels("timeout").inc()
        refresh(app, change)
        return
    table = await asyncio.to_thread(tables.load, rt.db, game_id)
    if (
        table is not None
        and table.status in (GameStatus.PLAYING, GameStatus.LOBBY)  # a Revanche's wait
        and table.version == version
        and table.deadline_at is not None
        and table.deadline_at > rt.rules.clock()
    ):
        raise Postpone(table.deadline_at - rt.rules.clock())  # claimed a little early


async def on_robot(app: TrucoApp, job: ClaimedJob, turn_job: RobotJob) -> None:
    """A robot's turn: it decides from its seat's view and acts like a person would.

    A robot that thinks briefly (``INLINE_LEVELS``) reads, decides and stores its move in
    one transaction (``tables.robot_acts``); difícil thinks in worker processes, awaited
    between the read and the move stored.
    """
    rt = runtime_of(app)
    game_id, version, seat = turn_job.game, turn_job.version, turn_job.seat
    budget = rt.config.robot_budget_ms
    thought: list[tuple[str, float]] = []  # the level and how long it chose (a metric)

    def choose(turn: RobotTurn, seed: int) -> Action | None:
        # a run that follows its person, or a signal first (R12): a change of its own, and
        # the next turn job makes the move
        started = time.perf_counter()
        ready = turn.ready(get_robot(turn.level, seed=seed))
        if ready is not None and ready.act == Act.SIGNAL:
            return ready
        if ready is None and normalize_level(turn.level) not in INLINE_LEVELS:
            return None
        if ready is None:
            ready = turn.settle(lambda v: decide(turn.level, seed, budget, v))
        thought.append((str(turn.level), time.perf_counter() - started))
        return ready

    step = await asyncio.to_thread(
        tables.robot_acts, rt.db, game_id, version, seat, rt.rules, choose
    )
    change, turn = step.change, step.think
    if turn is not None:  # the thinking runs in worker processes: awaited, then settled
        level = turn.level
        started = time.perf_counter()
        action = await turn.settle_later(lambda v: rt.thinkers.choose(level, step.seed, budget, v))
        thought.append((str(level), time.perf_counter() - started))
        try:
            change = await asyncio.to_thread(
                tables.act, rt.db, game_id, version, seat, action, rt.rules, source=Source.ROBOT
            )
        except (Refused, Stale):
            return  # someone else moved first; the newer state recorded its own turn
    if change is None:
        return
    if thought:  # a move, not a signal
        level, seconds = thought[-1]
        rt.metrics.robot_seconds.labels(level).observe(seconds)
        rt.metrics.actions.labels("robot").inc()
    refresh(app, change)
