"""The one parser of numbers typed or sent by people: ASCII digits, within bounds.

``int()`` takes ``²``, ``٣`` and full-width digits, signs, underscores and spaces,
and a 20-digit id overflows the database's 32-bit columns. Every number that comes
from Telegram (``/truco`` points, ``/start`` payloads, ids in callback_data and
inline results) goes through :func:`parse_number`, whose refusal says which way
the text was wrong so the handler can answer with the right line.
"""

from __future__ import annotations

DB_INT_MAX = 2**31 - 1
"""The largest id or version a database integer column holds (PostgreSQL ``integer``)."""


class NumberRefused(ValueError):
    """Text that is not a number within bounds; ``reason`` says how."""

    NOT_DIGITS = "not_digits"
    TOO_SMALL = "too_small"
    TOO_LARGE = "too_large"

    def __init__(self, reason: str, text: str, low: int, high: int) -> None:
        """Refuse ``text``; ``low``..``high`` were the bounds."""
        super().__init__(f"{reason}: {text[:20]!r} not in {low}..{high}")
        self.reason = reason
        self.low = low
        self.high = high


def is_digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits and nothing else."""
    return text.isascii() and text.isdigit()


def parse_number(text: str, low: int = 0, high: int = DB_INT_MAX) -> int:
    """The number written in ``text`` (ASCII digits only), if ``low <= n <= high``."""
    if not is_digits(text):
        raise NumberRefused(NumberRefused.NOT_DIGITS, text, low, high)
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(high)):  # never convert a huge string
        raise NumberRefused(NumberRefused.TOO_LARGE, text, low, high)
    value = int(digits)
    if value > high:
        raise NumberRefused(NumberRefused.TOO_LARGE, text, low, high)
    if value < low:
        raise NumberRefused(NumberRefused.TOO_SMALL, text, low, high)
    return value
