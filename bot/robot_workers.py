"""Robot decisions away from the event loop's way.

Fácil and médio decide in well under a millisecond, so they run inline. Difícil
searches for up to its budget (~200 ms of pure Python); in a thread it would hold
the GIL and stall every button answer, so it runs in a worker process. When
several difícil turns queue up the budget of each shrinks, so robots stay quick
and the worker never falls minutes behind. Nothing here keeps game state.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from bot.ops.lifecycle import die_with_parent
from engine.actions import Action
from engine.levels import ROBOT_LEVELS
from engine.robots import get_robot, normalize_level
from engine.view import View

INLINE_LEVELS = frozenset(name for name, lv in ROBOT_LEVELS.items() if not lv.searches)
"""The levels that think briefly enough to run in the bot's own process."""
MIN_BUDGET_MS = 20.0
"""Difícil thinks at least this long, however long the queue."""


def decide(level: str, seed: int, budget_ms: float, view: View) -> Action:
    """One robot decision (a top-level function so a worker process can run it)."""
    return get_robot(level, seed=seed, budget_ms=budget_ms).choose(view)


def _start_worker() -> None:
    # the bot's event loop answers people; searching robots take the CPU it leaves
    os.nice(10)
    die_with_parent()  # a kill -9 of the bot must not leave searching orphans


def budget_under_load(budget_ms: float, queued: int, workers: int) -> float:
    """The thinking time of one difícil decision when ``queued`` others wait (ms)."""
    waves = 1 + queued // max(1, workers)
    return max(min(budget_ms, MIN_BUDGET_MS), budget_ms / waves)


@dataclass
class Thinkers:
    """The worker processes that run difícil robots (started on first use)."""

    workers: int = field(default_factory=lambda: max(1, (os.cpu_count() or 2) - 1))
    queued: int = 0
    _pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")  # no fork of a threaded process
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_start_worker
            )
        return self._pool

    async def choose(self, level: str, seed: int, budget_ms: float, view: View) -> Action:
        """The robot's action; raises whatever the robot or its worker raised."""
        if normalize_level(level) in INLINE_LEVELS:
            return decide(level, seed, budget_ms, view)
        budget = budget_under_load(budget_ms, self.queued, self.workers)
        self.queued += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor(), decide, level, seed, budget, view)
        except BrokenProcessPool:
            self.close()  # a worker died: the next turn starts a new pool
            raise
        finally:
            self.queued -= 1

    def close(self) -> None:
        """Stop the workers at once; decisions pending or running are dropped (a restart
        redoes them), so a stopping bot never waits on a robot's thought."""
        if self._pool is None:
            return
        pool, self._pool = self._pool, None
        # Python exits only once every worker has finished the decision it holds, and on a
        # loaded machine a niced worker's search can take longer than a stop may. Python
        # 3.11 has no public way to end them (3.14's ``terminate_workers``), and a worker
        # holds nothing to lose.
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.terminate()
