"""Robots that play truco from a seat's view only: fácil, médio and difícil.

    >>> from engine.robots import get_robot
    >>> robot = get_robot("médio", seed=7)
    >>> action = robot.choose(match.view(seat))   # always one of view.legal

Each decision is a pure function of (seed, view): robots never see a ``Match``.
Before choosing, médio and difícil may send a signal at a 2×2 table (R12):

    >>> signal = robot_signal(robot, match.view(seat))   # None, or one of view.legal_signals
"""

from __future__ import annotations

import os

from engine.errors import InvalidValue
from engine.robots.base import RandomRobot, Robot, decision_rng
from engine.robots.heuristic import Facil, Medio
from engine.robots.search import DEFAULT_BUDGET_MS, DEFAULT_PLAYOUTS, DEFAULT_PLAYOUTS_2X2, Dificil
from engine.robots.sinais import Deaf, robot_signal

LEVELS = ("facil", "medio", "dificil")
"""Robot levels, weakest first (ASCII names; accented spellings are accepted)."""

_SPELLINGS = {
    "facil": "facil",
    "fácil": "facil",
    "medio": "medio",
    "médio": "medio",
    "dificil": "dificil",
    "difícil": "dificil",
}


def normalize_level(level: str) -> str:
    """The ASCII level name for ``level`` (``Médio`` → ``medio``); ``ValueError`` if unknown."""
    name = _SPELLINGS.get(level.strip().lower())
    if name is None:
        raise InvalidValue(
            "nível de robô desconhecido: {level!r} (use fácil, médio ou difícil)", level=level
        )
    return name


def get_robot(
    level: str,
    *,
    seed: int | None = None,
    budget_ms: float | None = None,
    sinais: bool = True,
    playouts: int | None = None,
) -> Robot:
    """A robot of ``level``; ``seed`` fixes its choices.

    Difícil's strength is its ``playouts`` per decision; ``budget_ms`` only caps its
    thinking time (the bot lowers it when many robots wait).

    ``sinais=False`` gives one that ignores signals (sends none, reads none).
    """
    name = normalize_level(level)
    if seed is None:
        seed = int.from_bytes(os.urandom(6), "big")
    robot: Robot
    if name == "facil":
        robot = Facil(seed)
    elif name == "medio":
        robot = Medio(seed)
    else:
        cap = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
        robot = Dificil(seed, budget_ms=cap, playouts=playouts)
    return robot if sinais else Deaf(robot)


__all__ = [
    "DEFAULT_BUDGET_MS",
    "DEFAULT_PLAYOUTS",
    "DEFAULT_PLAYOUTS_2X2",
    "LEVELS",
    "Deaf",
    "Dificil",
    "Facil",
    "Medio",
    "RandomRobot",
    "Robot",
    "decision_rng",
    "get_robot",
    "normalize_level",
    "robot_signal",
]
