"""The points game of truco gaudério (R13.3, R13.4): envido points, flor, calls and worths.

Pure functions on cards and call sequences; ``engine.match`` keeps the state and asks
these. The rulebook's tables and the robots read them too, so every number of the
points game is written here once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.actions import Act
from engine.cards import ALL_CARDS, Card, Rank

__all__ = [
    "CALLS",
    "CALL_WORTH",
    "FLOR_WORTH",
    "accepted_worth",
    "declined_worth",
    "envido_cards",
    "envido_points",
    "falta_value",
    "flor_points",
    "has_flor",
    "next_calls",
    "worth_table",
]

ENVIDO = Act.ENVIDO.code
REAL_ENVIDO = Act.REAL_ENVIDO.code
FALTA_ENVIDO = Act.FALTA_ENVIDO.code
CALLS = (ENVIDO, REAL_ENVIDO, FALTA_ENVIDO)
"""The three calls by their codes, in the order a raise climbs them."""

CALL_WORTH = {ENVIDO: 2, REAL_ENVIDO: 3}
"""What each call adds when accepted; a falta envido is worth the falta (``falta_value``)."""

FLOR_WORTH = 3
"""What each flor pays its team (R13.4)."""

_FACE = (Rank.QUEEN, Rank.JACK, Rank.KING)
VALUES: tuple[int, ...] = tuple(
    0 if c.rank in _FACE else 1 if c.rank == Rank.ACE else int(c.rank.code) for c in ALL_CARDS
)
"""Each card's envido value: A = 1, 2-7 their number, Q/J/K = 0 (indexed by card)."""


def envido_points(cards: Iterable[Card]) -> int:
    """A seat's envido points from its three dealt cards (R13.3).

    Two or three cards of one suit: 20 + the two highest values of that suit; otherwise
    the highest value. 7S 6S 3D = 33, KC QC 5D = 20, 7H 5D 3C = 7.
    """
    by_suit: dict[int, list[int]] = {}
    best = 0
    for c in cards:
        v = VALUES[c]
        best = max(best, v)
        by_suit.setdefault(c & 3, []).append(v)
    for values in by_suit.values():
        if len(values) >= 2:
            values.sort(reverse=True)
            best = max(best, 20 + values[0] + values[1])
    return best


def envido_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards that make a seat's envido points (``envido_points``): the two highest of
    the suit with two or three cards, else the highest card (what is shown to prove them)."""
    best: tuple[Card, ...] = ()
    best_points = -1
    for suit in {c & 3 for c in cards}:
        same = sorted((c for c in cards if c & 3 == suit), key=lambda c: -VALUES[c])
        if len(same) >= 2:
            points = 20 + VALUES[same[0]] + VALUES[same[1]]
            if points > best_points:
                best, best_points = (same[0], same[1]), points
    if best:
        return best
    return (max(cards, key=lambda c: VALUES[c]),)


def has_flor(cards: Sequence[Card]) -> bool:
    """Whether three cards are of one suit (R13.4)."""
    return len(cards) == 3 and cards[0] & 3 == cards[1] & 3 == cards[2] & 3


def flor_points(cards: Iterable[Card]) -> int:
    """A flor's points: 20 + the three values (R13.4)."""
    return 20 + sum(VALUES[c] for c in cards)


def next_calls(calls: Sequence[str]) -> tuple[str, ...]:
    """The calls that may follow ``calls`` (the first call, or a raise), R13.3.

    First: any of the three. After ``envido``: any; after ``envido envido``: real or
    falta; after ``real-envido``: falta; after ``falta-envido``: nothing.
    """
    if not calls:
        return CALLS
    last = calls[-1]
    if last == ENVIDO:
        return (REAL_ENVIDO, FALTA_ENVIDO) if calls.count(ENVIDO) >= 2 else CALLS
    if last == REAL_ENVIDO:
        return (FALTA_ENVIDO,)
    return ()


def falta_value(score: tuple[int, int], target: int) -> int:
    """What a falta envido is worth: the points the team ahead still needs (R13.3)."""
    return target - max(score)


def accepted_worth(calls: Sequence[str], falta: int) -> int:
    """The worth of ``calls`` accepted: their sum, or the falta when a falta was called."""
    if FALTA_ENVIDO in calls:
        return falta
    return sum(CALL_WORTH[c] for c in calls)


def declined_worth(calls: Sequence[str], falta: int) -> int:
    """The worth of ``calls`` declined: the accepted worth before the last call, 1 when
    the last call was the first (R13.3)."""
    if len(calls) <= 1:
        return 1
    return accepted_worth(calls[:-1], falta)


def worth_table(falta: str = "falta") -> list[tuple[tuple[str, ...], int | str, int]]:
    """Every call sequence with its worth accepted and declined (the rulebook's table).

    A sequence ending in falta is worth ``falta`` accepted (the value depends on the score).
    """
    rows: list[tuple[tuple[str, ...], int | str, int]] = []

    def walk(calls: tuple[str, ...]) -> None:
        for c in next_calls(calls):
            seq = (*calls, c)
            accepted: int | str = falta if c == FALTA_ENVIDO else accepted_worth(seq, 0)
            rows.append((seq, accepted, declined_worth(seq, 0)))
            walk(seq)

    walk(())
    return rows
