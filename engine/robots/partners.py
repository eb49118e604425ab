"""When a person and a robot are partners, the person speaks for the team (R6, R7).

The engine's rule stays as it is (one accept settles a call, running needs both
partners); this module is how a robot *schedules* its answer beside a person:

- while the person has not answered the call (or the mão de onze/dez decision),
  the robot waits: :func:`waits_for_partner`;
- when the person has run, the robot runs too: :func:`follows_partner`;
- only when the person's time is out does the robot decide on its own, which the
  caller knows (it applied the timeout), so it simply asks the robot.

The bot, the terminal game and the browser game all ask these two functions, so a
robot partner behaves the same everywhere.

    >>> if waits_for_partner(view, partner_is_person=True):
    ...     pass  # schedule nothing: the person's deadline covers the team
"""

from __future__ import annotations

from engine import actions as A
from engine.actions import Action
from engine.match import Phase
from engine.view import View

_TEAM_PHASES = (Phase.ANSWER, Phase.DECIDE, Phase.ENVIDO)


def waits_for_partner(view: View, partner_is_person: bool) -> bool:
    """Whether the robot at ``view.seat`` must hold its answer for its person partner.

    True while the team answers a call, an envido (gaudério) or decides a mão de
    onze/dez, the robot may act, and its partner is a person who may still act too.
    """
    partner = view.partner
    return (
        partner_is_person
        and partner is not None
        and view.phase in _TEAM_PHASES
        and view.seat in view.to_act
        and partner in view.to_act
    )


def follows_partner(view: View, partner_is_person: bool) -> Action | None:
    """The run (or the envido's decline) that follows a person partner's, or ``None``
    when the robot is free.

    Call it only when the person answered by themselves (not on their timeout: then the
    robot decides on its own).
    """
    partner = view.partner
    if not partner_is_person or partner is None or view.seat not in view.to_act:
        return None
    if view.phase == Phase.ENVIDO:  # a person's "não quero" is the team's (R13.3, R6)
        e = view.envido
        return A.NAO_QUERO if e is not None and partner in e.declined else None
    if partner not in view.ran:
        return None
    if view.phase == Phase.ANSWER:
        return A.RUN
    if view.phase == Phase.DECIDE:
        return A.RUN11
    return None
