"""The job runner: a robot's turn or a deadline never waits behind redraws."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text, update
from sqlmodel import Session, col, select

from bot.domain import AddRobot, Database, Person, RobotLevel, Rules, Start, people, tables
from bot.domain import jobs as store
from bot.domain.jobs import HandsJob, JobKind, RobotJob, TableJob
from bot.domain.models import Game, Job
from bot.ops.metrics import Metrics
from bot.telegram.arguments import truco_request
from bot.telegram.job_runner import ClaimedJob, JobBinding, JobRunner, Lane
from tests.bot.harness import FakeClock, database_url


async def until(done: Callable[[], bool], timeout: float = 60) -> None:
    """Wait for the runner's tasks (a roomy bound: a loaded machine is slow, never wrong)."""
    async with asyncio.timeout(timeout):
        while not done():
            await asyncio.sleep(0.01)


async def test_robot_turns_run_while_redraws_hold_every_redraw_slot(tmp_path: Path) -> None:
    db = Database(database_url(tmp_path))
    clock = FakeClock()
    lanes = (
        Lane("turns", frozenset({JobKind.ROBOT, JobKind.DEADLINE}), 1),
        Lane("messages", frozenset({JobKind.TABLE, JobKind.HANDS}), 2),
    )
    runner = JobRunner(db, Metrics(), clock=clock, poll=0.01, lanes=lanes)
    budget_spent = asyncio.Event()  # the redraws wait for Telegram's budget until it is set
    redrawn: list[str] = []
    moved: list[str] = []

    async def redraw(app: Any, job: ClaimedJob, payload: TableJob | HandsJob) -> None:
        await budget_spent.wait()
        redrawn.append(job.key)

    async def move(app: Any, job: ClaimedJob, payload: RobotJob) -> None:
        moved.append(job.key)

    runner.register(JobBinding(TableJob, redraw))
    runner.register(JobBinding(HandsJob, redraw))
    runner.register(JobBinding(RobotJob, move))
    # five redraws due first, then two robot turns: the old runner took the redraws first
    for i in range(5):
        store.request(db, f"-{i}:0", clock.now - 10 + i, TableJob((i,)))
    store.request(db, "7", clock.now - 1, RobotJob(7, 0, 0))
    store.request(db, "8", clock.now, RobotJob(8, 0, 0))
    runner.start(object())  # the callbacks here need no Application
    await until(lambda: len(moved) == 2)
    assert moved == ["7", "8"]  # both ran, one at a time, while the redraws waited
    assert redrawn == []
    # the robot jobs finish and are gone (deleted just after their handler returns)
    await until(lambda: {kind for kind, _key, _due in store.waiting(db)} == {JobKind.TABLE.value})
    assert redrawn == []
    budget_spent.set()
    await until(lambda: len(redrawn) == 5)
    assert sorted(redrawn) == [f"-{i}:0" for i in range(5)]
    await asyncio.wait_for(runner.stop(), 10)  # the runner drains and returns
    assert store.waiting(db) == []
    db.close()


def test_renewing_leases_skips_a_job_a_change_holds(tmp_path: Path) -> None:
    """A lease renewal never waits on (and so never deadlocks with) a change rescheduling."""
    db = Database(database_url(tmp_path))
    if db.engine.dialect.name != "postgresql":
        db.close()
        pytest.skip("row locks: PostgreSQL only (TRUCO_TEST_DATABASE_URL)")
    store.request(db, "1", 0, RobotJob(1, 0, 0))
    store.request(db, "1", 0, HandsJob(1))
    held = store.claim(db, "me", now=10, lease=5, wants=[({JobKind.ROBOT, JobKind.HANDS}, 2)])
    robot, hands = sorted(held, key=lambda j: j.kind != JobKind.ROBOT)
    pool = ThreadPoolExecutor(1)
    with db.session() as change:  # a move rescheduling the robot's turn, not yet committed
        store.schedule(change, "1", 20, RobotJob(1, 2, 0))
        renewal = pool.submit(store.renew, db, [robot.id, hands.id], "me", 99)
        try:
            renewal.result(timeout=30)  # waiting on the change's lock would never end
        finally:
            change.commit()
    pool.shutdown()
    with db.session() as s:
        leases = dict(s.exec(select(Job.kind, Job.claimed_until)).all())
    db.close()
    assert leases[JobKind.HANDS.value] == 99
    assert leases[JobKind.ROBOT.value] == 15  # skipped while locked: renewed the next time


