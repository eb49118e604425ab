"""The Mini App's share of the database: who has a table open, and "a table changed".

Presence is a rule of the table both adapters read: a person counts as having the app
open ``PRESENCE`` seconds after their page's last sign of life (``in_app``); while
everyone seated at a group's match plays it there, the group's table message waits
(``table_gate``, ``table_drawn``); a page that closes gives the person their hand message
back (``left``).

Several replicas serve pages; a move made on one must reach pages connected to another.
On PostgreSQL a trigger (migration ``0007_miniapp``) sends ``NOTIFY truco_table,
'<game>:<version>'`` with every new game version, and :func:`listen` hears them on a
connection of its own. On SQLite there is one process: the adapter tells its own pages.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

from sqlmodel import Session, col, delete, select

from bot.domain import jobs
from bot.domain.messages import hand_overs_in
from bot.domain.models import AppPresence, Game, Player
from bot.domain.store import Database, insert_of
from bot.domain.tables.rows import GameRow, game_row, row_to_table
from bot.domain.tables.starting import rematch_waiting
from bot.domain.values.game import GameStatus, HandSummary, Table

log = logging.getLogger(__name__)
CHANNEL = "truco_table"
GROUP_TABLE = 0
"""The presence row (``user_id`` 0: no Telegram user has it) that holds when the group's
table message of a match played in the app was last drawn, so that every replica spaces
those drawings alike."""
RECONNECT_SECONDS = 1.0
PRESENCE = 30.0
"""A person counts as having the app open this long after their page's last sign of life
(three of the page's heartbeats)."""
APP_TABLE_GAP = 60.0
"""While everyone seated at a group's match plays it in the Mini App, the group's table
message is redrawn at most this often (seconds): the players see every move in the app,
the group can watch it live there (🃏 Abrir a mesa), and each edit counts against the
bot's 30 messages a second. Calls and hands' ends are announced as the group chose."""


def present(db: Database, game_id: int, user_id: int, now: float) -> None:
    """The person has the table open in the app now."""
    with db.session() as s:
        mark_present(s, game_id, user_id, now)
        s.commit()


def mark_present(s: Session, game_id: int, user_id: int, now: float) -> None:
    """``present`` inside a transaction of the caller's (committed with what it stores)."""
    stmt = insert_of(s, AppPresence).values(game_id=game_id, user_id=user_id, seen_at=now)
    s.execute(
        stmt.on_conflict_do_update(index_elements=["game_id", "user_id"], set_={"seen_at": now})
    )


def absent(db: Database, game_id: int, user_id: int) -> None:
    """The person closed the app (or its connection dropped)."""
    with db.session() as s:
        s.execute(
            delete(AppPresence).where(
                col(AppPresence.game_id) == game_id, col(AppPresence.user_id) == user_id
            )
        )
        s.commit()


def in_app(db: Database, game_id: int, since: float) -> frozenset[int]:
    """The people who had the table open in the app at ``since`` or later."""
    with db.session() as s:
        q = select(AppPresence.user_id).where(
            AppPresence.game_id == game_id,
            col(AppPresence.seen_at) >= since,
            col(AppPresence.user_id) != GROUP_TABLE,
        )
        return frozenset(s.exec(q))


def presence(db: Database, game_id: int) -> dict[int, float]:
    """Every row of a table's presence: person (or ``GROUP_TABLE``) -> when last seen."""
    with db.session() as s:
        q = select(AppPresence.user_id, AppPresence.seen_at).where(AppPresence.game_id == game_id)
        return {user: seen for user, seen in s.exec(q)}


def seated_people(table: Table) -> frozenset[int]:
    """The people (not robots, nor robots standing in for someone) seated at a table."""
    return frozenset(
        x.user for x in table.seats if x is not None and x.user is not None and x.robot is None
    )


def people_in_app(db: Database, game_id: int, now: float) -> frozenset[int]:
    """Who has this table open in the Mini App now (on any replica)."""
    return in_app(db, game_id, now - PRESENCE)


def table_gate(db: Database, table: Table, now: float) -> tuple[float, bool]:
    """Seconds before the group's table message of this match should be redrawn (0: now),
    and whether everyone seated plays it in the Mini App. It waits only then, and only
    while the last such drawing (by any replica) is under ``APP_TABLE_GAP`` seconds old.
    Nothing is read for private tables or tables not in play."""
    if table.private or table.status != GameStatus.PLAYING:
        return 0.0, False
    seated = seated_people(table)
    seen = presence(db, table.id)
    everyone = bool(seated) and all(seen.get(u, -PRESENCE) >= now - PRESENCE for u in seated)
    last = seen.get(GROUP_TABLE)
    if not everyone or last is None:
        return 0.0, everyone
    return max(0.0, last + APP_TABLE_GAP - now), everyone


def table_drawn(db: Database, game_id: int, now: float) -> None:
    """The group's table of ``game_id`` was just drawn for a match played in the Mini App
    (every replica's ``table_gate`` counts from now)."""
    present(db, game_id, GROUP_TABLE, now)


def left(db: Database, table: Table, user_id: int, now: float) -> None:
    """The person's page closed (or went to the background): their hand message shows their
    hand again, and the group's table follows every move again (only a match in play is
    drawn otherwise while its people are in the app: an ended match's table, redrawn when
    its pages close, would be the same edit again). The redraws are jobs, recorded here."""
    absent(db, table.id, user_id)
    jobs.request(db, str(table.id), now, jobs.HandsJob(table.id), keep_earlier=True)
    if not table.private and table.status == GameStatus.PLAYING:
        key = jobs.table_key(table.chat_id, table.thread_id)
        jobs.request(db, key, now, jobs.TableJob((table.id,)), keep_earlier=True)


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
    db: Database, on_change: Callable[[int, int], None], on_gap: Callable[[], None]
) -> None:
    """Call ``on_change(game, version)`` for every game version any process commits, until
    cancelled (PostgreSQL only; returns at once elsewhere). After a lost connection it
    reconnects and calls ``on_gap()``: what changed meanwhile was not heard."""
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
                    game, _, version = note.payload.partition(":")
                    if game.isdigit() and version.isdigit():
                        on_change(int(game), int(version))
        except psycopg.Error as exc:
            log.warning("table changes: connection lost (%s)", exc.__class__.__name__)
            first = False
            await asyncio.sleep(RECONNECT_SECONDS)
