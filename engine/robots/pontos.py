"""Robots' points game in truco gaudério (R13.3): when to call, accept, raise or decline
an envido, from the seat's view only.

A robot weighs its own envido points against the opponents' hands drawn from the cards
it has not seen, keeping the cards each opponent has shown on the table: a 7 of espadas
played in round 1 may be half of a 33. Ties go to the mão's team. Fácil looks at its own
points alone; médio and difícil at the chance, difícil with more deals and by what each
answer is worth to the match. Nothing here reads a hidden card.
"""

from __future__ import annotations

import random

from engine import actions as A
from engine import envido as E
from engine.actions import Act, Action
from engine.cards import Card
from engine.robots.sense import value_after
from engine.state import Phase
from engine.view import View

__all__ = ["points_move", "win_chance"]

_CALLS = {E.ENVIDO: A.ENVIDO, E.REAL_ENVIDO: A.REAL_ENVIDO, E.FALTA_ENVIDO: A.FALTA_ENVIDO}


def _own_dealt(view: View) -> tuple[Card, ...]:
    """This seat's three dealt cards: those it holds and those it played."""
    played = tuple(a.card for s, a in view.history if s == view.seat and a.card is not None)
    return (*played, *view.hand)


def win_chance(view: View, rng: random.Random, deals: int) -> float:
    """The chance that this seat's team wins an envido showdown now, by ``deals`` draws of
    the opponents' hidden cards (the partner's points are not counted: unknown)."""
    mine = view.envido_points or 0
    own = _own_dealt(view)
    shown: dict[int, list[Card]] = {}
    seen = set(own)
    for s, a in view.history:
        if a.act in (Act.PLAY, Act.COVER) and a.card is not None and s != view.seat:
            shown.setdefault(s, []).append(a.card)
            seen.add(a.card)
    pool = [c for c in view.ruleset.deck if c not in seen]
    them = [s for s in range(view.players) if s & 1 != view.team]
    mao_team = (view.dealer + 1) % view.players & 1
    wins = 0.0
    for _ in range(deals):
        draw = rng.sample(pool, 3 * len(them))
        best = 0
        for i, s in enumerate(them):
            known = shown.get(s, [])
            cards = (*known, *draw[3 * i : 3 * i + 3 - len(known)])
            best = max(best, E.envido_points(cards))
        if mine > best or (mine == best and view.team == mao_team):
            wins += 1
    return wins / deals


def points_move(view: View, rng: random.Random, level: str) -> Action | None:
    """The envido move of a robot of ``level`` now, or ``None`` when it has none to make
    (no envido to answer, or it does not call one): then it plays as in any variant."""
    if view.envido_points is None:
        return None
    legal = view.legal
    e = view.envido
    answering = view.phase == Phase.ENVIDO
    calls = [a for a in legal if a.act in (Act.ENVIDO, Act.REAL_ENVIDO, Act.FALTA_ENVIDO)]
    if not answering and not calls:
        return None
    if level == "facil":
        p = min(1.0, max(0.0, (view.envido_points - 18) / 15))
    else:
        p = win_chance(view, rng, 120 if level == "dificil" else 40)
    if answering and e is not None:
        accept, decline = e.accept_value, e.decline_value
        if level == "dificil":
            # by the match: what each answer leaves this team's chance at
            take = p * value_after(view, accept, 0) + (1 - p) * value_after(view, 0, accept)
            give = value_after(view, 0, decline)
            keep = take >= give
        else:
            keep = p * 2 * accept - accept >= -decline
        if keep and calls and p >= 0.8:
            raise_to = _raise(calls, p, view)
            if raise_to is not None:
                return raise_to
        return A.QUERO if keep else A.NAO_QUERO
    # on its turn, or answering the first truco: call with good points, now and then less
    threshold = 0.7 if level == "facil" else 0.6
    if p >= threshold or (level != "facil" and p >= 0.45 and rng.random() < 0.1):
        return _raise(calls, p, view) or calls[0]
    return None


def _raise(calls: list[Action], p: float, view: View) -> Action | None:
    """The call to make with chance ``p``: real envido when sure, falta envido when nearly
    certain and the falta is worth more; else envido."""
    by_act = {a.act: a for a in calls}
    if p >= 0.93 and Act.FALTA_ENVIDO in by_act and view.target - max(view.score) > 5:
        return by_act[Act.FALTA_ENVIDO]
    if p >= 0.8 and Act.REAL_ENVIDO in by_act:
        return by_act[Act.REAL_ENVIDO]
    return by_act.get(Act.ENVIDO)