def test_jobs_that_ran_are_finished_with_the_next_claim(tmp_path: Path) -> None:
    """One transaction finishes the jobs that ran and claims the next: a job rescheduled
    while it ran is given back (it runs again); one a change holds is skipped, not waited
    for, and finished the next time; one cancelled meanwhile is forgotten."""
    db = Database(database_url(tmp_path))
    for key in ("1", "2", "3", "4"):
        store.request(db, key, 0, HandsJob(int(key)))
    hands = ({JobKind.HANDS}, 4)
    turn = store.cycle(db, "me", now=10, lease=5, wants=[hands])
    assert len(turn.claimed) == 4 and turn.more  # the lane got all it asked for
    ran = {j.key: j for j in turn.claimed}
    store.request(db, "2", 11, HandsJob(2))  # redrawn again while it ran
    with db.session() as s:
        store.cancel(s, JobKind.HANDS, "3")
        s.commit()
    postgres = db.engine.dialect.name == "postgresql"
    pool = ThreadPoolExecutor(1)
    with db.session() as change:
        if postgres:  # a move rescheduling job 4, not yet committed (row locks: PostgreSQL)
            store.schedule(change, "4", 12, HandsJob(4), keep_earlier=True)
        done = list(ran.values())
        running = pool.submit(store.cycle, db, "me", 12, 5, [hands], done)
        try:
            turn = running.result(timeout=30)  # waiting on the change's lock would never end
        finally:
            change.commit()
    pool.shutdown()
    # job 2 came back at once: due, and given back by the same transaction
    assert [j.key for j in turn.claimed] == ["2"] and not turn.more
    assert [j.key for j in turn.unfinished] == (["4"] if postgres else [])
    waiting = {key for _kind, key, _due in store.waiting(db)}
    assert waiting == ({"2", "4"} if postgres else {"2"})
    turn = store.cycle(db, "me", 13, 5, [], turn.unfinished)
    assert turn.unfinished == [] and turn.next_due is None  # only finished: no lane to look at
    if postgres:  # rescheduled while held: given back, not deleted
        assert {key for _kind, key, _due in store.waiting(db)} == {"2", "4"}
        assert [j.key for j in store.cycle(db, "me", 14, 5, [hands]).claimed] == ["4"]
    db.close()


def test_a_redraw_finished_by_its_own_last_save_only_while_the_row_is_that_runs(
    tmp_path: Path,
) -> None:
    """A redraw's last write finishes its job in the same transaction (``finish_in``), and
    only the run that holds the row: one rescheduled while it ran stays (it runs again),
    one another runner took over stays with that runner."""
    db = Database(database_url(tmp_path))
    for key in ("1", "2", "3"):
        store.request(db, key, 0, HandsJob(int(key)))
    hands = ({JobKind.HANDS}, 3)
    ran = {j.key: j for j in store.cycle(db, "me", now=10, lease=5, wants=[hands]).claimed}
    store.request(db, "2", 11, HandsJob(2))  # redrawn again while it ran
    with db.session() as s:
        assert store.finish_in(s, ran["1"], "another") is False  # not that runner's
        assert store.finish_in(s, ran["1"], "me") is True
        assert store.finish_in(s, ran["2"], "me") is False  # a newer generation
        s.commit()
    assert sorted(key for _kind, key, _due in store.waiting(db)) == ["2", "3"]
    # the job rescheduled meanwhile is given back by the runner's next turn, and runs again
    turn = store.cycle(db, "me", 12, 5, [hands], [ran["2"]])
    assert [j.key for j in turn.claimed] == ["2"]
    # a run whose lease ran out and was taken over finishes nothing
    taken = store.cycle(db, "another", 16, 5, [({JobKind.HANDS}, 1)]).claimed
    assert [j.key for j in taken] == ["3"]
    with db.session() as s:
        assert store.finish_in(s, ran["3"], "me") is False
        s.commit()
    assert sorted(key for _kind, key, _due in store.waiting(db)) == ["2", "3"]
    db.close()


