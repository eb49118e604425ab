"""What the Telegram messages of a table must show, and their bookkeeping.

The publisher asks here what to draw (``table_drawing``, ``hands_drawing``) and
records what it sent (message ids, announced hands, digests). Bookkeeping never
bumps the game version: it is not game state.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import bindparam, func, update
from sqlalchemy import select as core_select
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from bot.domain import flood, jobs, outbox, presence
from bot.domain.models import SEATED, Event, Game, HandMessage, Player
from bot.domain.outbox import Outgoing
from bot.domain.people import chat_language_in, chat_voice_in, info_of
from bot.domain.store import Database, insert_of, raise_to
from bot.domain.tables.rows import (
    HAND_OVERS,
    GameRow,
    game_row,
    hand_overs_in,
    read_seats,
    row_to_table,
)
from bot.domain.tables.starting import pending_starts, rematch_waiting
from bot.domain.values.drawings import HandMessageInfo, HandsDrawing, Ping, TableDrawing
from bot.domain.values.game import GameStatus, HandSummary, LoggedEvent, seat_of
from bot.domain.values.people import PlayerInfo
from bot.domain.values.settings import Noise
from bot.i18n import language_for

_EVENTS = Event.__table__  # type: ignore[attr-defined]
_HANDS = HandMessage.__table__  # type: ignore[attr-defined]
_HAND_ROWS = core_select(
    _HANDS.c.seat, _HANDS.c.chat_id, _HANDS.c.message_id, _HANDS.c.hand_number, _HANDS.c.digest
).where(_HANDS.c.game_id == bindparam("game"))
_PLAYERS = Player.__table__  # type: ignore[attr-defined]
_SEATED = core_select(
    _PLAYERS.c.id,
    _PLAYERS.c.name,
    _PLAYERS.c.language_code,
    _PLAYERS.c.deck,
    _PLAYERS.c.started,
).where(_PLAYERS.c.id.in_(bindparam("ids", expanding=True)))
"""The reads of every hands redraw, as plain columns by statements built once: loading
the rows as ORM objects cost more CPU than the queries."""


_PERSON_LANGUAGE = select(Player.language_code).where(col(Player.id) == bindparam("id"))


def _language(s: Session, game: GameRow) -> str:
    """The table's language: its chat's setting, or its person's in a private game (one
    column each, read at every redraw round)."""
    if game.private:
        return language_for(s.execute(_PERSON_LANGUAGE, {"id": game.creator_id}).scalar())
    return chat_language_in(s, game.chat_id)


def table_drawing(db: Database, game_id: int, now: float | None = None) -> TableDrawing | None:
    """The public message of a table: its state and language (announcements: ``outbox``).

    ``now``: the clock, so that an ending claimed by a sender past its lease counts as
    unsure (the sender died during the call).
    """
    with db.session() as s:
        return _table_drawing(s, game_id, now)


def _table_drawing(s: Session, game_id: int, now: float | None) -> TableDrawing | None:
    game = game_row(s, game_id)
    if game is None:
        return None
    table = row_to_table(s, game)
    missing = pending_starts(s, table.seats) if table.status == GameStatus.LOBBY else []
    waiting = rematch_waiting(s, game, table.seats)
    if game.private:
        language, noise = _language(s, game), Noise.ALL.value
    else:
        language, noise = chat_voice_in(s, game.chat_id)
    last = None
    if noise != "all" and table.status == GameStatus.PLAYING:
        q = HAND_OVERS.order_by(None).order_by(_EVENTS.c.id.desc()).limit(1)
        found = s.execute(q, {"game": game_id}).scalar()
        last = HandSummary.from_json(json.loads(found)) if found else None
    names = {x.user: x.name for x in table.seats if x is not None and x.user is not None}
    by = _canceller(s, game_id) if table.status == GameStatus.CANCELLED else None
    unsure = table.status == GameStatus.OVER and outbox.ending_unsure(s, game_id, now)
    return TableDrawing(
        table,
        language,
        tuple(missing),
        cancelled_by=by,
        buried=game.table_after,
        ending_unsure=unsure,
        waiting=tuple(names[u] for u in waiting),
        noise=noise,
        last_hand=last,
        shown=game.table_digest,
    )


@dataclass(frozen=True)
class RoundAsk:
    """``table_round``'s arguments, for a round read in another call's transaction
    (``announced``)."""

    now: float
    budgets: Callable[[int], Sequence[flood.Budget]]
    at: float
    in_app: bool = False


@dataclass(frozen=True)
class TableRound:
    """What one round of a table's redraw needs: the drawing, what it owes, the budget."""

    drawing: TableDrawing
    owed: list[Outgoing]
    """The announcements still to send, oldest first (``outbox.pending``)."""
    wait: float
    """Seconds before one more call fits the chat's budgets (``flood.wait``)."""
    gate: tuple[float, bool] = (0.0, False)
    """``presence.table_gate_in``: how long the table message may wait, and whether everyone
    seated plays in the Mini App (read only when asked: ``table_round``'s ``in_app``)."""
    marks: tuple[float, ...] = ()
    """When the calls in the group's window were made (``flood.marks_in``; none in private):
    the group-call planner shares the minute by them."""


