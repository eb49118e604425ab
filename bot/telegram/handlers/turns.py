"""Job callbacks that move a game without a person pressing: deadlines (R10) and robots."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from bot.domain import Refused, Source, Stale, tables
from bot.domain.jobs import DeadlineJob, RobotJob
from bot.domain.values.game import GameStatus
from bot.telegram.context import TrucoApp, runtime_of
from bot.telegram.job_runner import ClaimedJob, Postpone
from bot.telegram.publish import refresh
from engine.actions import Act
from engine.robots import get_robot

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
    """A robot's turn: it decides from its seat's view and acts like a person would."""
    rt = runtime_of(app)
    game_id, version, seat = turn_job.game, turn_job.version, turn_job.seat
    table = await asyncio.to_thread(tables.load, rt.db, game_id)
    if table is None or table.status != GameStatus.PLAYING or table.version != version:
        return
    turn = tables.robot_turn_of(table)
    if turn is None or turn.seat != seat:
        return  # it waits for its person partner now (R6), or the turn moved on
    level = turn.level
    seed = table.seed * 1_000_003 + version
    # a run that follows its person, or a signal first (R12): a change of its own, and
    # the next turn job makes the move
    ready = turn.ready(get_robot(level, seed=seed))
    if ready is not None and ready.act == Act.SIGNAL:
        with contextlib.suppress(Refused):
            change = await asyncio.to_thread(
                tables.act, rt.db, game_id, version, seat, ready, rt.rules, source=Source.ROBOT
            )
            refresh(app, change)
        return
    started = time.perf_counter()
    action = ready
    if action is None:  # the thinking runs in worker processes: awaited, then settled
        budget = rt.config.robot_budget_ms
        action = await turn.settle_later(lambda v: rt.thinkers.choose(level, seed, budget, v))
    rt.metrics.robot_seconds.labels(str(level)).observe(time.perf_counter() - started)
    try:
        change = await asyncio.to_thread(
            tables.act, rt.db, game_id, version, seat, action, rt.rules, source=Source.ROBOT
        )
    except (Refused, Stale):
        return  # someone else moved first; the newer state recorded its own turn
    rt.metrics.actions.labels("robot").inc()
    refresh(app, change)