def test_a_job_recorded_for_a_runner_wakes_only_that_runner_until_it_is_overdue(
    tmp_path: Path,
) -> None:
    """A job recorded for a runner (``Job.runner``: the process whose change recorded it)
    is that runner's to wake for and claim; another runner neither wakes for it nor takes it
    until it is ``ORPHANED`` past its due time (its process gone). A job rescheduled while it
    ran, or put off, becomes the runner's that gives it back (the one awake for it)."""
    db = Database(database_url(tmp_path))
    hands = ({JobKind.HANDS}, 5)
    with db.session() as s:
        store.schedule(s, "1", 10.0, HandsJob(1), runner="a")
        store.schedule(s, "2", 12.0, HandsJob(2))  # anyone's
        s.commit()
    # before any is due: "a" wakes for its own, "b" only for anyone's
    assert store.cycle(db, "a", 5.0, 5, [hands]).next_due == 10.0
    assert store.cycle(db, "b", 5.0, 5, [hands]).next_due == 12.0
    # due: "b" leaves "a"'s job alone, and takes it once overdue
    assert store.cycle(db, "b", 10.5, 5, [({JobKind.HANDS}, 1)]).claimed == []
    late = 10.0 + store.ORPHANED
    assert [j.key for j in store.cycle(db, "b", late, 5, [hands]).claimed] == ["1", "2"]
    # "a" rescheduled job 1 while "b" ran it: "b"'s turn releases it and takes it over
    with db.session() as s:
        store.schedule(s, "1", late + 1, HandsJob(1), runner="a")
        s.commit()
    ran = store.cycle(db, "b", late + 1, 5, [hands], done=[])
    assert ran.claimed == []  # still "b"'s claim, under its lease
    with db.session() as s:
        job1 = s.exec(select(Job).where(Job.key == "1")).one()
        job2 = s.exec(select(Job).where(Job.key == "2")).one()
    first = store.ClaimedJob(job1.id or 0, "hands", "1", 10.0, {"game": 1}, 1, 0, late + 5)
    second = store.ClaimedJob(job2.id or 0, "hands", "2", 12.0, {"game": 2}, 1, 0, late + 5)
    turn = store.cycle(db, "b", late + 2, 5, [hands], done=[first, second])
    assert [j.key for j in turn.claimed] == ["1"]  # run again by "b", at once
    assert store.cycle(db, "a", late + 2, 5, [hands]).claimed == []
    # a runner stopping gives its jobs to anyone, at their time
    with db.session() as s:
        store.schedule(s, "3", late + 3, HandsJob(3), runner="a")
        s.commit()
    store.release_all(db, "a")
    assert [j.key for j in store.cycle(db, "b", late + 3, 5, [hands]).claimed] == ["3"]
    db.close()