def table_round(
    db: Database,
    game_id: int,
    now: float,
    budgets: Callable[[int], Sequence[flood.Budget]],
    at: float,
    *,
    in_app: bool = False,
) -> TableRound | None:
    """The drawing, the outbox and the flood budget of a table's chat, in one transaction.

    ``now``: the tables' clock (outbox leases); ``budgets(chat_id)``: the chat's budgets
    (none for a private table), looked at as of ``at`` (the budgets' real seconds). Three
    sessions a round before. The drawing is read first: all it shows was recorded with
    what it owes, so the outbox read after it holds every announcement it owes.
    ``in_app``: the bot has a Mini App, so also read ``presence.table_gate_in`` (a fourth
    session before).
    """
    with db.session() as s:
        return _round_in(s, game_id, now, budgets, at, in_app)


def _round_in(
    s: Session,
    game_id: int,
    now: float,
    budgets: Callable[[int], Sequence[flood.Budget]],
    at: float,
    in_app: bool,
) -> TableRound | None:
    """``table_round`` in the caller's session."""
    drawing = _table_drawing(s, game_id, now)
    if drawing is None:
        return None
    table = drawing.table
    owed = outbox.pending_in(s, game_id, now)
    gate = presence.table_gate_in(s, table, now) if in_app else (0.0, False)
    if table.private:
        return TableRound(drawing, owed, 0.0, gate)
    chat = budgets(table.chat_id)
    if len(chat) != 1:
        return TableRound(drawing, owed, flood.wait_in(s, chat, at, 1), gate)
    marks = tuple(flood.marks_in(s, chat[0], at))  # one read: the wait is made of them
    wait = flood.seconds_to_wait(marks, chat[0], at, 1, spaced=True)
    return TableRound(drawing, owed, wait, gate, marks)


def _canceller(s: Session, game_id: int) -> str | None:
    """The name of who cancelled a table (the person behind its ``cancel`` event)."""
    q = select(Event).where(Event.game_id == game_id, Event.kind == "cancel")
    event = s.exec(q.order_by(col(Event.id).desc())).first()
    if event is None or event.user_id is None:
        return None
    player = s.get(Player, event.user_id)
    return player.name if player is not None else None


def hands_drawing(
    db: Database, game_id: int, present_since: float | None = None
) -> HandsDrawing | None:
    """The private hand messages of a started table: seated people, their messages, closings.

    ``present_since``: also who had the table open in the Mini App since then
    (``presence.in_app``), in the same transaction (it was a second one at every redraw).
    """
    with db.session() as s:
        game = game_row(s, game_id)
        if game is None or game.snapshot is None:
            return None
        table = row_to_table(s, game)
        rows = {
            seat: _hand_info(chat, message, hand, digest)
            for seat, chat, message, hand, digest in s.execute(_HAND_ROWS, {"game": game_id})
        }
        users = sorted({x.user for x in table.seats if x is not None and x.user is not None})
        found = {
            row.id: info_of(row.id, row.name, row.language_code, row.deck, row.started)
            for row in s.execute(_SEATED, {"ids": users})
        }
        people: dict[int, PlayerInfo] = {
            i: found[x.user]
            for i, x in enumerate(table.seats)
            if x is not None and x.user is not None and x.user in found
        }
        # every hand message tells how the hand before it ended: the closings are always read
        ended = {h.hand: h for h in hand_overs_in(s, game_id)}
        by = _canceller(s, game_id) if table.status == GameStatus.CANCELLED else None
        in_app = (
            frozenset() if present_since is None else presence.in_app_in(s, game_id, present_since)
        )
        return HandsDrawing(table, people, rows, ended, cancelled_by=by, in_app=in_app)


