"""The outbox: announcements recorded with the change that causes them, sent at most once.

A change that ends a hand or a match, a call or answer shouted at the table, or a
timeout ``record``\\ s an announcement in its own transaction, keyed by what it
announces, so recording twice keeps one. The process drawing the chat's table takes the
announcements of the chat in order: ``begin`` marks one ``sending`` for a lease, the
Bot API call is made, ``sent`` records the message (or ``failed``: Telegram refused it
for good, or ``retry``: it surely did not arrive). An announcement still ``sending``
after its lease belongs to a process that died during the call: Telegram may or may
not have shown it, so it is marked ``uncertain`` and never sent again.

This is the one way to post an announcement in a group: the adapter renders the text
from ``kind`` and ``payload`` at sending time, in the chat's language.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import bindparam, func, update
from sqlalchemy import select as core_select
from sqlmodel import Session, col, select

from bot.domain.models import Game, OutboxMessage, utcnow
from bot.domain.store import Database, insert_of
from bot.domain.values.game import Saying


class Announcement(StrEnum):
    """What an outbox message announces."""

    SAID = "said"
    """A call, an answer or a mão de onze/dez decision (payload: ``Said`` JSON)."""
    TIMEOUT = "timeout"
    """Who ran out of time and what was played for them (payload: ``TimeoutNote`` JSON)."""
    HAND_OVER = "hand_over"
    """A hand's closing line (payload: ``HandSummary`` JSON)."""
    MATCH_OVER = "match_over"
    """The end of a match, with Revanche (payload: ``winner``, ``score``)."""


class State(StrEnum):
    """Where an outbox message is."""

    PENDING = "pending"
    SENDING = "sending"
    SENT = "sent"
    UNCERTAIN = "uncertain"
    FAILED = "failed"


@dataclass(frozen=True)
class Outgoing:
    """An announcement to send now."""

    id: int
    game_id: int
    chat_id: int
    thread_id: int | None
    kind: Announcement
    payload: dict[str, Any]


ANNOUNCED = "announced"
"""The session's ``info`` key of the games that recorded an announcement in it (their
table's redraw, which sends it, is due at once: ``recorded_in``)."""


URGENT = "announced_urgent"
"""The session's ``info`` key of the games that recorded an urgent announcement in it."""
RECORDED = "announced_keys"
"""The session's ``info`` key of the announcements' keys recorded in it."""
URGENT_SAYINGS = (
    Saying.CALL.value,
    Saying.ENVIDO.value,
    Saying.ENVIDO_WON.value,
    Saying.FLOR.value,
    Saying.PLAY11.value,
)
"""What is said that the group is told at once: the calls, and a team's choice to play the
mão de onze/dez (it sets the hand's stake as a call does)."""


def urgent(kind: Announcement | str, payload: dict[str, Any]) -> bool:
    """Whether an announcement goes at once (the group-call planner's urgent traffic): a
    call, the mão de onze/dez decided (played, or run from: its closing says so), the end."""
    if kind == Announcement.MATCH_OVER:
        return True
    if kind == Announcement.HAND_OVER:
        return bool(payload.get("ran11"))
    return kind == Announcement.SAID and payload.get("saying") in URGENT_SAYINGS


def recorded_in(s: Session, game_id: int) -> bool:
    """Whether this transaction recorded an announcement of the game."""
    return game_id in s.info.get(ANNOUNCED, ())


def urgent_in(s: Session, game_id: int) -> bool:
    """Whether this transaction recorded an urgent announcement of the game (``urgent``)."""
    return game_id in s.info.get(URGENT, ())


def owed_before_in(s: Session, game_id: int) -> bool:
    """Whether announcements of the game recorded before this transaction are still owed
    (their table's redraw is waiting for room in the group's minute)."""
    keys = sorted(s.info.get(RECORDED, ()))
    q = core_select(_OUTBOX.c.id).where(
        _OUTBOX.c.game_id == game_id,
        _OUTBOX.c.state.in_((State.PENDING.value, State.SENDING.value)),
        _OUTBOX.c.key.not_in(keys),
    )
    return s.execute(q.limit(1)).first() is not None


def record(s: Session, game: Game, kind: Announcement, key: str, payload: dict[str, Any]) -> None:
    """Record an announcement of ``game`` in the caller's transaction (once per ``key``)."""
    s.info.setdefault(ANNOUNCED, set()).add(game.id)
    s.info.setdefault(RECORDED, set()).add(key)
    if urgent(kind, payload):
        s.info.setdefault(URGENT, set()).add(game.id)
    stmt = insert_of(s, OutboxMessage).values(
        key=key,
        game_id=game.id or 0,
        chat_id=game.chat_id,
        thread_id=game.thread_id,
        kind=kind.value,
        payload=json.dumps(payload, ensure_ascii=False),
        state=State.PENDING.value,
        created_at=utcnow(),
    )
    s.execute(stmt.on_conflict_do_nothing(index_elements=["key"]))


