"""``/marcador`` on the database: a group's marcador for a match played with a real deck.

The score itself is ``engine.marcador.Marcador`` (the variant's values, the warnings, the
target); a row keeps it as JSON with who pressed each hand. A press is a change to the newest
score, never to the one a stale message showed: two people pressing at once both count, in
the order the database took them. Each press reads the row and writes it back only if its
version did not move meanwhile (else it reads again), so this holds across processes on one
PostgreSQL as well as on SQLite.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import update
from sqlmodel import col

from bot.domain.models import MarcadorRow, utcnow
from bot.domain.store import Database, raise_to
from bot.domain.values.errors import Reason, Refused
from bot.domain.values.people import Person
from engine.marcador import Marcador

MAX_TRIES = 20
"""Writes raced by others before a press gives up (each retry reads the newer score)."""


@dataclass(frozen=True)
class Press:
    """A team took a hand worth ``points``, or (``kind`` ``envido``, gaudério) won an envido
    worth it."""

    team: int
    points: int
    kind: str = "mao"


@dataclass(frozen=True)
class Undo:
    """Take back the last hand marked."""


@dataclass(frozen=True)
class NewMatch:
    """Start again from zero, same table and names."""


Command = Press | Undo | NewMatch


@dataclass(frozen=True)
class GroupMarcador:
    """A marcador posted in a group, as the adapter draws it: the engine's ``Marcador`` plus
    where its message is, who pressed each hand and which version the message shows (named
    for the group because that is what it adds to the engine's value)."""

    id: int
    chat_id: int
    thread_id: int | None
    message_id: int | None
    marcador: Marcador
    pressed_by: tuple[str, ...]
    """The name of whoever marked each hand of ``marcador.hands``."""
    version: int
    drawn: int


def _from_row(row: MarcadorRow) -> GroupMarcador:
    marcador = Marcador.from_json(json.loads(row.marcador))
    return GroupMarcador(
        id=row.id or 0,
        chat_id=row.chat_id,
        thread_id=row.thread_id,
        message_id=row.message_id,
        marcador=marcador,
        pressed_by=tuple(str(p[1]) for p in json.loads(row.presses)),
        version=row.version,
        drawn=row.drawn,
    )


def open_marcador(
    db: Database, chat_id: int, thread_id: int | None, person: Person, marcador: Marcador
) -> GroupMarcador:
    """A new marcador in a chat (its message is sent by the adapter, then ``set_message``)."""
    with db.session() as s:
        row = MarcadorRow(
            chat_id=chat_id,
            thread_id=thread_id,
            marcador=json.dumps(marcador.to_json()),
            presses="[]",
            created_by=person.id,
        )
        s.add(row)
        s.commit()
        s.refresh(row)
        return _from_row(row)


def load(db: Database, marcador_id: int) -> GroupMarcador | None:
    """A marcador, if it exists."""
    with db.session() as s:
        row = s.get(MarcadorRow, marcador_id)
        return _from_row(row) if row is not None else None


def set_message(db: Database, marcador_id: int, message_id: int) -> None:
    """Remember the message that shows a marcador."""
    with db.session() as s:
        row = s.get(MarcadorRow, marcador_id)
        if row is not None:
            row.message_id = message_id
            s.add(row)
            s.commit()


def mark_drawn(db: Database, marcador_id: int, version: int) -> None:
    """The message now shows ``version`` (a newer drawn version is kept)."""
    with db.session() as s:
        raise_to(s, MarcadorRow.drawn, marcador_id, version)
        s.commit()


def _apply(marcador: Marcador, presses: list[Any], person: Person, cmd: Command) -> Marcador:
    if isinstance(cmd, Press):
        if marcador.winner is not None:
            raise Refused(Reason.MARCADOR_OVER)
        try:
            marcador = marcador.add(cmd.team, cmd.points, cmd.kind)
        except ValueError:
            raise Refused(Reason.BAD_VALUE) from None
        presses.append([person.id, person.name])
    elif isinstance(cmd, Undo):
        if not marcador.hands:
            raise Refused(Reason.NOTHING_TO_UNDO)
        marcador = marcador.undo()
        presses.pop()
    else:
        marcador = marcador.restarted()
        presses.clear()
    return marcador


def press(db: Database, marcador_id: int, person: Person, cmd: Command) -> GroupMarcador:
    """Apply one press to the newest score; ``Refused`` when it changes nothing."""
    for _ in range(MAX_TRIES):
        with db.session() as s:
            row = s.get(MarcadorRow, marcador_id)
            if row is None:
                raise Refused(Reason.NO_MARCADOR)
            presses = json.loads(row.presses)
            marcador = _apply(Marcador.from_json(json.loads(row.marcador)), presses, person, cmd)
            done = s.execute(
                update(MarcadorRow)
                .where(col(MarcadorRow.id) == marcador_id, col(MarcadorRow.version) == row.version)
                .values(
                    marcador=json.dumps(marcador.to_json()),
                    presses=json.dumps(presses),
                    version=row.version + 1,
                    updated_at=utcnow(),
                )
            )
            if done.rowcount == 1:  # type: ignore[attr-defined]
                s.commit()
                fresh = s.get(MarcadorRow, marcador_id, populate_existing=True)
                assert fresh is not None
                return _from_row(fresh)
            s.rollback()  # someone pressed meanwhile: read their score and apply on top
    raise Refused(Reason.BUSY)
