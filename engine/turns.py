"""A robot's turn: which robot acts now, and what it does (R6, R10, R12).

Every driver of a match (the bot, the browser table, the terminal game, the arena)
asks this module, so a robot behaves the same everywhere; a driver keeps only where
the thinking runs and how the move is stored.

- Who acts: :func:`robot_turn` reads who plays each seat (a robot level, or ``None``
  for a person) and returns the robot that may act now. Partners that may both answer
  are asked in play order (:func:`first_to_ask`). A robot beside a person holds its
  answer to a call, and the mão de onze/dez decision, until the person has spoken (R6).
- What it does, in this order: the run that follows its person's run (R6, unless the
  person's run was their timeout: then the robot decides by itself, without a signal);
  else a signal (R12), a move of its own: the driver applies it and asks again; else the
  robot's choice; and when the robot fails, the default of R10, so a bug never stalls a
  table.

A seat that a robot plays for someone (a person who is away) is simply a seat with a
level in ``levels``: its partner then stops waiting for it, and it acts like any robot.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.actions import Action
from engine.match import Match
from engine.robots.partners import follows_partner, waits_for_partner
from engine.robots.sinais import robot_signal
from engine.view import View

log = logging.getLogger(__name__)


def first_to_ask(m: Match) -> int:
    """The seat asked now: with two partners to answer, the one next in play order.

    Answering a call, the seats of the called team are asked in play order from the
    caller (caller 0: seat 1, then 3; an envido's too); deciding a mão de onze/dez, from the seat after the
    dealer. A seat that ran is not asked again; one accept (or play) settles it (R6, R7).
    """
    return _asking_order(m)[0]


def _asking_order(m: Match) -> tuple[int, ...]:
    seats = m.to_act()
    if len(seats) <= 1:
        return seats
    view = m.view(seats[0])
    origin = view.call_seat if view.call_seat is not None else m.dealer
    if view.envido is not None and view.envido.state == "pending":
        origin = view.envido.seat  # an envido's answer, from its caller (R13.3, R6)
    return tuple(sorted(seats, key=lambda s: (s - origin - 1) % m.players))


class Chooser(Protocol):
    """Anything that chooses an action from a view (a robot, an arena player)."""

    def choose(self, view: View) -> Action:
        """The action to make, one of ``view.legal``."""
        ...


@dataclass(frozen=True)
class RobotTurn:
    """A robot that may act now, from its seat's view."""

    seat: int
    level: str
    """The level of the robot acting for the seat (as given in ``levels``)."""
    view: View
    follow: Action | None
    """The run that follows its person partner's run (R6); ``None`` when it is free."""
    default: Action
    """What it plays when its robot fails (R10's default for the seat)."""
    may_signal: bool = True
    """False once its person partner ran: even when that run was their timeout and the
    robot answers by itself, there is no partner left to signal to before it does."""

    def ready(self, robot: object) -> Action | None:
        """The move that needs no thinking: the run following its person (R6), else the
        signal ``robot`` sends first (R12); ``None`` when the robot must choose.

        A signal is a move of its own: apply it and ask for the robot's turn again.
        """
        if self.follow is not None:
            return self.follow
        return robot_signal(robot, self.view) if self.may_signal else None

    def settle(self, choose: Callable[[View], Action]) -> Action:
        """The robot's choice, or the default when choosing fails (R10)."""
        try:
            return choose(self.view)
        except Exception:  # a robot bug must not stall the table
            log.exception("robot %s failed at seat %s", self.level, self.seat)
            return self.default

    async def settle_later(self, choose: Callable[[View], Awaitable[Action]]) -> Action:
        """``settle`` for a choice that runs elsewhere (a worker process) and is awaited."""
        try:
            return await choose(self.view)
        except Exception:  # a robot bug must not stall the table
            log.exception("robot %s failed at seat %s", self.level, self.seat)
            return self.default

    def decide(self, robot: Chooser, choose: Callable[[View], Action] | None = None) -> Action:
        """The whole turn for a robot that thinks here: ``ready``, else ``choose``
        (``robot.choose`` by default), else the default when it fails."""
        move = self.ready(robot)
        if move is not None:
            return move
        return self.settle(choose if choose is not None else robot.choose)


def robot_turn(
    m: Match, levels: Sequence[str | None], timed_out: Collection[int] = ()
) -> RobotTurn | None:
    """The robot that acts now, or ``None`` when no robot may act.

    ``levels[seat]`` is the level of the robot acting for a seat, ``None`` when a person
    acts there; ``timed_out`` holds the seats whose last decision was their timeout
    (their robot partner then decides by itself instead of following their run).
    """
    for seat in _asking_order(m):
        level = levels[seat]
        if level is None:
            continue
        view = m.view(seat)
        partner = view.partner
        person = partner is not None and levels[partner] is None
        if waits_for_partner(view, person):
            continue
        run = follows_partner(view, person)
        follow = None if partner in timed_out else run
        default = m.default_action(seat) or view.legal[0]
        return RobotTurn(seat, level, view, follow, default, may_signal=run is None)
    return None
