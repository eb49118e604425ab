"""A table's rows and its values: options as JSON, seats, the game row, versioned saves
and events. Every module of the package (and ``messages``) reads and writes through these."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Collection, Sequence
from typing import Any, Protocol, TypeVar

from sqlalchemy import bindparam, delete
from sqlalchemy import select as core_select
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

from bot.domain.models import Event, Game, SeatRow, utcnow
from bot.domain.values.commands import Source
from bot.domain.values.errors import Reason, Refused, Stale
from bot.domain.values.game import (
    ACTIVE,
    GameStatus,
    HandSummary,
    Occupant,
    RobotLevel,
    Table,
    TimeoutNote,
)
from engine import Match, TableOptions
from engine.sinais import DEFAULT_CATCH_PERCENT

T = TypeVar("T")


def dump_options(o: TableOptions) -> str:
    """JSON for ``games.options``."""
    return json.dumps(
        {
            "players": o.players,
            "target": o.target,
            "covered_cards": o.covered_cards,
            "ladder": list(o.ladder) if o.ladder else None,
            "timer": o.timer,
            "sinais": o.sinais,
            "catch_percent": o.catch_percent,
            "flor": o.flor,
        }
    )


def load_options(text: str) -> TableOptions:
    """The table options stored in ``games.options`` (tables from before sinais or flor:
    the defaults)."""
    o = json.loads(text)
    ladder = tuple(o["ladder"]) if o.get("ladder") else None
    return TableOptions(
        o["players"],
        o["target"],
        o["covered_cards"],
        ladder,
        o["timer"],
        sinais=bool(o.get("sinais", True)),
        catch_percent=int(o.get("catch_percent", DEFAULT_CATCH_PERCENT)),
        flor=bool(o.get("flor", True)),
    )


_SEATS = select(SeatRow.seat, SeatRow.name, SeatRow.user_id, SeatRow.robot).where(
    col(SeatRow.game_id) == bindparam("game")
)
"""A game's seats as plain columns: every action and redraw reads them, and loading them
as ORM objects (identity map, instance state) cost more than the query."""


def read_seats(s: Session, game: GameRow, players: int | None = None) -> list[Occupant | None]:
    """The table's seats (``players`` of them: by default as many as its stored options say)."""
    if players is None:
        players = load_options(game.options).players
    seats: list[Occupant | None] = [None] * players
    for seat, name, user_id, level in s.execute(_SEATS, {"game": game.id}):
        robot = RobotLevel(level) if level else None
        seats[seat] = Occupant(name=name, user=user_id, robot=robot)
    return seats


def store_seats(s: Session, game_id: int, seats: Sequence[Occupant | None]) -> None:
    s.execute(delete(SeatRow).where(col(SeatRow.game_id) == game_id))
    for i, x in enumerate(seats):
        if x is not None:
            s.add(SeatRow(game_id=game_id, seat=i, user_id=x.user, robot=x.robot, name=x.name))


