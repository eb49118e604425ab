"""Robot turns in the bot: cheap levels inline, difícil in a worker process, budget under load."""

from __future__ import annotations

import asyncio
import os
import time

from bot.robot_workers import MIN_BUDGET_MS, Thinkers, budget_under_load, decide
from engine import Match, TableOptions, get_ruleset


def a_view():
    """A seat's view with several legal actions (first decision of a seeded hand)."""
    m = Match(get_ruleset("paulista"), TableOptions(players=2), seed=3)
    seat = m.to_act()[0]
    return m.view(seat)


def test_budget_shrinks_with_the_queue_but_not_below_the_floor() -> None:
    assert budget_under_load(250, 0, 1) == 250
    assert budget_under_load(250, 1, 1) == 125
    assert budget_under_load(250, 3, 2) == 125  # two workers: the 3rd and 4th wait one turn
    assert budget_under_load(250, 1000, 1) == MIN_BUDGET_MS
    assert budget_under_load(10, 50, 1) == 10  # a budget already under the floor stays


async def test_dificil_decides_in_a_worker_process_and_medio_inline() -> None:
    view = a_view()
    thinkers = Thinkers(workers=1)
    try:
        medio = await thinkers.choose("medio", 7, 250, view)
        assert thinkers._pool is None  # médio never started a worker
        assert medio == decide("medio", 7, 250, view)
        action = await thinkers.choose("dificil", 7, 30, view)
        assert action in view.legal
        assert thinkers._pool is not None
        worker_pids = {p.pid for p in thinkers._pool._processes.values()}  # type: ignore[attr-defined]
        assert worker_pids and os.getpid() not in worker_pids
        assert thinkers.queued == 0
    finally:
        thinkers.close()
    assert thinkers._pool is None


async def test_closing_never_waits_for_a_thought_in_progress() -> None:
    """A stopping bot drops the decision a worker is running instead of waiting for it."""
    thinkers = Thinkers(workers=2)
    try:
        long = thinkers._executor().submit(time.sleep, 600)  # a thought that never ends
        quick = await thinkers.choose("dificil", 7, 30, a_view())  # the worker is up and taking
        assert quick in a_view().legal
        workers = list(thinkers._pool._processes.values())  # type: ignore[union-attr]
        assert workers and all(w.is_alive() for w in workers)
    finally:
        thinkers.close()
    for worker in workers:
        await asyncio.to_thread(worker.join, 60)  # ends as soon as it is gone
        assert not worker.is_alive()
    assert long.cancelled() or isinstance(long.exception(timeout=60), Exception)


def test_the_bots_robot_levels_are_the_engines() -> None:
    from bot.domain import RobotLevel
    from engine.robots import LEVELS

    assert tuple(RobotLevel) == LEVELS
