"""Durable jobs: what must happen next to a table, stored with the change that calls for it.

A job is a kind (``JobKind``), a key (whose), a due time and its payload: one frozen value
per kind (``TableJob``, ``HandsJob``, ``DeadlineJob``, ``RobotJob``, ``MarcadorJob``),
stored as JSON and read back by ``read_payload``, the one reader of the stored form. The domain
writes jobs inside the transaction of a change (``schedule``), so a committed move always
has its robot turn, deadline and redraws recorded, whatever happens to the process
afterwards. Every bot process runs a ``bot.telegram.job_runner.JobRunner`` whose each turn
(``cycle``) finishes the jobs it ran and claims due ones for a lease; a process that
dies leaves its claims to expire, and another process takes them over.

Why rows and ``SELECT ... FOR UPDATE SKIP LOCKED`` rather than a job-queue library
(procrastinate, pgqueuer): a job must be written in the same transaction as the game
change (the queue libraries enqueue through their own connection), jobs are replaced
by key (a new deadline supersedes the old one), the same code must run on SQLite for
one process, and the whole queue is four statements. SQLite ignores ``FOR UPDATE``;
it has one writer at a time and the bot one process there.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from sqlalchemy import bindparam, case, func, tuple_, update
from sqlalchemy import select as core_select
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, col, select

from bot.domain.models import Job
from bot.domain.store import Database
from bot.domain.values.game import Change, GameStatus
from bot.domain.values.settings import TurnHolder


class JobKind(StrEnum):
    """What a job does."""

    TABLE = "table"
    """Redraw a chat's public table messages and send its announcements (data: game ids)."""
    HANDS = "hands"
    """Redraw a game's private hand messages (data: the game id)."""
    DEADLINE = "deadline"
    """Play the default action of whoever let the clock run out (data: game, version)."""
    ROBOT = "robot"
    """A robot's turn (data: game, version, seat)."""
    MARCADOR = "marcador"
    """Redraw a ``/marcador`` message (data: the marcador id)."""


@dataclass(frozen=True)
class TableJob:
    """Redraw a chat's public table messages and send their announcements, in this order."""

    kind: ClassVar[JobKind] = JobKind.TABLE
    games: tuple[int, ...]


@dataclass(frozen=True)
class HandsJob:
    """Redraw a game's private hand messages (also its warning before the deadline)."""

    kind: ClassVar[JobKind] = JobKind.HANDS
    game: int


@dataclass(frozen=True)
class DeadlineJob:
    """Play the default action of whoever let the clock of ``version`` run out (R10), or end
    a Revanche's wait."""

    kind: ClassVar[JobKind] = JobKind.DEADLINE
    game: int
    version: int


@dataclass(frozen=True)
class RobotJob:
    """The turn of the robot in ``seat`` at ``version``."""

    kind: ClassVar[JobKind] = JobKind.ROBOT
    game: int
    version: int
    seat: int


@dataclass(frozen=True)
class MarcadorJob:
    """Redraw a ``/marcador`` message (``board``: the name the stored jobs already carry)."""

    kind: ClassVar[JobKind] = JobKind.MARCADOR
    board: int


Payload = TableJob | HandsJob | DeadlineJob | RobotJob | MarcadorJob
"""What a job carries: one value per ``JobKind``."""

PAYLOADS: dict[str, type[Payload]] = {
    p.kind.value: p for p in (TableJob, HandsJob, DeadlineJob, RobotJob, MarcadorJob)
}
"""The payload's type of each kind."""


def stored_form(payload: Payload) -> str:
    """The payload as the ``jobs`` row keeps it (JSON, the field names as keys)."""
    return json.dumps({k: list(v) if isinstance(v, tuple) else v for k, v in _fields(payload)})


