"""The Mini App's share of the database: what a page draws, and "a table changed" (who
has a table open: ``bot.domain.presence``).

Several replicas serve pages; a move made on one must reach pages connected to another.
On PostgreSQL a trigger (migration ``0008_miniapp_presence``) sends ``NOTIFY truco_table,
'<game>:<version>'`` with every new game version (a change of a match someone plays in
the app sends the table along before it: ``bot.domain.tables.news``), and :func:`listen`
hears them on a connection of its own. On SQLite there is one process: the adapter tells its own pages.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

from sqlmodel import Session, col, select

from bot.domain.models import Game, Player
from bot.domain.store import Database
from bot.domain.tables.news import CHANNEL, heard
from bot.domain.tables.news import Page as Page  # what a change carries to the pages
from bot.domain.tables.rows import GameRow, game_row, hand_overs_in, row_to_table
from bot.domain.tables.starting import rematch_waiting
from bot.domain.values.game import GameStatus, HandSummary, Table

log = logging.getLogger(__name__)
RECONNECT_SECONDS = 1.0


@dataclass(frozen=True)
class Around:
    """What a page shows around the table itself: who a lobby waits for, the Revanche."""

    waiting: tuple[int, ...] = ()
    """A Revanche lobby's people who have not confirmed their seats yet."""
    missing: tuple[str, ...] = ()
    """Names of the lobby's people who never opened a private chat with the bot (a match
    starts only once they do)."""
    rematch: int | None = None
    """The Revanche of an ended match, once someone asked for it."""


@dataclass(frozen=True)
class PageTable:
    """A table as its pages draw it: the table, how its hands ended, what is around it."""

    table: Table
    ended: dict[int, HandSummary]
    around: Around


def page_table(db: Database, game_id: int) -> PageTable | None:
    """One read, one session, for every page of a process watching a table (it runs at
    every change of a table that has pages open)."""
    with db.session() as s:
        game = game_row(s, game_id)
        if game is None:
            return None
        table = row_to_table(s, game)
        ended = {h.hand: h for h in hand_overs_in(s, game_id)} if game.snapshot else {}
        return PageTable(table, ended, _around(s, table, game))


def carried_table(carried: str | Page) -> PageTable | None:
    """The table a change carried to the pages (a notification's text, or this process's
    own ``Change.page``); ``None``: read it instead. Only a match in play is carried: nothing
    is drawn around it."""
    page = heard(carried) if isinstance(carried, str) else carried
    if page is None:
        return None
    table, ended = page
    return PageTable(table, {h.hand: h for h in ended}, Around())


def around(db: Database, table: Table) -> Around:
    """The lobby's waits, or an ended match's Revanche (nothing for a match in play)."""
    with db.session() as s:
        return _around(s, table)


def _around(s: Session, table: Table, game: Game | GameRow | None = None) -> Around:
    if table.status == GameStatus.OVER:
        q = select(Game.id).where(Game.rematch_of == table.id).order_by(col(Game.id).desc())
        return Around(rematch=s.exec(q.limit(1)).first())
    if table.status != GameStatus.LOBBY:
        return Around()
    game = game if game is not None else s.get(Game, table.id)
    if game is None:
        return Around()
    waiting = tuple(rematch_waiting(s, game, table.seats))
    people = [x for x in table.seats if x is not None and x.user is not None]
    started = set(
        s.exec(
            select(Player.id).where(
                col(Player.id).in_([x.user for x in people]), col(Player.started)
            )
        )
    )
    return Around(waiting, tuple(x.name for x in people if x.user not in started))


def rematch_source(db: Database, game_id: int) -> int | None:
    """The ended match a table is the Revanche of (``None``: not a Revanche)."""
    with db.session() as s:
        return s.exec(select(Game.rematch_of).where(Game.id == game_id)).first()


def shares_changes(db: Database) -> bool:
    """Whether other processes' changes are announced by the database (PostgreSQL)."""
    return db.engine.dialect.name == "postgresql"


async def listen(
    db: Database,
    on_change: Callable[[int, int, str | None], None],
    on_gap: Callable[[], None],
) -> None:
    """Call ``on_change(game, version, carried)`` for every game version any process
    commits, until cancelled (PostgreSQL only; returns at once elsewhere); ``carried``: the
    table the change sent along, if it did (read by :func:`carried_table`). After a lost
    connection it reconnects and calls ``on_gap()``: what changed meanwhile was not heard."""
    if not shares_changes(db):
        return
    import psycopg

    url = db.engine.url.set(drivername="postgresql")
    conninfo = url.render_as_string(hide_password=False)
    first = True
    while True:
        try:
            conn = await psycopg.AsyncConnection.connect(conninfo, autocommit=True)
            async with conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                if not first:
                    on_gap()
                first = False
                async for note in conn.notifies():
                    game, version, *carried = note.payload.split(":", 2)
                    if game.isdigit() and version.isdigit():
                        on_change(int(game), int(version), carried[0] if carried else None)
        except psycopg.Error as exc:
            log.warning("table changes: connection lost (%s)", exc.__class__.__name__)
            first = False
            await asyncio.sleep(RECONNECT_SECONDS)
