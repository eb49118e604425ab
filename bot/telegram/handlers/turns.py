"""Job callbacks that move a game without a person pressing: deadlines (R10) and robots."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from bot.domain import Refused, Source, Stale, tables
from bot.domain.values import GameStatus, RobotLevel
from bot.telegram.context import TrucoApp, runtime_of
from bot.telegram.jobs import ClaimedJob, Postpone
from bot.telegram.publish import refresh
from engine.robots import get_robot, robot_signal

log = logging.getLogger(__name__)


async def on_deadline(app: TrucoApp, job: ClaimedJob) -> None:
    """Time is up: apply the default action of whoever had to decide (R10)."""
    rt = runtime_of(app)
    game_id, version = int(job.data["game"]), int(job.data["version"])
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


async def on_robot(app: TrucoApp, job: ClaimedJob) -> None:
    """A robot's turn: it decides from its seat's view and acts like a person would."""
    rt = runtime_of(app)
    game_id, version, seat = (int(job.data[k]) for k in ("game", "version", "seat"))
    table = await asyncio.to_thread(tables.load, rt.db, game_id)
    if table is None or table.status != GameStatus.PLAYING or table.version != version:
        return
    turn = tables.robot_turn_of(table)
    if turn is None or turn[0] != seat:
        return  # it waits for its person partner now (R6), or the turn moved on
    who = table.seats[seat]
    level = who.robot if who is not None and who.robot else RobotLevel.MEDIO
    m = table.shown  # read only; the move goes through tables.act
    view = m.view(seat)
    seed = table.seed * 1_000_003 + version
    action = turn[1]  # the run that follows its person's run, when they ran
    # a signal first (R12): it is a change of its own, and the next turn job makes the move
    sign = None
    if action is None and view.legal_signals:
        sign = robot_signal(get_robot(level, seed=seed), view)
    if sign is not None:
        with contextlib.suppress(Refused):
            change = await asyncio.to_thread(
                tables.act, rt.db, game_id, version, seat, sign, rt.rules, source=Source.ROBOT
            )
            refresh(app, change)
        return
    started = time.perf_counter()
    try:
        if action is None:
            action = await rt.thinkers.choose(level, seed, rt.config.robot_budget_ms, view)
    except Exception:  # a robot bug must not stall the table: play the R10 default instead
        log.exception("robot %s failed in game %s", level, game_id)
        action = m.default_action(seat) or view.legal[0]
    rt.metrics.robot_seconds.labels(str(level)).observe(time.perf_counter() - started)
    try:
        change = await asyncio.to_thread(
            tables.act, rt.db, game_id, version, seat, action, rt.rules, source=Source.ROBOT
        )
    except (Refused, Stale):
        return  # someone else moved first; the newer state recorded its own turn
    rt.metrics.actions.labels("robot").inc()
    refresh(app, change)