def read_payload(kind: str, data: dict[str, Any]) -> Payload:
    """The payload of a stored job of ``kind`` (``KeyError``/``TypeError``: not one of ours)."""
    cls = PAYLOADS[kind]
    if cls is TableJob:
        return TableJob(tuple(int(g) for g in data["games"]))
    numbers = {f.name: int(data[f.name]) for f in dataclasses.fields(cls)}
    return cls(**numbers)  # type: ignore[arg-type]  # every other payload holds ids only


def _fields(payload: Payload) -> list[tuple[str, Any]]:
    return [(f.name, getattr(payload, f.name)) for f in dataclasses.fields(payload)]


def table_key(chat_id: int, thread_id: int | None) -> str:
    """The key of a chat's (or forum topic's) table job."""
    return f"{chat_id}:{thread_id or 0}"


FOLD_MARGIN = 1.0
"""Seconds a robot's answer may take beyond the robot's delay and still be drawn in the
same edit of the hands as the move before it (a job run late under load)."""
FOLD_MAX = 2.0
"""The longest the hands wait for a robot's answer: about as long as a button's toast
stays on screen, where the pressed move is shown meanwhile (``handlers.moves``)."""


def hands_wait(robot_delay: float) -> float:
    """How long a change that leaves a robot to act waits before the hands are redrawn,
    so that the robot's answer comes in the same edit (0: robots too slow to wait for).

    Without it a press was two edits of its message: the hand without its buttons at
    once, and again with them when the robot gave the turn back; a person may not act
    in between anyway (a stale press is refused), and the button's toast says at once
    what was pressed."""
    wait = robot_delay + FOLD_MARGIN
    return wait if wait <= FOLD_MAX else 0.0


def after_change(
    s: Session,
    change: Change,
    now: float,
    robot_delay: float,
    warning: float | None = None,
    table_wait: float = 0.0,
    *,
    hands: bool = True,
    table_held: bool = False,
    holder: TurnHolder | None = None,
) -> Held:
    """Record, in the change's transaction, everything that must follow it.

    The robot's turn or the deadline of the pending decision (a robot to act moves by
    itself; the clock is for people), the redraw of the table (``table_wait`` seconds from
    now: a redraw already due sooner keeps its time) and the hands (unless ``hands`` is
    False: they show nothing new; after ``hands_wait`` when a robot acts next), and the
    hands' warning ``warning`` seconds before the deadline.

    With a ``holder``, the robot's turn is claimed for it here (returned: tell the holder
    after the commit): a claim of its own was a transaction per robot turn. So is the hands'
    redraw, unless another process holds it (running it: it runs again after, as ever).
    Also returned: when the first of the other jobs is due, as stored (a redraw kept sooner
    or kept at its time: its runner is now this process, ``Job.runner``, and the one that
    recorded that time no longer takes it).
    """
    key = str(change.game_id)
    game, version = change.game_id, change.version
    playing = change.status == GameStatus.PLAYING
    dropped: list[tuple[str, str]] = []  # cancelled together: one statement, not two
    held: ClaimedJob | None = None
    redraw: ClaimedJob | None = None
    soonest = math.inf
    # the holder's runner wakes for them (``soonest``, and its own look for the next due job)
    runner = None if holder is None else holder.worker
    if playing and change.robot_seat is not None:
        turn = RobotJob(game, version, change.robot_seat)
        if holder is None:
            soonest = min(soonest, now + robot_delay)
            schedule(s, key, now + robot_delay, turn)
        else:
            held = hold(s, key, now + robot_delay, turn, holder.worker, holder.lease)
        dropped.append((JobKind.DEADLINE, key))
    elif playing and change.deadline_at is not None:
        soonest = min(soonest, change.deadline_at)
        schedule(s, key, change.deadline_at, DeadlineJob(game, version), runner=runner)
        dropped.append((JobKind.ROBOT, key))
    else:
        dropped += [(JobKind.DEADLINE, key), (JobKind.ROBOT, key)]
    if change.status != GameStatus.LOBBY and hands:
        # a robot to act: the hands wait for its answer (which brings them to now, or
        # waits again for the next robot's), one edit instead of two (``hands_wait``)
        robot_next = playing and change.robot_seat is not None
        hands_at = now + (hands_wait(robot_delay) if robot_next else 0.0)
        if holder is not None:
            redraw = hold_redraw(s, key, hands_at, HandsJob(game), holder, now)
        if redraw is None:
            due = schedule(s, key, hands_at, HandsJob(game), keep_earlier=True, runner=runner)
            soonest = min(soonest, due)
    # the hands drawn once more when the time of whoever must act is nearly out
    warn_at = change.deadline_at - warning if change.deadline_at and warning else None
    if playing and warn_at is not None and warn_at > now:
        soonest = min(soonest, warn_at)
        schedule(s, f"{key}:warning", warn_at, HandsJob(game), runner=runner)
    else:
        dropped.append((JobKind.HANDS, f"{key}:warning"))
    s.execute(_CANCEL_ALL, {"pairs": [(str(kind), k) for kind, k in dropped]})
    tkey = table_key(change.chat_id, change.thread_id)
    payload = TableJob((game,))
    due = schedule(
        s,
        tkey,
        now + table_wait,
        payload,
        keep_earlier=True,
        merge=True,
        keep=table_held,
        runner=runner,
    )
    # when it is due, kept sooner or kept at its time (``table_held``): this process runs
    # it now (``runner``), and the one that recorded that time no longer takes it
    soonest = min(soonest, due)
    return Held(held, redraw, soonest)


