"""Running the durable jobs: every process claims due jobs from the database and runs them.

The domain writes a job (deadline, robot turn, a table, hands or /marcador redraw) in the
transaction of the change that calls for it (``bot.domain.jobs``); this runner is
the other half. Each process polls for due jobs, claims them for a lease
(``FOR UPDATE SKIP LOCKED``: two processes never take the same one), runs the
callback bound to the job's kind, and finishes it. A process that made a change
``wake``\\ s its own runner so the follow-up starts at once; the others notice due
jobs within ``poll`` seconds.

- A job that fails on a database error is put back with exponential backoff
  (0.5 s, 1 s, 2 s ... up to a minute); nothing is dropped.
- A process that dies leaves its claims to expire (``lease``) and a survivor takes
  them; while it lives, its runner renews the leases of the jobs it runs.
- ``start`` begins claiming, once the Application runs; ``stop`` claims nothing new,
  lets the jobs running finish and gives back the claims left.

- Each lane of kinds has its own slots, claimed in order (why: ``bot.telegram.job_table``).

Which callback runs each kind, and in which lane, is one table
(``bot.telegram.job_table``, beside this module): a callback gets the application, the
claimed job and its typed payload (``bot.domain.jobs.Payload``), and may raise
:class:`Postpone` to run again later.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.clock import WALL, Clock
from bot.domain import Database, Unavailable
from bot.domain import jobs as store
from bot.domain.jobs import ClaimedJob, JobKind, Payload
from bot.ops.metrics import Metrics

log = logging.getLogger(__name__)
P = TypeVar("P", bound=Payload)
MAX_BACKOFF = 60.0
POLL = 2.5
"""Seconds a runner waits for work before it looks again by itself. A process wakes its
own runner for the jobs it records, and every runner wakes for the next due time it read
(a deadline, a lease running out): the poll only finds what another process recorded and
could not run itself. Shorter, the replicas' looks for nothing, and the turns of their own
that gave back a job put off (now carried by the next look), were a large share of the
database's transactions (docs-dev/bot-bench-log.md)."""

__all__ = ["ClaimedJob", "JobBinding", "JobRunner", "Lane", "Postpone"]


@dataclass(frozen=True)
class JobBinding(Generic[P]):
    """A kind of job: its payload's type, the callback that runs it, and its lane's name."""

    payload: type[P]
    run: Callable[[Any, ClaimedJob, P], Awaitable[None]]
    """``async def run(app, job, payload)``."""
    lane: str = ""

    @property
    def kind(self) -> JobKind:
        """The kind this binding runs."""
        return self.payload.kind

    async def __call__(self, app: Any, job: ClaimedJob) -> None:
        """Read the job's payload and run the callback with it."""
        payload = job.payload()
        if not isinstance(payload, self.payload):  # PAYLOADS maps each kind to one type
            raise TypeError(f"job {job.kind} carries a {type(payload).__name__}")
        await self.run(app, job, payload)


@dataclass(frozen=True)
class Lane:
    """Kinds of jobs that share ``slots`` running at once in one process."""

    name: str
    kinds: frozenset[JobKind]
    slots: int


class Postpone(Exception):
    """Raised by a job callback: run this job again in ``seconds`` (not a failure).

    ``left``: what is left to do, when only part of the job was done.
    """

    def __init__(self, seconds: float, left: Payload | None = None) -> None:
        super().__init__(seconds)
        self.seconds = seconds
        self.left = left


