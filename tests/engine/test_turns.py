"""The robot's turn, as every driver asks it (R6 wait and follow, R12 signal, R10 default)."""

from __future__ import annotations

import asyncio

from engine import Phase
from engine import actions as A
from engine.actions import Act, Action
from engine.robots import get_robot
from engine.turns import robot_turn
from engine.view import View
from tests.engine.helpers import act, deal

HANDS = "4C 5D 6H|7C 7D 7H|AS 2S 3S|KC KD KH"


class Broken:
    """A robot whose every decision raises."""

    def choose(self, view: View) -> Action:
        """Always fails."""
        raise RuntimeError("bug")


def test_the_robot_beside_a_person_waits_then_follows_their_run() -> None:
    levels = ("medio", None, "medio", "medio")  # seat 1 is the person, seat 3 its robot
    m = act(deal("paulista", HANDS, vira="QH"), "0 truco")
    assert robot_turn(m, levels) is None  # the robot holds its answer for its person
    act(m, "1 run")
    turn = robot_turn(m, levels)
    assert turn is not None and (turn.seat, turn.follow) == (3, A.RUN)
    assert turn.decide(get_robot("dificil", seed=1)) == A.RUN  # no thinking: it follows


def test_after_the_persons_timeout_their_robot_decides_by_itself() -> None:
    levels = ("medio", None, "medio", "medio")
    m = act(deal("paulista", HANDS, vira="QH"), "0 truco", "1 run")
    turn = robot_turn(m, levels, timed_out=(1,))
    assert turn is not None and turn.seat == 3 and turn.follow is None
    assert not turn.may_signal  # its person ran: nobody to signal to before it answers


def test_a_persons_seat_played_by_a_robot_is_just_a_robot_seat() -> None:
    # the person at seat 1 is away and a robot plays for them: seat 3 no longer waits
    m = act(deal("paulista", HANDS, vira="QH"), "0 truco")
    turn = robot_turn(m, ("medio", "facil", "medio", "medio"))
    assert turn is not None and (turn.seat, turn.level) == (1, "facil")


def test_two_robot_partners_are_asked_in_play_order_from_the_caller() -> None:
    m = act(deal("paulista", HANDS, vira="QH"), "0 truco")
    assert set(m.to_act()) == {1, 3}
    turn = robot_turn(m, ("medio",) * 4)
    assert turn is not None and turn.seat == 1


def test_a_failing_robot_plays_the_default_of_r10() -> None:
    m = deal("paulista", HANDS, vira="QH", score=(4, 11))
    assert m.phase == Phase.DECIDE
    turn = robot_turn(m, (None, "medio", "medio", "medio"))
    assert turn is not None and turn.seat == 1
    assert turn.decide(Broken()) == m.default_action(turn.seat)


def test_the_default_also_covers_a_choice_awaited_elsewhere() -> None:
    m = deal("paulista", HANDS, vira="QH")
    turn = robot_turn(m, ("medio",) * 4)
    assert turn is not None and turn.default == m.default_action(turn.seat)

    async def fails(view: View) -> Action:
        raise RuntimeError("worker died")

    assert asyncio.run(turn.settle_later(fails)) == turn.default


def test_a_robot_signals_first_and_then_moves() -> None:
    # R12: a signal is a move of its own; asked again, the same robot makes its play
    m = deal("paulista", HANDS, vira="QH", sinais=True)
    robot = get_robot("medio", seed=1)
    turn = robot_turn(m, ("medio",) * 4)
    assert turn is not None and turn.seat == 0
    sign = turn.decide(robot)
    assert sign.act == Act.SIGNAL and sign in turn.view.legal_signals
    m.apply(0, sign)
    again = robot_turn(m, ("medio",) * 4)
    assert again is not None and again.seat == 0
    assert again.ready(robot) is None  # one signal per round
    move = again.decide(robot)
    assert move.act != Act.SIGNAL and move in again.view.legal