@dataclass(frozen=True)
class Held:
    """What ``after_change`` claimed for the holder's runner, and when to look for the rest."""

    turn: ClaimedJob | None
    """The robot's turn (``hold``)."""
    redraw: ClaimedJob | None
    """The hands' redraw (``hold_redraw``)."""
    soonest: float
    """When the first of the other jobs recorded is due."""


def hold_redraw(
    s: Session, key: str, due_at: float, payload: HandsJob, holder: TurnHolder, now: float
) -> ClaimedJob | None:
    """The hands' redraw claimed for ``holder``'s runner, as ``hold`` claims a robot's turn,
    unless another process holds it now (running it, or claimed by a change of its own):
    ``None``, and the caller records it for that process to run again. A redraw waiting
    sooner keeps its time.

    Claimed by a turn of the runner's loop, each redraw (one a press) cost a transaction.
    """
    return _claim_in(s, key, due_at, payload, holder.worker, holder.lease, now)


def hold(
    s: Session, key: str, due_at: float, payload: Payload, worker: str, lease: float
) -> ClaimedJob:
    """Create or replace the job of ``payload``'s kind and ``key``, claimed by ``worker``
    until ``lease`` seconds after it is due, in the caller's transaction.

    A claim taken over from another process leaves that one's run (of an older
    generation) finishing nothing (``cycle``: no longer its own).
    """
    held = _claim_in(s, key, due_at, payload, worker, lease, None)
    if held is None:  # never: without ``now`` the row is taken whoever held it
        raise RuntimeError(f"job {payload.kind.value} {key} not claimed")
    return held


def _claim_in(
    s: Session,
    key: str,
    due_at: float,
    payload: Payload,
    worker: str,
    lease: float,
    now: float | None,
) -> ClaimedJob | None:
    """``hold`` (``now`` None: whoever holds the row) and ``hold_redraw`` (only a row free
    at ``now`` or already ``worker``'s, keeping a sooner time; else ``None``)."""
    until = due_at + lease
    params = {
        "kind": payload.kind.value,
        "key": key,
        "due_at": due_at,
        "data": stored_form(payload),
        "w": worker,
        "until": until,
        "runner": worker,
        "now": now,
    }
    row = s.execute(_held_upsert(s.get_bind().dialect.name, now is not None), params).first()
    if row is None:
        return None
    data = {k: list(v) if isinstance(v, tuple) else v for k, v in _fields(payload)}
    return ClaimedJob(row[0], payload.kind.value, key, float(row[2]), data, row[1], 0, until)


