"""Robots that play truco from a seat's view only: fácil, médio and difícil.

    >>> from engine.match import Match
    >>> from engine.robots import get_robot, robot_signal
    >>> match = Match("paulista", seed=3)
    >>> seat = match.to_act()[0]
    >>> robot = get_robot("médio", seed=7)
    >>> robot.choose(match.view(seat)) in match.legal_actions(seat)
    True

Each decision is a pure function of (seed, view): robots never see a ``Match``.
Before choosing, médio and difícil may send a signal at a 2×2 table (R12); at a 1×1
table there is none to send:

    >>> robot_signal(robot, match.view(seat)) is None
    True

The levels themselves (names, words, spellings) are ``engine.levels.ROBOT_LEVELS``.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from engine.levels import ROBOT_LEVELS, normalize_level
from engine.robots.base import RandomRobot, Robot, decision_rng
from engine.robots.heuristic import Facil, Medio
from engine.robots.search import DEFAULT_BUDGET_MS, DEFAULT_PLAYOUTS, DEFAULT_PLAYOUTS_2X2, Dificil
from engine.robots.sinais import Deaf, robot_signal

LEVELS = tuple(ROBOT_LEVELS)
"""Robot levels, weakest first (ASCII names; ``normalize_level`` reads any spelling)."""


def _dificil(seed: int, budget_ms: float | None, playouts: int | None) -> Robot:
    cap = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
    return Dificil(seed, budget_ms=cap, playouts=playouts)


_BUILDERS: dict[str, Callable[[int, float | None, int | None], Robot]] = {
    "facil": lambda seed, _budget, _playouts: Facil(seed),
    "medio": lambda seed, _budget, _playouts: Medio(seed),
    "dificil": _dificil,
}
"""How each level of the registry is built (seed, time cap, play-outs)."""
if set(_BUILDERS) != set(ROBOT_LEVELS):  # pragma: no cover - a registry without a robot
    raise ImportError("engine.levels and engine.robots list different robot levels")


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
    robot = _BUILDERS[name](seed, budget_ms, playouts)
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
