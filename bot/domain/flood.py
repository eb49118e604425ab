"""Flood budgets shared by every process of the bot: calls per group per minute, per bot per second.

Telegram counts calls per bot token, not per process: three replicas each keeping
its own 20-a-minute count would post 60 a minute in a busy group. Each budget is a
sliding window of the calls made (``flood_marks``), and a row per budget
(``flood_keys``) is locked while a call is counted, so processes take turns; on
SQLite the database's single writer does the same for one process.

A window, not a token bucket: "at most 20 in any 60 seconds" is what Telegram
enforces, and a bucket refilled at 20 a minute would allow 40 in a minute after a
quiet one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import and_, bindparam, delete, func, insert, or_
from sqlalchemy import select as core_select
from sqlmodel import Session, col, select

from bot.domain.models import FloodKey, FloodMark
from bot.domain.store import Database, insert_of


@dataclass(frozen=True)
class Budget:
    """At most ``limit`` calls in any ``window`` seconds for ``key``.

    ``gap``: callers that can wait (the table redraw) look for a slot this long after
    the last call, so quick changes coalesce into one edit; ``take`` does not enforce it.
    """

    key: str
    limit: int
    window: float
    gap: float = 0.0


GROUP_WINDOW = 61.0
"""A minute and a second: calls are counted when taken and Telegram counts them on arrival,
and a request may travel a few hundred milliseconds longer than the one after it. One that
took longer is marked again at its answer (``remark``): the window then holds whatever
the time between taking a call and Telegram counting it."""


def group_budget(chat_id: int, limit: int = 20) -> Budget:
    """A group's budget: ``limit`` a minute, a second apart (Telegram: about 20 a minute)."""
    return Budget(f"chat:{chat_id}", limit, GROUP_WINDOW, 1.0)


class Withdrawn(Exception):
    """A call's own step (``take_alive``'s ``first``) found nothing left to send."""


SILENT = 8.0
"""Seconds of a group's silence that a match's lines which are not calls wait for while
everyone seated plays in the Mini App (``bot.telegram.planner``), and after which the
table may spend the commands' share: the group is never silent for 10 s while the match
moves."""


def silence_left_in(s: Session, chat_id: int, now: float) -> float:
    """Seconds until the group of ``chat_id`` has been silent for ``SILENT`` (0: it has)."""
    last = s.execute(_LAST, {"key": group_budget(chat_id).key}).scalar()
    return 0.0 if last is None else max(0.0, float(last) + SILENT - now)


def bot_budget(limit: int = 30) -> Budget:
    """The whole bot's budget: ``limit`` messages a second (Telegram: about 30)."""
    return Budget("bot", limit, 1.0)


LONGEST = 3600.0
"""No budget looks further back than this (marks older are forgotten)."""


def seconds_to_wait(
    marks: Sequence[float], b: Budget, now: float, needed: int, spaced: bool
) -> float:
    """Seconds until ``needed`` more calls fit in ``b`` given the marks inside its window.

    ``spaced``: also keep ``b.gap`` after the last call.
    """
    recent = sorted(t for t in marks if now - t < b.window)
    gap = max(0.0, recent[-1] + b.gap - now) if recent and b.gap and spaced else 0.0
    over = len(recent) + needed - b.limit
    if over <= 0:
        return gap
    if over > len(recent):
        return b.window
    return max(gap, recent[over - 1] + b.window - now)


def wait(db: Database, budgets: Sequence[Budget], now: float, needed: int = 1) -> float:
    """Seconds before ``needed`` calls fit in every budget (a look, nothing is counted)."""
    with db.session() as s:
        return wait_in(s, budgets, now, needed)


_MARKS = select(FloodMark.at).where(
    col(FloodMark.key) == bindparam("key"), col(FloodMark.at) > bindparam("since")
)


_LAST = select(func.max(FloodMark.at)).where(col(FloodMark.key) == bindparam("key"))


def marks_in(s: Session, b: Budget, now: float) -> list[float]:
    """When the calls counted in ``b``'s window were made, oldest first (the group-call
    planner spreads a group's minute by them)."""
    found = s.execute(_MARKS, {"key": b.key, "since": now - b.window}).scalars().all()
    return sorted(float(t) for t in found)


def wait_in(s: Session, budgets: Sequence[Budget], now: float, needed: int = 1) -> float:
    """``wait`` in the caller's session (a redraw reads its table and its budget together)."""
    worst = 0.0
    for b in budgets:
        marks = s.execute(_MARKS, {"key": b.key, "since": now - b.window}).scalars().all()
        worst = max(worst, seconds_to_wait(marks, b, now, needed, spaced=True))
    return worst


def take(
    db: Database,
    budgets: Sequence[Budget],
    now: float,
    lock: Sequence[str] | None = None,
    *,
    needed: int = 1,
    spaced: bool = False,
) -> float:
    """Count one call in every budget if it fits now (returns 0); else the seconds to wait.

    ``lock``: the budgets' rows that make callers take turns (all of them by default);
    the command throttle's many little budgets of one person share the person's row.
    ``needed``: count the call only if this many would fit (room kept for others);
    ``spaced``: also keep each budget's ``gap`` after its last call.

    Five round trips while the budgets' rows are locked (lock, read, count, forget,
    commit): every call of every process takes its turn on the bot's row, so the time
    the lock is held is what bounds the bot's calls a second. The statements are built
    once (every send in a group comes here): building them cost more CPU than running them.
    """
    return take_alive(db, budgets, now, lock, needed=needed, spaced=spaced)[0]