def _new_job(dialect: str, **claim: Any) -> Any:
    """The ``INSERT`` of a new job (its kind, key, due time and data as bound parameters),
    in ``dialect``, for an ``ON CONFLICT`` clause; ``claim``: claimed as it is made."""
    stmt = (postgresql if dialect == "postgresql" else sqlite).insert(Job.__table__)  # type: ignore[attr-defined]
    return stmt.values(
        kind=bindparam("kind"),
        key=bindparam("key"),
        due_at=bindparam("due_at"),
        data=bindparam("data"),
        generation=1,
        attempts=0,
        runner=bindparam("runner"),
        **claim,
    )


@functools.cache
def _held_upsert(dialect: str, yielding: bool) -> Any:
    """``_claim_in``'s statement, built once per dialect and shape. ``yielding``: the row is
    taken only when free at ``now`` or already the claimer's, and keeps a sooner time."""
    stmt = _new_job(dialect, claimed_by=bindparam("w"), claimed_until=bindparam("until"))
    jobs, new = Job.__table__.c, stmt.excluded  # type: ignore[attr-defined]
    sooner = case((jobs.due_at < new.due_at, jobs.due_at), else_=new.due_at)
    free = jobs.claimed_by.is_(None) | (jobs.claimed_until < bindparam("now"))
    upsert = stmt.on_conflict_do_update(
        index_elements=["kind", "key"],
        set_={
            "due_at": sooner if yielding else new.due_at,
            "data": new.data,
            "generation": jobs.generation + 1,
            "attempts": 0,
            "claimed_by": new.claimed_by,
            "claimed_until": new.claimed_until,
            "runner": new.runner,
        },
        where=(free | (jobs.claimed_by == new.claimed_by)) if yielding else None,
    )
    return upsert.returning(jobs.id, jobs.generation, jobs.due_at)


def request(
    db: Database,
    key: str,
    due_at: float,
    payload: Payload,
    *,
    keep_earlier: bool = False,
    runner: str | None = None,
) -> None:
    """Schedule a job outside any change (a redraw to retry later, a start-up resume); a
    table redraw waiting for the same chat takes this one's games too. ``runner``: as
    ``schedule``."""
    with db.session() as s:
        merge = isinstance(payload, TableJob)
        schedule(s, key, due_at, payload, keep_earlier=keep_earlier, merge=merge, runner=runner)
        s.commit()


@dataclass(frozen=True)
class ClaimedJob:
    """A job this process holds until ``lease_until``."""

    id: int
    kind: str
    key: str
    due_at: float
    data: dict[str, Any]
    """The payload's stored form; ``payload()`` reads it."""
    generation: int
    attempts: int
    lease_until: float

    def payload(self) -> Payload:
        """What the job carries, typed (``KeyError``/``TypeError`` when it is not ours)."""
        return read_payload(self.kind, self.data)


