"""Who has a table open in the Mini App: a rule of the table both adapters read.

A person counts as having the app open ``PRESENCE`` seconds after their page's last sign
of life (``people_in_app``); while everyone seated at a group's match plays it there, the
group's table message waits (``table_gate_in``, ``table_drawn``); a page that closes gives
the person their hand message back (``page_closed``). The rows are ``app_presence``'s, one per
table and person, written by the pages of every replica.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import bindparam
from sqlalchemy import select as core_select
from sqlmodel import Session, col, delete, select

from bot.domain import jobs
from bot.domain.models import AppPresence
from bot.domain.store import Database, insert_of
from bot.domain.values.game import GameStatus, Occupant, Table

GROUP_TABLE = 0
"""The presence row (``user_id`` 0: no Telegram user has it) that holds when the group's
table message of a match played in the app was last drawn, so that every replica spaces
those drawings alike."""
PRESENCE = 30.0
"""A person counts as having the app open this long after their page's last sign of life
(three of the page's heartbeats)."""
APP_TABLE_GAP = 60.0
"""While everyone seated at a group's match plays it in the Mini App, the group's table
message is redrawn at most this often (seconds): the players see every move in the app,
the group can watch it live there (🃏 Abrir a mesa), and each edit counts against the
bot's 30 messages a second. Calls and hands' ends are announced as the group chose."""


def present(db: Database, game_id: int, user_id: int, now: float, *, hands: bool = True) -> bool:
    """The person has the table open in the app now; whether they came back to it.

    One who had not (a page just opened, or back after its presence lapsed) came back and
    gets their hand message redrawn now, to point to the app: the moves made while everyone
    seated plays in the app redraw no hands (``bot.domain.tables.changes.commit``). Without
    ``hands`` that redraw is left to the caller (:func:`redraw_hands`), as a page's leaving
    is: a page toggled back and forth is redrawn once for many toggles (``REDRAW_GAP``).
    """
    back = False
    with db.session() as s:
        if user_id != GROUP_TABLE:
            was = s.execute(_SEEN, {"game": game_id, "user": user_id}).scalar()
            back = was is None or was < now - PRESENCE
        # the presence row before the job, in the order a change made in the app writes
        # them: the other order could deadlock with it
        mark_present(s, game_id, user_id, now)
        if back and hands:
            jobs.schedule(s, str(game_id), now, jobs.HandsJob(game_id), keep_earlier=True)
        s.commit()
    return back


_SEEN = select(AppPresence.seen_at).where(
    col(AppPresence.game_id) == bindparam("game"), col(AppPresence.user_id) == bindparam("user")
)


def mark_present(s: Session, game_id: int, user_id: int, now: float) -> None:
    """``present`` inside a transaction of the caller's (committed with what it stores)."""
    stmt = insert_of(s, AppPresence).values(game_id=game_id, user_id=user_id, seen_at=now)
    s.execute(
        stmt.on_conflict_do_update(index_elements=["game_id", "user_id"], set_={"seen_at": now})
    )


def absent(db: Database, game_id: int, user_id: int) -> None:
    """The person closed the app (or its connection dropped)."""
    with db.session() as s:
        unmark_present(s, game_id, user_id)
        s.commit()


def unmark_present(s: Session, game_id: int, user_id: int) -> None:
    """``absent`` inside a transaction of the caller's (committed with what it stores)."""
    s.execute(
        delete(AppPresence).where(
            col(AppPresence.game_id) == game_id, col(AppPresence.user_id) == user_id
        )
    )


def in_app(db: Database, game_id: int, since: float) -> frozenset[int]:
    """The people who had the table open in the app at ``since`` or later."""
    with db.session() as s:
        return in_app_in(s, game_id, since)


def in_app_in(s: Session, game_id: int, since: float) -> frozenset[int]:
    """``in_app`` in the caller's session (the hands' redraw reads it with its drawing)."""
    return frozenset(s.execute(_IN_APP, {"game": game_id, "since": since}).scalars())


# read at every move of a group's match and every redraw: built once (building a
# statement anew cost more CPU than running it)
_PRESENCE = AppPresence.__table__  # type: ignore[attr-defined]
_IN_APP = core_select(_PRESENCE.c.user_id).where(
    _PRESENCE.c.game_id == bindparam("game"),
    _PRESENCE.c.seen_at >= bindparam("since"),
    _PRESENCE.c.user_id != GROUP_TABLE,
)
_SEEN_ALL = core_select(_PRESENCE.c.user_id, _PRESENCE.c.seen_at).where(
    _PRESENCE.c.game_id == bindparam("game")
)


def seen_at(db: Database, game_id: int) -> dict[int, float]:
    """Every row of a table's presence: person (or ``GROUP_TABLE``) -> when last seen."""
    with db.session() as s:
        return seen_at_in(s, game_id)


def seen_at_in(s: Session, game_id: int) -> dict[int, float]:
    """``seen_at`` in the caller's session."""
    return {user: seen for user, seen in s.execute(_SEEN_ALL, {"game": game_id})}


def seated_people(table: Table) -> frozenset[int]:
    """The people (not robots, nor robots standing in for someone) seated at a table."""
    return seated_in(table.seats)


def seated_in(seats: Sequence[Occupant | None]) -> frozenset[int]:
    """``seated_people`` of a table's seats."""
    return frozenset(
        x.user for x in seats if x is not None and x.user is not None and x.robot is None
    )


def people_in_app(db: Database, game_id: int, now: float) -> frozenset[int]:
    """Who has this table open in the Mini App now (on any replica)."""
    return in_app(db, game_id, now - PRESENCE)


def table_gate_in(s: Session, table: Table, now: float) -> tuple[float, bool]:
    """Seconds before the group's table message of this match should be redrawn (0: now),
    and whether everyone seated plays it in the Mini App (``gate``), read in the caller's
    session (a table's redraw reads it with its drawing). Nothing is read for private
    tables or tables not in play."""
    if table.private or table.status != GameStatus.PLAYING:
        return 0.0, False
    return gate(seated_people(table), seen_at_in(s, table.id), now)


def gate(seated: frozenset[int], seen: dict[int, float], now: float) -> tuple[float, bool]:
    """``table_gate_in`` from a table's seated people and its presence rows (``seen_at``).

    The table waits only while everyone seated plays in the app, and only while the last
    such drawing (by any replica) is under ``APP_TABLE_GAP`` seconds old."""
    everyone = bool(seated) and all(seen.get(u, -PRESENCE) >= now - PRESENCE for u in seated)
    last = seen.get(GROUP_TABLE)
    if not everyone or last is None:
        return 0.0, everyone
    return max(0.0, last + APP_TABLE_GAP - now), everyone


def anyone_in(seated: frozenset[int], seen: dict[int, float], now: float) -> bool:
    """Whether any of the people ``seated`` has the table open in the app (``seen``: its
    presence rows, ``seen_at``)."""
    return any(seen.get(u, -PRESENCE) >= now - PRESENCE for u in seated)


def table_drawn(db: Database, game_id: int, now: float) -> None:
    """The group's table of ``game_id`` was just drawn for a match played in the Mini App
    (every replica's ``table_gate_in`` counts from now)."""
    present(db, game_id, GROUP_TABLE, now)


def redraw_hands(db: Database, game_id: int, now: float) -> None:
    """Redraw the table's private hands now (as the app's presence now says)."""
    jobs.request(db, str(game_id), now, jobs.HandsJob(game_id), keep_earlier=True)


REDRAW_GAP = 3.0
"""Seconds between two redraws of a person's hand caused by their page going away and
coming back (the review's 230 edits in 20 s of a page toggled hidden and visible)."""


def page_closed(
    db: Database, table: Table, user_id: int, now: float, *, hands: bool = True
) -> None:
    """The person's page closed (or went to the background): their hand message shows their
    hand again, and the group's table follows every move again (only a match in play is
    drawn otherwise while its people are in the app: an ended match's table, redrawn when
    its pages close, would be the same edit again). The redraws are jobs, recorded here;
    without ``hands`` the hands' is left to a later :func:`redraw_hands` (a page toggled
    back and forth is redrawn once for many toggles: ``REDRAW_GAP``)."""
    absent(db, table.id, user_id)
    if hands:
        redraw_hands(db, table.id, now)
    if not table.private and table.status == GameStatus.PLAYING:
        key = jobs.table_key(table.chat_id, table.thread_id)
        jobs.request(db, key, now, jobs.TableJob((table.id,)), keep_earlier=True)
