"""Absent seats: a robot takes a seat after two timeouts or by the table's vote, and the
person takes it back (🙋 Voltei, or any move)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from sqlmodel import Session, select

from bot.domain.models import Event, Game
from bot.domain.store import Database
from bot.domain.tables.changes import commit, deadline_for
from bot.domain.tables.rows import (
    game_for_change,
    read_seats,
    record_event,
    save,
    store_seats,
    stored_match,
)
from bot.domain.values.errors import Reason, Refused
from bot.domain.values.game import (
    DEFAULT_LEVEL,
    Change,
    GameStatus,
    Occupant,
    RobotLevel,
    TimeoutNote,
    seat_of,
)
from bot.domain.values.settings import Rules


def robot_level(seats: Sequence[Occupant | None]) -> RobotLevel:
    """The table's robot level: its robots', else the default."""
    return next(
        (x.robot for x in seats if x is not None and x.robot and x.user is None), DEFAULT_LEVEL
    )


def person_acted(
    s: Session, game: Game, seats: list[Occupant | None], seat: int, user_id: int
) -> TimeoutNote | None:
    """A person acted: a robot playing for them hands the seat back, and their strike (a
    timeout last time) is forgiven. Returns the note to store, if it changed."""
    x = seats[seat]
    if x is not None and x.robot and x.user == user_id:
        seats[seat] = replace(x, robot=None)
        store_seats(s, game.id or 0, seats)
        record_event(s, game, game.version + 1, "back", seat, user_id)
    note = TimeoutNote.from_json(game.note) if game.note else None
    if note is None or seat not in note.strikes:
        return None
    return replace(note, strikes=tuple(x for x in note.strikes if x != seat))


def _playing(s: Session, game_id: int) -> Game:
    """The game, being played (else refused: gone, or over)."""
    game = game_for_change(s, game_id)
    if game.status != GameStatus.PLAYING:
        raise Refused(Reason.GAME_OVER)
    return game


def come_back(db: Database, game_id: int, user_id: int, rules: Rules) -> Change:
    """A person whose seat a robot plays (two timeouts in a row) takes it back."""
    with db.session() as s:
        game = _playing(s, game_id)
        seats = read_seats(s, game)
        seat = seat_of(seats, user_id)
        x = seats[seat] if seat is not None else None
        if seat is None or x is None:
            raise Refused(Reason.NOT_SEATED)
        if not x.robot:
            raise Refused(Reason.DONE)
        expected = game.version
        note = person_acted(s, game, seats, seat, user_id)
        m = stored_match(game)
        values: dict[str, Any] = {"note": note.to_json()} if note is not None else {}
        strikes = note.strikes if note is not None else ()
        save(s, game, expected, deadline_at=deadline_for(m, rules, strikes), **values)
        return commit(s, game, m, seats, rules)


def vote_robot(
    db: Database, game_id: int, voter: int, seat: int, rules: Rules
) -> tuple[Change, int]:
    """A seated person votes to give an absent person's seat (a timeout last time) to a
    robot; with the votes of half the table's other people (rounded up) it is done, until
    the person presses a move or 🙋 Voltei. Returns the change and the votes still missing.
    """
    with db.session() as s:
        game = _playing(s, game_id)
        seats = read_seats(s, game)
        mine = seat_of(seats, voter)
        if mine is None:
            raise Refused(Reason.NOT_SEATED)
        x = seats[seat] if 0 <= seat < len(seats) else None
        note = TimeoutNote.from_json(game.note) if game.note else None
        if x is None or x.user is None or x.robot or mine == seat:
            raise Refused(Reason.BAD_BUTTON)
        if note is None or seat not in note.strikes:
            raise Refused(Reason.NOT_ABSENT)
        expected = game.version
        q = select(Event).where(
            Event.game_id == game_id, Event.kind == "vote", Event.version > note.version
        )
        voters = {e.user_id for e in s.exec(q) if e.seat == seat} | {voter}
        others = [y for i, y in enumerate(seats) if y and y.user and not y.robot and i != seat]
        needed = (len(others) + 1) // 2
        record_event(s, game, expected + 1, "vote", seat, voter)
        values: dict[str, Any] = {}
        if len(voters) >= needed:
            seats[seat] = replace(x, robot=robot_level(seats))
            store_seats(s, game_id, seats)
            strikes = tuple(i for i in note.strikes if i != seat)
            values["note"] = replace(note, strikes=strikes).to_json()
            record_event(s, game, expected + 1, "away", seat, x.user, voted=True)
        save(s, game, expected, **values)
        return commit(s, game, stored_match(game), seats, rules), max(0, needed - len(voters))