def schedule(
    s: Session,
    key: str,
    due_at: float,
    payload: Payload,
    *,
    keep_earlier: bool = False,
    merge: bool = False,
    keep: bool = False,
    runner: str | None = None,
) -> float:
    """Create or replace the job of ``payload``'s kind and ``key`` in the caller's transaction;
    when it is due now.

    ``keep_earlier``: a job already due sooner keeps its time (redraws coalesce).
    ``keep``: a job already waiting keeps its time, whenever it is due.
    ``merge`` (a ``TableJob``): a redraw already waiting draws its games and these.
    ``runner``: the process that will run it (``Job.runner``: its runner wakes for it; the
    others take it only once it is ``ORPHANED``); ``None``: anyone.
    A job being run while it is rescheduled runs again once its run ends.
    """
    kind = payload.kind.value
    # One statement (every move schedules three jobs, each a round trip on the move's
    # path): a new job, or the waiting one replaced. With ``merge`` only when the data is
    # the same (a chat's one table redrawn again); other data is merged below.
    params = {
        "kind": kind,
        "key": key,
        "due_at": due_at,
        "data": stored_form(payload),
        "runner": runner,
    }
    upsert = _upsert(s.get_bind().dialect.name, keep_earlier, merge, keep)
    done = s.execute(upsert, params).first()
    if done is not None:
        return float(done[1])
    q = select(Job).where(Job.kind == kind, Job.key == key).with_for_update()
    row = s.exec(q).one()  # it conflicted and is locked by the statement above
    if merge and isinstance(payload, TableJob):
        waiting = json.loads(row.data).get("games", [])
        payload = TableJob(tuple(sorted(set(waiting) | set(payload.games))))
    row.data = stored_form(payload)
    row.runner = runner
    if not keep:
        row.due_at = min(row.due_at, due_at) if keep_earlier else due_at
    row.generation += 1
    row.attempts = 0
    s.add(row)
    return float(row.due_at)


@functools.cache
def _upsert(dialect: str, keep_earlier: bool, same_data_only: bool, keep: bool = False) -> Any:
    """``schedule``'s statement, built once per shape: building it anew for every job
    (its ``excluded`` alias, the ON CONFLICT clause, their cache key) cost more CPU than
    running it."""
    stmt = _new_job(dialect)
    jobs, new = Job.__table__.c, stmt.excluded  # type: ignore[attr-defined]
    due = case((jobs.due_at < new.due_at, jobs.due_at), else_=new.due_at) if keep_earlier else None
    if keep:
        due = jobs.due_at
    upsert = stmt.on_conflict_do_update(
        index_elements=["kind", "key"],
        set_={
            "due_at": new.due_at if due is None else due,
            "data": new.data,
            "generation": jobs.generation + 1,
            "attempts": 0,
            "runner": new.runner,
        },
        where=(jobs.data == new.data) if same_data_only else None,
    )
    return upsert.returning(jobs.id, jobs.due_at)


# the hot statements on the table itself, not through the ORM's bulk DELETE and UPDATE
# (which look for objects to synchronise in the session: more CPU than the statement)
_JOBS = Job.__table__  # type: ignore[attr-defined]
_CANCEL = _JOBS.delete().where(_JOBS.c.kind == bindparam("kind"), _JOBS.c.key == bindparam("key"))
_CANCEL_ALL = _JOBS.delete().where(
    tuple_(_JOBS.c.kind, _JOBS.c.key).in_(bindparam("pairs", expanding=True))
)


def cancel(s: Session, kind: str, key: str) -> None:
    """Drop the job of ``kind`` and ``key`` (in the caller's transaction)."""
    s.execute(_CANCEL, {"kind": kind, "key": key})


def claim(
    db: Database,
    worker: str,
    now: float,
    lease: float,
    wants: Sequence[tuple[Iterable[str], int]],
) -> list[ClaimedJob]:
    """Take due jobs nobody holds, for ``lease`` seconds: up to ``limit`` of the ``kinds`` of
    each of ``wants``, in that order, in one transaction."""
    return cycle(db, worker, now, lease, wants).claimed


@dataclass(frozen=True)
class Later:
    """A job that ran and asked to run again at ``due_at`` (``postpone``'s arguments), given
    back by the next turn of its runner."""

    job: ClaimedJob
    due_at: float
    failed: bool = False
    """Count the attempt (a failure: backoff)."""
    left: Payload | None = None
    """What is left to do, unless the job was rescheduled meanwhile."""


@dataclass(frozen=True)
class Cycle:
    """What one turn of a runner found."""

    claimed: list[ClaimedJob]
    """Jobs taken for the lease."""
    more: bool
    """Some lane got all it asked for: more jobs may be due."""
    next_due: float | None
    """When the next job becomes claimable (looked up when none is waiting: ``more`` False)."""
    unfinished: list[ClaimedJob]
    """Jobs that ran whose rows a change held: finish them next time."""
    not_given_back: list[Later] = dataclasses.field(default_factory=list)
    """Jobs to give back whose rows a change held: give them back next time."""


