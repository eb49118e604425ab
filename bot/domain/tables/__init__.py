"""Tables on the database: lobby, start, actions, timeouts, rematch, cancel.

Every change loads the game row, works on an engine ``Match`` rebuilt from the
snapshot, and saves with ``UPDATE ... WHERE version = expected``: of two changes
made for the same version only one is stored, whatever process made them. The
seats and the events describing the change are written in the same transaction.

The package is split by job: ``rows`` (rows ↔ values, versioned saves, events),
``changes`` (the robot that acts now, the ``Change``, its jobs, deadlines), ``reads``,
``lobby`` (open, reshape, join and leave, robots, teams, cancel, Revanche),
``starting`` (the deal, the Revanche lobby's wait), ``play`` (actions, signals,
timeouts, closing hands) and ``absent`` (robots for absent seats, 🙋 Voltei, votes).
What the adapter calls is named here.
"""

from bot.domain.tables.absent import come_back, vote_robot
from bot.domain.tables.changes import change_of, deadline_for, decision_seconds, robot_turn_of
from bot.domain.tables.lobby import cancel, lobby, open_table, rematch, reshape
from bot.domain.tables.play import RobotStep, act, robot_acts, time_out
from bot.domain.tables.reads import (
    active_table,
    existing,
    last_variant,
    load,
    playing_tables_of,
    resume_jobs,
    to_resume,
    turn_of,
)
from bot.domain.tables.starting import REMATCH_SECONDS, robot, start

__all__ = [
    "REMATCH_SECONDS",
    "RobotStep",
    "act",
    "active_table",
    "cancel",
    "change_of",
    "come_back",
    "deadline_for",
    "decision_seconds",
    "existing",
    "last_variant",
    "load",
    "lobby",
    "open_table",
    "playing_tables_of",
    "rematch",
    "reshape",
    "resume_jobs",
    "robot",
    "robot_acts",
    "robot_turn_of",
    "start",
    "time_out",
    "to_resume",
    "turn_of",
    "vote_robot",
]