def test_a_change_claims_the_hands_redraw_for_its_runner_unless_another_holds_it(
    tmp_path: Path,
) -> None:
    """The hands' redraw is claimed for the changing process's runner in the change
    (``hold_redraw``), as a robot's turn is, keeping a sooner time; a redraw another process
    holds (running it) is left to it: ``None``, and the caller records it to run again."""
    from bot.domain.jobs import hold_redraw

    class Holder:
        def __init__(self, worker: str) -> None:
            self.worker, self.lease = worker, 10.0

        def held(self, key: str, job: Any, soonest: float | None, redraw: Any = None) -> None:
            raise AssertionError("not called here")

    db = Database(database_url(tmp_path))
    a, b = Holder("a"), Holder("b")
    with db.session() as s:
        first = hold_redraw(s, "1", 11.0, HandsJob(1), a, now=10.0)
        s.commit()
    assert first is not None and first.due_at == 11.0
    with db.session() as s:  # "a" again, later: the sooner time stays, a newer generation
        again = hold_redraw(s, "1", 12.0, HandsJob(1), a, now=10.5)
        s.commit()
    assert again is not None and again.due_at == 11.0 and again.generation > first.generation
    with db.session() as s:  # "b" finds it held by "a": left to "a"
        assert hold_redraw(s, "1", 11.5, HandsJob(1), b, now=11.0) is None
        s.commit()
    assert store.cycle(db, "b", 11.5, 5, [({JobKind.HANDS}, 1)]).claimed == []
    with db.session() as s:  # "a"'s claim ran out: "b" takes it over
        taken = hold_redraw(s, "1", 30.0, HandsJob(1), b, now=25.0)
        s.commit()
    assert taken is not None and taken.lease_until == 40.0
    with db.session() as s:  # the finish of "a"'s older run finishes nothing
        assert store.finish_in(s, again, "a") is False
        assert store.finish_in(s, taken, "b") is True
        s.commit()
    assert store.waiting(db) == []
    db.close()


def test_a_change_wakes_for_a_redraw_kept_sooner_which_is_now_its_own(tmp_path: Path) -> None:
    """A table redraw recorded sooner by another process's change is this change's process's
    to run once it records it again (``Job.runner``): the change tells its runner to wake
    for the time kept, not for its own later one (the other process no longer takes it)."""
    from bot.domain.values.game import Change, GameStatus

    class Holder:
        lease = 10.0

        def __init__(self, worker: str) -> None:
            self.worker = worker

        def held(self, key: str, job: Any, soonest: float | None, redraw: Any = None) -> None:
            raise AssertionError("not called here")

    db = Database(database_url(tmp_path))
    change = Change(5, -100, None, False, GameStatus.PLAYING, 2, 1000.0, None)
    with db.session() as s:  # another process's change: the table due at 12 s
        store.after_change(s, change, 10.0, 0.0, table_wait=2.0, holder=Holder("a"))
        s.commit()
    with db.session() as s:  # this one's asks for 15 s: 12 s is kept, and now its own
        held = store.after_change(
            s,
            replace(change, version=3),
            11.0,
            0.0,
            table_wait=4.0,
            hands=False,
            holder=Holder("b"),
        )
        s.commit()
    assert held.soonest == 12.0
    hands_and_table = [({JobKind.TABLE}, 5)]
    assert store.cycle(db, "a", 12.0, 5, hands_and_table).claimed == []
    assert [j.kind for j in store.cycle(db, "b", 12.0, 5, hands_and_table).claimed] == ["table"]
    db.close()


def test_jobs_put_off_are_given_back_with_the_next_claim(tmp_path: Path) -> None:
    """A job that asked to run later is given back by the runner's next turn, in its one
    transaction: claimable again at its new time, with what was left of it, its attempt
    counted when it failed; one rescheduled meanwhile keeps the new time and data."""
    db = Database(database_url(tmp_path))
    store.request(db, "-1:0", 0, TableJob((1, 2)))
    store.request(db, "-2:0", 0, TableJob((3,)))
    store.request(db, "5", 0, HandsJob(5))
    lanes = [({JobKind.TABLE, JobKind.HANDS}, 8)]
    turn = store.cycle(db, "me", now=10, lease=5, wants=lanes)
    ran = {j.key: j for j in turn.claimed}
    store.request(db, "-2:0", 11, TableJob((4,)))  # a move asked for it again meanwhile
    later = [
        store.Later(ran["-1:0"], 30.0, left=TableJob((2,))),
        store.Later(ran["-2:0"], 40.0),
        store.Later(ran["5"], 20.0, failed=True),
    ]
    turn = store.cycle(db, "me", 12, 5, lanes, later=later)
    assert [j.key for j in turn.claimed] == ["-2:0"]  # rescheduled: its own time, now due
    assert turn.claimed[0].payload() == TableJob((3, 4))
    assert turn.not_given_back == []
    assert store.cycle(db, "me", 13, 5, lanes, turn.claimed).claimed == []  # it ran: done
    assert store.cycle(db, "me", 19, 5, lanes).claimed == []
    [hands] = store.cycle(db, "me", 20, 5, lanes).claimed
    assert hands.key == "5" and hands.attempts == 1
    assert store.cycle(db, "me", 21, 5, lanes, [hands]).claimed == []
    [table] = store.cycle(db, "me", 30, 5, lanes).claimed
    assert table.key == "-1:0" and table.payload() == TableJob((2,))
    db.close()


