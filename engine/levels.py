"""The robot levels, one registry as the rulesets have: names, words, spellings, cost.

Everything that lists robot levels derives them from here: ``engine.robots`` builds a
robot per level, ``engine.words`` says their names, the bot types and schedules them.
This module is part of the core (it imports no robot), so the wording and the bot can
read it without loading the robots.

    >>> normalize_level("Médio")
    'medio'
    >>> [level.title for level in ROBOT_LEVELS.values()]
    ['fácil', 'médio', 'difícil']
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from engine.errors import InvalidValue


@dataclass(frozen=True, slots=True)
class RobotLevel:
    """One robot level."""

    name: str
    """ASCII name, the one stored and passed around (``medio``)."""
    title: str
    """The pt-BR word (translated in context ``level``): ``médio``."""
    aliases: tuple[str, ...]
    """Other spellings accepted for it (accents and case never matter)."""
    searches: bool
    """Whether it searches (thinks for up to a second): the bot runs such robots in a
    worker process, and the others inline."""


FACIL = RobotLevel("facil", "fácil", ("facil", "easy"), searches=False)
MEDIO = RobotLevel("medio", "médio", ("medio", "medium"), searches=False)
DIFICIL = RobotLevel("dificil", "difícil", ("dificil", "hard"), searches=True)

ROBOT_LEVELS: dict[str, RobotLevel] = {lv.name: lv for lv in (FACIL, MEDIO, DIFICIL)}
"""Every robot level by its ASCII name, weakest first."""

DEFAULT_LEVEL = MEDIO.name
"""The level of a robot nobody chose one for."""


def _plain(text: str) -> str:
    """``text`` without accents, case or surrounding spaces (``Médio`` → ``medio``)."""
    return unicodedata.normalize("NFKD", text.strip().lower()).encode("ascii", "ignore").decode()


_ALIASES = {
    _plain(alias): lv for lv in ROBOT_LEVELS.values() for alias in (lv.name, lv.title, *lv.aliases)
}


def get_level(level: str) -> RobotLevel:
    """The level called ``level`` or one of its spellings; ``InvalidValue`` if none."""
    found = _ALIASES.get(_plain(level))
    if found is None:
        raise InvalidValue(
            "nível de robô desconhecido: {level!r} (use fácil, médio ou difícil)", level=level
        )
    return found


def normalize_level(level: str) -> str:
    """The ASCII name of ``level`` (``Médio`` → ``medio``); ``InvalidValue`` if unknown."""
    return get_level(level).name
