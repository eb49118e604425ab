"""Settings: the bot-wide knobs and clock a table runs by (``Rules``) and a chat's
``/config`` (``Setting``, ``Noise``, ``ChatSettings``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from sqlmodel import SQLModel

from engine import DEFAULT_VARIANT, Ruleset, TableOptions

Now = Callable[[], float]
"""Unix time now (the domain only reads the time; the adapter's ``bot.clock.Clock``
also waits on it); injected so tests move deadlines without waiting."""


@dataclass(frozen=True)
class Rules:
    """Bot-wide knobs that change how a table runs (from ``Config``), and the clock."""

    decision_seconds: float | None = None
    seed: int | None = None
    clock: Now = time.time
    robot_delay: float = 1.0
    """Seconds a robot "thinks" before its turn is played."""
    warning_seconds: float | None = None
    """A person still to act this long before their deadline is warned (a hands redraw)."""
    holder: TurnHolder | None = None
    """The process's job runner, when it runs the robot turns its own changes call for
    (``bot.domain.jobs.after_change``); ``None``: any process claims them."""
    table_pace: TablePace | None = None
    """When a group's table may be redrawn next, from the calls its chat heard lately
    (``TablePace``); ``None``: a change asks for the redraw at once."""


TablePace = Callable[[int, Sequence[float], float], float]
"""``pace(chat_id, marks, now)``: seconds before the table of the group ``chat_id``, whose
calls in the flood window were made at ``marks`` (``bot.domain.flood.marks_in``), may take
its next call for the table's own traffic (the adapter's planner, ``bot.telegram.planner``).
A change that owes the group nothing urgent records its redraw for then: recorded for now,
the redraw read the table only to put itself off (about twice a hand at a brisk pace)."""


class TurnHolder(Protocol):
    """A job runner that takes a robot's turn in the transaction of the change calling
    for it, and runs it when due without a claim of its own."""

    worker: str
    """The name its claims carry."""
    lease: float
    """Seconds past the due time the claim holds (another process takes it after)."""

    def held(self, key: str, job: Any, soonest: float | None, redraw: Any = None) -> None:
        """After the commit of a change to game ``key``: the robot turn it holds for this
        runner (a ``bot.domain.jobs.ClaimedJob``), or ``None`` when the game has none
        left (a turn running for an older state is then finished already), when the
        first of the other jobs it recorded is due, and the hands' redraw it holds for
        this runner (``None``: none). Called from any thread."""


class Setting(StrEnum):
    """A chat setting ``/config`` cycles through its values."""

    VARIANT = "variant"
    PLAYERS = "players"
    TARGET = "target"
    TIMER = "timer"
    COVERED = "covered"
    LADDER = "ladder"
    SINAIS = "sinais"
    FLOR = "flor"
    LANGUAGE = "language"
    NOISE = "noise"


class Noise(StrEnum):
    """How much of a match a group hears as new messages (``/config``); the table
    message always follows the game."""

    ALL = "all"
    """Every call, answer, timeout and hand closing."""
    CALLS = "calls"
    """Truco calls (and raises) and the match's end."""
    END = "end"
    """Only the match's end."""


TABLE_DEFAULTS = TableOptions()
"""The table options a new chat starts with: the engine's own defaults (R2)."""


class ChatSettings(SQLModel):
    """A chat's table defaults (``/config``): a frozen value, and the one place its fields
    are written: the ``chats`` table (``models.Chat``) is this plus its own columns."""

    model_config = {"frozen": True}

    id: int
    variant: str = DEFAULT_VARIANT
    players: int = 0
    """2 or 4; 0: by the group's size (2×2 with four people or more)."""
    target: int = 0
    """The points a match goes to; 0: the variant's default for the table's size (12;
    gaudério 24 in 2×2, 18 in 1×1)."""
    timer: int = TABLE_DEFAULTS.timer
    covered_cards: bool = TABLE_DEFAULTS.covered_cards
    ladder: str | None = None
    """Mineiro house ladder such as ``4-6-10-12``; ``None`` is the variant's."""
    language: str | None = None
    """A language of ``bot.i18n.LANGUAGES``; ``None`` means Portuguese."""
    sinais: bool = TABLE_DEFAULTS.sinais
    """Whether 2×2 tables play with sinais (R12)."""
    flor: bool = TABLE_DEFAULTS.flor
    """Whether gaudério tables play with flor (R13.4); the other variants have none."""
    noise: str = Noise.ALL.value
    """How much of a match the group hears as new messages (a ``Noise``)."""

    def target_for(self, ruleset: Ruleset, players: int) -> int:
        """The points a table of ``players`` of ``ruleset`` goes to by this chat's
        setting: its chosen target, else the variant's default (R2, R13.1)."""
        return self.target or ruleset.default_target_for(players)
