"""``/marcador`` on the database: a group's scoreboard for a match played with a real deck.

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

from bot.domain.models import Scoreboard, utcnow
from bot.domain.store import Database
from bot.domain.values import Person
from engine.marcador import Marcador

MAX_TRIES = 20
"""Writes raced by others before a press gives up (each retry reads the newer score)."""


@dataclass(frozen=True)
class Press:
    """A team took a hand worth ``points``."""

    team: int
    points: int


@dataclass(frozen=True)
class Undo:
    """Take back the last hand marked."""


@dataclass(frozen=True)
class NewMatch:
    """Start again from zero, same table and names."""


Command = Press | Undo | NewMatch


@dataclass(frozen=True)
class Board:
    """A scoreboard as the adapter draws it."""

    id: int
    chat_id: int
    thread_id: int | None
    message_id: int | None
    placar: Marcador
    pressed_by: tuple[str, ...]
    """The name of whoever marked each hand of ``placar.hands``."""
    version: int
    drawn: int


class BoardRefused(ValueError):
    """A press that changes nothing: ``reason`` is ``no_board``, ``over`` or ``value``."""

    def __init__(self, reason: str, detail: str = "") -> None:
        """A refusal with its reason code (the adapter words it)."""
        super().__init__(detail or reason)
        self.reason = reason


def _board(row: Scoreboard) -> Board:
    placar = Marcador.from_json(json.loads(row.placar))
    return Board(
        id=row.id or 0,
        chat_id=row.chat_id,
        thread_id=row.thread_id,
        message_id=row.message_id,
        placar=placar,
        pressed_by=tuple(str(p[1]) for p in json.loads(row.presses)),
        version=row.version,
        drawn=row.drawn,
    )


def open_board(
    db: Database, chat_id: int, thread_id: int | None, person: Person, placar: Marcador
) -> Board:
    """A new scoreboard in a chat (its message is sent by the adapter, then ``set_message``)."""
    with db.session() as s:
        row = Scoreboard(
            chat_id=chat_id,
            thread_id=thread_id,
            placar=json.dumps(placar.to_json()),
            presses="[]",
            created_by=person.id,
        )
        s.add(row)
        s.commit()
        s.refresh(row)
        return _board(row)


def load(db: Database, board_id: int) -> Board | None:
    """A scoreboard, if it exists."""
    with db.session() as s:
        row = s.get(Scoreboard, board_id)
        return _board(row) if row is not None else None


def set_message(db: Database, board_id: int, message_id: int) -> None:
    """Remember the message that shows a scoreboard."""
    with db.session() as s:
        row = s.get(Scoreboard, board_id)
        if row is not None:
            row.message_id = message_id
            s.add(row)
            s.commit()


def mark_drawn(db: Database, board_id: int, version: int) -> None:
    """The message now shows ``version`` (a newer drawn version is kept)."""
    with db.session() as s:
        s.execute(
            update(Scoreboard)
            .where(col(Scoreboard.id) == board_id, col(Scoreboard.drawn) < version)
            .values(drawn=version)
        )
        s.commit()


def _apply(placar: Marcador, presses: list[Any], person: Person, cmd: Command) -> Marcador:
    if isinstance(cmd, Press):
        if placar.winner is not None:
            raise BoardRefused("over")
        try:
            placar = placar.add(cmd.team, cmd.points)
        except ValueError as exc:
            raise BoardRefused("value", str(exc)) from None
        presses.append([person.id, person.name])
    elif isinstance(cmd, Undo):
        if not placar.hands:
            raise BoardRefused("empty")
        placar = placar.undo()
        presses.pop()
    else:
        placar = placar.restarted()
        presses.clear()
    return placar


def press(db: Database, board_id: int, person: Person, cmd: Command) -> Board:
    """Apply one press to the newest score; ``BoardRefused`` when it changes nothing."""
    for _ in range(MAX_TRIES):
        with db.session() as s:
            row = s.get(Scoreboard, board_id)
            if row is None:
                raise BoardRefused("no_board")
            presses = json.loads(row.presses)
            placar = _apply(Marcador.from_json(json.loads(row.placar)), presses, person, cmd)
            done = s.execute(
                update(Scoreboard)
                .where(col(Scoreboard.id) == board_id, col(Scoreboard.version) == row.version)
                .values(
                    placar=json.dumps(placar.to_json()),
                    presses=json.dumps(presses),
                    version=row.version + 1,
                    updated_at=utcnow(),
                )
            )
            if done.rowcount == 1:  # type: ignore[attr-defined]
                s.commit()
                fresh = s.get(Scoreboard, board_id, populate_existing=True)
                assert fresh is not None
                return _board(fresh)
            s.rollback()  # someone pressed meanwhile: read their score and apply on top
    raise BoardRefused("busy")
