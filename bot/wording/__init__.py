"""The bot's sentences with their values, as plain text: below both adapters.

A function here takes the language (``Translations``, gettext-backed: ``bot.i18n``) and
plain values, and returns the sentence. What marks a name or an emphasis is the caller's
``Style``: the Mini App page takes the words as they are (``PLAIN``), the Telegram adapter
passes its HTML (``bot.telegram.render.common.HTML``: names escaped, emphasis in bold).

- ``refusals``: why a request is refused (``reason_text``).
- ``table``: what a table's screens share in both adapters: seat and team names, cards on
  the table, rounds, the countdown, the lobby, a hand's and a match's end, Revanche.
- ``sinais``: a signal as the person who sent, saw or caught it says it (R12).
- ``points``: gaudério's points game on a table's widget: the envido waiting and its
  worths, who won it with how many points, the flors, the proving cards (R13.3, R13.4).

A sentence a Mini App page draws goes as a ``Sentence``: its kind, the values it says and
its words, so that the page gets the sentence with what it is about, not only a string.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


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


Value = str | int | bool | None | list[str] | list[int] | list[int | None]
"""A value a sentence says: a name, a number, a code (``tres``, ``3C``), a score."""


class Sentence(str):
    """One sentence with its values: its words in the person's language (the string
    itself, so that wherever a sentence is written it is just text), what it says
    (``kind``) and what about (``values``: plain, never marked by a ``Style``)."""

    kind: str
    values: Mapping[str, Value]

    def __new__(cls, kind: str, text: str, values: Mapping[str, Value] | None = None) -> Sentence:
        """The sentence ``text`` of kind ``kind`` saying ``values``."""
        made = super().__new__(cls, text)
        made.kind = kind
        made.values = dict(values or {})
        return made

    @property
    def text(self) -> str:
        """The words alone."""
        return str(self)

    def to_json(self) -> dict[str, Any]:
        """The form a Mini App page gets: ``{"kind", "values", "text"}``."""
        return {"kind": self.kind, "values": dict(self.values), "text": self.text}