def pending(db: Database, game_id: int, now: float) -> list[Outgoing]:
    """The game's announcements still to send, oldest first (expired claims become uncertain)."""
    with db.session() as s:
        return pending_in(s, game_id, now)


_OUTBOX = OutboxMessage.__table__  # type: ignore[attr-defined]
_OPEN = (
    core_select(
        _OUTBOX.c.id,
        _OUTBOX.c.game_id,
        _OUTBOX.c.chat_id,
        _OUTBOX.c.thread_id,
        _OUTBOX.c.kind,
        _OUTBOX.c.payload,
        _OUTBOX.c.state,
        _OUTBOX.c.claimed_until,
    )
    .where(
        _OUTBOX.c.game_id == bindparam("game"),
        _OUTBOX.c.state.in_((State.PENDING.value, State.SENDING.value)),
    )
    .order_by(_OUTBOX.c.id)
)
"""Read at every round of a table's redraw: plain columns (ORM objects cost more CPU than
the query)."""


def pending_in(s: Session, game_id: int, now: float) -> list[Outgoing]:
    """``pending`` in the caller's session; commits only when a claim had expired.

    One read of what is pending or being sent; the update to ``uncertain`` is made only
    when a sender's lease ran out (a process died during the call), which is rare: it
    was a statement and a transaction of every redraw.
    """
    rows = s.execute(_OPEN, {"game": game_id}).all()
    expired = [
        m.id
        for m in rows
        if m.state == State.SENDING and m.claimed_until is not None and m.claimed_until < now
    ]
    if expired:
        s.execute(
            update(OutboxMessage)
            .where(
                col(OutboxMessage.id).in_(expired),
                col(OutboxMessage.state) == State.SENDING,
                col(OutboxMessage.claimed_until) < now,
            )
            .values(state=State.UNCERTAIN)
        )
        s.commit()
    return [outgoing(m) for m in rows if m.state == State.PENDING]


def outgoing(row: Any) -> Outgoing:
    """An outbox row (an ``OutboxMessage``, or a row selected with its columns) as the
    announcement it stores."""
    return Outgoing(
        row.id or 0,
        row.game_id,
        row.chat_id,
        row.thread_id,
        Announcement(row.kind),
        json.loads(row.payload),
    )


Ids = int | Sequence[int]
"""One announcement, or several sent as one message (one transaction for them all)."""


def _ids(message_id: Ids) -> list[int]:
    return [message_id] if isinstance(message_id, int) else list(message_id)


def take(db: Database, message_id: Ids, worker: str, until: float) -> list[int]:
    """Take announcements for sending; the ids taken (those someone else took first are not)."""
    with db.session() as s:
        taken = take_in(s, message_id, worker, until)
        s.commit()
        return taken


def take_in(s: Session, message_id: Ids, worker: str, until: float) -> list[int]:
    """``take`` in the caller's transaction (a group's: the one that counts the call)."""
    took = s.execute(
        update(OutboxMessage)
        .where(
            col(OutboxMessage.id).in_(_ids(message_id)),
            col(OutboxMessage.state) == State.PENDING,
        )
        .values(state=State.SENDING, claimed_by=worker, claimed_until=until)
        .returning(col(OutboxMessage.id))
    ).scalars()
    return sorted(took)


def begin(db: Database, message_id: int, worker: str, until: float) -> bool:
    """Take one announcement for sending; ``False`` if someone else took it first."""
    return bool(take(db, message_id, worker, until))


def finish_in(s: Session, ids: Ids, worker: str, **values: Any) -> None:
    """Record how the sending of announcements this worker took ended, in the caller's
    transaction (``sent``, ``skipped``, ``failed``, ``uncertain``, ``retry``)."""
    params = {f"v_{k}": v for k, v in values.items()}
    s.execute(_finishing(frozenset(values)), {"ids": _ids(ids), "w": worker, **params})


@functools.cache
def _finishing(columns: frozenset[str]) -> Any:
    """``finish_in``'s ``UPDATE`` for these columns, built once per set of them (every
    announcement sent comes here: building it anew cost more CPU than running it)."""
    table = OutboxMessage.__table__  # type: ignore[attr-defined]
    return (
        table.update()
        .where(
            table.c.id.in_(bindparam("ids", expanding=True)),
            table.c.claimed_by == bindparam("w"),
            table.c.state == State.SENDING.value,
        )
        .values({k: bindparam(f"v_{k}") for k in sorted(columns)})
    )