def test_a_job_redrawn_again_as_its_run_is_finished_runs_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A request committed between the turn's read of the jobs that ran and their delete
    (SQLite locks nothing on that read) is not deleted with them: the job runs again."""
    db = Database(database_url(tmp_path))
    store.request(db, "chat", 0, TableJob((1,)))
    table = ({JobKind.TABLE}, 1)
    [ran] = store.cycle(db, "me", now=10, lease=5, wants=[table]).claimed
    postgres = db.engine.dialect.name == "postgresql"
    pool = ThreadPoolExecutor(1)
    pending: list[Any] = []
    execute = Session.execute

    def racing(self: Session, statement: Any, *args: Any, **kwargs: Any) -> Any:
        if statement is store._DONE and not pending:
            # someone joins the lobby: its redraw is requested while this one finishes
            pending.append(pool.submit(store.request, db, "chat", 11, TableJob((1,))))
            if not postgres:  # on PostgreSQL the request waits for this turn's row lock
                pending[0].result(timeout=30)
        return execute(self, statement, *args, **kwargs)

    monkeypatch.setattr(Session, "execute", racing)
    store.cycle(db, "me", 12, 5, [], [ran])
    monkeypatch.undo()
    pending[0].result(timeout=30)
    pool.shutdown()
    assert [key for _kind, key, _due in store.waiting(db)] == ["chat"]
    assert [j.key for j in store.cycle(db, "me", 13, 5, [table]).claimed] == ["chat"]
    db.close()


def test_a_full_lane_does_not_make_the_runner_look_again_at_once(tmp_path: Path) -> None:
    """With every redraw slot busy, a due redraw is not claimable: the next time to look is
    the next job of a lane with room (a redraw ending wakes the runner anyway)."""
    db = Database(database_url(tmp_path))
    store.request(db, "1", 0, HandsJob(1))  # due, but its lane is full
    store.request(db, "2", 50, RobotJob(2, 0, 0))
    turns, redraws = ({JobKind.ROBOT, JobKind.DEADLINE}, 4), ({JobKind.HANDS}, 0)
    turn = store.cycle(db, "me", now=10, lease=5, wants=[turns, redraws])
    assert turn.claimed == [] and turn.next_due == 50
    turn = store.cycle(db, "me", now=10, lease=5, wants=[turns, ({JobKind.HANDS}, 2)])
    assert [j.key for j in turn.claimed] == ["1"] and turn.next_due == 15  # its lease
    db.close()


def test_a_redraw_held_for_the_groups_minute_keeps_its_time(tmp_path: Path) -> None:
    """A table's redraw put off for room in the group's minute keeps its time when a change
    asks for it with ``keep`` (a line that goes with the ones waiting), and takes the
    change's games; asked for without it, it comes at once, as before."""
    db = Database(database_url(tmp_path))
    with db.session() as s:
        store.schedule(s, "-100:0", 50, TableJob((1,)), keep_earlier=True, merge=True)
        s.commit()

    def due_and_games() -> tuple[float, list[int]]:
        with db.session() as s:
            row = s.exec(select(Job).where(Job.kind == JobKind.TABLE)).one()
            return row.due_at, store.read_payload(row.kind, json.loads(row.data)).games  # type: ignore[union-attr]

    with db.session() as s:
        store.schedule(s, "-100:0", 10, TableJob((1,)), keep_earlier=True, merge=True, keep=True)
        s.commit()
    assert due_and_games() == (50, (1,))
    with db.session() as s:  # another game of the chat: merged, still at its time
        store.schedule(s, "-100:0", 10, TableJob((2,)), keep_earlier=True, merge=True, keep=True)
        s.commit()
    assert due_and_games() == (50, (1, 2))
    with db.session() as s:  # no job waiting: it is due when asked
        store.cancel(s, JobKind.TABLE, "-100:0")
        store.schedule(s, "-100:0", 10, TableJob((3,)), keep_earlier=True, merge=True, keep=True)
        s.commit()
    assert due_and_games() == (10, (3,))
    with db.session() as s:  # without keep an earlier time wins
        store.schedule(s, "-100:0", 5, TableJob((3,)), keep_earlier=True, merge=True)
        s.commit()
    assert due_and_games() == (5, (3,))
    db.close()