_MINE = (
    select(Job.id, Job.generation)
    .where(col(Job.id).in_(bindparam("ids", expanding=True)), col(Job.claimed_by) == bindparam("w"))
    .with_for_update(skip_locked=True)
)
# by id *and* generation: on SQLite the read of ``_MINE`` locks nothing, and a request
# committed between it and the delete (a newer generation) must survive and run again
_DONE = _JOBS.delete().where(
    tuple_(_JOBS.c.id, _JOBS.c.generation).in_(bindparam("done", expanding=True))
)
# a job rescheduled while it ran, released by its runner's turn, becomes that runner's: the
# process that rescheduled it read the claim's lease for its next look, and sleeps until then
_RELEASE = (
    _JOBS.update()
    .where(_JOBS.c.id.in_(bindparam("ids", expanding=True)))
    .values(claimed_by=None, claimed_until=None, runner=bindparam("w"))
)
_CLAIMED = (
    _JOBS.update()
    .where(_JOBS.c.id.in_(bindparam("ids", expanding=True)))
    .values(claimed_by=bindparam("w"), claimed_until=bindparam("until"))
)
_NEXT = select(
    func.min(case((col(Job.claimed_by).is_(None), col(Job.due_at)), else_=col(Job.claimed_until)))
)


@functools.cache
def _next_query(kinds: frozenset[str]) -> Any:
    """When the next job of ``kinds`` that is this runner's to wake for becomes claimable:
    its own and anyone's at their due time, a claim of any runner when its lease runs out;
    another runner's waiting job never (the poll finds it once ``ORPHANED``). Built once per
    set of kinds."""
    jobs = Job.__table__.c  # type: ignore[attr-defined]
    mine = jobs.runner.is_(None) | (jobs.runner == bindparam("w"))
    due = case((mine, jobs.due_at), else_=None)
    return select(func.min(case((jobs.claimed_by.is_(None), due), else_=jobs.claimed_until))).where(
        jobs.kind.in_(sorted(kinds))
    )


ORPHANED = 3.0
"""Seconds past its due time after which any runner takes a job recorded for another
(``Job.runner``): that process is gone, or too busy to run it. Each job with a due time
woke every replica at that time, and all but one found it taken (about two turns of the job
loop a hand, each a transaction: docs-dev/bot-bench-log.md)."""


@functools.cache
def _claim_query(kinds: frozenset[str]) -> Any:
    """The due jobs of ``kinds`` nobody holds, oldest first, locked (built once per lane)."""
    jobs = Job.__table__.c  # type: ignore[attr-defined]
    now: Any = bindparam("now")
    return (
        core_select(
            jobs.id, jobs.kind, jobs.key, jobs.due_at, jobs.data, jobs.generation, jobs.attempts
        )
        .where(
            jobs.due_at <= now,
            jobs.claimed_until.is_(None) | (jobs.claimed_until < now),
            jobs.kind.in_(sorted(kinds)),
            jobs.runner.is_(None)
            | (jobs.runner == bindparam("w"))
            | (jobs.due_at <= now - bindparam("orphaned")),
        )
        .order_by(jobs.due_at)
        .limit(bindparam("limit"))
        .with_for_update(skip_locked=True)
    )


