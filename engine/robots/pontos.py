"""Robots' points game in truco gaudério (R13.3): when to call, accept, raise or decline
an envido, from the seat's view only.

A robot weighs its own envido points against the opponents' hands drawn from the cards
it has not seen, keeping the cards each opponent has shown on the table: a 7 of espadas
played in round 1 may be half of a 33. Ties go to the mão's team. Fácil looks at its own
points alone; médio and difícil at the chance, both answering by what each answer leaves
of the match. Médio answers a call by its chance against the hands that would make it (a
falta envido is seldom called on 22 points); difícil draws more deals and also reads what the others did with the points
game in this hand (``envido_tells``: a call, a raise, a quero, a declined envido, a first
card played without calling one, a flor not sung, a "tenho pontos" sign): each drawn hand
counts as much as those choices make it likely. Nothing here reads a hidden card.
"""

from __future__ import annotations

import math
import random

from engine import actions as A
from engine import envido as E
from engine.actions import Act, Action
from engine.cards import Card
from engine.robots.sense import value_after
from engine.robots.sinais import Clues
from engine.state import Phase
from engine.view import View

__all__ = [
    "call_likelihood",
    "envido_tells",
    "points_move",
    "tell_likelihood",
    "weighted_chance",
    "win_chance",
]

_CALLS = {E.ENVIDO: A.ENVIDO, E.REAL_ENVIDO: A.REAL_ENVIDO, E.FALTA_ENVIDO: A.FALTA_ENVIDO}


def _own_dealt(view: View) -> tuple[Card, ...]:
    """This seat's three dealt cards: those it holds and those it played."""
    played = tuple(a.card for s, a in view.history if s == view.seat and a.card is not None)
    return (*played, *view.hand)


def win_chance(view: View, rng: random.Random, deals: int, read_calls: bool = False) -> float:
    """The chance that this seat's team wins an envido showdown now, by ``deals`` draws of
    the opponents' hidden cards (the partner's points are not counted: unknown).

    ``read_calls``: each draw counts as much as the opponents' own calls in this hand make
    the points drawn for them likely (``call_likelihood``): a falta envido is called with
    strong points, and a hand drawn blind against it is too weak most of the time."""
    mine = view.envido_points or 0
    called = _calls_by_seat(view) if read_calls else {}
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
    wins = total = 0.0
    for _ in range(deals):
        draw = rng.sample(pool, 3 * len(them))
        best = 0
        weight = 1.0
        for i, s in enumerate(them):
            known = shown.get(s, [])
            cards = (*known, *draw[3 * i : 3 * i + 3 - len(known)])
            points = E.envido_points(cards)
            best = max(best, points)
            if s in called:
                weight *= call_likelihood(called[s], points)
        total += weight
        if mine > best or (mine == best and view.team == mao_team):
            wins += weight
    return wins / total


_CALL_CURVES = {
    Act.ENVIDO: (0.1, 26.5, 1.5),
    Act.REAL_ENVIDO: (0.03, 28.5, 1.0),
    Act.FALTA_ENVIDO: (0.03, 30.5, 1.0),
}
"""For each call: (floor, points at the curve's middle, spread) of how likely a player
holding those envido points makes it. The middles are where médio's own calls start
(chance 0.6, 0.8 and 0.93 of winning the showdown: about 25-27, 28-29 and 30-31 points at
the two table sizes); the floor is the share of such calls made on weak points (a bluff
or a misjudged hand), above zero so that a bluffer is not believed at every call."""


def call_likelihood(act: Act, points: int) -> float:
    """How likely a player holding ``points`` envido points makes the call ``act``."""
    floor, middle, spread = _CALL_CURVES[act]
    return floor + (1.0 - floor) / (1.0 + math.exp(-(points - middle) / spread))


def _calls_by_seat(view: View) -> dict[int, Act]:
    """The highest envido call each other seat made this hand (a raise to falta envido says
    more than the envido before it)."""
    order = {a: i for i, a in enumerate(_CALL_ACTS)}
    called: dict[int, Act] = {}
    for s, a in view.history:
        if (
            a.act in order
            and s != view.seat
            and (s not in called or order[a.act] > order[called[s]])
        ):
            called[s] = a.act
    return called


def points_move(view: View, rng: random.Random, level: str) -> Action | None:
    """The envido move of a robot of ``level`` now, or ``None`` when it has none to make
    (no envido to answer, or it does not call one): then it plays as in any variant.

    Levels: ``facil``, ``medio`` (answers by its chance against the hands that would make
    the calls it answers, and by what each answer leaves of the match), ``dificil``, and
    ``plain``: médio's rule of before, by its chance against hands drawn blind and the
    points at stake, which the sparring styles keep so that their rows stay comparable."""
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
    elif level == "dificil":
        p = weighted_chance(view, rng, DIFICIL_DEALS)
    elif level == "medio" and answering:
        p = win_chance(view, rng, MEDIO_ANSWER_DEALS, read_calls=True)
    else:
        p = win_chance(view, rng, 40)
    if answering and e is not None:
        accept, decline = e.accept_value, e.decline_value
        if level in ("dificil", "medio"):
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


MEDIO_ANSWER_DEALS = 200
"""Deals médio draws to answer an envido call: read against the call (``read_calls``) only
some of them count fully, more than the 40 of a call of its own."""

DIFICIL_DEALS = 200
"""Deals of the other seats' cards difícil draws for an envido decision (weighed by
``envido_tells``, so fewer of them count fully than médio's 40 plain ones)."""

