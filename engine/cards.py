"""Cards, ranks and suits (R1), as small immutable values with short codes.

A card is an ``int`` from 0 to 39 (``rank * 4 + suit``) so that tables indexed by
card are plain tuples; ``Card.parse("4C")`` and ``card.code`` round-trip.
"""

from __future__ import annotations

from enum import IntEnum

from engine.errors import InvalidValue


class Rank(IntEnum):
    """Card ranks in their natural truco order, weakest first (R1)."""

    FOUR = 0
    FIVE = 1
    SIX = 2
    SEVEN = 3
    QUEEN = 4
    JACK = 5
    KING = 6
    ACE = 7
    TWO = 8
    THREE = 9

    @property
    def code(self) -> str:
        """The one-letter code of the scenario format (``4``, ``Q``, ``A``...)."""
        return RANK_CODES[self]

    def next(self) -> Rank:
        """The rank after this one, wrapping from 3 to 4 (the paulista manilha of a vira)."""
        return Rank((self + 1) % 10)


class Suit(IntEnum):
    """Suits in manilha order, weakest first: ouros < espadas < copas < paus (R1)."""

    DIAMONDS = 0
    SPADES = 1
    HEARTS = 2
    CLUBS = 3

    @property
    def code(self) -> str:
        """The one-letter code of the scenario format (``C``, ``H``, ``S``, ``D``)."""
        return SUIT_CODES[self]

    @property
    def symbol(self) -> str:
        """The suit symbol of the traditional deck (♣ ♥ ♠ ♦)."""
        return SUIT_SYMBOLS[self]


class DeckStyle(IntEnum):
    """How a player wants cards drawn (R11, display only: strength never changes)."""

    TRADITIONAL = 0
    SPANISH = 1


RANK_CODES = ("4", "5", "6", "7", "Q", "J", "K", "A", "2", "3")
SUIT_CODES = ("D", "S", "H", "C")
SUIT_SYMBOLS = ("♦", "♠", "♥", "♣")
SPANISH_RANKS = ("4", "5", "6", "7", "10", "11", "12", "1", "2", "3")
"""Spanish deck numbers: sota 10, caballo 11, rey 12, ás 1 (R11)."""
SPANISH_SUITS = ("oros", "espadas", "copas", "bastos")


class Card(int):
    """One card. Immutable; compare strength only through a hand's strength table."""

    __slots__ = ()

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return Rank(self >> 2)

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return Suit(self & 3)

    @property
    def code(self) -> str:
        """Short code such as ``4C`` or ``QH``."""
        return CODES[self]

    @property
    def label(self) -> str:
        """Traditional label such as ``4♣`` or ``Q♥``."""
        return RANK_CODES[self >> 2] + SUIT_SYMBOLS[self & 3]

    def label_in(self, style: DeckStyle) -> str:
        """The label in a deck style: ``4♣`` (traditional) or ``4 de bastos`` (Spanish)."""
        if style == DeckStyle.SPANISH:
            return f"{SPANISH_RANKS[self >> 2]} de {SPANISH_SUITS[self & 3]}"
        return self.label

    @staticmethod
    def of(rank: Rank, suit: Suit) -> Card:
        """The card of that rank and suit."""
        return ALL_CARDS[rank * 4 + suit]

    @staticmethod
    def parse(code: str) -> Card:
        """The card with that code (case-insensitive); ``ValueError`` if there is none."""
        try:
            return _BY_CODE[code.strip().upper()]
        except (KeyError, AttributeError):
            raise InvalidValue("carta desconhecida: {code!r}", code=code) from None

    def __repr__(self) -> str:
        return f"Card({CODES[self]})"

    def __str__(self) -> str:
        return CODES[self]


CODES: tuple[str, ...] = tuple(r + s for r in RANK_CODES for s in SUIT_CODES)
ALL_CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(40))
_BY_CODE = {c.code: c for c in ALL_CARDS}


def parse_cards(codes: str | list[str] | tuple[str, ...]) -> tuple[Card, ...]:
    """Cards from codes: a list, or one string separated by spaces or commas."""
    if isinstance(codes, str):
        codes = codes.replace(",", " ").split()
    return tuple(Card.parse(c) for c in codes)
