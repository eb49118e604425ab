"""What the messages must show: a table's public message and its private hands, read in
one go by ``bot.domain.messages``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from bot.domain.values.game import HandSummary, Table
from bot.domain.values.people import PlayerInfo
from bot.domain.values.settings import Noise


@dataclass(frozen=True)
class TableDrawing:
    """Everything the public table message needs: state, language, who must start the bot."""

    table: Table
    language: str
    missing: tuple[str, ...]
    """Lobby: seated people who never opened a private chat with the bot."""
    buried: int = 0
    """Messages posted in the chat since the table message (chatter, announcements)."""
    cancelled_by: str | None = None
    """A cancelled table: the name of who cancelled it (``None``: the last person left)."""
    waiting: tuple[str, ...] = ()
    """A Revanche lobby's people who have not confirmed yet."""
    noise: str = Noise.ALL.value
    """How much of the match the chat hears as new messages (a ``Noise``)."""
    last_hand: HandSummary | None = None
    """How the previous hand ended, when the chat hears less than everything: the table
    message says it instead of a message of its own."""
    ending_unsure: bool = False
    """The match is over and its ending message (with Revanche) may never have been shown:
    its send timed out, was refused, or died with its sender."""
    shown: str | None = None
    """The digest of what the table message shows now (``None``: not known)."""


class Ping(IntEnum):
    """Why a hand message was sent anew: Telegram notifies new messages, never edits."""

    ASKED = -1
    """The person asked for their hand (a deep link): it comes anew even off their turn."""
    NONE = 0
    TURN = 1
    """Sent when the person's turn (play, answer, decide) began."""
    WARNING = 2
    """Sent again shortly before their time runs out."""


@dataclass(frozen=True)
class HandMessageInfo:
    """The private message that shows one seat's hand."""

    chat_id: int
    message_id: int
    hand_number: int
    digest: str
    ping: Ping = Ping.NONE
    """How this message was last sent or edited: at a turn's start, as a warning, or neither."""


@dataclass(frozen=True)
class HandsDrawing:
    """Everything the private hand messages of a table need."""

    table: Table
    people: dict[int, PlayerInfo]
    """Seated people by seat."""
    messages: dict[int, HandMessageInfo]
    """Their current hand messages by seat."""
    ended: dict[int, HandSummary]
    """How finished hands ended, by hand number."""
    cancelled_by: str | None = None
    """Who cancelled the table, when it was cancelled."""
    in_app: frozenset[int] = frozenset()
    """Who has the table open in the Mini App (read only when asked: ``hands_drawing``)."""
