"""Job callbacks that move a game without a person pressing: deadlines (R10) and robots."""

from __future__ import annotations

import contextlib
import logging
from typing import cast

from bot.domain import Refused, Source, tables
from bot.domain.values import GameStatus, RobotLevel
from bot.telegram.context import BotContext
from bot.telegram.publish import refresh
from engine.robots import get_robot, robot_signal

log = logging.getLogger(__name__)


async def on_deadline(context: BotContext) -> None:
    """Time is up: apply the default action of whoever had to decide (R10)."""
    assert context.job is not None
    game_id, version = cast(tuple[int, int], context.job.data)
    change = tables.time_out(context.db, game_id, version, context.rules)
    if change is not None:
        refresh(context.application, change)


async def on_robot(context: BotContext) -> None:
    """A robot's turn: it decides from its seat's view and acts like a person would."""
    assert context.job is not None
    game_id, version, seat = cast(tuple[int, int, int], context.job.data)
    table = tables.load(context.db, game_id)
    if table is None or table.status != GameStatus.PLAYING or table.version != version:
        return
    turn = tables.robot_turn_of(table)
    if turn is None or turn[0] != seat:
        return  # it waits for its person partner now (R6), or the turn moved on
    who = table.seats[seat]
    level = who.robot if who is not None and who.robot else RobotLevel.MEDIO
    m = table.match()
    view = m.view(seat)
    seed = table.seed * 1_000_003 + version
    rt = context.runtime
    action = turn[1]  # the run that follows its person's run, when they ran
    # a signal first (R12): it is a change of its own, and the next turn job makes the move
    sign = None
    if action is None and view.legal_signals:
        sign = robot_signal(get_robot(level, seed=seed), view)
    if sign is not None:
        with contextlib.suppress(Refused):
            change = tables.act(
                context.db, game_id, version, seat, sign, context.rules, source=Source.ROBOT
            )
            refresh(context.application, change)
        return
    try:
        if action is None:
            action = await rt.thinkers.choose(level, seed, rt.config.robot_budget_ms, view)
    except Exception:  # a robot bug must not stall the table: play the R10 default instead
        log.exception("robot %s failed in game %s", level, game_id)
        action = m.default_action(seat) or view.legal[0]
    try:
        change = tables.act(
            context.db, game_id, version, seat, action, context.rules, source=Source.ROBOT
        )
    except Refused:
        return  # someone else moved first; the newer state scheduled its own turn
    refresh(context.application, change)
