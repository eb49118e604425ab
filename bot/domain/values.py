"""The domain's plain values: what the adapter sends in and what it gets back.

Nothing here touches the database or Telegram. Handlers build commands
(``Join``, ``AddRobot``...), the domain answers with ``Change``, ``Table`` and the
other frozen values below; the pictures (``bot.telegram.render``) draw only these.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from functools import cached_property
from typing import Any

from engine import DEFAULT_VARIANT, Match, TableOptions, View, levels
from engine.actions import Action
from engine.cards import Card, DeckStyle
from engine.sinais import Sinal

Clock = Callable[[], float]
"""Unix time now; injected so tests move deadlines without waiting."""


class GameStatus(StrEnum):
    """Where a table is in its life."""

    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"
    CANCELLED = "cancelled"

    @property
    def active(self) -> bool:
        """A lobby or a running match (at most one per chat or forum topic)."""
        return self in (GameStatus.LOBBY, GameStatus.PLAYING)


ACTIVE = (GameStatus.LOBBY, GameStatus.PLAYING)


RobotLevel = StrEnum(  # type: ignore[misc]  # members made from the registry, not spelled
    "RobotLevel", [(name.upper(), name) for name in levels.ROBOT_LEVELS], module=__name__
)
"""How well a robot plays: the levels of ``engine.levels.ROBOT_LEVELS``, typed, in its order
(``RobotLevel.MEDIO == "medio"``); a level added there is a member here."""

DEFAULT_LEVEL = RobotLevel(levels.DEFAULT_LEVEL)
"""The level of the robots that fill empty seats at the start."""


class Reason(StrEnum):
    """Why the domain refused a request (the adapter words it)."""

    STALE = "stale"
    DONE = "done"
    """A repeat of the move just made (a double tap): no alert, a toast is enough."""
    NO_GAME = "no_game"
    NOT_LOBBY = "not_lobby"
    NOT_STARTED = "not_started"
    GAME_OVER = "game_over"
    ALREADY_SEATED = "already_seated"
    TABLE_FULL = "table_full"
    NOT_SEATED = "not_seated"
    NO_ROBOT = "no_robot"
    ONLY_CREATOR = "only_creator"
    MUST_START = "must_start"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL = "illegal"
    BAD_BUTTON = "bad_button"
    TABLE_EXISTS = "table_exists"
    BAD_ARG = "bad_arg"
    BAD_TARGET = "bad_target"
    BAD_NUMBER = "bad_number"
    BAD_LINK = "bad_link"
    NOT_HERE = "not_here"
    ROBOTS_NOT_ALLOWED = "robots_not_allowed"
    ANONYMOUS = "anonymous"
    WRONG_CHAT = "wrong_chat"
    BAD_OPTIONS = "bad_options"
    ADMIN_ONLY = "admin_only"
    NO_SIGNAL = "no_signal"
    LOBBY_REPEAT = "lobby_repeat"
    """A robot button pressed again on the same lobby drawing (a double tap): a toast."""
    TEAM_FULL = "team_full"
    SAME_TEAM = "same_team"
    ANSWERED = "answered"
    """Two answers at once: the partner's came first (params ``seat``, ``action``)."""
    NOT_ABSENT = "not_absent"
    """A vote for a robot in the seat of someone whose time did not run out."""
    REMATCH_PLAYING = "rematch_playing"
    """Revanche on a result whose rematch is being played."""
    NOT_OVER = "not_over"
    """Revanche on a match still in play."""
    REMATCH_GONE = "rematch_gone"
    """Revanche on a result after a newer table was opened in its chat."""
    MARCADOR_ARG = "marcador_arg"
    """A word after /marcador that is none of its options (param ``arg``)."""
    NO_MARCADOR = "no_marcador"
    MARCADOR_OVER = "marcador_over"
    """A hand marked on a marcador whose match is won: Nova partida first."""
    BAD_VALUE = "bad_value"
    """A hand marked at a value the marcador's next hand cannot be worth."""
    NOTHING_TO_UNDO = "nothing_to_undo"
    BUSY = "busy"
    """A marcador pressed by so many at once that the press gave up."""
    UNKNOWN = "unknown"


class Refused(Exception):
    """A request the rules of the table do not allow; ``params`` fill the message."""

    def __init__(self, reason: Reason, **params: Any) -> None:
        """Refuse for ``reason``."""
        super().__init__(reason)
        self.reason = reason
        self.params = params


class Stale(Refused):
    """The button was made for an older version of the game."""

    def __init__(self, reason: Reason = Reason.STALE, **params: Any) -> None:
        """The button's version is gone (``Reason.DONE``: by this very move;
        ``Reason.ANSWERED``: a partner's answer came first, ``params`` say whose)."""
        super().__init__(reason, **params)


# ------------------------------------------------------------------ commands


@dataclass(frozen=True)
class Join:
    """Sit in the first free seat, or (2×2) in a seat of ``team`` (0 or 1), moving there
    from another seat; a robot on that team gives its seat up for a free one."""

    team: int | None = None


@dataclass(frozen=True)
class Leave:
    """Stand up (the last person leaving cancels the lobby)."""


