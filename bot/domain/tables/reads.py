"""Reading tables: by id, a chat's open table, a person's running matches, and the jobs
recorded again at start-up."""

from __future__ import annotations

from sqlmodel import col, select

from bot.domain import jobs, outbox
from bot.domain.models import Game, SeatRow
from bot.domain.store import Database
from bot.domain.tables.changes import game_change
from bot.domain.tables.rows import (
    active_game,
    game_row,
    read_seats,
    row_to_table,
    stored_match,
)
from bot.domain.values.errors import Reason, Refused
from bot.domain.values.game import ACTIVE, GameStatus, Table
from bot.domain.values.settings import Rules


def load(db: Database, game_id: int) -> Table | None:
    """A table by id."""
    with db.session() as s:
        game = game_row(s, game_id)
        return row_to_table(s, game) if game is not None else None


def existing(db: Database, game_id: int, *, started: bool = False) -> Table:
    """A table by id; ``Refused(NO_GAME)`` when there is none (or, ``started``, when it was
    never dealt): what a button or a page asks about."""
    table = load(db, game_id)
    if table is None or (started and not table.started):
        raise Refused(Reason.NO_GAME)
    return table


def active_table(db: Database, chat_id: int, thread_id: int | None) -> Table | None:
    """The lobby or match of a chat (or forum topic), if any."""
    with db.session() as s:
        game = active_game(s, chat_id, thread_id)
        return row_to_table(s, game) if game is not None else None


def last_variant(db: Database, chat_id: int, thread_id: int | None) -> str | None:
    """The variant of the newest table opened in a chat (or topic), if any."""
    with db.session() as s:
        q = select(Game.variant).where(Game.chat_id == chat_id)
        q = (
            q.where(Game.thread_id == thread_id)
            if thread_id
            else q.where(col(Game.thread_id).is_(None))
        )
        return s.exec(q.order_by(col(Game.id).desc()).limit(1)).first()


def playing_tables_of(db: Database, user_id: int) -> list[Table]:
    """The running matches a person sits at, most recently changed first."""
    with db.session() as s:
        q = (
            select(Game)
            .join(SeatRow, col(SeatRow.game_id) == col(Game.id))
            .where(SeatRow.user_id == user_id, Game.status == GameStatus.PLAYING)
            .order_by(col(Game.updated_at).desc())
        )
        return [row_to_table(s, g) for g in s.exec(q)]


def turn_of(db: Database, user_id: int) -> tuple[Table, int] | None:
    """The person's most relevant running table: one where they must act, else the newest."""
    best: tuple[Table, int] | None = None
    for table in playing_tables_of(db, user_id):
        seat = table.seat_of(user_id)
        if seat is None:
            continue
        if seat in table.shown.to_act():
            return table, seat
        best = best or (table, seat)
    return best


def to_resume(db: Database) -> list[Table]:
    """Every lobby and match not finished, plus finished ones with announcements still owed."""
    with db.session() as s:
        owed = outbox.owed_games(s)
        q = select(Game).where(col(Game.status).in_(ACTIVE) | col(Game.id).in_(owed))
        return [row_to_table(s, g) for g in s.exec(q)]


def resume_jobs(db: Database, rules: Rules) -> int:
    """Record the jobs of every table still running or owing announcements; how many.

    One transaction per table, its game row locked first as every change locks it: other
    replicas play on while one starts, and a resume that wrote a table's jobs unlocked
    could meet a change writing the same jobs in another order (PostgreSQL saw deadlocks
    between a job's insert and a job's delete while a killed replica came back)."""
    with db.session() as s:
        owed = outbox.owed_games(s)
        q = select(Game.id).where(col(Game.status).in_(ACTIVE) | col(Game.id).in_(owed))
        ids = list(s.exec(q))
    for game_id in ids:
        with db.session() as s:
            locked = select(Game).where(Game.id == game_id).with_for_update()
            game = s.exec(locked).first()
            if game is None:
                continue
            seats = read_seats(s, game)
            m = stored_match(game) if game.snapshot is not None else None
            change = game_change(game, m, seats)
            jobs.after_change(s, change, rules.clock(), rules.robot_delay, rules.warning_seconds)
            if game.status == GameStatus.LOBBY and game.rematch_of and game.deadline_at:
                # a Revanche's wait outlives a restart too (a lobby's change drops deadlines)
                wait = jobs.DeadlineJob(change.game_id, change.version)
                jobs.schedule(s, str(change.game_id), game.deadline_at, wait)
            s.commit()
    return len(ids)
