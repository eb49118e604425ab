"""What the adapter asks of the domain: the lobby's commands, what ``/truco`` asked for,
and where an action came from."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.domain.values.game import RobotLevel
from engine import TableOptions


@dataclass(frozen=True)
class Join:
    """Sit in the first free seat, or (2×2) in a seat of ``team`` (0 or 1), moving there
    from another seat; a robot on that team gives its seat up for a free one."""

    team: int | None = None


@dataclass(frozen=True)
class Leave:
    """Stand up (the last person leaving cancels the lobby)."""


@dataclass(frozen=True)
class AddRobot:
    """Seat a robot of ``level`` in the first free seat."""

    level: RobotLevel


@dataclass(frozen=True)
class RemoveRobot:
    """Take the last seated robot away."""


@dataclass(frozen=True)
class Start:
    """Fill the free seats with robots and deal (creator or admin)."""


@dataclass(frozen=True)
class CancelTable:
    """Close the lobby (creator or admin)."""


LobbyCommand = Join | Leave | AddRobot | RemoveRobot | Start | CancelTable


@dataclass(frozen=True)
class TableRequest:
    """What ``/truco`` asked for, after parsing its arguments."""

    variant: str
    options: TableOptions


class Source(StrEnum):
    """Where an action came from (kept in the event log)."""

    BUTTON = "button"
    INLINE = "inline"
    ROBOT = "robot"
    TIMEOUT = "timeout"
    APP = "app"
    """The Mini App (a tap on the table's page)."""