def _hand_row(game_id: int, seat: int) -> SelectOfScalar[HandMessage]:
    """A seat's hand message row, locked: an ask and a redraw's record never both read it
    and then overwrite each other (the ask would be lost)."""
    return (
        select(HandMessage)
        .where(HandMessage.game_id == game_id, HandMessage.seat == seat)
        .with_for_update()
    )


def seated_message(db: Database, game_id: int, seat: int, chat_id: int, message_id: int) -> bool:
    """Record the lobby's answer to the person in ``seat`` as the seat's message, so that
    the match's first hand message takes its place (it is deleted then), and it follows the
    person if they change seats. ``False`` when it is stale already (they left the seat
    while it was being sent, or the lobby is over): the caller deletes it."""
    with db.session() as s:
        # the game row locked: a lobby change (which writes it first) sees this answer, or
        # this sees the change's seats
        game = s.exec(select(Game).where(Game.id == game_id).with_for_update()).first()
        if game is None or game.status != GameStatus.LOBBY:
            return False
        if seat_of(read_seats(s, game), chat_id) != seat:  # a private chat's id is its person's
            return False
        if s.exec(_hand_row(game_id, seat)).first() is not None:
            return True  # a message of the match already: this one is older news
        s.add(
            HandMessage(
                game_id=game_id,
                seat=seat,
                chat_id=chat_id,
                message_id=message_id,
                hand_number=SEATED,
            )
        )
        s.commit()
    return True


def take_leftovers(db: Database, game_id: int) -> list[tuple[int, int]]:
    """A table's lobby answers whose person left their seat or whose lobby was cancelled
    (``models.leave_seat``), as ``(chat_id, message_id)``: forgotten here, the caller deletes
    them. Any process may take them; each is taken once."""
    with db.session() as s:
        left = select(HandMessage).where(HandMessage.game_id == game_id, col(HandMessage.seat) < 0)
        rows = s.exec(left.with_for_update(skip_locked=True)).all()
        gone = [(row.chat_id, row.message_id) for row in rows]
        for row in rows:
            s.delete(row)
        s.commit()
    return gone


def _own_hand_row(s: Session, game_id: int, seat: int) -> HandMessage:
    """A seat's hand message row, locked, made first (no message yet: ``message_id`` 0)
    when there is none; an ask and the first message's record may both make it at once,
    and then both use the one that won."""
    row = s.exec(_hand_row(game_id, seat)).first()
    if row is not None:
        return row
    blank = {"game_id": game_id, "seat": seat, "chat_id": 0, "message_id": 0, "hand_number": 0}
    s.execute(insert_of(s, HandMessage).values(digest="", **blank).on_conflict_do_nothing())
    return s.exec(_hand_row(game_id, seat)).one()


def ask_for_hand(db: Database, game_id: int, seat: int) -> None:
    """The person wants their hand message at the bottom of the chat: the next redraw sends
    it anew (and deletes the old one).

    An ask made while the first hand message is on its way (sent, not yet recorded) is
    kept in a row of its own, with no message: the message then recorded keeps the ask,
    since it lies above the person's /start, and the redraw after it brings the hand down.
    """
    with db.session() as s:
        row = _own_hand_row(s, game_id, seat)
        _ping, _sep, fingerprint = row.digest.partition(":")
        row.digest = f"{int(Ping.ASKED)}:{fingerprint}"
        s.add(row)
        s.commit()


def _hand_message(h: HandMessage) -> HandMessageInfo:
    return _hand_info(h.chat_id, h.message_id, h.hand_number, h.digest)


