"""A person as an update shows them (``Person``), as the domain knows them
(``PlayerInfo``), and their line of ``/ranking``."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import DeckStyle
from engine.rulesets import get_ruleset


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
    chosen_deck: DeckStyle | None
    """The look the person chose with /baralho (R11); ``None``: never chosen."""
    started: bool
    """Whether the person opened a private chat with the bot (so it may write to them)."""

    @property
    def deck(self) -> DeckStyle:
        """How the person's cards look away from a table (lessons): their choice, else
        the traditional look."""
        return self.chosen_deck if self.chosen_deck is not None else DeckStyle.TRADITIONAL

    def deck_at(self, variant: str) -> DeckStyle:
        """How the person's cards look at a table of ``variant``: their choice, else the
        variant's look (Spanish at gaudério, R13.1)."""
        if self.chosen_deck is not None:
            return self.chosen_deck
        return get_ruleset(variant).deck_style


@dataclass(frozen=True)
class RankingRow:
    """One line of ``/ranking``."""

    name: str
    wins: int
    played: int