def take_alive(
    db: Database,
    budgets: Sequence[Budget],
    now: float,
    lock: Sequence[str] | None = None,
    *,
    needed: int = 1,
    spaced: bool = False,
    alive_as: tuple[str, float] | None = None,
    first: Callable[[Session], bool] | None = None,
) -> tuple[float, int]:
    """``take``, and with ``alive_as`` (a worker, a ``ttl``) also ``alive`` in the same
    transaction: the wait, and how many processes are alive (0 when not asked).

    A replica notes itself alive once a second while it sends: a transaction of its own
    each time was most of a second's worth of a busy group's sends. ``first``: the call's
    own step, run in the transaction that counts it (an announcement taken from the
    outbox: a transaction of its own for each message before); when it returns False
    the call is not counted and ``Withdrawn`` is raised."""
    keys = sorted({b.key for b in budgets} if lock is None else set(lock))
    marked = sorted({b.key for b in budgets})
    with db.session() as s:
        found = 0 if alive_as is None else _alive_in(s, alive_as[0], now, alive_as[1])
        # in key order: two processes never wait on each other in a cycle
        if len(s.execute(_LOCK, {"keys": keys}).all()) < len(keys):  # counted the first time
            for key in keys:
                stmt = insert_of(s, FloodKey).values(key=key)
                s.execute(stmt.on_conflict_do_nothing(index_elements=["key"]))
            s.execute(_LOCK, {"keys": keys}).all()
        oldest = now - max(b.window for b in budgets)
        rows = s.execute(_RECENT, {"keys": marked, "since": oldest}).all()
        worst = 0.0
        for b in budgets:
            marks = [at for key, at in rows if key == b.key and at > now - b.window]
            worst = max(worst, seconds_to_wait(marks, b, now, needed, spaced=spaced))
        if worst > 0:
            if alive_as is None:
                s.rollback()
            else:  # the note stays (and the first time's keys, which nothing else writes)
                s.commit()
            return worst, found
        if first is not None and not first(s):
            s.commit()  # the alive note stays
            raise Withdrawn()
        if len(budgets) == 1:  # a group's send: the statements built once
            b = budgets[0]
            s.execute(_MARK, {"key": b.key, "at": now})
            s.execute(_FORGET, {"key": b.key, "before": now - b.window})
        else:
            s.execute(insert(FloodMark).values([{"key": b.key, "at": now} for b in budgets]))
            s.execute(
                delete(FloodMark).where(
                    or_(
                        *(
                            and_(col(FloodMark.key) == b.key, col(FloodMark.at) < now - b.window)
                            for b in budgets
                        )
                    )
                )
            )
        s.commit()
        return 0.0, found


_KEYS = FloodKey.__table__  # type: ignore[attr-defined]
_MARKS_T = FloodMark.__table__  # type: ignore[attr-defined]
_LOCK = (
    core_select(_KEYS.c.key)
    .where(_KEYS.c.key.in_(bindparam("keys", expanding=True)))
    .order_by(_KEYS.c.key)
    .with_for_update()
)
_RECENT = core_select(_MARKS_T.c.key, _MARKS_T.c.at).where(
    _MARKS_T.c.key.in_(bindparam("keys", expanding=True)), _MARKS_T.c.at > bindparam("since")
)
_MARK = _MARKS_T.insert()
_FORGET = _MARKS_T.delete().where(
    _MARKS_T.c.key == bindparam("key"), _MARKS_T.c.at < bindparam("before")
)


def remark(db: Database, budgets: Sequence[Budget], taken: float, answered: float) -> None:
    """Move the marks of a call counted at ``taken`` to ``answered`` (it was answered late).

    Telegram counted the call somewhere between the two; a mark left at ``taken`` would
    leave the window before Telegram's count of it does, and let one call too many through.
    """
    with db.session() as s:
        for b in budgets:
            s.execute(_REMARK, {"k": b.key, "taken": taken, "answered": answered})
        s.commit()


_REMARK = (
    _MARKS_T.update()
    .where(_MARKS_T.c.key == bindparam("k"), _MARKS_T.c.at == bindparam("taken"))
    .values(at=bindparam("answered"))
)


def forget(db: Database, now: float) -> int:
    """Drop the marks no budget looks at any more (those of keys seldom counted linger)."""
    with db.session() as s:
        gone = s.execute(delete(FloodMark).where(col(FloodMark.at) < now - LONGEST))
        s.commit()
        return int(gone.rowcount or 0)  # type: ignore[attr-defined]


def drop(db: Database, prefix: str) -> int:
    """Forget every mark of the keys starting with ``prefix``; how many."""
    with db.session() as s:
        gone = s.execute(delete(FloodMark).where(col(FloodMark.key).startswith(prefix)))
        s.commit()
        return int(gone.rowcount or 0)  # type: ignore[attr-defined]


def alive(db: Database, worker: str, now: float, ttl: float) -> int:
    """Note ``worker`` alive at ``now``; how many processes were noted within ``ttl`` seconds.

    The bot's per-second budget is split between them (``bot.telegram.budget``).
    """
    with db.session() as s:
        found = _alive_in(s, worker, now, ttl)
        s.commit()
    return found


def _alive_in(s: Session, worker: str, now: float, ttl: float) -> int:
    """``alive`` in the caller's transaction."""
    key = f"alive:{worker}"
    s.execute(_MARK, {"key": key, "at": now})
    s.execute(_FORGET, {"key": key, "before": now})
    return max(1, int(s.execute(_ALIVE, {"since": now - ttl}).scalar_one()))


_ALIVE = core_select(func.count(func.distinct(_MARKS_T.c.key))).where(
    _MARKS_T.c.key.startswith("alive:"), _MARKS_T.c.at > bindparam("since")
)
