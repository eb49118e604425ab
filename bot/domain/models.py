"""Database tables (SQLModel). Every table, seat, deadline and hand message lives here.

Only the domain layer (``bot.domain``) imports these. Schema changes go through
Alembic (``bot/domain/migrations``); a test checks that the migrations and these
models agree.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import BigInteger, Column, ForeignKey, Integer, Text, UniqueConstraint
from sqlmodel import AutoString, Field, SQLModel

from bot.domain.values.game import GameStatus
from bot.domain.values.settings import ChatSettings
from engine.rulesets import DEFAULT_VARIANT


def utcnow() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


class Chat(ChatSettings, table=True):
    """A group or private chat: its table settings (the columns of ``ChatSettings``,
    written there once; ``/truco sem-sinais`` overrides ``sinais``), its kind and title."""

    __tablename__ = "chats"
    # a row is changed in place, its value never (pydantic reads the config once, at class creation)
    model_config = {"frozen": False}  # noqa: RUF012

    id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    kind: str = "group"
    title: str = ""
    created_at: datetime = Field(default_factory=utcnow)


class Player(SQLModel, table=True):
    """A Telegram user who has met the bot."""

    __tablename__ = "players"

    id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    name: str = ""
    username: str | None = None
    language_code: str | None = None
    deck: str = ""
    """``traditional`` (3♣) or ``spanish`` (3 de bastos), R11; "" when never chosen (the
    table's variant decides: ``Ruleset.deck_style``)."""
    started: bool = False
    """Whether the user opened a private chat with the bot (so it may write to them)."""
    tutorial_step: int | None = None
    created_at: datetime = Field(default_factory=utcnow)


class Game(SQLModel, table=True):
    """One table: its lobby, then its match as an engine snapshot with a version number."""

    __tablename__ = "games"

    id: int | None = Field(default=None, primary_key=True)
    chat_id: int = Field(sa_column=Column(BigInteger, nullable=False, index=True))
    thread_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    status: str = Field(default=GameStatus.LOBBY, sa_type=AutoString, index=True)
    """A ``GameStatus`` value."""
    private: bool = False
    """A game against robots in a private chat (no public table)."""
    creator_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    variant: str = DEFAULT_VARIANT
    options: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    """The ``TableOptions`` as JSON."""
    seed: int = Field(default=0, sa_column=Column(BigInteger, nullable=False))
    snapshot: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    """``Match.to_json()`` once the match started."""
    version: int = 0
    """Bumped by every change; a change applies only to the version it was made for."""
    deadline_at: float | None = None
    """Unix time at which the pending decision gets its default action (R10)."""
    table_message_id: int | None = Field(default=None, sa_column=Column(BigInteger))
    table_after: int = Field(
        default=0, sa_column=Column(Integer, nullable=False, server_default="0")
    )
    """Messages posted in the chat since the table message: enough of them bury it."""
    table_digest: str | None = None
    """What the table message shows now (a digest of its text and buttons): a redraw that
    would show the same is not sent."""
    note: str | None = None
    """Public line about the last timeout (JSON), shown on the table during its hand."""
    announced_hands: int = 0
    """Hands whose closing message was already sent."""
    announced_end: bool = False
    rematch_of: int | None = None
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class SeatRow(SQLModel, table=True):
    """Who sits in one seat of a game (free seats have no row)."""

    __tablename__ = "seats"

    game_id: int = Field(
        sa_column=Column(Integer, ForeignKey("games.id"), primary_key=True, autoincrement=False)
    )
    seat: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    user_id: int | None = Field(default=None, sa_column=Column(BigInteger, index=True))
    """The person, or ``None`` for a robot."""
    robot: str | None = None
    """A ``RobotLevel`` value for a robot."""
    name: str = ""


class Event(SQLModel, table=True):
    """Append-only log: every lobby change, action, timeout, hand and match result."""

    __tablename__ = "events"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(index=True)
    version: int
    """The game version this event produced."""
    kind: str
    seat: int | None = None
    user_id: int | None = Field(default=None, sa_column=Column(BigInteger))
    data: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


class HandMessage(SQLModel, table=True):
    """The private message showing one seat's hand, edited as the hand goes.

    In a lobby it is the answer that told the person their seat (``SEATED``): it follows
    them from seat to seat, and goes when they leave or the lobby is cancelled
    (``leave_seat``) or when the first hand's message takes its place.
    """

    __tablename__ = "hand_messages"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(index=True)
    seat: int
    chat_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    message_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    hand_number: int
    digest: str = ""


SEATED = -1
"""The hand number of a seat's message sent in the lobby (the "you are seated" answer)."""


def leave_seat(row: HandMessage) -> None:
    """Set a lobby answer aside to be deleted: its person left the seat, or the lobby was
    cancelled. Its seat becomes its own id, negated: no hand draws a negative seat, and two
    answers set aside from the same seat stay apart."""
    row.seat = -(row.id or 0)


class Result(SQLModel, table=True):
    """One person's result in a finished match (``/ranking``)."""

    __tablename__ = "results"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(index=True)
    chat_id: int = Field(sa_column=Column(BigInteger, nullable=False, index=True))
    user_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    name: str = ""
    team: int
    won: bool
    points_for: int
    points_against: int
    variant: str
    finished_at: datetime = Field(default_factory=utcnow)


class MarcadorRow(SQLModel, table=True):
    """A ``/marcador`` message: the score of a match played with a real deck in a group."""

    # the table's old name kept: renaming a live table is not worth a migration
    __tablename__ = "scoreboards"

    id: int | None = Field(default=None, primary_key=True)
    chat_id: int = Field(sa_column=Column(BigInteger, nullable=False, index=True))
    thread_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    message_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    marcador: str = Field(default="{}", sa_column=Column("placar", Text, nullable=False))
    """``engine.marcador.Marcador.to_json()`` (in the column of its old name, as the table)."""
    presses: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    """Who pressed what, one entry per hand of the marcador: ``[user_id, name]``."""
    version: int = 0
    """Bumped by every press; a press is stored only on the version it read (then retried)."""
    drawn: int = 0
    """The version the message shows."""
    created_by: int = Field(sa_column=Column(BigInteger, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class Job(SQLModel, table=True):
    """A durable job: what must happen next to a table (deadline, robot turn, redraw).

    Written in the transaction of the change that calls for it; any process claims a
    due job for a lease (``FOR UPDATE SKIP LOCKED`` on PostgreSQL), runs it and deletes
    it. ``generation`` grows with every reschedule, so a job rescheduled while it runs
    is run again instead of deleted.
    """

    __tablename__ = "jobs"
    __table_args__ = (UniqueConstraint("kind", "key"),)

    id: int | None = Field(default=None, primary_key=True)
    kind: str
    """A ``JobKind`` value: ``deadline``, ``robot``, ``table`` or ``hands``."""
    key: str
    """Whose: the game id, or ``<chat>:<topic>`` for a chat's table."""
    due_at: float = Field(index=True)
    """Unix time from which the job may run."""
    data: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    generation: int = 0
    attempts: int = 0
    """Failed runs so far (database errors), for the backoff."""
    claimed_by: str | None = None
    claimed_until: float | None = None
    """The claim's lease: past it, another process may take the job."""
    runner: str | None = None
    """The process expected to run it (the one whose change recorded it, or that last gave
    it back): the others take it only once it is overdue (``bot.domain.jobs.ORPHANED``);
    ``None``: anyone."""


class OutboxMessage(SQLModel, table=True):
    """A message a change calls for (a hand's closing, a match's end, a call), sent once.

    Recorded in the transaction of the change; the process drawing the chat's table
    claims it (``sending``), sends it and marks it ``sent``. A claim that outlives its
    lease means the sender died during the call: the row becomes ``uncertain`` and is
    never sent again (at most one copy).
    """

    __tablename__ = "outbox"

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(sa_column=Column(Text, nullable=False, unique=True))
    """What it announces, e.g. ``12:hand:3`` or ``12:end``: recorded once."""
    game_id: int = Field(index=True)
    chat_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    thread_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    kind: str
    """An ``Announcement`` kind: ``hand_over``, ``match_over``..."""
    payload: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    state: str = Field(default="pending", index=True)
    """``pending``, ``sending``, ``sent``, ``uncertain`` or ``failed``."""
    claimed_by: str | None = None
    claimed_until: float | None = None
    message_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    created_at: datetime = Field(default_factory=utcnow)
    sent_at: datetime | None = None


class FloodMark(SQLModel, table=True):
    """One Bot API call counted against a flood budget (a group's minute, the bot's second)."""

    __tablename__ = "flood_marks"

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(index=True)
    at: float


class FloodKey(SQLModel, table=True):
    """One row per budget, locked while a call is counted so processes take turns."""

    __tablename__ = "flood_keys"

    key: str = Field(primary_key=True)


class AppPresence(SQLModel, table=True):
    """A person who has a table open in the Mini App now (refreshed while the page's
    live connection lasts): their private hand message is left alone meanwhile."""

    __tablename__ = "app_presence"

    game_id: int = Field(
        sa_column=Column(Integer, ForeignKey("games.id"), primary_key=True, autoincrement=False)
    )
    user_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    seen_at: float = 0.0
    """Unix time of the connection's last sign of life."""