def worker_name() -> str:
    """A name for this process's claims: host, pid and a random tag."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class JobRunner:
    """Claims and runs the due jobs of one process."""

    def __init__(
        self,
        db: Database,
        metrics: Metrics,
        *,
        clock: Clock = WALL,
        lease: float = 10.0,
        poll: float = POLL,
        lanes: tuple[Lane, ...] = (),
    ) -> None:
        """A runner that claims jobs for ``lease`` s, at most each lane's slots at once.

        ``lanes`` are claimed in their order (``bot.telegram.job_table.LANES``).
        """
        self.db = db
        self.metrics = metrics
        self.clock = clock
        self.lease = lease
        self.poll = poll
        self.lanes = lanes
        self.worker = worker_name()
        self._callbacks: dict[str, JobBinding[Any]] = {}
        self._running: dict[int, asyncio.Task[None]] = {}
        self._done: list[ClaimedJob] = []
        """Jobs that ran, finished (deleted) by the next claim's transaction."""
        self._later: list[store.Later] = []
        """Jobs that ran and come back later, given back by the next claim's transaction."""
        self._lane_of: dict[int, str] = {}
        self._wake = asyncio.Event()
        self._timer: tuple[float, asyncio.Task[None]] | None = None
        """When the loop wakes for the earliest job put off and not yet given back, and the
        sleep that wakes it (on the bot's clock: a test's held clock is moved to it, and no
        other process knows of the job before it is given back)."""
        self._stopping = False
        self._loop_task: asyncio.Task[None] | None = None
        self._jobs: dict[int, ClaimedJob] = {}
        """The job each running task runs."""
        self._held: dict[int, tuple[ClaimedJob, asyncio.Task[None]]] = {}
        """Robot turns claimed for this runner by its own changes (``held``), each with the
        sleep that starts it when due."""
        self._settled: set[int] = set()
        """Running jobs with nothing to finish or give back: robot turns whose row a later
        change of this process already replaced or dropped, and jobs whose own last
        transaction finished their row (``settle``)."""
        self._app: Any = None
        self._event_loop: asyncio.AbstractEventLoop | None = None

    def register(self, binding: JobBinding[Any]) -> None:
        """Bind a kind of job to the callback that runs it."""
        self._callbacks[binding.kind.value] = binding

    def wake(self) -> None:
        """Look for due jobs now (after this process committed a change)."""
        self._wake.set()

    def settle(self, job_id: int) -> None:
        """A running job's own last transaction finished its row (``jobs.finish_in``): its
        end leaves the loop nothing to do, and wakes it only for the lane slot it frees."""
        self._settled.add(job_id)

    def held(
        self,
        key: str,
        job: ClaimedJob | None,
        soonest: float | None = None,
        redraw: ClaimedJob | None = None,
    ) -> None:
        """A change of this process committed the robot turn ``job`` of game ``key``,
        claimed for this runner (``None``: the game has none): run it when due, with no
        claim of its own. A turn of that game running for an older state has its row
        replaced or dropped by then: its end finishes nothing. The change's other jobs
        are looked for from ``soonest``; ``redraw``: the hands' redraw it claimed for this
        runner too (``Rules.holder``; any thread)."""
        loop = self._event_loop
        if loop is None or loop.is_closed():
            return  # not running: the claim runs out and any runner takes the job
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(self._hold, key, job, soonest, redraw)

    def _hold(
        self,
        key: str,
        job: ClaimedJob | None,
        soonest: float | None,
        redraw: ClaimedJob | None = None,
    ) -> None:
        if redraw is not None:
            self._hold_redraw(redraw)
        if soonest is not None and not self._stopping:
            if soonest <= self.clock():
                self._wake.set()
            else:
                self._wake_at(soonest)
        for i, running in self._jobs.items():
            if running.kind != JobKind.ROBOT or running.key != key:
                continue
            if job is None or running.id != job.id or running.generation < job.generation:
                self._settled.add(i)
        if job is None:
            return
        self._start_when_due(job)

    def _hold_redraw(self, job: ClaimedJob) -> None:
        """Run the held hands' redraw ``job`` when due. An older run of its row finishes
        nothing and gives nothing back, running or ended: finished, or given back, it
        would release the new claim (the row is the same, of a newer generation), and
        the held run redraws whatever the older one left."""
        for i, running in self._jobs.items():
            if running.id == job.id and running.generation < job.generation:
                self._settled.add(i)
        self._done = [j for j in self._done if j.id != job.id]
        self._later = [x for x in self._later if x.job.id != job.id]
        self._start_when_due(job)

    def _start_when_due(self, job: ClaimedJob) -> None:
        """Start a job held for this runner when it is due, once (the newest generation)."""
        if self._stopping or self._loop_task is None:
            return
        waiting = self._held.get(job.id)
        if waiting is not None:
            if waiting[0].generation >= job.generation:
                return
            waiting[1].cancel()
        start = asyncio.get_running_loop().create_task(self._start_held(job))
        self._held[job.id] = (job, start)

    async def _start_held(self, job: ClaimedJob) -> None:
        """Run a held job when it is due (after its row's older run, if any)."""
        await self.clock.sleep(job.due_at - self.clock())
        waiting = self._held.get(job.id)
        if waiting is None or waiting[0] is not job:
            return
        older = self._running.get(job.id)
        if older is not None:
            await asyncio.wait({older})
        if self._held.get(job.id, (None,))[0] is not job:
            return
        del self._held[job.id]
        if self._stopping:
            return  # given back by the drain
        lane = next((x.name for x in self.lanes if job.kind in x.kinds), "")
        self._begin(self._app, job, lane)

    def _begin(self, app: Any, job: ClaimedJob, lane: str) -> None:
        self._lane_of[job.id] = lane
        self._jobs[job.id] = job
        self._running[job.id] = asyncio.create_task(self._run(app, job))

    def start(self, app: Any) -> None:
        """Start claiming on the running event loop; callbacks get ``app``."""
        if self._loop_task is None:
            self._app = app
            self._event_loop = asyncio.get_running_loop()
            self._stopping = False
            self._loop_task = asyncio.get_running_loop().create_task(self._loop(app), name="jobs")

    async def stop(self) -> None:
        """Claim nothing new, let the jobs running finish, give back the claims left."""
        task = self._loop_task
        if task is None:
            return
        self._stopping = True
        self._wake.set()
        await task

    async def _loop(self, app: Any) -> None:
        renew_at = 0.0
        failures = 0
        try:
            while not self._stopping:
                self._wake.clear()
                now = self.clock()
                try:
                    lanes = {str(kind): lane.name for lane in self.lanes for kind in lane.kinds}
                    wants = [
                        (
                            lane.kinds,
                            lane.slots - sum(n == lane.name for n in self._lane_of.values()),
                        )
                        for lane in self.lanes
                    ]
                    claimed: list[ClaimedJob] = []
                    more, nxt = False, None
                    if self._done or self._later or any(free > 0 for _, free in wants):
                        done, self._done = self._done, []
                        later, self._later = self._later, []
                        try:
                            turn = await asyncio.to_thread(
                                store.cycle,
                                self.db,
                                self.worker,
                                now,
                                self.lease,
                                wants,
                                done,
                                later,
                            )
                        except BaseException:
                            self._done[:0] = done  # finished next time
                            self._later[:0] = later
                            raise
                        found = bool(done or later or turn.claimed)
                        self.metrics.job_turns.labels("work" if found else "nothing").inc()
                        self._done[:0] = turn.unfinished
                        self._later[:0] = turn.not_given_back
                        claimed, more, nxt = turn.claimed, turn.more, turn.next_due
                    for job in claimed:
                        if job.id in self._running or job.id in self._held:
                            # still running here, its lease lapsed (a loop stalled longer
                            # than the lease, or a test's clock moved past it): claimed
                            # again is only renewed, never run twice at once
                            continue
                        self._begin(app, job, lanes.get(job.kind, ""))
                    if self._running and now >= renew_at:
                        renew_at = now + self.lease / 3
                        until = now + self.lease
                        await asyncio.to_thread(
                            store.renew, self.db, list(self._running), self.worker, until
                        )
                    failures = 0
                    if more:
                        continue  # a lane got all it asked for: there may be more
                except Unavailable as exc:
                    failures += 1
                    wait = min(MAX_BACKOFF, 0.5 * 2 ** min(failures, 8))
                    log.warning("jobs: database unavailable (%s); again in %.1f s", exc, wait)
                    nxt = now + wait
                wait = self.poll if nxt is None else min(self.poll, max(0.0, nxt - self.clock()))
                if self._later:  # given back before they are due (they were put off past a poll)
                    self._wake_at(min(x.due_at for x in self._later))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), max(wait, 0.005))
        finally:
            if self._timer is not None:
                self._timer[1].cancel()
                self._timer = None
            for _job, start in self._held.values():
                start.cancel()
            self._held.clear()
            await self._drain()

    def _wake_at(self, due: float) -> None:
        """Wake the loop when the bot's clock reaches ``due`` (or earlier, if asked so)."""
        if self._timer is not None:
            if not self._timer[1].done() and self._timer[0] <= due:
                return
            self._timer[1].cancel()

        async def sleep() -> None:
            await self.clock.sleep(due - self.clock())
            self._wake.set()

        self._timer = (due, asyncio.get_running_loop().create_task(sleep()))

    async def _drain(self) -> None:
        """Let the running jobs finish, then give back every claim left."""
        if self._running:
            await asyncio.gather(*self._running.values(), return_exceptions=True)
        with contextlib.suppress(Unavailable):
            if self._done or self._later:  # claim nothing: only finish what ran
                done, self._done = self._done, []
                later, self._later = self._later, []
                now = self.clock()
                await asyncio.to_thread(
                    store.cycle, self.db, self.worker, now, self.lease, [], done, later
                )
            released = await asyncio.to_thread(store.release_all, self.db, self.worker)
            if released:
                log.info("jobs: gave back %d claimed jobs", released)
        self._loop_task = None

    async def _run(self, app: Any, job: ClaimedJob) -> None:
        kind = job.kind
        wake = True
        try:
            callback = self._callbacks.get(kind)
            if callback is None:
                log.warning("jobs: no callback for %s", kind)
                return
            log.debug('Running job "%s:%s"', kind, job.key)
            self.metrics.jobs_due.labels(kind).inc()
            self.metrics.job_lateness.labels(kind).observe(max(0.0, self.clock() - job.due_at))
            try:
                await callback(app, job)
            except Postpone as later:
                if job.id in self._settled:
                    return
                due = self.clock() + later.seconds
                self.metrics.jobs_put_off.labels(kind).inc()
                self._give_back(job, due, failed=False, left=later.left)
                # a job put off past the next poll is given back by that turn, not by one
                # of its own (most of a hand's turns, while its table waits for the group's
                # minute or the Mini App's gap); unless its lane is full: its slot is news
                wake = later.seconds <= self.poll or self._lane_full(job.id)
                return
            except Unavailable as exc:
                if job.id in self._settled:
                    return  # its row was replaced or dropped since: nothing to retry
                wait = min(MAX_BACKOFF, 0.5 * 2**job.attempts)
                log.warning("job %s %s failed (%s); again in %.1f s", kind, job.key, exc, wait)
                self.metrics.jobs_retried.labels(kind).inc()
                self._give_back(job, self.clock() + wait, failed=True)
                return
            except Exception:
                log.exception("job %s %s failed", kind, job.key)
            if job.id in self._settled:
                # a robot turn whose own move replaced or dropped its row: no turn of the
                # loop to finish it (only a lane that was full wants one)
                wake = self._lane_full(job.id)
                return
            self._done.append(job)  # deleted with the next claim
        finally:
            self._settled.discard(job.id)
            self._jobs.pop(job.id, None)
            self._running.pop(job.id, None)
            self._lane_of.pop(job.id, None)
            if self._stopping is False and wake:
                self._wake.set()

    def _lane_full(self, job_id: int) -> bool:
        """Whether the lane of a running job has all its slots taken."""
        name = self._lane_of.get(job_id, "")
        lane = next((x for x in self.lanes if x.name == name), None)
        taken = sum(n == name for n in self._lane_of.values())
        return lane is not None and taken >= lane.slots

    def _give_back(
        self, job: ClaimedJob, due_at: float, *, failed: bool, left: Payload | None = None
    ) -> None:
        """Give the job back with the next turn's transaction (``jobs.cycle``: one
        transaction of its own each before), to run again at ``due_at``."""
        self._later.append(store.Later(job, due_at, failed, left))
        self._wake_at(due_at)
