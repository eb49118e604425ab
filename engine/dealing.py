"""The match's seeded chance: the deal of each hand and the catching of signals (R12).

A match replays from (ruleset, options, seed, actions) because every chance step is
drawn here from the seed: the shuffle of each hand (splitmix64 Fisher-Yates, keyed by
the seed and the hand's number) and each opponent's roll to catch a signal.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from operator import itemgetter
from typing import Any

from engine.cards import Card

__all__ = ["DEALS", "catch_roll", "deal_cards", "shuffle"]

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(x: int) -> int:
    """The splitmix64 output function."""
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def deal_cards(seed: int, hand_number: int, deck: tuple[Card, ...], count: int) -> list[Card]:
    """The first ``count`` cards of ``deck`` shuffled by (seed, hand_number), splitmix64."""
    return shuffle(seed, hand_number, deck, count)[:count]


def shuffle(seed: int, hand_number: int, deck: tuple[Card, ...], count: int) -> list[Card]:
    """``deck`` with its first ``count`` places shuffled (``deal_cards`` without the cut).

    Fisher-Yates over a splitmix64 stream: with ``x0 = seed * golden + hand_number *
    0xD1B54A32D192ED03 + 1`` (mod 2**64), draw ``i`` is ``_mix(x0 + (i + 1) * golden)`` and
    swaps place ``i`` with place ``i + draw % (len(deck) - i)``.
    """
    ones, steps, low, unpack, size = _LANES[count]
    # All ``count`` draws at once, one per 128-bit lane of a single int (the deal was the
    # dearest step of a hand, and each 64-bit step costs a Python int operation): every
    # lane keeps its low 64 bits exact. A product of two 64-bit numbers fits in its
    # lane, and the mask before each product drops what a shift carried in from the lane
    # above; what ``z >> 31`` carries in lands above bit 64, which ``unpack`` skips.
    x = ((seed * _GOLDEN + hand_number * 0xD1B54A32D192ED03 + 1) & _MASK) * ones + steps & low
    z = ((x ^ x >> 30) & low) * 0xBF58476D1CE4E5B9 & low
    z = ((z ^ z >> 27) & low) * 0x94D049BB133111EB & low
    cards = list(deck)
    n = len(cards)
    for i, draw in enumerate(unpack((z ^ z >> 31).to_bytes(size, "little"))):
        j = i + draw % (n - i)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _lanes(count: int) -> tuple[int, int, int, Callable[[bytes], tuple[Any, ...]], int]:
    """For ``count`` draws: ones in every 128-bit lane, the lanes' stream steps
    ((i + 1) * golden), the 64-bit mask of every lane, the unpacker of the lanes' low
    64 bits, and the bytes they take."""
    ones = sum(1 << 128 * i for i in range(count))
    steps = sum((i + 1) * _GOLDEN << 128 * i for i in range(count))
    return ones, steps, _MASK * ones, struct.Struct("<" + "Q8x" * count).unpack, 16 * count


_LANES = {count: _lanes(count) for count in range(41)}
"""``_lanes`` for every deal size (a deck has at most 40 cards)."""


def catch_roll(seed: int, hand_number: int, index: int, seat: int) -> int:
    """A number 0-99 drawn from the seed for ``seat`` watching the hand's action ``index``.

    The seat catches that signal when the roll is below the table's ``catch_percent``.
    The stream is apart from the deal's (another odd multiplier and offset).
    """
    x = (seed * 0xA0761D6478BD642F + hand_number * 0xE7037ED1A0B428DB) & _MASK
    x = (x + (index * 4 + seat + 1) * _GOLDEN) & _MASK
    return _mix(x) % 100


DEALS = {
    n: tuple(
        tuple(itemgetter(*range((s - dealer - 1) % n, 3 * n, n)) for s in range(n))
        for dealer in range(n)
    )
    for n in (2, 4)
}
"""By table size and dealer, each seat's three places in the shuffled deck (itemgetters)."""