def _hand_info(chat_id: int, message_id: int, hand_number: int, digest: str) -> HandMessageInfo:
    ping, sep, fingerprint = digest.partition(":")
    if not sep or not ping.lstrip("-").isdigit():  # stored before pings were kept
        return HandMessageInfo(chat_id, message_id, hand_number, digest)
    return HandMessageInfo(chat_id, message_id, hand_number, fingerprint, Ping(int(ping)))


def mark_table(
    db: Database, game_id: int, *, table_message_id: int, seen: int = 0, digest: str | None = None
) -> None:
    """Record a new table message showing ``digest``; the ``seen`` messages that buried the
    old one are behind it.

    Messages counted while it was being sent stay counted (they came after it).
    """
    with db.session() as s:
        s.execute(
            update(Game)
            .where(col(Game.id) == game_id)
            .values(
                table_message_id=table_message_id,
                table_digest=digest,
                table_after=func.max(0, col(Game.table_after) - seen)
                if s.get_bind().dialect.name == "sqlite"
                else func.greatest(0, col(Game.table_after) - seen),
            )
        )
        s.commit()


def table_shown(db: Database, game_id: int, table_message_id: int, digest: str) -> None:
    """The table message ``table_message_id`` was edited to show ``digest`` (nothing is
    recorded when the table has another message by now)."""
    with db.session() as s:
        s.execute(
            update(Game)
            .where(col(Game.id) == game_id, col(Game.table_message_id) == table_message_id)
            .values(table_digest=digest)
        )
        s.commit()


def _live_table(s: Session, chat_id: int, thread_id: int | None) -> Game | None:
    """The newest table of a chat (or forum topic) not over yet that has its message."""
    q = select(Game).where(
        Game.chat_id == chat_id,
        col(Game.status).in_((GameStatus.LOBBY, GameStatus.PLAYING)),
        col(Game.table_message_id).is_not(None),
    )
    q = (
        q.where(Game.thread_id == thread_id)
        if thread_id
        else q.where(col(Game.thread_id).is_(None))
    )
    return s.exec(q.order_by(col(Game.id).desc())).first()


def note_posted(
    db: Database, chat_id: int, thread_id: int | None, count: int = 1, *, game_id: int | None = None
) -> tuple[int, int] | None:
    """Messages were posted in a chat: they push its live table up (``game_id``: that table's).

    Returns the live table's id and how many messages now lie after its message, or
    ``None`` when the chat has no live table message.
    """
    with db.session() as s:
        if game_id is None:
            game = _live_table(s, chat_id, thread_id)
            if game is None or game.id is None:
                return None
            game_id = game.id
        # the count read back by the UPDATE itself: reading the row again after the commit
        # was a second transaction for every announcement
        after = s.execute(_POSTED, {"game": game_id, "count": count}).scalar()
        s.commit()
        return None if after is None else (game_id, int(after))


_GAMES = Game.__table__  # type: ignore[attr-defined]
_POSTED = (
    _GAMES.update()
    .where(_GAMES.c.id == bindparam("game"), _GAMES.c.private.is_(False))
    .values(table_after=_GAMES.c.table_after + bindparam("count"))
    .returning(_GAMES.c.table_after)
)


def note_seen(
    db: Database, chat_id: int, thread_id: int | None, message_id: int
) -> tuple[int, int] | None:
    """A message the bot saw (a command, its own send) tells how many lie after the table.

    A chat's message ids count every message in it, also those a bot in privacy mode
    never receives: the newest id seen minus the table's is how buried it is. Only for
    chats without topics (a forum's ids run across its topics). Returns the live
    table's id and the messages after it, or ``None``.
    """
    if thread_id:
        return None
    with db.session() as s:
        found = _seen_in(s, chat_id, message_id)
        s.commit()
        return found


def _seen_in(s: Session, chat_id: int, message_id: int) -> tuple[int, int] | None:
    """``note_seen`` in the caller's transaction (not committed)."""
    game = s.execute(_LIVE_TABLE, {"chat": chat_id}).first()
    if game is None or game.private or game.table_message_id is None:
        return None
    after = message_id - game.table_message_id
    if after <= game.table_after:
        return game.id, game.table_after
    raise_to(s, Game.table_after, game.id, after)
    return game.id, after


