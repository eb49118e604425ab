"""Actions a seat can take, as small interned values with short codes (``play 4C``)."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from engine.cards import ALL_CARDS, Card
from engine.sinais import Sinal


class Act(IntEnum):
    """Kinds of action; ``code`` is the ``act`` name of the scenario format."""

    PLAY = 0
    COVER = 1
    BLIND = 2
    TRUCO = 3
    ACCEPT = 4
    RUN = 5
    RAISE = 6
    PLAY11 = 7
    RUN11 = 8
    SIGNAL = 9
    """A sign to the partner (R12); it changes no turn."""
    ENVIDO = 10
    """Gaudério: call envido, or raise an envido while answering it (R13.3)."""
    REAL_ENVIDO = 11
    FALTA_ENVIDO = 12
    QUERO = 13
    """Gaudério: accept the pending envido."""
    NAO_QUERO = 14
    """Gaudério: decline the pending envido."""
    FLOR = 15
    """Gaudério: a flor sung by the engine for its holder (R13.4); never a seat's choice,
    so never in ``legal_actions``: it shows in the log and the history."""

    @property
    def code(self) -> str:
        """The scenario-format name (``play``, ``truco``, ``run11``, ``real-envido``...)."""
        return _CODES[self]

    @staticmethod
    def from_code(code: str) -> Act:
        """The act named ``code`` (case-insensitive); ``KeyError`` if there is none."""
        return _BY_CODE[code.lower()]


_CODES = {a: a.name.lower().replace("_", "-") for a in Act}
_BY_CODE = {code: a for a, code in _CODES.items()}
ENVIDO_CALLS = (Act.ENVIDO, Act.REAL_ENVIDO, Act.FALTA_ENVIDO)
"""The three envido calls, in the order a raise may climb them."""


class Action(NamedTuple):
    """One action. ``card`` for play/cover; ``slot`` (0-2, dealt order) for blind play;
    ``sinal`` for a signal (``None`` when the viewer did not see which one)."""

    act: Act
    card: Card | None = None
    slot: int | None = None
    sinal: Sinal | None = None

    def __str__(self) -> str:
        if self.card is not None:
            return f"{self.act.code} {self.card.code}"
        if self.slot is not None:
            return f"{self.act.code} {self.slot}"
        if self.sinal is not None:
            return f"{self.act.code} {self.sinal.code}"
        return self.act.code

    @staticmethod
    def parse(text: str) -> Action:
        """The action written as ``str(action)`` does: ``play 4C``, ``blind 2``, ``truco``,
        ``signal zap`` (``signal`` alone: a signal whose content was not seen)."""
        parts = text.split()
        if not parts:
            raise ValueError("ação vazia")
        try:
            act = Act.from_code(parts[0])
        except KeyError:
            raise ValueError(f"ação desconhecida: {parts[0]!r}") from None
        if act in (Act.PLAY, Act.COVER):
            if len(parts) != 2:
                raise ValueError(f"{act.code} precisa de uma carta")
            return (PLAY if act is Act.PLAY else COVER)[Card.parse(parts[1])]
        if act is Act.BLIND:
            if len(parts) != 2 or parts[1] not in ("0", "1", "2"):
                raise ValueError("blind precisa da posição 0, 1 ou 2")
            return BLIND[int(parts[1])]
        if act is Act.SIGNAL:
            if len(parts) == 1:
                return HIDDEN_SIGNAL
            if len(parts) != 2:
                raise ValueError("signal leva no máximo um sinal")
            return SIGNAL[Sinal.parse(parts[1])]
        if len(parts) != 1:
            raise ValueError(f"{act.code} não leva argumento")
        return SIMPLE[act]


PLAY: tuple[Action, ...] = tuple(Action(Act.PLAY, c) for c in ALL_CARDS)
COVER: tuple[Action, ...] = tuple(Action(Act.COVER, c) for c in ALL_CARDS)
BLIND: tuple[Action, ...] = tuple(Action(Act.BLIND, None, i) for i in range(3))
TRUCO = Action(Act.TRUCO)
ACCEPT = Action(Act.ACCEPT)
RUN = Action(Act.RUN)
RAISE = Action(Act.RAISE)
PLAY11 = Action(Act.PLAY11)
RUN11 = Action(Act.RUN11)
SIGNAL: tuple[Action, ...] = tuple(Action(Act.SIGNAL, sinal=s) for s in Sinal)
HIDDEN_SIGNAL = Action(Act.SIGNAL)
"""A signal as seen by a seat that was not told which one."""
ENVIDO = Action(Act.ENVIDO)
REAL_ENVIDO = Action(Act.REAL_ENVIDO)
FALTA_ENVIDO = Action(Act.FALTA_ENVIDO)
QUERO = Action(Act.QUERO)
NAO_QUERO = Action(Act.NAO_QUERO)
FLOR = Action(Act.FLOR)
SIMPLE = {
    a.act: a
    for a in (
        TRUCO,
        ACCEPT,
        RUN,
        RAISE,
        PLAY11,
        RUN11,
        ENVIDO,
        REAL_ENVIDO,
        FALTA_ENVIDO,
        QUERO,
        NAO_QUERO,
        FLOR,
    )
}
