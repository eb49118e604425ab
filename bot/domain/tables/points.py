"""What a group hears of gaudério's points game (R13.3, R13.4): envido calls, answers,
the showdown's winner and the flors the engine sings, as ``Said`` announcements."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from sqlmodel import Session

from bot.domain import outbox
from bot.domain.models import Game
from bot.domain.values.game import Occupant, Said, Saying
from engine import Match
from engine import envido as E
from engine.actions import ENVIDO_CALLS, Act, Action


def flor_payout(m: Match) -> tuple[int | None, int]:
    """The team the hand's flors paid and how much: 3 a flor to its team; when both teams
    sang one, the best flor (a tie: the mão's team) takes 3 for every flor (R13.4)."""
    flor = m.flor
    if not flor:
        return None, 0
    if len({s & 1 for s in flor}) == 1:
        return flor[0] & 1, E.FLOR_WORTH * len(flor)
    mao_team = (m.dealer + 1) % m.players & 1
    best = max(flor, key=lambda s: (E.flor_points(m.dealt[s]), s & 1 == mao_team))
    return best & 1, E.FLOR_WORTH * len(flor)


def announce(
    s: Session,
    game: Game,
    version: int,
    sayings: Sequence[Said],
    seats: Sequence[Occupant | None],
    part: str = "",
) -> None:
    """Owe a group's chat what was said at this version, in order (a private table's
    person reads it in their hand message). Each line keeps who sat in its seat then
    (``seats``): the seat may change hands before the group hears it."""
    if game.private:
        return
    for i, said in enumerate(sayings):
        # the first keeps the key every call had before several were said at once
        key = f"{game.id}:said:{version}" + (f":{part}{i}" if part or i else "")
        made = replace(said, maker=seats[said.seat])
        outbox.record(s, game, outbox.Announcement.SAID, key, made.to_json())


def points_said(
    m: Match, seat: int | None, action: Action | None, flor_before: tuple[int, ...]
) -> list[Said]:
    """What the group hears of gaudério's points game once ``action`` of ``seat`` was
    applied (``None``: a deal): the envido call or answer with its worth, the showdown's
    winning points, and every flor the engine sang meanwhile (R13.3, R13.4)."""
    if not m.ruleset.envido:
        return []
    hand = m.hand_number
    out: list[Said] = []
    act = action.act if action is not None else None
    if seat is not None and act in ENVIDO_CALLS:
        e = m.view(seat).envido
        if e is not None:
            step = E.CALLS.index(act.code) if act is not None else 0
            out.append(Said(hand, seat, Saying.ENVIDO, step=step, value=e.accept_value))
    elif seat is not None and act in (Act.QUERO, Act.NAO_QUERO):
        e = m.view(seat).envido
        if e is not None:
            if act is Act.QUERO:
                out.append(Said(hand, seat, Saying.QUERO, value=e.worth))
            else:
                worth = e.worth if e.state == "declined" else None
                out.append(Said(hand, seat, Saying.NAO_QUERO, value=worth))
            if e.state == "accepted" and e.winner_seat is not None:
                out.append(
                    Said(
                        hand,
                        e.winner_seat,
                        Saying.ENVIDO_WON,
                        value=e.worth,
                        points=e.winner_points,
                    )
                )
    out += [Said(hand, s, Saying.FLOR, value=E.FLOR_WORTH) for s in m.flor[len(flor_before) :]]
    return out
