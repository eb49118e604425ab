"""Sinais (R12): the faces partners make to tell each other their cards, as data.

A signal names one card that matters (the hand's four manilhas by suit, then the
common três, dois and ás) or says "nada". Nothing checks it against the hand: it
may be a lie. ``SINAIS`` is the table the rulebook, the bot, the terminal and the
browser game all show; the texts in it are pt-BR source strings that the wording
layer translates, never rewritten elsewhere.

The faces are the common paulista set (piscar para o zap, sobrancelhas para copas,
bochecha para a espadilha, língua para o pica-fumo, ombro para o três); regions vary,
so the rulebook presents this as the table's convention, not the only one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from engine.cards import Card, Rank, Suit
from engine.errors import InvalidValue


class Sinal(IntEnum):
    """One signal; ``code`` is its short ASCII name (``signal zap`` in a match log)."""

    ZAP = 0
    COPAS = 1
    ESPADILHA = 2
    PICA_FUMO = 3
    TRES = 4
    DOIS = 5
    AS = 6
    NADA = 7

    @property
    def code(self) -> str:
        """The ASCII code: ``zap``, ``copas``, ``espadilha``, ``pica-fumo``, ``tres``..."""
        return self.name.lower().replace("_", "-")

    @property
    def info(self) -> SinalInfo:
        """This signal's row of the table."""
        return SINAIS[self]

    @staticmethod
    def parse(code: str) -> Sinal:
        """The signal with this ``code`` (``ValueError`` with a pt-BR reason if none)."""
        try:
            return _BY_CODE[code.strip().lower()]
        except KeyError:
            known = ", ".join(s.code for s in Sinal)
            raise InvalidValue(
                "sinal desconhecido: {code!r} (conhecidos: {known})", code=code, known=known
            ) from None


@dataclass(frozen=True, slots=True)
class SinalInfo:
    """One row of the table of signals."""

    sinal: Sinal
    name: str
    """What players call the card (pt-BR source string): ``zap``, ``três``, ``nada``."""
    face: str
    """The face that sends it, as an infinitive (pt-BR source string): ``piscar um olho``."""
    seen: str
    """How a watcher tells it, past tense after a name (pt-BR source string): ``piscou``."""
    emoji: str
    manilha: Suit | None
    """The manilha of this suit (this hand's manilha in paulista, the fixed one elsewhere)."""
    rank: Rank | None
    """A common card of this rank (not a manilha)."""

    @property
    def code(self) -> str:
        """The signal's ASCII code."""
        return self.sinal.code

    def matches(self, card: Card, manilhas: tuple[Card, ...]) -> bool:
        """Whether ``card`` is what this signal names, in a hand with these manilhas.

        ``nada`` matches no card: it is sent for a hand with none of the others.
        """
        if self.manilha is not None:
            return card in manilhas and card.suit == self.manilha
        if self.rank is not None:
            return card.rank == self.rank and card not in manilhas
        return False


SINAIS: tuple[SinalInfo, ...] = (
    SinalInfo(Sinal.ZAP, "zap", "piscar um olho", "piscou", "😉", Suit.CLUBS, None),
    SinalInfo(
        Sinal.COPAS,
        "copas",
        "levantar as sobrancelhas",
        "levantou as sobrancelhas",
        "🤨",
        Suit.HEARTS,
        None,
    ),
    SinalInfo(
        Sinal.ESPADILHA,
        "espadilha",
        "estufar a bochecha",
        "estufou a bochecha",
        "🐡",
        Suit.SPADES,
        None,
    ),
    SinalInfo(
        Sinal.PICA_FUMO,
        "pica-fumo",
        "mostrar a ponta da língua",
        "mostrou a língua",
        "😛",
        Suit.DIAMONDS,
        None,
    ),
    SinalInfo(Sinal.TRES, "três", "levantar um ombro", "levantou um ombro", "🤷", None, Rank.THREE),
    SinalInfo(Sinal.DOIS, "dois", "morder o lábio", "mordeu o lábio", "🫦", None, Rank.TWO),
    SinalInfo(Sinal.AS, "ás", "coçar o nariz", "coçou o nariz", "👃", None, Rank.ACE),
    SinalInfo(Sinal.NADA, "nada", "fechar os olhos", "fechou os olhos", "😑", None, None),
)
"""The table of signals, strongest card first, ``nada`` last (indexed by ``Sinal``)."""

_BY_CODE = {s.code: s for s in Sinal}

DEFAULT_CATCH_PERCENT = 25
"""The default chance, in percent, that each opponent catches a signal (R12: 1 in 4)."""


def truthful(hand: tuple[Card, ...], manilhas: tuple[Card, ...]) -> Sinal:
    """The signal an honest player sends for ``hand``: its best named card, else ``nada``."""
    for info in SINAIS:
        if any(info.matches(c, manilhas) for c in hand):
            return info.sinal
    return Sinal.NADA
