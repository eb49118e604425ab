"""A robot beside a person waits for the person's answer and follows their run (R6, R7)."""

from __future__ import annotations

from engine import Phase
from engine import actions as A
from engine.robots.partners import follows_partner, waits_for_partner
from tests.engine.helpers import act, deal

HANDS = "4C 5D 6H|7C 7D 7H|AS 2S 3S|KC KD KH"


def test_robot_waits_while_its_person_has_not_answered():
    m = act(deal("paulista", HANDS, vira="QH"), "0 truco")
    assert m.phase == Phase.ANSWER and set(m.to_act()) == {1, 3}
    # seat 3 is the robot, seat 1 its person
    assert waits_for_partner(m.view(3), partner_is_person=True)
    assert follows_partner(m.view(3), partner_is_person=True) is None
    # two robots (or two people) keep the plain rule: nobody waits
    assert not waits_for_partner(m.view(3), partner_is_person=False)
    # the person never waits for the robot
    assert not waits_for_partner(m.view(1), partner_is_person=False)


def test_robot_follows_its_persons_run_and_is_free_after_an_accept():
    m = act(deal("paulista", HANDS, vira="QH"), "0 truco", "1 run")
    assert not waits_for_partner(m.view(3), partner_is_person=True)
    assert follows_partner(m.view(3), partner_is_person=True) == A.RUN
    assert follows_partner(m.view(3), partner_is_person=False) is None
    m = act(deal("paulista", HANDS, vira="QH"), "0 truco", "1 accept")
    assert m.phase == Phase.PLAY
    assert not waits_for_partner(m.view(3), partner_is_person=True)
    assert follows_partner(m.view(3), partner_is_person=True) is None


def test_mao_de_onze_decision_follows_the_person_too():
    m = deal("paulista", HANDS, vira="QH", score=(11, 4))
    assert m.phase == Phase.DECIDE and set(m.to_act()) == {0, 2}
    assert waits_for_partner(m.view(2), partner_is_person=True)
    act(m, "0 run11")
    assert follows_partner(m.view(2), partner_is_person=True) == A.RUN11


def test_nothing_to_wait_for_in_one_against_one():
    m = act(deal("paulista", "4C 5D 6H|7C 7D 7H", vira="QH"), "0 truco")
    assert not waits_for_partner(m.view(1), partner_is_person=True)
    assert follows_partner(m.view(1), partner_is_person=True) is None