def _finish(db: Database, ids: Ids, worker: str, **values: Any) -> None:
    with db.session() as s:
        finish_in(s, ids, worker, **values)
        s.commit()


def sent_values(telegram_id: int) -> dict[str, Any]:
    """``finish_in``'s values for announcements Telegram accepted as ``telegram_id``."""
    return {"state": State.SENT, "message_id": telegram_id, "sent_at": utcnow()}


def sent(db: Database, message_id: Ids, worker: str, telegram_id: int) -> None:
    """Telegram accepted it."""
    _finish(db, message_id, worker, **sent_values(telegram_id))


def skipped(db: Database, message_id: Ids, worker: str) -> None:
    """Not posted on purpose (the group chose to hear less, ``Chat.noise``): done, with no
    message of its own."""
    _finish(db, message_id, worker, state=State.SENT, sent_at=utcnow())


def failed(db: Database, message_id: Ids, worker: str) -> None:
    """Telegram refused it for good (bot removed from the group, bad request): never retried."""
    _finish(db, message_id, worker, state=State.FAILED)


def uncertain(db: Database, message_id: Ids, worker: str) -> None:
    """The call ended without an answer (timeout): it may have been shown; never resent."""
    _finish(db, message_id, worker, state=State.UNCERTAIN)


def retry(db: Database, message_id: Ids, worker: str) -> None:
    """It surely did not arrive (429, connection refused): back in line."""
    _finish(db, message_id, worker, state=State.PENDING, claimed_by=None, claimed_until=None)


def drop_chat(db: Database, chat_id: int) -> int:
    """The bot cannot post in this chat any more (403): nothing owed there will be sent."""
    with db.session() as s:
        n = s.execute(
            update(OutboxMessage)
            .where(col(OutboxMessage.chat_id) == chat_id, col(OutboxMessage.state) == State.PENDING)
            .values(state=State.FAILED)
        ).rowcount  # type: ignore[attr-defined]
        s.commit()
        return int(n or 0)


def ending_unsure(s: Session, game_id: int, now: float | None) -> bool:
    """Whether a game's ending message may never have been shown: its send timed out, was
    refused, or is claimed past its lease (``now``) by a sender that died during the call.
    """
    q = select(OutboxMessage).where(
        OutboxMessage.game_id == game_id, OutboxMessage.kind == Announcement.MATCH_OVER
    )
    end = s.exec(q).first()
    if end is None:
        return False
    if end.state in (State.UNCERTAIN, State.FAILED):
        return True
    lapsed = end.claimed_until is not None and now is not None and end.claimed_until < now
    return end.state == State.SENDING and lapsed


def owed_games(s: Session) -> list[int]:
    """Games with announcements still pending (they stay in the resume list until sent)."""
    q = select(OutboxMessage.game_id).where(OutboxMessage.state == State.PENDING).distinct()
    return list(s.exec(q))


def counts(db: Database) -> dict[str, int]:
    """How many announcements are in each state (metrics, tests)."""
    with db.session() as s:
        rows = s.exec(select(OutboxMessage.state, func.count()).group_by(col(OutboxMessage.state)))
        return {state: n for state, n in rows}


def calls_said(
    db: Database, sayings: Collection[str]
) -> dict[int, list[tuple[float, float | None]]]:
    """Per chat: when each announcement of ``sayings`` (``Said`` kinds) was recorded and when
    it was sent (Unix seconds; ``None``: never sent), for ``truco bot-bench``'s figures."""
    q = select(OutboxMessage).where(OutboxMessage.kind == Announcement.SAID.value)
    out: dict[int, list[tuple[float, float | None]]] = {}
    with db.session() as s:
        for m in s.exec(q):
            if json.loads(m.payload).get("saying") not in sayings:
                continue
            sent = _unix(m.sent_at) if m.state == State.SENT and m.sent_at else None
            out.setdefault(m.chat_id, []).append((_unix(m.created_at), sent))
    return out


def hands_closed(db: Database) -> dict[int, int]:
    """Per chat: how many hands' closings were recorded (``truco bot-bench``'s figures)."""
    q = select(OutboxMessage.chat_id).where(OutboxMessage.kind == Announcement.HAND_OVER.value)
    out: dict[int, int] = {}
    with db.session() as s:
        for chat in s.exec(q):
            out[chat] = out.get(chat, 0) + 1
    return out


def _unix(at: datetime) -> float:
    """A stored time as Unix seconds (SQLite gives it back without its zone: UTC)."""
    return (at if at.tzinfo else at.replace(tzinfo=UTC)).timestamp()