_TELL_CURVES = {
    "call": (0.1, 26.5, 1.5),
    "raise": (0.05, 29.5, 1.2),
    "real-envido": _CALL_CURVES[Act.REAL_ENVIDO],
    "falta-envido": _CALL_CURVES[Act.FALTA_ENVIDO],
    "quero": (0.1, 24.0, 2.5),
    "pass": (0.35, 27.5, 1.5),
    "nao-quero": (0.1, 24.0, 2.5),
}
"""For each kind of tell: (floor, points at the curve's middle, spread) of how likely a
sensible player with those envido points makes it. "pass" and "nao-quero" fall with the
points (``tell_likelihood``); the others rise."""
_FALLING = ("pass", "nao-quero")


def tell_likelihood(kind: str, points: int) -> float:
    """How likely a sensible player holding ``points`` envido points makes this choice:
    ``call`` (opens an envido), ``raise`` (raises one), ``real-envido`` (opens with it),
    ``falta-envido`` (opens or raises with it), ``quero``, ``nao-quero``, or ``pass``
    (plays its first card with an envido open to it and calls none)."""
    floor, middle, spread = _TELL_CURVES[kind]
    rise = 1.0 / (1.0 + math.exp(-(points - middle) / spread))
    if kind in _FALLING:
        rise = 1.0 - rise
    return floor + (1.0 - floor) * rise


_CALL_ACTS = (Act.ENVIDO, Act.REAL_ENVIDO, Act.FALTA_ENVIDO)


def envido_tells(view: View) -> dict[int, list[str]]:
    """What each other seat's choices in this hand's points game say, as ``tell_likelihood``
    kinds by seat: its calls, raises and answers, and a first card played while it could
    still have opened an envido (round 1, none called, no truco accepted, no flor sung)."""
    tells: dict[int, list[str]] = {}
    calls = 0
    plays = 0
    open_to_call = True
    for s, a in view.history:
        act = a.act
        kind: str | None = None
        if act in _CALL_ACTS:
            # a larger call says more: the same curves médio reads a call by (_CALL_CURVES)
            if act == Act.FALTA_ENVIDO:
                kind = "falta-envido"
            elif calls == 0:
                kind = "real-envido" if act == Act.REAL_ENVIDO else "call"
            else:
                kind = "raise"
            calls += 1
        elif act == Act.QUERO:
            kind = "quero"
        elif act == Act.NAO_QUERO:
            kind = "nao-quero"
        elif act == Act.FLOR or act == Act.ACCEPT:
            open_to_call = False  # a flor sung or a truco accepted closes the envido
        elif act == Act.PLAY or act == Act.COVER:
            if plays < view.players and calls == 0 and open_to_call:
                kind = "pass"
            plays += 1
        if kind is not None and s != view.seat:
            tells.setdefault(s, []).append(kind)
    return tells


def weighted_chance(view: View, rng: random.Random, deals: int) -> float:
    """The chance that this seat's team wins an envido showdown now, by ``deals`` draws of
    every other seat's hidden cards (the partner's points count for the team), each draw
    weighed by how likely it makes the others' points-game choices (``envido_tells``) and
    the signs seen, and impossible when a seat that acted in round 1 did not sing a flor
    it would hold."""
    n = view.players
    me = view.seat
    strength = view.ruleset.strength_table(view.vira)
    dealt: list[list[Card]] = [[] for _ in range(n)]
    for s, a in view.history:
        if a.act in (Act.PLAY, Act.COVER) and a.card is not None:
            dealt[s].append(a.card)
    dealt[me] = list(_own_dealt(view))
    partner = view.partner
    if partner is not None and view.partner_hand is not None:
        dealt[partner] = [*dealt[partner], *view.partner_hand]
    seen = {c for cards in dealt for c in cards}
    pool = [c for c in view.ruleset.deck if c not in seen]
    hidden = [s for s in range(n) if len(dealt[s]) < 3]
    need = sum(3 - len(dealt[s]) for s in hidden)
    tells = envido_tells(view)
    flor_on = view.options.flor
    no_flor = {s for s, a in view.history if a.act != Act.SIGNAL} - set(view.flor)
    clues = Clues.of(view, strength)
    mao_team = (view.dealer + 1) % n & 1
    mine = view.envido_points or 0
    won = total = 0.0
    plain_won = plain = 0
    for _ in range(deals):
        draw = rng.sample(pool, need)
        hands = [list(cards) for cards in dealt]
        k = 0
        for s in hidden:
            more = 3 - len(dealt[s])
            hands[s].extend(draw[k : k + more])
            k += more
        weight = 1.0
        ours, theirs = mine, 0
        for s in range(n):
            if s == me:
                continue
            cards = hands[s]
            points = E.envido_points(cards)
            if s & 1 == view.team:
                ours = max(ours, points)
            else:
                theirs = max(theirs, points)
            if flor_on and s in no_flor and E.has_flor(cards):
                weight = 0.0
            for kind in tells.get(s, ()):
                weight *= tell_likelihood(kind, points)
        if clues and weight > 0:
            weight *= clues.weight_dealt(hands, strength)
        win = ours > theirs or (ours == theirs and view.team == mao_team)
        total += weight
        won += weight * win
        plain += 1
        plain_won += win
    if total <= 0:
        return plain_won / plain if plain else 0.5
    return won / total
