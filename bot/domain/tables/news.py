"""A change's table, carried to the open Mini App pages of every replica: they draw it
without reading it again.

Every new game version is announced as ``NOTIFY truco_table, '<game>:<version>'`` by the
trigger of migration ``0008_miniapp_presence`` (fired at the commit since
``0011_news_first``). A change of a group's match in play that someone seated has open
in the app sends before it ``'<game>:<version>:<table>'``: the row as committed, its
seats and how its hands ended, as compressed JSON, when that fits in a notification.
Pages that heard it find the short one no news (no newer version) and read nothing; the
process that made the change hands the same table to its own pages (``Change.page``).

Why: every replica with a page of a table open read the table once per version, the
largest share of the database's transactions of a hand (docs-dev/bot-bench-log.md).
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import bindparam, func
from sqlalchemy import select as core_select
from sqlmodel import Session

from bot.domain.models import Game
from bot.domain.tables.rows import GameRow, hand_overs_in, seat_moves, table_of
from bot.domain.values.game import HandSummary, Occupant, RobotLevel, Table

CHANNEL = "truco_table"
LIMIT = 7900
"""Longest payload sent (PostgreSQL's limit is 8000 bytes): a longer table is left to
the short notification, and the pages read it."""

Page = tuple[Table, tuple[HandSummary, ...]]
"""A table as its pages draw it, and how its hands ended."""


@dataclass(frozen=True)
class _Row:
    """A game's row as carried (the columns ``rows.table_of`` reads)."""

    id: int | None
    chat_id: int
    thread_id: int | None
    private: bool
    creator_id: int
    status: str
    variant: str
    options: str
    version: int
    seed: int
    deadline_at: float | None
    note: str | None
    table_message_id: int | None
    snapshot: str | None
    table_after: int
    table_digest: str | None
    rematch_of: int | None


_COLUMNS = tuple(f.name for f in dataclasses.fields(_Row))
_NOTIFY = core_select(func.pg_notify(CHANNEL, bindparam("payload")))


def tell(s: Session, game: Game, seats: Sequence[Occupant | None]) -> Page:
    """In a change's transaction, after its versioned save: the table as committed, sent
    to every replica's pages with the commit (PostgreSQL) and returned for this process's."""
    moves = seat_moves(s, game, seats)
    s.flush()  # the hand's end recorded by this change is read with the others
    ended = tuple(hand_overs_in(s, game.id or 0))
    page = (table_of(game, seats, moves), ended)
    if s.get_bind().dialect.name == "postgresql":
        payload = f"{game.id}:{game.version}:{carried(game, seats, moves, ended)}"
        if len(payload) <= LIMIT:
            s.execute(_NOTIFY, {"payload": payload})
    return page


def carried(
    game: GameRow,
    seats: Sequence[Occupant | None],
    moves: dict[int, tuple[bool, ...]],
    ended: Sequence[HandSummary],
) -> str:
    """The text a notification carries a table in (read back by :func:`heard`)."""
    data = {
        "row": {c: getattr(game, c) for c in _COLUMNS},
        "seats": [None if x is None else [x.name, x.user, x.robot] for x in seats],
        "moves": [[seat, list(made)] for seat, made in moves.items()],
        "ended": [h.to_json() for h in ended],
    }
    packed = zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 1)
    return base64.b64encode(packed).decode()


def heard(carried: str) -> Page | None:
    """The table a notification carried (``None``: unreadable, read it instead)."""
    try:
        data = json.loads(zlib.decompress(base64.b64decode(carried, validate=True)))
        row = _Row(**data["row"])
        seats = [
            None if x is None else Occupant(x[0], x[1], RobotLevel(x[2]) if x[2] else None)
            for x in data["seats"]
        ]
        moves = {int(seat): tuple(made) for seat, made in data["moves"]}
        ended = tuple(HandSummary.from_json(h) for h in data["ended"])
        return table_of(row, seats, moves), ended
    except (binascii.Error, zlib.error, ValueError, KeyError, TypeError, IndexError):
        return None
