"""A person as an update shows them (``Person``), as the domain knows them
(``PlayerInfo``), and their line of ``/ranking``."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import DeckStyle


@dataclass(frozen=True)
class Person:
    """A Telegram user as the adapter saw them in an update."""

    id: int
    name: str
    username: str | None = None
    language_code: str | None = None


@dataclass(frozen=True)
class PlayerInfo:
    """What the domain knows about a person."""

    id: int
    name: str
    language_code: str | None
    deck: DeckStyle
    started: bool
    """Whether the person opened a private chat with the bot (so it may write to them)."""


@dataclass(frozen=True)
class RankingRow:
    """One line of ``/ranking``."""

    name: str
    wins: int
    played: int
