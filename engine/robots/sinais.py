"""Sinais for robots (R12): what to signal, what the signals a seat saw say, and the risk.

Robots signal honestly (a person partner can trust them): the honest signal names the
best card that matters in the hand, or "nada". What a seat knows of the others'
signals (its partner's, and the opponents' it caught) becomes a likelihood over the
hidden hands the robots sample: ``Clues.accept`` keeps a sampled deal with the chance
that the signals seen would have been made with it, so the chances médio and difícil
compute lean towards the hands the signals describe.

Being seen has a price: an opponent who caught a "nada" knows a truco from us is a
bluff. ``bluff_scale`` discounts bluffs by the chance our own weak signal was caught.

Everything here reads a ``View`` only; a robot that ignores signals gets its views
through ``without_signals`` and never sends one (``Deaf``).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine import actions as A
from engine import envido as E
from engine.actions import Act, Action
from engine.cards import Card
from engine.robots.base import Robot
from engine.sinais import PAULISTA_SINAIS, POINTS_FOR_SIGNAL, Sinal, truthful
from engine.view import View

TRUST_PARTNER = 0.9
"""Chance a partner's signal is true (robots never lie to a partner; people rarely do)."""
TRUST_CAUGHT = 0.6
"""Chance a caught signal of an opponent is true (they know they may be watched)."""
MAX_TRIES = 12
"""Deals drawn per accepted sample, at most, when signals make most deals unlikely."""
MAX_EXPOSURE = 0.75
"""Robots do not signal at a table where opponents would see it more often than this."""
_WEAK = (Sinal.NADA, Sinal.AS)
# The members as module names: an enum member looked up on its class costs several times
# a global's lookup (see ``engine.match``), and ``Clues.of`` reads every action of a history.
_PLAY, _COVER, _SIGNAL = Act.PLAY, Act.COVER, Act.SIGNAL

_BY_STRENGTH = {13: Sinal.ZAP, 12: Sinal.COPAS, 11: Sinal.ESPADILHA, 10: Sinal.PICA_FUMO}
_BY_STRENGTH.update({9: Sinal.TRES, 8: Sinal.DOIS, 7: Sinal.AS})
_CHOICES = len(PAULISTA_SINAIS)
"""The signs a lie picks among (a table's list: 8, gaudério's 9, read as 8 alike)."""
_AS_STRENGTH: dict[Sinal, Sinal | None] = {
    Sinal.ESPADAO: Sinal.ZAP,
    Sinal.BASTIAO: Sinal.COPAS,
    Sinal.SETE_ESPADAS: Sinal.ESPADILHA,
    Sinal.SETE_OUROS: Sinal.PICA_FUMO,
    Sinal.PONTOS: None,
    Sinal.FLOR: None,
}
"""Gaudério's signals (R13.5) as the strength they tell (``sinal_of``): its four top cards
are the strongest four, as the manilhas elsewhere; its points game's say nothing of it."""


def sinal_of(strengths: Sequence[int]) -> Sinal:
    """The honest signal of a hand given as strengths (``Ruleset.strength_table`` values).

    Manilhas are 10 + suit and common cards their rank, so the best card names it.
    """
    return _BY_STRENGTH.get(max(strengths, default=-1), Sinal.NADA)


@dataclass(frozen=True, slots=True)
class Clue:
    """One signal a seat saw from another seat in this hand."""

    seat: int
    sinal: Sinal
    trust: float
    played_before: int
    """Cards the signaller had played in this hand when it signalled."""
    later_open: tuple[int, ...]
    """Strengths of the cards it played face up after the signal (still its at the time)."""
    points_game: bool = False
    """A gaudério table (R13.5): below the 2, the honest signal tells the whole hand
    ("tenho pontos", "tenho flor" or "nada"), and there is no signal of an ace."""

    def likelihood(self, at_signal: Sequence[int], dealt: Sequence[Card] | None = None) -> float:
        """Chance of this signal from a hand holding ``at_signal`` (strengths) then.

        ``dealt``: the signaller's three dealt cards when known (a sampled deal), which
        tell its envido points and flor; without them a gaudério whole-hand signal only
        says that no card of a strength signal was held.
        """
        top = sinal_of(at_signal)
        if self.points_game:
            # the four top cards, the 3 and the 2 have their signs; an ace-high hand has
            # none and tells its points, its flor or nothing (``engine.sinais.truthful``)
            low = top == Sinal.AS or top == Sinal.NADA
            if self.sinal in _WHOLE_HAND:
                if not low:
                    hit = 0.0
                elif dealt is None:
                    hit = 1.0
                else:
                    hit = 1.0 if _whole_hand_sinal(dealt) == self.sinal else 0.0
            else:
                hit = 1.0 if _AS_STRENGTH.get(self.sinal, self.sinal) == top else 0.0
            return self.trust * hit + (1.0 - self.trust) / _CHOICES
        sinal = _AS_STRENGTH.get(self.sinal, self.sinal)
        if sinal is None:  # "tenho pontos", "tenho flor" at a table without them
            return 1.0
        hit = 1.0 if top == sinal else 0.0
        return self.trust * hit + (1.0 - self.trust) / _CHOICES


_WHOLE_HAND = (Sinal.PONTOS, Sinal.FLOR, Sinal.NADA)
"""Gaudério's honest signals of a hand without a signalled card (R13.5)."""


def _whole_hand_sinal(dealt: Sequence[Card]) -> Sinal:
    """The honest gaudério signal of a hand holding no signalled card, by its three dealt
    cards: "tenho pontos" from 30 envido points, else "tenho flor", else "nada"."""
    if E.envido_points(dealt) >= POINTS_FOR_SIGNAL:
        return Sinal.PONTOS
    return Sinal.FLOR if E.has_flor(dealt) else Sinal.NADA