_LIVE_TABLE = (
    core_select(_GAMES.c.id, _GAMES.c.private, _GAMES.c.table_message_id, _GAMES.c.table_after)
    .where(
        _GAMES.c.chat_id == bindparam("chat"),
        _GAMES.c.status.in_((GameStatus.LOBBY.value, GameStatus.PLAYING.value)),
        _GAMES.c.table_message_id.is_not(None),
        _GAMES.c.thread_id.is_(None),
    )
    .order_by(_GAMES.c.id.desc())
    .limit(1)
)
"""``_live_table`` of a chat without topics, as plain columns (every announcement sent
reads it: built once, no ORM object)."""


def announced(
    db: Database,
    ids: Sequence[int],
    worker: str,
    game_id: int,
    chat_id: int,
    thread_id: int | None,
    telegram_id: int,
    then: RoundAsk | None = None,
) -> TableRound | None:
    """Announcements of a group's table went out as the message ``telegram_id``: they are
    sent (``outbox.sent``), the message pushes the table up (``note_posted``) and its id
    tells of the chatter a bot in privacy mode does not see (``note_seen``), in one
    transaction (one for each, and one more per announcement, before).

    ``then``: also read the table's next round (``table_round``, as of after these writes)
    in the same transaction, and return it: the redraw goes on from there at once (a
    round of its own after every announcement was one more transaction per hand)."""
    with db.session() as s:
        outbox.finish_in(s, ids, worker, **outbox.sent_values(telegram_id))
        s.execute(_POSTED, {"game": game_id, "count": 1})
        if not thread_id:
            _seen_in(s, chat_id, telegram_id)
        found = None
        if then is not None:
            found = _round_in(s, game_id, then.now, then.budgets, then.at, then.in_app)
        s.commit()
    return found


def bring_table_down(db: Database, game_id: int, after: int) -> None:
    """Count the table as buried under at least ``after`` messages: the next redraw reposts it."""
    with db.session() as s:
        raise_to(s, Game.table_after, game_id, after)
        s.commit()


def save_hand_message(
    db: Database,
    game_id: int,
    seat: int,
    message: HandMessageInfo,
    *,
    saw_ask: bool,
    finish: tuple[jobs.ClaimedJob, str] | None = None,
) -> bool:
    """Record which message shows a seat's hand, for which hand, with which content.

    ``saw_ask``: the message was drawn from a state in which the person had already asked
    for their hand (:func:`ask_for_hand`), so it answers the ask. ``finish``: the redraw
    job this save ends and the worker running it, finished in the same transaction
    (``jobs.finish_in``); whether it was.
    """
    with db.session() as s:
        row = _own_hand_row(s, game_id, seat)
        ping = message.ping
        if not saw_ask and _hand_message(row).ping == Ping.ASKED:
            # the person asked while this message was being drawn: it may lie above their
            # /start, so the ask stands and the next redraw sends the hand anew
            ping = Ping.ASKED
        row.chat_id, row.message_id = message.chat_id, message.message_id
        row.hand_number = message.hand_number
        # the ping rides in the digest column ("<ping>:<digest>"): bookkeeping only, so no
        # schema change while the production work reshapes the tables
        row.digest = f"{int(ping)}:{message.digest}"
        s.add(row)
        finished = finish is not None and jobs.finish_in(s, *finish)
        s.commit()
        return finished


def count_events(db: Database, kind: str) -> int:
    """How many events of a kind the log holds (figures of ``truco bot-bench``)."""
    with db.session() as s:
        return len(s.exec(select(Event.id).where(Event.kind == kind)).all())


def events_of(db: Database, game_id: int, kind: str | None = None) -> list[LoggedEvent]:
    """A game's event log in order (``kind``: only those)."""
    with db.session() as s:
        q = select(Event).where(Event.game_id == game_id)
        if kind:
            q = q.where(Event.kind == kind)
        return [
            LoggedEvent(e.kind, e.version, e.seat, e.user_id, json.loads(e.data))
            for e in s.exec(q.order_by(col(Event.id)))
        ]
