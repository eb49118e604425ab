"""A game's clocks: the deadline of the pending decision (R10) and the next robot turn."""

from __future__ import annotations

from bot.domain.values import Change, GameStatus
from bot.telegram.context import TrucoApp, runtime_of
from bot.telegram.jobs import JobKind


def schedule_timers(app: TrucoApp, change: Change) -> None:
    """(Re)schedule the deadline and the robot turn of a game from its stored state."""
    rt = runtime_of(app)
    key = f"{change.chat_id}:{change.game_id}"
    rt.jobs.cancel(JobKind.DEADLINE, key)
    rt.jobs.cancel(JobKind.ROBOT, key)
    if change.status != GameStatus.PLAYING:
        return
    data = (change.game_id, change.version)
    # a robot to act moves by itself; the clock is for people
    if change.deadline_at is not None and change.robot_seat is None:
        wait = change.deadline_at - rt.rules.clock()
        rt.jobs.run_once(app.job_queue, JobKind.DEADLINE, key, wait, data, change.chat_id)
    if change.robot_seat is not None:
        when = rt.config.robot_delay
        robot = (*data, change.robot_seat)
        rt.jobs.run_once(app.job_queue, JobKind.ROBOT, key, when, robot, change.chat_id)