class GameRow(Protocol):
    """What a table is read from: a ``Game`` object, or a plain row of ``games``."""

    @property
    def id(self) -> int | None: ...
    @property
    def chat_id(self) -> int: ...
    @property
    def thread_id(self) -> int | None: ...
    @property
    def private(self) -> bool: ...
    @property
    def creator_id(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def options(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def deadline_at(self) -> float | None: ...
    @property
    def note(self) -> str | None: ...
    @property
    def table_message_id(self) -> int | None: ...
    @property
    def snapshot(self) -> str | None: ...
    @property
    def table_after(self) -> int: ...
    @property
    def table_digest(self) -> str | None: ...
    @property
    def rematch_of(self) -> int | None: ...


_GAME_ROW = core_select(Game.__table__).where(  # type: ignore[attr-defined]
    Game.__table__.c.id == bindparam("id")  # type: ignore[attr-defined]
)


def game_row(s: Session, game_id: int) -> GameRow | None:
    """A game as plain columns, for reading only (drawings, a robot's look).

    Every redraw and robot turn reads its game; loading it as an ORM object
    (``Session.get``: identity map, instance state) cost more CPU than the query.
    Changes load the ``Game`` object, which their versioned ``UPDATE`` keeps current.
    """
    row: GameRow | None = s.execute(_GAME_ROW, {"id": game_id}).first()
    return row


def game_for_change(s: Session, game_id: int, gone: Collection[GameStatus] = ()) -> Game:
    """The game a change is made to; ``Refused(NO_GAME)`` when there is none, or when it is
    in one of the ``gone`` statuses (the one place a missing table is refused)."""
    game = s.get(Game, game_id)
    if game is None or game.status in gone:
        raise Refused(Reason.NO_GAME)
    return game


MOVES = frozenset(str(source) for source in Source)
"""The events of a seat's move, by where it came from (a robot's: ``Source.ROBOT``)."""


def stand_in_moves(s: Session, game_id: int, seats: Sequence[int]) -> dict[int, tuple[bool, ...]]:
    """For each of ``seats`` (played by a robot for their person): whether each of its moves
    in the hand being played, in order, was the robot's. Read only while a robot stands in
    for someone: the events since the hand's deal."""
    q = (
        select(Event.kind, Event.seat)
        .where(Event.game_id == game_id, col(Event.kind).in_([*MOVES, "deal"]))
        .order_by(col(Event.version), col(Event.id))
    )
    moves: dict[int, list[bool]] = {seat: [] for seat in seats}
    for kind, seat in s.exec(q):
        if kind == "deal":  # a new hand: only the moves of the one being played count
            moves = {seat: [] for seat in seats}
        elif seat in moves:
            moves[seat].append(kind == Source.ROBOT)
    return {seat: tuple(made) for seat, made in moves.items()}


def row_to_table(s: Session, game: GameRow) -> Table:
    """The ``Table`` value of a game row (its seats read in the same session)."""
    seats = read_seats(s, game, load_options(game.options).players)
    return table_of(game, seats, seat_moves(s, game, seats))


def seat_moves(
    s: Session, game: GameRow, seats: Sequence[Occupant | None]
) -> dict[int, tuple[bool, ...]]:
    """``stand_in_moves`` of the seats a robot plays for their person (read only then)."""
    standing_in = [i for i, x in enumerate(seats) if x and x.robot and x.user is not None]
    return stand_in_moves(s, game.id or 0, standing_in) if standing_in and game.snapshot else {}


def table_of(
    game: GameRow, seats: Sequence[Occupant | None], moves: dict[int, tuple[bool, ...]]
) -> Table:
    """The ``Table`` value of a game row, its seats and its stand-ins' moves."""
    return Table(
        id=game.id or 0,
        chat_id=game.chat_id,
        thread_id=game.thread_id,
        private=game.private,
        creator_id=game.creator_id,
        status=GameStatus(game.status),
        variant=game.variant,
        options=load_options(game.options),
        seats=tuple(seats),
        version=game.version,
        seed=game.seed,
        deadline_at=game.deadline_at,
        note=TimeoutNote.from_json(game.note) if game.note else None,
        table_message_id=game.table_message_id,
        snapshot=game.snapshot,
        stand_in_moves=moves,
    )


_EVENTS = Event.__table__  # type: ignore[attr-defined]
HAND_OVERS = (
    core_select(_EVENTS.c.data)
    .where(_EVENTS.c.game_id == bindparam("game"), _EVENTS.c.kind == "hand_over")
    .order_by(_EVENTS.c.id)
)
"""The stored closings of a game's hands, oldest first."""


def hand_overs_in(s: Session, game_id: int) -> list[HandSummary]:
    """How each ended hand of a game closed, in the caller's session (tables and pages)."""
    rows = s.execute(HAND_OVERS, {"game": game_id}).scalars()
    return [HandSummary.from_json(json.loads(data)) for data in rows]


def stored_match(game: Game) -> Match:
    if game.snapshot is None:
        raise Refused(Reason.NOT_STARTED)
    return Match.from_json(json.loads(game.snapshot))


def record_event(
    s: Session,
    game: Game,
    version: int,
    kind: str,
    seat: int | None = None,
    user_id: int | None = None,
    **data: Any,
) -> None:
    s.add(
        Event(
            game_id=game.id or 0,
            version=version,
            kind=kind,
            seat=seat,
            user_id=user_id,
            data=json.dumps(data, ensure_ascii=False),
        )
    )


@functools.cache
def _versioned_update(columns: frozenset[str]) -> Any:
    """``UPDATE games SET ... WHERE id = :_id AND version = :_expected`` for these columns,
    built once per set of them, on the table itself: the ORM's bulk UPDATE (looking for
    objects to synchronise, its compile state) cost more CPU than the statement. The row
    object is brought up to date by ``_save``, as stored."""
    games = Game.__table__.c  # type: ignore[attr-defined]
    return (
        Game.__table__.update()  # type: ignore[attr-defined]
        .where(games.id == bindparam("_id"), games.version == bindparam("_expected"))
        .values({k: bindparam(f"v_{k}") for k in sorted(columns)})
    )


def save(s: Session, game: Game, expected: int, **values: Any) -> int:
    """Store a change if the game is still at ``expected``; raise ``Stale`` otherwise."""
    values["version"] = expected + 1
    values["updated_at"] = utcnow()
    params = {f"v_{k}": v for k, v in values.items()}
    params.update(_id=game.id, _expected=expected)
    if s.execute(_versioned_update(frozenset(values)), params).rowcount != 1:  # type: ignore[attr-defined]
        s.rollback()
        raise Stale()
    for k, v in values.items():
        set_committed_value(game, k, v)
    return expected + 1


RACE_TRIES = 5
"""Times a change that holds for the table as it is (``raced``) is tried before giving up."""


def raced(change: Callable[[], T]) -> T:
    """``change()``, run again from a fresh read when another change was stored between its
    read and its write (``Stale``). For the changes that hold for the table as it is when
    they are made — a lobby's Entrar, + Robô, Começar —, unlike a move, which was chosen
    for the version its person saw. ``change`` commits in one transaction or raises before
    its commit, so a retry never applies anything twice."""
    for _ in range(RACE_TRIES - 1):
        try:
            return change()
        except Stale as stale:
            if stale.reason != Reason.STALE:
                raise
    return change()


def active_game(s: Session, chat_id: int, thread_id: int | None) -> Game | None:
    q = select(Game).where(Game.chat_id == chat_id, col(Game.status).in_(ACTIVE))
    q = (
        q.where(Game.thread_id == thread_id)
        if thread_id
        else q.where(col(Game.thread_id).is_(None))
    )
    return s.exec(q.order_by(col(Game.id).desc())).first()
