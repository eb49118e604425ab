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
    # truco gaudério's list (R13.5), after the first eight so their numbers stay
    ESPADAO = 8
    BASTIAO = 9
    SETE_ESPADAS = 10
    SETE_OUROS = 11
    PONTOS = 12
    """Gaudério: "tenho pontos", an envido of 30 or more (R13.5)."""
    FLOR = 13
    """Gaudério: "tenho flor", three cards of one suit (R13.5)."""

    @property
    def code(self) -> str:
        """The ASCII code: ``zap``, ``copas``, ``espadilha``, ``pica-fumo``, ``tres``..."""
        return self.name.lower().replace("_", "-")

    @property
    def info(self) -> SinalInfo:
        """This signal's row of the table."""
        return ALL_SINAIS[self]

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
    card: Card | None = None
    """The one card it names (gaudério's espadão, bastião and the two sevens)."""
    hand: str = ""
    """What of the whole hand it says (gaudério): ``pontos`` or ``flor``."""

    @property
    def code(self) -> str:
        """The signal's ASCII code."""
        return self.sinal.code

    def matches(self, card: Card, manilhas: tuple[Card, ...]) -> bool:
        """Whether ``card`` is what this signal names, in a hand with these manilhas.

        ``nada`` matches no card: it is sent for a hand with none of the others; nor do
        "tenho pontos" and "tenho flor", which tell of the whole hand (``truthful``).
        """
        if self.card is not None:
            return card == self.card
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
"""The table of signals of paulista, mineiro and Trem Bão, strongest card first, ``nada``
last (the rulebook's table; ``ALL_SINAIS`` is indexed by every ``Sinal``)."""

_card = Card.parse  # the gaudério rows name single cards
GAUDERIO_ROWS: tuple[SinalInfo, ...] = (
    SinalInfo(Sinal.ESPADAO, "espadão", "piscar um olho", "piscou", "😉", None, None, _card("AS")),
    SinalInfo(
        Sinal.BASTIAO,
        "bastião",
        "levantar as sobrancelhas",
        "levantou as sobrancelhas",
        "🤨",
        None,
        None,
        _card("AC"),
    ),
    SinalInfo(
        Sinal.SETE_ESPADAS,
        "sete de espadas",
        "estufar a bochecha",
        "estufou a bochecha",
        "🐡",
        None,
        None,
        _card("7S"),
    ),
    SinalInfo(
        Sinal.SETE_OUROS,
        "sete de ouros",
        "mostrar a ponta da língua",
        "mostrou a língua",
        "😛",
        None,
        None,
        _card("7D"),
    ),
    SinalInfo(
        Sinal.PONTOS,
        "tenho pontos",
        "inclinar a cabeça",
        "inclinou a cabeça",
        "🙃",
        None,
        None,
        hand="pontos",
    ),
    SinalInfo(
        Sinal.FLOR,
        "tenho flor",
        "mandar um beijo",
        "mandou um beijo",
        "😘",
        None,
        None,
        hand="flor",
    ),
)
"""Gaudério's own rows (R13.5): its four top cards by the same faces as the paulista
manilhas, and the points game's two."""
ALL_SINAIS: tuple[SinalInfo, ...] = SINAIS + GAUDERIO_ROWS
"""Every signal's row, indexed by ``Sinal``."""
PAULISTA_SINAIS: tuple[Sinal, ...] = tuple(info.sinal for info in SINAIS)
"""The signals of a table of paulista, mineiro or Trem Bão, in the order they are listed."""
GAUDERIO_SINAIS: tuple[Sinal, ...] = (
    Sinal.ESPADAO,
    Sinal.BASTIAO,
    Sinal.SETE_ESPADAS,
    Sinal.SETE_OUROS,
    Sinal.TRES,
    Sinal.DOIS,
    Sinal.PONTOS,
    Sinal.FLOR,
    Sinal.NADA,
)
"""The signals of a gaudério table (R13.5), in the order they are listed."""
POINTS_FOR_SIGNAL = 30
"""The envido points from which "tenho pontos" is true (R13.5)."""

_BY_CODE = {s.code: s for s in Sinal}

DEFAULT_CATCH_PERCENT = 25
"""The default chance, in percent, that each opponent catches a signal (R12: 1 in 4)."""


def truthful(
    hand: tuple[Card, ...],
    manilhas: tuple[Card, ...],
    sinais: tuple[Sinal, ...] = PAULISTA_SINAIS,
    *,
    points: int = 0,
    flor: bool = False,
) -> Sinal:
    """The signal an honest player sends for ``hand`` among the table's ``sinais``: the
    first of the list that is true (its best named card), else ``nada``. Gaudério's
    "tenho pontos" and "tenho flor" read ``points`` (the seat's envido) and ``flor``."""
    for sinal in sinais:
        info = ALL_SINAIS[sinal]
        if info.hand == "pontos":
            if points >= POINTS_FOR_SIGNAL:
                return sinal
        elif info.hand == "flor":
            if flor:
                return sinal
        elif any(info.matches(c, manilhas) for c in hand):
            return sinal
    return Sinal.NADA