def test_a_replica_resuming_a_table_waits_for_the_change_that_holds_it(tmp_path: Path) -> None:
    """A replica that starts while another plays resumes each table's jobs behind the table's
    own lock: it never holds some of a table's jobs while waiting for others a change holds
    (the change then waited for it: PostgreSQL's deadlock, seen as a replica came back)."""
    db = Database(database_url(tmp_path))
    if db.engine.dialect.name != "postgresql":
        db.close()
        pytest.skip("row locks: PostgreSQL only (TRUCO_TEST_DATABASE_URL)")
    now = 1_800_000_000.0
    rules = Rules(decision_seconds=30, seed=7, clock=lambda: now, robot_delay=0)
    ana = Person(1, "Ana")
    people.meet(db, ana, started=True)
    request = truco_request(["1x1"], people.chat_settings(db, -100))
    table = tables.open_table(db, -100, None, ana, request)
    tables.lobby(db, table.id, ana, AddRobot(RobotLevel.FACIL), authorised=True, rules=rules)
    started = tables.lobby(db, table.id, ana, Start(), authorised=True, rules=rules)
    key = str(table.id)
    # what a resume writes first for this table: the robot's turn, or the person's clock
    first = JobKind.ROBOT if started.robot_seat is not None else JobKind.DEADLINE
    pool = ThreadPoolExecutor(1)
    with db.session() as change:  # a move on another replica, not yet committed
        change.execute(update(Game).where(col(Game.id) == table.id).values(version=Game.version))
        store.schedule(change, key, now, HandsJob(table.id), keep_earlier=True)
        resumed = pool.submit(tables.resume_jobs, db, rules)
        _until_someone_waits_for_a_lock(db)
        store.cancel(change, first.value, key)  # the change drops what the resume wrote
        change.commit()
    assert resumed.result(timeout=60) == 1  # no deadlock: both went through
    pool.shutdown()
    db.close()


