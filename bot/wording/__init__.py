"""The bot's sentences with their values, as plain text: below both adapters.

A function here takes the language (``Translations``, gettext-backed: ``bot.i18n``) and
plain values, and returns the sentence. What marks a name or an emphasis is the caller's
``Style``: the Mini App page takes the words as they are (``PLAIN``), the Telegram adapter
passes its HTML (``bot.telegram.render.common.HTML``: names escaped, emphasis in bold).

- ``refusals``: why a request is refused (``reason_text``).
- ``table``: what a table's screens share in both adapters: seat and team names, cards on
  the table, rounds, the countdown, the lobby, a hand's and a match's end, Revanche.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


def _same(text: str) -> str:
    return text


@dataclass(frozen=True)
class Style:
    """How a sentence marks what it holds: a person's name, and the words it stresses."""

    name: Callable[[str], str] = _same
    """A name as written in the sentence (HTML: escaped)."""
    strong: Callable[[str], str] = _same
    """Stressed words (HTML: bold)."""


PLAIN = Style()
"""Plain text, as a Mini App page shows it."""