def cycle(
    db: Database,
    worker: str,
    now: float,
    lease: float,
    wants: Sequence[tuple[Iterable[str], int]],
    done: Sequence[ClaimedJob] = (),
    later: Sequence[Later] = (),
) -> Cycle:
    """One turn of a runner, in one transaction: finish the jobs ``done`` (as ``finish``),
    give back the jobs ``later`` (as ``postpone``), claim due ones (as ``claim``), and,
    when no more are waiting, when the next one is due.

    Every job ran used to cost a transaction to finish and every look for work two more
    (claim, then the next due time): most of the database's transactions of a hand. A
    job put off (a table waiting for its group's minute or for the Mini App's gap) cost
    one more of its own.

    The rows of ``done`` are locked with SKIP LOCKED, never waited for: a change
    rescheduling a game locks its jobs in its own order, and waiting here while holding
    other rows could deadlock with it (as ``renew``). A row skipped is finished next time.
    """
    claimed: list[ClaimedJob] = []
    more = False
    unfinished: list[ClaimedJob] = []
    not_given_back: list[Later] = []
    with db.session() as s:
        if later:
            back = {x.job.id: x for x in later}
            ours = {i for i, _gen in s.execute(_MINE, {"ids": list(back), "w": worker}).all()}
            for i in ours:
                _give_back(s, back[i], worker)
            gone = [i for i in back if i not in ours]
            if gone:  # locked by a change, or no longer ours (as ``done`` below)
                q = select(Job.id).where(col(Job.id).in_(gone), col(Job.claimed_by) == worker)
                still = set(s.exec(q).all())
                not_given_back = [back[i] for i in gone if i in still]
        if done:
            by_id = {j.id: j for j in done}
            rows = s.execute(_MINE, {"ids": list(by_id), "w": worker}).all()
            mine: dict[int, int] = {i: gen for i, gen in rows}
            finished = [i for i, gen in mine.items() if by_id[i].generation == gen]
            again = [i for i, gen in mine.items() if by_id[i].generation != gen]
            if finished:
                pairs = [(i, mine[i]) for i in finished]
                gone = s.execute(_DONE, {"done": pairs}).rowcount  # type: ignore[attr-defined]
                if gone < len(finished):  # rescheduled since the read: not finished after all
                    again += finished
            if again:  # rescheduled while it ran: it runs again
                s.execute(_RELEASE, {"ids": again, "w": worker})
            missing = [i for i in by_id if i not in mine]
            if missing:  # locked by a change, or no longer ours (cancelled, lease lost)
                q = select(Job.id).where(col(Job.id).in_(missing), col(Job.claimed_by) == worker)
                held = set(s.exec(q).all())
                unfinished = [by_id[i] for i in missing if i in held]
        until = now + lease
        for kinds, limit in wants:
            if limit <= 0:
                continue
            query = _claim_query(frozenset(kinds))
            params = {"now": now, "limit": limit, "w": worker, "orphaned": ORPHANED}
            rows = s.execute(query, params).all()
            more = more or len(rows) >= limit
            claimed += [
                ClaimedJob(i, kind, key, due, json.loads(data), gen, tries, until)
                for i, kind, key, due, data, gen, tries in rows
            ]
        if claimed:
            s.execute(_CLAIMED, {"ids": [j.id for j in claimed], "w": worker, "until": until})
        # only the lanes with a free slot: a full lane's due jobs are not claimable now
        # (a job ending wakes the runner), and counting them made it look again every 5 ms
        free = frozenset(k for kinds, limit in wants if limit > 0 for k in kinds)
        nxt = None if more or not free else s.execute(_next_query(free), {"w": worker}).scalar()
        s.commit()
    return Cycle(claimed, more, nxt, unfinished, not_given_back)


def finish_in(s: Session, job: ClaimedJob, worker: str) -> bool:
    """Finish ``job`` in the caller's transaction, its run's last write, as ``cycle``'s
    ``done`` would; whether it was (else the runner's next turn sees to it).

    Only while the row is still this run's: this worker's claim, the same generation (a
    change that rescheduled it meanwhile wants it run again), and never waiting for a
    lock (a change rescheduling it holds the row: as ``cycle``). A job finished by a turn
    of its own cost a transaction per private hand redraw, most of a replica's turns.
    """
    row = s.execute(_MINE, {"ids": [job.id], "w": worker}).first()
    if row is None or row[1] != job.generation:
        return False
    gone = s.execute(_DONE, {"done": [(job.id, job.generation)]}).rowcount  # type: ignore[attr-defined]
    return bool(gone)


