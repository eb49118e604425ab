"""A game's values: its status, who sits where, the ``Table`` read from its rows, the
``Change`` a stored move makes, what was said and how hands and matches ended, its event log."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

from bot.domain.values.errors import Reason, Refused
from engine import Match, TableOptions, View, levels
from engine.actions import Action
from engine.cards import Card


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


@dataclass(frozen=True)
class Occupant:
    """Who sits in a seat: a person (``user``) or a robot (``robot`` level)."""

    name: str
    user: int | None = None
    robot: RobotLevel | None = None


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
class EnvidoSummary:
    """A settled envido as everybody may know it once the hand is over (R13.3): the
    winning team, what it scored and, when accepted, its points and the cards proving
    them; the losing team's points never."""

    team: int
    worth: int
    seat: int | None = None
    """Accepted: the seat holding the winning points; declined: ``None``."""
    points: int | None = None
    proof: tuple[Card, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The stored form (part of a ``hand_over`` event)."""
        return {
            "team": self.team,
            "worth": self.worth,
            "seat": self.seat,
            "points": self.points,
            "proof": [c.code for c in self.proof],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> EnvidoSummary:
        """Read the stored form."""
        return cls(
            d["team"],
            d["worth"],
            d.get("seat"),
            d.get("points"),
            tuple(map(Card.parse, d["proof"])),
        )


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
    envido: EnvidoSummary | None = None
    """Gaudério: how the hand's envido ended, if one was settled (R13.3)."""
    flor: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    """Gaudério: the flors sung, as (seat, its cards), shown once the hand is over."""
    extra: tuple[int, int] = (0, 0)
    """Of ``points``, what each team scored by envido and flor (the rest is the hand's)."""
    ran11: bool = False
    """The team ran from the mão de onze/dez: a decision the group hears as it does a call."""

    def to_json(self) -> dict[str, Any]:
        """The stored form (a ``hand_over`` event)."""
        return {
            "ran11": self.ran11,
            "envido": self.envido.to_json() if self.envido is not None else None,
            "flor": [[s, [c.code for c in cards]] for s, cards in self.flor],
            "extra": list(self.extra),
            "hand": self.hand,
            "winner": self.winner,
            "points": list(self.points),
            "score": list(self.score),
            "stake": self.stake,
            "ran": self.ran,
            "iron": self.iron,
            "rounds": list(self.rounds),
            "last": [[s, c.code if c is not None else None] for s, c in self.last],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> HandSummary:
        """Read the stored form (hands from before gaudério: no envido, no flor)."""
        extra = d.get("extra") or (0, 0)
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
            envido=EnvidoSummary.from_json(d["envido"]) if d.get("envido") else None,
            flor=tuple((s, tuple(map(Card.parse, cards))) for s, cards in d.get("flor", ())),
            extra=(extra[0], extra[1]),
            ran11=d.get("ran11", False),
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
    ENVIDO = "envido"
    """Gaudério: an envido call or raise (``step``: 0 envido, 1 real, 2 falta; ``value``:
    what it is worth if accepted)."""
    QUERO = "quero"
    """The envido accepted (``value``: its worth); the showdown follows."""
    NAO_QUERO = "nao-quero"
    """The envido declined (``value``: what the callers score; ``None`` while a partner
    still answers)."""
    ENVIDO_WON = "envido-won"
    """The showdown: ``seat`` holds the winning ``points``, its team scores ``value``; the
    losing team's points are never said (R13.3)."""
    FLOR = "flor"
    """The engine sang ``seat``'s flor (R13.4)."""


@dataclass(frozen=True)
class Said:
    """One seat's call, answer or decision, as the group is told it."""

    hand: int
    seat: int
    saying: Saying
    step: int | None = None
    value: int | None = None
    points: int | None = None
    """The showdown's winning envido points (``Saying.ENVIDO_WON``)."""
    maker: Occupant | None = None
    """Who sat in ``seat`` when it was said (``None`` in lines stored before it was kept):
    the line names them even once the seat has changed hands (a robot took a person's
    seat, or the person came back) before the group heard it."""

    def to_json(self) -> dict[str, Any]:
        """The stored form (an outbox payload)."""
        data: dict[str, Any] = {
            "hand": self.hand,
            "seat": self.seat,
            "saying": self.saying.value,
            "step": self.step,
            "value": self.value,
            "points": self.points,
        }
        if self.maker is not None:
            x = self.maker
            data["maker"] = {"name": x.name, "user": x.user, "robot": x.robot}
        return data

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Said:
        """Read the stored form."""
        x = d.get("maker")
        maker = None
        if x is not None:
            robot = RobotLevel(x["robot"]) if x.get("robot") else None
            maker = Occupant(x["name"], x.get("user"), robot)
        return cls(
            d["hand"],
            d["seat"],
            Saying(d["saying"]),
            d.get("step"),
            d.get("value"),
            d.get("points"),
            maker,
        )


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
    stand_in_moves: Mapping[int, tuple[bool, ...]] = field(default_factory=dict, hash=False)
    """For each seat a robot plays for its person: whether each of the seat's moves in the
    hand being played, in order, was the robot's (the others were the person's, before the
    robot took the seat), so that each past move keeps the name of who made it."""

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
    page: tuple[Table, tuple[HandSummary, ...]] | None = field(
        default=None, compare=False, repr=False
    )
    """The table as committed and how its hands ended, when the change carried them to the
    Mini App's pages (``bot.domain.tables.news``): this process's draw it without a read."""
    timed: bool = field(default=False, compare=False)
    """The jobs it recorded were handed to the process's runner at the commit
    (``Rules.holder``), with when the first of them is due: telling the change need not
    wake the runner (a turn of it that found nothing due yet)."""


@dataclass(frozen=True)
class LoggedEvent:
    """One entry of a game's append-only event log."""

    kind: str
    version: int
    seat: int | None
    user_id: int | None
    data: dict[str, Any]