def _until_someone_waits_for_a_lock(db: Database) -> None:
    """Return once a session of the database waits for a lock (bounded: a slow machine)."""
    waiting = text(
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    for _ in range(3000):
        with db.engine.connect() as conn:
            if conn.execute(waiting).scalar():
                return
        time.sleep(0.01)  # polls a lock table; nothing here waits on the wall clock's passing
    raise AssertionError("the resume never waited for the change's lock")


def test_the_hands_wait_for_a_robots_answer_and_come_at_once_for_a_persons_turn(
    tmp_path: Path,
) -> None:
    """A change that leaves a robot to act redraws the hands only after ``hands_wait`` (the
    robot's answer, due sooner, brings them to its time: one edit, not two); a change that
    leaves a person to act, or ends the match, redraws them at once. Robots slower than a
    toast stays on screen are not waited for."""
    from bot.domain.values.game import Change, GameStatus

    db = Database(database_url(tmp_path))
    wait = store.hands_wait(0.0)
    assert 0 < wait <= store.FOLD_MAX and store.hands_wait(store.FOLD_MAX) == 0

    def hands_due() -> float:
        with db.session() as s:
            row = s.exec(select(Job).where(Job.kind == JobKind.HANDS, Job.key == "5")).one()
            return row.due_at

    def change(version: int, robot: int | None, status: GameStatus = GameStatus.PLAYING) -> Change:
        deadline = None if robot is not None else 1000.0
        return Change(5, -100, None, False, status, version, deadline, robot)

    with db.session() as s:  # Ana played: the robot answers next
        store.after_change(s, change(2, robot=1), 10.0, 0.0)
        s.commit()
    assert hands_due() == 10.0 + wait
    with db.session() as s:  # the robot won the trick and leads: still a robot next
        store.after_change(s, change(3, robot=1), 10.2, 0.0)
        s.commit()
    assert hands_due() == 10.0 + wait  # the first wait keeps its time
    with db.session() as s:  # the robot played: Ana's turn is drawn now
        store.after_change(s, change(4, robot=None), 10.4, 0.0)
        s.commit()
    assert hands_due() == 10.4
    with db.session() as s:  # robots that think longer than a toast shows: no waiting
        store.cancel(s, JobKind.HANDS, "5")
        store.after_change(s, change(5, robot=1), 20.0, store.FOLD_MAX)
        s.commit()
    assert hands_due() == 20.0
    with db.session() as s:  # a match over is drawn at once
        store.cancel(s, JobKind.HANDS, "5")
        store.after_change(s, change(6, robot=1, status=GameStatus.OVER), 30.0, 0.0)
        s.commit()
    assert hands_due() == 30.0
    db.close()


def test_a_move_that_owes_the_group_nothing_leaves_a_waiting_table_redraw_at_its_time(
    tmp_path: Path,
) -> None:
    """A table redraw put off until the group's minute has room stays put off when a move
    that owes the group nothing comes (``table_held``: brought forward, it read the table
    only to wait again), and the change wakes no runner for it before then; with no redraw
    waiting, the move's redraw is due at once."""
    from bot.domain.values.game import Change, GameStatus

    db = Database(database_url(tmp_path))
    key = store.table_key(-100, None)

    def table_due() -> float:
        with db.session() as s:
            row = s.exec(select(Job).where(Job.kind == JobKind.TABLE, Job.key == key)).one()
            return row.due_at

    def change(version: int) -> Change:  # a person's turn: only its deadline is due later
        return Change(5, -100, None, False, GameStatus.PLAYING, version, 1000.0, None)

    with db.session() as s:  # no redraw waiting: the move's is due now
        soonest = store.after_change(s, change(2), 10.0, 0.0, table_held=True).soonest
        s.commit()
    assert table_due() == 10.0 and soonest == 10.0
    with db.session() as s:  # the redraw found no room: put off to 16 s
        store.schedule(s, key, 16.0, store.TableJob((5,)))
        s.commit()
    with db.session() as s:  # a move owing nothing keeps it there; its hands, due since 10 s
        soonest = store.after_change(s, change(3), 11.0, 0.0, table_held=True).soonest
        s.commit()
    assert table_due() == 16.0 and soonest == 10.0
    with db.session() as s:  # its hands drawn, the next such move wakes nobody before 16 s
        store.cancel(s, JobKind.HANDS, "5")
        soonest = store.after_change(s, change(4), 12.0, 0.0, hands=False, table_held=True).soonest
        s.commit()
    assert table_due() == 16.0 and soonest == 16.0
    with db.session() as s:  # a move that owes the group a line brings it forward
        store.after_change(s, change(5), 13.0, 0.0)
        s.commit()
    assert table_due() == 13.0
    db.close()