def postpone(
    db: Database,
    job: ClaimedJob,
    worker: str,
    due_at: float,
    *,
    failed: bool,
    left: Payload | None = None,
) -> None:
    """Give the job back to run at ``due_at`` (``failed``: count the attempt, for backoff).

    ``left``: what is left to do, unless the job was rescheduled meanwhile. (A runner
    gives its jobs back with its next turn instead: ``cycle``'s ``later``.)
    """
    with db.session() as s:
        _give_back(s, Later(job, due_at, failed, left), worker)
        s.commit()


def _give_back(s: Session, later: Later, worker: str) -> None:
    """``postpone`` in the caller's transaction."""
    job = later.job
    s.execute(_UNCLAIM, {"job": job.id, "w": worker, "tries": 1 if later.failed else 0})
    # a reschedule meanwhile chose its own time and data; otherwise as asked
    params = {"job": job.id, "gen": job.generation, "due": later.due_at}
    if later.left is None:
        s.execute(_AGAIN, params)
    else:
        s.execute(_AGAIN_LEFT, {**params, "left": stored_form(later.left)})


# every job put off comes back through these: built once
_UNCLAIM = (
    _JOBS.update()
    .where(_JOBS.c.id == bindparam("job"), _JOBS.c.claimed_by == bindparam("w"))
    .values(
        claimed_by=None,
        claimed_until=None,
        attempts=_JOBS.c.attempts + bindparam("tries"),
        runner=bindparam("w"),  # its giver wakes for it (and for a reschedule meanwhile)
    )
)
_AGAIN = (
    _JOBS.update()
    .where(_JOBS.c.id == bindparam("job"), _JOBS.c.generation == bindparam("gen"))
    .values(due_at=bindparam("due"))
)
_AGAIN_LEFT = _AGAIN.values(data=bindparam("left"))


def renew(db: Database, ids: Iterable[int], worker: str, until: float) -> None:
    """Extend the lease of jobs still running.

    A row locked by a change rescheduling it is skipped, not waited for: the change locks
    a game's jobs in its own order, and one statement locking several in another order
    deadlocked with it (seen once on PostgreSQL). A skipped lease is renewed next time.
    """
    ids = list(ids)
    if not ids:
        return
    with db.session() as s:
        free = (
            select(Job.id)
            .where(col(Job.id).in_(ids), col(Job.claimed_by) == worker)
            .with_for_update(skip_locked=True)
        )
        s.execute(
            update(Job).where(col(Job.id).in_(free.scalar_subquery())).values(claimed_until=until)
        )
        s.commit()


def release_all(db: Database, worker: str) -> int:
    """Give back every job this worker holds (graceful shutdown); how many. The jobs it
    was to run become anyone's: a replica stopping for an update leaves nothing to wait
    ``ORPHANED`` for."""
    with db.session() as s:
        n = s.execute(
            update(Job)
            .where(col(Job.claimed_by) == worker)
            .values(claimed_by=None, claimed_until=None)
        ).rowcount  # type: ignore[attr-defined]
        s.execute(update(Job).where(col(Job.runner) == worker).values(runner=None))
        s.commit()
        return int(n or 0)


def next_due(db: Database, now: float) -> float | None:
    """When the next job becomes claimable (a due time, or a lease running out)."""
    with db.session() as s:
        found: float | None = s.execute(_NEXT).scalar()
        return found


def waiting(db: Database, kind: str | None = None) -> list[tuple[str, str, float]]:
    """Every job stored (``kind``: only those), as (kind, key, due time)."""
    with db.session() as s:
        q = select(Job.kind, Job.key, Job.due_at)
        if kind is not None:
            q = q.where(Job.kind == kind)
        return [(k, key, due) for k, key, due in s.exec(q.order_by(col(Job.due_at)))]