@dataclass(frozen=True)
class AddRobot:
    """Seat a robot of ``level`` in the first free seat."""

    level: RobotLevel


@dataclass(frozen=True)
class RemoveRobot:
    """Take the last seated robot away."""


@dataclass(frozen=True)
class Start:
    """Fill the free seats with robots and deal (creator or admin)."""


@dataclass(frozen=True)
class CancelTable:
    """Close the lobby (creator or admin)."""


LobbyCommand = Join | Leave | AddRobot | RemoveRobot | Start | CancelTable


class Setting(StrEnum):
    """A chat setting ``/config`` cycles through its values."""

    VARIANT = "variant"
    PLAYERS = "players"
    TARGET = "target"
    TIMER = "timer"
    COVERED = "covered"
    LADDER = "ladder"
    SINAIS = "sinais"
    LANGUAGE = "language"
    NOISE = "noise"


class Noise(StrEnum):
    """How much of a match a group hears as new messages (``/config``); the table
    message always follows the game."""

    ALL = "all"
    """Every call, answer, timeout and hand closing."""
    CALLS = "calls"
    """Truco calls (and raises) and the match's end."""
    END = "end"
    """Only the match's end."""


class Source(StrEnum):
    """Where an action came from (kept in the event log)."""

    BUTTON = "button"
    INLINE = "inline"
    ROBOT = "robot"
    TIMEOUT = "timeout"
    APP = "app"
    """The Mini App (a tap on the table's page)."""


# -------------------------------------------------------------------- values


@dataclass(frozen=True)
class Rules:
    """Bot-wide knobs that change how a table runs (from ``Config``), and the clock."""

    decision_seconds: float | None = None
    seed: int | None = None
    clock: Clock = time.time
    robot_delay: float = 1.0
    """Seconds a robot "thinks" before its turn is played."""
    warning_seconds: float | None = None
    """A person still to act this long before their deadline is warned (a hands redraw)."""


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


TABLE_DEFAULTS = TableOptions()
"""The table options a new chat starts with: the engine's own defaults (R2)."""


@dataclass(frozen=True)
class ChatSettings:
    """A chat's table defaults (``/config``)."""

    id: int
    variant: str = DEFAULT_VARIANT
    players: int = 0
    """2 or 4; 0: by the group's size (2×2 with four people or more)."""
    target: int = TABLE_DEFAULTS.target
    timer: int = TABLE_DEFAULTS.timer
    covered_cards: bool = TABLE_DEFAULTS.covered_cards
    ladder: str | None = None
    """Mineiro house ladder such as ``4-6-10-12``; ``None`` is the variant's."""
    language: str | None = None
    """``None`` means Portuguese."""
    sinais: bool = TABLE_DEFAULTS.sinais
    """Whether 2×2 tables play with sinais (R12)."""
    noise: str = Noise.ALL.value
    """How much of a match the group hears as new messages (a ``Noise``)."""


@dataclass(frozen=True)
class Occupant:
    """Who sits in a seat: a person (``user``) or a robot (``robot`` level)."""

    name: str
    user: int | None = None
    robot: RobotLevel | None = None


@dataclass(frozen=True)
class TableRequest:
    """What ``/truco`` asked for, after parsing its arguments."""

    variant: str
    options: TableOptions


@dataclass(frozen=True)
class TimeoutNote:
    """Who ran out of time in a hand and what was played for them (R10)."""

    hand: int
    items: tuple[tuple[int, Action], ...]
    version: int = 0
    """The game version the timeout produced (0 in notes stored before it was kept)."""
    strikes: tuple[int, ...] = ()
    """Seats of people whose last decision was their timeout: their clock is shorter, and
    one more timeout gives their seat to a robot until they come back."""
    away: tuple[int, ...] = ()
    """Seats this timeout gave to a robot (their second in a row): said once."""

    def to_json(self) -> str:
        """The stored form."""
        items = [[s, str(a)] for s, a in self.items]
        data: dict[str, Any] = {"hand": self.hand, "items": items, "version": self.version}
        if self.strikes:
            data["strikes"] = list(self.strikes)
        if self.away:
            data["away"] = list(self.away)
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str) -> TimeoutNote:
        """Read the stored form."""
        data = json.loads(text)
        items = tuple((s, Action.parse(a)) for s, a in data["items"])
        strikes = tuple(data.get("strikes", ()))
        away = tuple(data.get("away", ()))
        return cls(data["hand"], items, data.get("version", 0), strikes, away)


