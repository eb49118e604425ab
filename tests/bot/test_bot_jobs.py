"""The job runner: a robot's turn or a deadline never waits behind redraws."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from bot.domain import Database
from bot.domain import jobs as store
from bot.ops.metrics import Metrics
from bot.telegram.jobs import ClaimedJob, JobKind, JobRunner, Lane
from tests.bot.harness import FakeClock, database_url


class _App:
    """What the runner needs of an Application: it runs, and it makes tasks."""

    def __init__(self) -> None:
        self.running = True
        self.tasks: list[asyncio.Task[None]] = []

    def create_task(
        self, coro: Coroutine[Any, Any, None], name: str | None = None
    ) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self.tasks.append(task)
        return task


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

    async def redraw(app: Any, job: ClaimedJob) -> None:
        await budget_spent.wait()
        redrawn.append(job.key)

    async def move(app: Any, job: ClaimedJob) -> None:
        moved.append(job.key)

    runner.register(JobKind.TABLE, redraw)
    runner.register(JobKind.HANDS, redraw)
    runner.register(JobKind.ROBOT, move)
    # five redraws due first, then two robot turns: the old runner took the redraws first
    for i in range(5):
        store.request(db, JobKind.TABLE, f"-{i}:0", clock.now - 10 + i, {"games": [i]})
    store.request(db, JobKind.ROBOT, "7", clock.now - 1, {"game": 7})
    store.request(db, JobKind.ROBOT, "8", clock.now, {"game": 8})
    app = _App()
    runner.start(app)
    await until(lambda: len(moved) == 2)
    assert moved == ["7", "8"]  # both ran, one at a time, while the redraws waited
    assert redrawn == []
    running = {kind for kind, _key, _due in store.waiting(db)}
    assert running == {JobKind.TABLE.value}  # the robot jobs are finished and gone
    budget_spent.set()
    await until(lambda: len(redrawn) == 5)
    assert sorted(redrawn) == [f"-{i}:0" for i in range(5)]
    app.running = False  # the Application stops: the runner drains and returns
    runner.wake()
    await asyncio.wait_for(app.tasks[0], 10)
    assert store.waiting(db) == []
    db.close()