@dataclass(frozen=True, slots=True)
class Clues:
    """Everything the signals seen in a view say about the other seats' hands."""

    clues: tuple[Clue, ...]

    def __bool__(self) -> bool:
        return bool(self.clues)

    @staticmethod
    def of(view: View, strength: Sequence[int]) -> Clues:
        """The clues of ``view`` (its partner's signals and the opponents' it caught)."""
        if not view.options.sinais_on:
            return NO_CLUES  # nobody may signal (R12): nothing in the history to read
        found: list[tuple[int, Sinal, int, list[int]]] = []
        played = [0] * view.players
        for s, a in view.history:
            act = a.act
            if act in (_PLAY, _COVER):
                played[s] += 1
                for seat, _, _, later in found:
                    if seat == s and act == _PLAY and a.card is not None:
                        later.append(strength[a.card])
            elif act == _SIGNAL and a.sinal is not None and s != view.seat:
                found.append((s, a.sinal, played[s], []))
        partner = view.partner
        points_game = view.ruleset.envido
        return Clues(
            tuple(
                Clue(
                    seat,
                    sinal,
                    TRUST_PARTNER if seat == partner else TRUST_CAUGHT,
                    before,
                    tuple(later),
                    points_game,
                )
                for seat, sinal, before, later in found
            )
        )

    def weight(self, held: Sequence[Sequence[int]]) -> float:
        """Likelihood of the signals seen if each seat now holds ``held[seat]`` (strengths)."""
        w = 1.0
        for c in self.clues:
            w *= c.likelihood([*held[c.seat], *c.later_open])
        return w

    def weight_dealt(self, dealt: Sequence[Sequence[Card]], strength: Sequence[int]) -> float:
        """Likelihood of the signals seen for a full deal (cards in each seat's play order)."""
        w = 1.0
        for c in self.clues:
            cards = dealt[c.seat]
            held = [strength[card] for card in cards[c.played_before :]]
            w *= c.likelihood(held, cards if c.points_game else None)
        return w

    def top(self) -> float:
        """The largest value ``weight`` can take (every signal true)."""
        w = 1.0
        for c in self.clues:
            w *= c.trust + (1.0 - c.trust) / _CHOICES
        return w

    def accept(self, w: float, rng: random.Random) -> bool:
        """Whether to keep a sampled deal of weight ``w`` (rejection sampling)."""
        return rng.random() * self.top() < w


NO_CLUES = Clues(())
"""The clues of a view at a table without signals."""


def exposure(view: View) -> float:
    """Chance that at least one opponent catches a signal from this seat."""
    miss = 1.0 - view.options.catch_percent / 100
    return 1.0 - miss * miss


def last_signal(view: View, seat: int | None = None) -> Sinal | None:
    """The last signal ``seat`` (default: this seat) made in this hand, as this seat saw it."""
    who = view.seat if seat is None else seat
    found: Sinal | None = None
    for s, a in view.history:
        if s == who and a.act == Act.SIGNAL and a.sinal is not None:
            found = a.sinal
    return found


def _dealt(view: View) -> tuple[Card, ...]:
    """This seat's three dealt cards: those it played and those it holds."""
    played = tuple(a.card for s, a in view.history if s == view.seat and a.card is not None)
    return (*played, *view.hand)


def choose_signal(view: View) -> Action | None:
    """The signal an honest médio/difícil sends now, or ``None`` to keep a still face.

    It signals when its partner does not see its cards and will still decide something
    in this hand: once early, and again when its best card is gone (the news changed).
    Never where the opponents would almost surely see it.
    """
    if not view.legal_signals or not view.hand or view.partner_hand is not None:
        return None
    partner = view.partner
    if partner is None or view.cards_left[partner] == 0:
        return None
    if exposure(view) > MAX_EXPOSURE:
        return None
    honest = truthful(
        view.hand,
        view.manilhas,
        view.ruleset.sinais,
        points=view.envido_points or 0,
        flor=E.has_flor(_dealt(view)) if view.envido_points is not None else False,
    )
    if last_signal(view) == honest:
        return None
    return A.SIGNAL[honest]


def bluff_scale(view: View) -> float:
    """How much of its usual bluffing a seat keeps: less when its own weak signal may be
    known to the other team (a caught "nada" turns a bluff into a gift)."""
    mine = last_signal(view)
    if mine is None or mine not in _WEAK:
        return 1.0
    return 1.0 - exposure(view)


def without_signals(view: View) -> View:
    """``view`` as a seat that pays signals no attention sees it: no signals at all."""
    return dataclasses.replace(
        view,
        history=tuple((s, a) for s, a in view.history if a.act != Act.SIGNAL),
        legal_signals=(),
    )


def robot_signal(robot: object, view: View) -> Action | None:
    """The signal ``robot`` sends now (``None`` for robots that never signal)."""
    signal = getattr(robot, "signal", None)
    if signal is None or not view.legal_signals:
        return None
    action: Action | None = signal(view)
    return action if action in view.legal_signals else None


class Deaf:
    """A robot that ignores signals: never sends one and plays as if none were made.

    The arena's baseline for the gain of using signals (``robot:medio:sem-sinais``).
    """

    def __init__(self, robot: Robot) -> None:
        """Wrap ``robot``."""
        self.robot = robot
        self.level = robot.level

    def choose(self, view: View) -> Action:
        """The wrapped robot's action, on a view with the signals taken out."""
        return self.robot.choose(without_signals(view))

    def signal(self, view: View) -> Action | None:
        """Never a signal."""
        return None