@dataclass(frozen=True)
class HandSummary:
    """Public facts of a finished hand (no covered card is named)."""

    hand: int
    winner: int | None
    points: tuple[int, int]
    score: tuple[int, int]
    stake: int
    ran: bool
    iron: bool
    rounds: tuple[int | None, ...]
    last: tuple[tuple[int, Card | None], ...]
    """The last round's plays; ``None`` for a covered card."""

    def to_json(self) -> dict[str, Any]:
        """The stored form (a ``hand_over`` event)."""
        return {
            "hand": self.hand,
            "winner": self.winner,
            "points": list(self.points),
            "score": list(self.score),
            "stake": self.stake,
            "ran": self.ran,
            "iron": self.iron,
            "rounds": list(self.rounds),
            "last": [[s, c.code if c else None] for s, c in self.last],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> HandSummary:
        """Read the stored form."""
        return cls(
            hand=d["hand"],
            winner=d["winner"],
            points=(d["points"][0], d["points"][1]),
            score=(d["score"][0], d["score"][1]),
            stake=d["stake"],
            ran=d.get("ran", False),
            iron=d.get("iron", False),
            rounds=tuple(d.get("rounds", ())),
            last=tuple((s, Card.parse(c) if c else None) for s, c in d.get("last", ())),
        )


class Saying(StrEnum):
    """What a seat said aloud at the table (the group hears it as a new message)."""

    CALL = "call"
    """Truco, or a raise answering a call (``step``: the call made)."""
    ACCEPT = "accept"
    """Desce! (``step`` accepted, worth ``value``)."""
    RUN = "run"
    """Corro, while a partner still answers (a team's run that ends the hand is its closing)."""
    PLAY11 = "play11"
    """The team plays the mão de onze/dez."""
    RUN11 = "run11"
    """Would run from the mão de onze/dez, while a partner still decides."""


@dataclass(frozen=True)
class Said:
    """One seat's call, answer or decision, as the group is told it."""

    hand: int
    seat: int
    saying: Saying
    step: int | None = None
    value: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The stored form (an outbox payload)."""
        return {
            "hand": self.hand,
            "seat": self.seat,
            "saying": self.saying.value,
            "step": self.step,
            "value": self.value,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Said:
        """Read the stored form."""
        return cls(d["hand"], d["seat"], Saying(d["saying"]), d.get("step"), d.get("value"))


@dataclass(frozen=True)
class MatchEnd:
    """How a match ended."""

    winner: int
    score: tuple[int, int]


@dataclass(frozen=True)
class Table:
    """One table as the adapter sees it: its settings, seats and state, no database row."""

    id: int
    chat_id: int
    thread_id: int | None
    private: bool
    creator_id: int
    status: GameStatus
    variant: str
    options: TableOptions
    seats: tuple[Occupant | None, ...]
    version: int
    seed: int
    deadline_at: float | None
    note: TimeoutNote | None
    table_message_id: int | None
    snapshot: str | None = field(default=None, repr=False)

    def match(self) -> Match:
        """A fresh engine match from the stored snapshot (``Refused`` before the start)."""
        if self.snapshot is None:
            raise Refused(Reason.NOT_STARTED)
        return Match.from_json(json.loads(self.snapshot))

    @cached_property
    def shown(self) -> Match:
        """The stored match, rebuilt once per ``Table`` for reading only (views, whose turn
        it is): a table drawing asked for a view per seat and per announcement, each one
        parsing the snapshot and replaying the hand again. Never apply an action to it;
        ``match()`` gives a match to change."""
        return self.match()

    def view(self, seat: int) -> View:
        """What ``seat`` may see of the match."""
        return self.shown.view(seat)

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a person, if seated."""
        return seat_of(self.seats, user_id)

    @property
    def started(self) -> bool:
        """Whether the match was dealt."""
        return self.snapshot is not None


def seat_of(seats: Sequence[Occupant | None], user_id: int) -> int | None:
    """The seat of a person in ``seats``, if seated."""
    for i, s in enumerate(seats):
        if s is not None and s.user == user_id:
            return i
    return None


@dataclass(frozen=True)
class SignalNews:
    """A signal just made (R12), for the private pings: who made it and who learns it.

    Holds the signal's content: it goes only to ``receivers``' private chats, never
    to a group or a log line.
    """

    seat: int
    name: str
    """The signaller's name at the table."""
    sinal: Sinal
    receivers: tuple[tuple[int, bool], ...]
    """(user id, caught) of each person told: the partner (False) and catchers (True)."""


@dataclass(frozen=True)
class Change:
    """What a stored change means for the messages and the timers."""

    game_id: int
    chat_id: int
    thread_id: int | None
    private: bool
    status: GameStatus
    version: int
    deadline_at: float | None = None
    robot_seat: int | None = None
    """A robot that must act now."""
    robot_level: RobotLevel | None = None
    signal: SignalNews | None = None
    """Set when the change was a signal: whom to ping privately."""


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
    waiting: tuple[str, ...] = ()
    """A Revanche lobby's people who have not confirmed yet."""
    noise: str = Noise.ALL.value
    """How much of the match the chat hears as new messages (a ``Noise``)."""
    last_hand: HandSummary | None = None
    """How the previous hand ended, when the chat hears less than everything: the table
    message says it instead of a message of its own."""
    """A cancelled table: the name of who cancelled it (``None``: the last person left)."""
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


@dataclass(frozen=True)
class RankingRow:
    """One line of ``/ranking``."""

    name: str
    wins: int
    played: int


@dataclass(frozen=True)
class LoggedEvent:
    """One entry of a game's append-only event log."""

    kind: str
    version: int
    seat: int | None
    user_id: int | None
    data: dict[str, Any]
